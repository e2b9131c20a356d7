"""Recorded games for the review's tests: random play of the real engine of any registered game,
written through the real journal writer, and an analyser whose answers are known in advance."""

import random

from companion.analysis import MoveEstimate, SearchResult
from companion.games import get_game
from companion.record.journal import JournalHeader, JournalWriter


def record_random_game(folder, name, seed, plies, undo_at=None):
    """Record ``plies`` random actions of game ``name`` (chance outcomes by their odds) in
    ``folder``; with ``undo_at``, the action of that ply is taken back once and replayed.
    Returns the final position."""
    game = get_game(name)
    rng = random.Random(seed)
    position = game.new_position(2, seed=seed)
    with JournalWriter.create(folder, JournalHeader.from_position(position.to_json())) as writer:
        for ply in range(plies):
            if game.is_over(position):
                break
            move = _pick(game, position, rng)
            after = game.apply(position, move)
            event = writer.record_move(move.text(), player=int(game.to_move(position)),
                                       state_hash=after.state_hash(), source="bot")
            if ply == undo_at:
                writer.record_undo(retracts=event.number, state_hash=position.state_hash(),
                                   source="panel")
                after = game.apply(position, move)
                writer.record_move(move.text(), player=int(game.to_move(position)),
                                   state_hash=after.state_hash(), source="bot")
            position = after
    return position


def _pick(game, position, rng):
    if game.is_chance(position):
        outcomes = game.chance_outcomes(position)
        return rng.choices([move for move, _ in outcomes],
                           weights=[float(odds) for _, odds in outcomes])[0]
    return rng.choice(game.legal_moves(position))


def known_chance(position):
    """Seat 1's win chance as the fake analyser says it: fixed by the position's state."""
    return random.Random(str(position.state_hash())).random()


def known_analyser(game, position, share=1.0):
    """A search result whose figures are known: the position's chance is :func:`known_chance`,
    each move's is that of the position it leads to, and the engine's choice is the move whose
    result is best for the mover."""
    mover = int(game.to_move(position))
    estimates = []
    for move in game.legal_moves(position):
        chance = known_chance(game.apply(position, move))
        estimates.append(MoveEstimate(move, 10, {1: chance, 2: 1.0 - chance}))
    estimates.sort(key=lambda estimate: -estimate.win_chance[mover])
    chance = known_chance(position)
    return SearchResult(estimates[0].move, tuple(estimates), {1: chance, 2: 1.0 - chance}, 10)
