"""What the Shakala referee says at the table: the prompt (feeding, the endgame), a note on
each accepted move (its captures, the endgame beginning), each cup's notes, and the words that
tell apart moves the camera could not (the route at a fork, which gem was taken).

Everything here is words from positions and moves; the referee shows them, the screen draws
them, nothing is decided here.
"""

from __future__ import annotations

from collections.abc import Sequence

from companion.games.shakala.board import PIT_NAMES, other, side_pits
from companion.games.shakala.moves import ShakalaMove, Take
from companion.games.shakala.position import STONE, WIN_POINTS, ShakalaPosition
from companion.games.shakala.rules import is_over, must_feed
from companion.games.shakala.table import bead_coins
from contract.observation import COIN_KINDS

SIDE_NAMES = ("South", "North")
#: The fork pits, and the pit after each on the inner and the outer track.
FORK_EXITS = {"F": ("E", "inner"), "A": ("E", "outer"), "f": ("e", "inner"),
              "a": ("e", "outer")}


def side(player: int) -> str:
    """``South`` or ``North``."""
    return SIDE_NAMES[player - 1]


def is_endgame(position: ShakalaPosition) -> bool:
    """Whether every gem has left the pits: only stones remain, and only an indirect capture
    from the cup still scores."""
    return not position.gems_in_pits


def prompt(position: ShakalaPosition) -> str:
    """What the mover does now: pick up and sow, with feeding or the endgame when they apply."""
    if is_over(position):
        return ""
    mover = position.to_move
    told = f"{side(mover)}: pick up one of your pits and sow its beads."
    if must_feed(position):
        told += (f" {side(other(mover))} has no beads: drop at least one on "
                 f"{side(other(mover))}'s side (feeding).")
    elif is_endgame(position):
        told += " Endgame: no gems are left in the pits."
        if not position.has_beads(other(mover)) and position.points(mover) < WIN_POINTS:
            told += f" {side(other(mover))} has no beads."
    return told


def table_note(position: ShakalaPosition, move: ShakalaMove, after: ShakalaPosition) -> str:
    """A sentence on what the move did that matters at the table: the gems captured and the
    endgame beginning."""
    notes = []
    if move.taken:
        gems = ", ".join(_taken_text(take, position) for take in move.taken)
        points = sum(value for _, value in move.taken)
        notes.append(f"{side(position.to_move)} captured {gems} ({points} "
                     f"point{'s' if points != 1 else ''}) into their cup.")
    if position.gems_in_pits and not after.gems_in_pits:
        notes.append("The endgame begins: every gem has left the pits, and an indirect "
                     "capture now takes from the opponent's cup.")
    return " ".join(notes)


def seat_notes(position: ShakalaPosition) -> dict[int, str]:
    """Per cup: the beads its player still has in pits, and a mark for the one who must be
    fed or can win by emptying the other."""
    notes = {}
    for player in (1, 2):
        beads = sum(len(position.pits[pit]) for pit in side_pits(player))
        note = f"{beads} bead{'s' if beads != 1 else ''} in pits"
        if position.points(player) >= WIN_POINTS:
            note += f"; {WIN_POINTS}+ points"
        notes[player] = note
    return notes


def choice_labels(position: ShakalaPosition, moves: Sequence[ShakalaMove]) -> list[str]:
    """For each of ``moves``, what tells it from the others in a player's words: the pit sown,
    the track taken at each fork, what fell into a pit, the gems taken. Only what differs
    between the moves is said; a move with nothing to tell is given as its notation."""
    phrases = [_phrases(position, move) for move in moves]
    keys = sorted({key for found in phrases for key in found})
    differing = [key for key in keys
                 if len({found.get(key, "") for found in phrases}) > 1]
    labels = []
    for move, found in zip(moves, phrases, strict=True):
        said = [found[key] for key in differing if found.get(key)]
        labels.append("; ".join(said) if said else move.text())
    return labels


def _phrases(position: ShakalaPosition, move: ShakalaMove) -> dict[str, str]:
    """Phrases keyed by what they are about (the origin, the route, a pit, the capture)."""
    found = {"0 origin": f"sowed {PIT_NAMES[move.origin]}",
             "1 route": _route_text(move)}
    coins = bead_coins(position.variants)
    for pit in sorted({pit for pit, _ in move.drops}):
        beads = sorted(bead for at, bead in move.drops if at == pit)
        found[f"2 pit {pit:02d}"] = f"{PIT_NAMES[pit]} got " + _beads_text(beads, coins)
    found["3 taken"] = ("took " + ", ".join(_taken_text(take, position) for take in move.taken)
                        if move.taken else "no capture")
    return found


def _route_text(move: ShakalaMove) -> str:
    """The track taken at each pass through a fork: ``outer at E, then inner at e``."""
    passes = [f"{FORK_EXITS[PIT_NAMES[pit]][1]} at {FORK_EXITS[PIT_NAMES[pit]][0]}"
              for pit, _ in move.drops if PIT_NAMES[pit] in FORK_EXITS]
    return ", then ".join(passes) if passes else "no fork passed"


def _beads_text(beads: Sequence[int], coins: dict[int, str]) -> str:
    """``a stone and the 3 (quarter)``."""
    words = []
    stones = beads.count(STONE)
    if stones:
        words.append("a stone" if stones == 1 else f"{stones} stones")
    words += [f"the {value} ({COIN_KINDS[coins[value]][0]})" for value in beads if value]
    return " and ".join(words)


def _taken_text(take: Take, position: ShakalaPosition) -> str:
    """``f's 3`` or ``a 3 from North's cup``."""
    pit, value = take
    if pit is None:
        return f"a {value} from {side(other(position.to_move))}'s cup"
    return f"{PIT_NAMES[pit]}'s {value}"
