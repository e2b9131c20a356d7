"""The table reads only the coin kinds its game uses: on a six-seat Jokers and Coins ring, a
flat token the size of a quarter is not a golden dollar (a kind only Shakala plays), which the
full default profile read it as on this frame, and the demo then told players to take it off."""

from bench.bench_ring_read import random_position, table_scene
from calibration.profile import VisionProfile
from companion.games import get_game
from companion.launch import table_parts
from companion.referee import Referee
from vision.read import VisionConfig, read_frame_details
from vision.synth import render

GAME = get_game("jokers-and-coins")


def test_a_six_seat_token_is_read_as_a_token_not_a_dollar(tmp_path):
    position = random_position(1, 6)
    parts = table_parts(Referee(GAME, position), "sim://", None, VisionProfile.default(),
                        tmp_path / "record", 6)
    parts.camera.close()
    assert "S" in "".join(look.kind for look in VisionProfile.default().coins)
    scene = table_scene(1, position, parts.geometry, (1920, 1080))
    tokens = dict(scene.tokens)
    assert tokens
    observation = read_frame_details(VisionConfig(), render(scene, seed=1).image,
                                     parts.geometry, parts.reading_profile).observation
    assert not [region for region in observation if observation.coin(region) == "S"]
    for region, colour in tokens.items():
        assert observation.coin(region) is None and observation.pawn(region) == colour, region


def test_the_table_reads_only_the_kinds_its_seats_play(tmp_path):
    """Seat 4 plays quarters: a three-seat ring holds none, so the camera weighs no quarter
    (a nickel measured a quarter's size then stays a nickel); four seats play all four."""
    kinds = {}
    for players in (2, 3, 4):
        parts = table_parts(Referee(GAME, GAME.new_position(players)), "sim://", None,
                            VisionProfile.default(), tmp_path / f"record-{players}", players)
        parts.camera.close()
        kinds[players] = "".join(look.kind for look in parts.reading_profile.coins)
    assert sorted(kinds[2]) == sorted("PN")
    assert sorted(kinds[3]) == sorted("PND")
    assert sorted(kinds[4]) == sorted("PNDQ")
