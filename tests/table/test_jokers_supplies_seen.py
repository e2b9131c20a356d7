"""The Jokers and Coins supplies on rendered frames (issue 21, item 5): coins dropped loose and
touching in each seat's supply cup are counted by the camera, a bumped nickel dropped in the
wrong supply is named by the referee until it lies in its own (one frame rendered: the
put-right one is a perfect camera's, to keep the test quick), and the side screen shows each
supply's coins (a real pygame surface saved as PNG)."""

from __future__ import annotations

from dataclasses import replace

import cv2
import numpy as np

from calibration.geometry import mat_for_game
from calibration.profile import VisionProfile
from companion.display.layout import compute_layout
from companion.display.pieces import LIGHT_SQUARE
from companion.display.screen import save_screenshot
from companion.games.jokers_and_coins import GAME
from companion.judged_regions import judged_geometry
from companion.referee import Phase, Press, Seen
from companion.screen_view import default_seats, snapshot_of
from companion.table import judged_only
from contract.observation import CardReading, Observation, RegionReading
from contract.table_state import RegionContents, TableState
from tests.games.jokers_and_coins.helpers import table
from tests.test_referee_jokers import referee_at
from tests.vision.helpers import CONFIG
from vision.read import read_frame_details
from vision.synth import SynthScene, Variation, render

PROFILE = VisionProfile.default().only_kinds("PNDQ")
SIZE = (1280, 720)


def seen_by_camera(board: TableState, position, seed: int) -> Observation:
    """``board`` rendered on the 2-seat mat by the plain camera and read as the table reads
    it, with the 5 read on seat 1's discard spot (cards are read elsewhere)."""
    geometry = mat_for_game(GAME.info.mat, players=2)
    scene = SynthScene.from_table(board, geometry=geometry, variation=Variation(),
                                  layout_seed=seed, image_size=(1920, 1080))
    frame = render(scene, seed)
    mat = judged_geometry(geometry, GAME, position)
    observation = read_frame_details(CONFIG, frame.image, mat, PROFILE).observation
    observation = GAME.judged_observation(judged_only(observation, geometry))
    regions = dict(observation.regions)
    regions["discard-1"] = _card("5")
    return Observation(regions)


def test_a_nickel_dropped_in_the_wrong_supply_is_seen_and_named_until_put_right():
    position = table(2, {1: ["t20"], 2: ["t25"]})
    after = GAME.apply_text(position, "5:t20>t25")
    right = GAME.layout(after)
    regions = dict(right.items())
    regions["supply-2"] = RegionContents("NNN", loose=True)
    regions["supply-1"] = RegionContents("NPPP", loose=True)
    slipped = TableState(regions)
    seen = seen_by_camera(slipped, position, seed=3)
    assert seen.regions["supply-2"].count == 3 and seen.regions["supply-2"].confidence >= 0.5
    assert seen.regions["supply-1"].count == 4
    referee = referee_at(position)
    referee.handle(Press("END1"))
    referee.handle(Seen(seen, frame="f1"))
    assert referee.phase is Phase.RESTORE and referee.view().marked == ("supply-2",)
    assert "supply-2 should hold 4 coins" in referee.view().message
    referee.handle(Press("CONFIRM"))
    regions = dict(seen.regions)  # the nickel moved across, as a perfect camera sees it
    regions["supply-2"] = replace(regions["supply-2"], count=4, kinds=("N",) * 4)
    regions["supply-1"] = replace(regions["supply-1"], count=3, kinds=("P",) * 3)
    referee.handle(Seen(Observation(regions), frame="f2"))
    assert referee.phase is Phase.TURN and GAME.to_move(referee.position) == 2


def test_the_screen_shows_each_supplys_coins_and_a_doubtful_supply(tmp_path):
    position = table(4, {1: ["t20"], 2: ["t25"]})
    referee = referee_at(position)
    after = GAME.layout(GAME.apply_text(position, "5:t20>t25"))
    regions = {name: contents for name, contents in after.items()}
    seen = Observation({name: _reading(contents) for name, contents in regions.items()} | {
        "discard-1": _card("5"),
        "supply-2": replace(_reading(regions["supply-2"]), count=3, kinds=("N",) * 3,
                            confidence=0.2)})
    referee.handle(Press("END1"))
    referee.handle(Seen(seen, frame="f1"))
    assert referee.phase is Phase.TURN
    view = referee.view()
    assert view.facts[:2] == ("The 5 was read by the camera.",
                              "Camera unsure of supply-2: check by eye.")
    snapshot = snapshot_of(view, default_seats(4, GAME.info.token_colours), game=GAME.name)
    path = save_screenshot(snapshot, tmp_path / "supplies.png", SIZE)
    image = cv2.cvtColor(cv2.imread(str(path)), cv2.COLOR_BGR2RGB)
    boxes = dict(compute_layout(SIZE, players=4, mat=snapshot.mat).regions)
    for seat in range(1, 5):  # every supply holds coins here, drawn with their count
        box = boxes[f"supply-{seat}"]
        patch = image[box.y:box.bottom, box.x:box.right].astype(int)
        assert (np.abs(patch - LIGHT_SQUARE).max(axis=2) > 40).sum() > 20, seat


def _reading(contents: RegionContents) -> RegionReading:
    look = contents.look()
    return RegionReading(look.coin, look.pawn, count=look.count, kinds=look.kinds)


def _card(rank: str) -> RegionReading:
    return RegionReading(card=CardReading(rank, 0.97, (0.0, 0.0)))


def test_the_synthetic_table_lays_every_token_of_a_seat_its_supply_included():
    position = table(6, {5: ["t10", "h5-2"]})
    scene = SynthScene.from_table(GAME.layout(position), {"5": "blue", "6": "yellow"},
                                  flat_tokens=True,
                                  geometry=mat_for_game(GAME.info.mat, players=6))
    assert scene.tokens == (("h5-2", "blue"), ("supply-5", "blue"), ("supply-6", "yellow"),
                            ("t10", "blue"))
