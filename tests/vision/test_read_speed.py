"""The faster forms of the reading stages compute bit for bit what the plain forms did.

Each speed-up of :mod:`vision.light`, :mod:`vision.loose`, :mod:`vision.cards` and
:mod:`vision.card_ranks` is checked here against the straightforward numpy or OpenCV form it
replaced, on real rendered images: a mat's printing under uneven light, coins drawn as rims
on paper, a card drawn on a pile. Equality is exact (``array_equal``), not approximate: the
reading must not change by a single argmax.
"""

from __future__ import annotations

import math

import cv2
import numpy as np

from tests.vision.helpers import GEOMETRY
from vision.card_ranks import ink_map
from vision.cards import CardConfig, _least, _mean, _outline_scores, _rotated_edges
from vision.light import PAPER, LightConfig, _ink_gains, divide_light, mat_reference, normalise
from vision.loose import LooseConfig, _edges, _Hough
from vision.loose_outline import channel_max
from vision.rectify import RectifyConfig, TopView, view_bounds

PIXELS_PER_MM = 2.0


def _lit_view() -> tuple[TopView, object]:
    """The mat's rendering lit unevenly (a gradient across, a warm tint), and its reference."""
    left, top, _, _ = view_bounds(RectifyConfig(PIXELS_PER_MM), GEOMETRY)
    config = LightConfig()
    reference = mat_reference(GEOMETRY, PIXELS_PER_MM, GEOMETRY.play_area.left - left,
                              config.reference_blur_px, config.ink_band_mm)
    printed = reference.image.astype(np.float64)
    gradient = np.linspace(0.6, 1.0, printed.shape[1])[None, :, None]
    tint = np.array([0.85, 0.95, 1.0])[None, None, :]
    image = np.clip(printed * gradient * tint, 0, 255).astype(np.uint8)
    return TopView(image, PIXELS_PER_MM, (left, top)), reference


def test_normalise_is_the_one_multiply_by_the_full_gain_image() -> None:
    view, reference = _lit_view()
    config = LightConfig()
    lit = divide_light(config, view, reference)  # type: ignore[arg-type]
    table = _ink_gains(config, lit, reference, PIXELS_PER_MM)  # type: ignore[arg-type]
    plain = cv2.multiply(lit, cv2.LUT(reference.image, table),  # type: ignore[attr-defined]
                         dtype=cv2.CV_8U)
    assert np.array_equal(normalise(config, view, reference), plain)  # type: ignore[arg-type]
    assert len(np.unique(table)) > 3  # the gains differ by tone: the check is not trivial


def _coins_on_paper() -> np.ndarray:
    """Paper with a pile of overlapping coin rims, a lettered ring inside one, and noise."""
    rng = np.random.default_rng(5)
    image = np.full((160, 200, 3), PAPER, np.float32)
    coins = (((60, 70), 24, (90, 120, 170)), ((95, 80), 22, (150, 150, 150)),
             ((140, 60), 19, (120, 140, 160)), ((120, 115), 26, (70, 90, 130)))
    for (x, y), radius, colour in coins:
        cv2.circle(image, (x, y), radius, colour, -1, cv2.LINE_AA)
        cv2.circle(image, (x, y), int(radius * 0.8), (60, 60, 60), 1, cv2.LINE_AA)
    image += rng.normal(0, 3, image.shape).astype(np.float32)
    return image


def _plain_votes(hough: _Hough, chosen: np.ndarray) -> np.ndarray:
    """The votes counted as they were: one count per radius."""
    height, width = hough.shape
    votes = np.zeros((len(hough.radii), height, width), np.float32)
    edges = hough.edges
    chosen = chosen & (edges.weights >= hough.least_weight)
    points, normals = edges.points[chosen] + 0.5, edges.normals[chosen]
    both = np.concatenate([edges.weights[chosen], edges.weights[chosen]])
    for index, radius in enumerate(hough.radii):
        targets = np.concatenate([points + radius * normals, points - radius * normals])
        target = np.floor(targets * hough.scale).astype(np.intp)
        inside = ((target[:, 0] >= 0) & (target[:, 0] < width)
                  & (target[:, 1] >= 0) & (target[:, 1] < height))
        flat = target[inside, 1] * width + target[inside, 0]
        votes[index] = np.bincount(flat, both[inside], height * width).reshape(height, width)
    return votes


def test_circle_votes_for_every_radius_at_once_are_the_per_radius_counts() -> None:
    config = LooseConfig()
    patch = _coins_on_paper()
    edges = _edges(config, patch, PIXELS_PER_MM)
    live = np.ones(len(edges.weights), bool)
    radii = np.arange(15.0, 30.0, config.radius_step_mm * PIXELS_PER_MM)
    hough = _Hough(edges, live, radii, patch.shape[:2], config.hough_scale,
                   config.voting_weight)
    assert hough.raw.sum() > 0
    assert np.array_equal(hough.raw, _plain_votes(hough, live))
    some = np.hypot(*(edges.points - np.array([60.0, 70.0])).T) < 30  # one coin's edges
    before = hough.raw.copy()
    hough.explain(some)
    assert np.array_equal(hough.raw, before - _plain_votes(hough, some))
    assert np.array_equal(channel_max(np.abs(patch - PAPER)), np.abs(patch - PAPER).max(axis=2))


def _card_pile() -> np.ndarray:
    """A grey card turned 20 degrees on a printed spot, with a darker card under it."""
    image = np.full((220, 180), 150.0, np.float32)
    for angle, colour, centre in ((55.0, 90.0, (80.0, 100.0)), (20.0, 235.0, (95.0, 115.0))):
        box = cv2.boxPoints(((centre[0], centre[1]), (94.5, 132.0), angle))
        cv2.fillConvexPoly(image, np.round(box).astype(np.int32), colour, cv2.LINE_AA)
    return cv2.GaussianBlur(image, (0, 0), 0.7)


def _plain_scores(config: CardConfig, gray: np.ndarray, angle: float) -> np.ndarray:
    """The outline scores at ``angle`` as they were computed: float maps, divided
    gradients, a float box blur and stacked sides."""
    height, width = gray.shape
    turn = cv2.getRotationMatrix2D((width / 2 - 0.5, height / 2 - 0.5), angle, 1.0)
    turned = cv2.warpAffine(gray, turn, (width, height), flags=cv2.INTER_LINEAR,
                            borderMode=cv2.BORDER_REPLICATE)
    down = np.abs(cv2.Sobel(turned, cv2.CV_32F, 0, 1, ksize=3)) / 4
    across = np.abs(cv2.Sobel(turned, cv2.CV_32F, 1, 0, ksize=3)) / 4
    size = 2 * max(1, round(config.edge_tolerance_mm * config.search_pixels_per_mm)) + 1
    rows = cv2.dilate(((down - across) > config.edge_level).astype(np.float32),
                      np.ones((size, 1), np.uint8))
    columns = cv2.dilate(((across - down) > config.edge_level).astype(np.float32),
                         np.ones((1, size), np.uint8))
    scale = config.search_pixels_per_mm
    half_w, half_h = 63.0 * scale / 2, 88.0 * scale / 2
    along_rows = cv2.blur(rows, (max(3, round(config.side_share * 63.0 * scale)), 1))
    along_columns = cv2.blur(columns, (1, max(3, round(config.side_share * 88.0 * scale))))
    reach_x, reach_y = math.ceil(half_w) + 1, math.ceil(half_h) + 1
    inner = (slice(reach_y, height - reach_y), slice(reach_x, width - reach_x))

    def shifted(image: np.ndarray, dx: float, dy: float) -> np.ndarray:
        x, y = round(dx), round(dy)
        return image[inner[0].start + y:inner[0].stop + y, inner[1].start + x:inner[1].stop + x]

    sides = [shifted(along_rows, sx * half_w / 2, sy * half_h) for sx in (-1, 1) for sy in (-1, 1)]
    sides += [shifted(along_columns, sx * half_w, sy * half_h / 2)
              for sx in (-1, 1) for sy in (-1, 1)]
    scores = np.zeros_like(rows)
    scores[inner] = np.minimum.reduce(sides) + 0.05 * np.mean(sides, axis=0)
    return scores


def test_card_outline_search_is_unchanged() -> None:
    config = CardConfig()
    gray = _card_pile()
    best = {}
    for angle in np.arange(0.0, 180.0, config.angle_step_deg):
        scores = _outline_scores(config, *_rotated_edges(config, gray, float(angle)))
        assert scores.dtype == np.float32
        assert np.array_equal(scores, _plain_scores(config, gray, float(angle)))
        best[float(angle)] = float(scores.max())
    # The check is not trivial: the card's own turn scores far above a turn across it.
    assert best[21.0] > 0.6 > best[66.0]
    sides = [cv2.blur(gray, (shift, 1)) for shift in range(3, 11)]
    assert np.array_equal(_least(sides), np.minimum.reduce(sides))
    assert np.array_equal(_mean(sides), np.mean(sides, axis=0))


def test_red_ink_counts_as_much_as_black() -> None:
    face = np.full((88 * 6, 63 * 6, 3), 235, np.uint8)
    cv2.line(face, (40, 100), (120, 100), (30, 30, 200), 6)  # a red stroke (BGR), 1 mm
    cv2.line(face, (200, 340), (280, 340), (20, 20, 20), 6)  # a black one
    ink = ink_map(face, 6.0, 3.0, 1.0)
    assert ink[100, 80] > 0.8 and ink[340, 240] > 0.8
    assert ink[250, 150] < 0.1
