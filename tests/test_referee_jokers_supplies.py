"""The referee checks the Jokers and Coins supplies (issue 21, item 5): a bumped coin must go
back to its owner's supply and an entry takes a coin from the mover's own; a supply the camera
surely counts otherwise is named to put right, one it is unsure of only noted on the screen.
Observations are a perfect camera's, changed where the players slipped."""

from companion.games.jokers_and_coins import GAME
from companion.referee import Phase, Press, Seen
from contract.observation import Observation, RegionReading
from contract.table_state import RegionContents, TableState
from tests.games.jokers_and_coins.helpers import table
from tests.test_referee_jokers import camera_sees, moves, play, referee_at


def moved_supply_coin(layout: TableState, source: str, target: str) -> TableState:
    """``layout`` with one coin of ``source``'s put in ``target`` instead."""
    regions = dict(layout.items())
    coins = regions[source].coins
    regions[source] = RegionContents(coins[1:], loose=True)
    regions[target] = RegionContents(regions.get(target, RegionContents()).coins + coins[0],
                                     loose=True)
    return TableState(regions)


def test_a_bumped_coin_put_in_the_wrong_supply_is_named_and_waited_for():
    position = table(4, {1: ["t20"], 2: ["t25"]})
    after = GAME.apply_text(position, "5:t20>t25")
    assert after.coins[1].count(-1) == 4
    slipped = moved_supply_coin(GAME.layout(after), "supply-2", "supply-4")
    referee = referee_at(position)
    effects = play(referee, "5:t20>t25", card="5", layout=slipped)
    assert moves(effects) == [("5:t20>t25", "5", "camera")]
    view = referee.view()
    assert referee.phase is Phase.RESTORE and view.marked == ("supply-2",)
    assert "supply-2 should hold 4 coins (4 nickels), not 3 coins (3 nickels)" in view.message
    referee.handle(Press("CONFIRM"))
    referee.handle(Seen(camera_sees(slipped)))
    assert referee.phase is Phase.RESTORE and referee.view().severity == "error"
    referee.handle(Press("CONFIRM"))
    referee.handle(Seen(camera_sees(GAME.layout(after))))
    assert referee.phase is Phase.TURN and GAME.to_move(referee.position) == 2


def test_an_entry_must_take_the_coin_from_the_movers_own_supply():
    position = table(4, {1: ["t20"]})
    after = GAME.apply_text(position, "A:enter")
    regions = dict(GAME.layout(after).items())
    regions["supply-1"] = RegionContents("PPP", loose=True)  # a penny from elsewhere
    referee = referee_at(position)
    effects = play(referee, "A:enter", card="A", layout=TableState(regions))
    assert moves(effects) == [("A:enter", "A", "camera")]
    assert referee.phase is Phase.RESTORE and referee.view().marked == ("supply-1",)
    assert "supply-1 should hold 2 coins (2 pennies), not 3 coins" in referee.view().message


def test_a_supply_the_camera_doubts_does_not_hold_the_game_up_and_is_noted():
    position = table(4, {1: ["t20"], 2: ["t25"]})
    after = GAME.apply_text(position, "5:t20>t25")
    seen = camera_sees(GAME.layout(after), "5")
    regions = dict(seen.regions)
    regions["supply-2"] = RegionReading(count=2, kinds=("N", "N"), confidence=0.3)
    referee = referee_at(position)
    referee.handle(Press("END1"))
    effects = referee.handle(Seen(Observation(regions), frame="f1"))
    assert moves(effects) == [("5:t20>t25", "5", "camera")]
    assert referee.phase is Phase.TURN and GAME.to_move(referee.position) == 2
    assert any("unsure of supply-2" in line for line in referee.view().facts)


def test_a_supply_no_move_changes_is_not_held_against_the_move():
    """The ring tells the move; a supply the move leaves alone is not judged with it."""
    position = table(4, {1: ["t20"]})
    regions = dict(camera_sees(GAME.layout(GAME.apply_text(position, "5:t20>t25")), "5").regions)
    regions["supply-3"] = RegionReading(count=3, kinds=("D",) * 3)
    referee = referee_at(position)
    referee.handle(Press("END1"))
    effects = referee.handle(Seen(Observation(regions), frame="f1"))
    assert moves(effects) == [("5:t20>t25", "5", "camera")] and referee.phase is Phase.TURN


def test_a_supply_counted_right_with_a_kind_misnamed_is_not_held_up():
    """Silver coins in a pile are the camera's weakest reading: the count is what is judged."""
    position = table(4, {1: ["t20"], 2: ["t25"]})
    after = GAME.apply_text(position, "5:t20>t25")
    regions = dict(camera_sees(GAME.layout(after), "5").regions)
    regions["supply-2"] = RegionReading(count=4, kinds=("D", "N", "N", "N"))
    referee = referee_at(position)
    referee.handle(Press("END1"))
    judged = GAME.judged_observation(Observation(regions))  # as the table hands it over
    assert judged.regions["supply-2"].kinds == ("N",) * 4
    effects = referee.handle(Seen(judged, frame="f1"))
    assert moves(effects) == [("5:t20>t25", "5", "camera")] and referee.phase is Phase.TURN
