"""Small hand-made Shakala positions for the tests: pits written as their beads, ``s`` a stone
and a digit a gem (``"ss3"``: two stones and a 3-gem); pits not named are empty."""

from companion.games.shakala import GAME

PIT_NAMES = "ABCDEFGHabcdefgh"


def board(pits, cups=((), ()), to_move=1, variants=()):
    """The position, read through the game's checked reader (schema and fields)."""
    data = {
        "game": "shakala", "variants": list(variants), "players": 2,
        "sides": {"1": "south", "2": "north"}, "to_move": to_move,
        "pits": {name: {"stones": pits.get(name, "").count("s"),
                        "gems": sorted(int(c) for c in pits.get(name, "") if c != "s")}
                 for name in PIT_NAMES},
        "cups": {"1": sorted(cups[0]), "2": sorted(cups[1])},
    }
    return GAME.read_position(data)


def children(position):
    """Move text -> resulting position, for every legal move."""
    return {move.text(): GAME.apply(position, move) for move in GAME.legal_moves(position)}


def results(position):
    """The set of resulting positions."""
    return set(children(position).values())
