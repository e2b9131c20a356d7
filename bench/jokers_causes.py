"""What each of the referee's questions and misreadings in a Jokers and Coins demo came from,
told from the synthetic table's truth (used by ``bench/diagnose_jokers_demo.py``).

:class:`CauseTally` wraps a table's referee so every verdict on a frame is judged against
what the synthetic table really held when the frame was taken:

* an **ask** (the referee lists several plays) is put down to the card (``card not found``,
  ``card unsure``: the rank read below the sure confidence), to the coins (``track doubtful``,
  a space read with doubt let several plays fit; ``plays alike``, plays no camera can tell
  apart), or to an offer over the camera after a refusal;
* a **misreading** is a verdict the table's truth would not have given: a right board refused
  (``ring misread``), a card read surely wrong (``card read wrong``), a wrong play accepted, an
  ask whose plays leave out the one made, or the board refused after a bump was finished by
  hand (``restore refused``);
* a **check by hand** is a bump whose supply or IN the camera surely saw otherwise right after
  the move (the players are asked to put it right, though it was right).

Each comes with the regions read otherwise than the truth: (region, its kind, truth, reading,
confidence).
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from companion.judging import differences, seen_looks, unsure_squares
from companion.referee_cards import SURE_CARD, card_seen
from companion.referee_events import Phase, Seen
from contract.observation import Observation, RegionReading
from contract.table_state import RegionLook


@dataclass(frozen=True)
class Misread:
    """One region read otherwise than the truth."""

    region: str
    kind: str
    truth: str
    read: str
    confidence: float

    def text(self) -> str:
        """``t27 (ring space) 5 read as 6 @0.93``."""
        return (f"{self.region} ({self.kind}) {self.truth} read as {self.read} "
                f"@{self.confidence:.2f}")


@dataclass(frozen=True)
class Cause:
    """One verdict's cause: ``ask``, ``misreading`` or ``check by hand``, why, at which ply."""

    verdict: str
    cause: str
    ply: int
    regions: tuple[Misread, ...] = ()

    def to_json(self) -> dict[str, Any]:
        """The cause as JSON for ``causes.json``."""
        return {"verdict": self.verdict, "cause": self.cause, "ply": self.ply,
                "regions": [misread.text() for misread in self.regions]}


def region_kind(name: str) -> str:
    """The kind of a Jokers mat region, in words."""
    if name.startswith("supply-"):
        return "supply"
    if name.startswith("discard-"):
        return "discard spot"
    return "HOME space" if name.startswith("h") else "ring space"


def _look_text(look: RegionLook) -> str:
    if look.count or look.kinds:
        return f"{look.count} loose" + (f" {''.join(look.kinds)}" if look.kinds else "") + (
            f"+token {look.pawn}" if look.pawn else "")
    if look.coin:
        return look.coin
    return f"token {look.pawn}" if look.pawn else "empty"


@dataclass
class CauseTally:
    """Wraps a referee's reading of frames and tallies each verdict's cause (module docstring).

    ``truth_of`` gives the truth's reading of a Seen event's frame (region -> reading, None
    when the frame's scene is unknown); ``ply`` the plies standing."""

    truth_of: Callable[[str | None], Mapping[str, RegionReading] | None]
    ply: Callable[[], int]
    #: Each cause is also written here as it comes, a JSON line (a run cut short keeps them).
    log: Path | None = None
    causes: list[Cause] = field(default_factory=list)
    game: Any = None
    labels: Mapping[str, str] = field(default_factory=dict)

    def attach(self, table: Any) -> None:
        """Wrap ``table``'s referee so each verdict on a frame is tallied."""
        referee = table.parts.referee
        self.game = table.parts.game
        self.labels = {seat.colour: str(seat.number) for seat in table.parts.seats}
        reading, restoring = referee._seen, referee._restore_seen

        def seen(event: Seen) -> Any:
            phase, position = referee.phase, referee.position
            history = len(referee._state.history)
            effects = reading(event)
            if phase is Phase.READING and position is not None:
                self._reading(referee, position, history, event)
            return effects

        def restore(event: Seen) -> Any:
            effects = restoring(event)
            if referee.phase is Phase.RESTORE:
                self._add("misreading", "restore refused", event, referee._state.marked,
                          all_regions=False)
            return effects

        referee._seen, referee._restore_seen = seen, restore

    # Judging -------------------------------------------------------------------------------------

    def _reading(self, referee: Any, position: Any, history: int, event: Seen) -> None:
        state, truth = referee._state, self._truth_observation(event.frame)
        if referee.phase is Phase.CHOOSING:
            self._asked(referee, position, event, truth)
        elif len(state.history) > history:
            self._accepted(referee, position, event, truth)
        elif state.card_rejected is event.observation:
            self._add("misreading", "card read wrong", event,
                      (self.game.card_region(position),), all_regions=False)
        elif truth is not None and self._ring_differs(event.observation, truth):
            self._add("misreading", "ring misread", event)

    def _asked(self, referee: Any, position: Any, event: Seen, truth: Observation | None
               ) -> None:
        state, game = referee._state, self.game
        if state.over_camera:
            self._add("ask", "over the camera after a refusal", event, state.over_camera)
            return
        plays = state.candidates
        if truth is not None and not any(play in _plays_fitting(game, position, truth)
                                         for play in plays):
            self._add("misreading", "ask without the play made", event)
            return
        looks = {_ring_key(game, game.apply(position, play)) for play in plays}
        if len(looks) > 1:  # plays that differ on the ring: doubtful spaces, or none
            seen, empty = seen_looks(event.observation), RegionLook()
            unsure = tuple(sorted(name for name in unsure_squares(event.observation)
                                  if any(dict(look).get(name, empty) != seen.get(name, empty)
                                         for look in looks)))
            self._add("ask", "track doubtful" if unsure else "plays alike", event, unsure)
            return
        region = game.card_region(position)
        card = card_seen(event.observation, region)
        cause = ("card not found" if card is None or card.rank is None
                 else "card unsure" if card.confidence < SURE_CARD else "card sure, plays alike")
        self._add("ask", cause, event, (region,), all_regions=False)

    def _accepted(self, referee: Any, position: Any, event: Seen, truth: Observation | None
                  ) -> None:
        state, game = referee._state, self.game
        move = state.history[-1].move
        if truth is not None and move not in _plays_fitting(game, position, truth):
            region = game.card_region(position)
            same_coins = move in [play for fitting in game.candidates(position, truth)
                                  for play in game.card_variants(position, fitting)]
            cause = "card read wrong, play accepted" if same_coins else "wrong play accepted"
            self._add("misreading", cause, event, (region,) if same_coins else ())
        elif referee.phase is Phase.RESTORE:
            marked = state.marked
            if truth is not None and any(name in marked for name in self._differing(event)):
                self._add("check by hand", "bump finished by hand seen wrong", event, marked,
                          all_regions=False)

    # Regions ----------------------------------------------------------------------------------

    def _truth_observation(self, frame: str | None) -> Observation | None:
        truth = self.truth_of(frame)
        if truth is None or self.game is None:
            return None
        observation = Observation(regions={  # a discard spot is judged by its card alone
            name: RegionReading(card=reading.card) if name.startswith("discard-") else reading
            for name, reading in truth.items()})
        return self.game.judged_observation(observation).relabel_pawns(self.labels)

    def _ring_differs(self, observation: Observation, truth: Observation) -> bool:
        return any(not name.startswith(("supply-", "discard-"))
                   for name in self._differing_of(observation, truth))

    def _differing(self, event: Seen) -> list[str]:
        truth = self._truth_observation(event.frame)
        return [] if truth is None else self._differing_of(event.observation, truth)

    @staticmethod
    def _differing_of(observation: Observation, truth: Observation) -> list[str]:
        return [difference.square for difference in differences(
            seen_looks(truth), seen_looks(observation))]

    def _add(self, verdict: str, cause: str, event: Seen, regions: tuple[str, ...] = (),
             all_regions: bool = True) -> None:
        """Tally one cause with the regions read otherwise than the truth (those named, and
        every one that differs when ``all_regions``), plus the discard spot's card."""
        truth = self._truth_observation(event.frame)
        names = list(regions)
        if truth is not None and all_regions:  # the ring decides the play: its regions
            names += [name for name in self._differing_of(event.observation, truth)
                      if name not in names and not name.startswith(("supply-", "discard-"))]
        found = []
        for name in names:
            seen = event.observation.regions.get(name, RegionReading())
            real = truth.regions.get(name, RegionReading()) if truth is not None else None
            found.append(Misread(name, region_kind(name), _reading_text(real),
                                 _reading_text(seen), _confidence(seen)))
        self.causes.append(Cause(verdict, cause, self.ply(), tuple(found)))
        if self.log is not None:
            self.log.parent.mkdir(parents=True, exist_ok=True)
            with self.log.open("a") as log:
                log.write(json.dumps(self.causes[-1].to_json()) + "\n")

    # Report -------------------------------------------------------------------------------------

    def summary(self) -> str:
        """Each verdict and cause with its count, and the regions behind the misreadings by
        kind."""
        counts = Counter((cause.verdict, cause.cause) for cause in self.causes)
        lines = [f"  {verdict}: {cause}: {count}" for (verdict, cause), count in
                 sorted(counts.items())]
        kinds: Counter[str] = Counter(
            f"{cause.verdict} / {misread.kind} {misread.truth} read as {misread.read}"
            for cause in self.causes for misread in cause.regions
            if misread.truth != misread.read)
        lines += [f"    {text}: {count}" for text, count in kinds.most_common(25)]
        return "\n".join(lines)


def _plays_fitting(game: Any, position: Any, truth: Observation) -> list[Any]:
    """The plays the truth's ring fits, each with every card that fits the truth's card."""
    moves = game.candidates(position, truth)
    plays = [play for move in moves for play in game.card_variants(position, move)]
    region = game.card_region(position)
    card = truth.regions.get(region, RegionReading()).card if region else None
    if card is None:
        return plays
    return [play for play in plays if game.card_of(play) == card.rank] or plays


def _ring_key(game: Any, position: Any) -> tuple[tuple[str, Any], ...]:
    looks = game.layout(position).looks()
    return tuple(sorted((name, look) for name, look in looks.items()
                        if not name.startswith("supply-")))


def _reading_text(reading: RegionReading | None) -> str:
    if reading is None:
        return "?"
    if reading.card is not None:
        return f"card {reading.card.rank}"
    return _look_text(seen_looks(Observation(regions={"x": reading}))["x"]) if (
        reading.coin or reading.pawn or reading.count or reading.kinds) else "empty"


def _confidence(reading: RegionReading) -> float:
    if reading.card is not None:
        return float(reading.card.confidence)
    return float(reading.confidence)
