"""One seat-colour table for the whole program: the live screen, replay and the synthetic
table's pawns agree on every seat's colour."""

from companion.cli.replay import snapshot_at
from companion.games import get_game
from companion.launch import seats_for
from companion.record.entries import JournalHeader
from companion.record.journal import JournalWriter
from companion.record.replay import load_timeline
from contract.colours import colour_rgb
from contract.table_state import TableState
from vision.synth import SynthScene

GAME = get_game("coin-isolation")


def test_the_screen_replay_and_the_synthetic_table_give_a_seat_one_colour(tmp_path):
    position = GAME.new_position(4, (), seed=2)
    JournalWriter.create(tmp_path, JournalHeader.from_position(position.to_json())).close()
    replayed = snapshot_at(load_timeline(tmp_path), 0, None)
    live = seats_for(GAME, 4)
    assert [seat.colour for seat in live] == list(GAME.info.token_colours[:4])
    assert [player.colour for player in replayed.players] == [
        colour_rgb(seat.colour) for seat in live]
    pawns = TableState.of_stacks({}, {str(seat.number): f"{'abcd'[seat.number - 1]}1"
                                      for seat in live})
    scene = SynthScene.from_table(pawns)
    assert [scene.pawns_by_region()[f"{'abcd'[seat.number - 1]}1"] for seat in live] == [
        seat.colour for seat in live]
