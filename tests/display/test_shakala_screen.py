"""The side screen during Shakala (issue 20, item 4): both tracks' arrows between the pits with
the forks and joins named, each pit's and cup's loose coins as counts per kind, the last move's
route, both scores in points; drawn from the referee's view and saved as a real PNG."""

import cv2
import numpy as np

from companion.display.layout import compute_layout
from companion.display.mat_drawing import ORIGIN_COLOUR, TRACK_COLOURS
from companion.display.pieces import LIGHT_SQUARE, METALS, PATH_COLOUR, score_text
from companion.display.screen import save_screenshot
from companion.games.shakala import GAME
from companion.referee import Press, Referee, Seen
from companion.screen_view import default_seats, snapshot_of
from contract.observation import Observation, RegionReading
from tests.games.shakala.helpers import board

SIZE = (1600, 900)


def camera_sees(position):
    return Observation({name: RegionReading(count=look.count, kinds=look.kinds)
                        for name, look in GAME.layout(position).looks().items()})


def near(pixels, colour, tolerance=12):
    """How many of ``pixels`` lie within ``tolerance`` of ``colour`` on every channel."""
    return int((np.abs(pixels.astype(int) - np.array(colour)).max(axis=-1) <= tolerance).sum())


def screen_after(tmp_path, position, move_text):
    """The referee accepts ``move_text`` from the camera; the screen is drawn and read back."""
    referee = Referee(GAME, position, position=position)
    referee.handle(Press(f"END{position.to_move}"))
    referee.handle(Seen(camera_sees(GAME.apply(position, GAME.parse_move(move_text)))))
    snapshot = snapshot_of(referee.view(), default_seats(2, GAME.info.token_colours),
                           game=GAME.name)
    path = save_screenshot(snapshot, tmp_path / "shakala.png", SIZE)
    image = cv2.cvtColor(cv2.imread(str(path)), cv2.COLOR_BGR2RGB)
    layout = compute_layout(SIZE, players=2, mat=snapshot.mat)
    return snapshot, image, layout


def rim(image, box):
    """The pixels on a round pit's rim (where the route's ring is drawn)."""
    radius = min(box.width, box.height) / 2
    ys, xs = np.mgrid[0:image.shape[0], 0:image.shape[1]]
    distance = np.hypot(xs - box.center[0], ys - box.center[1])
    return image[(distance >= radius - 3) & (distance <= radius - 1)]


def crop(image, box):
    return image[box.y:box.bottom, box.x:box.right]


def test_the_tracks_pits_cups_route_and_scores_are_drawn(tmp_path):
    position = board({"H": "ss3", "e": "1", "f": "s", "g": "s", "A": "s12", "a": "s4"},
                     cups=((2, 4), (1, 3)))
    move = next(move for move in GAME.legal_moves(position)
                if move.origin == 7 and move.regions() == ("H", "e", "f", "g"))
    snapshot, image, layout = screen_after(tmp_path, position, move.text())
    boxes = dict(layout.regions)
    assert snapshot.last_path == ("H", "e", "f", "g")
    # both tracks' arrows lie on the paper between the pits, in the printed mat's colours
    board_pixels = crop(image, layout.board)
    for colour in TRACK_COLOURS.values():
        assert near(board_pixels, colour, 20) > 50
    assert {text for text, _ in layout.notes} == {"E fork", "e fork", "H join", "h join"}
    # each pit's coins: a pit with pennies shows copper, an empty pit only paper
    penny = METALS["P"][0]
    assert near(crop(image, boxes["A"]), penny) > 20
    assert near(crop(image, boxes["C"]), penny) == 0
    x, y = boxes["C"].center
    assert np.abs(image[y, x].astype(int) - LIGHT_SQUARE).max() <= 8
    # the cups show their gems: South's 2 and 4 (a nickel and a dollar), none of them copper
    south_cup = crop(image, boxes["cup-south"])
    assert near(south_cup, METALS["N"][0], 6) > 10 and near(south_cup, METALS["S"][0], 6) > 10
    assert near(south_cup, penny) == 0
    # the last route: H ringed orange (picked up), e f g yellow (sown into)
    for name, colour in (("H", ORIGIN_COLOUR), ("e", PATH_COLOUR), ("f", PATH_COLOUR),
                         ("g", PATH_COLOUR)):
        ring = rim(image, boxes[name])
        assert near(ring, colour, 20) > 0.6 * len(ring), name
    for name in ("B", "a", "h"):  # not on the route
        ring = rim(image, boxes[name])
        assert near(ring, ORIGIN_COLOUR, 20) + near(ring, PATH_COLOUR, 20) < 0.15 * len(ring)


def test_scores_are_points_with_the_singular_for_one():
    assert score_text(1, GAME.info.score_unit) == "1 point"
    assert score_text(23, GAME.info.score_unit) == "23 points"


def test_counts_per_kind_are_drawn_for_a_crowded_pit(tmp_path):
    """Twelve coins of four kinds in one pit are shown as rows, not a heap: each kind's
    colour appears once per row."""
    position = board({"A": "ssss1122334", "H": "s", "a": "s"})
    _, image, layout = screen_after(tmp_path, position, "H-es")
    pit = crop(image, dict(layout.regions)["A"])
    for kind in "PDNQS":
        assert near(pit, METALS[kind][0], 6) > 5, kind
