"""`companion rules`: the rules engine on its own (new, moves, apply, perft, show, best).

Only the standard library and the pure engine are imported, never OpenCV or pygame, so these
commands start fast. POSITION.json may be ``-`` to read standard input.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections.abc import Iterator
from itertools import islice
from typing import TYPE_CHECKING, Any

from companion.cli import ListFormatter, game_help_later
from companion.cli.numbers import number

if TYPE_CHECKING:
    from random import Random

DEFAULT_GAME = "coin-isolation"


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add the `rules` subcommand and its actions."""
    parser = subparsers.add_parser("rules",
                                   help="the rules engine: new, moves, apply, perft, show, best")
    actions = parser.add_subparsers(dest="action", metavar="ACTION", required=True)

    new = actions.add_parser("new", help="print a random starting position as JSON",
                             description="Print a random starting position as JSON.",
                             formatter_class=ListFormatter)
    new.add_argument("--game", default=DEFAULT_GAME, help="game name (default: %(default)s)")
    game_help_later(new, new.add_argument("--players", type=int, default=2))
    new.add_argument(
        "--variants", default="", help="comma-separated variants, e.g. diagonal,greedy (listed "
        "below)"
    )
    new.add_argument("--seed", type=int, default=None, help="random seed for the layout")
    new.set_defaults(func=run_new)

    moves = actions.add_parser(
        "moves", help="print the legal moves, one JSON object a line, as they are found",
        description="Print one JSON object a line per distinct legal move, {\"text\": ..., "
        "\"path\": [...]}, as the engine finds them, so a position with a million moves "
        "starts printing at once and never holds them all.")
    moves.add_argument("position", metavar="POSITION.json", help="position file, or - for stdin")
    moves.set_defaults(func=run_moves)

    apply = actions.add_parser("apply", help="print the position after some moves as JSON")
    apply.add_argument("position", metavar="POSITION.json", help="position file, or - for stdin")
    apply.add_argument("moves", metavar="MOVE", nargs="+", help="moves in notation, e.g. c1-c2")
    apply.set_defaults(func=run_apply)

    perft = actions.add_parser("perft", help="count the leaves of the move tree to a depth")
    perft.add_argument("position", metavar="POSITION.json", help="position file, or - for stdin")
    perft.add_argument("depth", type=number("depth", 0, integer=True),
                       help="depth in moves, 0 or more (a depth that may take long is announced "
                       "on stderr with an estimate; Ctrl-C stops it)")
    perft.add_argument("--divide", action="store_true", help="also print the count per move")
    perft.set_defaults(func=run_perft)

    show = actions.add_parser("show", help="draw the position as text")
    show.add_argument("position", metavar="POSITION.json", help="position file, or - for stdin")
    show.set_defaults(func=run_show)

    best = actions.add_parser(
        "best", help="search for the best move and print each candidate's win chance",
        description="Monte Carlo tree search from the position: prints the best move (the most "
        "visited), then each candidate with its visits and each seat's estimated chance to win. "
        "With --playouts and no --time the answer is the same on every run with the same "
        "--seed.")
    best.add_argument("position", metavar="POSITION.json", help="position file, or - for stdin")
    best.add_argument("--game", default=None,
                      help="game of a position file that names none (default: coin-isolation)")
    best.add_argument("--time", type=number("--time", 0, 3600, above=True), default=None,
                      help="seconds to search, above 0 up to 3600 (default 1 without "
                      "--playouts)")
    best.add_argument("--playouts", type=number("--playouts", 1, 10**8, integer=True),
                      default=None, help="playouts to make, 1 or more (with --time: whichever "
                      "comes first)")
    best.add_argument("--seed", type=number("--seed", 0, 2**63, integer=True), default=0,
                      help="seed of the search (0 or more)")
    best.add_argument("--workers", type=number("--workers", 1, 64, integer=True), default=1,
                      help="processes to search in at once, 1 to 64")
    best.add_argument("--hand", default=None,
                      help="the mover's cards, comma-separated ranks (Jokers and Coins: e.g. "
                      "5,7,K,A,joker); without it the mover's hand is guessed too")
    best.set_defaults(func=run_best)



def _read_position(source: str, game: str | None = None) -> tuple[Any, Any]:
    """The game and position of a JSON file (or stdin for ``-``), checked field by field; a
    file without a ``game`` field is one of ``game`` (default coin-isolation), and a file that
    names another game than ``game`` is refused."""
    from companion.games.position_file import read_position_file

    found, position = read_position_file(source, game or DEFAULT_GAME)
    if game is not None and found.name != game:
        from companion.games import PositionError

        raise PositionError(f"{source} holds a {found.name} position, not one of --game {game}")
    return found, position


def _print_json(data: Any) -> None:
    print(json.dumps(data))


def run_new(args: argparse.Namespace) -> int:
    """Print a random starting position."""
    from companion.games import get_game

    variants = [name.strip() for name in args.variants.split(",") if name.strip()]
    game = get_game(args.game)
    _print_json(game.new_position(args.players, variants, args.seed).to_json())
    return 0


def run_moves(args: argparse.Namespace) -> int:
    """Print one JSON object a line per distinct legal move (its text and its path), each as
    soon as the engine yields it."""
    game, position = _read_position(args.position)
    moves = game.children(position) if game.is_chance(position) else game.iter_moves(position)
    for move in moves:
        print(json.dumps({"text": move.text(), "path": list(move.regions())}))
    return 0


def run_apply(args: argparse.Namespace) -> int:
    """Print the position after the moves, applied in order."""
    game, position = _read_position(args.position)
    for text in args.moves:
        position = game.apply(position, game.parse_move(text))
    _print_json(position.to_json())
    return 0


#: perft warns before a depth it expects to take longer than this many seconds.
SLOW_PERFT_S = 10.0
#: How many children of a node on a sampled line are made to time one; how many lines at most.
SAMPLE = 20
WALKS = 16
#: Counting the sampled children of the last ply stops after this many seconds.
SAMPLE_BUDGET_S = 0.5
#: A node two plies above the leaves with at most this many children has its perft 2 timed.
TIMED_PERFT_CHILDREN = 500
#: perft one ply short of the depth asked is run to time it when expected within this many s.
CALIBRATION_S = 0.5
#: The walks stop after this many lines when they expect the depth within QUICK_S seconds.
FEW_WALKS = 4
QUICK_S = 1.0
#: Perft is timed ply by ply first while each next ply is expected within this many seconds.
DEEPENING_S = 0.1


def run_perft(args: argparse.Namespace) -> int:
    """Print perft (with --divide, the count per first move first); the count is the last line.
    A depth expected to take long is announced on stderr first, with how to stop it."""
    game, position = _read_position(args.position)
    seconds = perft_seconds(game, position, args.depth)
    if seconds > SLOW_PERFT_S:
        print(f"companion rules perft: depth {args.depth} may take about "
              f"{duration_text(seconds)}; Ctrl-C stops it.", file=sys.stderr, flush=True)
    if args.divide and args.depth > 0:
        total = 0
        for move in _actions(game, position):
            count = game.perft(game.apply(position, move), args.depth - 1)
            total += count
            print(f"{move.text()}: {count}")
        print(total)
    else:
        print(game.perft(position, args.depth))
    return 0


def perft_seconds(game: Any, position: Any, depth: int, budget_s: float = 1.0) -> float:
    """A rough time for perft to ``depth``: the mean of Knuth's estimate over random lines of
    play (at most :data:`WALKS`, for about ``budget_s`` seconds; always one, and only one at
    depth 2, where every line is the same sample of the root's children). 0 below depth 2,
    where the count is the whole job. Where that estimate says perft one ply shallower takes
    at most :data:`CALIBRATION_S`, that perft is run and timed instead, and scaled by the
    estimated growth of the tree over the last ply: engines that make their last plies cheap
    (bulk counting, remembered subtrees) are then not taken for slow. A depth that
    :func:`deepening_seconds` finds plainly quick is settled without the walks."""
    if depth < 2:
        return 0.0
    quick = deepening_seconds(game, position, depth) if depth > 2 else None
    if quick is not None and quick < QUICK_S:
        return quick
    import random

    rng = random.Random(0)
    began = time.perf_counter()
    walks = [_walk_seconds(game, position, depth, rng)]
    while depth > 2 and len(walks) < WALKS and time.perf_counter() - began < budget_s:
        if len(walks) >= FEW_WALKS and sum(walk[0] for walk in walks) < QUICK_S * len(walks):
            break  # plainly quick: the timed perft below settles it
        walks.append(_walk_seconds(game, position, depth, rng))
    seconds, above, leaves = (sum(figures) / len(walks) for figures in zip(*walks, strict=True))
    if depth < 3 or not above or not leaves or seconds * above / leaves > CALIBRATION_S:
        return seconds
    start = time.perf_counter()
    game.perft(position, depth - 1)
    return (time.perf_counter() - start) * leaves / above


def deepening_seconds(game: Any, position: Any, depth: int) -> float | None:
    """A rough time for perft to ``depth`` (3 or more) from perft itself, run and timed one ply
    deeper at a time up to ``depth - 1`` and scaled by the tree's growth over the last plies
    timed (the larger of the last two: where chance and choice alternate, as in Coin Grid, a
    roll's ply grows the tree far less than a move's); None when the next ply alone is
    expected to take more than :data:`DEEPENING_S`. Small trees, the most common, are settled
    by a fraction of their own count instead of the walks' lines of play and applied moves.
    Processor time, which other programs on a busy machine do not inflate, decides."""
    growths, leaves, took = [0.0], 1, 0.0
    for ply in range(1, depth):
        if ply > 1 and took * max(growths[-2:]) > DEEPENING_S:
            return None
        start = time.process_time()
        count = game.perft(position, ply)
        took = time.process_time() - start
        if not count:
            return took
        growths.append(count / leaves)
        leaves = count
    return took * max(growths[-2:])


def _walk_seconds(game: Any, position: Any, depth: int, rng: Random
                  ) -> tuple[float, float, float]:
    """One random line of play from ``position`` as an estimate of perft's time (Knuth 1975),
    with the estimated nodes one ply above the leaves and the leaves: the branching met at
    each ply multiplies into the number of nodes on the next; a node above the last two plies
    costs its branching times what making one child took there; a node two plies above the
    leaves costs what the engine's own perft 2 of it took, or, with more than
    :data:`TIMED_PERFT_CHILDREN` children, its branching times making a child and counting its
    children (timed on up to :data:`SAMPLE` children)."""
    nodes, total, node = 1.0, 0.0, position
    for level in range(depth - 1):
        branching = game.perft(node, 1)
        if not branching:
            break
        if level == depth - 2 and branching <= TIMED_PERFT_CHILDREN:
            start = time.perf_counter()
            below = game.perft(node, 2)
            took = time.perf_counter() - start
            return total + nodes * took, nodes * branching, nodes * below
        start = time.perf_counter()
        children = [game.apply(node, move) for move in islice(_actions(game, node), SAMPLE)]
        total += nodes * branching * (time.perf_counter() - start) / len(children)
        nodes *= branching
        if level == depth - 2:
            start, counts = time.perf_counter(), list[int]()
            while len(counts) < len(children) and time.perf_counter() - start <= SAMPLE_BUDGET_S:
                counts.append(game.perft(children[len(counts)], 1))
            took = (time.perf_counter() - start) / len(counts)
            return total + nodes * took, nodes, nodes * sum(counts) / len(counts)
        pick = rng.randrange(branching)
        node = children[pick] if pick < len(children) else game.apply(
            node, next(islice(_actions(game, node), pick, None)))
    return total, 0.0, 0.0


def _actions(game: Any, position: Any) -> Iterator[Any]:
    """The children's actions one at a time (moves lazily; chance outcomes as listed)."""
    if game.is_chance(position):
        return iter(game.children(position))
    return iter(game.iter_moves(position))


def duration_text(seconds: float) -> str:
    """``40 minutes``, ``3 hours``, ``2,000 years``: a rough duration in the largest fitting
    unit."""
    for unit, size, up_to in (("seconds", 1, 90), ("minutes", 60, 90 * 60),
                              ("hours", 3600, 48 * 3600), ("days", 86400, 730 * 86400)):
        if seconds < up_to:
            return f"{seconds / size:,.0f} {unit}"
    years = seconds / (365.25 * 86400)
    return f"{years:,.0f} years" if years < 1e9 else "more than a billion years"


def run_show(args: argparse.Namespace) -> int:
    """Draw the position as text."""
    game, position = _read_position(args.position)
    print(game.draw(position))
    return 0


def run_best(args: argparse.Namespace) -> int:
    """Search the position and print the best move, then every candidate tried."""
    from companion.analysis import SearchLimits, search

    game, position = _read_position(args.position, args.game)
    seconds = args.time if args.time is not None or args.playouts is not None else 1.0
    limits = SearchLimits(seconds=seconds, playouts=args.playouts, seed=args.seed,
                          workers=args.workers)
    hand = None if args.hand is None else [rank.strip() for rank in args.hand.split(",")
                                           if rank.strip()]
    began = time.perf_counter()
    result = search(game, position, limits, hand=hand)
    spent = time.perf_counter() - began
    for line in best_lines(game, position, result, spent):
        print(line)
    return 0


def best_lines(game: Any, position: Any, result: Any, seconds: float) -> list[str]:
    """What ``rules best`` prints: the best move with the mover's chance, a table of the
    candidates (visits and each seat's win chance), and the playouts made; a roll the mover
    may choose reads ``roll`` (its face is thrown, not chosen)."""
    from companion.analysis.rolls import action_text

    mover = game.to_move(position)
    seats = sorted(result.win_chance)
    chance = result.estimates[0].win_chance.get(mover, 0.0)
    names = [action_text(game, position, estimate.move) for estimate in result.estimates]
    lines = [f"best: {names[0]} (player {mover} to move; win chance {chance:.0%} after it)"]
    width = max(len(name) for name in names)
    heads = "  ".join(f"p{seat:<4}" for seat in seats)
    lines.append(f"{'move':<{width}}  {'visits':>7}  {heads}")
    for name, estimate in zip(names, result.estimates, strict=True):
        cells = "  ".join(f"{estimate.win_chance.get(seat, 0.0):>5.0%}" for seat in seats)
        lines.append(f"{name:<{width}}  {estimate.visits:>7}  {cells}")
    now = "  ".join(f"p{seat} {result.win_chance[seat]:.0%}" for seat in seats)
    lines.append(f"{result.playouts} playouts in {seconds:.1f} s; win chance now: {now}")
    return lines
