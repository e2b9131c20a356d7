"""`companion rules`: the rules engine on its own (new, moves, apply, perft, show).

Only the standard library and the pure engine are imported, never OpenCV or pygame, so these
commands start fast. POSITION.json may be ``-`` to read standard input.
"""

from __future__ import annotations

import argparse
import json
from typing import Any

from contract.errors import CompanionError

DEFAULT_GAME = "coin-isolation"


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add the `rules` subcommand and its actions."""
    parser = subparsers.add_parser("rules", help="the rules engine: new, moves, apply, perft, show")
    actions = parser.add_subparsers(dest="action", metavar="ACTION", required=True)

    new = actions.add_parser("new", help="print a random starting position as JSON")
    new.add_argument("--game", default=DEFAULT_GAME, help="game name (default: %(default)s)")
    new.add_argument("--players", type=int, default=2, help="number of players (default: 2)")
    new.add_argument(
        "--variants", default="", help="comma-separated variants, e.g. diagonal,greedy"
    )
    new.add_argument("--seed", type=int, default=None, help="random seed for the layout")
    new.set_defaults(func=run_new)

    moves = actions.add_parser("moves", help="print the legal moves as a JSON list")
    moves.add_argument("position", metavar="POSITION.json", help="position file, or - for stdin")
    moves.set_defaults(func=run_moves)

    apply = actions.add_parser("apply", help="print the position after some moves as JSON")
    apply.add_argument("position", metavar="POSITION.json", help="position file, or - for stdin")
    apply.add_argument("moves", metavar="MOVE", nargs="+", help="moves in notation, e.g. c1-c2")
    apply.set_defaults(func=run_apply)

    perft = actions.add_parser("perft", help="count the leaves of the move tree to a depth")
    perft.add_argument("position", metavar="POSITION.json", help="position file, or - for stdin")
    perft.add_argument("depth", type=int, help="depth in moves")
    perft.add_argument("--divide", action="store_true", help="also print the count per move")
    perft.set_defaults(func=run_perft)

    show = actions.add_parser("show", help="draw the position as text")
    show.add_argument("position", metavar="POSITION.json", help="position file, or - for stdin")
    show.set_defaults(func=run_show)



def _read_position(source: str) -> tuple[Any, Any]:
    """The game and position of a JSON file (or stdin for ``-``), checked field by field."""
    from companion.games.position_file import read_position_file

    return read_position_file(source, DEFAULT_GAME)


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
    """Print one JSON object per distinct legal move: its text and its path."""
    game, position = _read_position(args.position)
    moves = game.children(position) if game.is_chance(position) else game.iter_moves(position)
    _print_json([{"text": move.text(), "path": list(move.regions())} for move in moves])
    return 0


def run_apply(args: argparse.Namespace) -> int:
    """Print the position after the moves, applied in order."""
    game, position = _read_position(args.position)
    for text in args.moves:
        position = game.apply(position, game.parse_move(text))
    _print_json(position.to_json())
    return 0


def run_perft(args: argparse.Namespace) -> int:
    """Print perft (with --divide, the count per first move first); the count is the last line."""
    game, position = _read_position(args.position)
    if args.depth < 0:
        raise CompanionError(f"depth must be 0 or more, not {args.depth}")
    if args.divide and args.depth > 0:
        total = 0
        for move in game.children(position):
            count = game.perft(game.apply(position, move), args.depth - 1)
            total += count
            print(f"{move.text()}: {count}")
        print(total)
    else:
        print(game.perft(position, args.depth))
    return 0


def run_show(args: argparse.Namespace) -> int:
    """Draw the position as text."""
    game, position = _read_position(args.position)
    print(game.draw(position))
    return 0
