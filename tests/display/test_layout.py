"""The layout keeps squares square and every box inside the window, at any size."""

import itertools

import pytest

from companion.display.layout import Box, compute_layout

SIZES = [(1600, 900), (1920, 1080), (1280, 720), (800, 600), (1024, 1280), (2560, 1080), (320, 200)]
BOARDS = [(8, 8), (6, 12), (12, 6)]


@pytest.mark.parametrize(
    "size, board, players", list(itertools.product(SIZES, BOARDS, [1, 2, 4]))
)
def test_every_box_lies_inside_the_window_and_squares_are_square(size, board, players):
    files, ranks = board
    layout = compute_layout(size, files, ranks, players)
    window = layout.window
    assert layout.size == size
    boxes = [layout.board, layout.panel, layout.header, layout.turn, layout.score_header,
             layout.list_area, layout.camera, layout.message_bar, *layout.score_rows]
    for box in boxes:
        assert window.contains(box), box
    squares = layout.squares()
    assert len(squares) == files * ranks
    for box in squares.values():
        assert box.width == box.height == layout.cell
        assert layout.board.contains(box)
    assert layout.board.width == files * layout.cell
    assert layout.board.height == ranks * layout.cell


@pytest.mark.parametrize("size", SIZES)
def test_board_panel_and_message_bar_do_not_overlap(size):
    layout = compute_layout(size)
    assert layout.board.right <= layout.panel.x
    assert layout.board.bottom <= layout.message_bar.y
    assert layout.file_labels.bottom <= layout.message_bar.y
    assert layout.panel.bottom <= layout.message_bar.y
    assert layout.list_area.right <= layout.camera.x
    for upper, lower in zip(layout.score_rows, layout.score_rows[1:], strict=False):
        assert upper.bottom <= lower.y


def test_a1_is_bottom_left_and_h8_top_right_as_south_sees_the_board():
    layout = compute_layout((1600, 900))
    a1, h1, h8 = layout.square("a1"), layout.square("h1"), layout.square("h8")
    assert (a1.x, a1.bottom) == (layout.board.x, layout.board.bottom)
    assert (h8.right, h8.y) == (layout.board.right, layout.board.y)
    assert h1.y == a1.y and h1.x > a1.x


def test_squares_tile_the_board_without_gaps():
    layout = compute_layout((1920, 1080), 6, 12)
    covered = sum(box.width * box.height for box in layout.squares().values())
    assert covered == layout.board.width * layout.board.height


def test_a_bigger_window_gives_a_bigger_board_and_bigger_text():
    small, large = compute_layout((1280, 720)), compute_layout((1920, 1080))
    assert large.cell > small.cell
    assert large.text.normal > small.text.normal
    assert large.camera.width > small.camera.width


def test_full_hd_text_is_large_enough_to_read_from_two_metres():
    layout = compute_layout((1920, 1080))
    assert layout.text.normal >= 40
    assert layout.text.large >= 60
    assert layout.cell >= 100


def test_camera_view_keeps_a_wide_aspect():
    layout = compute_layout((1600, 900))
    assert 1.6 < layout.camera.width / layout.camera.height < 1.9


def test_score_columns_split_the_row():
    layout = compute_layout((1600, 900))
    row = layout.score_rows[0]
    name, score, taken = layout.score_columns(row)
    assert name.x == row.x and taken.right == row.right
    assert name.right == score.x and score.right == taken.x


def test_box_helpers():
    box = Box(10, 20, 30, 40)
    assert (box.right, box.bottom, box.center) == (40, 60, (25, 40))
    assert box.inset(5) == Box(15, 25, 20, 30)
    assert box.inset(100) == Box(110, 120, 0, 0)
    assert box.contains(box.inset(1)) and not box.inset(1).contains(box)
