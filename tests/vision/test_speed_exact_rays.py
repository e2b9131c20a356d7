"""The rays' and the squares' faster arithmetic gives exactly what the plain one gave.

Each faster computation of the reader (flattened smoothing, float32 ray maps, a float32
threshold, the squares' doubts all at once) is compared, to the bit, with the plain
expression it replaced, on rays sampled from a rendered frame's top view.
"""

from __future__ import annotations

import cv2
import numpy as np

from tests.vision.test_speed_exact import _view
from vision.candidates import _reach_box, _second_look
from vision.light import PAPER
from vision.presence import PresenceConfig, _doubt, empty_doubts
from vision.ray_profiles import paper_levels, squared_rises
from vision.ray_samples import colour_planes, ray_maps, sample_rays, with_fourth_channel
from vision.read_config import ReadConfig
from vision.regions import RegionWindow, region_map
from vision.rims import (
    CoinOutlines,
    RimConfig,
    _float32_below,
    _largest_along_rays,
    _profiles,
    measure_outlines,
)


def _planes() -> list[np.ndarray]:
    """Colour planes of rays from 30 places of a rendered top view, coins among them."""
    image, pixels_per_mm = _view()
    rng = np.random.default_rng(11)
    height, width = image.shape[:2]
    centres = rng.uniform([0, 0], [width, height], (30, 2))
    radii = np.arange(3.0, 17.0, 0.25) * pixels_per_mm
    return colour_planes(sample_rays(with_fourth_channel(image), centres, 48, radii))


def test_flattened_smoothing_and_rises_are_the_plain_expressions_to_the_bit() -> None:
    planes = _planes()
    reach = 1
    expected = np.zeros((*planes[0].shape[:2], planes[0].shape[2] - 2 * reach), np.float32)
    for plane in planes:
        smooth = plane.copy()
        smooth[..., 1:-1] = (plane[..., :-2] + 2 * plane[..., 1:-1] + plane[..., 2:]) / 4
        change = smooth[..., : -2 * reach] - smooth[..., 2 * reach :]
        expected += change * change
    assert np.array_equal(squared_rises(planes, reach), expected)


def test_the_profile_from_its_first_plane_on_is_the_plain_largest_difference() -> None:
    planes = _planes()
    config = RimConfig()
    papers, seed_papers = paper_levels(planes, config.paper_samples)
    odd = np.zeros(papers[0].shape, bool)
    for paper, seed_paper in zip(papers, seed_papers, strict=True):
        odd |= np.abs(paper - seed_paper[:, None]) > config.least_step * PAPER
    expected = np.zeros(planes[0].shape, np.float32)
    for plane, paper, seed_paper in zip(planes, papers, seed_papers, strict=True):
        reference = np.where(odd, seed_paper[:, None], paper).astype(np.float32)
        expected = np.maximum(expected, np.abs(plane - reference[:, :, None]))
    profile, _ = _profiles(config, planes)
    assert profile.dtype == np.float32
    assert np.array_equal(profile, expected)


def test_ray_maps_are_the_float64_maps_rounded_once() -> None:
    rng = np.random.default_rng(2)
    centres = rng.uniform(0, 900, (25, 2))
    for radii in (np.arange(3.0, 17.0, 0.25) * 2.3, rng.uniform(5, 40, (25, 30))):
        along = radii.reshape(-1, radii.shape[-1])[:, None, :]
        angles = np.linspace(0.0, 2 * np.pi, 48, endpoint=False)
        xs = centres[:, None, None, 0] + np.cos(angles)[None, :, None] * along
        ys = centres[:, None, None, 1] + np.sin(angles)[None, :, None] * along
        map_x, map_y = ray_maps(centres, 48, radii)
        assert np.array_equal(map_x, xs.reshape(-1, radii.shape[-1]).astype(np.float32))
        assert np.array_equal(map_y, ys.reshape(-1, radii.shape[-1]).astype(np.float32))


def test_column_maxima_are_the_largest_of_each_rays_samples() -> None:
    values = np.random.default_rng(5).uniform(0, 30, (7, 48, 19))
    values[2, 3, 5] = np.nan
    assert np.array_equal(_largest_along_rays(values), values.max(axis=2), equal_nan=True)


def test_the_region_map_is_made_once_for_the_same_windows() -> None:
    windows = (RegionWindow("a", "square", (2, 3, 20, 30), None),
               RegionWindow("b", "home", (10, 10, 40, 25), None))
    first = region_map(windows, (50, 40))
    assert region_map(tuple(list(windows)), (50, 40)) is first
    assert not first.flags.writeable
    assert (first[5, 15], first[20, 30], first[0, 0]) == (0, 1, -1)


def test_a_float32_profile_is_above_the_float32_threshold_where_above_the_float64_one() -> None:
    rng = np.random.default_rng(4)
    levels = np.concatenate([rng.uniform(0, 60, 200), [12.0, 0.1, 1e-9, 0.0]])
    below = _float32_below(levels)
    assert below.dtype == np.float32
    profile = np.concatenate([rng.uniform(0, 60, (len(levels), 300)),
                              levels[:, None].astype(np.float32),
                              np.nextafter(levels.astype(np.float32), np.float32(np.inf))[:, None],
                              np.nextafter(levels.astype(np.float32), np.float32(0))[:, None]],
                             axis=1).astype(np.float32)
    assert np.array_equal(profile > below[:, None], profile > levels[:, None])


def test_the_squares_doubts_at_once_are_the_doubts_square_by_square() -> None:
    config = PresenceConfig()
    rng = np.random.default_rng(8)
    found = np.zeros((300, 400), np.uint8)
    for _ in range(60):  # coin-sized and larger patches, some clipped paper (128)
        x, y, size = int(rng.integers(0, 380)), int(rng.integers(0, 280)), int(rng.integers(3, 30))
        found[y : y + size, x : x + size] = 255 if rng.random() < 0.8 else 128
    windows = tuple(RegionWindow(f"s{index}", "square" if index % 7 else "home",
                                 (left, top, left + 60, top + 50), None)
                    for index, (left, top) in enumerate(
                        (int(left), int(top)) for left in range(0, 540, 53)
                        for top in range(0, 400, 47)))
    for glinting in (False, True):
        doubts = empty_doubts(config, (found, 0.75), windows, 1.0, glinting)
        assert doubts.max() > 0
        for index, window in enumerate(windows):
            assert doubts[index] == _square_by_square(config, found, window, glinting)


def _square_by_square(config: PresenceConfig, found: np.ndarray, window: RegionWindow,
                      glinting: bool) -> float:
    """One window's doubt as the reader first computed it."""
    import cv2

    if window.kind != "square":
        return 0.0
    scale = 0.75
    _, _, stats, middles = cv2.connectedComponentsWithStats((found == 255).astype(np.uint8),
                                                            connectivity=8)
    area = stats[1:, cv2.CC_STAT_AREA] / scale**2
    across = np.maximum(stats[1:, cv2.CC_STAT_WIDTH], stats[1:, cv2.CC_STAT_HEIGHT]) / scale
    fill = area / np.maximum(stats[1:, cv2.CC_STAT_WIDTH] * stats[1:, cv2.CC_STAT_HEIGHT]
                             / scale**2, 1e-9)
    coin_sized = ((area >= config.least_mm2) & (area <= config.most_mm2)
                  & (across <= config.most_across_mm) & (fill >= config.least_fill))
    left, top, right, bottom = (round(value * scale) for value in window.box)
    points = middles[1:]
    inside = (coin_sized & (points[:, 0] >= left) & (points[:, 0] < right)
              & (points[:, 1] >= top) & (points[:, 1] < bottom))
    largest = float(area[inside].max()) if inside.any() else 0.0
    if glinting:
        unseen = np.count_nonzero(found[top:bottom, left:right] == 128)
        largest = max(largest, unseen / scale**2)
    return _doubt(config, largest)


def test_paper_is_no_step() -> None:
    """Rays over bare paper have no rise anywhere (the flattened differences mix no ray
    into the next)."""
    paper = [np.full((4, 48, 56), PAPER, np.float32) for _ in range(3)]
    paper[0][1] = 50.0  # a whole dark ray beside paper ones
    assert not squared_rises(paper, 1).any()


def test_the_second_look_smoothed_around_its_seeds_measures_as_on_the_whole_smoothed_view(
) -> None:
    image, pixels_per_mm = _view()
    config = ReadConfig()
    height, width = image.shape[:2]
    middle = np.array([width, height]) / 2
    spread = 25 * pixels_per_mm
    seeds = np.random.default_rng(3).uniform(middle - spread, middle + spread, (12, 2))
    count = len(seeds)
    nothing = np.zeros(count)
    flags = np.zeros(image.shape[:2], np.uint8)
    lean, blur = np.tile([1.0, 0.0], (count, 1)), np.ones(count)
    left, top, right, bottom = _reach_box(config.rims, seeds, pixels_per_mm, image.shape[:2])
    assert left > 0 and top > 0 and right < width and bottom < height
    found = _second_look(config, image, with_fourth_channel(image), flags, seeds, lean,
                         pixels_per_mm, blur, nothing,
                         CoinOutlines(seeds, nothing + 20, nothing, nothing, nothing, nothing,
                                      nothing > 0))
    smooth = cv2.GaussianBlur(image, (0, 0), config.coins.retry_smoothing_mm * pixels_per_mm)
    expected = measure_outlines(config.rims, with_fourth_channel(smooth), flags, seeds, lean,
                                pixels_per_mm, blur, nothing)
    better = expected.agreement > 0
    assert better.sum() >= 2
    for name in ("centres", "radii_px", "sweep_px", "agreement", "contrast", "covered"):
        assert np.array_equal(getattr(found, name)[better], getattr(expected, name)[better])
