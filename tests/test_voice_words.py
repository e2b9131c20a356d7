"""What the table says aloud (issue 22, item 5), worked out from the real referee's screen in
every game: accepted moves and whose turn it is, rejections with what to put back, rolls and
battles, the result. No speech engine is involved; the words are what the screen shows."""

from __future__ import annotations

import random

from companion.display.snapshot import Message, RollView, Snapshot
from companion.games import get_game
from companion.launch import seats_for
from companion.referee import Event, Press, Referee, Seen
from companion.screen_view import snapshot_of
from companion.voice_words import (
    Announcement,
    Announcer,
    announcements,
    move_words,
    roll_words,
    speakable,
)
from contract.table_state import TableState
from tests.games.coin_grid.helpers import grid
from tests.games.jokers_and_coins.helpers import table
from tests.games.shakala.helpers import board
from tests.test_referee import looks_like, started_referee
from tests.test_referee_coin_grid import battle
from tests.test_referee_coin_grid import camera_sees as grid_sees
from tests.test_referee_jokers import camera_sees as ring_sees
from tests.test_referee_shakala import camera_sees as pits_sees


class Listener:
    """A referee and the words its screen gives, event by event."""

    def __init__(self, referee: Referee, players: int = 2) -> None:
        self.referee = referee
        self.seats = seats_for(referee.game, players)
        self.announcer = Announcer()
        self.announcer.hear(self.snapshot())

    def snapshot(self) -> Snapshot:
        return snapshot_of(self.referee.view(), self.seats, game=self.referee.game.name)

    def hear(self, *events: Event) -> list[Announcement]:
        said: list[Announcement] = []
        for event in events:
            self.referee.handle(event)
            said += self.announcer.hear(self.snapshot())
        return said


def kinds(said: list[Announcement]) -> list[str]:
    return [item.kind for item in said]


def spoken(said: list[Announcement]) -> str:
    return " ".join(item.text for item in said)


def text_of(said: list[Announcement], kind: str) -> str:
    return " ".join(item.text for item in said if item.kind == kind)


def test_coin_isolation_says_the_move_the_next_turn_and_a_rejection_with_what_to_put_back():
    game = get_game("coin-isolation")
    listener = Listener(started_referee(seed=3))
    position = listener.referee.position
    move = random.Random(3).choice([m for m in game.legal_moves(position) if "-" in m.text()])
    said = listener.hear(Press("END1"), Seen(looks_like(game.apply(position, move))))
    assert kinds(said) == ["move", "turn"]
    first, *_, last = move.text().split("-")
    assert f"Player 1 played {first} to " in text_of(said, "move")
    assert last in text_of(said, "move") and "-" not in text_of(said, "move")
    assert text_of(said, "turn") == "Player 2's turn."
    # Player 2 lifts a coin off the board: rejected, and told where to put it back.
    sloppy = looks_like(listener.referee.position)
    square = next(name for name, reading in sloppy.regions.items() if reading.coin)
    regions = dict(sloppy.regions)
    regions[square] = type(regions[square])(coin=None, pawn=regions[square].pawn)
    said = listener.hear(Press("END2"), Seen(type(sloppy)(regions)))
    assert kinds(said) == ["reject"]
    assert "not a legal move" in said[0].text and square in said[0].text
    assert "END" not in said[0].text and "press your button" in said[0].text


def test_coin_isolation_says_the_result_when_the_game_ends():
    game = get_game("coin-isolation")
    position, rng = game.new_position(2, (), seed=4), random.Random(4)
    while True:
        move = rng.choice(game.legal_moves(position))
        after = game.apply(position, move)
        while not game.is_over(after) and game.forced(after) is not None:
            after = game.apply(after, game.forced(after))
        if game.is_over(after):
            break
        position = after
    listener = Listener(Referee(game, position, position=position))
    mover = game.to_move(position)
    said = listener.hear(Press(f"END{mover}"), Seen(looks_like(after)))
    assert kinds(said)[-1] == "result" and "turn" not in kinds(said)
    assert text_of(said, "result") == speakable(game.result(after).text())
    assert "¢" not in " ".join(item.text for item in said)


def test_coin_grid_says_each_roll_and_the_battle_and_its_half_damage():
    game = get_game("coin-grid")
    position = battle(defender="Nd")
    listener = Listener(Referee(game, position, position=position))
    said = listener.hear(Press("END1"), Seen(grid_sees(position, [5])))
    assert spoken(said).count("South's attack on c7: 5, halved to 2.") == 1
    said = listener.hear(Press("END2"), Seen(grid_sees(listener.referee.position, [3])))
    assert spoken(said).count("North's defence of c7: 3.") == 1
    assert "defender wins" in spoken(said).lower() and "roll:" not in spoken(said)


def test_coin_grid_says_the_die_then_where_to_move():
    game = get_game("coin-grid")
    position = grid({"a1": "S1", "b1": "S1", "c12": "N1", "d12": "N1"})
    listener = Listener(Referee(game, position, position=position))
    said = listener.hear(Press("END1"), Seen(grid_sees(position, [4])))
    assert spoken(said).count("South's roll: 4.") == 1 and "rolled roll 4" in spoken(said)
    assert "move a piece up to 4 squares" in spoken(said)


def test_shakala_says_the_sowing_and_rejects_a_slipped_bead_naming_the_pits():
    game = get_game("shakala")
    start = game.new_position(2)
    listener = Listener(Referee(game, start, position=start))
    move = next(m for m in game.legal_moves(start) if m.text().startswith("E-A"))
    said = listener.hear(Press("END1"), Seen(pits_sees(game.apply(start, move))))
    assert kinds(said)[0] == "move" and "North: pick up one of your pits" in said[0].text
    assert text_of(said, "turn") == f"{listener.seats[1].name}'s turn."
    position = board({"A": "s1", "B": "s", "a": "s"})
    listener = Listener(Referee(game, position, position=position))
    sowing = game.legal_moves(position)[0]
    slipped = pits_sees(game.apply(position, sowing), moved=(sowing.regions()[-1], "B"))
    said = listener.hear(Press("END1"), Seen(slipped))
    assert kinds(said) == ["reject"] and "B" in said[0].text


def test_jokers_and_coins_says_the_card_move_and_a_bump():
    game = get_game("jokers-and-coins")
    position = table(4, {1: ["t20"], 2: ["t25"]})
    listener = Listener(Referee(game, position, position=position), players=4)
    after = game.apply_text(position, "5:t20>t25")
    said = listener.hear(Press("END1"), Seen(ring_sees(game.layout(after), "5")))
    spoken = " ".join(item.text for item in said)
    assert "t20 to t25" in spoken and "goes back to its supply" in spoken
    assert text_of(said, "turn") == f"{listener.seats[1].name}'s turn."
    sloppy = TableState({name: c for name, c in game.layout(after).items() if name != "t25"})
    said = listener.hear(Press("END2"), Seen(ring_sees(sloppy, "5", seat=2)))
    assert kinds(said) and kinds(said)[0] in ("reject", "ask")


def test_the_words_of_a_move_are_said_plainly_in_every_notation():
    assert move_words("c7-d7-d6") == "c7 to d7 to d6"
    assert move_words("K:t9>t19") == "king, t9 to t19"
    assert move_words("joker:supply>t63") == "joker, supply to t63"
    assert move_words("roll:4") == "roll 4"
    assert speakable("press END2 ... 73¢") == "press end 2 . 73 cents"
    assert speakable("The nearest legal move, H-es-as-b1, differs") == (
        "The nearest legal move, H to es to as to b1, differs")
    assert speakable("Player 1 rolled defender-wins.") == "Player 1 rolled defender wins."
    assert roll_words(RollView("South's attack", (4, 6))) == "South's attack: 4 and 6, 10 in all."
    halved = RollView("Attack", (4, 6), halved=True)
    assert roll_words(halved) == "Attack: 4 and 6, 10, halved to 5."


def test_waiting_messages_are_not_said_and_a_taken_back_move_is_not_announced_again():
    before = Snapshot(message=Message("Player 1 played c3-d5."), to_move=2,
                      last_moves=("1: c3-d5",))
    looking = Snapshot(message=Message("Looking at the board..."), to_move=2,
                       last_moves=("1: c3-d5",))
    assert announcements(before, looking, turn_said=2) == []
    undone = Snapshot(message=Message("c3-d5 taken back; put the board back as shown."),
                      to_move=1, last_moves=())
    said = announcements(looking, undone, turn_said=2)
    assert kinds(said) == ["info"] and "c3 to d5 taken back" in said[0].text
    undone = Snapshot(message=undone.message, to_move=1, targets=frozenset({"c3"}))
    assert kinds(announcements(looking, undone, turn_said=2)) == ["info", "turn"]


def test_whose_turn_is_said_once_the_layout_is_confirmed_not_while_it_is_checked():
    listener = Listener(Referee(get_game("coin-isolation"),
                                get_game("coin-isolation").new_position(2, (), seed=2)))
    template = listener.referee.template
    said = listener.hear(Press("SELECT"), Seen(looks_like(template)))
    assert "turn" not in kinds(said) and "Check the board" in said[-1].text
    said = listener.hear(Press("CONFIRM"))
    assert kinds(said) == ["info", "turn"] and said[1].text == "Player 1's turn."


def test_a_hint_on_the_screen_is_said_as_a_hint():
    before = Snapshot(message=Message("Player 1 played c3-d5."), to_move=2,
                      targets=frozenset({"a1"}), last_moves=("1: c3-d5",))
    hinted = Snapshot(message=Message("Hint for Player 2: e7-e6. Estimated win chance: "
                                      "Player 1 40%, Player 2 60%."), to_move=2,
                      targets=frozenset({"a1"}), last_moves=("1: c3-d5",))
    said = announcements(before, hinted, turn_said=2)
    assert said == [Announcement("hint", "Hint for Player 2: e7 to e6. Estimated win chance: "
                                          "Player 1 40%, Player 2 60%.")]
