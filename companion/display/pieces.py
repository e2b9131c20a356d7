"""The pieces of the board picture: the palette, fonts and coin sprites, and drawing coins,
stacks, pawns, highlights and paths into the square boxes a layout gives.

Highlights use the Okabe-Ito palette, which colour-blind players can tell apart, and always come
with a shape as well (a ring with dark borders for legal targets, a cross for wrong squares,
numbered steps and an arrow for a path), never colour alone. Coins are drawn at their true
relative sizes (a dime is smaller than a penny, a quarter the largest).
"""

from __future__ import annotations

import math

import pygame

from companion.display.layout import Box
from companion.display.snapshot import RGB, PlayerView
from contract.observation import COIN_KINDS

# Okabe-Ito, the palette for colour-blind-safe highlights.
ORANGE: RGB = (230, 159, 0)
SKY_BLUE: RGB = (86, 180, 233)
BLUISH_GREEN: RGB = (0, 158, 115)
YELLOW: RGB = (240, 228, 66)
BLUE: RGB = (0, 114, 178)
VERMILLION: RGB = (213, 94, 0)
BLACK: RGB = (0, 0, 0)
WHITE: RGB = (255, 255, 255)

TARGET_COLOUR = SKY_BLUE
PATH_COLOUR = YELLOW
PROBLEM_COLOUR = VERMILLION
BACKGROUND: RGB = (22, 26, 34)
PANEL: RGB = (36, 42, 54)
PANEL_HIGHLIGHT: RGB = (58, 68, 88)
TEXT: RGB = (242, 242, 242)
MUTED: RGB = (165, 174, 190)
LIGHT_SQUARE: RGB = (228, 232, 214)
DARK_SQUARE: RGB = (112, 144, 102)
OUTLINE: RGB = (20, 20, 24)

#: Message bar fill and text colour, icon shape and word by severity.
SEVERITY_STYLE: dict[str, tuple[RGB, RGB, str]] = {
    "info": (BLUE, WHITE, "INFO"),
    "warning": (YELLOW, BLACK, "CHECK"),
    "error": (VERMILLION, WHITE, "STOP"),
}
#: Coin face, rim and shine colours by letter.
METALS: dict[str, tuple[RGB, RGB, RGB]] = {
    "P": ((192, 112, 58), (118, 60, 26), (230, 162, 112)),
    "N": ((166, 168, 172), (92, 94, 100), (210, 212, 216)),
    "D": ((204, 206, 212), (112, 114, 122), (240, 241, 244)),
    "Q": ((186, 190, 196), (100, 104, 112), (228, 230, 234)),
    "S": ((206, 170, 68), (128, 98, 28), (242, 216, 132)),
}
LARGEST_COIN_MM = COIN_KINDS["Q"][1]


def score_text(cents: int, unit: str = "¢") -> str:
    """A score as the screen shows it: cents in dollars and cents (``score_text(41) ==
    "$0.41"``), any other unit after the number (``score_text(14, " coins") == "14 coins"``,
    ``score_text(1, " points") == "1 point"``)."""
    if unit != "¢":
        if cents == 1 and unit.startswith(" ") and unit.endswith("s"):
            return f"1{unit[:-1]}"
        return f"{cents}{unit}"
    sign = "-" if cents < 0 else ""
    return f"{sign}${abs(cents) // 100}.{abs(cents) % 100:02d}"


class Sprites:
    """Fonts, rendered text and coin pictures, each made once: drawing at 60 frames a second
    cannot afford to load a font or rasterise a glyph per frame."""

    TEXT_LIMIT = 2048

    def __init__(self) -> None:
        self._fonts: dict[int, pygame.font.Font] = {}
        self._texts: dict[tuple[str, int, RGB], pygame.Surface] = {}
        self._coins: dict[tuple[str, int, bool], pygame.Surface] = {}

    def font(self, size: int) -> pygame.font.Font:
        """pygame's default font at ``size``, loaded once."""
        if size not in self._fonts:
            self._fonts[size] = pygame.font.Font(None, size)
        return self._fonts[size]

    def text(self, text: str, size: int, colour: RGB) -> pygame.Surface:
        """Antialiased text, rendered once per (text, size, colour)."""
        key = (text, size, colour)
        surface = self._texts.get(key)
        if surface is None:
            if len(self._texts) >= self.TEXT_LIMIT:
                self._texts.clear()
            surface = display_format(self.font(size).render(text, True, colour), alpha=True)
            self._texts[key] = surface
        return surface

    def coin(self, letter: str, radius: int, lettered: bool) -> pygame.Surface:
        """A coin's picture with a transparent surround, drawn once per kind and size."""
        key = (letter, radius, lettered)
        sprite = self._coins.get(key)
        if sprite is None:
            sprite = pygame.Surface((2 * radius + 4, 2 * radius + 4), pygame.SRCALPHA)
            paint_coin(sprite, letter, (radius + 2, radius + 2), radius,
                       self if lettered else None)
            sprite = display_format(sprite, alpha=True)
            self._coins[key] = sprite
        return sprite


def coin_radius(letter: str, cell: int) -> int:
    """A coin's radius on a square of ``cell`` pixels, true to size: a quarter spans 84%."""
    return max(2, round(cell * 0.42 * COIN_KINDS[letter][1] / LARGEST_COIN_MM))


def draw_coin(
    surface: pygame.Surface, letter: str, centre: tuple[int, int], radius: int,
    cache: Sprites, lettered: bool = True,
) -> None:
    """One coin seen from above (from the sprites), with its letter when ``lettered``."""
    sprite = cache.coin(letter, radius, lettered)
    surface.blit(sprite, (centre[0] - radius - 2, centre[1] - radius - 2))


def paint_coin(
    surface: pygame.Surface, letter: str, centre: tuple[int, int], radius: int,
    cache: Sprites | None,
) -> None:
    """One coin seen from above: rim, face, a shine to the upper left and its letter."""
    face, rim, shine = METALS[letter]
    x, y = centre
    pygame.draw.circle(surface, OUTLINE, centre, radius + 1)
    pygame.draw.circle(surface, rim, centre, radius)
    pygame.draw.circle(surface, face, centre, max(1, radius * 86 // 100))
    pygame.draw.circle(surface, shine, (x - radius // 4, y - radius // 4), max(1, radius // 4))
    if cache is not None and radius >= 8:
        blit_centred(surface, cache.text(letter, max(8, radius), rim), centre)


def draw_stack(surface: pygame.Surface, stack: str, box: Box, cache: Sprites) -> None:
    """A stack seen from above: the top coin with the edges of the coins below it."""
    cell = box.width
    x, y = box.center
    step = max(1, cell // 28)
    depth = min(len(stack) - 1, 3)
    for index in range(depth, 0, -1):
        letter = stack[-1 - index]
        edge_radius = coin_radius(letter, cell)
        pygame.draw.circle(surface, OUTLINE, (x, y + index * step), edge_radius + 1)
        pygame.draw.circle(surface, METALS[letter][1], (x, y + index * step), edge_radius)
    draw_coin(surface, stack[-1], (x, y), coin_radius(stack[-1], cell), cache)


def draw_height_badge(surface: pygame.Surface, height: int, box: Box, cache: Sprites) -> None:
    """The number of coins in a stack, white on black in the square's top right corner."""
    badge_radius = max(6, box.width * 15 // 100)
    centre = (box.right - badge_radius - 2, box.y + badge_radius + 2)
    pygame.draw.circle(surface, WHITE, centre, badge_radius + 2)
    pygame.draw.circle(surface, OUTLINE, centre, badge_radius)
    blit_centred(surface, cache.text(str(height), badge_radius * 2, WHITE), centre)


def target_ring(box: Box) -> tuple[Box, int]:
    """The coloured band of a target highlight: its outer box and its width in pixels."""
    border = max(1, box.width // 40)
    width = max(3, box.width // 11)
    return box.inset(max(1, box.width // 30) + border), width


def draw_target(surface: pygame.Surface, box: Box) -> None:
    """A legal target: a thick sky-blue ring with dark borders inside the square's edge."""
    ring, width = target_ring(box)
    border = max(1, box.width // 40)
    pygame.draw.rect(surface, OUTLINE, ring.inset(-border), width + 2 * border)
    pygame.draw.rect(surface, TARGET_COLOUR, ring, width)


def draw_problem(surface: pygame.Surface, box: Box) -> None:
    """A square that differs from what is legal: a vermillion frame and a cross over it."""
    width = max(3, box.width // 14)
    inner = box.inset(width)
    pygame.draw.rect(surface, OUTLINE, box.inset(1), width + 4)
    pygame.draw.rect(surface, PROBLEM_COLOUR, box.inset(3), width)
    corners = ((inner.x, inner.y), (inner.right, inner.bottom)), (
        (inner.right, inner.y), (inner.x, inner.bottom))
    for start, end in corners:
        pygame.draw.line(surface, OUTLINE, start, end, width + 4)
    for start, end in corners:
        pygame.draw.line(surface, PROBLEM_COLOUR, start, end, width)


def draw_pawn(
    surface: pygame.Surface, player: PlayerView, centre: tuple[int, int], cell: int,
    cache: Sprites,
) -> None:
    """A pawn seen from the side, in the player's colour, dark outline, seat number on its head."""
    x, y = centre
    unit = cell / 100
    outline = max(2, round(cell / 30))
    head_radius = round(22 * unit)
    head = (x, y - round(17 * unit))
    body = [(x - 17 * unit, y + 28 * unit), (x + 17 * unit, y + 28 * unit),
            (x + 9 * unit, y - 2 * unit), (x - 9 * unit, y - 2 * unit)]
    base = pygame.Rect(0, 0, round(64 * unit), round(18 * unit))
    base.center = (x, round(y + 32 * unit))
    pygame.draw.ellipse(surface, OUTLINE, base.inflate(2 * outline, 2 * outline))
    pygame.draw.polygon(surface, OUTLINE, body, 0)
    pygame.draw.polygon(surface, OUTLINE, body, outline * 2)
    pygame.draw.circle(surface, OUTLINE, head, head_radius + outline)
    pygame.draw.ellipse(surface, player.colour, base)
    pygame.draw.polygon(surface, player.colour, body)
    pygame.draw.circle(surface, player.colour, head, head_radius)
    label = cache.text(str(player.number), max(10, round(head_radius * 1.7)),
                       ink_on(player.colour))
    blit_centred(surface, label, (head[0], head[1] + 1))


def draw_path_line(surface: pygame.Surface, boxes: list[Box], cell: int) -> None:
    """A path's line: thick yellow with dark edges from square to square, an arrow at the end."""
    if len(boxes) < 2:
        return
    points = [box.center for box in boxes]
    width = max(4, cell // 7)
    tip = _towards(points[-1], points[-2], path_badge_radius(cell) + 2)
    line = [*points[:-1], tip]
    pygame.draw.lines(surface, OUTLINE, False, line, width + 6)
    for point in line:
        pygame.draw.circle(surface, OUTLINE, point, (width + 6) // 2)
    pygame.draw.lines(surface, PATH_COLOUR, False, line, width)
    for point in line[:-1]:
        pygame.draw.circle(surface, PATH_COLOUR, point, width // 2)
    _draw_arrowhead(surface, points[-2], tip, width * 5 // 2)


def path_badge_radius(cell: int) -> int:
    """The radius of a path's numbered step markers."""
    return max(8, cell * 17 // 100)


def draw_path_steps(
    surface: pygame.Surface, boxes: list[Box], cell: int, cache: Sprites
) -> None:
    """Numbered markers on every square the path steps onto (1, 2, .., target last)."""
    badge = path_badge_radius(cell)
    for number, box in enumerate(boxes[1:] if len(boxes) > 1 else boxes, start=1):
        pygame.draw.circle(surface, OUTLINE, box.center, badge + 3)
        pygame.draw.circle(surface, PATH_COLOUR, box.center, badge)
        blit_centred(surface, cache.text(str(number), round(badge * 1.8), BLACK), box.center)


def draw_placement(surface: pygame.Surface, box: Box, cache: Sprites) -> None:
    """A square that receives coins with the move: a yellow diamond with a plus sign."""
    x, y = box.center
    size = box.width * 22 // 100
    diamond = [(x, y - size), (x + size, y), (x, y + size), (x - size, y)]
    pygame.draw.polygon(surface, OUTLINE, diamond, 0)
    pygame.draw.polygon(surface, OUTLINE, diamond, 6)
    pygame.draw.polygon(surface, PATH_COLOUR, diamond)
    blit_centred(surface, cache.text("+", round(size * 1.8), BLACK), (x, y))


def _draw_arrowhead(
    surface: pygame.Surface, start: tuple[int, int], tip: tuple[int, int], length: int
) -> None:
    angle = math.atan2(tip[1] - start[1], tip[0] - start[0])
    wing = 0.5
    left = (tip[0] - length * math.cos(angle - wing), tip[1] - length * math.sin(angle - wing))
    right = (tip[0] - length * math.cos(angle + wing), tip[1] - length * math.sin(angle + wing))
    pygame.draw.polygon(surface, OUTLINE, [tip, left, right], 0)
    pygame.draw.polygon(surface, OUTLINE, [tip, left, right], 6)
    pygame.draw.polygon(surface, PATH_COLOUR, [tip, left, right])


def ink_on(colour: RGB) -> RGB:
    """Black or white, whichever reads better on ``colour``."""
    red, green, blue = colour
    return BLACK if 0.299 * red + 0.587 * green + 0.114 * blue > 140 else WHITE


def _towards(
    point: tuple[int, int], other: tuple[int, int], distance: int
) -> tuple[int, int]:
    """The point ``distance`` pixels from ``point`` towards ``other``."""
    dx, dy = other[0] - point[0], other[1] - point[1]
    length = math.hypot(dx, dy) or 1.0
    return round(point[0] + dx * distance / length), round(point[1] + dy * distance / length)


def blit_centred(surface: pygame.Surface, image: pygame.Surface, centre: tuple[int, int]) -> None:
    surface.blit(image, image.get_rect(center=centre))


def blit_left(
    surface: pygame.Surface, image: pygame.Surface, left_middle: tuple[int, int]
) -> None:
    surface.blit(image, image.get_rect(midleft=left_middle))


def display_format(surface: pygame.Surface, alpha: bool = False) -> pygame.Surface:
    """The surface in the window's pixel format for fast blits, when there is a window."""
    if pygame.display.get_init() and pygame.display.get_surface() is not None:
        return surface.convert_alpha() if alpha else surface.convert()
    return surface


def wrap_text(cache: Sprites, text: str, size: int, box: Box) -> tuple[list[str], int]:
    """Break text into at most two lines that fit the box, shrinking the font when needed."""
    while True:
        font = cache.font(size)
        lines: list[str] = []
        for word in text.split():
            if lines and font.size(f"{lines[-1]} {word}")[0] <= box.width:
                lines[-1] = f"{lines[-1]} {word}"
            else:
                lines.append(word)
        fits = len(lines) <= 2 and font.get_linesize() * len(lines) <= box.height
        if fits or size <= 12:
            break
        size = max(12, size * 9 // 10)
    if len(lines) > 2:  # still too long at the smallest size: end the second line with "..."
        words = " ".join(lines[1:]).split()
        while len(words) > 1 and font.size(" ".join(words) + "...")[0] > box.width:
            words.pop()
        lines = [lines[0], " ".join(words) + "..."]
    return lines, size


def fit_size(cache: Sprites, text: str, size: int, width: int) -> int:
    """The largest font size up to ``size`` at which ``text`` fits in ``width`` pixels."""
    measured = cache.font(size).size(text)[0]
    if measured > width:  # text width grows about in proportion to the size: jump, then step
        size = max(10, size * width // max(1, measured))
        while size > 10 and cache.font(size).size(text)[0] > width:
            size -= 1
    return size
