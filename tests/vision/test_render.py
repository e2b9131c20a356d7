"""The physically based table renderer: frames the board finder finds, true geometry, light
that behaves like light, determinism, and the command line. Real renders, no mocks."""

import json
import math
from dataclasses import replace

import cv2
import numpy as np
import pytest

from calibration.geometry import coin_isolation_mat
from vision.markers import MarkerConfig, find_board
from vision.synth.physical import (
    CameraParams,
    LightParams,
    SensorParams,
    StyleParams,
    TableScene,
    Variation,
    calibration_scene,
    empty_scene,
    heldout_variation,
    random_table_scene,
    render_table,
    scene_radiance,
    tuning_variation,
    variation_for,
)
from vision.synth.physical.heldout import HELDOUT_PAWN_SHAPES
from vision.synth.physical.layout import coin_radius, place
from vision.synth.physical.materials import srgb_to_linear
from vision.synth.physical.stress import FACTORS, stress_factor
from vision.synth.physical.stress import FIRST_SEED as STRESS_FIRST_SEED
from vision.synth.physical.tool import main as tool_main
from vision.synth.physical.variation import TUNING_PAWN_SHAPES, lamp_position

GEOMETRY = coin_isolation_mat()
MAT_CENTRE = (GEOMETRY.width_mm / 2, GEOMETRY.height_mm / 2)


def clean_variation(tilt=0.0, aim=(0.0, 0.0), lamp_elevation=85.0, lamp_azimuth=0.0,
                    lamp_radius=20.0, lamp_to_room=3.0, style=None, **light):
    """A still, sharp, noiseless camera under one neutral lamp: for measuring."""
    camera = CameraParams(tilt_deg=tilt, azimuth_deg=90.0, roll_deg=0.0, focal_px=1500.0,
                          px_per_mm=1.9, aim_mm=aim)
    lights = LightParams(lamp_elevation_deg=lamp_elevation, lamp_azimuth_deg=lamp_azimuth,
                         lamp_distance_mm=1500.0, lamp_radius_mm=lamp_radius, lamp_kelvin=4500.0,
                         lamp_beam=0.0, room_kelvin=4500.0, lamp_to_room=lamp_to_room, window=0.0,
                         table="cloth", **light)
    sensor = SensorParams(exposure_error_ev=0.0, wb_strength=1.0, vignetting=0.0, chromatic=0.0,
                          blur_px=0.0, motion_px=0.0, shot=0.0, read=0.0, contrast=0.0,
                          sharpen=0.0, jpeg=98)
    look = style or StyleParams(placement_mm=0.0, stack_spread_mm=0.0, lean_share=0.0,
                                penny_age=1.0, silver_age=0.0, age_spread=0.0, shine=1.0)
    return Variation(camera, lights, look, sensor)


def aimed_at(square):
    x, y = GEOMETRY.region(square).centre
    return (x - MAT_CENTRE[0], y - MAT_CENTRE[1])


def grey(image):
    return cv2.cvtColor(image, cv2.COLOR_BGR2GRAY).astype(np.float64)


def silhouette(frame, empty, centre_px, reach_px):
    """Pixels (x, y) near ``centre_px`` darker than the empty mat by over half the contrast."""
    x0, y0 = (round(v - reach_px) for v in centre_px)
    size = int(2 * reach_px)
    window = (slice(y0, y0 + size), slice(x0, x0 + size))
    drop = grey(empty.image)[window] - grey(frame.image)[window]
    inside = drop > 0.5 * np.percentile(drop, 99)
    ys, xs = np.nonzero(inside)
    return np.column_stack([xs + x0, ys + y0]).astype(np.float64)


@pytest.mark.parametrize(("family", "seed"), [("tuning", 1), ("tuning", 2), ("heldout", 1),
                                              ("heldout", 2)])
def test_frames_are_found_by_the_board_finder(family, seed):
    frame = render_table(random_table_scene(seed, family=family), seed)
    assert frame.image.shape == (1080, 1920, 3)
    location = find_board(MarkerConfig(), frame.image, GEOMETRY)
    assert location.markers_found == (0, 1, 2, 3)
    left, top, right, bottom = GEOMETRY.play_area.bounds()
    corners = [(left, top), (right, top), (right, bottom), (left, bottom)]
    assert np.abs(location.to_image(corners) - frame.project(corners)).max() < 3.0


def coverage(frame, empty, window, face_radius):
    """How much of each pixel in ``window`` the coin covers: the frame's linear colour unmixed
    into the empty mat's paper and the coin's own hue (so however bright or dark the coin's
    face, rim and edge look, each pixel counts by the share of it the coin hides)."""
    seen = srgb_to_linear(frame.image[window]).astype(np.float64)
    paper = srgb_to_linear(empty.image[window]).astype(np.float64)
    rows, cols = np.indices(seen.shape[:2])
    middle = (rows - rows.mean()) ** 2 + (cols - cols.mean()) ** 2 < face_radius**2
    hue = np.median(seen[middle], axis=0)
    hue /= np.linalg.norm(hue)
    white = paper.reshape(-1, 3).mean(axis=0)
    across = white - (white @ hue) * hue  # blind to the coin's colour, sees the paper's
    return 1 - (seen @ across) / (paper @ across)


def test_a_coin_seen_straight_down_has_its_true_place_and_size():
    # An old brown penny under a lamp overhead, with little room light to shade its foot.
    style = StyleParams(placement_mm=0.0, penny_age=1.0, age_spread=0.0)
    variation = clean_variation(aim=aimed_at("d4"), lamp_elevation=88.0, lamp_to_room=50.0,
                                style=style)
    frame = render_table(calibration_scene({"d4": "P"}, variation=variation))
    empty = render_table(empty_scene(variation))
    x, y = GEOMETRY.region("d4").centre
    radius, thickness = coin_radius("P"), 1.52
    rim = frame.project([(x - radius, y, thickness), (x + radius, y, thickness),
                         (x, y - radius, thickness), (x, y + radius, thickness)])
    expected = (np.linalg.norm(rim[1] - rim[0]) + np.linalg.norm(rim[3] - rim[2])) / 2
    centre = frame.project([(x, y, thickness)])[0]
    cx, cy = (round(v) for v in centre)
    reach = round(expected)
    window = (slice(cy - reach, cy + reach + 1), slice(cx - reach, cx + reach + 1))
    cover = coverage(frame, empty, window, 0.3 * expected)
    area = cover.sum()
    assert abs(2 * math.sqrt(area / math.pi) - expected) < 0.5
    rows, cols = np.indices(cover.shape)
    found = np.array([(cover * cols).sum() / area + cx - reach,
                      (cover * rows).sum() / area + cy - reach])
    assert np.linalg.norm(found - centre) < 0.5


def test_a_stack_shows_its_side_under_tilt():
    variation = clean_variation(tilt=30.0, aim=aimed_at("d4"), lamp_elevation=89.0)
    empty = render_table(empty_scene(variation))
    spans = {}
    for letters in ("P", "PPPP"):
        frame = render_table(calibration_scene({"d4": letters}, variation=variation))
        centre = frame.project([(*GEOMETRY.region("d4").centre, 0.0)])[0]
        on_mat = frame.to_mat(silhouette(frame, empty, centre, 40))
        along = np.ptp(on_mat[:, 1])  # the camera stands on the +y side
        across = np.ptp(on_mat[:, 0])
        spans[letters] = along - across
    lean = math.tan(math.radians(30))
    assert abs(spans["PPPP"] - 4 * 1.52 * lean) < 0.8
    assert abs(spans["PPPP"] - spans["P"] - 3 * 1.52 * lean) < 0.4


def mirror_point(frame, height):
    """Where the lamp's centre is seen mirrored in a flat surface at ``height``."""
    camera = np.array(frame.camera.position)
    lamp = np.array(lamp_position(frame.variation.light, MAT_CENTRE))
    up_camera, up_lamp = camera[2] - height, lamp[2] - height
    return tuple(camera[:2] + (lamp[:2] - camera[:2]) * up_camera / (up_camera + up_lamp))


def test_a_silver_coin_glints_at_the_lamps_mirror_point_and_is_dark_elsewhere():
    variation = clean_variation(lamp_elevation=80.0, lamp_radius=100.0)
    probe = render_table(empty_scene(variation))
    glint = mirror_point(probe, 1.95)
    square = GEOMETRY.region_at(glint).name
    far = "a1" if glint[0] > MAT_CENTRE[0] else "h1"
    scene = TableScene.build({square: "N", far: "N"}, {}, GEOMETRY, variation,
                             positions={square: glint, far: GEOMETRY.region(far).centre})
    frame = render_table(scene)
    image = grey(frame.image)

    def level(point, z):
        px, py = frame.project([(*point, z)])[0]
        return float(np.median(image[round(py) - 3:round(py) + 4, round(px) - 3:round(px) + 4]))

    paper = level((glint[0], glint[1] - 18.0), 0.0)
    assert level(glint, 1.95) > paper + 20
    assert level(GEOMETRY.region(far).centre, 1.95) < paper - 20


def coin_colour(frame, square, z):
    px, py = frame.project([(*GEOMETRY.region(square).centre, z)])[0]
    patch = frame.image[round(py) - 5:round(py) + 6, round(px) - 5:round(px) + 6]
    return patch.reshape(-1, 3).astype(np.float64).mean(axis=0)


def test_a_penny_is_redder_than_a_nickel_under_the_same_light():
    style = StyleParams(placement_mm=0.0, penny_age=0.3, silver_age=0.3, age_spread=0.0)
    variation = clean_variation(lamp_elevation=60.0, style=style)
    frame = render_table(calibration_scene({"c3": "P", "f6": "N"}, variation=variation))
    _, penny_g, penny_r = coin_colour(frame, "c3", 1.52)
    _, nickel_g, nickel_r = coin_colour(frame, "f6", 1.95)
    assert penny_r / penny_g > nickel_r / nickel_g + 0.15


def test_a_pawns_shadow_falls_away_from_the_lamp():
    style = StyleParams(placement_mm=0.0, pawn_shape="token", pawn_diameter_mm=12.0,
                        pawn_height_mm=14.0)
    variation = clean_variation(aim=aimed_at("d4"), lamp_elevation=45.0, lamp_azimuth=0.0,
                                style=style)
    frame = render_table(calibration_scene({}, {"d4": "red"}, variation=variation))
    image = grey(frame.image)
    x, y = GEOMETRY.region("d4").centre

    def level(dx):
        px, py = frame.project([(x + dx, y, 0.0)])[0]
        return float(np.median(image[round(py) - 2:round(py) + 3, round(px) - 2:round(px) + 3]))

    # The lamp stands toward +x: the shadow lies toward -x, the lit side is as bright as paper.
    assert level(-12.0) < 0.8 * level(12.0)
    assert abs(level(12.0) - level(0.0 + 20.0)) < 12


def test_frames_are_deterministic_and_the_seed_changes_only_the_noise():
    scene = random_table_scene(5, family="tuning")
    first = render_table(scene, seed=3)
    scene_radiance.cache_clear()
    again = render_table(scene, seed=3)
    other = render_table(scene, seed=4)
    assert np.array_equal(first.image, again.image)
    difference = first.image.astype(np.int16) - other.image.astype(np.int16)
    assert np.abs(difference).max() > 0
    assert abs(float(difference.mean())) < 0.5
    assert np.abs(difference).mean() < 6
    assert first.truth == other.truth


def test_the_tool_writes_a_readable_jpeg_and_its_truth(tmp_path):
    image_path, json_path = tmp_path / "frame.jpg", tmp_path / "truth.json"
    assert tool_main(["--family", "tuning", "--seed", "7", "--out", str(image_path),
                      "--json", str(json_path)]) == 0
    image = cv2.imread(str(image_path))
    assert image is not None and image.shape == (1080, 1920, 3)
    data = json.loads(json_path.read_text())
    truth = random_table_scene(7).truth()
    assert set(data["truth"]) == set(truth)
    for name, region in truth.items():
        assert data["truth"][name] == {"coins": region.coins, "top": region.top,
                                       "pawn": region.pawn}
    for group in ("camera", "light", "style", "sensor"):
        assert group in data["meta"]
    assert data["meta"]["camera"]["px_per_mm_max"] >= data["meta"]["camera"]["px_per_mm_min"]


def test_variations_print_and_save_every_parameter():
    for variation in (tuning_variation(3), heldout_variation(3)):
        physical = vars(__import__("vision.synth.physical", fromlist=["*"]))
        assert eval(repr(variation), {**physical}) \
            == variation
        data = json.loads(json.dumps(variation.to_json()))
        assert data["camera"]["tilt_deg"] == variation.camera.tilt_deg
        assert data["sensor"]["jpeg"] == variation.sensor.jpeg


def test_the_held_out_family_makes_what_the_tuning_family_never_does():
    tuning = [tuning_variation(seed) for seed in range(60)]
    heldout = [heldout_variation(seed) for seed in range(60)]
    assert {v.style.pawn_shape for v in tuning} <= set(TUNING_PAWN_SHAPES)
    assert {v.style.pawn_shape for v in heldout} <= set(HELDOUT_PAWN_SHAPES)
    assert not set(TUNING_PAWN_SHAPES) & set(HELDOUT_PAWN_SHAPES)
    assert max(v.sensor.jpeg for v in tuning) > min(v.sensor.jpeg for v in heldout) >= 60
    assert sum(v.light.window > 0 for v in heldout) > sum(v.light.window > 0 for v in tuning)
    kelvins = [v.light.lamp_kelvin for v in heldout]
    assert all(k <= 3000 or k >= 5800 for k in kelvins)


@pytest.mark.parametrize("seed", range(6))
def test_coins_stay_in_their_squares_and_neighbours_never_overlap(seed):
    scene = random_table_scene(seed, family="heldout")
    style = replace(scene.variation.style, overhang_share=0.6, overhang_mm=5.0, placement_mm=6.0)
    coins, pawns = place(GEOMETRY, scene.coins_by_region(), scene.pawns_by_region(), seed,
                         style, {})
    on_board = [coin for coin in coins if coin.region is not None]
    for coin in on_board:
        if coin.level == 0:
            assert GEOMETRY.region(coin.region).contains(coin.centre)
    for i, a in enumerate(on_board):
        for b in on_board[i + 1:]:
            if a.region != b.region:
                gap = math.dist(a.centre, b.centre) - coin_radius(a.letter) - coin_radius(b.letter)
                assert gap > 0.3
    assert {pawn.region for pawn in pawns} == set(scene.pawns_by_region())
    assert all(coin.region is None for coin in coins[len(on_board):])


def test_the_cold_family_keeps_its_tuning_board_and_hangs_a_cold_window_where_coins_mirror_it():
    for seed in range(20):
        cold, tuning = variation_for("cold", seed), tuning_variation(seed)
        assert cold.camera == tuning.camera
        assert cold.style.pawn_shape == tuning.style.pawn_shape
        assert random_table_scene(seed, family="cold").coins == random_table_scene(seed).coins
        light = cold.light
        assert light.lamp_kelvin <= 3500 and light.window_kelvin >= 6500 and light.window > 0
        # Beyond the mat from the camera, within reach of a flat coin's mirror direction.
        facing = (light.window_azimuth_deg - cold.camera.azimuth_deg - 180 + 180) % 360 - 180
        assert abs(facing) <= 25
        assert light.window_elevation_deg <= 90 - cold.camera.tilt_deg
        assert light.window_elevation_deg + light.window_size_deg[1] / 2 >= (
            70 - cold.camera.tilt_deg)


def test_the_stress_family_pushes_one_factor_of_its_tuning_frame_each_seed():
    """Every factor comes round in turn; a stress frame differs from its tuning frame in the
    parts its factor touches only, and keeps the tuning pawns and board."""
    touched = {"kelvin": {"light", "sensor"}, "coarse": {"camera"}, "tilt": {"camera"},
               "vignetting": {"sensor"}, "motion": {"sensor"}, "jpeg": {"sensor"},
               "dim": {"sensor"}, "glint": {"light", "style"}, "window": {"light"},
               "penny": {"style"}, "silver": {"style"}, "sloppy": {"style"}, "noise": {"sensor"}}
    assert set(touched) == set(FACTORS)
    seen = set()
    for seed in range(STRESS_FIRST_SEED, STRESS_FIRST_SEED + len(FACTORS)):
        stress, tuning = variation_for("stress", seed), tuning_variation(seed)
        factor = stress_factor(seed)
        seen.add(factor)
        assert stress.family == f"stress-{factor}"
        changed = {part for part in ("camera", "light", "style", "sensor")
                   if getattr(stress, part) != getattr(tuning, part)}
        assert changed == touched[factor], factor
        assert stress.style.pawn_shape in TUNING_PAWN_SHAPES
        assert random_table_scene(seed, family="stress").coins == random_table_scene(seed).coins
        if factor == "coarse":
            assert 1.15 <= stress.camera.px_per_mm <= 1.25
    assert seen == set(FACTORS)
