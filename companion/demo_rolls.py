"""The demo's players at a roll: they throw real (synthetic) dice into the mat's tray and press
their button, now and then throw a die that lands cocked and throw it again, sometimes let the
companion roll (ROLL), and declare a double stack on the panel when their bot chooses one.

Kept apart from :mod:`companion.demo`, whose :class:`~companion.demo.Director` mixes this in.
"""

from __future__ import annotations

import random
import threading
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

from calibration.geometry import MatGeometry, Rect
from companion.demo_board import HAND_FRAMES
from companion.games.base import DiceRoll, Game, Move, Position
from companion.referee_events import Phase
from vision.synth.dice import Die

if TYPE_CHECKING:
    from companion.demo import DemoOptions, DemoReport
    from companion.demo_board import PhysicalBoard
    from companion.referee import Referee
    from companion.table import Table, Verdict

#: The share of rolls the players leave to the companion (the ROLL button).
COMPANION_ROLLS = 0.15
#: Die colours by roll: the first roller's dice are white, the second's red.
ROLL_COLOURS = ("white", "red")
#: How many rounds of a roll (a tie is another round) and throws of one die before giving up.
ROUNDS_TRIED = 10
THROWS_TRIED = 6
#: The dice's edge (mm): common 16 mm dice.
DIE_MM = 16.0


def tray_dice(tray: Rect, faces: Sequence[int], colour: str, rng: random.Random,
              cocked: bool = False) -> tuple[Die, ...]:
    """Dice showing ``faces`` where a throw leaves them in ``tray``: apart from each other, at
    any turn, the first one cocked against the tray's edge when ``cocked``."""
    (centre_x, centre_y), (width, height) = tray.centre, tray.size
    margin = DIE_MM
    placed: list[Die] = []
    for index, face in enumerate(faces):
        for _ in range(200):
            x = centre_x + rng.uniform(-1, 1) * (width / 2 - margin)
            y = centre_y + rng.uniform(-1, 1) * (height / 2 - margin)
            if all((x - die.centre_mm[0]) ** 2 + (y - die.centre_mm[1]) ** 2 > (2 * DIE_MM) ** 2
                   for die in placed):
                break
        tilt = rng.uniform(25.0, 40.0) if cocked and index == 0 else 0.0
        placed.append(Die(face, (x, y), angle_deg=rng.uniform(0, 90), colour=colour,
                          size_mm=DIE_MM, cocked_deg=tilt))
    return tuple(placed)


def tray_of(geometry: MatGeometry) -> Rect | None:
    """The mat's dice tray, if it has one."""
    for region in geometry.regions:
        if region.kind == "tray" and isinstance(region.shape, Rect):
            return region.shape
    return None


class RollingDirector:
    """The director's part at a roll (mixed into :class:`companion.demo.Director`)."""

    table: Table
    game: Game
    board: PhysicalBoard
    options: DemoOptions
    report: DemoReport
    press: Callable[[str], object]
    _verdicts: list[Verdict]
    _changed: threading.Condition

    if TYPE_CHECKING:  # the director's own
        def _plies(self) -> int: ...
        def _choose(self, position: Position, mover: int, rng: random.Random) -> Move: ...
        def _give_up(self, reason: str) -> bool: ...
        def _pause(self, seconds: float) -> None: ...
        def _wait(self, condition: Callable[[], bool], stop: threading.Event,
                  timeout: float = 60.0) -> bool: ...
        def _press_until(self, button: str, condition: Callable[[], bool],
                         stop: threading.Event) -> bool: ...
        def _wait_frames(self, count: int, timeout: float = 5.0) -> None: ...
        def _move_by_hand(self, after: Position) -> None: ...
        def _straighten(self) -> None: ...

    def _play_roll(self, stop: threading.Event) -> bool:
        """One roll phase: a double stack declared, the companion's roll, or dice thrown."""
        referee = self.table.parts.referee
        position = referee.position
        assert position is not None
        rng = random.Random(f"{self.options.seed}/roll/{self._plies()}")
        if not self.game.is_chance(position):
            choice = self._choose(position, self.game.to_move(position), rng)
            if not choice.text().startswith("roll:"):
                return self._declare(position, choice, stop)
        if rng.random() < COMPANION_ROLLS:
            return self._press_until("ROLL", lambda: referee.position != position, stop)
        return self._throw_until_read(position, rng, stop)

    def _throw_until_read(self, position: Position, rng: random.Random,
                          stop: threading.Event) -> bool:
        """Throw the roll the referee awaits (a battle: the attacker's, then the defender's,
        again after a tie) until the node is settled; after :data:`THROWS_TRIED` throws of one
        roll the camera cannot read, let the companion roll, as players would."""
        referee = self.table.parts.referee
        tray = tray_of(self.table.parts.geometry)
        assert tray is not None
        self._thrown: list[tuple[int, ...]] = []
        failed = 0
        for _ in range(ROUNDS_TRIED * 2 * THROWS_TRIED):
            roll = referee.view().awaited_roll
            if stop.is_set() or referee.position != position or roll is None:
                break
            if failed >= THROWS_TRIED:
                self._press_until("ROLL", lambda: referee.position != position, stop)
                break
            colour = ROLL_COLOURS[len(self._thrown) % len(ROLL_COLOURS)]
            faces = tuple(rng.randint(1, 6) for _ in range(roll.dice))
            cocked = rng.random() < self.options.sloppy_rate / 3
            self._throw(tray_dice(tray, faces, colour, rng, cocked))
            if not self._press_until(f"END{roll.player}",
                                     lambda: referee.position != position, stop):
                return self._give_up(f"no answer to {roll.label}")
            if referee.position == position and self._refused():
                self.report.rejects += cocked
                self.report.misreads += not cocked
                self.report.rethrows += not cocked
                failed += not cocked
                continue
            failed = 0
            self._thrown = [*self._thrown, tuple(sorted(faces))][-2:]
        if referee.position == position:
            return self._give_up(f"the dice of move {self._plies() + 1} were never read")
        # The referee's position changes before the control thread writes the roll's journal
        # line: wait for it, or the last line may still be the battle before (with its dice).
        self.table.wait_quiet(self.options.turn_timeout_s)
        self._count_misread_dice()
        return self._settle_restore(stop)

    def _refused(self) -> bool:
        """Whether the referee's last verdict refused the dice (red: throw again); a roll read
        waits for the next one with the ask lamp."""
        with self._changed:
            return bool(self._verdicts) and self._verdicts[-1].verdict == "red"

    def _throw(self, dice: tuple[Die, ...]) -> None:
        """A hand over the tray picks up the last dice and throws these; then it leaves."""
        self.board.hand(True)
        self._pause(0.3)
        self._wait_frames(HAND_FRAMES)
        self.board.show_dice(dice)
        self._pause(0.2)
        self.board.hand(False)

    def _count_misread_dice(self) -> None:
        """Compare the dice the journal kept with the last round thrown."""
        event = self.table.last_event
        if (event is not None and event.dice and event.source == "camera"
                and [tuple(faces) for faces in event.dice[-1]] != self._thrown):
            self.report.misreads += 1
            self.report.dice_wrong += 1

    def _declare(self, position: Position, choice: Move, stop: threading.Event) -> bool:
        """A decision the camera cannot see (a double stack): lay it out, select it, confirm."""
        referee = self.table.parts.referee
        self.board.lay_out(self.game.layout(self.game.apply(position, choice)))
        for _ in range(len(referee.view().candidates)):
            view = referee.view()
            if view.selected is not None and view.candidates[view.selected] == choice.text():
                return self._press_until("CONFIRM", lambda: referee.position != position, stop)
            self._press_until("SELECT", _selection_moved(referee, view.selected), stop)
        return self._give_up(f"{choice.text()} was not among the choices on the screen")

    def _settle_restore(self, stop: threading.Event) -> bool:
        """After an outcome that changes the board (a battle's loser), do as the screen says."""
        referee = self.table.parts.referee
        position = referee.position
        assert position is not None
        if referee.phase is not Phase.RESTORE:
            self.board.lay_out(self.game.layout(position))
            return True
        self._move_by_hand(position)
        self._pause(0.4)
        for _ in range(self.options.max_tries):
            self._press_until("CONFIRM", lambda: referee.phase is not Phase.RESTORE, stop)
            if referee.phase is not Phase.RESTORE:
                return True
            self.report.misreads += 1
            self._straighten()  # the same still board would be read the same way again
        return self._give_up("the board was never seen as the roll left it")


def _selection_moved(referee: Referee, selected: int | None) -> Callable[[], bool]:
    return lambda: referee.view().selected != selected


__all__ = ["DiceRoll", "RollingDirector", "tray_dice", "tray_of"]
