"""Small hand-made Shakala positions for the tests: pits written as their beads, ``s`` a stone
and a digit a gem (``"ss3"``: two stones and a 3-gem); pits not named are empty."""

from companion.games.shakala import GAME
from companion.games.shakala.board import side_pits
from companion.games.shakala.position import ShakalaPosition
from companion.games.shakala.rules import _captures, _chains, must_feed, take_gems
from companion.games.shakala.sowing import plans

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


def random_sowing(position, rng):
    """A legal result drawn at random without listing the moves: a pit, a route, the beads
    shuffled into its slots, a capture chain and a choice of gems."""
    origin = rng.choice([pit for pit in side_pits(position.to_move) if position.pits[pit]])
    beads = list(position.pits[origin])
    rng.shuffle(beads)
    feed = must_feed(position)
    plan = rng.choice([plan for plan in plans(origin, len(beads)) if plan.feeds or not feed])
    before = list(position.pits)
    before[origin] = ()
    placed, start = {}, 0
    for pit, size in plan.slots:
        placed[pit] = tuple(sorted(beads[start:start + size]))
        start += size
    sown = list(before)
    for pit, dropped in placed.items():
        sown[pit] = tuple(sorted(sown[pit] + dropped))
    chain = rng.choice(_chains(plan.tail, before, placed))
    taken = rng.choice(list(_captures(position, sown, chain)))
    pits, cups = take_gems(position, sown, taken)
    return ShakalaPosition(pits=pits, cups=cups, to_move=3 - position.to_move,
                           variants=position.variants)
