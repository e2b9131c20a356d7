"""A roll folded into a decision (Coin Grid's turn start where a double stack can be made): the
search takes rolling as one action and samples the face by its odds instead of choosing the
face it likes best, and a bot that rolls gets a face thrown, not the one it named (issue 22)."""

import random
from collections import Counter

from companion.analysis import SearchLimits
from companion.analysis.evaluation import evaluation_for
from companion.analysis.rolls import folded_rolls, thrown
from companion.analysis.search import search
from companion.analysis.tree import Worker
from companion.games import get_game

GAME = get_game("coin-grid")


def stack_or_roll(seed: int):
    """A Coin Grid turn start, after random play, where the mover may stack or roll."""
    rng = random.Random(seed)
    position = GAME.new_position(2)
    while not folded_rolls(GAME, position):
        position = GAME.apply(position, rng.choice(GAME.children(position)))
    return position


def test_rolling_is_one_action_whose_faces_the_search_samples_evenly():
    position = stack_or_roll(3)
    faces = {face for face, _ in folded_rolls(GAME, position)}
    assert len(faces) == 6 and faces < set(GAME.legal_moves(position))
    worker = Worker(evaluation_for(GAME, position), position, random.Random(1))
    worker.run(200, None)
    root = worker.root
    assert len(set(root.moves) & faces) == 1 and root.roll in faces
    rolled = root.children[root.roll]
    assert rolled.chance and set(rolled.children) == faces
    visits = [child.visits for child in rolled.children.values()]
    assert sum(visits) == rolled.visits >= 12   # the hints rank double stacks above rolling
    assert min(visits) > 0 and max(visits) < 2.5 * rolled.visits / 6
    assert max(visits) - min(visits) <= 1            # faces followed in proportion (stratified)
    estimates = search(GAME, position, SearchLimits(playouts=100, seed=2)).estimates
    assert len([estimate for estimate in estimates if estimate.move in faces]) == 1


def test_a_bot_that_rolls_gets_a_face_thrown_at_random():
    position = stack_or_roll(3)
    rng = random.Random(4)
    six = next(face for face, _ in folded_rolls(GAME, position) if face.text() == "roll:6")
    counts = Counter(thrown(GAME, position, six, rng).text() for _ in range(600))
    assert len(counts) == 6 and all(60 < count < 140 for count in counts.values())
    stack = next(move for move in GAME.legal_moves(position) if move not in
                 {face for face, _ in folded_rolls(GAME, position)})
    assert thrown(GAME, position, stack, rng) == stack


def test_rules_best_names_the_roll_without_a_face():
    from companion.cli.rules import best_lines

    position = stack_or_roll(3)
    result = search(GAME, position, SearchLimits(playouts=60, seed=2))
    lines = best_lines(GAME, position, result, 1.0)
    names = [line.split()[0] for line in lines[2:-1]]
    assert "roll" in names and not any(name.startswith("roll:") for name in names)


def test_a_hint_at_the_table_names_the_roll_without_a_face():
    from companion.hints import search_best

    answer = search_best("coin-grid", stack_or_roll(3).to_json(), 0.2, 1)
    assert GAME.parse_move(answer.best) in GAME.legal_moves(stack_or_roll(3))
    assert answer.words in ("", "roll") and (answer.words == "roll") == answer.best.startswith(
        "roll:")
