"""Where every coin and pawn lies, in mat millimetres and height above the paper.

Each square's stack is drawn from its own generator (layout seed, square, coins), so changing
one square moves nothing elsewhere. A stack's bottom coin lies off its square's centre by the
style's ``placement_mm`` (sometimes pushed over the square's edge by up to ``overhang_mm``, the
centre always inside its own square); each coin above is offset a little from the one below
and sometimes leans. Stacks of neighbouring squares are then pushed apart until no coins
overlap. Pawns stand on a square's top coin or on the paper beside it. Loose coins lie on the
table off the mat (they are in no square's truth).
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass

import numpy as np

from calibration.geometry import MatGeometry, Rect, Region
from vision.synth.layout import rng_for
from vision.synth.physical.materials import COIN_SPECS
from vision.synth.physical.relief import DESIGNS
from vision.synth.physical.variation import StyleParams


@dataclass(frozen=True)
class CoinPlacement:
    """One coin: kind, centre (mm), height of its bottom (mm), place in its stack, lean, the
    design's turn and index (even: heads), and its age (0 new .. 1 old)."""

    letter: str
    centre: tuple[float, float]
    z: float
    level: int
    region: str | None
    lean_deg: float = 0.0
    lean_axis_deg: float = 0.0
    turn_deg: float = 0.0
    design: int = 0
    age: float = 0.2


@dataclass(frozen=True)
class PawnPlacement:
    """One pawn: colour, where its foot stands (mm), the height it stands on, its square, and
    its shade (a hue turn and a brightness factor)."""

    colour: str
    foot: tuple[float, float]
    z: float
    region: str
    hue_turn: float = 0.0
    brightness: float = 1.0


def coin_radius(letter: str) -> float:
    return COIN_SPECS[letter][0] / 2


def _half_room(region: Region) -> float:
    shape = region.shape
    return shape.size[0] / 2 if isinstance(shape, Rect) else shape.radius


def _bottom_offset(rng: np.random.Generator, half: float, radius: float, style: StyleParams
                   ) -> tuple[float, float]:
    inside = max(0.0, half - radius - 0.5)
    off = np.clip(rng.normal(0, style.placement_mm, 2), -inside, inside)
    if rng.uniform() < style.overhang_share:
        axis = int(rng.integers(0, 2))
        side = 1.0 if rng.uniform() < 0.5 else -1.0
        off[axis] = side * min(half - 0.6, half - radius + rng.uniform(0.2, 1.0) *
                               style.overhang_mm)
    return float(off[0]), float(off[1])


def _age(rng: np.random.Generator, letter: str, style: StyleParams) -> float:
    mean = style.penny_age if letter == "P" else style.silver_age
    return float(np.clip(rng.normal(mean, style.age_spread), 0, 1))


def _stack(region: Region, letters: str, seed: int, style: StyleParams,
           at: tuple[float, float] | None) -> list[CoinPlacement]:
    rng = rng_for("render", seed, region.name, letters)
    cx, cy = region.centre
    ox, oy = _bottom_offset(rng, _half_room(region), coin_radius(letters[0]), style)
    x, y = at if at is not None else (cx + ox, cy + oy)
    z = 0.0
    coins = []
    for level, letter in enumerate(letters):
        if level:
            angle = rng.uniform(0, 2 * math.pi)
            step = rng.uniform(min(0.3, style.stack_spread_mm), style.stack_spread_mm)
            x, y = x + step * math.cos(angle), y + step * math.sin(angle)
        lean = 0.0
        if level and rng.uniform() < style.lean_share:
            lean = float(rng.uniform(1.0, max(1.0, style.lean_max_deg)))
        coins.append(CoinPlacement(
            letter, (float(x), float(y)), z, level, region.name, lean,
            float(rng.uniform(0, 360)), float(rng.uniform(0, 360)),
            int(rng.integers(0, 2 * DESIGNS)), _age(rng, letter, style)))
        z += COIN_SPECS[letter][1] + coin_radius(letter) * math.sin(math.radians(lean))
    return coins


def _gap(a: list[CoinPlacement], b: list[CoinPlacement]) -> tuple[float, float, float]:
    """Smallest clearance between coins of two stacks (mm), and the direction b -> a."""
    best = (math.inf, 0.0, 0.0)
    for p in a:
        for q in b:
            dx, dy = p.centre[0] - q.centre[0], p.centre[1] - q.centre[1]
            dist = math.hypot(dx, dy)
            gap = dist - coin_radius(p.letter) - coin_radius(q.letter)
            if gap < best[0]:
                best = (gap, dx / max(dist, 1e-6), dy / max(dist, 1e-6))
    return best


def _shift(stack: list[CoinPlacement], dx: float, dy: float, region: Region
           ) -> list[CoinPlacement]:
    """``stack`` moved by (dx, dy), its bottom centre kept inside its own region."""
    half = _half_room(region) - 0.5
    bx, by = stack[0].centre
    cx, cy = region.centre
    dx = float(np.clip(bx + dx, cx - half, cx + half) - bx)
    dy = float(np.clip(by + dy, cy - half, cy + half) - by)
    return [CoinPlacement(c.letter, (c.centre[0] + dx, c.centre[1] + dy), c.z, c.level, c.region,
                          c.lean_deg, c.lean_axis_deg, c.turn_deg, c.design, c.age) for c in stack]


def _separate(stacks: dict[str, list[CoinPlacement]], geometry: MatGeometry,
              fixed: set[str]) -> None:
    """Push neighbouring stacks apart (toward their own centres) until 0.4 mm separates them."""
    regions = {name: geometry.region(name) for name in stacks}
    names = sorted(stacks)
    pairs = [(a, b) for i, a in enumerate(names) for b in names[i + 1:]
             if math.dist(regions[a].centre, regions[b].centre) < 3 * _half_room(regions[a])]
    for _ in range(30):
        moved = False
        for a, b in pairs:
            gap, ux, uy = _gap(stacks[a], stacks[b])
            if gap >= 0.4:
                continue
            push = (0.4 - gap) / 2 + 0.05
            share_a = 0.0 if a in fixed else (2.0 if b in fixed else 1.0)
            share_b = 0.0 if b in fixed else (2.0 if a in fixed else 1.0)
            stacks[a] = _shift(stacks[a], ux * push * share_a, uy * push * share_a, regions[a])
            stacks[b] = _shift(stacks[b], -ux * push * share_b, -uy * push * share_b, regions[b])
            moved = True
        if not moved:
            return


def _clear(point: tuple[float, float], reach: float, coins: list[CoinPlacement]) -> bool:
    return all(math.dist(point, c.centre) > reach + coin_radius(c.letter) for c in coins)


def _on_top(top: CoinPlacement, radius: float, rng: np.random.Generator
            ) -> tuple[tuple[float, float], float]:
    """A foot on ``top`` (off-centre, mostly resting on it) and the height of its face."""
    room = max(0.0, coin_radius(top.letter) - 0.55 * radius)
    angle, dist = rng.uniform(0, 2 * math.pi), room * math.sqrt(rng.uniform(0, 1))
    foot = (top.centre[0] + dist * math.cos(angle), top.centre[1] + dist * math.sin(angle))
    lift = coin_radius(top.letter) * math.sin(math.radians(top.lean_deg))
    return foot, top.z + COIN_SPECS[top.letter][1] + lift


def _pawn(region: Region, colour: str, stack: list[CoinPlacement], others: list[CoinPlacement],
          seed: int, style: StyleParams, at: tuple[float, float] | None) -> PawnPlacement:
    rng = rng_for("render-pawn", seed, region.name, colour)
    radius = style.pawn_diameter_mm / 2
    shade = (float(rng.normal(0, style.pawn_hue_jitter)), float(rng.uniform(0.85, 1.15)))
    if stack and (at is not None or rng.uniform() < style.pawn_on_stack):
        foot, z = _on_top(stack[-1], radius, rng)
        return PawnPlacement(colour, foot, z, region.name, *shade)
    if at is not None:
        return PawnPlacement(colour, at, 0.0, region.name, *shade)
    cx, cy = region.centre
    half = _half_room(region) - radius - 0.8
    spread = half if stack else max(style.placement_mm, 0.5)
    for _attempt in range(60):
        off = np.clip(rng.normal(0, spread, 2), -half, half)
        foot = (float(cx + off[0]), float(cy + off[1]))
        if _clear(foot, radius + 0.5, stack + others):
            return PawnPlacement(colour, foot, 0.0, region.name, *shade)
    if stack:
        foot, z = _on_top(stack[-1], radius, rng)
        return PawnPlacement(colour, foot, z, region.name, *shade)
    return PawnPlacement(colour, (cx, cy), 0.0, region.name, *shade)


def _loose(geometry: MatGeometry, seed: int, style: StyleParams) -> list[CoinPlacement]:
    """Coins lying on the table around the mat, a few in small heaps."""
    rng = rng_for("render-loose", seed, style.loose_coins)
    coins: list[CoinPlacement] = []
    width, height = geometry.width_mm, geometry.height_mm
    for _ in range(style.loose_coins):
        letter = str(rng.choice(list("PPNNDQ")))
        radius = coin_radius(letter)
        if coins and rng.uniform() < 0.3:
            below = coins[-1]
            angle = rng.uniform(0, 2 * math.pi)
            step = rng.uniform(0.5, 3.0)
            centre = (below.centre[0] + step * math.cos(angle),
                      below.centre[1] + step * math.sin(angle))
            z = below.z + COIN_SPECS[below.letter][1]
        else:
            for _attempt in range(40):
                side = int(rng.integers(0, 4))
                out = rng.uniform(radius + 4, radius + 120)
                along = rng.uniform(-40, (width if side % 2 == 0 else height) + 40)
                centre = [(along, -out), (width + out, along), (along, height + out),
                          (-out, along)][side]
                if _clear(centre, radius + 1.0, coins):
                    break
            z = -0.3
        coins.append(CoinPlacement(letter, (float(centre[0]), float(centre[1])), z, 0, None,
                                   0.0, 0.0, float(rng.uniform(0, 360)),
                                   int(rng.integers(0, 2 * DESIGNS)), _age(rng, letter, style)))
    return coins


def place(geometry: MatGeometry, coins: Mapping[str, str], pawns: Mapping[str, str], seed: int,
          style: StyleParams, positions: Mapping[str, tuple[float, float]]
          ) -> tuple[list[CoinPlacement], list[PawnPlacement]]:
    """Every coin (stacks bottom to top, then loose ones) and every pawn of a scene.
    ``positions`` fixes the bottom coin's centre (or a lone pawn's foot) of some regions."""
    stacks = {name: _stack(geometry.region(name), letters, seed, style, positions.get(name))
              for name, letters in sorted(coins.items()) if letters}
    _separate(stacks, geometry, {name for name in stacks if name in positions})
    placed_pawns = []
    for name, colour in sorted(pawns.items()):
        region = geometry.region(name)
        stack = stacks.get(name, [])
        others = [c for other, s in stacks.items() if other != name for c in s
                  if math.dist(geometry.region(other).centre, region.centre)
                  < 3 * _half_room(region)]
        placed_pawns.append(_pawn(region, colour, stack, others, seed, style,
                                  positions.get(name)))
    placed = [coin for name in sorted(stacks) for coin in stacks[name]]
    return placed + _loose(geometry, seed, style), placed_pawns
