"""Random games of the real engine recorded through the real journal writer, for the tests."""

import random
from dataclasses import dataclass

from companion.games import get_game
from companion.record.journal import JournalHeader, JournalWriter, Seat

GAME = "coin-isolation"


@dataclass
class RecordedGame:
    final: object
    standing: list
    events_written: int


def header_for(position, variants=()):
    data = position.to_json()
    seats = tuple(Seat(int(number), side) for number, side in sorted(data["sides"].items()))
    return JournalHeader(
        game=GAME,
        players=len(seats),
        seats=seats,
        initial_position=data,
        variants=tuple(variants),
    )


def choose(moves, position, rng):
    """A random move, or with no rng one fixed by the position (so a resumed game goes the same)."""
    if rng is None:
        return moves[int(position.state_hash(), 16) % len(moves)]
    return rng.choice(moves)


def play_on(writer, position, rng=None, extras=False, max_turns=None, standing=None, on_event=None):
    """Play from ``position`` to the end (or ``max_turns``), recording every event."""
    game = get_game(GAME)
    stack = [] if standing is None else standing
    turns = 0
    while not game.is_over(position) and (max_turns is None or turns < max_turns):
        turns += 1
        moves = game.legal_moves(position)
        move = choose(moves, position, rng)
        player = game.to_move(position)
        after = game.apply(position, move)
        if move.text() == "pass":
            event = writer.record_pass(player=player, state_hash=after.state_hash())
        else:
            if extras and rng.random() < 0.1:
                writer.record_ruling(
                    "reject", text="the nickel on e3 moved", state_hash=position.state_hash(),
                    source="camera",
                )  # fmt: skip
            if extras and len(moves) > 1 and rng.random() < 0.1:
                other = next(m for m in moves if m.text() != move.text())
                writer.record_ruling(
                    "ask", text="a stack looks the same", state_hash=position.state_hash(),
                    source="panel", candidates=(move.text(), other.text()), chosen=move.text(),
                )  # fmt: skip
            source = rng.choice(["panel", "bot", "keyboard"]) if rng else "bot"
            event = writer.record_move(
                move.text(), player=player, state_hash=after.state_hash(), source=source
            )
        if on_event is not None:
            on_event(event)
        stack.append((event.number, position, move.text()))
        position = after
        if extras and rng.random() < 0.08:
            number, before, _ = stack.pop()
            writer.record_undo(retracts=number, state_hash=before.state_hash(), source="panel")
            position = before
        if extras and rng.random() < 0.04:
            writer.record_note("camera blocked", state_hash=position.state_hash(), source="referee")
    return position, stack


def fix_setup(writer, position, game):
    """Record a misread square fixed before play: the first single penny becomes a nickel."""
    data = position.to_json()
    square = next(name for name, stack in sorted(data["squares"].items()) if stack == "P")
    data["squares"][square] = "N"
    fixed = game.position_from_json(data)
    writer.record_setup_fix(
        position=fixed.to_json(), state_hash=fixed.state_hash(), source="panel",
        region=square, was="P", now="N",
    )  # fmt: skip
    return fixed


def record_random_game(folder, seed, variants=(), players=2, extras=False, max_turns=None):
    """Record a random game in ``folder``; returns the final position and the standing moves."""
    game = get_game(GAME)
    rng = random.Random(seed)
    position = game.new_position(players, variants, seed=seed)
    with JournalWriter.create(folder, header_for(position, variants)) as writer:
        if extras:
            position = fix_setup(writer, position, game)
        final, stack = play_on(writer, position, rng, extras, max_turns)
        written = writer.next_number - 1
    return RecordedGame(final, [text for _, _, text in stack], written)
