"""Working a Shakala move back from the camera's counts (companion/games/shakala/inference.py):
every kind of move is identified from a perfect reading without asking, the worked-back moves
agree with the engine's full list (also where the camera doubts a region), huge pits are
handled without listing their moves, and the words that tell look-alike moves apart."""

import random

import pytest

from companion.games.shakala import GAME
from companion.games.shakala.inference import fitting_moves, seen_beads
from companion.games.shakala.rules import successors
from contract.observation import Observation, RegionReading
from tests.games.shakala.helpers import board, random_sowing


def observe(position, unsure=(), confidence=0.3):
    """A perfect camera's counts of every pit and cup; ``unsure`` regions read with a low
    confidence."""
    looks = GAME.layout(position).looks()
    regions = {name: RegionReading(count=look.count, kinds=look.kinds,
                                   confidence=confidence if name in unsure else 1.0)
               for name, look in looks.items()}
    for name in unsure:
        regions.setdefault(name, RegionReading(confidence=confidence))
    return Observation(regions)


def identified_alone(position):
    """Every legal move's result is read back as exactly that move."""
    for move, after in successors(position):
        found = GAME.candidates(position, observe(after))
        assert len(found) == 1, move.text()
        assert GAME.apply(position, found[0]) == after


#: Hand-made positions, one per kind of move the rulings allow.
KINDS_OF_MOVE = {
    # E's beads pass the fork at once: inner (F G ...) or outer (A B ...) give other pits.
    "route at the fork": board({"E": "ss12", "e": "s"}),
    # Nine beads from E go round and pass E again (skipped): a second choice of track.
    "fork passed twice": board({"E": "sssssss12", "a": "s"}),
    # The stone or the gem last on f decides a capture: the bead order matters.
    "bead order": board({"H": "s3", "f": "4", "g": "s"}),
    # A lone stone on f: an indirect capture, any of North's gems.
    "capture with choice": board({"H": "ss", "e": "s", "f": "s", "a": "1", "b": "23",
                                  "c": "s4"}),
    # North's pits hold no gem: the indirect capture takes from North's cup.
    "indirect from the cup": board({"G": "ss", "e": "s", "a": "s"}, cups=((), (1, 2, 3))),
    # A direct multiple capture back from the last drop.
    "multiple capture": board({"G": "sss", "h": "s", "e": "2", "f": "3", "a": "s"}),
    # South must feed an empty North.
    "feeding": board({"A": "s", "D": "s3", "H": "s"}, cups=((), (1, 2))),
}


@pytest.mark.parametrize("name", sorted(KINDS_OF_MOVE))
def test_every_kind_of_move_is_identified_from_a_perfect_reading(name):
    position = KINDS_OF_MOVE[name]
    assert len(list(successors(position))) > 1
    identified_alone(position)


def test_a_route_choice_at_the_fork_gives_two_readings():
    position = KINDS_OF_MOVE["route at the fork"]
    routes = {move.text()[:4] for move in GAME.legal_moves(position) if move.origin == 4}
    assert any(text.startswith("E-F") for text in routes)
    assert any(text.startswith("E-A") for text in routes)


def test_indirect_capture_from_the_cup_is_read_from_the_cups():
    position = KINDS_OF_MOVE["indirect from the cup"]
    taking = [move for move in GAME.legal_moves(position)
              if any(pit is None for pit, _ in move.taken)]
    assert len(taking) == 3  # one per gem of North's cup
    for move in taking:
        assert GAME.candidates(position, observe(GAME.apply(position, move))) == [move]


def test_readings_of_a_random_game_are_each_one_move():
    rng = random.Random(7)
    position = GAME.new_position(2)
    for _ in range(20):
        if GAME.is_over(position):
            break
        identified_alone(position)
        position = GAME.apply(position, rng.choice(GAME.legal_moves(position)))


def test_doubted_regions_give_the_moves_that_differ_only_there():
    """With a pit or a cup read in doubt, the moves are those of the full list whose other
    regions look as seen (brute force over the engine's list)."""
    rng = random.Random(11)
    checked = 0
    position = GAME.new_position(2)
    while checked < 30:
        if GAME.is_over(position):
            position = GAME.new_position(2)
        children = list(successors(position))
        _, after = rng.choice(children)
        unsure = {rng.choice("ABCDEFGHabcdefgh")}
        if rng.random() < 0.3:
            unsure.add(rng.choice(["cup-south", "cup-north"]))
        seen = observe(after, unsure)
        found = {GAME.apply(position, move) for move in
                 GAME.candidates_except(position, seen, frozenset(unsure))}
        expected = {child for _, child in children
                    if _same_outside(observe(child), seen, unsure)}
        assert found == expected
        assert after in found
        checked += 1
        position = after


def _same_outside(one, other, unsure):
    names = (set(one.regions) | set(other.regions)) - set(unsure)
    return all((one.regions.get(name) or RegionReading()).kinds
               == (other.regions.get(name) or RegionReading()).kinds for name in names)


@pytest.mark.parametrize("pits", [
    {"H": "s" * 16 + "1122334411223344"},
    {"E": "s" * 15 + "1122334411223344", "e": "s"},
    {"D": "s" * 12 + "1234", "e": "s", "f": "s", "g": "s", "h": "s", "a": "1234", "b": "1234"},
])
def test_huge_pits_are_worked_back_without_listing_their_moves(pits):
    """Every bead of the game in one pit has millions of bead orders; each result drawn is
    still read back as one move that reaches it."""
    rng = random.Random(5)
    position = board(pits)
    for _ in range(25):
        after = random_sowing(position, rng)
        found = GAME.candidates(position, observe(after))
        assert len(found) == 1
        assert GAME.apply(position, found[0]) == after


def test_a_reading_no_position_can_give_fits_no_move():
    position = GAME.new_position(2)
    after = GAME.apply(position, GAME.legal_moves(position)[0])
    seen = observe(after)
    regions = dict(seen.regions)
    regions["A"] = RegionReading(count=2, kinds=("P", "P"))  # a stone too many
    assert GAME.candidates(position, Observation(regions)) == []
    regions["A"] = RegionReading(coin="Q")  # a stack, not loose coins
    assert seen_beads(position, Observation(regions)) is None
    assert GAME.candidates(position, Observation(regions)) == []


def test_choice_labels_say_the_route_taken_at_the_fork():
    position = KINDS_OF_MOVE["route at the fork"]
    inner = next(m for m in GAME.legal_moves(position) if m.text().startswith("E-F"))
    outer = next(m for m in GAME.legal_moves(position) if m.text().startswith("E-A")
                 and len(m.drops) == len(inner.drops))
    labels = GAME.choice_labels(position, [inner, outer])
    assert "inner at E" in labels[0] and "outer at E" in labels[1]
    assert "sowed" not in labels[0]  # the same pit was sown: not said


def test_choice_labels_say_which_gem_was_taken():
    position = KINDS_OF_MOVE["capture with choice"]
    taking = [move for move in GAME.legal_moves(position) if move.taken]
    labels = GAME.choice_labels(position, taking)
    assert len(set(labels)) == len(labels)
    assert any("took a's 1" in label for label in labels)
    assert any("c's 4" in label for label in labels)


def test_fitting_moves_of_a_finished_game_are_none():
    position = board({"a": "s"}, to_move=1)
    seen = seen_beads(position, observe(position))
    assert seen is not None and fitting_moves(position, seen) == []
