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
import textwrap
from collections.abc import Sequence
from typing import NoReturn

from companion import __version__
from contract.errors import CompanionError

EXIT_USAGE = 2


def players_help() -> str:
    """The ``--players`` help: each game's player range, from its declared metadata."""
    from companion.games import game_names, get_game

    ranges = "; ".join(f"{get_game(name).info.title} {get_game(name).info.players_text()}"
                       for name in game_names())
    return f"how many players (default 2; {ranges})"


def variants_epilog() -> str:
    """The variants of every game, one line each, from each game's declared
    :attr:`~companion.games.base.GameInfo.variants` (for the help of the commands that take
    ``--variants``; print it with :class:`ListFormatter`)."""
    from companion.games import game_names, get_game

    lines = ["variants (--variants NAME,NAME,...; any combination):"]
    for name in game_names():
        info = get_game(name).info
        if not info.variants:
            lines.append(f"  {info.title} ({name}): none")
            continue
        lines.append(f"  {info.title} ({name}):")
        width = max(map(len, info.variants)) + 2
        for variant, line in info.variants.items():
            text = textwrap.wrap(line, max(40, 88 - width))
            lines.append(f"    {variant:<{width}}{text[0]}")
            lines.extend(f"    {'':<{width}}{more}" for more in text[1:])
    return "\n".join(lines)


class ListFormatter(argparse.HelpFormatter):
    """argparse's formatter, except that description and epilog lines starting with two spaces
    (lists) are kept as written; other paragraphs are filled as usual."""

    def _fill_text(self, text: str, width: int, indent: str) -> str:
        paragraphs: list[str] = []
        plain: list[str] = []
        for line in text.splitlines():
            if line.startswith("  "):
                if plain:
                    paragraphs.append(super()._fill_text(" ".join(plain), width, indent))
                    plain = []
                paragraphs.append(indent + line)
            else:
                plain.append(line)
        if plain:
            paragraphs.append(super()._fill_text(" ".join(plain), width, indent))
        return "\n".join(paragraphs)


class UsageError(CompanionError):
    """A command line argparse cannot take; :func:`main` prints it as one line, exit code 2."""


class OneLineParser(argparse.ArgumentParser):
    """An argument parser whose usage errors are one line on stderr and exit code 2, like every
    other expected error (``companion demo: --sloppy 5 is out of range; use 0 to 1``), instead
    of argparse's usage block: :meth:`error` raises :class:`UsageError` for :func:`main`.
    Subcommand parsers inherit the class."""

    def error(self, message: str) -> NoReturn:
        option, _, rest = message.removeprefix("argument ").partition(": ")
        if message.startswith("argument ") and rest.startswith(option.split("/")[0]):
            message = rest  # the sentence names the option itself
        raise UsageError(f"{self.prog}: {message} (see {self.prog} --help)")


def build_parser() -> argparse.ArgumentParser:
    """The argument parser with every command module's subcommand registered."""
    parser = OneLineParser(
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
    try:
        args = parser.parse_args(argv)
    except UsageError as error:
        print(error, file=sys.stderr)
        return EXIT_USAGE
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
