"""A resumed game draws the last move's path as the session that played it did (a Shakala
route, a Coin Isolation step), instead of forgetting it with the session."""

import pytest

from companion.games import get_game
from companion.launch import resumed_referee
from companion.record.entries import JournalHeader
from companion.record.journal import JournalWriter


def record_moves(folder, game, position, plies):
    """Play ``plies`` moves (the longest-path one each time) into a journal; the last move."""
    writer = JournalWriter.create(folder, JournalHeader.from_position(position.to_json()))
    move = None
    for _ in range(plies):
        player = game.to_move(position)
        move = max(game.legal_moves(position), key=lambda each: (len(each.regions()), each.text()))
        position = game.apply(position, move)
        writer.record_move(move.text(), player=player, state_hash=position.state_hash(),
                           source="camera")
    writer.close()
    return move


@pytest.mark.parametrize(("name", "players"), [("shakala", 2), ("coin-isolation", 2)])
def test_the_last_path_is_drawn_after_a_resume(tmp_path, name, players):
    game = get_game(name)
    last = record_moves(tmp_path, game, game.new_position(players, (), seed=3), plies=3)
    assert len(last.regions()) >= 2, "a move with a path to draw"
    referee, journal, _ = resumed_referee(tmp_path)
    journal.close()
    assert referee.view().last_path == last.regions()
