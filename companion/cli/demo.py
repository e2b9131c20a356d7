"""`companion demo`: a whole game on the simulated table."""

from __future__ import annotations

import argparse


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add the `demo` subcommand."""
    parser = subparsers.add_parser(
        "demo", help="play a whole game on the simulated table (camera, panel, players)"
    )
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    """Say what the demo will do; the referee issue makes it real."""
    print(
        "The demo is not built yet: it will play a whole game of Coin Isolation on a simulated "
        "table (synthetic camera, software panel, bot players) through the real referee, vision "
        "and screen. Until then, try `companion rules new --players 2` and `companion rules show`."
    )
    return 0
