"""The referee with cards: the card the mover laid on their discard spot, and whose word it is.

In a card game (:meth:`Game.card_region` names where the mover lays the card they play) the
coins alone may fit plays of several cards (a coin ten spaces on: a 10, J, Q or K), and a discard
changes no coin at all. The card is then taken, in this order, from

* the camera, when it reads the card on the mover's discard spot with confidence
  (:data:`SURE_CARD`): only the plays of that card stand, and when none of them fits the coins
  the move is rejected, saying what that card can do;
* the coins, when every fitting play is of one card (``inferred``);
* the panel otherwise: the plays are listed (a card the camera read without confidence first)
  and the players select and confirm, which also confirms an unsure reading.

How the card was known (``camera``, ``inferred`` or the button's source) goes into the move's
journal line with the card, so the record holds every card played and its source.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from companion.games.base import Game, Move, Position
from companion.judging import Difference, appearance, differences, seen_looks, unsure_squares
from companion.referee_events import Effect, Lights, Phase, Record
from contract.observation import Observation

if TYPE_CHECKING:
    from companion.referee import _State

#: A card read with less confidence than this is asked about on the panel, not taken.
SURE_CARD = 0.8
#: How many legal plays a rejection names before ``...``.
PLAYS_NAMED = 6


@dataclass(frozen=True)
class CardSeen:
    """The camera's reading of a discard spot: the rank (None when no card could be read) and
    how sure it is."""

    rank: str | None
    confidence: float

    @property
    def sure(self) -> bool:
        """Whether the reading is taken without asking."""
        return self.rank is not None and self.confidence >= SURE_CARD


@dataclass(frozen=True)
class CardJudgement:
    """What the card makes of the moves that fit the coins: the moves left (several: ask on the
    panel), how the card is known (``camera``, ``inferred``, ``panel``; empty without cards),
    and the reason to reject when the card fits none of them."""

    moves: list[Move]
    source: str = ""
    problem: str = ""


def card_seen(observation: Observation, region: str) -> CardSeen | None:
    """The card the camera read on ``region``, or None when it saw no card there."""
    reading = observation.regions.get(region)
    card = reading.card if reading is not None else None
    return None if card is None else CardSeen(card.rank, card.confidence)


def judge_card(game: Game, position: Position, moves: list[Move], seen: CardSeen | None
               ) -> CardJudgement:
    """Narrow the moves that fit the coins by the card (see the module docstring)."""
    if game.card_region(position) is None:
        return CardJudgement(moves)
    plays = [variant for move in moves for variant in game.card_variants(position, move)]
    if seen is not None and seen.sure:
        fitting = [play for play in plays if game.card_of(play) == seen.rank]
        if fitting or not plays:
            return CardJudgement(fitting, "camera")
        return CardJudgement([], "camera", _wrong_card(game, position, plays, seen.rank or ""))
    if len({game.card_of(play) for play in plays}) <= 1:
        return CardJudgement(plays, "inferred")
    if seen is not None and seen.rank is not None:
        plays.sort(key=lambda play: game.card_of(play) != seen.rank)
    return CardJudgement(plays, "panel")


def card_words(card: str | None, source: str) -> str:
    """How the card of the last move was known, for the screen: ``The 5 was read by the
    camera.`` (empty when there is no card)."""
    if card is None or not source:
        return ""
    how = {"camera": "read by the camera", "inferred": "inferred from the coins"}.get(
        source, f"entered on the {source}")
    return f"The {card} was {how}."


def _wrong_card(game: Game, position: Position, plays: list[Move], rank: str) -> str:
    """Why the card on the discard spot fits none of the plays the coins show."""
    region = game.card_region(position)
    still = not any(game.changed_regions(position, play) for play in plays)
    cards = sorted({game.card_of(play) or "?" for play in plays})
    legal = sorted({variant.text() for move in game.iter_moves(position)
                    for variant in game.card_variants(position, move)
                    if game.card_of(variant) == rank and game.changed_regions(position, variant)})
    shown = ", ".join(legal[:PLAYS_NAMED]) + (", ..." if len(legal) > PLAYS_NAMED else "")
    moved = ("the coins have not moved, which is a discard" if still
             else f"the coins moved as {' or '.join(map(_named, cards))} plays")
    can = (f"{_named(rank)} must be played: its legal plays are {shown}" if legal
           else f"{_named(rank)} has no legal play (leave the coins and press to discard it)")
    return (f"The card on {region} is {_named(rank)}, but {moved}; {can}. Put the coins or "
            "the card right, then press your button again.")


def _named(rank: str) -> str:
    """``a 5``, ``an 8``, ``an A``."""
    return f"{'an' if rank in ('A', '8') else 'a'} {rank}"


class CardReferee:
    """The referee's part in a card game (mixed into :class:`companion.referee.Referee`): the
    screen's lines, a card that fits no play, and a bump finished by hand."""

    game: Game
    _state: _State

    if TYPE_CHECKING:  # the referee's own
        def _current(self) -> Position: ...
        def _mover(self) -> int: ...
        def _say(self, message: str, severity: str) -> None: ...

    def _facts(self) -> tuple[str, ...]:
        """The game's lines for the screen (the last move's card and how it was known)."""
        position = self._state.position
        if position is None:
            return ()
        history = self._state.history
        last = (history[-1].before, history[-1].move) if history else None
        note = tuple(line for line in self._state.card_note.splitlines() if line)
        return (*note, *self.game.facts(position, last))

    def _left_by_hand(self, before: Position, move: Move, seen: Observation | None
                      ) -> list[Difference]:
        """What the players still have to do by hand after ``move`` (a bumped coin onto its IN
        or into its supply, an entered coin out of its supply) where the camera sees it
        otherwise; regions it is unsure of aside, named on the screen instead."""
        regions = self.game.finished_by_hand(before, move)
        if seen is None or not regions:
            return []
        unsure = unsure_squares(seen) & regions
        if unsure:
            self._state.card_note += (f"\nCamera unsure of {', '.join(sorted(unsure))}:"
                                      " check by eye.")
        return [difference for difference in differences(
            appearance(self.game, self._current()), seen_looks(seen))
            if difference.square in regions and difference.square not in unsure]

    def _reject_card(self, position: Position, region: str, problem: str,
                     observation: Observation, moves: list[Move]) -> list[Effect]:
        """The card on the discard spot fits none of the plays the coins show: rejected, or,
        when the player presses again on the same board, the plays that fit the coins are
        offered for select and confirm (the camera may misread a card with confidence)."""
        state = self._state
        player = self._mover()
        rejected = state.card_rejected
        if rejected is not None and not differences(seen_looks(rejected), seen_looks(observation)):
            plays = [play for move in moves for play in self.game.card_variants(position, move)]
            state.phase, state.candidates, state.selected = Phase.CHOOSING, plays, 0
            state.card_source, state.marked = "panel", (region,)
            others = f" (select shows the other {len(plays) - 1})" if len(plays) > 1 else ""
            self._say(f"The board is as before and the camera still reads the card on {region} "
                      f"otherwise. If you played {plays[0].text()}{others}, press confirm; "
                      "otherwise press UNDO and put the card or the coins right.", "warning")
            return [Lights(turn=player, verdict="ask")]
        state.card_rejected = observation
        state.phase, state.marked = Phase.TURN, (region,)
        self._say(f"That is not a legal play. {problem} If the camera misreads the card, press "
                  "your button again without touching anything.", "error")
        record = Record("ruling", {
            "ruling": "reject",
            "player": player,
            "regions": [region],
            "frame": state.frame,
            "source": "camera",
            "state_hash": position.state_hash(),
            "text": state.message,
        })
        return [record, Lights(turn=player, verdict="red")]
