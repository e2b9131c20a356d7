"""A deliberately naive Coin Isolation move enumerator, to cross-check the engine.

It walks every raw path square by square (no memo, no bitboards), adds every choice a variant
offers, applies each with the engine's checked ``apply`` and keeps distinct resulting positions.
Use it only on positions with few paths.
"""

from itertools import combinations

from companion.games import IllegalMoveError
from companion.games.coin_isolation import GAME, CoinIsolationMove

FILES = "abcdefgh"


def name(file, rank):
    return f"{FILES[file]}{rank + 1}"


def coords(square):
    return FILES.index(square[0]), int(square[1:]) - 1


def adjacent(a, b, diagonal):
    (fa, ra), (fb, rb) = coords(a), coords(b)
    df, dr = abs(fa - fb), abs(ra - rb)
    if diagonal:
        return max(df, dr) == 1
    return df + dr == 1


def first_row(side):
    if side == "south":
        return [name(f, 0) for f in range(8)]
    if side == "north":
        return [name(f, 7) for f in range(8)]
    if side == "west":
        return [name(0, r) for r in range(8)]
    return [name(7, r) for r in range(8)]


def raw_paths(position):
    """Every raw path (tuple of names) with the coin type it uses ('' for empty squares)."""
    data = position.to_json()
    variants = set(data["variants"])
    player = data["to_move"]
    diagonal = "diagonal" in variants
    mixed = bool(variants & {"mixed-change", "mixed-change-2008"})
    pawns = {square for square in data["pawns"].values() if square}
    stacks = data["squares"]
    renegade = player in data.get("renegades", [])
    source = data["pawns"][str(player)]
    all_squares = [name(f, r) for r in range(8) for f in range(8)]
    if source is None:
        starts = first_row(data["sides"][str(player)])
    else:
        starts = [s for s in all_squares if adjacent(s, source, diagonal)]
    types = ["P", "N", "D", "Q"]
    if "empty-squares" in variants or "renegade" in variants:
        types.append("")

    def fits(square, coin):
        if square in pawns:
            return False
        stack = stacks.get(square, "")
        if coin == "":
            return stack == ""
        return coin in stack if mixed else stack[-1:] == coin

    def walk(path, coin):
        yield path
        for square in all_squares:
            if square not in path and fits(square, coin) and adjacent(path[-1], square, diagonal):
                yield from walk((*path, square), coin)

    for coin in types:
        for start in starts:
            if fits(start, coin):
                for path in walk((start,), coin):
                    yield path, coin, renegade


def naive_children(position):
    """Distinct resulting positions (canonical JSON) of every legal move, by brute force."""
    data = position.to_json()
    variants = set(data["variants"])
    player = data["to_move"]
    if GAME.is_over(position):
        return {}
    mixed = bool(variants & {"mixed-change", "mixed-change-2008"})
    results = {}
    candidates = []
    declarable = "renegade" in variants and player not in data.get("renegades", [])
    source = data["pawns"][str(player)]
    source_stack = data["squares"].get(source, "") if source else ""
    for path, coin, renegade in raw_paths(position):
        steps = tuple(GAME.parse_move(s).steps[0] for s in path)
        if renegade:
            candidates.append(CoinIsolationMove(steps=steps))
            continue
        if declarable:
            candidates.append(CoinIsolationMove(steps=steps, renegade=True))
        if coin == "" and "empty-squares" not in variants:
            continue
        candidates.extend(choices(position, steps, coin, mixed, variants, source_stack))
    if "standing-still" in variants and source_stack and player not in data.get("renegades", []):
        for coin in set(source_stack) if mixed else [None]:
            candidates.append(CoinIsolationMove(kind="stay", coin=coin))
    for move in candidates:
        try:
            after = GAME.apply(position, move)
        except IllegalMoveError:  # e.g. too few empty squares for a transplant
            continue
        results.setdefault(after.canonical_json(), move)
    if all(getattr(move, "renegade", False) for move in results.values()):
        results[GAME.apply(position, CoinIsolationMove(kind="pass")).canonical_json()] = "pass"
    return results


def choices(position, steps, coin, mixed, variants, source_stack):
    named = coin if mixed and coin else None
    if mixed and source_stack:
        if "mixed-change-2008" in variants:
            half = len(source_stack) // 2
            sources = {"".join(c) for c in combinations(source_stack, half)}
        else:
            sources = set(source_stack)
    else:
        sources = {""}
    target = position.squares[steps[-1]]
    takes = [None]
    if coin and "semi-greedy" in variants:
        takes = list(range(target.count(coin) + 1))
    transplant = variants & {"transplant", "transplant-variant-variant"}
    source_square = position.pawns[position.to_move - 1]
    spots = [i for i in range(64) if not position.squares[i] or i in steps or i == source_square]
    for source in sources:
        for take in takes:
            move = CoinIsolationMove(steps=steps, coin=named, source_coins=source, take=take)
            if transplant and coin:
                count = len(steps) - 1
                if "cleanup" in variants:
                    count = sum(position.squares[s].count(coin) for s in steps[:-1])
                for placements in combinations(spots, count):
                    yield CoinIsolationMove(
                        steps=steps, coin=named, source_coins=source, take=take,
                        placements=placements,
                    )
            else:
                yield move


def naive_perft(position, depth):
    if depth == 0:
        return 1
    children = naive_children(position)
    if depth == 1:
        return len(children)
    total = 0
    for move in children.values():
        move = GAME.parse_move(move) if isinstance(move, str) else move
        total += naive_perft(GAME.apply(position, move), depth - 1)
    return total
