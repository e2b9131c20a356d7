"""The demo's physical table: what lies on the simulated mat, shown to the synthetic camera.

The demo's director lays coins and tokens out, drops them pit by pit, knocks one off when a bot
is sloppy, lays cards and throws dice; every change is shown to the camera at once.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import replace

from companion.launch import simulated_hands
from contract.table_state import TableState
from vision.camera import SimCamera
from vision.synth.cards import PlayedCard
from vision.synth.dice import Die

#: Frames of the camera a hand stays for before it changes the board: one is enough for the
#: steady gate to see it (and the board it leaves moves as far as the gate is concerned).
HAND_FRAMES = 1


class PhysicalBoard:
    """What lies on the simulated table, shown to the synthetic camera."""

    def __init__(self, camera: SimCamera, colours: Mapping[str, str], seed: int,
                 flat_tokens: bool = False) -> None:
        self.camera = camera
        self._colours = colours
        self._flat = flat_tokens
        self._reach = simulated_hands(camera, seed)
        self.squares: dict[str, str] = {}
        self.pawns: dict[str, str] = {}
        self.loose: set[str] = set()
        #: Whether the camera has been shown this board at all.
        self._shown = False

    def lay_out(self, table: TableState) -> None:
        """Make the table hold what ``table`` says (coins, and pawns or flat tokens in their
        owners' colours); a table that already lies so is not shown again (the camera would
        film a new frame of the same board)."""
        squares = table.stacks()
        pawns = {region: self._colours[contents.token] for region, contents in table.items()
                 if contents.token is not None}
        self.loose |= {name for name, contents in table.items() if contents.loose}
        if (squares, pawns) == (self.squares, self.pawns) and self._shown:
            return
        self.squares, self.pawns = squares, pawns
        self._show()

    def _show(self) -> None:
        """Show the camera what lies here now (tokens flat or standing, as the game plays)."""
        self._shown = True
        squares = {name: held for name, held in self.squares.items() if held}
        if self._flat:
            self.camera.show(squares, {}, tokens=self.pawns)
        else:
            self.camera.show(squares, self.pawns)

    def put(self, region: str, coins: str) -> None:
        """Make ``region`` hold ``coins`` (a hand sowing into a pit)."""
        self.squares[region] = coins
        self._show()

    def knock_off(self, rng: random.Random) -> str | None:
        """Sloppiness: remove the top coin of a random untouched square, or where coins lie
        loose (pits), drop one coin into the wrong pit; returns the square it left."""
        choices = sorted(square for square in self.squares if square not in self.pawns)
        if not choices:
            return None
        square = rng.choice(choices)
        coins = self.squares[square]
        if square in self.loose:
            coin = rng.choice(coins)
            self.squares[square] = coins.replace(coin, "", 1)
            wrong = rng.choice(sorted(self.loose - {square}))
            self.squares[wrong] = self.squares.get(wrong, "") + coin
        else:
            self.squares[square] = coins[:-1]
        self._show()  # flat tokens stay flat
        return square

    def straighten(self, layout_seed: int) -> None:
        """Push every coin to a slightly different spot in its square (a new layout seed)."""
        self.camera.synth.set_scene(replace(self.camera.scene, layout_seed=layout_seed))

    def show_cards(self, cards: Sequence[PlayedCard]) -> None:
        """Cards lie face up on the discard spots (the top of each pile)."""
        self.camera.show_cards(cards)

    def show_dice(self, dice: Sequence[Die]) -> None:
        """Dice land in the tray (the last throw's are picked up first)."""
        self.camera.show_dice(dice)

    def hand(self, present: bool) -> None:
        """A hand reaches over the board, or leaves it."""
        self._reach(present)

    @property
    def frames_shown(self) -> int:
        """How many frames the camera has started to render."""
        return self.camera.synth.frames_read
