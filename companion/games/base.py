"""The interface every rules engine implements and its exception family.

A game is an object with fixed hooks, as in OpenSpiel: the engine is pure (no I/O), positions and
moves are frozen values, and every child of a position is reached by one explicit action, a
player's move or a chance outcome (a die face, a card). Coin Isolation has no chance events;
Coin Grid's dice and Jokers and Coins' cards use :meth:`Game.is_chance` and
:meth:`Game.chance_outcomes`, and the chance outcome is then applied with :meth:`Game.apply` like
any move.
"""

from __future__ import annotations

import json
from abc import ABC, abstractmethod
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from enum import Enum
from itertools import islice
from typing import TYPE_CHECKING, Any

from contract.errors import CompanionError
from contract.schemas import check, load_schema
from contract.user_files import parse_json

if TYPE_CHECKING:  # only named in signatures: the pure rules commands need not load them
    from fractions import Fraction

    from contract.observation import Observation
    from contract.table_state import TableState


def counted_perft(position: Any, depth: int, children: Callable[[Any], Iterable[Any]],
                  count: Callable[[Any], int]) -> int:
    """perft over an engine's own fast steps: ``children(position)`` gives the child positions,
    ``count(position)`` the number of children without building them (the last ply)."""
    if depth <= 0:
        return 1
    if depth == 1:
        return count(position)
    return sum(counted_perft(child, depth - 1, children, count) for child in children(position))


#: A perft call remembers at most this many subtree counts; past it, it forgets them all.
PERFT_MEMO_LIMIT = 1 << 20


def remembered_perft(position: Any, depth: int, children: Callable[[Any], Iterable[Any]],
                     count: Callable[[Any], int]) -> int:
    """:func:`counted_perft`, with each subtree's count remembered by (position, depth) for
    the call, so a position two lines of play reach (a transposition) is counted once; the
    count is the same. Positions must be hashable values (frozen dataclasses)."""
    memo: dict[tuple[Any, int], int] = {}

    def walk(node: Any, left: int) -> int:
        if left <= 0:
            return 1
        key = (node, left)
        known = memo.get(key)
        if known is None:
            if len(memo) >= PERFT_MEMO_LIMIT:
                memo.clear()
            if left == 1:
                known = count(node)
            else:
                known = sum(walk(child, left - 1) for child in children(node))
            memo[key] = known
        return known

    return walk(position, depth)


class RulesError(CompanionError):
    """A failure of the rules engine: an unknown game, a bad position, a bad or illegal move."""


class PositionError(RulesError):
    """Position JSON that cannot be read: not JSON, unknown variant, bad square, coin or pawn."""


class NotationError(RulesError):
    """Move text that does not parse."""


class IllegalMoveError(RulesError):
    """A move that parses but is not legal in the given position."""


class Position(ABC):
    """A game state: a frozen value with a JSON form that round-trips."""

    @abstractmethod
    def to_json(self) -> dict[str, Any]:
        """The position as its documented JSON object."""

    def canonical_json(self) -> str:
        """The JSON text with sorted keys and no spaces: the same position gives the same text."""
        return json.dumps(self.to_json(), sort_keys=True, separators=(",", ":"))

    def state_hash(self) -> str:
        """A short stable hex hash of :meth:`canonical_json`, used by the game journal."""
        import hashlib

        return hashlib.sha256(self.canonical_json().encode()).hexdigest()[:16]


class Move(ABC):
    """One action: a player's move, a pass, or a chance outcome; a frozen value with text form."""

    @abstractmethod
    def text(self) -> str:
        """The notation of the move; ``parse_move(move.text()).text() == move.text()``."""

    @abstractmethod
    def regions(self) -> tuple[str, ...]:
        """Regions to draw for this move, in order (for Coin Isolation its path, target last)."""

    def __str__(self) -> str:
        return self.text()


class Termination(Enum):
    """Why a game ended, as python-chess's ``Termination`` says it of chess."""

    BLOCKED = "blocked"
    EXHAUSTED = "exhausted"
    QUIET = "quiet"
    GOAL = "goal"
    EMPTIED = "emptied"

    def text(self) -> str:
        """The reason in a player's words."""
        return {
            Termination.BLOCKED: "no player can move",
            Termination.EXHAUSTED: "nothing is left to take",
            Termination.QUIET: "too many rounds went by without a take",
            Termination.GOAL: "a player reached the goal",
            Termination.EMPTIED: "a player emptied the other without reaching the goal",
        }[self]


@dataclass(frozen=True)
class Result:
    """How a finished game ended: the winners (several when the tie stands), the scores, and
    why it ended.

    ``scores`` holds ``(player, score)`` pairs in player order; ``team`` says the winners won
    together as partners (not a tie); ``tie_broken`` says whether a tie
    on score was settled by the game's tie-break, which ``tie_break`` names
    (``"the last to take"``).
    """

    winners: tuple[int, ...]
    scores: tuple[tuple[int, int], ...]
    tie_broken: bool = False
    unit: str = ""
    termination: Termination | None = None
    tie_break: str = ""
    team: bool = False

    def text(self) -> str:
        """One line for the screen and the game record, e.g. ``player 1 wins (57¢ to 41¢)``."""
        figures = " to ".join(self._counted(score) for _, score in self.scores)
        if self.team and len(self.winners) > 1:
            names = " and ".join(str(player) for player in self.winners)
            return f"players {names} win as a team ({figures})"
        if len(self.winners) == 1:
            settled = f" by {self.tie_break}" if self.tie_break else ""
            note = f", tie broken{settled}" if self.tie_broken else ""
            return f"player {self.winners[0]} wins ({figures}{note})"
        names = ", ".join(str(player) for player in self.winners)
        return f"tie between players {names} ({figures})"

    def _counted(self, score: int) -> str:
        """``57¢``, ``3 coins``, ``1 coin``: a score with its unit."""
        if score == 1 and self.unit.startswith(" ") and self.unit.endswith("s"):
            return f"1{self.unit[:-1]}"
        return f"{score}{self.unit}"

    def announcement(self) -> str:
        """The game-over line of the screen and the record, with why the game ended:
        ``Game over (no player can move): player 1 wins (57¢ to 41¢).``"""
        why = f" ({self.termination.text()})" if self.termination else ""
        return f"Game over{why}: {self.text()}."

    def __str__(self) -> str:
        return self.text()


@dataclass(frozen=True)
class GameInfo:
    """What a game is, as OpenSpiel's ``GameType`` declares it: everything the table around the
    rules (help texts, calibration, the screen, the record) needs to know of a game.

    ``mat`` names its printed mat (see :func:`calibration.geometry.mat_for_game`);
    ``coin_kinds`` the coin letters it uses and ``token_colours`` its pawns' colours by seat;
    ``score_unit`` follows a score (``"¢"``); ``seat_heading`` heads what the screen shows per
    seat beside the score; ``seat_names`` names the seats by player count; ``variants`` maps
    each variant's name to one line saying what it changes (the help of ``--variants``);
    ``demo_plies`` caps a demo game where games can run long (by players; the demo says so);
    ``flat_tokens`` says its tokens are flat and coin-sized (Jokers and Coins' seats 5 and 6),
    not standing pawns; ``coin_kinds_by_players`` the kinds in play by player count, where fewer
    seats play fewer kinds (Jokers and Coins' seat 4 plays quarters: three seats play none).
    """

    title: str
    min_players: int
    max_players: int
    mat: str
    coin_kinds: str
    chance: bool = False
    hidden_information: bool = False
    token_colours: tuple[str, ...] = ()
    score_unit: str = ""
    seat_heading: str = "Taken"
    seat_names: Mapping[int, tuple[str, ...]] = field(default_factory=dict)
    variants: Mapping[str, str] = field(default_factory=dict)
    demo_plies: Mapping[int, int] = field(default_factory=dict)
    flat_tokens: bool = False
    coin_kinds_by_players: Mapping[int, str] = field(default_factory=dict)

    def coin_kinds_for(self, players: int) -> str:
        """The coin letters ``players`` players use: a coin of any other kind lies nowhere on
        the table, so the camera need not weigh it (``coin_kinds`` where the count changes
        nothing)."""
        return self.coin_kinds_by_players.get(players, self.coin_kinds)

    def players_text(self) -> str:
        """The player range in words: ``2 to 4 players``."""
        if self.min_players == self.max_players:
            return f"{self.min_players} players"
        return f"{self.min_players} to {self.max_players} players"

    def check_players(self, players: int) -> None:
        """Raise :class:`RulesError` unless ``players`` can play this game."""
        if not self.min_players <= players <= self.max_players:
            raise RulesError(f"{self.title} is for {self.players_text()}, not {players}")

    def seats(self, players: int) -> tuple[str, ...]:
        """The seats' names for ``players`` players (``seat N`` where the game names none)."""
        names = self.seat_names.get(players, ())
        return tuple(names[index] if index < len(names) else f"seat {index + 1}"
                     for index in range(players))


@dataclass(frozen=True)
class DiceRoll:
    """One roll of real dice that settles a node at the table: ``player`` rolls ``dice`` dice
    (a battle takes one roll a side). ``halved`` says the total counts half, rounded down, and
    ``label`` names the roll on the screen (``South's attack``)."""

    player: int
    dice: int
    label: str
    halved: bool = False

    def total(self, faces: Sequence[int]) -> int:
        """What ``faces`` count for in this roll."""
        return sum(faces) // 2 if self.halved else sum(faces)


class Game(ABC):
    """The fixed hooks of a rules engine. Subclasses set :attr:`name` and :attr:`info` and
    implement the hooks."""

    name: str = ""
    info: GameInfo
    #: Where the demo stops a game that has no end in sight under its bots' play (Shakala's
    #: endgame of stones can circle for ever); None: the demo plays to the end.
    demo_ply_cap: int | None = None
    #: The bots the demo seats play by default (:mod:`companion.analysis.bots`), one per seat in
    #: turn, repeated.
    demo_bots: tuple[str, ...] = ("greedy", "random")

    def demo_cap(self, players: int) -> int | None:
        """Where the demo stops a game of ``players`` seats that has not ended: the game's cap
        for that many players (``GameInfo.demo_plies``), else :attr:`demo_ply_cap`."""
        return self.info.demo_plies.get(players, self.demo_ply_cap)

    @abstractmethod
    def new_position(
        self, players: int, variants: Sequence[str] = (), seed: int | None = None
    ) -> Position:
        """A random starting position for ``players`` players with these variants."""

    @abstractmethod
    def position_from_json(self, data: Mapping[str, Any]) -> Position:
        """Read a position from its JSON object; raises :class:`PositionError`."""

    def position_schema(self) -> Mapping[str, Any]:
        """The JSON Schema (draft 2020-12) of this game's position JSON, which
        :meth:`read_position` checks input against (it may ``$ref`` the schemas of
        :mod:`contract.schemas`): ``contract/schemas/position-<name>.schema.json`` unless the
        game keeps its own."""
        return load_schema(f"position-{self.name}")

    def read_position(self, data: Any, source: str = "position") -> Position:
        """Read a position that came from outside (a file, standard input): checked against
        :meth:`position_schema` with jsonschema, then by :meth:`position_from_json`. Every
        problem is one :class:`PositionError` sentence starting with ``source`` (which takes the
        place of the word ``position`` a game's own message starts with)."""
        check(data, self.position_schema(), source, PositionError)
        try:
            return self.position_from_json(data)
        except PositionError as error:
            text = str(error)
            if text.startswith("position "):
                raise PositionError(f"{source} {text.removeprefix('position ')}") from None
            raise PositionError(f"{source}: {text}") from None

    def position_from_text(self, text: str, source: str = "position") -> Position:
        """Read a position from JSON text; raises :class:`PositionError` naming ``source``."""
        return self.read_position(parse_json(text, source, PositionError), source)

    @abstractmethod
    def parse_move(self, text: str) -> Move:
        """Parse move notation; raises :class:`NotationError`."""

    @abstractmethod
    def to_move(self, position: Position) -> int:
        """The player (1..N) whose turn it is (for a chance node: the player it is rolled for)."""

    def iter_moves(self, position: Position) -> Iterator[Move]:
        """The legal moves one at a time, for games where the full list can be huge."""
        return iter(self.legal_moves(position))

    @abstractmethod
    def legal_moves(self, position: Position) -> list[Move]:
        """One move per distinct outcome; ``pass`` only when the player cannot move; none at end."""

    @abstractmethod
    def apply(self, position: Position, move: Move) -> Position:
        """The position after ``move``; raises :class:`IllegalMoveError`."""

    def apply_text(self, position: Position, text: str) -> Position:
        """Parse and apply one move."""
        return self.apply(position, self.parse_move(text))

    @abstractmethod
    def is_over(self, position: Position) -> bool:
        """Whether the game has ended."""

    @abstractmethod
    def scores(self, position: Position) -> dict[int, int]:
        """Each player's score (cents for coin games), by player number."""

    @abstractmethod
    def result(self, position: Position) -> Result:
        """Winners and scores with the tie-break applied; meaningful once :meth:`is_over`."""

    @abstractmethod
    def legal_targets(self, position: Position) -> frozenset[str]:
        """Regions the player to move can end a move on, for highlighting; must be instant."""

    @abstractmethod
    def candidates(self, position: Position, observation: Observation) -> list[Move]:
        """Every legal move whose result would look like ``observation`` to the camera."""

    def candidates_except(self, position: Position, observation: Observation,
                          unsure: frozenset[str]) -> list[Move] | None:
        """The legal moves whose result looks like ``observation`` in every region but the
        ``unsure`` ones (the camera doubts them), where the game works them out faster than
        by trying each legal move; None (the default) leaves that to the referee."""
        return None

    def nearest_moves(self, position: Position, observation: Observation, most: int
                      ) -> list[Move] | None:
        """Up to ``most`` legal moves whose result differs from ``observation`` in as few
        regions as any, where the game finds them faster than by trying each legal move (an
        empty list: none is near); None (the default) leaves that to the referee."""
        return None

    def choice_labels(self, position: Position, moves: Sequence[Move]) -> list[str]:
        """What the screen says of each of ``moves`` when the players must pick one: by
        default its notation; a game may say instead what tells it from the others."""
        return [move.text() for move in moves]

    @abstractmethod
    def layout(self, position: Position) -> TableState:
        """What lies on the table in ``position``: every region's coins and token (a pawn,
        labelled by its owner's number), which is what a perfect camera would see."""

    @abstractmethod
    def position_from_reading(self, template: Position, observation: Observation) -> Position:
        """The starting position the players laid out, as the camera read it and they
        confirmed it; ``template`` gives the players, variants and seats. Raises
        :class:`PositionError` when the layout cannot start a game, saying why."""

    def seat_coins(self, position: Position) -> dict[int, str]:
        """The coins each seat holds off the board (taken, a reserve, a cup), as coin letters;
        what the screen shows per seat under :attr:`GameInfo.seat_heading`. None by default."""
        return {}

    def seat_notes(self, position: Position) -> dict[int, str]:
        """What the screen says per seat beside its score, in words, where a game keeps
        something that is no row of coins (a reserve count). None by default."""
        return {}

    def changed_regions(self, position: Position, move: Move) -> frozenset[str]:
        """Regions whose contents differ after ``move`` (for drawing a candidate)."""
        return self.layout(position).changed(self.layout(self.apply(position, move)))

    def forced(self, position: Position) -> Move | None:
        """The action the referee plays by itself, or None: the only one the player to move
        has, when it changes nothing on the table (a pass). A chance node is never forced:
        its outcome comes from the dice, cards or the recorded random source."""
        if self.is_over(position) or self.is_chance(position):
            return None
        first_two = list(islice(self.iter_moves(position), 2))
        if len(first_two) != 1 or self.changed_regions(position, first_two[0]):
            return None
        return first_two[0]

    def draw(self, position: Position) -> str:
        """The position as text for a terminal (games override this; the default is JSON)."""
        return json.dumps(position.to_json(), indent=2)

    def is_chance(self, position: Position) -> bool:
        """Whether the next action is a chance event (die, card, battle) instead of a choice."""
        return False

    def chance_outcomes(self, position: Position) -> list[tuple[Move, Fraction]]:
        """The chance outcomes at a chance node with their probabilities; empty elsewhere."""
        return []

    def dice_rolls(self, position: Position) -> tuple[DiceRoll, ...]:
        """The rolls of real dice that settle this node at the table, in the order they are
        made; none (the default) where the players do not roll. A node may be a decision and
        still have a roll (Coin Grid's turn start: roll, or make a double stack)."""
        return ()

    def outcome_of_dice(self, position: Position, faces: Sequence[Sequence[int]]) -> Move | None:
        """The action the rolled ``faces`` (one sequence a roll of :meth:`dice_rolls`) give, or
        None when they settle nothing and are rolled again (a tied battle)."""
        raise RulesError(f"{self.info.title} has no roll of dice here")

    def table_note(self, position: Position, move: Move) -> str:
        """What the players do by hand with ``move`` that the camera cannot check (a coin put
        away under another), in a sentence for the screen; empty by default."""
        return ""

    def repetition_note(self, times: int) -> str:
        """What the screen says when a move brings back a position the game has stood in
        ``times`` times in all (this one included): for a game whose rules set no move limit,
        so players at the table see that they are circling; empty by default."""
        return ""

    def prompt(self, position: Position) -> str:
        """What the player to move does now, in a sentence for the screen; empty by default."""
        return ""

    def card_region(self, position: Position) -> str | None:
        """The mat region where the player to move lays the card they play, for the camera to
        read (a region of kind ``discard``); None for games without cards (the default)."""
        return None

    def card_of(self, move: Move) -> str | None:
        """The card rank ``move`` plays (``"5"``, ``"joker"``), or None: a game without cards,
        or a discard of unknown rank."""
        return None

    def card_variants(self, position: Position, move: Move) -> list[Move]:
        """``move`` made with each card that could have been laid for it, where the move does
        not name its card (a discard: one per rank with no legal play); ``[move]`` by
        default."""
        return [move]

    def mover_part(self, position: Position, move: Move) -> TableState | None:
        """The table once the mover has made their own part of ``move``, where the players
        then still move something by hand that the camera must see (a bumped coin onto its
        IN); None (the default) when the mover's part leaves the table as the move does."""
        return None

    def judged_observation(self, observation: Observation) -> Observation:
        """What of the camera's reading the game judges: all of it by default; a game may
        read a region less finely than the camera names it (Jokers and Coins counts its
        supplies, whatever kinds the camera names in them)."""
        return observation

    def finished_by_hand(self, position: Position, move: Move) -> frozenset[str]:
        """The regions the players fill or empty by hand with ``move`` off the regions that
        tell the move (a bumped coin's supply or IN, the supply an entry takes a coin from):
        the camera checks them once the move is known. None of them by default."""
        return frozenset()

    def progress(self, position: Position) -> dict[int, float]:
        """How far each seat is on its way to winning, for the demo's greedy bots: the score
        by default (a race game adds the distance its pieces have covered)."""
        return {seat: float(score) for seat, score in self.scores(position).items()}

    def purpose(self, position: Position, move: Move) -> float:
        """How much ``move`` gets on with the game beyond the score it adds, for the demo's
        ``purposeful`` bots (battles sought, pieces brought to the enemy); 0 by default, so
        such a bot plays as a greedy one."""
        return 0.0

    def teams(self, position: Position) -> tuple[tuple[int, ...], ...]:
        """The seats that win together, team by team (the demo's greedy bots play for their
        team); by default every seat plays for itself."""
        return tuple((seat,) for seat in self.scores(position))

    def facts(self, position: Position, last: tuple[Position, Move] | None
              ) -> tuple[str, ...]:
        """Short lines the screen shows beside the board about the game as a whole (the card
        just played, each team's progress, the cards left); ``last`` is the position before
        the last move and that move. None by default."""
        return ()

    def children(self, position: Position) -> list[Move]:
        """Every action from here: chance outcomes at a chance node, legal moves otherwise."""
        if self.is_chance(position):
            return [outcome for outcome, _ in self.chance_outcomes(position)]
        return self.legal_moves(position)

    def perft(self, position: Position, depth: int) -> int:
        """The number of leaves of the game tree ``depth`` actions deep (chance nodes included)."""
        if depth <= 0:
            return 1
        actions = self.children(position)
        if depth == 1:
            return len(actions)
        return sum(self.perft(self.apply(position, action), depth - 1) for action in actions)

    def divide(self, position: Position, depth: int) -> list[tuple[Move, int]]:
        """perft split by first action, for debugging a count."""
        return [
            (action, self.perft(self.apply(position, action), depth - 1))
            for action in self.children(position)
        ]
