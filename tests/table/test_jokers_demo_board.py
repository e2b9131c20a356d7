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


def test_laying_out_the_board_that_lies_there_films_no_new_frame():
    camera = open_camera("sim://?seed=3&board=empty&mat=jokers-and-coins&seats=4")
    assert isinstance(camera, SimCamera)
    try:
        board = PhysicalBoard(camera, {}, seed=3)
        table = TableState({"t3": RegionContents("P"), "t9": RegionContents("N")})
        board.lay_out(table)
        shown = camera.scene
        board.lay_out(TableState(dict(table.items())))
        assert camera.scene is shown
        board.lay_out(TableState({"t3": RegionContents("P")}))
        assert camera.scene is not shown and "t9" not in camera.scene.coins_by_region()
    finally:
        camera.close()
