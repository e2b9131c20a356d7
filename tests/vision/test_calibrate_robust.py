"""Calibration survives what real tables do: a coin one frame misses, glare on a coin's face,
and a mat that is not empty (checked against the printed mat, not by the reader)."""

from __future__ import annotations

import numpy as np
import pytest

from calibration.profile import PawnLook, VisionProfile
from contract.observation import COIN_KINDS
from tests.vision.calibration_frames import (
    GEOMETRY,
    LAYOUT,
    frame,
    layout_scene,
    scene,
    wash_out,
)
from vision import synth
from vision.calibrate import (
    CalibrationConfig,
    CalibrationError,
    learn_background,
    learn_from_layout,
    measure_layout_frame,
)
from vision.clutter import cluttered_regions, find_clutter
from vision.frame_model import FrameModelConfig
from vision.markers import MarkerConfig, find_board, forget_lens

CONFIG = CalibrationConfig()
FULL = layout_scene()


@pytest.fixture(scope="module")
def background() -> np.ndarray:
    return learn_background(CONFIG, GEOMETRY, [frame(scene({}), seed) for seed in range(2)])


@pytest.fixture(scope="module")
def layouts() -> list[np.ndarray]:
    """Three noisy frames of the whole layout."""
    return [frame(FULL, seed) for seed in (1, 2, 3)]


@pytest.fixture(scope="module")
def without_nickel() -> list[np.ndarray]:
    """Two frames of the layout in which no nickel lies on f3."""
    return [frame(layout_scene(without="f3"), seed) for seed in (4, 5)]


def test_a_coin_one_frame_missed_counts_from_the_others(
    background: np.ndarray, layouts: list[np.ndarray], without_nickel: list[np.ndarray],
) -> None:
    images = [layouts[0], without_nickel[0], layouts[2]]
    learned = learn_from_layout(CONFIG, GEOMETRY, background, images, LAYOUT,
                                names=["a.png", "b.png", "c.png"])
    nickel = next(coin for coin in learned.coins if coin.kind == "N")
    assert (nickel.frames, nickel.missed) == (("a.png", "c.png"), ("b.png",))
    assert all(coin.frames == ("a.png", "b.png", "c.png") for coin in learned.coins
               if coin.kind != "N")
    report = learned.report()
    assert report[0] == "from 3 layout frames: a.png, b.png, c.png"
    assert next(line for line in report if "nickel" in line).endswith("(not measured in b.png)")
    assert learned.profile.coin("N").diameter_mm == nickel.diameter_mm


def test_a_coin_missing_from_most_frames_counts_from_the_one_that_saw_it(
    background: np.ndarray, layouts: list[np.ndarray], without_nickel: list[np.ndarray],
) -> None:
    learned = learn_from_layout(CONFIG, GEOMETRY, background, [*without_nickel, layouts[0]],
                                LAYOUT)
    nickel = next(coin for coin in learned.coins if coin.kind == "N")
    assert (nickel.frames, nickel.missed) == (("frame 3",), ("frame 1", "frame 2"))
    assert learned.warnings == ()
    assert learned.profile.coin("N").diameter_mm == nickel.diameter_mm


def test_a_layout_whose_only_frame_misses_a_coin_is_learned_from_the_other_coins(
    background: np.ndarray, without_nickel: list[np.ndarray],
) -> None:
    """One photo of the layout, the nickel not found in it: the nickel's size is its true
    size offset like the coins measured (blur adds millimetres, not a share), its colour the
    other silver coins', and the user is told in one sentence rather than refused."""
    learned = learn_from_layout(CONFIG, GEOMETRY, background, without_nickel[:1], LAYOUT)
    assert [coin.kind for coin in learned.coins] == ["P", "D", "Q"]
    assert learned.warnings == (
        "no nickel found on f3, so the nickel's size was taken from the other coins' and its "
        "colour from the other silver coins': put a nickel (N) there and calibrate again for "
        "a closer profile",)
    offsets = [coin.diameter_mm - COIN_KINDS[coin.kind][1] for coin in learned.coins]
    nickel = learned.profile.coin("N")
    assert nickel.diameter_mm == pytest.approx(COIN_KINDS["N"][1] + np.median(offsets),
                                               abs=1e-3)
    dime, quarter = learned.profile.coin("D"), learned.profile.coin("Q")
    assert nickel.colour == dime.colour == quarter.colour
    assert learned.profile.calibrated


def test_a_layout_with_no_coin_found_is_refused_saying_what_to_do(background: np.ndarray
                                                                  ) -> None:
    with pytest.raises(CalibrationError, match=r"^no penny found on c3, nor any other coin of "
                       r"the layout on its square: put the coins on the squares shown, alone "
                       r"and flat, with the whole mat in view$"):
        learn_from_layout(CONFIG, GEOMETRY, background, [frame(scene({}), 6)], LAYOUT)


def test_a_layout_frame_is_read_knowing_only_the_layouts_coin_kinds(
    background: np.ndarray, layouts: list[np.ndarray], monkeypatch: pytest.MonkeyPatch,
) -> None:
    """As the table reads a game's frames: the dollar (not in the layout) is no candidate
    for the rims round the layout's coins and pawns; the profile learned still holds it."""
    import vision.calibrate as calibrate

    kinds_read: list[str] = []
    real_read = calibrate.read_calibration_frame

    def spy(config: CalibrationConfig, image: np.ndarray, geometry: object,
            base: VisionProfile, location: object = None) -> object:
        kinds_read.append("".join(look.kind for look in base.coins))
        return real_read(config, image, geometry, base, location)  # type: ignore[arg-type]

    monkeypatch.setattr(calibrate, "read_calibration_frame", spy)
    measured = measure_layout_frame(CONFIG, GEOMETRY, background, layouts[0], LAYOUT)
    assert kinds_read == ["PNDQ"]
    assert set(measured.coins) == {"c3", "f3", "c6", "f6"} and not measured.problems
    learned = learn_from_layout(CONFIG, GEOMETRY, background, layouts[:1], LAYOUT)
    assert "S" in {look.kind for look in learned.profile.coins}


@pytest.mark.parametrize(("square", "kind", "others"), [
    ("f3", "N", "the dime on c6 and the quarter on f6"),
    ("f6", "Q", "the nickel on f3 and the dime on c6"),
])
def test_glare_on_a_silver_coin_takes_the_colour_from_the_other_silver_coins(
    background: np.ndarray, layouts: list[np.ndarray], square: str, kind: str, others: str,
) -> None:
    glared = [wash_out(image, FULL, square) for image in layouts[:2]]
    learned = learn_from_layout(CONFIG, GEOMETRY, background, glared, LAYOUT)
    name = COIN_KINDS[kind][0]
    assert learned.warnings == (
        f"glare washed out the face of the {name} on {square}, so its colour was taken from "
        f"{others} and its size from the other coins' (glare swells a coin's outline)",
    )
    washed = next(coin for coin in learned.coins if coin.kind == kind)
    assert washed.colour is None
    assert f"{name:8} on {square}" in next(line for line in learned.report()
                                           if "washed out by glare" in line)
    silver = {learned.profile.coin(other).colour for other in "NDQ"}
    shown = [coin.colour for coin in learned.coins if coin.kind in "NDQ" and coin.kind != kind]
    assert len(silver) == 1
    assert silver.pop() == pytest.approx(tuple(np.median(np.array(shown), axis=0)), abs=1e-4)
    # Its size is its true size offset like the coins measured without glare.
    offsets = [coin.diameter_mm - COIN_KINDS[coin.kind][1] for coin in learned.coins
               if coin.colour is not None]
    assert learned.profile.coin(kind).diameter_mm == pytest.approx(
        COIN_KINDS[kind][1] + np.median(offsets), abs=1e-3)


def test_glare_in_some_frames_only_is_no_matter(
    background: np.ndarray, layouts: list[np.ndarray],
) -> None:
    images = [wash_out(layouts[0], FULL, "f3"), layouts[1], layouts[2]]
    # Both learn with one lens (the process reuses the last it fitted for this camera): the
    # one fitted to a clean frame, whatever earlier tests left.
    forget_lens()
    find_board(CONFIG.vision.markers, layouts[1], GEOMETRY)
    learned = learn_from_layout(CONFIG, GEOMETRY, background, images, LAYOUT)
    clean = learn_from_layout(CONFIG, GEOMETRY, background, layouts[1:], LAYOUT)
    assert learned.warnings == ()
    nickel, clean_nickel = (next(coin for coin in calibration.coins if coin.kind == "N")
                            for calibration in (learned, clean))
    # Colour and size come from the two frames that saw the face.
    assert (nickel.colour, nickel.diameter_mm) == (clean_nickel.colour, clean_nickel.diameter_mm)


def test_glare_on_the_only_copper_coin_takes_coppers_usual_tint_with_a_warning(
    background: np.ndarray, layouts: list[np.ndarray],
) -> None:
    """The penny is the layout's only copper coin: its colour is the measured silver's plus
    the reader's usual copper tint, and the user is told, rather than sent to move the
    light (the reader fits each frame's tints anyway)."""
    learned = learn_from_layout(CONFIG, GEOMETRY, background,
                                [wash_out(layouts[0], FULL, "c3")], LAYOUT)
    assert len(learned.warnings) == 1
    assert learned.warnings[0].startswith("glare washed out the face of the penny on c3, so "
                                          "its colour was taken from the silver coins' with "
                                          "copper's usual tint")
    colour = {COIN_KINDS[look.kind][2]: look.colour for look in learned.profile.coins}
    tint = dict(FrameModelConfig().tints)["copper"]
    assert colour["copper"] == pytest.approx((colour["silver"][0] + tint[0],
                                              colour["silver"][1] + tint[1]), abs=1e-3)


def test_glare_on_every_coin_learns_the_pawns_only_with_a_warning(
    background: np.ndarray, layouts: list[np.ndarray],
) -> None:
    """No coin shows its colour: the coins are read as without a profile (not marked
    calibrated, their base looks kept), the pawns are learned, and the user is told why."""
    washed = layouts[0]
    for square in ("c3", "f3", "c6", "f6"):
        washed = wash_out(washed, FULL, square)
    learned = learn_from_layout(CONFIG, GEOMETRY, background, [washed], LAYOUT)
    assert learned.warnings == (
        "glare washed out the face of every coin of the layout, so coins will be read as "
        "without a profile and only the pawns were learned: move the light so it does not "
        "glare on the coins and calibrate again to learn them",)
    base = VisionProfile.default()
    assert not learned.profile.calibrated
    assert learned.profile.coins == base.coins
    assert {pawn.name for pawn in learned.pawns} == {"red", "blue"}
    assert learned.profile.pawns[:2] == tuple(PawnLook(pawn.name, pawn.colour)
                                              for pawn in learned.pawns)


def test_a_lone_coin_off_the_layout_squares_is_seen_on_the_empty_mat() -> None:
    """The reader was asked before, and only about the layout's squares; the printed mat
    shows a dime on any square."""
    with pytest.raises(CalibrationError, match=r"^clear the mat: something lies on e4$"):
        learn_background(CONFIG, GEOMETRY, [frame(scene({"e4": "D"}))])


@pytest.mark.parametrize("seed", [3, 52, 119])
def test_the_printed_mat_tells_an_empty_mat_from_one_silver_coin(seed: int) -> None:
    """Random cameras and light (glare, shadows, tints): nothing on the empty mat, the dime
    and the nickel where they lie."""
    variation = synth.random_variation(seed)
    for coins in ({}, {"b7": "D", "g2": "N"}):
        shown = synth.SynthScene.build(coins, {}, GEOMETRY, variation, layout_seed=seed)
        image = synth.render_frame(shown, seed)
        location = find_board(MarkerConfig(), image, GEOMETRY)
        found = cluttered_regions(GEOMETRY, find_clutter(GEOMETRY, image, location))
        assert set(found) == set(coins), coins
