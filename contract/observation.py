"""What vision saw in one steady frame: the contract between vision and the rules engine.

Vision produces an :class:`Observation`; the engine's ``candidates(position, observation)``
consumes it. Neither side imports anything else of the other. Regions are named by the mat (squares
``a1``..``h8``, pits, track spaces, cups). A camera sees the top coin of a stack but not its height,
so a reading holds the kind on top, never a count, except for regions that hold loose coins side by
side (pits), where ``count`` says how many were seen and ``kinds`` their kinds, one letter per
coin. A dice tray's reading lists the dice seen there (:class:`DieReading`), each with its
value, or None where a die is seen but cannot be read (cocked against another die or the frame,
half hidden, blurred). A discard spot's reading holds the card lying face up on top of the pile
(:class:`CardReading`), its rank or None where a card is seen but cannot be read.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field, replace
from typing import Any

from contract.errors import CompanionError
from contract.schemas import check
from contract.user_files import parse_json

#: Coin kinds by letter, with their diameter in millimetres and metal; the letters are the ones
#: positions use. ``S`` is the small-size US dollar (Sacagawea), a Shakala gem stand-in.
COIN_KINDS: dict[str, tuple[str, float, str]] = {
    "P": ("penny", 19.05, "copper"),
    "N": ("nickel", 21.21, "silver"),
    "D": ("dime", 17.91, "silver"),
    "Q": ("quarter", 24.26, "silver"),
    "S": ("dollar", 26.49, "brass"),
}


#: A playing card's ranks as readings name them: ace, 2 to 10, jack, queen, king, joker.
CARD_RANKS: tuple[str, ...] = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K",
                               "joker")


class ObservationError(CompanionError):
    """An observation that cannot be parsed or is inconsistent."""


@dataclass(frozen=True)
class DieReading:
    """One die seen in a tray: the value on its top face (1..6, None when a die is there but
    its top cannot be read), how sure that is (0..1), its body colour as vision names it
    (``"white"``, ``"red"``) and where its top face lies on the mat (mm)."""

    value: int | None
    confidence: float
    colour: str
    centre_mm: tuple[float, float]

    def __post_init__(self) -> None:
        if self.value is not None and not 1 <= self.value <= 6:
            raise ObservationError(f"a die shows 1 to 6, not {self.value!r}")

    def to_json(self) -> dict[str, Any]:
        """The die as a JSON-ready dict."""
        return {
            "value": self.value,
            "confidence": round(self.confidence, 4),
            "colour": self.colour,
            "centre_mm": [round(self.centre_mm[0], 2), round(self.centre_mm[1], 2)],
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> DieReading:
        """Parse :meth:`to_json` output; raises :class:`ObservationError` on bad fields."""
        if not isinstance(data, Mapping):
            raise ObservationError(f"a die reading must be an object, not {data!r}")
        try:
            value = data["value"]
            x, y = data["centre_mm"]
            return cls(
                value=None if value is None else int(value),
                confidence=float(data.get("confidence", 1.0)),
                colour=str(data["colour"]),
                centre_mm=(float(x), float(y)),
            )
        except (KeyError, TypeError, ValueError) as error:
            raise ObservationError(f"bad die reading {dict(data)!r}: {error!r}") from None


@dataclass(frozen=True)
class CardReading:
    """The card seen face up on top of a discard pile: its rank (one of :data:`CARD_RANKS`,
    None when a card is there but its rank cannot be read: washed out by glare, blurred), how
    sure that is (0..1) and where its middle lies on the mat (mm)."""

    rank: str | None
    confidence: float
    centre_mm: tuple[float, float]

    def __post_init__(self) -> None:
        if self.rank is not None and self.rank not in CARD_RANKS:
            raise ObservationError(
                f"a card's rank is one of {' '.join(CARD_RANKS)}, not {self.rank!r}")

    def to_json(self) -> dict[str, Any]:
        """The card as a JSON-ready dict."""
        return {
            "rank": self.rank,
            "confidence": round(self.confidence, 4),
            "centre_mm": [round(self.centre_mm[0], 2), round(self.centre_mm[1], 2)],
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> CardReading:
        """Parse :meth:`to_json` output; raises :class:`ObservationError` on bad fields."""
        if not isinstance(data, Mapping):
            raise ObservationError(f"a card reading must be an object, not {data!r}")
        try:
            rank = data["rank"]
            x, y = data["centre_mm"]
            return cls(
                rank=None if rank is None else str(rank),
                confidence=float(data.get("confidence", 1.0)),
                centre_mm=(float(x), float(y)),
            )
        except (KeyError, TypeError, ValueError) as error:
            raise ObservationError(f"bad card reading {dict(data)!r}: {error!r}") from None


@dataclass(frozen=True)
class RegionReading:
    """What is visible in one region: the top coin kind (or None), a pawn label (or None).

    ``pawn`` is a colour name as vision reports it (``"red"``); the referee relabels colours to
    player numbers (``"1"``..) before asking the engine, see :meth:`Observation.relabel_pawns`.
    ``count`` and ``kinds`` are set only for regions that hold several loose coins, ``dice``
    only for dice trays, ``card`` only for discard spots where a card is seen.
    """

    coin: str | None = None
    pawn: str | None = None
    confidence: float = 1.0
    count: int | None = None
    kinds: tuple[str, ...] = ()
    dice: tuple[DieReading, ...] = ()
    card: CardReading | None = None

    def to_json(self) -> dict[str, Any]:
        """The reading as a JSON-ready dict; loose-coin, dice and card fields only when set."""
        data: dict[str, Any] = {
            "coin": self.coin,
            "pawn": self.pawn,
            "confidence": round(self.confidence, 4),
        }
        if self.count is not None:
            data["count"] = self.count
            data["kinds"] = list(self.kinds)
        if self.dice:
            data["dice"] = [die.to_json() for die in self.dice]
        if self.card is not None:
            data["card"] = self.card.to_json()
        return data

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> RegionReading:
        """Parse :meth:`to_json` output; raises :class:`ObservationError` on bad fields."""
        coin = data.get("coin")
        if coin is not None and coin not in COIN_KINDS:
            raise ObservationError(f"unknown coin kind {coin!r} in observation")
        pawn = data.get("pawn")
        count = data.get("count")
        dice = data.get("dice", ())
        if not isinstance(dice, (list, tuple)):
            raise ObservationError(f"'dice' must be a list in {dict(data)!r}")
        dice_read = tuple(DieReading.from_json(die) for die in dice)
        card = data.get("card")
        card_read = None if card is None else CardReading.from_json(card)
        try:
            return cls(
                coin=coin,
                pawn=None if pawn is None else str(pawn),
                confidence=float(data.get("confidence", 1.0)),
                count=None if count is None else int(count),
                kinds=tuple(str(kind) for kind in data.get("kinds", ())),
                dice=dice_read,
                card=card_read,
            )
        except (TypeError, ValueError) as error:
            raise ObservationError(f"bad region reading {dict(data)!r}: {error}") from None


@dataclass(frozen=True)
class Observation:
    """Readings of every region of a mat in one frame, plus how the frame was found."""

    regions: Mapping[str, RegionReading]
    markers_found: tuple[int, ...] = ()
    milliseconds: float = 0.0
    meta: Mapping[str, Any] = field(default_factory=dict)

    def __getitem__(self, region: str) -> RegionReading:
        return self.regions[region]

    def __iter__(self) -> Iterator[str]:
        return iter(self.regions)

    def coin(self, region: str) -> str | None:
        """The visible top coin of ``region``; an unread region counts as empty."""
        reading = self.regions.get(region)
        return None if reading is None else reading.coin

    def pawn(self, region: str) -> str | None:
        """The pawn label seen on ``region``, or None."""
        reading = self.regions.get(region)
        return None if reading is None else reading.pawn

    def pawns(self) -> dict[str, str]:
        """Pawn label -> region, for every pawn seen."""
        return {
            reading.pawn: name for name, reading in self.regions.items() if reading.pawn is not None
        }

    def relabel_pawns(self, labels: Mapping[str, str]) -> Observation:
        """A copy with pawn labels mapped (colour -> player number); unknown labels are kept."""
        regions = {
            name: reading if reading.pawn is None
            else replace(reading, pawn=labels.get(reading.pawn, reading.pawn))
            for name, reading in self.regions.items()
        }
        return replace(self, regions=regions)

    def to_json(self) -> dict[str, Any]:
        """The observation as the JSON object `companion vision read` prints."""
        return {
            "regions": {name: reading.to_json() for name, reading in self.regions.items()},
            "markers_found": list(self.markers_found),
            "milliseconds": round(self.milliseconds, 2),
            **({"meta": dict(self.meta)} if self.meta else {}),
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Observation:
        """Parse :meth:`to_json` output."""
        regions = data.get("regions")
        if not isinstance(regions, Mapping):
            raise ObservationError("an observation needs a 'regions' object")
        return cls(
            regions={str(name): RegionReading.from_json(value) for name, value in regions.items()},
            markers_found=tuple(int(marker) for marker in data.get("markers_found", ())),
            milliseconds=float(data.get("milliseconds", 0.0)),
            meta=dict(data.get("meta", {})),
        )

    @classmethod
    def from_text(cls, text: str, source: str = "observation") -> Observation:
        """Parse the JSON text of an observation from outside, checked against
        ``contract/schemas/observation.schema.json``; every problem is one
        :class:`ObservationError` sentence starting with ``source``."""
        data = parse_json(text, source, ObservationError)
        check(data, "observation", source, ObservationError)
        return cls.from_json(data)

    @classmethod
    def of_board(
        cls, coins: Mapping[str, str | None], pawns: Mapping[str, str] | None = None
    ) -> Observation:
        """A perfect observation built from top coins by region and pawn label -> region."""
        pawn_at = {region: label for label, region in (pawns or {}).items()}
        names = set(coins) | set(pawn_at)
        return cls(
            regions={
                name: RegionReading(coin=coins.get(name), pawn=pawn_at.get(name))
                for name in sorted(names)
            }
        )
