"""Everything the side screen draws, as one read-only value the referee hands over.

The display decides nothing: the referee turns the engine's position (and the panel, vision and
record state) into a :class:`Snapshot`, and the screen draws exactly that. Square names follow
DESIGN.md (files ``a``.. from left to right as South sees the board, ranks ``1``.. from South's
edge), for any board size (8x8 for Coin Isolation, 6x12 and others later). Stacks are strings of
coin letters from bottom to top (``P`` penny, ``N`` nickel, ``D`` dime, ``Q`` quarter, ``S``
dollar), as in the position JSON.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Literal, get_args

import numpy as np
import numpy.typing as npt

from contract.errors import CompanionError
from contract.observation import COIN_KINDS

#: A colour as red, green, blue in 0..255.
RGB = tuple[int, int, int]
#: How urgent the message of the moment is; the message bar's colour and icon follow it.
Severity = Literal["info", "warning", "error"]
SEVERITIES: tuple[str, ...] = get_args(Severity)
#: The main states of the screen that :meth:`Snapshot.example` can show.
ExampleState = Literal["turn", "ask", "rejected", "game-over"]
#: A point in camera image pixels (x to the right, y down).
Point = tuple[float, float]

FILE_LETTERS = "abcdefghijklmnopqrstuvwxyz"
#: Region kinds whose coins lie loose side by side.
LOOSE_KINDS = frozenset({"pit", "cup"})


class DisplayError(CompanionError):
    """A snapshot that cannot be drawn, or a window that cannot be opened."""


def square_name(file_index: int, rank_index: int) -> str:
    """The name of the square at 0-based file and rank (``square_name(0, 0) == "a1"``)."""
    return f"{FILE_LETTERS[file_index]}{rank_index + 1}"


def parse_square(name: str, files: int, ranks: int) -> tuple[int, int]:
    """The 0-based (file, rank) of a square name on a board of that size; DisplayError if off it."""
    if len(name) >= 2 and name[0] in FILE_LETTERS and name[1:].isdigit():
        file_index, rank_index = FILE_LETTERS.index(name[0]), int(name[1:]) - 1
        if file_index < files and 0 <= rank_index < ranks:
            return file_index, rank_index
    raise DisplayError(f"square {name!r} is not on a {files}x{ranks} board; use names like 'a1'")


@dataclass(frozen=True)
class PlayerView:
    """One player as the screen shows them: seat number, name, pawn colour, pawn, score, coins.

    ``number`` is the seat (1..4) and is the label drawn on the pawn, so pawns differ by more than
    colour. ``score_cents`` is the score the referee computed; ``taken`` lists the coins taken in
    the order they were taken (``"PPNQ"``); ``note`` says in words what a game keeps per seat
    that is no row of coins (Coin Grid: ``3 in reserve, 1 dead coin``).
    """

    number: int
    name: str
    colour_name: str
    colour: RGB
    pawn: str | None = None
    score_cents: int = 0
    taken: str = ""
    note: str = ""


@dataclass(frozen=True)
class PathView:
    """A path to draw on the board: the square the pawn leaves, then each step, target last.

    ``placements`` are squares that receive coins with the move (transplant variants), drawn
    with their own marker, not as part of the line.
    """

    squares: tuple[str, ...]
    label: str = ""
    placements: tuple[str, ...] = ()


@dataclass(frozen=True)
class Message:
    """The message of the moment, in words a player understands, and how urgent it is."""

    text: str
    severity: Severity = "info"


#: Who gave a roll's faces: the camera read them, the companion rolled them, or a player
#: entered them on the panel.
RollSource = Literal["camera", "companion", "panel"]
ROLL_SOURCES: tuple[str, ...] = get_args(RollSource)


@dataclass(frozen=True)
class RollView:
    """One roll of the latest round of dice: its label (``South's attack on c4``), the faces
    (empty when the outcome was entered without them, then ``entered`` says it in words), who
    gave them, whether the total counts half, and the colour of each die as the camera named it
    (``white``, ``red``...; white where none is given)."""

    label: str
    faces: tuple[int, ...]
    source: RollSource = "camera"
    halved: bool = False
    entered: str = ""
    colours: tuple[str, ...] = ()

    def total_text(self) -> str:
        """``= 9``, or ``= 11, halved to 5``; empty for a single face or none."""
        total = sum(self.faces)
        if not self.faces or (len(self.faces) == 1 and not self.halved):
            return ""
        return f"= {total}, halved to {total // 2}" if self.halved else f"= {total}"


@dataclass(frozen=True, eq=False)
class CameraView:
    """A small live camera image (BGR, as OpenCV delivers it) and where the mat's grid lies in it.

    ``grid_corners`` are the outer corners of the play area in image pixels, in the order: a1's
    corner (South-West), then South-East, North-East, North-West; the screen draws the square grid
    between them. ``frame_number`` must change whenever the image content changes (the screen
    scales each new frame once). Compared by identity, since images are large.
    """

    image: npt.NDArray[np.uint8]
    grid_corners: tuple[Point, Point, Point, Point] | None = None
    frame_number: int = 0

    def __repr__(self) -> str:
        height, width = self.image.shape[:2]
        return (
            f"CameraView(image=<{width}x{height} BGR>, grid_corners={self.grid_corners!r}, "
            f"frame_number={self.frame_number!r})"
        )


@dataclass(frozen=True)
class RegionShape:
    """One region of a mat as the screen draws it: its name, its kind (``square``, ``pit``,
    ``track``, ``cup``), whether it is round, and its box in mm from the play area's top left."""

    name: str
    kind: str
    round: bool
    x_mm: float
    y_mm: float
    width_mm: float
    height_mm: float


@dataclass(frozen=True)
class TrackArrow:
    """A track arrow printed on a mat (Shakala's inner and outer tracks): its kind as the mat
    names it (``inner-track``, ``outer-track``) and its points in mm from the play area's top
    left, the head at the last."""

    kind: str
    points: tuple[tuple[float, float], ...]


@dataclass(frozen=True)
class MatNote:
    """Words printed on a mat that the screen repeats (``E fork``): centred on (x, y) in mm
    from the play area's top left."""

    text: str
    x_mm: float
    y_mm: float


@dataclass(frozen=True)
class MatView:
    """A mat of any shape for the screen (a ring track, pits and cups): its play area's size in
    mm, its regions, and its track arrows and notes where it has them. A plain grid of squares
    needs none (``files`` and ``ranks`` say it)."""

    width_mm: float
    height_mm: float
    regions: tuple[RegionShape, ...]
    arrows: tuple[TrackArrow, ...] = ()
    notes: tuple[MatNote, ...] = ()

    def loose_regions(self) -> frozenset[str]:
        """The regions whose coins lie loose side by side (pits and cups): drawn as counts
        per kind, not as a stack."""
        return frozenset(region.name for region in self.regions if region.kind in LOOSE_KINDS)

    def names(self) -> frozenset[str]:
        return frozenset(region.name for region in self.regions)


@dataclass(frozen=True)
class Snapshot:
    """Everything drawn on the side screen at one moment; the screen draws it and decides nothing.

    ``stacks`` maps square names to coin stacks bottom to top (empty squares absent), as pairs so
    the value stays immutable. ``targets`` are the highlighted legal targets of the player to move,
    ``problems`` the squares marked as wrong after a rejected move. ``candidates`` is the numbered
    list of moves being asked about, ``selected`` the index of the one shown (0-based).
    ``last_moves`` are move texts, oldest first; ``last_path`` the regions of the last move
    (on a mat: the pit sown, then each pit a bead fell into). ``result`` is set when the game is
    over.
    ``to_move`` is a seat number or None (setup, game over). ``mat`` is the board of any shape
    (a ring track, pits); without it the board is a grid of ``files`` x ``ranks`` squares.
    ``facts`` are the game's lines about the table as a whole (the card just played, each
    team's progress, the cards left), drawn above the list of moves. ``tokens`` are more
    tokens than a pawn a seat (region, seat), for games where a seat has several (the coloured
    tokens of Jokers and Coins), each drawn like that seat's pawn.
    ``rolls`` are the dice of the latest roll or battle round, as read, rolled or entered.
    """

    title: str = "Coin Table Companion"
    game: str = "Coin Isolation"
    seat_heading: str = "Coins taken"
    score_unit: str = "¢"
    variants: tuple[str, ...] = ()
    files: int = 8
    ranks: int = 8
    stacks: tuple[tuple[str, str], ...] = ()
    players: tuple[PlayerView, ...] = ()
    to_move: int | None = None
    targets: frozenset[str] = frozenset()
    problems: frozenset[str] = frozenset()
    path: PathView | None = None
    candidates: tuple[str, ...] = ()
    candidates_heading: str = "Which move was it?"
    selected: int | None = None
    last_moves: tuple[str, ...] = ()
    message: Message | None = None
    camera: CameraView | None = field(default=None, compare=False)
    result: str | None = None
    mat: MatView | None = None
    facts: tuple[str, ...] = ()
    tokens: tuple[tuple[str, int], ...] = ()
    last_path: tuple[str, ...] = ()
    rolls: tuple[RollView, ...] = ()

    def __post_init__(self) -> None:
        if not (1 <= self.files <= len(FILE_LETTERS) and 1 <= self.ranks <= 99):
            raise DisplayError(f"a {self.files}x{self.ranks} board cannot be drawn")
        for square, stack in self.stacks:
            self._check_square(square)
            unknown = set(stack) - set(COIN_KINDS)
            if unknown:
                raise DisplayError(f"unknown coin letter {min(unknown)!r} in stack {stack!r}")
        path = (*self.path.squares, *self.path.placements) if self.path else ()
        for square in (*self.targets, *self.problems, *path, *self.last_path,
                       *(name for name, _ in self.tokens)):
            self._check_square(square)
        for player in self.players:
            if player.pawn is not None:
                self._check_square(player.pawn)
            colour = player.colour
            if not (isinstance(colour, tuple) and len(colour) == 3
                    and all(isinstance(c, int) and 0 <= c <= 255 for c in colour)):
                raise DisplayError(
                    f"player {player.number}'s colour {colour!r} is not a tuple of red, green, "
                    "blue in 0..255"
                )
        if self.message is not None and self.message.severity not in SEVERITIES:
            raise DisplayError(f"unknown message severity {self.message.severity!r}")
        for roll in self.rolls:
            if roll.source not in ROLL_SOURCES:
                raise DisplayError(f"unknown roll source {roll.source!r}; use "
                                   f"{', '.join(ROLL_SOURCES)}")
            if not all(isinstance(face, int) and 1 <= face <= 6 for face in roll.faces):
                raise DisplayError(f"{roll.label}: a die shows 1 to 6, not {list(roll.faces)}")
        if self.selected is not None and not 0 <= self.selected < len(self.candidates):
            raise DisplayError(f"selected candidate {self.selected} is not in the list")

    def _check_square(self, square: str) -> None:
        if self.mat is None:
            parse_square(square, self.files, self.ranks)
        elif square not in self.mat.names():
            raise DisplayError(f"{square!r} is not a region of the mat")

    def square_names(self) -> tuple[str, ...]:
        """Every square of the board, a1 first, file by file within each rank."""
        return tuple(
            square_name(f, r) for r in range(self.ranks) for f in range(self.files)
        )

    def stack_at(self, square: str) -> str:
        """The coin stack on a square, bottom to top; ``""`` when empty."""
        return dict(self.stacks).get(square, "")

    def player(self, number: int) -> PlayerView | None:
        """The player in that seat, or None."""
        return next((p for p in self.players if p.number == number), None)

    @staticmethod
    def stacks_from(squares: dict[str, str]) -> tuple[tuple[str, str], ...]:
        """Stacks as the snapshot holds them, from the position JSON's ``squares`` object."""
        return tuple(sorted((square, stack) for square, stack in squares.items() if stack))

    @classmethod
    def example(cls, state: ExampleState = "turn") -> Snapshot:
        """A realistic two-player mid-game snapshot in one of the screen's main states.

        Used by tests, the benchmark and the screenshots in ``docs/``.
        """
        stacks = {
            "a1": "P", "b1": "NP", "c1": "D", "e1": "Q", "g1": "PP", "h1": "N",
            "a2": "D", "b2": "P", "d2": "QN", "f2": "P", "g2": "D", "h2": "P",
            "a3": "N", "c3": "PPD", "d3": "P", "e3": "N", "g3": "Q", "h3": "D",
            "b4": "Q", "c4": "P", "d4": "D", "f4": "NN", "g4": "P",
            "a5": "P", "c5": "N", "e5": "P", "f5": "Q", "h5": "PN",
            "a6": "Q", "b6": "D", "d6": "P", "e6": "DD", "g6": "N", "h6": "P",
            "a7": "P", "b7": "N", "c7": "Q", "e7": "P", "f7": "D", "h7": "Q",
            "b8": "D", "c8": "P", "d8": "N", "f8": "P", "g8": "PQ", "h8": "D",
        }
        players = (
            PlayerView(1, "Ada", "orange", (230, 159, 0), "c2", 41, "PPNQPP"),
            PlayerView(2, "Ben", "blue", (0, 114, 178), "f6", 36, "DQP"),
        )
        moves = ("1. c1-c2", "1... f8-f7-f6", "2. c2-b2-c2", "2... f6-e6-f6", "3. pass")
        base = cls(
            game="Coin Isolation",
            variants=("diagonal", "greedy"),
            stacks=cls.stacks_from(stacks),
            players=players,
            to_move=1,
            targets=frozenset({"b2", "d3", "c3", "d2", "b1", "c1", "a3"}),
            last_moves=moves,
            message=Message("Ada: make your move, then press your button.", "info"),
            camera=CameraView(*example_camera_image(stacks, {"c2": (230, 159, 0),
                                                             "f6": (0, 114, 178)})),
        )
        if state == "ask":
            path = PathView(("c2", "d2", "d3"), "Candidate 2 of 3: c2-d2-d3")
            return replace(
                base,
                targets=frozenset(),
                path=path,
                candidates=("c2-d2", "c2-d2-d3", "c2-d2-d3-c3"),
                selected=1,
                message=Message(
                    "The camera cannot tell these moves apart. SELECT steps, CONFIRM accepts.",
                    "warning",
                ),
            )
        if state == "rejected":
            return replace(
                base,
                targets=frozenset(),
                problems=frozenset({"e3", "e4"}),
                message=Message(
                    "That is not a legal move: put the nickel back on e3, then press again.",
                    "error",
                ),
            )
        if state == "game-over":
            over = (
                PlayerView(1, "Ada", "orange", (230, 159, 0), "a5", 123, "PPNQPPQDNQPP"),
                PlayerView(2, "Ben", "blue", (0, 114, 178), "h8", 98, "DQPNQDNDD"),
            )
            return replace(
                base,
                players=over,
                to_move=None,
                targets=frozenset(),
                result="Ada wins, $1.23 to $0.98",
                last_moves=(*moves, "3... f6-g6-h7-h8", "4. pass", "4... pass"),
                message=Message("Game over. The record is saved.", "info"),
            )
        return base


def example_camera_image(
    stacks: dict[str, str],
    pawns: dict[str, RGB] | None = None,
    size: tuple[int, int] = (640, 360),
    seed: int = 0,
) -> tuple[npt.NDArray[np.uint8], tuple[Point, Point, Point, Point]]:
    """A plausible webcam frame of the mat seen at a slant, and where its grid corners lie.

    Drawn with OpenCV so tests, the benchmark and the screenshots have a camera view without a
    camera; ``seed`` shifts the lighting so a benchmark can change the image every frame.
    """
    import cv2

    width, height = size
    ys = np.linspace(0.0, 1.0, height, dtype=np.float32)[:, None]
    xs = np.linspace(0.0, 1.0, width, dtype=np.float32)[None, :]
    light = 0.75 + 0.25 * np.cos(xs * 3.0 + ys * 2.0 + seed * 0.05)
    table = np.empty((height, width, 3), np.uint8)
    for channel, level in enumerate((60, 90, 130)):
        table[..., channel] = np.clip(level * light, 0, 255).astype(np.uint8)
    corners: tuple[Point, Point, Point, Point] = (
        (0.17 * width, 0.93 * height),
        (0.83 * width, 0.93 * height),
        (0.72 * width, 0.10 * height),
        (0.28 * width, 0.10 * height),
    )
    unit = np.array([[0, 0], [1, 0], [1, 1], [0, 1]], dtype=np.float32)
    homography = cv2.getPerspectiveTransform(unit, np.array(corners, dtype=np.float32))
    outline = np.array(corners, dtype=np.int32).reshape(-1, 1, 2)
    cv2.fillConvexPoly(table, outline, (205, 220, 225))
    metal = {"P": (60, 110, 180), "N": (185, 185, 180), "D": (200, 200, 200), "Q": (215, 215, 210)}
    things: list[tuple[str, str | RGB]] = [(sq, stack[-1]) for sq, stack in stacks.items()]
    things += [(square, colour) for square, colour in (pawns or {}).items()]
    for square, thing in things:
        file_index, rank_index = parse_square(square, 8, 8)
        centre = np.array([[[(file_index + 0.5) / 8, (rank_index + 0.5) / 8]]], np.float32)
        x, y = cv2.perspectiveTransform(centre, homography)[0, 0]
        near = 0.03 * width * (0.55 + 0.5 * y / height)
        if isinstance(thing, str):
            radius = max(2, int(COIN_KINDS[thing][1] / 24.26 * near))
            cv2.circle(table, (int(x), int(y)), radius, metal.get(thing, (80, 170, 200)), -1)
        else:
            red, green, blue = thing
            cv2.circle(table, (int(x), int(y)), int(near * 1.1), (20, 20, 20), -1)
            cv2.circle(table, (int(x), int(y)), int(near * 0.9), (blue, green, red), -1)
    return table, corners
