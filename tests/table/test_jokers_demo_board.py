"""The demo's physical table with Jokers and Coins' flat tokens (seats 5 and 6): a sloppy hand
that knocks a coin off leaves every token lying flat where it was."""

import random

from companion.demo_board import PhysicalBoard
from contract.table_state import RegionContents, TableState
from vision.camera import SimCamera, open_camera


def test_a_knocked_off_coin_leaves_the_flat_tokens_flat():
    camera = open_camera("sim://?seed=3&board=empty&mat=jokers-and-coins&seats=6")
    assert isinstance(camera, SimCamera)
    try:
        board = PhysicalBoard(camera, {"5": "blue", "6": "yellow"}, seed=3, flat_tokens=True)
        board.lay_out(TableState({"t3": RegionContents("P"), "t9": RegionContents("N"),
                                  "t20": RegionContents("", "5"),
                                  "t40": RegionContents("", "6")}))
        assert dict(camera.scene.tokens) == {"t20": "blue", "t40": "yellow"}
        left = board.knock_off(random.Random(1))
        scene = camera.scene
        assert left in ("t3", "t9") and left not in scene.coins_by_region()
        assert dict(scene.tokens) == {"t20": "blue", "t40": "yellow"} and not scene.pawns
    finally:
        camera.close()
