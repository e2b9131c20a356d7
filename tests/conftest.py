"""Every test session knows the test game of another shape (Ring Race, a ring track with a
die), so the tests that run every registered game run it too."""

from companion.games import game_names, register_game
from tests.games.ring_race import GAME as RING_RACE

if RING_RACE.name not in game_names():
    register_game(RING_RACE)
