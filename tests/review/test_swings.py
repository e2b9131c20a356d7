"""The three swings named are the biggest by construction: on made-up figures, and on recorded
games reviewed by an analyser whose every figure is known in advance."""

import random
from fractions import Fraction

import pytest

from companion.games import get_game
from companion.record.export import CommentItem, MoveItem, parse_game_text
from companion.record.replay import load_timeline
from companion.review.analyse import MoveReview, review_timeline
from companion.review.comments import biggest_swings, comments_by_event, swing_sentence
from companion.review.report import write_review
from tests.review.records import known_analyser, known_chance, record_random_game


def made_up_move(ply, before, after, seat=1):
    return MoveReview(ply, "0", ply, seat, f"m{ply}", False, {1: before, 2: 1 - before},
                      {1: after, 2: 1 - after}, best="x", best_chance=0.5)


def test_biggest_swings_are_the_largest_changes_in_either_direction():
    rng = random.Random(7)
    for _ in range(50):
        moves = [made_up_move(ply, rng.random(), rng.random(), seat=rng.choice((1, 2)))
                 for ply in range(1, rng.randint(2, 40))]
        named = biggest_swings(moves)
        sizes = sorted((abs(m.after[1] - m.before[1]) for m in moves), reverse=True)
        assert [round(m.swing, 12) for m in named] == [round(s, 12) for s in sizes[:3]]
        assert all(m.swing >= other.swing for m in named for other in moves
                   if other not in named)


def test_ties_go_to_the_earlier_move_and_still_moves_are_no_swing():
    moves = [made_up_move(1, 0.5, 0.5), made_up_move(2, 0.5, 0.3), made_up_move(3, 0.3, 0.5),
             made_up_move(4, 0.5, 0.5)]
    assert [m.ply for m in biggest_swings(moves)] == [2, 3]


def test_a_swing_sentence_names_the_move_the_fall_and_the_engine_choice():
    move = MoveReview(9, "0", 17, 1, "c4-e6", False, {1: 0.62, 2: 0.38}, {1: 0.31, 2: 0.69},
                      best="d2-d3", best_chance=0.58)
    assert swing_sentence(move, {1: "South", 2: "North"}) == (
        "move 17, South's c4-e6: South's chance fell from 62% to 31%; the engine preferred "
        "d2-d3 (58%).")


def expected_chances(game, positions):
    """Seat 1's chance at each position of the line of play, worked out from the known figures:
    a finished game's result, a chance node's mean over its outcomes when no decision led to
    it, else the known chance."""
    values = []
    for index, position in enumerate(positions):
        if game.is_over(position):
            winners = game.result(position).winners
            values.append(1.0 / len(winners) if 1 in winners else 0.0)
        elif game.is_chance(position) and (index == 0 or game.is_chance(positions[index - 1])):
            values.append(sum(float(odds) * known_chance(game.apply(position, outcome))
                              for outcome, odds in game.chance_outcomes(position)))
        else:
            values.append(known_chance(position))
    return values


@pytest.mark.parametrize("name,seed", [("coin-isolation", 4), ("coin-grid", 2)])
def test_the_review_names_the_biggest_swings_of_a_record_whose_swings_are_known(
        tmp_path, name, seed):
    record_random_game(tmp_path, name, seed, plies=14, undo_at=3)
    timeline = load_timeline(tmp_path)
    game = get_game(name)
    standing = timeline.standing_steps()
    positions = [timeline.start_of_play(), *(step.position for step in standing)]
    values = expected_chances(game, positions)
    review = review_timeline(timeline, known_analyser)
    assert [move.move for move in review.moves] == [step.event.move for step in standing]
    for move, before, after in zip(review.moves, values[:-1], values[1:], strict=True):
        assert move.before[1] == pytest.approx(before) and move.after[1] == pytest.approx(after)
    changes = sorted(range(len(standing)), key=lambda i: (-abs(values[i + 1] - values[i]), i))
    assert [move.ply for move in biggest_swings(review.moves)] == [i + 1 for i in changes[:3]]


def test_a_roll_is_luck_and_a_decision_is_measured_against_the_engine(tmp_path):
    record_random_game(tmp_path, "coin-grid", 5, plies=10)
    review = review_timeline(load_timeline(tmp_path), known_analyser)
    game = get_game("coin-grid")
    rolls = [move for move in review.moves if move.chance]
    assert rolls and all(move.best is None and move.engine_agrees for move in rolls)
    assert all(move.move.startswith("roll:") for move in rolls)
    comments = comments_by_event(review)
    assert all(comments[move.number].startswith("review: luck:") for move in rolls)
    assert all("luck" not in comments[move.number] for move in review.moves if not move.chance)
    assert Fraction(1) == sum(odds for _, odds in game.chance_outcomes(
        game.new_position(2, seed=5)))


def test_game_text_carries_the_swing_sentences_after_their_moves(tmp_path):
    record_random_game(tmp_path, "coin-isolation", 11, plies=12)
    files = write_review(tmp_path, known_analyser, "known figures")
    text = parse_game_text(files.text.read_text())
    swings = biggest_swings(files.review.moves)
    items = list(text.items)
    for rank, move in enumerate(swings, start=1):
        sentence = swing_sentence(move, files.review.seat_names)
        where = next(i for i, item in enumerate(items)
                     if isinstance(item, CommentItem) and f"swing {rank}: " in item.text)
        assert sentence in items[where].text
        played = [item for item in items[:where] if isinstance(item, MoveItem)]
        assert len(played) == move.ply and played[-1].text == move.move
    assert text.moves == tuple(move.move for move in files.review.moves)
