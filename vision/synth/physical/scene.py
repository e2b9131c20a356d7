"""What lies on the table: a mat with coin stacks and pawns, the variation, and the truth.

A :class:`TableScene` is frozen and hashable: the mat geometry, coins per region (a stack
bottom to top, letters P N D Q S), pawns per region (a colour), the :class:`Variation`, the
layout seed (where exactly each coin lies) and optional fixed positions. :meth:`truth` gives
every region's :class:`~vision.synth.RegionTruth`. :func:`random_table_scene` draws a board in
play; :func:`empty_scene` and :func:`calibration_scene` make the simple layouts calibration
asks for.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

import numpy as np

from calibration.geometry import MatGeometry, coin_isolation_mat
from contract.observation import COIN_KINDS
from vision.synth import PLAYER_COLOURS, RegionTruth
from vision.synth.layout import MIXED_CHANGE_SHARE, board_coins
from vision.synth.physical.cold import cold_variation
from vision.synth.physical.heldout import heldout_variation
from vision.synth.physical.materials import EXTRA_PAWN_COLOURS, PAWN_ALBEDO
from vision.synth.physical.stress import stress_variation
from vision.synth.physical.variation import Variation, tuning_variation

#: The families of variation, by name.
FAMILIES = ("tuning", "heldout", "cold", "stress")


class SceneError(ValueError):
    """A scene naming an unknown region, coin letter, pawn colour or family."""


def variation_for(family: str, seed: int) -> Variation:
    """The variation of ``family`` ("tuning", "heldout", "cold" or "stress") for ``seed``."""
    if family == "tuning":
        return tuning_variation(seed)
    if family == "heldout":
        return heldout_variation(seed)
    if family == "cold":
        return cold_variation(seed)
    if family == "stress":
        return stress_variation(seed)
    raise SceneError(f"unknown family {family!r}; use {', '.join(FAMILIES)}")


@dataclass(frozen=True)
class TableScene:
    """A mat with coins and pawns under a variation. ``coins`` and ``pawns`` are sorted
    (region, letters) and (region, colour) pairs; ``positions`` fixes the bottom coin's centre
    (or a lone pawn's foot) of some regions in mat mm; the rest is placed from
    ``layout_seed`` and the variation's style."""

    geometry: MatGeometry = field(default_factory=coin_isolation_mat)
    coins: tuple[tuple[str, str], ...] = ()
    pawns: tuple[tuple[str, str], ...] = ()
    variation: Variation = field(default_factory=Variation)
    layout_seed: int = 0
    positions: tuple[tuple[str, tuple[float, float]], ...] = ()
    variants: tuple[str, ...] = ()
    image_size: tuple[int, int] = (1920, 1080)

    def __post_init__(self) -> None:
        names = set(self.geometry.region_names())
        for region, letters in self.coins:
            if region not in names:
                raise SceneError(f"mat {self.geometry.name!r} has no region {region!r}")
            for letter in letters:
                if letter not in COIN_KINDS:
                    raise SceneError(f"unknown coin letter {letter!r} on {region!r}")
        for region, colour in self.pawns:
            if region not in names:
                raise SceneError(f"mat {self.geometry.name!r} has no region {region!r}")
            if colour not in PAWN_ALBEDO:
                raise SceneError(f"unknown pawn colour {colour!r}; use {', '.join(PAWN_ALBEDO)}")
        for region, _ in self.positions:
            if region not in names:
                raise SceneError(f"mat {self.geometry.name!r} has no region {region!r}")

    @classmethod
    def build(cls, coins: Mapping[str, str], pawns: Mapping[str, str] | None = None,
              geometry: MatGeometry | None = None, variation: Variation | None = None,
              layout_seed: int = 0, positions: Mapping[str, tuple[float, float]] | None = None,
              variants: tuple[str, ...] = ()) -> TableScene:
        """A scene from region -> coins and region -> pawn colour (Coin Isolation mat)."""
        return cls(
            geometry=geometry or coin_isolation_mat(),
            coins=tuple(sorted((name, letters) for name, letters in coins.items() if letters)),
            pawns=tuple(sorted((pawns or {}).items())),
            variation=variation or Variation(), layout_seed=layout_seed,
            positions=tuple(sorted((name, (float(x), float(y)))
                                   for name, (x, y) in (positions or {}).items())),
            variants=variants,
        )

    def coins_by_region(self) -> dict[str, str]:
        return dict(self.coins)

    def pawns_by_region(self) -> dict[str, str]:
        return dict(self.pawns)

    def truth(self) -> dict[str, RegionTruth]:
        """Every region of the mat with what it really holds (loose table coins excluded)."""
        coins, pawns = self.coins_by_region(), self.pawns_by_region()
        return {region.name: RegionTruth(coins=coins.get(region.name, ""),
                                         pawn=pawns.get(region.name),
                                         loose=region.kind in ("pit", "cup"))
                for region in self.geometry.regions}


def random_table_scene(seed: int, family: str = "tuning", players: int = 2,
                       mixed_change: bool | None = None, geometry: MatGeometry | None = None
                       ) -> TableScene:
    """A Coin Isolation board in play under a variation of ``family``.

    Coins from :func:`vision.synth.layout.board_coins` (same-kind stacks, or mixed stacks
    smallest on top under ``mixed_change``, by default a third of seeds); ``players`` pawns of
    :data:`~vision.synth.PLAYER_COLOURS`, each on a random square, two in three of them on a
    square holding coins. The held-out family sometimes gives a pawn an extra colour.
    """
    if not 1 <= players <= len(PLAYER_COLOURS):
        raise SceneError(f"players must be 1..{len(PLAYER_COLOURS)}, not {players}")
    variation = variation_for(family, seed)
    rng = np.random.default_rng([seed, 0x5CE])
    geometry = geometry or coin_isolation_mat()
    names = [region.name for region in geometry.regions if region.kind == "square"]
    if mixed_change is None:
        mixed_change = bool(rng.uniform() < MIXED_CHANGE_SHARE)
    coins = board_coins(rng, names, mixed_change)
    colours = list(PLAYER_COLOURS[:players])
    if rng.uniform() < variation.style.extra_colour_share:
        colours[int(rng.integers(0, players))] = str(rng.choice(EXTRA_PAWN_COLOURS))
    pawns: dict[str, str] = {}
    for colour in colours:
        full = [name for name in names if name in coins and name not in pawns]
        empty = [name for name in names if name not in coins and name not in pawns]
        pool = full if (rng.uniform() < 2 / 3 and full) or not empty else empty
        pawns[str(rng.choice(pool))] = colour
    variants = ("mixed-change",) if mixed_change else ()
    return TableScene.build(coins, pawns, geometry, variation, layout_seed=seed,
                            variants=variants)


def empty_scene(variation: Variation | None = None, geometry: MatGeometry | None = None
                ) -> TableScene:
    """The bare mat (calibration's first step)."""
    return TableScene.build({}, {}, geometry, variation)


def calibration_scene(coins: Mapping[str, str], pawns: Mapping[str, str] | None = None,
                      variation: Variation | None = None,
                      geometry: MatGeometry | None = None) -> TableScene:
    """Given coins and pawns each placed exactly at their square's centre (as calibration asks
    the player to put them)."""
    geometry = geometry or coin_isolation_mat()
    names = set(coins) | set(pawns or {})
    positions = {name: geometry.region(name).centre for name in names}
    return TableScene.build(coins, pawns, geometry, variation, positions=positions)
