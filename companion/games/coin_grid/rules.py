"""Coin Grid rules: who may do what at each step of a turn, and what each action does.

The game tree is the one RULINGS.md's "game tree" paragraph defines, one node per step:

* **start** (the mover decides): one child per double stack the mover can make and one per
  die face (``roll:1``..``roll:6``: deciding to roll and the roll are one step);
* **rolled** (the mover decides): one child per legal step (origin and target: the resulting
  positions all differ), or ``pass`` when there is none;
* **battle** (chance): ``attacker-wins`` and ``defender-wins``, or the one a side can reach;
* **reward** (the mover decides): ``decline`` and one child per square the dead coin may take.

Moving: a piece goes 1..v king steps through empty squares and ends on an empty square or on an
enemy piece. A step from the mover's half into the enemy half needs v ≥ 4; a step inside the
enemy half or back home never does. Steps are flood fills over bitboards, one layer per step
(breadth first, so each square is found at its fewest steps along a legal route; the wall rule
depends only on where a step starts and ends, so a shortest legal route is always legal).

Move every original coin once before any coin twice: while the mover has an original coin on
the board that has not moved, only unmoved pieces (dead coins start unmoved) may move, unless
none of them has a legal move with this roll; then any piece may.
"""

from __future__ import annotations

from dataclasses import replace
from fractions import Fraction
from functools import lru_cache

from companion.games.base import Termination
from companion.games.coin_grid.battle import battle_odds
from companion.games.coin_grid.board import (
    BOARD,
    HOME,
    STAR_ROW,
    WALL_ROLL,
    X_ROW,
    bits,
    king_steps,
    other,
)
from companion.games.coin_grid.moves import (
    BATTLE,
    DEAD,
    DECLINE,
    DECLINE_MOVE,
    DOUBLE,
    PASS,
    PASS_MOVE,
    ROLL,
    STEP,
    CoinGridMove,
    battle_move,
    dead_move,
    roll_move,
    step_move,
)
from companion.games.coin_grid.position import CoinGridPosition, Piece, with_piece

ROLLS = tuple(roll_move(face) for face in range(1, 7))
#: (origin, empty squares it can reach, enemy pieces it can attack)
Reach = tuple[int, int, int]


# ------------------------------------------------------------------------------------ the end


def is_over(position: CoinGridPosition) -> bool:
    """Whether a player has no piece left in play (that player has lost)."""
    if position.south and position.north:
        return False
    return position.piece_count(1) == 0 or position.piece_count(2) == 0


def termination(position: CoinGridPosition) -> Termination | None:
    """Why the game ended (a player lost every piece: the goal), or None while it goes on."""
    return Termination.GOAL if is_over(position) else None


def winners(position: CoinGridPosition) -> tuple[int, ...]:
    """The players who still have pieces (the winner, once the game is over)."""
    return tuple(player for player in (1, 2) if position.piece_count(player))


# ------------------------------------------------------------------------------------ moving


def reach(position: CoinGridPosition, origin: int, roll: int, crossing: bool | None = None
          ) -> tuple[int, int]:
    """(empty squares, enemy pieces) the piece on ``origin`` can end on with ``roll``: the
    squares 1..roll king steps away through empty squares, a step out of the mover's half
    into the enemy half only when ``roll`` is 4 or more (or as ``crossing`` says, to tell
    whether the wall is what stops a move)."""
    player = position.to_move
    if crossing is None:
        crossing = roll >= WALL_ROLL
    if roll <= 0:
        return 0, 0
    return walk(origin, BOARD & ~position.occupied, position.pieces_of(other(player)),
                HOME[player], crossing, roll)


#: The most a roll moves a piece (one die); a reach is worked out this many steps deep at once.
MOST_PIPS = 6


def walk_layers(origin: int, empty: int, enemy: int, home: int, crossing: bool, steps: int
                ) -> tuple[tuple[int, int], ...]:
    """For 1..``steps`` king steps from ``origin`` through ``empty`` squares: (squares reached,
    enemy pieces attacked), as :func:`reach` gives them."""
    away = BOARD & ~home
    start = 1 << origin
    visited = frontier = start
    attacks = 0
    layers = []
    for _ in range(steps):
        if frontier:
            if crossing or not frontier & home:
                near = king_steps(frontier)
            elif not frontier & away:
                near = king_steps(frontier) & home
            else:
                near = king_steps(frontier & away) | (king_steps(frontier & home) & home)
            attacks |= near & enemy
            frontier = near & empty & ~visited
            visited |= frontier
        layers.append((visited ^ start, attacks))
    return tuple(layers)


def walk(origin: int, empty: int, enemy: int, home: int, crossing: bool, steps: int
         ) -> tuple[int, int]:
    """The last layer of :func:`walk_layers`, walked without keeping the others."""
    away = BOARD & ~home
    start = 1 << origin
    visited = frontier = start
    attacks = 0
    for _ in range(steps):
        if crossing:
            near = king_steps(frontier)
        else:
            near = king_steps(frontier & away) | (king_steps(frontier & home) & home)
        attacks |= near & enemy
        frontier = near & empty & ~visited
        if not frontier:
            break
        visited |= frontier
    return visited ^ start, attacks


#: :func:`walk_layers` six steps deep, remembered: perft asks the six rolls of a turn for the
#: same piece on the same board. Play and search do not (their boards seldom repeat, and the
#: remembering made random playouts 0.75x as fast), so they walk only the roll's steps.
reach_layers = lru_cache(maxsize=1 << 15)(walk_layers)


def _reaches(position: CoinGridPosition, origins: int, roll: int, remembered: bool = False
             ) -> list[Reach]:
    """:func:`reach` of every piece of ``origins`` that can move, the board read once; from
    :data:`reach_layers` when ``remembered`` (perft), else walked afresh."""
    if not 0 < roll <= MOST_PIPS:
        return [(origin, *reach(position, origin, roll)) for origin in bits(origins)
                if any(reach(position, origin, roll))]
    player = position.to_move
    empty, enemy = BOARD & ~position.occupied, position.pieces_of(other(player))
    home, crossing = HOME[player], roll >= WALL_ROLL
    found = []
    for origin in bits(origins):
        if remembered:
            quiet, attacks = reach_layers(origin, empty, enemy, home, crossing, MOST_PIPS)[roll - 1]
        else:
            quiet, attacks = walk(origin, empty, enemy, home, crossing, roll)
        if quiet or attacks:
            found.append((origin, quiet, attacks))
    return found


def step_reaches(position: CoinGridPosition, remembered: bool = False) -> list[Reach]:
    """For each piece allowed to move with the roll (the move-every-original-coin-first rule
    applied), its origin and the squares it can end on; empty when the mover must pass.
    ``remembered`` reuses the walks of earlier boards (perft's six rolls of one turn)."""
    roll = position.roll
    if position.phase != "rolled" or roll is None:
        return []
    mine = position.pieces_of(position.to_move)
    unmoved = mine & ~position.moved
    if unmoved & ~position.dead:
        found = _reaches(position, unmoved, roll, remembered)
        return found or _reaches(position, mine & position.moved, roll, remembered)
    return _reaches(position, mine, roll, remembered)


def may_move(position: CoinGridPosition, origin: int) -> bool:
    """Whether the move-every-original-coin-first rule lets the mover's piece on ``origin``
    move with the roll (whether it has anywhere to go aside)."""
    roll = position.roll
    mine = position.pieces_of(position.to_move)
    unmoved = mine & ~position.moved
    if roll is None or not unmoved & ~position.dead or unmoved >> origin & 1:
        return True
    return not _reaches(position, unmoved, roll)


def held_back(position: CoinGridPosition) -> int:
    """Pieces that could move with this roll but may not, because an unmoved original coin
    (or another unmoved piece) must move first; for the screen to say why."""
    roll = position.roll
    if position.phase != "rolled" or roll is None:
        return 0
    mine = position.pieces_of(position.to_move)
    unmoved = mine & ~position.moved
    if not unmoved & ~position.dead or not _reaches(position, unmoved, roll):
        return 0
    return sum(1 << origin for origin, _, _ in _reaches(position, mine & position.moved, roll))


# ------------------------------------------------------------------------ stacks and rewards


def double_squares(position: CoinGridPosition) -> int:
    """Squares where the mover can make a double stack at the start of the turn: their single
    original coins in the enemy half, when they hold a coin in reserve."""
    player = position.to_move
    if position.phase != "start" or not position.reserve(player):
        return 0
    mine = position.pieces_of(player)
    return mine & ~position.dead & ~position.double & ~HOME[player]


def reward_squares(position: CoinGridPosition) -> tuple[int, bool]:
    """Where the mover's dead coin may go, and whether it goes there by exchange: the empty
    squares of their star row; if none, of their X row; if none, their own pieces on those
    rows (each leaves play if chosen)."""
    player = position.to_move
    empty = BOARD & ~position.occupied
    for row in (STAR_ROW[player], X_ROW[player]):
        if row & empty:
            return row & empty, False
    return (STAR_ROW[player] | X_ROW[player]) & position.pieces_of(player), True


def battle_outcomes(position: CoinGridPosition) -> list[tuple[CoinGridMove, Fraction]]:
    """The battle's outcomes with their exact probabilities (an outcome of no chance is left
    out); [] away from a battle."""
    square, attacker = position.battle_square, position.attacker
    if position.phase != "battle" or square is None or attacker is None:
        return []
    defender = position.piece_at(square)
    assert defender is not None
    wins, losses = battle_odds(attacker, defender, square)
    outcomes = []
    if wins:
        outcomes.append((battle_move("attacker"), wins))
    if losses:
        outcomes.append((battle_move("defender"), losses))
    return outcomes


# --------------------------------------------------------------------------------- the lists


def step_moves(position: CoinGridPosition) -> list[CoinGridMove]:
    """The legal steps after a roll, by origin then target; [] when the mover must pass."""
    return [step_move(origin, square, bool(attacks >> square & 1))
            for origin, quiet, attacks in step_reaches(position)
            for square in bits(quiet | attacks)]


def decisions(position: CoinGridPosition) -> list[CoinGridMove]:
    """The mover's choices at a decision node, in a fixed order; [] at chance nodes and at
    the end. At a turn start the rolls follow the double stacks when the mover can make one
    (the node is then a decision); with no double stack to make it is a chance node."""
    if is_over(position):
        return []
    phase = position.phase
    if phase == "rolled":
        return step_moves(position) or [PASS_MOVE]
    if phase == "start":
        doubles = double_squares(position)
        if not doubles:
            return []
        return [*(CoinGridMove(DOUBLE, square) for square in bits(doubles)), *ROLLS]
    if phase == "reward":
        squares, exchange = reward_squares(position)
        return [DECLINE_MOVE, *(dead_move(square, exchange) for square in bits(squares))]
    return []


def is_legal(position: CoinGridPosition, move: CoinGridMove) -> bool:
    """Whether ``move`` is a child of the node, found without listing the children."""
    if is_over(position):
        return False
    phase, kind, square = position.phase, move.kind, move.square
    if phase == "start":
        return kind == ROLL or (kind == DOUBLE and square is not None
                                and bool(double_squares(position) >> square & 1))
    if phase == "rolled":
        if kind == PASS:
            return not step_reaches(position)
        origin = move.origin
        if kind != STEP or origin is None or square is None or position.roll is None:
            return False
        if not position.pieces_of(position.to_move) >> origin & 1:
            return False
        quiet, attacks = reach(position, origin, position.roll)
        target = quiet if not move.capture else attacks
        return bool(target >> square & 1) and may_move(position, origin)
    if phase == "battle":
        return kind == BATTLE and move in [outcome for outcome, _ in battle_outcomes(position)]
    if kind == DEAD and square is not None:
        squares, exchange = reward_squares(position)
        return bool(squares >> square & 1) and move.capture == exchange
    return kind == DECLINE


def is_chance(position: CoinGridPosition) -> bool:
    """A battle, or a turn start where the mover can only roll."""
    if is_over(position):
        return False
    return position.phase == "battle" or (position.phase == "start"
                                          and not double_squares(position))


def children(position: CoinGridPosition) -> list[CoinGridMove]:
    """Every child of the node: the chance outcomes or the mover's choices."""
    if not is_chance(position):
        return decisions(position)
    if position.phase == "battle":
        return [outcome for outcome, _ in battle_outcomes(position)]
    return list(ROLLS)


def count_children(position: CoinGridPosition) -> int:
    """How many children the node has, without building them (perft's last ply)."""
    if is_over(position):
        return 0
    phase = position.phase
    if phase == "start":
        return len(ROLLS) + double_squares(position).bit_count()
    if phase == "rolled":
        total = sum((quiet | attacks).bit_count() for _, quiet, attacks
                    in step_reaches(position, remembered=True))
        return total or 1
    if phase == "battle":
        return len(battle_outcomes(position))
    return 1 + reward_squares(position)[0].bit_count()


# --------------------------------------------------------------------------------- applying


def play(position: CoinGridPosition, move: CoinGridMove) -> CoinGridPosition:
    """The position after ``move``, which must be one of the node's children (unchecked)."""
    kind = move.kind
    if kind == STEP:
        return _step(position, move)
    if kind == ROLL:
        return CoinGridPosition(
            south=position.south, north=position.north, dead=position.dead,
            double=position.double, moved=position.moved, to_move=position.to_move,
            phase="rolled", roll=move.value, reserves=position.reserves,
            supply=position.supply, variants=position.variants)
    if kind == BATTLE:
        return _battle(position, move.winner == "attacker")
    if kind == DEAD:
        assert move.square is not None
        dead = Piece(position.to_move, dead=True)
        placed = with_piece(position, move.square, dead)
        return _next_turn(replace(placed, supply=position.supply - 1))
    if kind == DOUBLE:
        assert move.square is not None
        return _next_turn(replace(position, double=position.double | 1 << move.square,
                                  reserves=_add(position.reserves, position.to_move, -1)))
    return _next_turn(position)  # pass, decline


def _step(position: CoinGridPosition, move: CoinGridMove) -> CoinGridPosition:
    """A step, built in one go (the bulk of every search): onto an empty square, the piece's
    marks move with it and it is marked moved; onto an enemy piece, a battle begins."""
    origin, square = move.origin, move.square
    assert origin is not None and square is not None
    if move.capture:
        piece = position.piece_at(origin)
        assert piece is not None
        return replace(with_piece(position, origin, None), phase="battle", roll=None,
                       battle_square=square, attacker=replace(piece, moved=True))
    source, both = 1 << origin, 1 << origin | 1 << square
    south, north, dead, double = (mask ^ both if mask & source else mask for mask in (
        position.south, position.north, position.dead, position.double))
    to_move, phase = _after_landing(position, square)
    return CoinGridPosition(
        south=south, north=north, dead=dead, double=double,
        moved=position.moved & ~source | 1 << square, to_move=to_move, phase=phase,
        reserves=position.reserves, supply=position.supply, variants=position.variants)


def _battle(position: CoinGridPosition, attacker_wins: bool) -> CoinGridPosition:
    square, attacker = position.battle_square, position.attacker
    assert square is not None and attacker is not None
    defender = position.piece_at(square)
    assert defender is not None
    settled = replace(position, battle_square=None, attacker=None)
    if not attacker_wins:
        reserves = _add(position.reserves, defender.owner, attacker.coins)
        return _next_turn(replace(settled, reserves=reserves))
    reserves = _add(position.reserves, attacker.owner, defender.coins)
    after = replace(with_piece(settled, square, attacker), reserves=reserves)
    if not after.pieces_of(defender.owner):
        return _next_turn(after)  # the defender lost their last piece: the game is over
    return _reward_or_next(after, square)


def _after_landing(position: CoinGridPosition, square: int) -> tuple[int, str]:
    """Who moves next and in which phase once the mover's piece ends its move on ``square``:
    the mover again, for the reward, when that is the enemy star row and the supply holds a
    dead coin; else the other player's turn starts."""
    player = position.to_move
    if position.supply and STAR_ROW[other(player)] >> square & 1:
        return player, "reward"
    return other(player), "start"


def _reward_or_next(position: CoinGridPosition, square: int) -> CoinGridPosition:
    to_move, phase = _after_landing(position, square)
    return replace(position, to_move=to_move, phase=phase, roll=None, battle_square=None,
                   attacker=None)


def _next_turn(position: CoinGridPosition) -> CoinGridPosition:
    return replace(position, to_move=other(position.to_move), phase="start", roll=None,
                   battle_square=None, attacker=None)


def _add(reserves: tuple[int, int], player: int, coins: int) -> tuple[int, int]:
    if player == 1:
        return (reserves[0] + coins, reserves[1])
    return (reserves[0], reserves[1] + coins)
