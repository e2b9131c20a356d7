"""The one table of colour names the whole program draws with: a seat's pawn colour (a game's
``GameInfo.token_colours`` names them by seat) as the side screen and replay show it (RGB, the
Okabe-Ito palette, which colour-blind players can tell apart)."""

from __future__ import annotations

from collections.abc import Mapping

RGB = tuple[int, int, int]

COLOUR_RGB: Mapping[str, RGB] = {
    "red": (213, 94, 0),
    "blue": (0, 114, 178),
    "green": (0, 158, 115),
    "yellow": (240, 228, 66),
    "orange": (230, 159, 0),
    "sky blue": (86, 180, 233),
    "purple": (204, 121, 167),
    "black": (40, 40, 40),
    "white": (235, 235, 235),
}
#: What a colour name the table does not know is drawn as.
UNKNOWN_COLOUR: RGB = (128, 128, 128)


def colour_rgb(name: str) -> RGB:
    """The RGB a colour name is drawn with (grey for a name not in :data:`COLOUR_RGB`)."""
    return COLOUR_RGB.get(name.lower(), UNKNOWN_COLOUR)
