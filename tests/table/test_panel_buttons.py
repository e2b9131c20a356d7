"""The panel's version-2 buttons and lights at the table: END5 and END6 as keys 5 and 6, ROLL as
the keyboard's `r`, HINT answered with one sentence when the table has no hints, and the lights the
referee wants fitted to the panel's own turn LEDs."""

import random

from companion.panel.protocol import LedState
from companion.referee import Lights, Phase
from companion.table import HINT_MESSAGE, led_state
from tests.games.ring_race import GAME as RING_RACE
from tests.table.helpers import GAME, SimTable


def test_led_state_has_one_turn_led_per_seat_then_green_and_red():
    assert led_state(Lights(turn=2, verdict="green"), 2) == LedState.from_text("0110")
    assert led_state(Lights(turn=None, verdict="ask", all_turns_blink=True), 3).text() == "22220"
    assert led_state(Lights(turn=6, verdict="red"), 6).text() == "00000101"
    assert led_state(Lights(turn=1), 9).text() == "10000000"  # six turn LEDs at most
    assert led_state(Lights(turn=1, verdict="red"), 2).fitted(4).text() == "100001"


def test_end5_and_end6_of_a_six_seat_panel_are_keys_5_and_6(tmp_path):
    position = GAME.new_position(2, (), seed=4)
    table = SimTable(tmp_path, position, panel_url="sim://?seats=6")
    try:
        wanted = led_state(Lights(turn=1), 2).fitted(6)
        assert wanted.text() == "10000000"
        table.wait(lambda: table.panel.twin.leds == wanted)
        table.press("END6")
        table.wait(lambda: "player 1's turn; only their button ends it" in
                   table.table.snapshot.message.text)
        assert table.referee.phase is Phase.TURN
    finally:
        table.close()


def test_the_panels_roll_button_rolls_as_the_r_key_does(tmp_path):
    position = RING_RACE.new_position(2, seed=4)
    table = SimTable(tmp_path, position, game=RING_RACE, dice=random.Random(7))
    try:
        assert table.referee.phase is Phase.ROLL
        table.press("SELECT")  # not a roll: the companion rolls on ROLL (or confirm)
        table.press("ROLL")
        table.wait(lambda: "Player 1 rolled roll:" in table.table.snapshot.message.text)
        assert table.referee.phase is not Phase.ROLL
        assert table.referee.position.rolled in (1, 2, 3)
    finally:
        table.close()


def test_hint_is_answered_with_one_sentence_and_changes_nothing(tmp_path):
    position = GAME.new_position(2, (), seed=4)
    table = SimTable(tmp_path, position)
    messages = []
    table.table.on_change(lambda t: messages.append(t.snapshot.message.text))
    try:
        for button in ("HINT", "HINT", "END2", "HINT"):
            table.press(button)
        table.wait(lambda: len(messages) >= 4 and messages[-1].endswith(HINT_MESSAGE)
                   and "player 1's turn" in messages[-1])
        hint, again, wrong_seat, after = messages[-4:]
        assert hint.endswith(HINT_MESSAGE) and hint.count(HINT_MESSAGE) == 1
        assert again == hint  # said once: not again while it still shows
        assert HINT_MESSAGE not in wrong_seat
        assert after == f"{wrong_seat} {HINT_MESSAGE}"
        assert table.table.snapshot.message.severity == "warning"
        assert table.referee.position == position and table.referee.phase is Phase.TURN
    finally:
        table.close()
