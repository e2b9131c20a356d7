"""The demo's purposeful Shakala bots play to end the game: they do not feed an opponent who
ran out of beads once they have 20 points, keep the points in their cup when only stones are
left, leave a move back to a position the game has stood in when another is as good, and so
end endgames of stones that greedy bots sow round and round for ever."""

import random

from companion.analysis.bots import bot_move, parse_bot
from companion.games.shakala import GAME
from tests.games.shakala.helpers import board

PURPOSEFUL = parse_bot("purposeful")
GREEDY = parse_bot("greedy")
#: Every gem but one 4 in South's cup: an endgame of stones South wins whenever it ends.
LEADING = ((1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 4, 4, 4), (4,))


def chosen(position, bot=PURPOSEFUL, seed=0, seen=()):
    return bot_move(GAME, position, bot, random.Random(seed), seen=seen)


def play(position, bot, cap):
    """Plies until the end between two ``bot``s, as the demo plays (None: not ended)."""
    seen = {position}
    for ply in range(cap):
        if GAME.is_over(position):
            return ply
        position = GAME.apply(position, chosen(position, bot, ply, seen))
        seen.add(position)
    return None


def test_an_endgame_greedy_bots_circle_in_is_ended_by_purposeful_ones():
    position = board({"A": "s", "B": "ss", "E": "sss", "F": "s", "G": "sss", "H": "ss",
                      "f": "sss", "h": "s"}, LEADING)
    assert play(position, GREEDY, 150) is None
    plies = play(position, PURPOSEFUL, 40)
    assert plies is not None and plies < 40


def test_with_20_points_an_opponent_without_beads_is_not_fed():
    # H's stones would fall on North's side; A's stone stays on South's: North, to move with
    # no beads, has lost.
    position = board({"A": "s", "H": "ss"}, LEADING)
    for seed in range(6):
        after = GAME.apply(position, chosen(position, seed=seed))
        assert GAME.is_over(after) and GAME.result(after).winners == (1,)
    greedy = {chosen(position, GREEDY, seed).text() for seed in range(12)}
    assert len(greedy) > 1  # greedy feeds North as often as not


def test_in_the_endgame_a_lone_stone_is_not_left_for_a_capture_from_the_cup():
    # North's h drops its stone on E: a lone stone there lets North take a gem from South's cup.
    position = board({"C": "s", "E": "s", "a": "ss", "h": "s"}, ((4, 4, 3), (1, 2)))
    for seed in range(6):
        move = chosen(position, seed=seed)
        after = GAME.apply(position, move)
        assert after.pits[4] != (0,), move.text()
        assert all(reply.points(1) == 11 for reply in (GAME.apply(after, answer)
                                                        for answer in GAME.legal_moves(after)))


def test_a_move_back_to_a_position_seen_before_is_left_for_an_equal_one():
    position = board({"A": "s", "C": "s", "a": "s", "c": "s"}, ((1,), (2,)))
    moves = {move.text(): GAME.apply(position, move) for move in GAME.legal_moves(position)}
    assert set(moves) == {"A-Bs", "C-Ds"}
    for seed in range(6):
        assert chosen(position, seed=seed, seen={moves["A-Bs"]}).text() == "C-Ds"
        assert chosen(position, seed=seed, seen={moves["C-Ds"]}).text() == "A-Bs"


def test_the_demo_seats_purposeful_bots_whose_game_ends_far_below_its_cap():
    plies = play(GAME.new_position(2), PURPOSEFUL, 400)
    assert plies is not None and plies > 30
    assert GAME.demo_bots == ("purposeful", "purposeful")
    assert GAME.demo_ply_cap is not None and GAME.demo_ply_cap >= 3 * plies
