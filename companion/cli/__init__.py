"""The `companion` command: one subcommand per module in this package.

Every module here that defines ``register(subparsers)`` adds its subcommand and sets ``func`` on its
parser to a function ``(args) -> int``. Command modules import only the standard library at the top,
and import heavy parts (OpenCV, pygame) inside their run function, so `companion rules ...` starts
fast. Expected failures (:class:`~contract.errors.CompanionError`) become one line on stderr and
exit code 2; nothing expected ever prints a traceback.
"""

from __future__ import annotations

import argparse
import importlib
import pkgutil
import sys
from collections.abc import Sequence

from companion import __version__
from contract.errors import CompanionError

EXIT_USAGE = 2


def players_help() -> str:
    """The ``--players`` help: each game's player range, from its declared metadata."""
    from companion.games import game_names, get_game

    ranges = "; ".join(f"{get_game(name).info.title} {get_game(name).info.players_text()}"
                       for name in game_names())
    return f"how many players (default 2; {ranges})"


def build_parser() -> argparse.ArgumentParser:
    """The argument parser with every command module's subcommand registered."""
    parser = argparse.ArgumentParser(
        prog="companion",
        description="Referee, monitor and game record for coin games played on a real table.",
    )
    parser.add_argument("--version", action="version", version=f"%(prog)s {__version__}")
    subparsers = parser.add_subparsers(dest="command", metavar="COMMAND")
    for module_info in sorted(pkgutil.iter_modules(__path__), key=lambda info: info.name):
        if module_info.name.startswith("_"):
            continue
        module = importlib.import_module(f"{__name__}.{module_info.name}")
        register = getattr(module, "register", None)
        if register is not None:
            register(subparsers)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; returns the process exit code."""
    parser = build_parser()
    args = parser.parse_args(argv)
    func = getattr(args, "func", None)
    if func is None:
        parser.print_help()
        return EXIT_USAGE
    try:
        return int(func(args) or 0)
    except CompanionError as error:
        print(f"companion {args.command}: {error}", file=sys.stderr)
        return EXIT_USAGE
    except KeyboardInterrupt:
        print(f"companion {args.command}: stopped.", file=sys.stderr)
        return 130
    except BrokenPipeError:
        return 0
