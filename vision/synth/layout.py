"""Where the synthetic table's coins and pawns lie: stacks, loose coins in pits, pawns' feet.

Pure placement in mat millimetres, no drawing. Every region's layout is drawn from its own
generator, seeded by the layout seed, the region's name and its coins, so a move that changes one
square leaves every other coin exactly where it was, as on a real table. :func:`board_coins`
draws what a board in play holds, following the game's physics (see its docstring).
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import replace

import numpy as np

from calibration.geometry import Circle, MatGeometry, Rect, Region
from vision.synth.objects import (
    TOKEN_DIAMETER_MM,
    PlacedCoin,
    PlacedPawn,
    PlacedToken,
    coin_radius_mm,
)

#: The share of random boards played under the ``mixed-change`` variant, whose stacks mix kinds.
MIXED_CHANGE_SHARE = 1 / 3


def board_coins(rng: np.random.Generator, names: list[str], mixed_change: bool) -> dict[str, str]:
    """What the squares ``names`` of a Coin Isolation board in play hold, bottom to top.

    Coin mix as the game's (24 P, 24 N, 12 D, 4 Q), about a fifth of the squares emptied and
    about one in eight stacked. As in the game, a stack is all one kind (every square of a
    move's path holds the same kind), except under ``mixed_change``, where every stack's added
    coins are of random kinds and the stack lies smallest on top (D < P < N < Q by diameter).
    """
    bag = list("P" * 24 + "N" * 24 + "D" * 12 + "Q" * 4)
    rng.shuffle(bag)
    coins: dict[str, str] = {}
    for index, name in enumerate(names):
        if rng.uniform() < 0.2:
            continue
        letters = bag[index % len(bag)]
        while rng.uniform() < 0.12 and len(letters) < 4:
            letters += str(rng.choice(list("PNDQ"))) if mixed_change else letters[0]
        coins[name] = "".join(sorted(letters, key=lambda letter: -coin_radius_mm(letter)))
    return coins


def rng_for(*parts: object) -> np.random.Generator:
    """A generator seeded from text parts, the same in every process (no ``hash``)."""
    text = "|".join(str(part) for part in parts).encode()
    return np.random.default_rng(list(text))


def stack_coins(
    region: Region, letters: str, seed: int, placement: float, tarnish: float
) -> list[PlacedCoin]:
    """Coins of a stack: the bottom off-centre, each one above shifted a little."""
    rng = rng_for(seed, region.name, letters)
    shape = region.shape
    half_room = (shape.size[0] / 2 if isinstance(shape, Rect) else shape.radius) - 1.0
    biggest = max(coin_radius_mm(letter) for letter in letters)
    room = max(0.0, half_room - biggest - 1.5) * placement
    x, y = region.centre
    x += rng.uniform(-room, room)
    y += rng.uniform(-room, room)
    coins = []
    for level, letter in enumerate(letters):
        if level:
            angle = rng.uniform(0, 2 * math.pi)
            step = rng.uniform(0.4, 1.4)
            x += step * math.cos(angle)
            y += step * math.sin(angle)
        coins.append(_coin(letter, (x, y), level, rng, tarnish))
    return coins


def _coin(letter: str, centre: tuple[float, float], level: int, rng: np.random.Generator,
          mean_tarnish: float) -> PlacedCoin:
    tarnish = float(np.clip(rng.normal(mean_tarnish, 0.15), 0, 1))
    return PlacedCoin(letter, centre, float(rng.uniform(0, 360)), tarnish,
                      float(rng.uniform(0.3, 1.0)), level, int(rng.integers(0, 4)))


def loose_coins(region: Region, letters: str, seed: int, tarnish: float) -> list[PlacedCoin]:
    """Coins side by side in a pit or cup, not overlapping, at random places inside it."""
    rng = rng_for(seed, region.name, letters)
    placed: list[PlacedCoin] = []
    for letter in letters:
        radius = coin_radius_mm(letter)
        for _attempt in range(200):
            centre = _random_point_inside(region, radius + 1.0, rng)
            if all(math.dist(centre, other.centre_mm) > radius + coin_radius_mm(other.letter) + 0.8
                   for other in placed):
                break
        placed.append(_coin(letter, centre, 0, rng, tarnish))
    return placed


def _random_point_inside(region: Region, margin: float, rng: np.random.Generator
                         ) -> tuple[float, float]:
    shape = region.shape
    x, y = shape.centre
    if isinstance(shape, Circle):
        reach = max(0.0, shape.radius - margin)
        angle, distance = rng.uniform(0, 2 * math.pi), reach * math.sqrt(rng.uniform(0, 1))
        return (x + distance * math.cos(angle), y + distance * math.sin(angle))
    half_w, half_h = max(0.0, shape.size[0] / 2 - margin), max(0.0, shape.size[1] / 2 - margin)
    return (x + rng.uniform(-half_w, half_w), y + rng.uniform(-half_h, half_h))


def pawn_foot(
    region: Region, coins: list[PlacedCoin], seed: int
) -> tuple[tuple[float, float], int]:
    """Where a pawn stands: off-centre on the top coin, or near the region's centre."""
    rng = rng_for(seed, region.name, "pawn")
    if coins:
        top = coins[-1]
        angle = rng.uniform(0, 2 * math.pi)
        distance = coin_radius_mm(top.letter) * rng.uniform(0.55, 0.85)
        x, y = top.centre_mm
        return (x + distance * math.cos(angle), y + distance * math.sin(angle)), len(coins)
    return _random_point_inside(region, 9.0, rng), 0


def placements(
    geometry: MatGeometry,
    coins: Mapping[str, str],
    pawns: Mapping[str, str],
    seed: int,
    placement: float,
    tarnish: float,
) -> tuple[tuple[PlacedCoin, ...], tuple[PlacedPawn, ...]]:
    """Where every coin and pawn lies, bottom to top, region by region.

    ``coins`` and ``pawns`` map region names to coin letters and pawn colours; ``seed`` fixes
    each region's layout on its own (from the seed, the region and its coins), so changing one
    region moves nothing elsewhere.
    """
    placed_coins: list[PlacedCoin] = []
    placed_pawns: list[PlacedPawn] = []
    for region in geometry.regions:
        letters = coins.get(region.name, "")
        loose = region.kind in ("pit", "cup")
        placed = (
            loose_coins(region, letters, seed, tarnish) if loose
            else stack_coins(region, letters, seed, placement, tarnish) if letters
            else []
        )
        placed_coins.extend(replace(coin, region=region.name) for coin in placed)
        if region.name in pawns:
            foot, level = pawn_foot(region, [] if loose else placed, seed)
            placed_pawns.append(PlacedPawn(pawns[region.name], foot, level, region.name))
    return tuple(placed_coins), tuple(placed_pawns)


def placed_tokens(geometry: MatGeometry, tokens: Mapping[str, str], seed: int,
                  placement: float) -> tuple[PlacedToken, ...]:
    """Where each flat token lies: off the centre of its region as a lone coin would
    (``placement`` of the room the region leaves), from the region's own generator."""
    placed = []
    for region in geometry.regions:
        if region.name not in tokens:
            continue
        rng = rng_for(seed, region.name, "token", tokens[region.name])
        shape = region.shape
        half_room = (shape.size[0] / 2 if isinstance(shape, Rect) else shape.radius) - 1.0
        room = max(0.0, half_room - TOKEN_DIAMETER_MM / 2 - 1.5) * placement
        x, y = region.centre
        centre = (x + rng.uniform(-room, room), y + rng.uniform(-room, room))
        placed.append(PlacedToken(tokens[region.name], centre, float(rng.uniform(0.2, 1.0)),
                                  region.name))
    return tuple(placed)
