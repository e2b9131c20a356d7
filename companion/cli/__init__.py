"""The `companion` command: one subcommand per module in this package.

Every module here that defines ``register(subparsers)`` adds its subcommand and sets ``func`` on its
parser to a function ``(args) -> int``. Command modules import only the standard library at the top,
and import heavy parts (OpenCV, pygame) inside their run function, so `companion rules ...` starts
fast; a command line that names its command builds that command's parser alone, and help texts
that list every game are made only when help is shown (:func:`help_later`). Expected failures
(:class:`~contract.errors.CompanionError`) become one line on stderr and exit code 2; nothing
expected ever prints a traceback.
"""

from __future__ import annotations

import argparse
import importlib
import os
import sys
from collections.abc import Callable, Sequence
from typing import Any, NoReturn

from companion import __version__
from companion.startup import defer_inspect
from contract.errors import CompanionError

EXIT_USAGE = 2
#: The width of the help formatters argparse makes only to check an argument or name a list.
CHECKING_WIDTH = 80


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
    import textwrap

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
    Subcommand parsers inherit the class.

    argparse makes a help formatter for every argument added, only to check it, and one for
    every subcommand list, only to name it; here those are given a width, so that only help
    and usage actually shown ask the terminal for its width (which imports shutil: a few
    percent of a `companion rules` command)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        self.checking = False
        super().__init__(*args, **kwargs)
        #: Texts to fill in before the help is shown: (object, attribute, maker); see help_later.
        self.texts_later: list[tuple[object, str, Callable[[], str]]] = []

    def add_argument(self, *args: Any, **kwargs: Any) -> argparse.Action:
        self.checking = True
        try:
            return super().add_argument(*args, **kwargs)
        finally:
            self.checking = False

    def add_subparsers(self, **kwargs: Any) -> Any:
        self.checking = True
        try:
            return super().add_subparsers(**kwargs)
        finally:
            self.checking = False

    def _get_formatter(self) -> argparse.HelpFormatter:
        made = self.formatter_class
        if self.checking and isinstance(made, type) and issubclass(made, argparse.HelpFormatter):
            return made(prog=self.prog, width=CHECKING_WIDTH)
        return super()._get_formatter()

    def format_help(self) -> str:
        while self.texts_later:
            target, attribute, make = self.texts_later.pop(0)
            setattr(target, attribute, make())
        return super().format_help()

    def error(self, message: str) -> NoReturn:
        option, _, rest = message.removeprefix("argument ").partition(": ")
        if message.startswith("argument ") and rest.startswith(option.split("/")[0]):
            message = rest  # the sentence names the option itself
        raise UsageError(f"{self.prog}: {message} (see {self.prog} --help)")


def help_later(parser: argparse.ArgumentParser, target: object, attribute: str,
               make: Callable[[], str]) -> None:
    """Set ``target.attribute`` (``parser``'s epilog, the help of one of its arguments) to
    ``make()`` when ``parser``'s help is shown, not before: the texts that list every game's
    players or variants import every game, which a command that only runs needs not."""
    if isinstance(parser, OneLineParser):
        parser.texts_later.append((target, attribute, make))
    else:
        setattr(target, attribute, make())


def game_help_later(parser: argparse.ArgumentParser, players: argparse.Action) -> None:
    """Give ``parser`` the epilog listing every game's variants and its ``--players`` argument
    the help naming each game's range, both made when the help is shown."""
    help_later(parser, parser, "epilog", variants_epilog)
    help_later(parser, players, "help", players_help)


def command_modules() -> list[str]:
    """The names of this package's modules, sorted: each command's module is named after it."""
    folder = os.path.dirname(__file__)
    return sorted(name.removesuffix(".py") for name in os.listdir(folder)
                  if name.endswith(".py") and not name.startswith("_"))


def build_parser(command: str | None = None) -> argparse.ArgumentParser:
    """The argument parser with every command module's subcommand registered, or only
    ``command``'s when that names a command: running one command needs no other's parser,
    and building them all imports more than `companion rules` needs."""
    parser = OneLineParser(
        prog="companion",
        description="Referee, monitor and game record for coin games played on a real table.",
    )
    parser.add_argument("--version", action="version", version=f"%(prog)s {__version__}")
    subparsers = parser.add_subparsers(dest="command", metavar="COMMAND")
    names = command_modules()
    if command in names:
        register = getattr(importlib.import_module(f"{__name__}.{command}"), "register", None)
        if register is not None:
            register(subparsers)
            return parser
    for name in names:
        register = getattr(importlib.import_module(f"{__name__}.{name}"), "register", None)
        if register is not None:
            register(subparsers)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; returns the process exit code."""
    defer_inspect()
    if argv is None:
        argv = sys.argv[1:]
    parser = build_parser(argv[0] if argv else None)
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
