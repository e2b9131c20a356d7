"""The referee: the turn loop as an explicit state machine, with no devices of its own.

Events come in (a panel button, a steady frame read by vision, a device that failed or came back)
and :meth:`Referee.handle` answers with effects for the runtime to carry out in order: write a
journal entry (fsynced before anything is shown), set the panel's lights, ask for the next steady
frame. :meth:`Referee.view` is the read-only state the side screen draws. Keeping the referee pure
means every path through a game (accept, ask, reject, undo, pass, the end) is tested without a
camera, a panel or a window.

Phases: ``setup`` (read the starting layout, players confirm it), ``turn`` (waiting for the player
to move and press), ``reading`` (waiting for the steady frame after the press), ``choosing``
(several legal moves look alike; select steps, confirm accepts), ``roll`` (a chance node such as a
die: the companion rolls with its own recorded random source when ROLL or confirm is pressed, or
the players enter what their dice show, select stepping through the faces and confirm entering
one), ``restore`` (a roll changed what must lie on the table, such as a battle's loser leaving:
the screen marks the regions and says what to change, and once the players press confirm the
camera must show it), ``undo`` (confirm takes back the last move), ``over``. Every chance
outcome is recorded with its source (``random``, or the button that entered it), so replay needs
no random source.

The camera can be sure and wrong (a dime lying on a nickel can look like the nickel alone). A
player who presses again without touching a rejected board insists the move is legal: when the
nearest legal move differs from what is seen on at most :data:`INSIST_SQUARES` squares, the
referee offers it, to be accepted with confirm, and records that it was taken over the camera.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass, field

from companion.games.base import Game, Move, Position
from companion.judging import (
    INSIST_SQUARES,
    appearance,
    count_note,
    describe,
    differences,
    moves_fitting_except,
    nearest_move,
    nearest_moves,
    seen_looks,
    unchanged_since,
    unsure_squares,
)
from companion.referee_cards import CardReferee, card_seen, card_words, judge_card
from companion.referee_events import (
    Begin,
    DeviceStatus,
    Effect,
    Event,
    Lights,
    Phase,
    Press,
    Record,
    RefereeView,
    RollShown,
    Seen,
    WantFrame,
    end_button_seat,
)
from companion.referee_rolls import RollingReferee, RollTally
from contract.observation import Observation
from contract.table_state import TableState


@dataclass
class _Turn:
    """One accepted move and the automatic passes after it, for undo."""

    before: Position
    move: Move
    passes: int


@dataclass
class _State:
    phase: Phase = Phase.SETUP
    position: Position | None = None
    candidates: list[Move] = field(default_factory=list)
    selected: int = 0
    marked: tuple[str, ...] = ()
    message: str = "Set out the coins, then press confirm when the screen shows them right."
    severity: str = "info"
    verdict: str | None = None
    frame: str | None = None
    history: list[_Turn] = field(default_factory=list)
    log: list[str] = field(default_factory=list)
    trouble: dict[str, str] = field(default_factory=dict)
    rejected: Observation | None = None
    over_camera: tuple[str, ...] = ()
    tally: RollTally | None = None
    reading_dice: bool = False
    card_source: str = ""
    card_note: str = ""
    card_rejected: Observation | None = None
    last_seen: Observation | None = None
    rolls_shown: tuple[RollShown, ...] = ()
    resumed_path: tuple[str, ...] = ()
    #: The regions a move left to finish by hand (RESTORE) while its undo is asked.
    restoring: tuple[str, ...] = ()
    #: What the camera saw when the board was last found not as it should be (RESTORE).
    restore_refused: Observation | None = None


class Referee(RollingReferee, CardReferee):
    """The turn loop for one game; feed it events with :meth:`handle`."""

    def __init__(
        self,
        game: Game,
        template: Position,
        position: Position | None = None,
        moves_played: Sequence[str] = (),
        dice: random.Random | None = None,
        rolls: random.Random | None = None,
        last_move: Move | None = None,
    ) -> None:
        """``template`` gives players, variants and sides for a layout read at setup.

        A ``position`` (resuming a game) skips setup; ``moves_played`` fills the list of moves
        and ``last_move``, the last move played before, is drawn as the last move's path.
        With ``dice`` the companion rolls at chance nodes whatever is pressed; without, the
        players roll real dice for the camera, press ROLL for the companion's own random roll,
        or enter their roll (see :mod:`companion.referee_rolls`). ``rolls`` is the random source
        of the ROLL button (the system's by default; a seeded one replays a demo exactly).
        """
        self.game = game
        self.template = template
        self.dice = dice
        self._random = rolls if rolls is not None else random.Random()
        self._state = _State()
        if position is not None:
            self._state.position = position
            self._state.log = list(moves_played)
            self._state.resumed_path = last_move.regions() if last_move is not None else ()
            self._begin_turn("Game resumed.")
            self._await_roll()

    # Public -------------------------------------------------------------------------------------

    @property
    def phase(self) -> Phase:
        """The current phase."""
        return self._state.phase

    @property
    def position(self) -> Position | None:
        """The position the referee holds (None until the layout is confirmed)."""
        return self._state.position

    def start(self) -> list[Effect]:
        """The effects to carry out when the table opens: read the layout, or light the turn."""
        if self._state.phase is Phase.SETUP:
            return [Lights(turn=None, verdict="ask", all_turns_blink=True), WantFrame()]
        return [Lights(turn=self._lit_turn())]

    def handle(self, event: Event) -> list[Effect]:
        """Process one event and return the effects to carry out, in order."""
        if isinstance(event, DeviceStatus):
            return self._device(event)
        if isinstance(event, Seen):
            if self._state.phase is Phase.RESTORE:
                return self._restore_seen(event)
            if self._state.phase is Phase.ROLL:
                return self._dice_seen(event) if self._state.reading_dice else []
            return self._seen(event)
        return self._press(event)

    def view(self) -> RefereeView:
        """The read-only state for the side screen."""
        state = self._state
        position = state.position
        playing = position is not None and state.phase is not Phase.OVER
        candidates = tuple(move.text() for move in state.candidates)
        labels = tuple(self._labels())
        listing = state.phase in (Phase.CHOOSING, Phase.ROLL)
        selected = state.selected if listing else None
        path: tuple[str, ...] = ()
        label = ""
        if selected is not None and state.candidates:
            path = state.candidates[selected].regions()
            label = f"{selected + 1} of {len(candidates)}: {labels[selected]}"
        return RefereeView(
            phase=state.phase,
            position=position,
            to_move=self.game.to_move(position) if playing and position is not None else None,
            targets=(
                self.game.legal_targets(position)
                if playing and position is not None and state.phase in (Phase.TURN, Phase.ROLL)
                else frozenset()
            ),
            candidates=candidates if listing else (),
            selected=selected,
            path=path,
            path_label=label,
            marked=state.marked,
            message=state.message,
            severity=state.severity,
            last_moves=tuple(state.log[-8:]),
            scores=self.game.scores(position) if position is not None else {},
            table=self.game.layout(position) if position is not None else TableState(),
            result=(
                self.game.result(position).text()
                if position is not None and state.phase is Phase.OVER
                else None
            ),
            device_trouble=tuple(state.trouble.values()),
            awaited_roll=(state.tally.awaited() if state.tally is not None
                          and state.phase is Phase.ROLL else None),
            facts=self._facts(),
            candidate_labels=labels if listing else (),
            last_path=self._last_path() if playing and not listing else (),
            rolls_shown=state.rolls_shown,
        )

    def _last_path(self) -> tuple[str, ...]:
        """The regions of the last move accepted, or of the last one before a resume."""
        if self._state.history:
            return self._state.history[-1].move.regions()
        return self._state.resumed_path

    # Events -------------------------------------------------------------------------------------

    def _device(self, event: DeviceStatus) -> list[Effect]:
        if not event.lasting:
            if event.message is not None:
                self._say(f"{self._state.message} {event.message}", "warning")
            return []
        if event.message is None:
            self._state.trouble.pop(event.device, None)
        else:
            self._state.trouble[event.device] = event.message
        return []

    def _press(self, press: Press) -> list[Effect]:
        phase = self._state.phase
        if phase is Phase.SETUP:
            return self._press_in_setup(press)
        if phase is Phase.OVER:
            if press.button == "UNDO":  # the last move was misread and ended the game
                return self._ask_undo()
            self._say("The game is over; start a new game to play again.", "info")
            return []
        if phase is Phase.CHOOSING:
            return self._press_while_choosing(press)
        if phase is Phase.UNDO:
            return self._press_while_undoing(press)
        if phase is Phase.ROLL and press.button != "UNDO":
            return self._press_while_rolling(press)
        if phase is Phase.RESTORE:
            if press.button == "UNDO":  # the move was misread: take it back, not finish it
                self._state.restoring = self._state.marked
                return self._ask_undo()
            return [WantFrame()] if press.button in ("CONFIRM", f"END{self._mover()}") else []
        if press.button == "UNDO":
            return self._ask_undo()
        if end_button_seat(press.button) is not None:
            return self._end_turn(press)
        return []

    def _press_in_setup(self, press: Press) -> list[Effect]:
        if press.button == "CONFIRM" and self._state.position is not None:
            return self._confirm_layout(press.source)
        self._state.phase = Phase.SETUP
        self._state.candidates = []
        self._say("Reading the board...", "info")
        return [WantFrame()]

    def _end_turn(self, press: Press) -> list[Effect]:
        player = self._mover()
        if press.button != f"END{player}":
            self._say(f"It is player {player}'s turn; only their button ends it.", "warning")
            return []
        self._state.phase = Phase.READING
        self._state.marked, self._state.over_camera = (), ()
        self._say("Looking at the board...", "info")
        return [WantFrame()]

    def _press_while_choosing(self, press: Press) -> list[Effect]:
        state = self._state
        if press.button == "SELECT":
            state.selected = (state.selected + 1) % len(state.candidates)
            if state.over_camera:
                self._say_over_camera()
            else:
                self._say_choice()
            return []
        if press.button == "CONFIRM":
            move = state.candidates[state.selected]
            if len({self.game.card_of(candidate) for candidate in state.candidates}) > 1:
                state.card_source = press.source
            text = f"{len(state.candidates)} moves looked alike; {move.text()} was chosen."
            if state.over_camera:
                text = (f"{move.text()} was accepted over the camera, which saw "
                        f"{', '.join(state.over_camera)} otherwise.")
            ruling = Record("ruling", {
                "ruling": "ask",
                "player": self._mover(),
                "candidates": [candidate.text() for candidate in state.candidates],
                "chosen": move.text(),
                "source": press.source,
                "state_hash": self._current().state_hash(),
                "text": text,
            })
            return [ruling, *self._accept(move, press.source)]
        if press.button == f"END{self._mover()}":
            return self._end_turn(press)
        if press.button == "UNDO":
            self._begin_turn("Choice cancelled; fix the board if needed and press your button.")
            return [Lights(turn=self._mover())]
        return []

    def _ask_undo(self) -> list[Effect]:
        if not self._state.history:
            self._say("There is no move to take back yet.", "info")
            return []
        self._state.phase = Phase.UNDO
        last = self._state.history[-1].move.text()
        self._say(f"Press confirm to take back {last}; any other button keeps it.", "warning")
        return [Lights(turn=self._mover(), verdict="ask")]

    def _press_while_undoing(self, press: Press) -> list[Effect]:
        restoring, self._state.restoring = self._state.restoring, ()
        if press.button != "CONFIRM":
            self._begin_turn("The move stands.")
            if restoring:  # still to be finished by hand, as before the undo was asked
                self._state.phase, self._state.marked = Phase.RESTORE, restoring
                self._say("The move stands; finish it by hand as marked, then press confirm.",
                          "warning")
                return [Lights(turn=self._mover(), verdict="ask")]
            return [Lights(turn=self._lit_turn())]
        turn = self._state.history.pop()
        del self._state.log[len(self._state.log) - 1 - turn.passes:]
        self._state.position = turn.before
        self._state.card_note = ""
        record = Record("correction", {
            "correction": "undo",
            "state_hash": turn.before.state_hash(),
            "source": press.source,
            "text": f"{turn.move.text()} taken back",
        })
        self._begin_turn(f"{turn.move.text()} taken back; put the board back as shown.")
        return [record, Lights(turn=self._mover())]

    def _seen(self, seen: Seen) -> list[Effect]:
        if self._state.phase is Phase.SETUP:
            return self._layout_seen(seen)
        if self._state.phase is not Phase.READING:
            return []
        position = self._current()
        self._state.frame = seen.frame
        moves = self.game.candidates(position, seen.observation)
        if not moves:
            unsure = unsure_squares(seen.observation)
            moves = moves_fitting_except(self.game, position, seen.observation, unsure)
        region = self.game.card_region(position)
        card = card_seen(seen.observation, region) if region is not None else None
        judged = judge_card(self.game, position, moves, card)
        if judged.problem:
            return self._reject_card(position, region or "", judged.problem, seen.observation,
                                     moves)
        moves, self._state.card_source = judged.moves, judged.source
        self._state.last_seen = seen.observation
        if len(moves) == 1:
            return self._accept(moves[0], "camera")
        if moves:
            self._state.phase = Phase.CHOOSING
            self._state.candidates = moves
            self._state.selected = 0
            self._say_choice()
            return [Lights(turn=self._mover(), verdict="ask")]
        insisted = self._offer_over_camera(position, seen.observation)
        if insisted:
            return insisted
        return self._reject(position, seen.observation)

    def _offer_over_camera(self, position: Position, observation: Observation) -> list[Effect]:
        """Offer the nearest legal move when the player pressed again on a board unchanged since
        its rejection (squares the camera is unsure of aside), if it differs little from it."""
        state = self._state
        if state.rejected is None or not unchanged_since(state.rejected, observation):
            return []
        moves, differing = nearest_moves(self.game, position, seen_looks(observation))
        if not moves or not 0 < len(differing) <= INSIST_SQUARES:
            return []
        state.phase, state.candidates, state.selected = Phase.CHOOSING, moves, 0
        state.marked = state.over_camera = tuple(difference.square for difference in differing)
        self._say_over_camera()
        return [Lights(turn=self._mover(), verdict="ask")]

    def _say_over_camera(self) -> None:
        state = self._state
        move = state.candidates[state.selected]
        others = (f" ({state.selected + 1} of {len(state.candidates)} alike; select shows the "
                  "next)" if len(state.candidates) > 1 else "")
        self._say(
            f"The board is as before. If you played {move.text()}{others}, the camera misreads "
            f"{', '.join(state.over_camera)}: press confirm to accept it; otherwise press UNDO "
            "and put the board right.", "warning",
        )

    # Setup --------------------------------------------------------------------------------------

    def _layout_seen(self, seen: Seen) -> list[Effect]:
        try:
            position = self.game.position_from_reading(self.template, seen.observation)
        except ValueError as error:
            self._say(f"The layout cannot start a game ({error}); fix the coins and press select.",
                      "error")
            return [Lights(turn=None, verdict="red")]
        self._state.position = position
        note = count_note(self.game, self.template, position)
        self._say(
            "Check the board on the screen: confirm starts the game, select reads it again."
            + (f" {note}" if note else ""),
            "info" if not note else "warning",
        )
        return [Lights(turn=None, verdict="ask", all_turns_blink=True)]

    def _confirm_layout(self, source: str) -> list[Effect]:
        position = self._current()
        self._begin_turn("Layout confirmed; the game begins.")
        return [Begin(position), *self._passes_until_move([]),
                Lights(turn=self._lit_turn(), verdict=self._lamp())]

    # Verdicts -----------------------------------------------------------------------------------

    def _accept(self, move: Move, source: str) -> list[Effect]:
        state = self._state
        before = self._current()
        player = self.game.to_move(before)
        after = self.game.apply(before, move)
        state.position = after
        state.log.append(f"{player}: {move.text()}")
        fields: dict[str, object] = {
            "player": player,
            "move": move.text(),
            "source": source,
            "state_hash": after.state_hash(),
            "frame": state.frame,
        }
        card = self.game.card_of(move)
        state.card_note = ""
        if card is not None:
            fields["card"] = card
            fields["card_source"] = state.card_source or source
            state.card_note = card_words(card, str(fields["card_source"]))
        record = Record("move", fields)
        state.history.append(_Turn(before, move, 0))
        times = 1 + sum(turn.before == after for turn in state.history)
        note = f"{self.game.table_note(before, move)} {self.game.repetition_note(times)}".strip()
        seen, state.last_seen = state.last_seen, None
        self._begin_turn(f"Player {player} played {move.text()}. {note}".strip())
        by_hand = self._left_by_hand(before, move, seen)
        if by_hand:
            state.phase, state.marked = Phase.RESTORE, tuple(d.square for d in by_hand)
            self._say(f"Player {player} played {move.text()}. {note} Now {describe(by_hand)}; "
                      "then press confirm.", "warning")
            return [record, Lights(turn=player, verdict="ask")]
        passes = self._passes_until_move(state.history)
        return [record, *passes, Lights(turn=self._lit_turn(), verdict="green")]

    # Forced actions and the end -------------------------------------------------------------------

    def _passes_until_move(self, history: list[_Turn]) -> list[Effect]:
        """Apply the forced actions (a pass) while the game has one for the player to move, and
        wait for a roll at a chance node."""
        effects: list[Effect] = []
        notes: list[str] = []
        while not self.game.is_over(self._current()):
            position = self._current()
            if self.game.is_chance(position):
                break
            first = self.game.forced(position)
            if first is None:
                break
            player = self.game.to_move(position)
            self._state.position = self.game.apply(position, first)
            self._state.log.append(f"{player}: {first.text()}")
            if history:
                history[-1].passes += 1
            notes.append(f"Player {player} has no legal move and passes.")
            effects.append(Record("pass", {
                "player": player, "move": first.text(), "source": "referee",
                "state_hash": self._current().state_hash(),
            }))
        if self.game.is_over(self._current()):
            self._state.phase = Phase.OVER
            announcement = self.game.result(self._current()).announcement()
            notes.append(announcement)
            effects.append(Record("note", {
                "text": announcement, "source": "referee",
                "state_hash": self._current().state_hash(),
            }))
        if notes:
            self._say(" ".join([self._state.message, *notes]), "info")
        self._await_roll()
        return effects

    def _reject(self, position: Position, observation: Observation) -> list[Effect]:
        seen = seen_looks(observation)
        from_before = differences(appearance(self.game, position), seen)
        nearest = nearest_move(self.game, position, seen)
        player = self._mover()
        self._state.phase = Phase.TURN
        if not from_before:
            self._state.marked = ()
            self._say(f"Nothing has changed on the board yet, player {player}: make your move, "
                      "then press your button.", "warning")
            return [Lights(turn=player, verdict="red")]
        self._state.marked = tuple(difference.square for difference in from_before)
        self._state.rejected = observation
        advice = f"To undo it: {describe(from_before)}."
        if nearest is not None and nearest[1] and len(nearest[1]) < len(from_before):
            advice += f" The nearest legal move, {nearest[0].text()}, differs at " + ", ".join(
                difference.square for difference in nearest[1][:6]) + "."
        advice += " Then press your button again."
        if nearest is not None and 0 < len(nearest[1]) <= INSIST_SQUARES:
            advice += (f" If you did play {nearest[0].text()} and the camera misreads it, press "
                       "your button again without touching the board.")
        self._say(f"That is not a legal move. {advice}", "error")
        record = Record("ruling", {
            "ruling": "reject",
            "player": player,
            "regions": [difference.square for difference in from_before],
            "frame": self._state.frame,
            "source": "camera",
            "state_hash": position.state_hash(),
            "text": self._state.message,
        })
        return [record, Lights(turn=player, verdict="red")]

    # Helpers ------------------------------------------------------------------------------------

    def _current(self) -> Position:
        if self._state.position is None:
            raise RuntimeError("the referee has no position before the layout is confirmed")
        return self._state.position

    def _mover(self) -> int:
        return self.game.to_move(self._current())

    def _lit_turn(self) -> int | None:
        return None if self._state.phase is Phase.OVER else self._mover()

    def _begin_turn(self, message: str, prompt: bool = True) -> None:
        state = self._state
        state.phase = Phase.OVER if self.game.is_over(self._current()) else Phase.TURN
        state.candidates, state.selected, state.marked = [], 0, ()
        state.rejected, state.over_camera, state.card_rejected = None, (), None
        state.restore_refused = None
        state.tally, state.reading_dice = None, False
        told = self.game.prompt(self._current()) if prompt and state.phase is Phase.TURN else ""
        self._say(f"{message} {told}".strip(), "info")

    def _labels(self) -> list[str]:
        """What the screen says of each candidate (the game's words for what tells it apart)."""
        state = self._state
        if not state.candidates or state.position is None or state.phase is Phase.ROLL:
            return [move.text() for move in state.candidates]
        return self.game.choice_labels(state.position, state.candidates)

    def _say_choice(self) -> None:
        state = self._state
        label = self._labels()[state.selected]
        self._say(
            f"{len(state.candidates)} moves look the same to the camera. Showing "
            f"{state.selected + 1}: {label}. Select shows the next, confirm accepts it.",
            "warning",
        )

    def _say(self, message: str, severity: str) -> None:
        self._state.message = message
        self._state.severity = severity


__all__ = [
    "INSIST_SQUARES",
    "Begin",
    "DeviceStatus",
    "Effect",
    "Event",
    "Lights",
    "Phase",
    "Press",
    "Record",
    "Referee",
    "RefereeView",
    "Seen",
    "WantFrame",
    "end_button_seat",
]
