"""The referee at a roll: chance nodes and nodes settled by real dice.

Where a game names the real dice that settle a node (:meth:`Game.dice_rolls`: Coin Grid's die at
a turn start, a battle's dice a side), the roller throws them in the mat's tray and presses their
button; the camera reads the dice when the tray is still, and the game turns the faces into the
outcome (:meth:`Game.outcome_of_dice`; a tied battle is rolled again). ROLL has the companion
roll the same dice with its own random source instead; select and confirm enter the outcome by
hand. Every outcome is recorded with its source (``camera``, ``random``, or the button's) and the
faces rolled, so replay needs no random source. A node that is a decision as well (roll, or make
a double stack) lists its choices for select and confirm too.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from companion.games.base import DiceRoll, Game, Move, Position
from companion.judging import (
    INSIST_SQUARES,
    appearance,
    describe,
    differences,
    seen_looks,
    unchanged_since,
    unsure_squares,
)
from companion.referee_events import (
    Effect,
    Lights,
    Phase,
    Press,
    Record,
    RollShown,
    Seen,
    WantFrame,
)
from contract.observation import DieReading, Observation

if TYPE_CHECKING:
    from companion.referee import _State, _Turn

#: A die read with less confidence than this is not taken; the roller throws again.
SURE_DIE = 0.5
#: How many tied rounds the companion rolls again before it gives up (never met in practice).
MAX_TIES = 100


@dataclass
class RollTally:
    """The real dice read so far at a node that takes ``rolls`` (a battle takes two), and the
    tied rounds before this one."""

    rolls: tuple[DiceRoll, ...]
    faces: list[tuple[int, ...]] = field(default_factory=list)
    tied: list[tuple[tuple[int, ...], ...]] = field(default_factory=list)
    colours: list[tuple[str, ...]] = field(default_factory=list)

    def awaited(self) -> DiceRoll | None:
        """The next roll to read, or None when every roll of the round is in."""
        return self.rolls[len(self.faces)] if len(self.faces) < len(self.rolls) else None

    def add(self, faces: Sequence[int], colours: Sequence[str] = ()) -> None:
        """The awaited roll came out as ``faces`` (on dice of these ``colours``, when seen)."""
        if not self.faces:
            self.colours = []
        self.faces.append(tuple(faces))
        self.colours.append(tuple(colours))

    def roll_again(self) -> None:
        """The round settled nothing (a tie): keep it for the record and start the next."""
        self.tied.append(tuple(self.faces))
        self.faces = []

    def record(self) -> list[list[list[int]]]:
        """Every round's rolls, tied rounds first: the journal's ``dice`` field."""
        rounds = [*self.tied, tuple(self.faces)]
        return [[list(faces) for faces in round_] for round_ in rounds]


def rolls_shown(tally: RollTally, source: str) -> tuple[RollShown, ...]:
    """The rolls of ``tally``'s round so far (the tied round just ended, when none is in yet)
    for the screen, given by ``source``."""
    faces = tally.faces or (list(tally.tied[-1]) if tally.tied else [])
    colours = [*tally.colours, *[()] * len(faces)][:len(faces)]
    return tuple(RollShown(roll.label, tuple(rolled), source, roll.halved, colours=colour)
                 for roll, rolled, colour in zip(tally.rolls, faces, colours, strict=False))


def entered_roll(game: Game, position: Position, outcome: Move, source: str
                 ) -> tuple[RollShown, ...]:
    """An outcome entered by hand as the screen shows it: a node of one die shows the face
    whose outcome it is, others the outcome in words."""
    rolls = game.dice_rolls(position)
    if not rolls:
        return ()
    if len(rolls) == 1 and rolls[0].dice == 1:
        for face in range(1, 7):
            if game.outcome_of_dice(position, [(face,)]) == outcome:
                return (RollShown(rolls[0].label, (face,), source, rolls[0].halved),)
    return (RollShown(rolls[0].label, (), source, entered=outcome.text()),)


def dice_in(observation: Observation) -> tuple[DieReading, ...]:
    """Every die vision saw, in whatever region (a mat has one tray)."""
    return tuple(die for reading in observation.regions.values() for die in reading.dice)


def read_roll(observation: Observation, roll: DiceRoll) -> tuple[tuple[int, ...] | None, str]:
    """The faces of ``roll`` as the camera read them, or None and one sentence saying why they
    cannot be taken (no dice, too many, one cocked or unclear)."""
    dice = dice_in(observation)
    wanted = f"{roll.dice} {'die' if roll.dice == 1 else 'dice'}"
    if not dice:
        return None, f"No dice are in the tray; {roll.label} takes {wanted}."
    if any(die.value is None for die in dice):
        return None, "A die is cocked or hidden, so its top cannot be read."
    unclear = [die for die in dice if die.confidence < SURE_DIE]
    if unclear:
        return None, f"The camera is unsure of the {unclear[0].colour} die's top."
    if len(dice) != roll.dice:
        return None, f"The tray holds {len(dice)} dice; {roll.label} takes {wanted}."
    return tuple(sorted(die.value for die in dice if die.value is not None)), ""


def colours_read(observation: Observation) -> tuple[str, ...]:
    """The colours of the dice the camera read, in the order of their faces (smallest first)."""
    dice = sorted(dice_in(observation), key=lambda die: die.value or 0)
    return tuple(die.colour for die in dice)


def roll_words(roll: DiceRoll, faces: Sequence[int]) -> str:
    """``South's attack on c4: 5 and 3, halved to 4``."""
    shown = " and ".join(str(face) for face in faces)
    counted = f", halved to {roll.total(faces)}" if roll.halved else ""
    return f"{roll.label}: {shown}{counted}"


def rolled_words(tally: RollTally | None) -> str:
    """The rolls of the round so far in words: ``South's roll: 4.`` (empty before any)."""
    if tally is None or not tally.faces:
        return ""
    return ". ".join(roll_words(roll, faces)
                     for roll, faces in zip(tally.rolls, tally.faces, strict=False)) + "."


def how_to_roll(roll: DiceRoll, by_hand: str) -> str:
    """What the roller does: ``South's roll: roll 1 die in the tray and press END1 ...``."""
    wanted = f"{roll.dice} {'die' if roll.dice == 1 else 'dice'}"
    halved = " (halved)" if roll.halved else ""
    return (f"{roll.label}{halved}: roll {wanted} in the tray and press END{roll.player}; ROLL "
            f"has the companion roll; select and confirm enter {by_hand}.")


class RollingReferee:
    """The referee's roll phase (mixed into :class:`companion.referee.Referee`)."""

    game: Game
    dice: random.Random | None
    _state: _State
    _random: random.Random

    if TYPE_CHECKING:  # the referee's own, which the roll phase calls
        def _current(self) -> Position: ...
        def _mover(self) -> int: ...
        def _lit_turn(self) -> int | None: ...
        def _begin_turn(self, message: str, prompt: bool = True) -> None: ...
        def _say(self, message: str, severity: str) -> None: ...
        def _passes_until_move(self, history: list[_Turn]) -> list[Effect]: ...

    def _await_roll(self) -> None:
        """At a chance node, or a node real dice settle, wait for the roll: list the outcomes
        (and the node's other choices) and say how to give one."""
        state = self._state
        position = self._current()
        rolls = self.game.dice_rolls(position) if state.phase is not Phase.OVER else ()
        chance = state.phase is not Phase.OVER and self.game.is_chance(position)
        if not chance and not rolls:
            return
        state.phase, state.selected = Phase.ROLL, 0
        state.candidates = ([outcome for outcome, _ in self.game.chance_outcomes(position)]
                            if chance else self.game.legal_moves(position))
        state.tally = RollTally(rolls) if rolls else None
        self._say_roll()

    def _say_roll(self, before: str = "") -> None:
        state = self._state
        lead = " ".join(part for part in (before or state.message,) if part)
        if self.dice is not None:
            self._say(f"{lead} Player {self._mover()}: press ROLL (or confirm) to roll.", "info")
            return
        shown = state.candidates[state.selected].text()
        awaited = state.tally.awaited() if state.tally is not None else None
        if awaited is not None:
            prompt = self.game.prompt(self._current())
            prompt = "" if prompt in lead else prompt
            self._say(" ".join(part for part in (lead, prompt, how_to_roll(
                awaited, f"the outcome ({shown})")) if part), "info")
            return
        self._say(f"{lead} Player {self._mover()}: roll your dice, then show the roll with "
                  f"select ({shown}) and enter it with confirm.", "info")

    def _press_while_rolling(self, press: Press) -> list[Effect]:
        state = self._state
        if self.dice is not None:
            if press.button not in ("ROLL", "CONFIRM", f"END{self._mover()}"):
                return []
            return self._companion_rolls(self.dice)
        awaited = state.tally.awaited() if state.tally is not None else None
        if press.button == "ROLL":
            return self._companion_rolls(self._random)
        if awaited is not None and press.button == f"END{awaited.player}":
            state.reading_dice = True
            self._say(f"Reading {awaited.label}...", "info")
            return [WantFrame()]
        if press.button == "SELECT":
            state.selected = (state.selected + 1) % len(state.candidates)
            self._say_roll(self._roll_lead())
            return []
        if press.button == "CONFIRM":
            return self._apply_roll(state.candidates[state.selected], press.source)
        return []

    def _roll_lead(self) -> str:
        """The dice read so far at this node, in words (empty before any)."""
        return rolled_words(self._state.tally)

    def _companion_rolls(self, rng: random.Random) -> list[Effect]:
        """Roll for the players: the node's real dice when it has them (ties rolled again),
        else one outcome by its probability."""
        position = self._current()
        rolls = self.game.dice_rolls(position)
        if not rolls:
            outcomes = self.game.chance_outcomes(position)
            outcome = rng.choices([move for move, _ in outcomes],
                                  weights=[float(chance) for _, chance in outcomes])[0]
            return self._apply_roll(outcome, "random")
        tally = RollTally(rolls)
        for _ in range(MAX_TIES):
            for roll in rolls:
                tally.add([rng.randint(1, 6) for _ in range(roll.dice)])
            rolled = self.game.outcome_of_dice(position, tally.faces)
            if rolled is not None:
                return self._apply_roll(rolled, "random", tally)
            tally.roll_again()
        self._say("The dice kept tying; roll them at the table.", "warning")
        return []

    def _dice_seen(self, seen: Seen) -> list[Effect]:
        """The camera's view of the tray after the roller pressed their button."""
        state = self._state
        state.reading_dice = False
        tally = state.tally
        awaited = tally.awaited() if tally is not None else None
        if tally is None or awaited is None:
            return []
        faces, problem = read_roll(seen.observation, awaited)
        if faces is None:
            self._say(f"{problem} {how_to_roll(awaited, 'the outcome')}", "warning")
            return [Lights(turn=awaited.player, verdict="red")]
        state.frame = seen.frame
        tally.add(faces, colours_read(seen.observation))
        state.rolls_shown = rolls_shown(tally, "camera")
        following = tally.awaited()
        if following is not None:
            self._say(f"{roll_words(awaited, faces)}. {how_to_roll(following, 'the outcome')}",
                      "info")
            return [Lights(turn=following.player, verdict="ask")]
        outcome = self.game.outcome_of_dice(self._current(), tally.faces)
        if outcome is None:
            said = self._roll_lead()
            tally.roll_again()
            first = tally.awaited()
            assert first is not None
            self._say(f"{said} A tie: roll again. {how_to_roll(first, 'the outcome')}", "warning")
            return [Lights(turn=first.player, verdict="ask")]
        return self._apply_roll(outcome, "camera", tally)

    def _apply_roll(self, outcome: Move, source: str, tally: RollTally | None = None
                    ) -> list[Effect]:
        """Apply an outcome given by ``source`` (with the dice rolled, if any) and record it,
        then go on to the move."""
        state = self._state
        before = self._current()
        player = self.game.to_move(before)
        lead = rolled_words(tally)
        rolled = outcome in [move for move, _ in self.game.chance_outcomes(before)]
        state.position = self.game.apply(before, outcome)
        state.log.append(f"{player}: {outcome.text()}")
        if state.history:
            state.history[-1].passes += 1
        fields: dict[str, object] = {"player": player, "move": outcome.text(), "source": source,
                                     "state_hash": state.position.state_hash()}
        if tally is not None:
            state.rolls_shown = rolls_shown(tally, source)
        elif rolled:
            state.rolls_shown = entered_roll(self.game, before, outcome, source)
        if tally is not None:
            fields["dice"] = tally.record()
            if source == "camera" and state.frame is not None:
                fields["frame"] = state.frame
        record = Record("move", fields)
        note = self.game.table_note(before, outcome)
        changed = differences(appearance(self.game, state.position),
                              appearance(self.game, before))
        verb = "rolled" if rolled else "played"
        self._begin_turn(f"{lead} Player {player} {verb} {outcome.text()}. {note}".strip(),
                         prompt=not changed)
        if changed:
            state.phase, state.marked = Phase.RESTORE, tuple(d.square for d in changed)
            self._say(f"{state.message} Now {describe(changed)}; then press confirm.", "warning")
            return [record, Lights(turn=player, verdict="ask")]
        rest = self._passes_until_move(state.history)
        return [record, *rest, Lights(turn=self._lit_turn(), verdict=self._lamp())]

    def _restore_seen(self, seen: Seen) -> list[Effect]:
        """The camera's view after the players changed the board as a move or roll asked: go
        on when it shows the position (regions the camera is unsure of aside), else say what
        still differs. Pressed again on a board unchanged since, where little differs, the
        players' word goes over the camera's, and the journal says so."""
        state = self._state
        unsure = unsure_squares(seen.observation)
        left = [difference for difference in differences(
            appearance(self.game, self._current()), seen_looks(seen.observation))
            if difference.square not in unsure]
        refused, state.restore_refused = state.restore_refused, None
        if left and not self._insisted(refused, seen.observation, len(left)):
            state.restore_refused = seen.observation
            state.marked = tuple(difference.square for difference in left)
            self._say(f"The board is not as it should be yet: {describe(left)}; then press "
                      "confirm. If it is right and the camera misreads it, press confirm again "
                      "without touching the board.", "error")
            return [Lights(turn=self._mover(), verdict="red")]
        effects: list[Effect] = []
        if left:
            text = ("The players confirmed the board over the camera, which saw "
                    f"{', '.join(difference.square for difference in left)} otherwise.")
            effects.append(Record("note", {"text": text, "source": "referee",
                                           "state_hash": self._current().state_hash()}))
            self._begin_turn(text)
        else:
            self._begin_turn("The board is as it should be.")
        rest = self._passes_until_move(state.history)
        return [*effects, *rest, Lights(turn=self._lit_turn(), verdict=self._lamp())]

    def _insisted(self, refused: Observation | None, observation: Observation,
                  differing: int) -> bool:
        """Whether the players pressed again on a board the camera sees as it did when it was
        refused (regions it is unsure of aside), with few regions left to differ."""
        return (refused is not None and differing <= INSIST_SQUARES
                and unchanged_since(refused, observation))

    def _lamp(self) -> str | None:
        """The verdict lamp for the phase: ask while a roll is awaited."""
        return "ask" if self._state.phase is Phase.ROLL else None
