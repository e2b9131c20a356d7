"""A deliberately naive Coin Grid enumerator, to cross-check the engine.

It knows nothing of the engine: it reads and writes position JSON (dicts), finds where a piece
can go by a plain breadth-first search over (file, rank) coordinates, applies each action by
copying the dict, rolls every die combination to weigh battles, and keeps the distinct
resulting positions (by their JSON text). Slow and obvious, on purpose.
"""

import json
from fractions import Fraction
from itertools import product

FILES = "abcdef"
DIRECTIONS = [(df, dr) for df in (-1, 0, 1) for dr in (-1, 0, 1) if (df, dr) != (0, 0)]


def square(file, rank):
    return f"{FILES[file]}{rank}"


def coords(name):
    return FILES.index(name[0]), int(name[1:])


def home_half(player, rank):
    """Whether ``rank`` lies in ``player``'s half (South 1-6, North 7-12)."""
    return rank <= 6 if player == 1 else rank >= 7


def star_rank(player):
    return 1 if player == 1 else 12


def x_rank(player):
    return 2 if player == 1 else 11


def clone(data):
    """A deep copy of JSON data."""
    return json.loads(json.dumps(data))


def text(position):
    return json.dumps(position, sort_keys=True, separators=(",", ":"))


def pieces_in_play(position, player):
    count = sum(1 for piece in position["pieces"].values() if piece["owner"] == player)
    battle = position["battle"]
    if battle is not None and battle["attacker"]["owner"] == player:
        count += 1
    return count


def is_over(position):
    return pieces_in_play(position, 1) == 0 or pieces_in_play(position, 2) == 0


def next_turn(position):
    position["to_move"] = 3 - position["to_move"]
    position["phase"] = "start"
    position["roll"] = None
    position["battle"] = None
    return position


def targets(position, origin, roll):
    """(empty squares, enemy squares) the piece on ``origin`` can end on: breadth first over
    the board, one king step at a time, never through a piece, and from the mover's half into
    the enemy half only with a roll of 4 or more."""
    player = position["to_move"]
    pieces = position["pieces"]
    distance = {origin: 0}
    queue = [origin]
    attacks = set()
    while queue:
        here = queue.pop(0)
        if distance[here] == roll:
            continue
        file, rank = coords(here)
        for df, dr in DIRECTIONS:
            f, r = file + df, rank + dr
            if not (0 <= f < 6 and 1 <= r <= 12):
                continue
            if roll < 4 and home_half(player, rank) and not home_half(player, r):
                continue
            there = square(f, r)
            piece = pieces.get(there)
            if piece is None:
                if there not in distance:
                    distance[there] = distance[here] + 1
                    queue.append(there)
            elif piece["owner"] != player:
                attacks.add(there)
    return set(distance) - {origin}, attacks


def step_children(position):
    player, roll = position["to_move"], position["roll"]
    mine = {name: piece for name, piece in position["pieces"].items() if piece["owner"] == player}
    unmoved_original = any(not p["moved"] and p["kind"] == "original" for p in mine.values())
    allowed = list(mine)
    if unmoved_original:
        unmoved = [name for name, piece in mine.items() if not piece["moved"]]
        if any(any(targets(position, name, roll)) for name in unmoved):
            allowed = unmoved
    found = []
    for origin in allowed:
        quiet, attacks = targets(position, origin, roll)
        for target in quiet:
            child = clone(position)
            piece = child["pieces"].pop(origin)
            piece["moved"] = True
            child["pieces"][target] = piece
            child["roll"] = None
            found.append((f"{origin}-{target}", after_landing(child, target)))
        for target in attacks:
            child = clone(position)
            piece = child["pieces"].pop(origin)
            piece["moved"] = True
            child["phase"], child["roll"] = "battle", None
            child["battle"] = {"square": target, "attacker": piece}
            found.append((f"{origin}x{target}", child))
    if not found:
        found.append(("pass", next_turn(clone(position))))
    return found


def after_landing(position, target):
    """A reward node if the mover's piece ended on the enemy star row with a dead coin left."""
    enemy_star = star_rank(3 - position["to_move"])
    if coords(target)[1] == enemy_star and position["supply"] > 0:
        position["phase"] = "reward"
        return position
    return next_turn(position)


def coins(piece):
    return 2 if piece["stack"] == "double" else 1


def halved(piece, battle_square):
    """Whether the rolls against ``piece`` are halved where it fights."""
    if piece["kind"] == "dead":
        return True
    rank = coords(battle_square)[1]
    return piece["stack"] == "double" and home_half(piece["owner"], rank)


def battle_odds(attacker, defender, battle_square):
    wins = losses = ties = 0
    for mine in product(range(1, 7), repeat=coins(attacker)):
        for theirs in product(range(1, 7), repeat=coins(defender)):
            a, d = sum(mine), sum(theirs)
            if halved(defender, battle_square):
                a //= 2
            if halved(attacker, battle_square):
                d //= 2
            if a > d:
                wins += 1
            elif d > a:
                losses += 1
            else:
                ties += 1
    # every pair of dice combinations is equally likely, so counting them weighs them
    return Fraction(wins, wins + losses), Fraction(losses, wins + losses)


def battle_children(position):
    battle = position["battle"]
    target, attacker = battle["square"], battle["attacker"]
    defender = position["pieces"][target]
    wins, losses = battle_odds(attacker, defender, target)
    found = []
    if wins:
        child = clone(position)
        child["battle"] = None
        child["pieces"][target] = clone(attacker)
        child["reserves"][str(attacker["owner"])] += coins(defender)
        if pieces_in_play(child, defender["owner"]) == 0:
            found.append(("attacker-wins", next_turn(child), wins))
        else:
            found.append(("attacker-wins", after_landing(child, target), wins))
    if losses:
        child = clone(position)
        child["reserves"][str(defender["owner"])] += coins(attacker)
        found.append(("defender-wins", next_turn(child), losses))
    return found


def start_children(position):
    player = position["to_move"]
    found = []
    for face in range(1, 7):
        child = clone(position)
        child["phase"], child["roll"] = "rolled", face
        found.append((f"roll:{face}", child, Fraction(1, 6)))
    if position["reserves"][str(player)] > 0:
        for name, piece in position["pieces"].items():
            if (piece["owner"] == player and piece["kind"] == "original"
                    and piece["stack"] == "single"
                    and not home_half(player, coords(name)[1])):
                child = clone(position)
                child["pieces"][name]["stack"] = "double"
                child["reserves"][str(player)] -= 1
                found.append((f"double:{name}", next_turn(child), None))
    return found


def reward_children(position):
    player = position["to_move"]
    pieces = position["pieces"]
    found = [("decline", next_turn(clone(position)))]
    rows = [[square(f, star_rank(player)) for f in range(6)],
            [square(f, x_rank(player)) for f in range(6)]]
    places = [name for name in rows[0] if name not in pieces]
    if not places:
        places = [name for name in rows[1] if name not in pieces]
    exchange = not places
    if exchange:
        places = [name for name in rows[0] + rows[1] if pieces[name]["owner"] == player]
    for name in places:
        child = clone(position)
        child["pieces"][name] = {"owner": player, "kind": "dead", "stack": "single",
                                 "moved": False}
        child["supply"] -= 1
        found.append((f"dead:{'x' if exchange else ''}{name}", next_turn(child)))
    return found


def naive_children(position):
    """{child JSON text: (action text, probability or None)} for a position's JSON object."""
    if is_over(position):
        return {}
    phase = position["phase"]
    if phase == "start":
        found = start_children(position)
    elif phase == "battle":
        found = battle_children(position)
    elif phase == "rolled":
        found = [(label, child, None) for label, child in step_children(position)]
    else:
        found = [(label, child, None) for label, child in reward_children(position)]
    children = {}
    for label, child, chance in found:
        children.setdefault(text(child), (label, chance))
    return children


def naive_perft(position, depth):
    if depth == 0:
        return 1
    children = naive_children(position)
    if depth == 1:
        return len(children)
    return sum(naive_perft(json.loads(child), depth - 1) for child in children)
