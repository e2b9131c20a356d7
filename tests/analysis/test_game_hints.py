"""The evaluation hints of Shakala and Coin Grid: the search finds them, their estimates are
graded shares that add up to one, and they favour the seat that is ahead on hand-made
positions (and only that seat: the same position mirrored favours the other)."""

from dataclasses import replace

import pytest

from companion.analysis.evaluation import GENERIC_PLAYOUT_PLIES, evaluation_for
from companion.games import get_game
from companion.games.coin_grid import hints as grid_hints
from companion.games.coin_grid.board import FILE_COUNT, START_ROWS, bits
from companion.games.coin_grid.position import CoinGridPosition, Piece, with_piece
from companion.games.shakala import hints as shakala_hints
from companion.games.shakala.board import side_pits
from companion.games.shakala.position import ShakalaPosition


@pytest.mark.parametrize("name, hints", [("shakala", shakala_hints),
                                         ("coin-grid", grid_hints)])
def test_the_search_cuts_playouts_short_with_the_games_hints(name, hints):
    game = get_game(name)
    position = game.new_position(2, (), seed=1)
    evaluation = evaluation_for(game, position)
    assert evaluation.cutoff == hints.PLAYOUT_PLIES < GENERIC_PLAYOUT_PLIES
    chances = evaluation.cut_off(position)
    assert sum(chances) == pytest.approx(1.0)
    assert chances == pytest.approx((0.5, 0.5), abs=0.05)
    assert evaluation_for(game, position, use_hints=False).estimate is None


def shakala_start() -> ShakalaPosition:
    """Shakala's starting position."""
    start = get_game("shakala").new_position(2, ())
    assert isinstance(start, ShakalaPosition)
    return start


def grid_start() -> CoinGridPosition:
    """Coin Grid's starting position (seeded)."""
    start = get_game("coin-grid").new_position(2, (), seed=0)
    assert isinstance(start, CoinGridPosition)
    return start


def shakala_with_captures(captor: int, pits: range) -> ShakalaPosition:
    """The start with ``captor`` having taken every gem from ``pits``."""
    start = shakala_start()
    beads = list(start.pits)
    taken: list[int] = []
    for pit in pits:
        taken += [bead for bead in beads[pit] if bead]
        beads[pit] = tuple(bead for bead in beads[pit] if not bead)
    cups: list[tuple[int, ...]] = [(), ()]
    cups[captor - 1] = tuple(sorted(taken))
    return replace(start, pits=tuple(beads), cups=(cups[0], cups[1]))


@pytest.mark.parametrize("captor", [1, 2])
def test_shakala_favours_the_seat_with_more_points_but_does_not_call_it_won(captor):
    opponent_pits = side_pits(3 - captor)
    position = shakala_with_captures(captor, opponent_pits[6:8])   # two gems: 2 + 1 points
    chances = shakala_hints.win_chances(position)
    assert 0.5 < chances[captor] < 0.95
    assert chances[captor] + chances[3 - captor] == pytest.approx(1.0)


def test_shakala_gems_on_the_opponents_side_count_for_the_seat_that_can_take_them():
    start = shakala_start()
    beads = list(start.pits)
    north, south = side_pits(2), side_pits(1)
    beads[north[0]] = beads[north[0]] + (9,)   # a 9 on North's side: South may take it
    chances = shakala_hints.win_chances(replace(start, pits=tuple(beads)))
    assert chances[1] > 0.5
    beads = list(start.pits)
    beads[south[0]] = beads[south[0]] + (9,)
    assert shakala_hints.win_chances(replace(start, pits=tuple(beads)))[2] > 0.5


def test_shakala_a_seat_past_reach_has_all_but_won():
    position = shakala_with_captures(2, side_pits(1))   # North holds all of South's 20 points
    position = replace(position, cups=((1,), position.cups[1]))
    beads = list(position.pits)
    for pit in side_pits(2)[:7]:
        beads[pit] = tuple(bead for bead in beads[pit] if not bead)
    position = replace(position, pits=tuple(beads))     # only North's last gem is left
    chances = shakala_hints.win_chances(position)
    assert chances[2] == shakala_hints.DECIDED > 0.5
    assert chances[2] + chances[1] == pytest.approx(1.0)


def grid_without(player: int, count: int) -> CoinGridPosition:
    """The Coin Grid start with ``count`` of ``player``'s pieces taken off."""
    position = grid_start()
    for square in bits(position.pieces_of(player) & START_ROWS[player])[:count]:
        position = with_piece(position, square, None)
    return position


@pytest.mark.parametrize("loser", [1, 2])
def test_coin_grid_favours_the_seat_with_more_pieces_and_grades_the_lead(loser):
    leader = 3 - loser
    one_down = grid_hints.win_chances(grid_without(loser, 1))
    four_down = grid_hints.win_chances(grid_without(loser, 4))
    assert 0.5 < one_down[leader] < four_down[leader] < 1.0
    assert four_down[leader] + four_down[loser] == pytest.approx(1.0)


def test_coin_grid_counts_double_stacks_reserves_and_the_battle_attacker():
    start = grid_start()
    square = bits(start.pieces_of(1))[0]
    doubled = with_piece(start, square, Piece(1, double=True))
    assert grid_hints.win_chances(doubled)[1] > 0.5
    assert grid_hints.win_chances(replace(start, reserves=(0, 2)))[2] > 0.5
    deadened = with_piece(start, square, Piece(1, dead=True))
    assert grid_hints.win_chances(deadened)[2] > 0.5
    lifted = replace(with_piece(start, square, None), phase="battle",
                     battle_square=bits(start.pieces_of(2))[0], attacker=Piece(1, moved=True))
    assert grid_hints.win_chances(lifted)[1] == pytest.approx(0.5, abs=0.05)


def test_coin_grid_a_seat_without_pieces_has_lost():
    start = grid_start()
    assert grid_hints.win_chances(replace(start, north=0)) == {2: 0.0, 1: 1.0}


def test_coin_grid_an_advanced_piece_is_worth_a_little_more():
    start = grid_start()
    square = bits(start.pieces_of(1) & START_ROWS[1])[0]
    ahead = square + 4 * FILE_COUNT                      # four ranks up the same file
    assert not start.occupied & (1 << ahead)
    advanced = with_piece(with_piece(start, square, None), ahead, Piece(1, moved=True))
    chances = grid_hints.win_chances(advanced)
    assert 0.5 < chances[1] < 0.6
