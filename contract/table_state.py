"""What lies on the table: the contents of every region of a mat, whatever the game.

A game says what its position puts on the table with ``Game.layout(position)`` (a
:class:`TableState`); everything above the rules (judging a move, the referee's setup, the
side screen, replay, the demo's simulated table) reads that and never a game's own JSON. A region
holds coins, either as a stack (bottom to top: the camera sees the top coin only) or loose side by
side (a pit or a cup: the camera sees how many and which kinds), and maybe one token (a pawn,
named by its owner's label). :class:`RegionLook` is what a perfect camera would see of a region,
and what an :class:`~contract.observation.Observation` says it saw, so the two compare whole.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any

from contract.observation import COIN_KINDS, Observation, ObservationError, RegionReading


class TableStateError(ObservationError):
    """Table contents that cannot be read: an unknown coin letter or a malformed region."""


def _checked_coins(coins: str) -> str:
    unknown = sorted({letter for letter in coins if letter not in COIN_KINDS})
    if unknown:
        raise TableStateError(f"unknown coin letter {''.join(unknown)!r} in {coins!r}; "
                              f"known letters: {''.join(COIN_KINDS)}")
    return coins


@dataclass(frozen=True)
class RegionLook:
    """What a camera sees of one region: the top coin of a stack, a token's label, and for a
    region of loose coins how many there are and their kinds, sorted, one letter per coin
    (``("P", "P", "S")`` is two pennies and a dollar). An empty region of loose coins looks
    like any empty region."""

    coin: str | None = None
    pawn: str | None = None
    count: int | None = None
    kinds: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        if self.count == 0:
            object.__setattr__(self, "count", None)
        object.__setattr__(self, "kinds", tuple(sorted(self.kinds)) if self.count else ())

    @classmethod
    def from_reading(cls, reading: RegionReading) -> RegionLook:
        """The look a camera reading reports."""
        return cls(reading.coin, reading.pawn, reading.count, reading.kinds)

    @property
    def is_empty(self) -> bool:
        """Whether nothing at all is seen here."""
        return self.coin is None and self.pawn is None and self.count is None


@dataclass(frozen=True)
class RegionContents:
    """What one region holds: ``coins`` bottom to top (a stack) or in any order (``loose``,
    kept sorted), and the label of the token standing on it (a pawn's owner), if any."""

    coins: str = ""
    token: str | None = None
    loose: bool = False

    def __post_init__(self) -> None:
        _checked_coins(self.coins)
        if self.loose:
            object.__setattr__(self, "coins", "".join(sorted(self.coins)))

    @property
    def top(self) -> str | None:
        """The coin a camera sees on top of a stack; None for loose coins or none."""
        return self.coins[-1] if self.coins and not self.loose else None

    @property
    def is_empty(self) -> bool:
        return not self.coins and self.token is None

    def look(self) -> RegionLook:
        """What a perfect camera sees of this region."""
        if self.loose:
            return RegionLook(None, self.token, len(self.coins), tuple(self.coins))
        return RegionLook(self.top, self.token)

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {"coins": self.coins}
        if self.token is not None:
            data["token"] = self.token
        if self.loose:
            data["loose"] = True
        return data

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> RegionContents:
        if not isinstance(data, Mapping):
            raise TableStateError(f"a region's contents must be an object, not {data!r}")
        coins, token = data.get("coins", ""), data.get("token")
        if not isinstance(coins, str) or not (token is None or isinstance(token, str)):
            raise TableStateError(f"bad region contents {dict(data)!r}: coins and token are text")
        return cls(coins, token, bool(data.get("loose", False)))


@dataclass(frozen=True)
class TableState(Mapping[str, RegionContents]):
    """The contents of every region that holds something (an absent region is empty)."""

    regions: Mapping[str, RegionContents] = field(default_factory=dict)

    def __post_init__(self) -> None:
        kept = {name: contents for name, contents in self.regions.items()
                if not contents.is_empty}
        object.__setattr__(self, "regions", kept)

    def __getitem__(self, region: str) -> RegionContents:
        return self.regions[region]

    def __iter__(self) -> Iterator[str]:
        return iter(self.regions)

    def __len__(self) -> int:
        return len(self.regions)

    def __repr__(self) -> str:
        return f"TableState({self.regions!r})"

    def contents(self, region: str) -> RegionContents:
        """What ``region`` holds (empty contents for a region not listed)."""
        return self.regions.get(region, RegionContents())

    def looks(self) -> dict[str, RegionLook]:
        """Region -> what a perfect camera sees, for every region that holds something."""
        return {name: contents.look() for name, contents in self.regions.items()}

    def stacks(self) -> dict[str, str]:
        """Region -> its coins, for every region that holds coins."""
        return {name: contents.coins for name, contents in self.regions.items() if contents.coins}

    def tokens(self) -> dict[str, str]:
        """Token label -> the region it stands on."""
        return {contents.token: name for name, contents in self.regions.items()
                if contents.token is not None}

    def coin_counts(self) -> dict[str, int]:
        """How many coins of each kind lie on the table."""
        return dict(Counter("".join(contents.coins for contents in self.regions.values())))

    def changed(self, other: TableState) -> frozenset[str]:
        """Regions whose contents differ between this table and ``other``."""
        return frozenset(name for name in set(self) | set(other)
                         if self.contents(name) != other.contents(name))

    def to_json(self) -> dict[str, Any]:
        return {name: contents.to_json() for name, contents in sorted(self.regions.items())}

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> TableState:
        if not isinstance(data, Mapping):
            raise TableStateError(f"a table state must be an object of regions, not {data!r}")
        return cls({str(name): RegionContents.from_json(value) for name, value in data.items()})

    @classmethod
    def of_stacks(cls, stacks: Mapping[str, str], tokens: Mapping[str, str | None] | None = None,
                  loose: frozenset[str] = frozenset()) -> TableState:
        """A table from region -> coins and token label -> region (None: off the table);
        the regions in ``loose`` hold their coins side by side."""
        at = {region: label for label, region in (tokens or {}).items() if region is not None}
        names = set(stacks) | set(at)
        return cls({name: RegionContents(stacks.get(name, ""), at.get(name), name in loose)
                    for name in names})


def seen_looks(observation: Observation) -> dict[str, RegionLook]:
    """Region -> what the camera saw, leaving out regions it saw empty."""
    looks = {name: RegionLook.from_reading(reading)
             for name, reading in observation.regions.items()}
    return {name: look for name, look in looks.items() if not look.is_empty}


def coins_text(counts: Mapping[str, int]) -> str:
    """Coin counts in words: ``3 pennies, 1 nickel``."""
    plural = {"penny": "pennies"}
    words = []
    for letter in COIN_KINDS:
        number = counts.get(letter, 0)
        if number:
            name = COIN_KINDS[letter][0]
            words.append(f"{number} {name if number == 1 else plural.get(name, name + 's')}")
    return ", ".join(words) or "no coins"
