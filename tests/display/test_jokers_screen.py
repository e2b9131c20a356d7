"""The side screen of a Jokers and Coins game (issue 21, item 5): the ring and HOME rows with
every coin, each seat's progress, the card just played and its legal plays, the team progress
and the cards left by rank, drawn on a real pygame surface and saved as a PNG."""

from dataclasses import replace

import cv2
import numpy as np
import pygame

from companion.display.layout import compute_layout
from companion.display.pieces import LIGHT_SQUARE
from companion.display.screen import save_screenshot
from companion.games.jokers_and_coins import GAME
from companion.referee import Press, Referee, Seen
from companion.screen_view import default_seats, snapshot_of
from contract.observation import CardReading, Observation, RegionReading
from tests.games.jokers_and_coins.helpers import table

SIZE = (1280, 720)


def after_a_played_queen():
    position = table(4, {1: ["t20", "h1-1"], 2: ["t25", "t60"], 3: ["t30"], 4: ["h4-4"]})
    referee = Referee(GAME, position, position=position)
    part = GAME.mover_part(position, GAME.parse_move("Q:t20>t30"))
    assert part is not None  # seat 3 is seat 1's partner: its coin goes to its IN by hand
    looks = GAME.layout(GAME.apply_text(position, "Q:t20>t30")).looks()
    regions = {name: RegionReading(look.coin, look.pawn, count=look.count, kinds=look.kinds)
               for name, look in looks.items()}
    regions["discard-1"] = RegionReading(card=CardReading("Q", 0.95, (0.0, 0.0)))
    referee.handle(Press("END1"))
    referee.handle(Seen(Observation(regions)))
    return referee


def test_the_screen_shows_the_ring_the_card_played_and_the_cards_left(tmp_path):
    referee = after_a_played_queen()
    view = referee.view()
    facts = view.facts
    assert facts[0] == "The Q was read by the camera."
    assert facts[1] == "Seat 1 played a Q: Q:t20>t30"
    assert facts[2].startswith("Legal plays of that Q (") and "Q:enter" in facts[2]
    assert "Teams HOME: 1+3: 1/8, 2+4: 1/8" in facts
    assert any(line.startswith("Unseen cards: A:12 2:12") for line in facts)
    assert any("Q:11 K:12 joker:6" in line for line in facts)
    seats = default_seats(4, GAME.info.token_colours)
    snapshot = snapshot_of(view, seats, game=GAME.name)
    assert snapshot.mat is not None and snapshot.facts == facts
    assert snapshot.player(1).note.startswith("5 cards")
    path = save_screenshot(snapshot, tmp_path / "jokers.png", SIZE)
    image = cv2.cvtColor(cv2.imread(str(path)), cv2.COLOR_BGR2RGB)
    assert image.shape[:2] == (SIZE[1], SIZE[0])
    layout = compute_layout(SIZE, players=4, mat=snapshot.mat)
    boxes = dict(layout.regions)
    coins = GAME.layout(referee.position)
    assert {"t30", "t40", "h1-1", "h4-4"} <= set(coins)
    for name in coins:  # every coin covers its space's middle, HOME rows included
        x, y = boxes[name].center
        assert np.abs(image[y, x].astype(int) - LIGHT_SQUARE).max() > 8, name
    bare = save_screenshot(replace(snapshot, facts=()), tmp_path / "bare.png", SIZE)
    plain = cv2.cvtColor(cv2.imread(str(bare)), cv2.COLOR_BGR2RGB)
    area = layout.list_area
    drawn = np.abs(image[area.y:area.bottom, area.x:area.right].astype(int)
                   - plain[area.y:area.bottom, area.x:area.right].astype(int)).max(axis=2)
    assert (drawn > 40).sum() > 500  # the facts' text is drawn in the list area


def test_every_token_of_a_token_seat_is_drawn(tmp_path):
    position = table(6, {5: ["t10", "t50", "h5-2"], 6: ["t80"]}, to_move=5)
    referee = Referee(GAME, position, position=position)
    seats = default_seats(6, GAME.info.token_colours)
    snapshot = snapshot_of(referee.view(), seats, game=GAME.name)
    assert snapshot.tokens == (("h5-2", 5), ("supply-5", 5), ("supply-6", 6), ("t10", 5),
                               ("t50", 5), ("t80", 6))
    path = save_screenshot(snapshot, tmp_path / "tokens.png", SIZE)
    image = cv2.cvtColor(cv2.imread(str(path)), cv2.COLOR_BGR2RGB)
    boxes = dict(compute_layout(SIZE, players=6, mat=snapshot.mat).regions)
    for name, _ in snapshot.tokens:
        x, y = boxes[name].center
        assert np.abs(image[y, x].astype(int) - LIGHT_SQUARE).max() > 8, name


def test_region_names_on_a_crowded_ring_cover_no_other_region_or_name():
    from companion.display.board_drawing import region_name_places
    from companion.display.pieces import Sprites
    from companion.games.shakala import GAME as SHAKALA
    from companion.screen_view import board_shape

    for players in (4, 6):
        mat = board_shape(GAME, players).mat
        layout = compute_layout(SIZE, players=players, mat=mat)
        places = region_name_places(layout, Sprites())
        boxes = dict(layout.regions)
        sprites = Sprites()
        fitting = {name for name, box in layout.regions
                   if sprites.text(name, layout.text.small, (0, 0, 0)).get_width() <= box.width}
        assert places and fitting <= {name for name, _ in places}
        assert len(places) < len(layout.regions)  # the crowded track spaces go unnamed
        for index, (name, where) in enumerate(places):
            assert where.collidelist([rect for _, rect in places[index + 1:]]) == -1, name
            if where.width > boxes[name].width:  # a name that sticks out of its region
                assert where.collidelist([pygame.Rect(box) for other, box in layout.regions
                                          if other != name]) == -1, name
    # Names small enough for their region are all there: every pit of Shakala's mat.
    pits = compute_layout(SIZE, players=2, mat=board_shape(SHAKALA, 2).mat)
    assert {name for name, _ in region_name_places(pits, Sprites())} >= set("ABCDEFGHabcdefgh")
