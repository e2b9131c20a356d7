"""A naive Shakala move enumerator on position JSON, written apart from the engine, as plainly
as possible: every route, every order of the beads, every choice of captured gems, played out
drop by drop; the results are then kept once each. It is the reference the engine's children
and golden perft counts are checked against (RULINGS.md, "## Shakala").
"""

import itertools
import json

SOUTH = "ABCDEFGH"
NORTH = "abcdefgh"
#: Where the track goes from each pit; the forks E and e go two ways (inner, outer).
TRACK = {
    "A": "B", "B": "C", "C": "D", "D": "H", "E": "FA", "F": "G", "G": "H", "H": "e",
    "a": "b", "b": "c", "c": "d", "d": "h", "e": "fa", "f": "g", "g": "h", "h": "E",
}


def pits_of(player):
    return SOUTH if player == 1 else NORTH


def beads_of(pit):
    """A pit's beads as a list: "s" for a stone, numbers for gems."""
    return ["s"] * pit["stones"] + list(pit["gems"])


def all_routes(origin, count):
    """Every list of pits ``count`` beads from ``origin`` can fall into."""
    found = []

    def walk(here, left, path):
        if left == 0:
            found.append(path)
            return
        for nxt in TRACK[here]:
            if nxt == origin:
                walk(nxt, left, path)
            else:
                walk(nxt, left - 1, [*path, nxt])

    walk(origin, count, [])
    return found


def play_out(data, origin, route, order):
    """The pits after dropping ``order`` along ``route``, and the chain of the capture: a list
    of the single beads the pits held, last drop first."""
    mover = data["to_move"]
    theirs = pits_of(3 - mover)
    pits = {name: beads_of(pit) for name, pit in data["pits"].items()}
    pits[origin] = []
    held = []
    for pit, bead in zip(route, order, strict=True):
        held.append(list(pits[pit]))
        pits[pit].append(bead)
    chain = []
    for index in range(len(route) - 1, -1, -1):
        pit, bead, before = route[index], order[index], held[index]
        if pit not in theirs or bead != "s" or len(before) != 1:
            break
        if chain and (before[0] == "s") != (chain[0][1] == "s"):
            break
        chain.append((pit, before[0]))
    return pits, chain


def capture_choices(data, pits, chain):
    """Every list of gems the chain may take: (pit, value), or ("cup", value)."""
    if not chain:
        return [[]]
    if chain[0][1] != "s":
        return [list(chain)]
    mover = data["to_move"]
    gems = [(pit, bead) for pit in pits_of(3 - mover) for bead in pits[pit] if bead != "s"]
    cup = [("cup", value) for value in data["cups"][str(3 - mover)]]
    need = len(chain)
    if len(gems) >= need:
        picks = itertools.combinations(gems, need)
    else:
        rest = min(need - len(gems), len(cup))
        picks = (tuple(gems) + more for more in itertools.combinations(cup, rest))
    return [list(pick) for pick in picks]


def result_json(data, pits, taken):
    mover = data["to_move"]
    pits = {name: list(beads) for name, beads in pits.items()}
    cups = {key: list(values) for key, values in data["cups"].items()}
    for where, value in taken:
        if where == "cup":
            cups[str(3 - mover)].remove(value)
        else:
            pits[where].remove(value)
        cups[str(mover)].append(value)
    out = dict(data)
    out["to_move"] = 3 - mover
    out["pits"] = {name: {"stones": beads.count("s"),
                          "gems": sorted(b for b in beads if b != "s")}
                   for name, beads in pits.items()}
    out["cups"] = {key: sorted(values) for key, values in cups.items()}
    return json.dumps(out, sort_keys=True, separators=(",", ":"))


def naive_children(data):
    """The set of canonical JSON texts of every position the mover can reach."""
    mover = data["to_move"]
    mine, theirs = pits_of(mover), pits_of(3 - mover)
    if not any(beads_of(data["pits"][pit]) for pit in mine):
        return set()
    gems_left = any(data["pits"][pit]["gems"] for pit in SOUTH + NORTH)
    starving = gems_left and not any(beads_of(data["pits"][pit]) for pit in theirs)
    feeding, other = set(), set()
    for origin in mine:
        beads = beads_of(data["pits"][origin])
        if not beads:
            continue
        for route in all_routes(origin, len(beads)):
            feeds = any(pit in theirs for pit in route)
            for order in set(itertools.permutations(beads)):
                pits, chain = play_out(data, origin, route, order)
                for taken in capture_choices(data, pits, chain):
                    (feeding if feeds else other).add(result_json(data, pits, taken))
    if starving and feeding:
        return feeding
    return feeding | other


def naive_perft(data, depth):
    if depth == 0:
        return 1
    children = naive_children(data)
    if depth == 1:
        return len(children)
    return sum(naive_perft(json.loads(child), depth - 1) for child in children)
