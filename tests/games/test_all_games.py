"""Random games to the end for every registered game and many option sets, checking invariants
(after OpenSpiel's games_sim_test): every game ends, positions round-trip through JSON, and each
game's own invariants hold after every move."""

import itertools
import random
import zlib

import pytest

from calibration.geometry import SEATED_MATS, mat_for_game, mat_names
from companion.games import RulesError, game_names, get_game, register_game
from companion.games.coin_isolation.position import VARIANTS, starting_coins
from companion.record.entries import JournalHeader
from companion.record.journal import JournalWriter
from companion.record.replay import load_timeline
from contract.observation import COIN_KINDS
from contract.table_state import TableState

MAX_PLIES = 2_000
#: Moves sampled from the start of the (lazy) move list at each turn.
SAMPLE = 60


def coin_isolation_variant_sets():
    rng = random.Random(7)
    sets = [(), ("diagonal",), tuple(v for v in VARIANTS if v != "diagonal")]
    sets += [(variant,) for variant in VARIANTS]
    while len(sets) < 40:
        chosen = tuple(v for v in VARIANTS if rng.random() < 0.3)
        if "diagonal" in chosen and {"transplant", "transplant-variant-variant"} & set(chosen):
            continue  # listing transplant moves on a diagonal full board is slow (documented)
        sets.append(chosen)
    return sets


def coin_isolation_invariants(game, start, position, before, move, targets):
    mover = before.to_move
    if move.text() != "pass":
        assert position.to_json()["pawns"][str(mover)] in targets, "pawn ended off the targets"
    data = position.to_json()
    pawns = [square for square in data["pawns"].values() if square is not None]
    assert len(pawns) == len(set(pawns)), "two pawns share a square"
    on_board = "".join(data["squares"].values())
    taken = "".join(data["taken"].values())
    assert sorted(on_board + taken) == sorted(starting_coins(start.variants)), "coins lost"
    values = {"P": 1, "N": 5, "D": 10, "Q": 25}
    scores = {int(p): sum(values[c] for c in coins) for p, coins in data["taken"].items()}
    assert game.scores(position) == scores
    for player in range(1, position.players + 1):
        assert len(data["taken"][str(player)]) >= len(before.to_json()["taken"][str(player)])


def shakala_invariants(game, start, position, before, move, targets):
    data, was = position.to_json(), before.to_json()
    assert move.regions()[0] in targets, "the pit sown is not among the targets"
    beads = [bead for pit in data["pits"].values() for bead in ["s"] * pit["stones"] + pit["gems"]]
    gems = sorted([b for b in beads if b != "s"] + data["cups"]["1"] + data["cups"]["2"])
    assert beads.count("s") == 16 and len(gems) == 16, "beads lost"
    mover = str(before.to_move)
    assert len(data["cups"][mover]) >= len(was["cups"][mover]), "the mover lost a gem"
    assert game.scores(position) == {int(p): sum(v) for p, v in data["cups"].items()}


OPTIONS = {
    "coin-isolation": coin_isolation_variant_sets(),
    # 5 and 6 seats take 1,000 to 3,000 random plies: tests/games/jokers_and_coins plays them
    "jokers-and-coins": [(), (), (), ("side-12", "in-2", "start-5")],
    "shakala": [(), ("north-first",), ("gems-4321-1234",), ("gems-1223-3221", "north-first")],
}
INVARIANTS = {"coin-isolation": coin_isolation_invariants, "shakala": shakala_invariants}
PLAYERS = {"coin-isolation": (2, 3, 4), "jokers-and-coins": (2, 3, 4, 3)}
#: Games whose rules set no limit on moves, where random play can go round for ever (Shakala's
#: endgame of stones only): their playouts stop after MAX_PLIES without a result.
ENDLESS = {"shakala"}


def playout_cases():
    for name in game_names():
        for index, variants in enumerate(OPTIONS.get(name, [()])):
            players = PLAYERS.get(name, (2,))
            yield pytest.param(name, variants, players[index % len(players)], id=f"{name}-{index}")


def sampled_child(game, position, rng):
    """One action: a chance outcome drawn by its probability, or one of the first legal
    moves."""
    if game.is_chance(position):
        outcomes = game.chance_outcomes(position)
        assert outcomes and sum(chance for _, chance in outcomes) == 1
        return rng.choices([outcome for outcome, _ in outcomes],
                           weights=[float(chance) for _, chance in outcomes])[0]
    moves = list(itertools.islice(game.iter_moves(position), SAMPLE))
    assert moves, "a game that is not over must have an action"
    return rng.choice(moves)


def record(journal, game, before, action, after):
    """Write one action to the game journal as the referee does (a forced one as a pass)."""
    player, state_hash = game.to_move(before), after.state_hash()
    if action == game.forced(before):
        journal.record_pass(player=player, state_hash=state_hash, move=action.text())
    else:
        source = "random" if game.is_chance(before) else "camera"
        journal.record_move(action.text(), player=player, state_hash=state_hash, source=source)


@pytest.mark.parametrize(("name", "variants", "players"), list(playout_cases()))
def test_random_game_ends_keeps_invariants_and_replays_from_its_journal(
    name, variants, players, tmp_path,
):
    game = get_game(name)
    rng = random.Random(zlib.crc32(repr((name, variants, players)).encode()))
    start = position = game.new_position(players, variants, seed=rng.randrange(1000))
    check = INVARIANTS.get(name, lambda *args: None)
    journal = JournalWriter.create(tmp_path, JournalHeader.from_position(start.to_json()))
    for _ in range(MAX_PLIES):
        if game.is_over(position):
            break
        assert game.position_from_json(position.to_json()) == position
        move = sampled_child(game, position, rng)
        assert game.parse_move(move.text()) == move
        targets = game.legal_targets(position)
        before, position = position, game.apply(position, move)
        record(journal, game, before, move, position)
        check(game, start, position, before, move, targets)
        table_invariants(game, position, players)
    journal.close()
    timeline = load_timeline(tmp_path)
    assert not timeline.problems and timeline.final == position
    if name in ENDLESS and not game.is_over(position):
        return
    assert game.is_over(position), f"{name} {variants} did not end in {MAX_PLIES} plies"
    assert game.legal_moves(position) == []
    result = game.result(position)
    assert result.winners
    assert result.text()
    assert result.termination is not None, "a finished game says why it ended"


def table_invariants(game, position, players):
    """What the game lays on the table lies on its own mat, in its own coins, with one token
    at most per player, each labelled by its player's number."""
    table = game.layout(position)
    regions = mat_regions(game, position)
    assert set(table) <= regions, f"regions off the mat: {sorted(set(table) - regions)}"
    assert set("".join(table.stacks().values())) <= set(game.info.coin_kinds)
    assert set(table.tokens()) <= {str(player) for player in range(1, players + 1)}
    assert TableState.from_json(table.to_json()) == table
    held = game.seat_coins(position)
    assert set(held) <= set(range(1, players + 1))
    assert set("".join(held.values())) <= set(game.info.coin_kinds)


def mat_regions(game, position):
    """The region names of the game's mat (for the position's seats and variants)."""
    if game.info.mat in SEATED_MATS:
        mat = mat_for_game(game.info.mat, players=position.players,
                           variants=tuple(position.variants))
    else:
        mat = mat_for_game(game.info.mat)
    return {region.name for region in mat.regions}


@pytest.mark.parametrize("name", game_names())
def test_every_game_declares_what_the_table_needs_to_know(name):
    info = get_game(name).info
    assert info.title and 1 <= info.min_players <= info.max_players <= 6
    assert info.coin_kinds and set(info.coin_kinds) <= set(COIN_KINDS)
    assert len(info.token_colours) >= info.max_players
    assert info.mat in mat_names()
    assert mat_for_game(info.mat).regions
    for players in range(info.min_players, info.max_players + 1):
        assert len(info.seats(players)) == players
        get_game(name).new_position(players)
    with pytest.raises(RulesError, match=str(info.max_players + 1)):
        info.check_players(info.max_players + 1)


def test_a_game_without_metadata_cannot_be_registered():
    class Nameless(type(get_game("coin-isolation"))):
        name = "no-info"
        info = None

    with pytest.raises(RulesError, match="no-info"):
        register_game(Nameless())
    assert "no-info" not in game_names()
