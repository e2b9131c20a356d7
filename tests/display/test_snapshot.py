"""The Snapshot value: validation, board names for any size, evaluable repr."""

import numpy as np
import pytest

from companion.display.snapshot import (
    CameraView,
    DisplayError,
    Message,
    PathView,
    PlayerView,
    Snapshot,
    parse_square,
    square_name,
)

NAMESPACE = {
    "Snapshot": Snapshot,
    "PlayerView": PlayerView,
    "PathView": PathView,
    "Message": Message,
    "CameraView": CameraView,
    "frozenset": frozenset,
}


@pytest.mark.parametrize("state", ["turn", "ask", "rejected", "game-over"])
def test_examples_are_valid_and_repr_round_trips_without_camera(state):
    from dataclasses import replace

    snapshot = replace(Snapshot.example(state), camera=None)
    assert eval(repr(snapshot), NAMESPACE) == snapshot
    assert hash(snapshot) == hash(eval(repr(snapshot), NAMESPACE))


def test_example_states_differ_in_what_they_show():
    turn, ask = Snapshot.example("turn"), Snapshot.example("ask")
    rejected, over = Snapshot.example("rejected"), Snapshot.example("game-over")
    assert turn.targets and not ask.targets
    assert ask.path is not None and ask.candidates and ask.selected == 1
    assert rejected.problems and rejected.message is not None
    assert rejected.message.severity == "error"
    assert over.result and over.to_move is None


def test_camera_view_repr_is_short_and_equality_ignores_the_camera():
    snapshot = Snapshot.example()
    assert snapshot.camera is not None
    assert "640x360" in repr(snapshot.camera)
    assert len(repr(snapshot)) < 3000
    from dataclasses import replace

    assert replace(snapshot, camera=None) == snapshot


def test_square_names_for_any_board_size():
    assert square_name(0, 0) == "a1"
    assert square_name(5, 11) == "f12"
    assert parse_square("f12", 6, 12) == (5, 11)
    wide = Snapshot(files=6, ranks=12, targets=frozenset({"f12", "a1"}))
    assert wide.square_names()[:2] == ("a1", "b1")
    assert wide.square_names()[-1] == "f12"
    assert len(wide.square_names()) == 72


@pytest.mark.parametrize(
    "changes, words",
    [
        ({"targets": frozenset({"i1"})}, "'i1'"),
        ({"targets": frozenset({"a9"})}, "'a9'"),
        ({"stacks": (("a1", "PX"),)}, "'X'"),
        ({"stacks": (("z1", "P"),)}, "'z1'"),
        ({"players": (PlayerView(1, "Ada", "red", (255, 0, 0), "a0"),)}, "'a0'"),
        ({"path": PathView(("a1", "a1x"))}, "'a1x'"),
        ({"path": PathView(("a1",), placements=("j1",))}, "'j1'"),
        ({"players": (PlayerView(1, "Ada", "red", [255, 0, 0]),)}, "colour [255, 0, 0]"),  # type: ignore[arg-type]
        ({"players": (PlayerView(1, "Ada", "red", (256, 0, 0)),)}, "colour (256, 0, 0)"),
        ({"candidates": ("a1-a2",), "selected": 1}, "selected"),
        ({"message": Message("hi", "fatal")}, "'fatal'"),  # type: ignore[arg-type]
        ({"files": 0}, "0x8"),
    ],
)
def test_bad_snapshots_are_refused_with_the_bad_input_named(changes, words):
    with pytest.raises(DisplayError) as caught:
        Snapshot(**changes)
    assert words in str(caught.value)


def test_stacks_from_position_json_and_stack_lookup():
    stacks = Snapshot.stacks_from({"c4": "QP", "a1": "P", "b2": ""})
    assert stacks == (("a1", "P"), ("c4", "QP"))
    snapshot = Snapshot(stacks=stacks)
    assert snapshot.stack_at("c4") == "QP"
    assert snapshot.stack_at("h8") == ""


def test_player_lookup_by_seat():
    snapshot = Snapshot.example()
    player = snapshot.player(2)
    assert player is not None and player.name == "Ben"
    assert snapshot.player(3) is None


def test_camera_view_holds_a_bgr_image():
    image = np.zeros((36, 64, 3), np.uint8)
    view = CameraView(image, ((0, 36), (64, 36), (60, 0), (4, 0)), frame_number=3)
    assert view.image is image
    assert "64x36" in repr(view)
