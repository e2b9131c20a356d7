"""Checking a move as a player wrote it, by playing it out drop by drop.

This is the referee's reading of a move, apart from the enumeration of
:mod:`~companion.games.shakala.rules`: every drop must follow the track, the beads must be the
origin's, the capture must be the one the drops make, and a move must feed a starving opponent
when one can. Any order of drops a player may choose is accepted, not only the one
:func:`~companion.games.shakala.rules.successors` writes.
"""

from __future__ import annotations

from collections import Counter

from companion.games.base import IllegalMoveError
from companion.games.shakala.board import PIT_NAMES, follows, owner, side_pits
from companion.games.shakala.moves import ShakalaMove, Take
from companion.games.shakala.position import STONE, ShakalaPosition
from companion.games.shakala.rules import after_taking, is_over, must_feed


def play_checked(position: ShakalaPosition, move: ShakalaMove) -> ShakalaPosition:
    """The position after ``move``; raises :class:`IllegalMoveError` saying why not."""
    mover = position.to_move
    if is_over(position):
        raise IllegalMoveError(f"{move.text()}: the game is over")
    origin = move.origin
    if owner(origin) != mover:
        raise IllegalMoveError(f"{move.text()}: pit {PIT_NAMES[origin]} is not the mover's")
    beads = position.pits[origin]
    if sorted(bead for _, bead in move.drops) != list(beads):
        raise IllegalMoveError(f"{move.text()}: the beads dropped are not the "
                               f"{len(beads)} beads of pit {PIT_NAMES[origin]}")
    _check_route(move)
    theirs = set(side_pits(3 - mover))
    if must_feed(position) and not any(pit in theirs for pit, _ in move.drops):
        raise IllegalMoveError(f"{move.text()}: the opponent has no beads and must be fed")
    sown, chain = _sow(position, move, theirs)
    _check_taken(position, move, sown, chain)
    return after_taking(position, sown, move.taken)


def _check_route(move: ShakalaMove) -> None:
    at = move.origin
    for pit, _ in move.drops:
        if not follows(at, pit, move.origin):
            raise IllegalMoveError(f"{move.text()}: {PIT_NAMES[pit]} does not follow "
                                   f"{PIT_NAMES[at]} on a track")
        at = pit


def _sow(position: ShakalaPosition, move: ShakalaMove, theirs: set[int]
         ) -> tuple[list[tuple[int, ...]], list[tuple[int, int]]]:
    """The pits after the drops, and the capture chain as (pit, bead it held) from the last
    drop back."""
    pits = [list(beads) for beads in position.pits]
    pits[move.origin] = []
    lone: list[tuple[int, int | None]] = []
    for pit, bead in move.drops:
        lone.append((pit, pits[pit][0] if len(pits[pit]) == 1 else None))
        pits[pit].append(bead)
    chain: list[tuple[int, int]] = []
    for (pit, bead), (_, held) in zip(reversed(move.drops), reversed(lone), strict=True):
        if pit not in theirs or bead != STONE or held is None:
            break
        if chain and (held == STONE) != (chain[0][1] == STONE):
            break
        chain.append((pit, held))
    return [tuple(sorted(beads)) for beads in pits], chain


def _check_taken(position: ShakalaPosition, move: ShakalaMove, sown: list[tuple[int, ...]],
                 chain: list[tuple[int, int]]) -> None:
    """The gems written must be the ones the chain takes."""
    taken = Counter(move.taken)
    if not chain or chain[0][1] != STONE:
        wanted: Counter[Take] = Counter((pit, held) for pit, held in chain)
        if taken != wanted:
            raise IllegalMoveError(f"{move.text()}: the drops capture {_list(wanted)}")
        return
    mover = position.to_move
    in_pits: Counter[Take] = Counter((pit, value) for pit in side_pits(3 - mover)
                                     for value in sown[pit] if value != STONE)
    in_cup: Counter[Take] = Counter((None, value) for value in position.cup(3 - mover))
    from_pits = min(len(chain), sum(in_pits.values()))
    from_cup = min(len(chain) - from_pits, sum(in_cup.values()))
    pit_takes = Counter({key: n for key, n in taken.items() if key[0] is not None})
    cup_takes = Counter({key: n for key, n in taken.items() if key[0] is None})
    if (pit_takes - in_pits or cup_takes - in_cup or sum(pit_takes.values()) != from_pits
            or sum(cup_takes.values()) != from_cup):
        raise IllegalMoveError(
            f"{move.text()}: the drops make an indirect capture of {len(chain)} gem(s): "
            f"{from_pits} from the opponent's pits and {from_cup} from their cup")


def _list(taken: Counter[Take]) -> str:
    if not taken:
        return "nothing"
    return "+".join(("cup" if pit is None else PIT_NAMES[pit]) + str(value)
                    for (pit, value), n in sorted(taken.items(), key=lambda kv: (
                        16 if kv[0][0] is None else kv[0][0], kv[0][1])) for _ in range(n))
