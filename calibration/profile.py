"""What coins and pawns look like to reading: sizes, colours and thresholds, saved as JSON.

A :class:`VisionProfile` is what `companion calibrate` learns for one camera and one set of
coins; :meth:`VisionProfile.default` builds one from physics alone (US Mint diameters, copper
against silver against brass). Colours are measured against the local mat white, so they hold
under warm and cold light: a coin's colour is its ``(ln(red/green), ln(blue/green))`` after each
channel was divided by the paper's; a pawn's is its blue, green, red reflectance against paper.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import asdict, dataclass, replace
from pathlib import Path
from typing import Any

from contract.errors import CompanionError
from contract.observation import COIN_KINDS
from contract.schemas import check as check_schema
from contract.user_files import describe, read_user_object

#: The version written into saved profiles; loading refuses other versions.
PROFILE_VERSION = 1

#: Colour ``(ln(red/green), ln(blue/green))`` against white paper, by metal, from the metals'
#: reflectance spectra: copper reflects red far more than blue, cupronickel and clad silver are
#: nearly neutral, manganese brass is yellow (little blue).
METAL_COLOURS: dict[str, tuple[float, float]] = {
    "copper": (0.45, -0.40),
    "silver": (0.0, 0.0),
    "brass": (0.20, -0.65),
}



class ProfileError(CompanionError):
    """A vision profile file that cannot be read, parsed or holds impossible values."""


@dataclass(frozen=True)
class CoinLook:
    """One coin kind: its letter, true diameter, colour, and how far each may stray."""

    kind: str
    diameter_mm: float
    colour: tuple[float, float]


@dataclass(frozen=True)
class PawnLook:
    """One pawn colour: its name (what observations report) and its colour against white paper.

    ``colour`` is blue, green, red reflectance relative to the mat's white (0-1 each), the
    order OpenCV stores pixels in.
    """

    name: str
    colour: tuple[float, float, float]


@dataclass(frozen=True)
class VisionProfile:
    """Everything reading needs to tell coins and pawns apart.

    ``diameter_sigma_mm`` and ``colour_sigma`` are the spreads of a measurement around a
    kind's value (a coin 2 sigma away is still that kind, but with less confidence); glare
    pales a coloured metal towards neutral, down to ``metal_fade`` of its colour's strength,
    and paler than that counts in ``fade_sigma`` (see :func:`vision.coin_size.colour_score`).
    ``diameter_scale`` corrects a camera's systematic size bias (blur grows dark discs):
    measured diameters are divided by it. Pawn pixels are those of at least
    ``pawn_min_saturation`` (or darker than ``pawn_dark_value``, for black pawns) whose hue is
    nearer a pawn's than any metal's; a pawn is seen when such pixels of one colour cover
    ``pawn_min_share`` of a ``pawn_diameter_mm`` disc. Paper turns into foreground (a coin or a
    pawn) where its darkest channel falls below ``1 - foreground_darkness`` of the local white.
    ``mat`` and ``square_mm`` name the mat it was calibrated on and the square size that mat
    was printed with (None: the mat's default): reading that game's mat with this profile
    assumes the same print unless told otherwise (see :func:`square_mm_for`). ``calibrated``
    says the coin looks were measured by ``companion calibrate`` with this camera and these
    coins (sizes as the reader measures them, colours of each metal): reading then starts
    every frame from their common size offset instead of from physics alone (see
    :func:`vision.read.model_for`).
    ``focal_px`` is the camera's focal length in pixels of the frames it was calibrated with,
    estimated from the empty mat's homography (:func:`vision.camera_pose.focal_from_homography`;
    None when the views were too nearly straight down to tell): the dice reader places the
    camera over the mat with it.
    """

    coins: tuple[CoinLook, ...]
    pawns: tuple[PawnLook, ...]
    diameter_sigma_mm: float = 0.5
    colour_sigma: float = 0.1
    metal_fade: float = 0.5
    fade_sigma: float = 0.05
    diameter_scale: float = 1.0
    pawn_diameter_mm: float = 14.0
    pawn_min_saturation: float = 0.35
    pawn_dark_value: float = 0.22
    pawn_min_share: float = 0.3
    foreground_darkness: float = 0.16
    mat: str | None = None
    square_mm: float | None = None
    calibrated: bool = False
    focal_px: float | None = None
    version: int = PROFILE_VERSION

    @classmethod
    def default(cls) -> VisionProfile:
        """The profile from physics: true diameters and metal colours, four pawn colours."""
        coins = tuple(
            CoinLook(letter, diameter, METAL_COLOURS[metal])
            for letter, (_, diameter, metal) in COIN_KINDS.items()
        )
        pawns = (
            PawnLook("red", (0.16, 0.16, 0.80)),
            PawnLook("blue", (0.78, 0.38, 0.10)),
            PawnLook("green", (0.25, 0.62, 0.15)),
            PawnLook("yellow", (0.12, 0.80, 0.92)),
            PawnLook("purple", (0.58, 0.18, 0.48)),
            PawnLook("black", (0.13, 0.13, 0.14)),
        )
        return cls(coins=coins, pawns=pawns)

    def coin(self, kind: str) -> CoinLook:
        """The look of coin ``kind``; raises :class:`ProfileError` when the profile lacks it."""
        for look in self.coins:
            if look.kind == kind:
                return look
        raise ProfileError(f"the vision profile has no coin kind {kind!r}")

    def only_kinds(self, kinds: str) -> VisionProfile:
        """A copy that knows only the coin kinds in ``kinds`` (letters), e.g. ``"PNDQ"``."""
        return replace(self, coins=tuple(look for look in self.coins if look.kind in kinds))

    def to_json(self) -> dict[str, Any]:
        """The profile as a JSON-ready dict."""
        data = asdict(self)
        data["coins"] = [
            {"kind": c.kind, "diameter_mm": c.diameter_mm, "colour": list(c.colour)}
            for c in self.coins
        ]
        data["pawns"] = [{"name": p.name, "colour": list(p.colour)} for p in self.pawns]
        return data

    @classmethod
    def from_json(cls, data: Mapping[str, Any], source: str = "profile") -> VisionProfile:
        """Parse :meth:`to_json` output; every problem is a :class:`ProfileError` naming it.

        The data is checked against ``contract/schemas/profile.schema.json`` with jsonschema
        first (field names, types, ranges), so a bad field is reported by name, never as
        Python's ``TypeError`` or ``KeyError``; :meth:`check` then checks what a schema cannot.
        """
        if not isinstance(data, Mapping):
            raise ProfileError(f"{source} must be a JSON object")
        version = data.get("version", PROFILE_VERSION)
        if version != PROFILE_VERSION:
            raise ProfileError(
                f"{source} has version {version!r}; this program reads version "
                f"{PROFILE_VERSION}: run `companion calibrate` again"
            )
        check_schema(data, "profile", source, ProfileError)
        numbers = {name: float(data[name]) for name in _NUMBER_FIELDS if name in data}
        profile = cls(
            coins=tuple(_coin_from_json(item) for item in data["coins"]),
            pawns=tuple(_pawn_from_json(item) for item in data["pawns"]),
            mat=data.get("mat"),
            square_mm=None if data.get("square_mm") is None else float(data["square_mm"]),
            calibrated=data.get("calibrated", False),
            focal_px=None if data.get("focal_px") is None else float(data["focal_px"]),
            **numbers,  # type: ignore[arg-type]
        )
        profile.check(source)
        return profile

    def check(self, source: str = "profile") -> None:
        """Raise :class:`ProfileError` when a value is impossible."""
        if not self.coins:
            raise ProfileError(f"{source} lists no coin kinds")
        for look in self.coins:
            if look.kind not in COIN_KINDS:
                raise ProfileError(f"{source} has unknown coin kind {look.kind!r}")
            if not 5.0 <= look.diameter_mm <= 60.0:
                raise ProfileError(
                    f"{source} gives coin {look.kind} a diameter of {look.diameter_mm} mm"
                )
        for name in _NUMBER_FIELDS:
            if getattr(self, name) <= 0:
                raise ProfileError(f"{source} has a non-positive {name}")
        if self.square_mm is not None and self.square_mm <= 0:
            raise ProfileError(f"{source} has a non-positive square_mm")
        if self.focal_px is not None and self.focal_px <= 0:
            raise ProfileError(f"{source} has a non-positive focal_px")
        names = [pawn.name for pawn in self.pawns]
        if len(set(names)) != len(names):
            raise ProfileError(f"{source} names a pawn colour twice")

    def save(self, path: Path) -> None:
        """Write the profile as indented JSON to ``path``."""
        try:
            path.write_text(json.dumps(self.to_json(), indent=2) + "\n")
        except OSError as error:
            raise ProfileError(f"cannot write profile {path}: {error.strerror}") from None

    @classmethod
    def load(cls, path: Path) -> VisionProfile:
        """Read a profile saved by :meth:`save`; raises :class:`ProfileError` on any problem
        (missing, a folder, unreadable, not UTF-8, not JSON, a bad field), naming the file."""
        data = read_user_object(path, "profile", ProfileError)
        return cls.from_json(data, describe(path, "profile"))


_NUMBER_FIELDS = (
    "diameter_sigma_mm",
    "colour_sigma",
    "metal_fade",
    "fade_sigma",
    "diameter_scale",
    "pawn_diameter_mm",
    "pawn_min_saturation",
    "pawn_dark_value",
    "pawn_min_share",
    "foreground_darkness",
)


def square_mm_for(game: str, given: float | None, profile: VisionProfile) -> float | None:
    """The square size to read ``game``'s mat at: ``given`` (the user's ``--square-mm``), else
    the one the profile was calibrated with on this game's mat, else None (the mat's default).
    A mat printed smaller than it is read would make every coin look larger than it is."""
    if given is not None:
        return given
    return profile.square_mm if profile.mat == game else None


def _coin_from_json(item: Mapping[str, Any]) -> CoinLook:
    red, blue = item["colour"]
    return CoinLook(str(item["kind"]), float(item["diameter_mm"]), (float(red), float(blue)))


def _pawn_from_json(item: Mapping[str, Any]) -> PawnLook:
    blue, green, red = item["colour"]
    return PawnLook(str(item["name"]), (float(blue), float(green), float(red)))
