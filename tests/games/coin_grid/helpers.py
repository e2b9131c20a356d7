"""Small hand-made Coin Grid positions for the tests, written as the text drawing writes
pieces: ``S1`` a single South coin, ``N2`` a North double stack, ``Sd`` a dead coin South brought
in, a trailing ``'`` once the piece has moved."""

from companion.games.coin_grid import GAME


def piece(code):
    owner = {"S": 1, "N": 2}[code[0]]
    kind = {"1": ("original", "single"), "2": ("original", "double"), "d": ("dead", "single")}
    return {"owner": owner, "kind": kind[code[1]][0], "stack": kind[code[1]][1],
            "moved": code.endswith("'")}


def grid_json(pieces, to_move=1, phase="start", roll=None, battle=None, reserves=(0, 0),
              supply=6, variants=()):
    """The JSON of a position with ``pieces`` (square -> code); ``battle`` is
    (square, attacker code)."""
    return {
        "game": "coin-grid", "variants": list(variants), "players": 2,
        "sides": {"1": "south", "2": "north"}, "to_move": to_move, "phase": phase,
        "roll": roll,
        "battle": None if battle is None else {"square": battle[0],
                                               "attacker": piece(battle[1])},
        "pieces": {name: piece(code) for name, code in pieces.items()},
        "reserves": {"1": reserves[0], "2": reserves[1]}, "supply": supply,
    }


def grid(pieces, **fields):
    """The position of :func:`grid_json`, read by the engine."""
    return GAME.position_from_json(grid_json(pieces, **fields))


def texts(moves):
    return sorted(move.text() for move in moves)
