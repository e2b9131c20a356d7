"""The quiet end (RULINGS.md, issue 18 item 11): where variants allow turns that take no coin
(semi-greedy, empty-squares, renegade), the game also ends after 10 rounds in a row in which
nobody took a coin; the variants' help lines say so."""

import pytest

from companion.games import IllegalMoveError, Termination
from companion.games.coin_isolation import GAME
from companion.games.coin_isolation.position import QUIET_VARIANTS, VARIANTS
from companion.games.coin_isolation.rules import QUIET_LIMIT_ROUNDS

#: Pennies over the south half, empty squares over the north half, and the pawns between them,
#: so that every player can wander on coins or on empty squares.
SOUTH_PENNIES = {f"{file}{rank}": "P" for file in "abcdefgh" for rank in range(1, 5)}
PAWNS = ("b4", "d4", "f4", "h4")


def start(variants, players=2):
    sides = {"1": "south", "2": "north", "3": "west", "4": "east"}
    return GAME.position_from_json({
        "variants": variants, "players": players, "squares": SOUTH_PENNIES,
        "sides": {str(p): sides[str(p)] for p in range(1, players + 1)},
        "pawns": {str(p): PAWNS[p - 1] for p in range(1, players + 1)},
        "taken": {str(p): "" for p in range(1, players + 1)},
    })


def quiet_move(position):
    """A move that takes nothing: a step onto a next empty square (tried first: under
    empty-squares the coin paths come first and number hundreds of thousands), else the first
    zero take, path of empty squares, or renegade's move the engine lists."""
    step = _step_onto_empty(position)
    if step is not None:
        return step
    for move in GAME.iter_moves(position):
        if move.take == 0 or move.renegade or position.to_move in position.renegades:
            return move
        if move.steps and not position.squares[move.steps[0]]:
            return move
    raise AssertionError(f"no quiet move for player {position.to_move}")


def _step_onto_empty(position):
    """The mover's pawn's one-square step onto an empty square, where that is legal: up and
    down its own file between ranks 5 and 6 (so the pawns never meet and stay beside the
    pennies of rank 4, where a take remains possible), else sideways."""
    pawn = position.pawns[position.to_move - 1]
    if pawn is None:
        return None
    file, rank = pawn % 8, pawn // 8
    order = ((0, 1), (0, -1)) if rank <= 4 else ((0, -1), (0, 1))
    for dx, dy in (*order, (1, 0), (-1, 0)):
        x, y = file + dx, rank + dy
        if not (0 <= x < 8 and 0 <= y < 8) or position.squares[y * 8 + x]:
            continue
        move = GAME.parse_move(f"{'abcdefgh'[x]}{y + 1}")
        try:
            GAME.apply(position, move)
        except IllegalMoveError:
            continue
        return move
    return None


@pytest.mark.parametrize("players", [2, 4])
@pytest.mark.parametrize("variant", sorted(QUIET_VARIANTS))
def test_ten_rounds_without_a_take_end_the_game(variant, players):
    position = start([variant], players)
    for _ in range(QUIET_LIMIT_ROUNDS * players):
        assert not GAME.is_over(position)
        position = GAME.apply(position, quiet_move(position))
    assert GAME.is_over(position)
    assert GAME.result(position).termination is Termination.QUIET
    assert "too many rounds went by without a take" in GAME.result(position).announcement()


@pytest.mark.parametrize("variant", sorted(QUIET_VARIANTS - {"renegade"}))
def test_a_take_starts_the_count_again(variant):
    position = start([variant])
    for _ in range(QUIET_LIMIT_ROUNDS * 2 - 1):
        position = GAME.apply(position, quiet_move(position))
    taking = next(move for move in GAME.iter_moves(position)
                  if move.take != 0 and move.steps and position.squares[move.steps[0]])
    position = GAME.apply(position, taking)
    assert position.quiet == 0 and not GAME.is_over(position)


def test_the_help_line_of_each_variant_says_whether_quiet_rounds_end_the_game():
    lines = GAME.info.variants
    assert list(lines) == list(VARIANTS)
    for name, line in lines.items():
        says = f"ends after {QUIET_LIMIT_ROUNDS} rounds in a row in which nobody took a coin"
        assert (says in line) == (name in QUIET_VARIANTS), name
