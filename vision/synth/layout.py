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


#: Of the coins a hand drops into a pit after the first, the share that land against one
#: already there (touching it or partly on it) rather than anywhere in the pit.
AGAINST_SHARE = 0.5


def least_gap_mm(radius: float, other: float, overlap: float) -> float:
    """The least distance between the centres of two loose coins of these radii that may
    overlap by ``overlap`` of the smaller one's width."""
    return radius + other - overlap * 2 * min(radius, other)


def scattered_coins(region: Region, letters: str, seed: int, tarnish: float, overlap: float
                    ) -> list[PlacedCoin]:
    """Coins as a hand drops them into a pit or cup: anywhere inside it, about half of them
    against a coin already there, touching it or lying partly on it, no coin covering
    another by more than ``overlap`` of the smaller one's width (the coin dropped later lies
    on top, one level up). After 400 tries a coin goes where it breaks that least."""
    rng = rng_for(seed, region.name, letters, "scattered")
    placed: list[PlacedCoin] = []
    for letter in letters:
        radius = coin_radius_mm(letter)
        best, best_excess = region.centre, math.inf
        for _attempt in range(400):
            centre = _dropped_point(region, radius, placed, overlap, rng)
            excess = max([0.0, *(least_gap_mm(radius, coin_radius_mm(other.letter), overlap)
                                 - math.dist(centre, other.centre_mm) for other in placed)])
            if excess < best_excess:
                best, best_excess = centre, excess
            if excess == 0.0:
                break
        under = [other.level for other in placed if math.dist(best, other.centre_mm)
                 < radius + coin_radius_mm(other.letter)]
        level = min(2, 1 + max(under)) if under else 0
        placed.append(_coin(letter, best, level, rng, tarnish))
    return placed


def _dropped_point(region: Region, radius: float, placed: list[PlacedCoin], overlap: float,
                   rng: np.random.Generator) -> tuple[float, float]:
    """Where a dropped coin of ``radius`` may land: against a coin ``placed`` already (from
    overlapping it by ``overlap`` of the smaller width to 2 mm apart), or anywhere inside."""
    if placed and rng.uniform() < AGAINST_SHARE:
        other = placed[int(rng.integers(0, len(placed)))]
        other_radius = coin_radius_mm(other.letter)
        distance = rng.uniform(least_gap_mm(radius, other_radius, overlap),
                               radius + other_radius + 2.0)
        angle = rng.uniform(0, 2 * math.pi)
        centre = (other.centre_mm[0] + distance * math.cos(angle),
                  other.centre_mm[1] + distance * math.sin(angle))
        if _inside(region, centre, radius + 1.0):
            return centre
    return _random_point_inside(region, radius + 1.0, rng)


def _inside(region: Region, point: tuple[float, float], margin: float) -> bool:
    """Whether a disc of radius ``margin`` at ``point`` lies wholly inside ``region``."""
    shape = region.shape
    if isinstance(shape, Circle):
        return math.dist(point, shape.centre) <= shape.radius - margin
    left, top, right, bottom = shape.bounds()
    x, y = point
    return left + margin <= x <= right - margin and top + margin <= y <= bottom - margin


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
    overlap: float = 0.0,
) -> tuple[tuple[PlacedCoin, ...], tuple[PlacedPawn, ...]]:
    """Where every coin and pawn lies, bottom to top, region by region.

    ``coins`` and ``pawns`` map region names to coin letters and pawn colours; ``seed`` fixes
    each region's layout on its own (from the seed, the region and its coins), so changing one
    region moves nothing elsewhere. Loose coins lie apart (:func:`loose_coins`), except in
    regions where coins lie in piles (:attr:`calibration.geometry.Region.piled`), where they
    lie as a hand drops them, touching and overlapping by up to ``overlap`` of a coin's width
    (:func:`scattered_coins`; apart there too when ``overlap`` is 0).
    """
    placed_coins: list[PlacedCoin] = []
    placed_pawns: list[PlacedPawn] = []
    for region in geometry.regions:
        letters = coins.get(region.name, "")
        loose = region.kind in ("pit", "cup")
        placed = (
            scattered_coins(region, letters, seed, tarnish, overlap)
            if loose and region.piled and overlap > 0
            else loose_coins(region, letters, seed, tarnish) if loose
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
