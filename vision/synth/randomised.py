"""Random synthetic tables: a camera, light and look drawn over every kind of trouble the
synthetic table can make, a Coin Isolation board in play, a hand reaching over the mat.

Re-exported by :mod:`vision.synth`, where they are usually imported from.
"""

from __future__ import annotations

from dataclasses import replace

import numpy as np

from calibration.geometry import MatGeometry, coin_isolation_mat
from vision.synth import PLAYER_COLOURS, SynthScene, Variation
from vision.synth.camera import CameraPose
from vision.synth.effects import SKIN_TONES, Hand, Light
from vision.synth.layout import MIXED_CHANGE_SHARE, board_coins

__all__ = ["random_hand", "random_scene", "random_variation"]


def random_variation(
    seed: int, max_tilt_deg: float = 35.0, geometry: MatGeometry | None = None
) -> Variation:
    """A variation drawn at random over every kind of trouble the synthetic table can make.

    The camera is drawn so that every marker of ``geometry`` (Coin Isolation's by default) and
    its quiet zone lie inside the frame: the mat is zoomed out a little until they do.
    """
    rng = np.random.default_rng([seed, 1])
    pose = CameraPose(
        tilt_deg=float(rng.uniform(0, max_tilt_deg)),
        tilt_azimuth_deg=float(rng.choice([0.0, 0.0, 90.0, 180.0, 270.0]) + rng.uniform(-30, 30)),
        rotation_deg=float(rng.uniform(-15, 15)),
        fill=float(rng.uniform(0.78, 0.95)),
        offset=(float(rng.uniform(-0.8, 0.8)), float(rng.uniform(-0.8, 0.8))),
        focal_px=float(rng.uniform(1200, 1700)),
    )
    lens_k1 = float(rng.uniform(-0.04, 0.03))
    pose = _fit_markers(pose, lens_k1, geometry or coin_isolation_mat())
    light = Light(
        warmth=float(rng.uniform(-1, 1)),
        exposure=float(rng.uniform(0.8, 1.1)),
        gradient=float(rng.uniform(0, 0.35)),
        direction_deg=float(rng.uniform(0, 360)),
        shadows=int(rng.integers(0, 3)),
        shadow_strength=float(rng.uniform(0.15, 0.4)),
        glare=float(rng.uniform(0, 1) if rng.uniform() < 0.5 else 0.0),
        seed=int(rng.integers(0, 2**31)),
    )
    return Variation(
        pose=pose,
        lens_k1=lens_k1,
        light=light,
        noise=float(rng.uniform(1.0, 5.0)),
        blur=float(rng.uniform(0, 1.3)),
        jpeg_quality=int(rng.integers(55, 96)),
        tarnish=float(rng.uniform(0, 0.8)),
        placement=float(rng.uniform(0.2, 1.0)),
        table=int(rng.integers(0, 4)),
    )


def _fit_markers(pose: CameraPose, lens_k1: float, geometry: MatGeometry,
                 image_size: tuple[int, int] = (1920, 1080)) -> CameraPose:
    """``pose`` zoomed out until every marker with its quiet zone is 4 pixels inside the frame."""
    quiet = geometry.quiet_zone_mm
    points = []
    for marker in geometry.markers:
        x, y = marker.centre
        half = marker.side_mm / 2 + quiet
        points += [(x - half, y - half), (x + half, y - half), (x + half, y + half),
                   (x - half, y + half)]
    probe = SynthScene(geometry, variation=Variation(pose=pose, lens_k1=lens_k1),
                       image_size=image_size)
    for _ in range(20):
        pixels = probe.project(points)
        inside = (pixels.min() >= 4 and pixels[:, 0].max() <= image_size[0] - 5
                  and pixels[:, 1].max() <= image_size[1] - 5)
        if inside:
            break
        pose = replace(pose, fill=pose.fill - 0.02)
        probe = replace(probe, variation=replace(probe.variation, pose=pose))
    return pose


def random_scene(seed: int, variation: Variation | None = None, players: int = 2,
                 geometry: MatGeometry | None = None, mixed_change: bool | None = None
                 ) -> SynthScene:
    """A Coin Isolation board in play: most squares with a coin, a few stacks and empties, pawns.

    Coins as :func:`vision.synth.layout.board_coins` draws them: same-kind stacks, or under
    ``mixed_change`` (by default a :data:`~vision.synth.layout.MIXED_CHANGE_SHARE` of seeds;
    the scene's ``variants`` then name it) mixed stacks smallest on top. ``players`` pawns in
    :data:`PLAYER_COLOURS` order on random squares.
    """
    rng = np.random.default_rng([seed, 2])
    geometry = geometry or coin_isolation_mat()
    names = [region.name for region in geometry.regions if region.kind == "square"]
    if mixed_change is None:
        mixed_change = bool(rng.uniform() < MIXED_CHANGE_SHARE)
    coins = board_coins(rng, names, mixed_change)
    spots = rng.choice(len(names), size=players, replace=False)
    pawns = {names[int(spot)]: PLAYER_COLOURS[index] for index, spot in enumerate(spots)}
    variation = variation or random_variation(seed, geometry=geometry)
    variants = ("mixed-change",) if mixed_change else ()
    return SynthScene.build(coins, pawns, geometry, variation, layout_seed=seed,
                            variants=variants)


def random_hand(seed: int, geometry: MatGeometry | None = None, cover_marker: int | None = None
                ) -> Hand:
    """A hand reaching over the play area, or onto marker ``cover_marker`` when given."""
    rng = np.random.default_rng([seed, 3])
    geometry = geometry or coin_isolation_mat()
    if cover_marker is not None:
        target = geometry.marker(cover_marker).centre
    else:
        left, top, right, bottom = geometry.play_area.bounds()
        target = (float(rng.uniform(left + 20, right - 20)),
                  float(rng.uniform(top + 20, bottom - 20)))
    edge = str(rng.choice(["bottom", "top", "left", "right"]))
    if cover_marker is not None:
        edge = "bottom" if target[1] > geometry.height_mm / 2 else "top"
    return Hand(
        target_mm=(float(target[0]), float(target[1])),
        edge=edge,  # type: ignore[arg-type]
        entry=float(rng.uniform(0.2, 0.8)),
        skin=int(rng.integers(0, len(SKIN_TONES))),
        sleeve=None if rng.uniform() < 0.5 else tuple(int(v) for v in rng.integers(20, 220, 3)),  # type: ignore[arg-type]
        size=float(rng.uniform(0.9, 1.1)),
    )
