"""Drawing on real pygame surfaces: what must show is where the layout says it is."""

from dataclasses import replace

import cv2
import numpy as np
import pygame
import pytest

from companion.display import pieces
from companion.display.layout import Box, compute_layout
from companion.display.pieces import score_text, target_ring
from companion.display.render import RenderCache, draw
from companion.display.side_panel import score_font_size
from companion.display.snapshot import CameraView, Message, PathView, PlayerView, Snapshot

SIZE = (1600, 900)
RED = PlayerView(1, "Red", "red", (200, 30, 40), "c2", 41, "PPNQPP")
TEAL = PlayerView(2, "Teal", "teal", (20, 200, 190), "f7", 136, "DQ")


def rendered(snapshot, size=SIZE, cache=None):
    layout = compute_layout(size, snapshot.files, snapshot.ranks, max(1, len(snapshot.players)))
    surface = pygame.Surface(layout.size)
    draw(surface, snapshot, layout, cache)
    return surface, layout


def pixels(surface, box=None):
    """The surface (or a box of it) as a height x width x 3 RGB array."""
    array = pygame.surfarray.array3d(surface).transpose(1, 0, 2)
    if box is None:
        return array
    return array[box.y:box.bottom, box.x:box.right]


def count_colour(array, colour):
    return int(np.all(array == np.array(colour, np.uint8), axis=-1).sum())


def test_score_text_in_dollars_and_cents():
    assert score_text(41) == "$0.41"
    assert score_text(123) == "$1.23"
    assert score_text(5) == "$0.05"
    assert score_text(0) == "$0.00"
    assert score_text(-7) == "-$0.07"


def test_targets_have_the_highlight_ring_and_other_squares_do_not(tmp_path):
    snapshot = Snapshot.example("turn")
    surface, layout = rendered(snapshot)
    pygame.image.save(surface, str(tmp_path / "targets.png"))
    array = pixels(surface)
    assert snapshot.targets
    for name, box in layout.squares().items():
        square = array[box.y:box.bottom, box.x:box.right]
        if name in snapshot.targets:
            ring, width = target_ring(box)
            middle = width // 2
            for x, y in [(ring.center[0], ring.y + middle), (ring.x + middle, ring.center[1]),
                         (ring.right - 1 - middle, ring.center[1])]:
                assert tuple(array[y, x]) == pieces.TARGET_COLOUR, name
            # The ring has dark borders on both sides, so it is a shape, not just a colour.
            assert tuple(array[ring.y - 1, ring.center[0]]) == pieces.OUTLINE
            assert tuple(array[ring.y + width, ring.center[0]]) == pieces.OUTLINE
        else:
            assert count_colour(square, pieces.TARGET_COLOUR) == 0, name


def test_pawns_are_drawn_on_their_squares_only():
    snapshot = Snapshot(players=(RED, TEAL), to_move=1)
    surface, layout = rendered(snapshot)
    board = pixels(surface, layout.board)
    for player in (RED, TEAL):
        on_square = count_colour(pixels(surface, layout.square(player.pawn)), player.colour)
        assert on_square > layout.cell * layout.cell // 8
        assert count_colour(board, player.colour) == on_square
    moved = replace(snapshot, players=(replace(RED, pawn="h8"), TEAL))
    surface, layout = rendered(moved)
    assert count_colour(pixels(surface, layout.square("c2")), RED.colour) == 0
    assert count_colour(pixels(surface, layout.square("h8")), RED.colour) > 0


def _match(crop, text, size, background):
    """How well ``text`` rendered in white on ``background`` matches somewhere in ``crop``."""
    template = pygame.font.Font(None, size).render(text, True, pieces.WHITE, background)
    template_pixels = pixels(template)
    gray = cv2.cvtColor(np.ascontiguousarray(crop), cv2.COLOR_RGB2GRAY)
    template_gray = cv2.cvtColor(np.ascontiguousarray(template_pixels), cv2.COLOR_RGB2GRAY)
    return float(cv2.matchTemplate(gray, template_gray, cv2.TM_CCOEFF_NORMED).max())


def test_scores_read_right_in_their_score_column():
    snapshot = Snapshot(players=(RED, TEAL), to_move=2)
    surface, layout = rendered(snapshot)
    size = score_font_size(layout)
    rows = [(RED, pieces.PANEL, "$0.41", ["$0.14", "$4.10", "$0.47"]),
            (TEAL, pieces.PANEL_HIGHLIGHT, "$1.36", ["$1.38", "$0.41", "$3.16"])]
    for row_box, (_, background, right, wrongs) in zip(layout.score_rows, rows, strict=True):
        score_box = layout.score_columns(row_box)[1]
        crop = pixels(surface, score_box)
        assert _match(crop, right, size, background) > 0.97
        for wrong in wrongs:
            assert _match(crop, wrong, size, background) < _match(crop, right, size, background)


def test_the_player_to_move_has_the_highlighted_row():
    surface, layout = rendered(Snapshot(players=(RED, TEAL), to_move=2))
    first, second = layout.score_rows
    array = pixels(surface)
    assert tuple(array[first.center[1], first.right - 8]) == pieces.PANEL
    assert tuple(array[second.center[1], second.right - 8]) == pieces.PANEL_HIGHLIGHT


@pytest.mark.parametrize("severity", ["info", "warning", "error"])
def test_message_bar_colour_follows_the_severity(severity, tmp_path):
    snapshot = Snapshot(message=Message("Put the dime back on d4.", severity))
    surface, layout = rendered(snapshot)
    pygame.image.save(surface, str(tmp_path / f"message-{severity}.png"))
    bar = layout.message_bar
    fill = pieces.SEVERITY_STYLE[severity][0]
    assert tuple(pixels(surface)[bar.center[1], bar.right - 12]) == fill
    others = [style[0] for name, style in pieces.SEVERITY_STYLE.items() if name != severity]
    crop = pixels(surface, bar)
    assert all(count_colour(crop, other) == 0 for other in others)
    ink = pieces.SEVERITY_STYLE[severity][1]
    assert count_colour(crop, ink) > 200  # the words and the icon are drawn


def test_no_message_leaves_a_quiet_bar():
    surface, layout = rendered(Snapshot())
    bar = layout.message_bar
    assert tuple(pixels(surface)[bar.center[1], bar.center[0]]) == pieces.PANEL


@pytest.mark.parametrize("size", [(1600, 900), (1920, 1080), (1000, 1000), (2400, 800), (640, 480)])
def test_resized_windows_keep_the_board_square_and_inside(size):
    surface, layout = rendered(Snapshot.example("turn"), size)
    assert surface.get_size() == size
    assert layout.board.width == layout.board.height
    assert layout.window.contains(layout.board)
    array = pixels(surface)
    a1, h8 = layout.square("a1"), layout.square("h8")
    assert tuple(array[a1.y + 1, a1.x + 1]) in (pieces.DARK_SQUARE, pieces.LIGHT_SQUARE)
    assert tuple(array[h8.y + 1, h8.x + 1]) == pieces.DARK_SQUARE
    assert tuple(array[layout.board.y - 8, layout.board.center[0]]) == pieces.BACKGROUND


def test_camera_view_appears_only_when_an_image_is_given():
    image = np.zeros((360, 640, 3), np.uint8)
    image[:] = (0, 0, 255)  # BGR red
    corners = ((100.0, 340.0), (540.0, 340.0), (460.0, 40.0), (180.0, 40.0))
    with_camera = Snapshot(camera=CameraView(image, corners))
    surface, layout = rendered(with_camera)
    crop = pixels(surface, layout.camera)
    assert tuple(pixels(surface)[layout.camera.y + 4, layout.camera.x + 4]) == (255, 0, 0)
    assert count_colour(crop, pieces.YELLOW) > 200  # the grid's outline
    assert count_colour(crop, pieces.SKY_BLUE) > 100  # the inner grid lines
    surface, layout = rendered(Snapshot())
    assert count_colour(pixels(surface, layout.camera), (255, 0, 0)) == 0


def test_a_new_camera_frame_is_drawn_and_the_rest_stays_cached():
    cache = RenderCache()
    image = np.full((360, 640, 3), (0, 255, 0), np.uint8)
    snapshot = replace(Snapshot.example("turn"), camera=CameraView(image, None, 1))
    first, layout = rendered(snapshot, cache=cache)
    image2 = np.full((360, 640, 3), (255, 0, 0), np.uint8)
    second, _ = rendered(replace(snapshot, camera=CameraView(image2, None, 2)), cache=cache)
    camera = layout.camera
    assert tuple(pixels(first)[camera.center[1], camera.center[0]]) == (0, 255, 0)
    assert tuple(pixels(second)[camera.center[1], camera.center[0]]) == (0, 0, 255)
    outside = Box(0, 0, camera.x - 10, layout.size[1])
    assert np.array_equal(pixels(first, outside), pixels(second, outside))
    uncached, _ = rendered(replace(snapshot, camera=CameraView(image2, None, 2)))
    assert np.array_equal(pixels(uncached), pixels(second))


def test_path_is_drawn_with_numbered_steps_between_its_squares():
    path = PathView(("c2", "d2", "d3"), "Candidate 1 of 2: c2-d2-d3")
    surface, layout = rendered(Snapshot(players=(RED, TEAL), path=path))
    array = pixels(surface)
    c2, d2 = layout.square("c2").center, layout.square("d2").center
    between = ((c2[0] + d2[0]) // 2, c2[1])
    assert tuple(array[between[1], between[0]]) == pieces.PATH_COLOUR
    for name in ("d2", "d3"):
        assert count_colour(pixels(surface, layout.square(name)), pieces.PATH_COLOUR) > 200
    assert count_colour(pixels(surface, layout.square("a8")), pieces.PATH_COLOUR) == 0


def test_problem_squares_are_crossed_out():
    surface, layout = rendered(Snapshot(problems=frozenset({"e3"})))
    assert count_colour(pixels(surface, layout.square("e3")), pieces.PROBLEM_COLOUR) > 300
    assert count_colour(pixels(surface, layout.board), pieces.PROBLEM_COLOUR) == count_colour(
        pixels(surface, layout.square("e3")), pieces.PROBLEM_COLOUR)


def test_candidates_list_marks_the_selected_one():
    snapshot = Snapshot(candidates=("c2-d2", "c2-d2-d3"), selected=1)
    surface, layout = rendered(snapshot)
    assert count_colour(pixels(surface, layout.list_area), pieces.PATH_COLOUR) > 1000
    surface, layout = rendered(replace(snapshot, selected=None))
    assert count_colour(pixels(surface, layout.list_area), pieces.PATH_COLOUR) == 0


def test_game_over_shows_the_result_in_the_turn_box():
    surface, layout = rendered(Snapshot.example("game-over"))
    turn = layout.turn
    assert tuple(pixels(surface)[turn.y + 4, turn.center[0]]) == pieces.BLUISH_GREEN


def test_stack_height_badge_shows_for_stacks_only():
    snapshot = Snapshot(stacks=(("a1", "P"), ("b1", "PQN")))
    surface, layout = rendered(snapshot)
    assert count_colour(pixels(surface, layout.square("b1")), pieces.WHITE) > 20
    assert count_colour(pixels(surface, layout.square("a1")), pieces.WHITE) == 0


def test_coins_are_drawn_at_their_true_relative_sizes():
    sizes = {letter: pieces.coin_radius(letter, 100) for letter in "DPNQ"}
    assert sizes["D"] < sizes["P"] < sizes["N"] < sizes["Q"] == 42
    snapshot = Snapshot(stacks=(("a1", "Q"), ("b1", "D")))
    surface, layout = rendered(snapshot)
    for name, letter in (("a1", "Q"), ("b1", "D")):
        face = pieces.METALS[letter][0]
        area = count_colour(pixels(surface, layout.square(name)), face)
        radius = pieces.coin_radius(letter, layout.cell) * 0.86
        assert area == pytest.approx(np.pi * radius * radius, rel=0.25)


def test_a_six_by_twelve_board_draws_its_targets():
    snapshot = Snapshot(files=6, ranks=12, targets=frozenset({"f12", "a1"}))
    surface, layout = rendered(snapshot)
    assert count_colour(pixels(surface, layout.square("f12")), pieces.TARGET_COLOUR) > 100
    assert count_colour(pixels(surface, layout.square("b2")), pieces.TARGET_COLOUR) == 0


def test_transplant_placements_get_their_own_marker_off_the_line():
    path = PathView(("c2", "d2"), "c2-d2>f5", placements=("f5",))
    surface, layout = rendered(Snapshot(players=(RED, TEAL), path=path))
    f5 = layout.square("f5")
    assert tuple(pixels(surface)[f5.center[1] - f5.height // 8, f5.center[0]]) == pieces.PATH_COLOUR
    assert count_colour(pixels(surface, layout.square("e4")), pieces.PATH_COLOUR) == 0


def test_a_single_square_path_marks_it_with_step_one():
    surface, layout = rendered(Snapshot(path=PathView(("d4",))))
    assert count_colour(pixels(surface, layout.square("d4")), pieces.PATH_COLOUR) > 200


def test_incremental_draws_report_and_redraw_only_what_changed():
    cache = RenderCache()
    layout = compute_layout(SIZE)
    surface = pygame.Surface(SIZE)
    image = np.full((360, 640, 3), (0, 255, 0), np.uint8)
    snapshot = replace(Snapshot.example("turn"), camera=CameraView(image, None, 1))
    assert draw(surface, snapshot, layout, cache, incremental=True) == [layout.window]
    assert draw(surface, snapshot, layout, cache, incremental=True) == []
    newer = replace(snapshot, camera=CameraView(np.zeros_like(image), None, 2))
    assert draw(surface, newer, layout, cache, incremental=True) == [layout.camera.inset(-3)]
    camera = layout.camera
    assert tuple(pixels(surface)[camera.center[1], camera.center[0]]) == (0, 0, 0)
    moved = replace(newer, to_move=2)
    assert draw(surface, moved, layout, cache, incremental=True) == [layout.window]
    other = pygame.Surface(SIZE)
    assert draw(other, moved, layout, cache, incremental=True) == [layout.window]
    assert draw(surface, moved, layout, cache, incremental=True) == [layout.window]
    cache.forget_shown()
    assert draw(surface, moved, layout, cache, incremental=True) == [layout.window]
    fresh, _ = rendered(moved)
    assert np.array_equal(pixels(surface), pixels(fresh))


@pytest.mark.parametrize(
    "count, rows, selected, first",
    [(3, 5, 2, 0), (10, 4, None, 0), (10, 4, 0, 0), (10, 4, 5, 3), (10, 4, 9, 6), (10, 0, 5, 0)],
)
def test_candidate_window_keeps_the_selected_candidate_in_view(count, rows, selected, first):
    from companion.display.side_panel import candidate_window

    assert candidate_window(count, rows, selected) == first
    if selected is not None and rows:
        assert first <= selected < first + rows


def test_a_long_candidate_list_scrolls_to_the_selected_one():
    candidates = tuple(f"c2-d{rank}" for rank in range(1, 9)) * 2
    snapshot = Snapshot(candidates=candidates, selected=14)
    surface, layout = rendered(snapshot)
    crop = pixels(surface, layout.list_area)
    assert count_colour(crop, pieces.PATH_COLOUR) > 1000  # the selected row is on screen


def test_a_message_too_long_for_two_lines_is_cut_with_an_ellipsis():
    from companion.display.pieces import wrap_text as _wrap

    layout = compute_layout(SIZE)
    words = " ".join(["Please put every coin back where it was before the move"] * 40)
    cache = RenderCache()
    lines, size = _wrap(cache, words, layout.text.large, layout.message_bar)
    assert len(lines) == 2 and lines[1].endswith("...")
    assert all(cache.font(size).size(line)[0] <= layout.message_bar.width for line in lines)


def test_on_a_mat_that_is_no_grid_the_camera_view_shows_the_outline_only():
    from companion.games import get_game
    from companion.screen_view import board_shape

    image = np.zeros((360, 640, 3), np.uint8)
    corners = ((100.0, 340.0), (540.0, 340.0), (460.0, 40.0), (180.0, 40.0))
    snapshot = Snapshot(camera=CameraView(image, corners),
                        mat=board_shape(get_game("shakala"), 2).mat)
    layout = compute_layout(SIZE, players=2, mat=snapshot.mat)
    surface = pygame.Surface(layout.size)
    draw(surface, snapshot, layout, None)
    crop = pixels(surface, layout.camera)
    assert count_colour(crop, pieces.YELLOW) > 200  # the play area's outline
    assert count_colour(crop, pieces.SKY_BLUE) == 0  # no square grid over pits
