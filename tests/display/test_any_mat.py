"""The side screen draws any mat from the geometry that prints it: a ring track of round spaces
(Ring Race) with its coins, pawns, highlights and the path of a move, saved as a real PNG."""

import cv2
import numpy as np
import pytest

from companion.display.layout import compute_layout
from companion.display.pieces import LIGHT_SQUARE
from companion.display.screen import save_screenshot
from companion.display.snapshot import DisplayError, Snapshot
from companion.games import get_game
from companion.referee import Referee
from companion.screen_view import board_shape, default_seats, snapshot_of
from tests.games.ring_race import GAME as RING_RACE

SIZE = (1280, 720)


def test_a_grid_game_keeps_its_grid_and_a_ring_game_gets_its_regions():
    grid = board_shape(get_game("coin-isolation"))
    assert (grid.files, grid.ranks, grid.mat) == (8, 8, None)
    ring = board_shape(RING_RACE)
    assert ring.mat is not None and len(ring.mat.regions) == 12
    assert all(region.round for region in ring.mat.regions)


def test_the_ring_track_is_drawn_with_its_coins_pawns_and_targets(tmp_path):
    position = RING_RACE.new_position(2, seed=4)
    position = RING_RACE.apply(position, RING_RACE.parse_move("roll:2"))
    referee = Referee(RING_RACE, position, position=position)
    seats = default_seats(2, RING_RACE.info.token_colours)
    snapshot = snapshot_of(referee.view(), seats, game=RING_RACE.name)
    assert snapshot.mat is not None and snapshot.targets
    path = save_screenshot(snapshot, tmp_path / "ring.png", SIZE)
    image = cv2.cvtColor(cv2.imread(str(path)), cv2.COLOR_BGR2RGB)
    layout = compute_layout(SIZE, players=2, mat=snapshot.mat)
    boxes = dict(layout.regions)
    table = RING_RACE.layout(position)
    empty = [name for name in boxes if name not in table and name not in snapshot.targets]
    for name in empty:  # an empty space shows the mat's light colour at its middle
        x, y = boxes[name].center
        assert np.abs(image[y, x].astype(int) - LIGHT_SQUARE).max() <= 8, name
    for name, contents in table.items():  # a coin or a pawn covers its space's middle
        x, y = boxes[name].center
        assert np.abs(image[y, x].astype(int) - LIGHT_SQUARE).max() > 8, (name, contents)
    ring = [box.center for box in boxes.values()]
    spread = np.ptp(np.array(ring), axis=0)
    assert spread.min() > 0.5 * layout.board.height  # the spaces go round, not in a line


def test_a_region_the_mat_does_not_have_is_a_display_error():
    mat = board_shape(RING_RACE).mat
    Snapshot(mat=mat, stacks=(("t3", "P"),))
    with pytest.raises(DisplayError, match="'a1'"):
        Snapshot(mat=mat, stacks=(("a1", "P"),))
