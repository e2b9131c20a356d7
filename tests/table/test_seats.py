"""Seats above the panel: how many END buttons there are comes from the panel's HELLO, and
seats without one end their turns on the keyboard (keys 1 to 6)."""

import pygame
import pytest

from companion.display.screen import DEFAULT_KEY_BUTTONS
from companion.panel.driver import open_panel
from companion.panel.errors import PanelUnavailableError
from companion.referee import Press, Referee, end_button_seat
from companion.table import seats_short
from tests.table.helpers import GAME, SimTable


def test_end_buttons_name_their_seat_and_nothing_else_does():
    assert [end_button_seat(f"END{seat}") for seat in range(1, 7)] == [1, 2, 3, 4, 5, 6]
    assert end_button_seat("UNDO") is None
    assert end_button_seat("END0") is None and end_button_seat("ENDX") is None


def test_keys_one_to_six_end_seats_one_to_six():
    assert [DEFAULT_KEY_BUTTONS[getattr(pygame, f"K_{seat}")] for seat in range(1, 7)] == [
        f"END{seat}" for seat in range(1, 7)]


def test_an_end_button_of_a_seat_not_to_move_is_answered_not_ignored():
    position = GAME.new_position(2, (), seed=3)
    referee = Referee(GAME, position, position=position)
    assert referee.handle(Press("END5", "keyboard")) == []
    assert "player 1's turn" in referee.view().message


def test_seats_without_an_end_button_are_named_with_their_keys():
    assert seats_short(4, 4) is None and seats_short(4, 2) is None
    assert "key 3 on the keyboard" in seats_short(2, 3)
    assert "keys 3 to 4 on the keyboard" in seats_short(2, 4)


def test_the_twin_panel_has_the_seats_its_url_asks_for():
    panel = open_panel("sim://?seats=2")
    try:
        assert panel.hello.seats == 2
        assert panel.hello.button_names() == (
            "END1", "END2", "UNDO", "SELECT", "CONFIRM", "ROLL", "HINT")
    finally:
        panel.close()
    panel = open_panel("sim://?seats=6")
    try:
        assert (panel.hello.seats, panel.hello.leds) == (6, 8)
        assert panel.hello.button_names()[4:6] == ("END5", "END6")
    finally:
        panel.close()
    for bad in ("0", "7", "9", "x"):
        with pytest.raises(PanelUnavailableError, match=f"seats must be 1 to 6, not '{bad}'"):
            open_panel(f"sim://?seats={bad}")


def test_a_panel_with_fewer_end_buttons_than_seats_says_so_on_the_screen(tmp_path):
    position = GAME.new_position(3, (), seed=4)
    table = SimTable(tmp_path, position, panel_url="sim://?seats=2")
    try:
        table.wait(lambda: "key 3 on the keyboard" in table.table.snapshot.message.text)
        assert table.table.snapshot.message.severity == "warning"
    finally:
        table.close()
