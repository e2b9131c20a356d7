"""What the review says, in words: a short comment per move and a sentence for each of the
biggest swings. Pure: the HTML page and ``game.txt`` use the same sentences.

A decision is compared with the engine's choice; a chance outcome (a roll, a battle's dice) is
luck, never a mistake, and is worded so.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from companion.review.analyse import GameReview, MoveReview

#: How many swings the report names.
SWINGS_NAMED = 3


def percent(chance: float) -> str:
    """A win chance as a whole percentage: ``62%``."""
    return f"{round(100 * chance)}%"


def biggest_swings(moves: Sequence[MoveReview], count: int = SWINGS_NAMED
                   ) -> tuple[MoveReview, ...]:
    """The ``count`` moves that moved a win chance most, biggest first (earlier first on a
    tie); moves that moved nothing are not swings."""
    ranked = sorted((move for move in moves if move.swing > 0),
                    key=lambda move: (-move.swing, move.ply))
    return tuple(ranked[:count])


def _chance_text(move: MoveReview, names: Mapping[int, str]) -> str:
    name = names.get(move.seat, f"Player {move.seat}")
    before, after = move.before.get(move.seat, 0.0), move.after.get(move.seat, 0.0)
    verb = "rose" if after > before else "fell" if after < before else "stayed"
    if verb == "stayed":
        return f"{name}'s chance stayed at {percent(before)}"
    return f"{name}'s chance {verb} from {percent(before)} to {percent(after)}"


def move_comment(move: MoveReview, names: Mapping[int, str]) -> str:
    """The short comment after a move: ``South 62% -> 31%; engine: d2-d3 (58%)``."""
    name = names.get(move.seat, f"Player {move.seat}")
    chances = f"{name} {percent(move.before.get(move.seat, 0.0))} -> " \
              f"{percent(move.after.get(move.seat, 0.0))}"
    if move.chance:
        return f"luck: {chances}"
    if move.engine_agrees:
        return f"{chances}; the engine's choice"
    return f"{chances}; engine: {move.best} ({percent(move.best_chance or 0.0)})"


def swing_sentence(move: MoveReview, names: Mapping[int, str]) -> str:
    """A named swing: ``move 17, South's c4-e6: South's chance fell from 62% to 31%; the
    engine preferred d2-d3 (58%).``"""
    name = names.get(move.seat, f"Player {move.seat}")
    head = f"move {move.ply}, {name}'s {move.move}: {_chance_text(move, names)}"
    if move.chance:
        return f"{head}; the luck of the {_outcome_word(move.move)}, not a mistake."
    if move.engine_agrees:
        return f"{head}; it was the engine's choice too."
    return f"{head}; the engine preferred {move.best} ({percent(move.best_chance or 0.0)})."


def _outcome_word(move: str) -> str:
    """What a chance outcome is called in a sentence (``roll:4`` is a roll)."""
    if move.endswith("-wins"):
        return "battle's dice"
    kind = move.split(":", 1)[0].strip().lower()
    return {"roll": "roll", "draw": "draw"}.get(kind, "dice")


def swing_sentences(review: GameReview) -> tuple[str, ...]:
    """The biggest swings of a reviewed game, as sentences, biggest first."""
    return tuple(swing_sentence(move, review.seat_names)
                 for move in biggest_swings(review.moves))


def comments_by_event(review: GameReview) -> dict[int, str]:
    """The comment to write after each reviewed move in ``game.txt``, by journal event number:
    the short comment, and the swing sentence for the biggest swings."""
    swings = {move.number: rank for rank, move in enumerate(biggest_swings(review.moves), 1)}
    comments = {}
    for move in review.moves:
        text = f"review: {move_comment(move, review.seat_names)}"
        if move.number in swings:
            text += f"; swing {swings[move.number]}: {swing_sentence(move, review.seat_names)}"
        comments[move.number] = text
    return comments
