"""The dice of the latest roll or battle on the side panel, drawn on a real pygame surface,
saved as PNG and read back with OpenCV: every die where the panel puts it, showing its value in
pips, with its roll's source and total in words."""

from dataclasses import replace

import cv2
import numpy as np
import pygame
import pytest

from companion.display.dice_drawing import DIE_FACE, SOURCE_WORDS, rolls_height
from companion.display.layout import compute_layout
from companion.display.render import draw
from companion.display.snapshot import DisplayError, Message, PlayerView, RollView, Snapshot

SIZE = (1600, 900)
PLAYERS = (PlayerView(1, "South", "white", (235, 235, 235), None, 12, "", "0 in reserve"),
           PlayerView(2, "North", "orange", (230, 159, 0), None, 11, "", "1 in reserve"))
BATTLE = (RollView("South's attack on c8", (6, 5), "camera", halved=True),
          RollView("North's defence of c8", (4,), "companion"))


def drawn(snapshot: Snapshot, path):
    """The screen for ``snapshot`` saved as PNG at ``path`` and read back (BGR), with its
    layout."""
    layout = compute_layout(SIZE, snapshot.files, snapshot.ranks, len(snapshot.players))
    surface = pygame.Surface(layout.size)
    draw(surface, snapshot, layout)
    pygame.image.save(surface, str(path))
    return cv2.imread(str(path)), layout


def dice_seen(image, box):
    """The dice drawn in ``box`` of the image as (x, value) left to right, top row first: each
    die-face-coloured square and the dark pips inside it."""
    crop = image[box.y:box.bottom, box.x:box.right]
    face = np.all(crop == np.array(DIE_FACE[::-1], np.uint8), axis=-1).astype(np.uint8)
    count, _, stats, _ = cv2.connectedComponentsWithStats(face)
    dice = []
    for label in range(1, count):
        x, y, width, height, _ = stats[label]
        if width < 10 or abs(width - height) > 2:
            continue
        inside = np.zeros_like(face)
        inside[y:y + height, x:x + width] = 1
        holes = (inside & (1 - face)).astype(np.uint8)
        holes = cv2.erode(holes, np.ones((2, 2), np.uint8))
        pips, _, pip_stats, _ = cv2.connectedComponentsWithStats(holes)
        shown = sum(1 for pip in range(1, pips)
                    if pip_stats[pip][0] > x + 1 and pip_stats[pip][1] > y + 1
                    and pip_stats[pip][0] + pip_stats[pip][2] < x + width - 1
                    and pip_stats[pip][1] + pip_stats[pip][3] < y + height - 1)
        dice.append((y // 20, x, shown))
    return [value for _, _, value in sorted(dice)]


def test_a_battles_dice_show_their_pips_in_order_with_source_and_halved_total(tmp_path):
    snapshot = Snapshot(game="Coin Grid", files=6, ranks=12, players=PLAYERS, to_move=1,
                        rolls=BATTLE, last_moves=("1: roll:5", "1: b6-c8"),
                        message=Message("A battle on c8."))
    image, layout = drawn(snapshot, tmp_path / "battle.png")
    assert (tmp_path / "battle.png").stat().st_size > 0
    used = rolls_height(snapshot.rolls, layout)
    area = layout.list_area
    assert 0 < used <= area.height // 2
    top = area._replace(height=used)
    assert dice_seen(image, top) == [6, 5, 4]
    # Below the dice, the list of moves is drawn where it was, moved down: nothing of a die.
    rest = area._replace(y=area.y + used, height=area.height - used)
    assert dice_seen(image, rest) == []


@pytest.mark.parametrize("face", range(1, 7))
def test_every_face_is_drawn_with_its_own_count_of_pips(tmp_path, face):
    snapshot = Snapshot(game="Coin Grid", files=6, ranks=12, players=PLAYERS, to_move=2,
                        rolls=(RollView("North's roll", (face,), "panel"),))
    image, layout = drawn(snapshot, tmp_path / f"face{face}.png")
    assert dice_seen(image, layout.list_area) == [face]


def test_no_rolls_leave_the_list_area_as_it_was(tmp_path):
    plain = Snapshot(game="Coin Grid", files=6, ranks=12, players=PLAYERS, to_move=1,
                     last_moves=("1: roll:3",))
    with_dice = replace(plain, rolls=BATTLE)
    image, layout = drawn(plain, tmp_path / "plain.png")
    dice_image, _ = drawn(with_dice, tmp_path / "dice.png")
    assert rolls_height((), layout) == 0
    area = layout.list_area
    assert dice_seen(image, area) == []
    assert not np.array_equal(image[area.y:area.bottom, area.x:area.right],
                              dice_image[area.y:area.bottom, area.x:area.right])


def test_totals_and_sources_are_said_in_words():
    attack, defence = BATTLE
    assert attack.total_text() == "= 11, halved to 5"
    assert defence.total_text() == ""
    assert RollView("x", (3, 4)).total_text() == "= 7"
    assert set(SOURCE_WORDS) == {"camera", "companion", "panel"}


def test_a_roll_that_is_no_die_is_refused_in_one_sentence():
    with pytest.raises(DisplayError, match="1 to 6"):
        Snapshot(rolls=(RollView("South's roll", (7,)),))
    with pytest.raises(DisplayError, match="unknown roll source"):
        Snapshot(rolls=(RollView("South's roll", (3,), "dice-cup"),))


@pytest.mark.parametrize(("source", "shown"), [
    ("camera", "camera"), ("random", "companion"), ("panel", "panel"), ("test", "panel")])
def test_the_referees_sources_are_named_for_the_players(source, shown):
    from companion.referee_events import RollShown
    from companion.screen_view import roll_view

    view = roll_view(RollShown("South's roll", (2,), source))
    assert (view.label, view.faces, view.source) == ("South's roll", (2,), shown)


def test_a_die_is_drawn_in_the_colour_the_camera_named_with_pips_that_stand_out(tmp_path):
    from companion.display.dice_drawing import die_colours
    from contract.colours import colour_rgb

    roll = RollView("North's defence of c8", (3, 5), "camera", colours=("red", "white"))
    snapshot = Snapshot(game="Coin Grid", files=6, ranks=12, players=PLAYERS, to_move=2,
                        rolls=(roll,))
    image, layout = drawn(snapshot, tmp_path / "red.png")
    area = layout.list_area
    crop = image[area.y:area.bottom, area.x:area.right]
    red = np.all(crop == np.array(colour_rgb("red")[::-1], np.uint8), axis=-1).astype(np.uint8)
    count, _, stats, _ = cv2.connectedComponentsWithStats(red)
    (body,) = [label for label in range(1, count) if stats[label][2] >= 10]
    x, y, width, height, _ = stats[body]
    inside = crop[y + 2:y + height - 2, x + 2:x + width - 2]
    white = np.all(inside == np.array(DIE_FACE[::-1], np.uint8), axis=-1).astype(np.uint8)
    pips = cv2.connectedComponentsWithStats(white)[0] - 1
    assert pips == 3
    assert dice_seen(image, area) == [5]  # the white die beside it
    assert die_colours("white") == die_colours("mauve")  # unknown colours are drawn white
