"""`companion vision read|coins`: the vision stage on its own, for tests and curious users.

``read IMAGE`` finds the mat's markers, rectifies the board and prints the observation as JSON
(per region: coin on top, pawn colour, confidence; plus the markers found and the milliseconds
of each stage). ``coins IMAGE`` prints every coin in an ordinary photo (centre and radius in
pixels). A file that is not an image, or a frame without the mat: one line, exit code 2.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import Any

from companion.cli.numbers import number
from vision.image_file import MAX_PIXELS

MAX_MEGAPIXELS = MAX_PIXELS // 1_000_000


def register(subparsers: Any) -> None:
    """Add ``vision`` with its ``read`` and ``coins`` subcommands."""
    parser = subparsers.add_parser(
        "vision", help="read a photo of a mat, or find coins in any photo",
        description="Run the vision stage on one image.",
    )
    commands = parser.add_subparsers(dest="vision_command", metavar="COMMAND", required=True)
    read = commands.add_parser("read", help="print the observation of a photo of a mat as JSON")
    read.add_argument("image", type=Path, help=f"a photo (PNG, JPEG, ...) showing the mat, at "
                      f"most {MAX_MEGAPIXELS} megapixels (larger ones are refused from their "
                      "header, before decoding)")
    read.add_argument("--profile", type=Path, help="a vision profile from `companion calibrate`")
    read.add_argument("--mat", default="coin-isolation", help="which mat (default coin-isolation)")
    read.add_argument("--players", type=int, choices=range(2, 7), default=None, metavar="N",
                      help="seats the mat was printed for, 2 to 6 (default 4), for "
                      "jokers-and-coins")
    read.add_argument("--square-mm", type=number("--square-mm", 10, 200),
                      help="square size in mm the mat was printed with, 10 to 200 (default: the "
                      "profile's, else the mat's own)")
    read.set_defaults(func=run_read)
    coins = commands.add_parser("coins", help="print every coin in an ordinary photo as JSON")
    coins.add_argument("image", type=Path, help=f"a photo (PNG, JPEG, ...), at most "
                       f"{MAX_MEGAPIXELS} megapixels")
    coins.set_defaults(func=run_coins)


def load_image(path: Path) -> Any:
    """The image at ``path`` as a BGR array; raises ImageReadError when it cannot be decoded or
    is larger than :data:`vision.image_file.MAX_PIXELS` (checked from the header first)."""
    from vision.image_file import read_image

    return read_image(path)


def run_read(args: argparse.Namespace) -> int:
    """Print the observation of ``args.image`` as JSON."""
    from calibration.geometry import mat_for_game
    from calibration.profile import VisionProfile, square_mm_for
    from companion.games import game_names, get_game
    from vision.read import VisionConfig, read_frame

    profile = VisionProfile.load(args.profile) if args.profile else VisionProfile.default()
    geometry = mat_for_game(args.mat, square_mm_for(args.mat, args.square_mm, profile),
                            players=args.players)
    if args.mat in game_names():
        info = get_game(args.mat).info
        kinds = info.coin_kinds if args.players is None else info.coin_kinds_for(args.players)
        profile = profile.only_kinds(kinds)
    image = load_image(args.image)
    observation = read_frame(VisionConfig(), image, geometry, profile)
    print(json.dumps(observation.to_json(), indent=1))
    return 0


def run_coins(args: argparse.Namespace) -> int:
    """Print every coin found in ``args.image`` as a JSON list."""
    from vision.coins import CoinFinderConfig, find_coins

    image = load_image(args.image)
    coins = find_coins(CoinFinderConfig(), image)
    print(json.dumps({"count": len(coins), "coins": [coin.to_json() for coin in coins]}))
    return 0
