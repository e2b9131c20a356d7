"""Reading Shakala's pits: real rendered frames of the mat read by the real reader, coins lying
as hands drop them (touching, overlapping by up to a third of a width), at several degrees of
crowding; the golden dollar told from the penny; a pile too heavy to count flagged doubtful."""

import itertools
import math
from dataclasses import replace

import numpy as np
import pytest

from calibration.profile import VisionProfile
from calibration.shakala_mat import shakala_mat
from companion.judging import UNSURE_CONFIDENCE
from contract.observation import COIN_KINDS
from vision.frame_fit import FrameFit
from vision.frame_model import KindPrior
from vision.loose_outline import seen_arc
from vision.pile_sizes import between_silver_kinds, under_smallest_silver
from vision.read import VisionConfig, read_frame
from vision.synth import SynthScene, Variation, random_variation, render
from vision.synth.layout import least_gap_mm, loose_coins, scattered_coins
from vision.synth.objects import coin_radius_mm
from vision.synth.shakala_frames import shakala_scene

CONFIG, PROFILE = VisionConfig(), VisionProfile.default()
PITS = "ABCDEFGHabcdefgh"


def read(coins, variation=None, seed=0):
    """The observation of the Shakala mat holding ``coins``, and the frame's truth."""
    scene = SynthScene.build(coins, {}, shakala_mat(), variation or Variation(), layout_seed=seed)
    frame = render(scene, seed)
    return read_frame(CONFIG, frame.image, shakala_mat(), PROFILE), frame.truth


def misread(observation, truth):
    """(region, truth, read, confidence) of every region whose count of a kind is wrong."""
    wrong = []
    for name, expected in truth.items():
        got = observation[name]
        if (got.count, tuple(got.kinds)) != (len(expected.coins), tuple(sorted(expected.coins))):
            wrong.append((name, expected.coins, "".join(got.kinds), round(got.confidence, 2)))
    return wrong


def mixes(count, seed):
    """Sixteen pits of ``count`` coins each, every kind in turn."""
    kinds = itertools.cycle("PDNQS"[seed % 5:] + "PDNQS"[:seed % 5])
    return {pit: "".join(next(kinds) for _ in range(count)) for pit in PITS}


def test_scattered_coins_lie_inside_their_pit_and_overlap_at_most_a_third():
    pit = shakala_mat().region("C")
    for seed in range(5):
        coins = scattered_coins(pit, "PPDDNNQQSSSP", seed, 0.2, 1 / 3)
        assert len(coins) == 12
        for coin in coins:
            assert math.dist(coin.centre_mm, pit.centre) + coin_radius_mm(coin.letter) \
                <= pit.shape.radius
        pairs = list(itertools.combinations(coins, 2))
        for first, second in pairs:
            gap = least_gap_mm(coin_radius_mm(first.letter), coin_radius_mm(second.letter), 1 / 3)
            assert math.dist(first.centre_mm, second.centre_mm) >= gap - 1e-9
        touching = [pair for pair in pairs if math.dist(pair[0].centre_mm, pair[1].centre_mm)
                    < coin_radius_mm(pair[0].letter) + coin_radius_mm(pair[1].letter) + 2.0]
        assert touching  # a hand's coins pile up against each other
        assert any(coin.level for coin in coins)  # and some lie partly on others


def test_regions_that_hold_no_piles_keep_their_coins_apart_as_before():
    mat = shakala_mat()
    scene = SynthScene.build({"C": "PPNQ"}, {}, mat)
    apart = SynthScene.build({"C": "PPNQ"}, {}, mat, replace(Variation(), loose_overlap=0.0))
    pit = mat.region("C")
    assert [coin.centre_mm for coin in apart.placements()[0]] == \
        [coin.centre_mm for coin in loose_coins(pit, "PPNQ", 0, apart.variation.tarnish)]
    assert scene.placements()[0] != apart.placements()[0]
    assert not any(region.piled for region in mat.regions if region.name not in
                   (*PITS, "cup-south", "cup-north"))


@pytest.mark.parametrize("count", [1, 3, 6])
def test_counts_per_kind_in_every_pit_from_a_coin_to_half_a_dozen(count):
    observation, truth = read(mixes(count, count), seed=count)
    assert misread(observation, truth) == []
    assert all(observation[pit].count == count for pit in PITS)


@pytest.mark.parametrize("seed", [1, 2])
def test_crowded_pits_of_twelve_at_a_tilt_are_read_right_or_flagged_never_confidently_wrong(seed):
    observation, truth = read(mixes(12, seed), random_variation(seed, 25.0, shakala_mat()),
                              seed=seed)
    wrong = misread(observation, truth)
    assert all(confidence < UNSURE_CONFIDENCE for *_, confidence in wrong), wrong


@pytest.mark.parametrize("seed", [1, pytest.param(2, marks=pytest.mark.xfail(
    strict=True, reason="not reached yet: in sixteen pits of twelve coins seen at a tilt, "
    "silver coins hemmed in by others are sized by their open arcs to about a millimetre, and "
    "5 of the sixteen pits are misread (10 to 12 before; all flagged doubtful)"))])
def test_most_crowded_pits_of_twelve_at_a_tilt_are_read_right(seed):
    observation, truth = read(mixes(12, seed), random_variation(seed, 25.0, shakala_mat()),
                              seed=seed)
    wrong = misread(observation, truth)
    assert len(wrong) <= 4, wrong  # most of sixteen crowded pits are read right


def test_the_golden_dollar_is_told_from_the_penny_by_colour_and_size():
    coins = {pit: ("PS" * 3)[: 2 + index % 5] for index, pit in enumerate(PITS)}
    coins["cup-south"] = "SSSPP"
    for seed, variation in ((0, Variation()), (3, random_variation(3, 35.0, shakala_mat()))):
        observation, truth = read(coins, variation, seed)
        assert misread(observation, truth) == [], seed
        assert observation["A"].kinds == ("P", "S")
    assert COIN_KINDS["S"][2] == "brass" and COIN_KINDS["P"][2] == "copper"


def test_a_heap_too_heavy_to_count_is_flagged_doubtful_rather_than_guessed():
    heap = replace(Variation(), loose_overlap=0.5)
    observation, truth = read({"F": "PPPNNNDDDQQQSSSS", "G": "PNQ"}, heap, seed=5)
    reading = observation["F"]
    right = (reading.count, reading.kinds) == (16, tuple(sorted(truth["F"].coins)))
    assert right or reading.confidence < UNSURE_CONFIDENCE
    assert observation["G"].kinds == ("N", "P", "Q")


@pytest.mark.parametrize("seed", [18, 39, 43])
def test_a_silver_coin_whose_outline_shows_faintly_or_on_a_short_arc_is_flagged_not_guessed(seed):
    """Benchmark frames where a nickel whose pale face fades into the paper was read as a dime,
    or a dime under two pennies as a nickel, at confidence 0.9 and more: every pit is now read
    exactly or flagged doubtful."""
    scene = shakala_scene(seed)
    frame = render(scene, seed)
    observation = read_frame(CONFIG, frame.image, shakala_mat(), PROFILE)
    wrong = misread(observation, frame.truth)
    assert all(confidence < UNSURE_CONFIDENCE for *_, confidence in wrong), wrong


def test_the_seen_arc_is_the_circle_less_its_longest_unseen_run():
    seen = np.ones(90, bool)
    assert seen_arc(seen) == 1.0
    seen[10:40] = False  # a third of the rim unseen
    assert seen_arc(seen) == pytest.approx(60 / 90)
    seen[:] = False
    seen[[0, 45]] = True  # two rays opposite: half the circle is the longest gap
    assert seen_arc(seen) == pytest.approx(1 - 44 / 90)
    seen[:5] = True
    seen[85:] = True  # a run across the start of the circle counts as one
    seen[45] = False
    assert seen_arc(seen) == pytest.approx(10 / 90)
    assert seen_arc(np.zeros(90, bool)) == 0.0


@pytest.mark.parametrize("seed", [3, 6])
def test_the_mat_s_print_a_little_off_its_mask_casts_no_doubt_on_plain_pits(seed):
    """Benchmark frames whose pit letters and rims came out a little off the print's mask:
    every region holding up to three coins, read right, was flagged doubtful as if a hidden
    coin showed there; now those read right are read surely."""
    frame = render(shakala_scene(seed), seed)
    observation = read_frame(CONFIG, frame.image, shakala_mat(), PROFILE)
    wrong = {name for name, *_ in misread(observation, frame.truth)}
    plain = [name for name, truth in frame.truth.items()
             if len(truth.coins) <= 3 and name not in wrong]
    assert plain
    assert [name for name in plain if observation[name].confidence < UNSURE_CONFIDENCE] == []


@pytest.mark.parametrize("seed", [9])
def test_pits_read_right_are_not_flagged_for_a_lamps_haze_between_their_coins(seed):
    """A benchmark frame whose pits are all read right, two of them flagged doubtful before for
    coin-coloured area no coin explained: the haze brighter than paper that the light's
    normalisation leaves between crowded coins. No pit there asks the players now."""
    scene = shakala_scene(seed)
    frame = render(scene, seed)
    observation = read_frame(CONFIG, frame.image, shakala_mat(), PROFILE)
    assert misread(observation, frame.truth) == []
    assert all(observation[name].confidence >= UNSURE_CONFIDENCE for name in frame.truth)


def test_a_cup_coin_whose_outline_scatters_off_its_circle_is_flagged_not_guessed():
    """A benchmark frame where a quarter lying partly on another coin in a cup was read surely
    a nickel: its outline against paper mixes in an edge or shadow not its own, its points
    scatter off the circle fitted through them, and the cup is now flagged doubtful."""
    seed = 322
    frame = render(shakala_scene(seed), seed)
    observation = read_frame(CONFIG, frame.image, shakala_mat(), PROFILE)
    wrong = misread(observation, frame.truth)
    assert all(confidence < UNSURE_CONFIDENCE for *_, confidence in wrong), wrong


def test_a_dime_lying_mostly_under_its_neighbours_is_still_counted():
    """A benchmark frame (dim light, 2 px/mm) where a dime half under a nickel and a dime in
    a pit of four showed only an arc of its rim: its centre drew too few votes to be looked
    at, and the pit was read surely as three coins. A weak peak is now checked on its rim and
    on the bare metal of its face, and the dime is counted."""
    seed = 10
    frame = render(shakala_scene(seed), seed)
    observation = read_frame(CONFIG, frame.image, shakala_mat(), PROFILE)
    assert observation["F"].kinds == tuple(sorted(frame.truth["F"].coins)) == ("D", "D", "N", "P")
    assert all(confidence < UNSURE_CONFIDENCE
               for *_, confidence in misread(observation, frame.truth))


def test_a_silver_coin_measured_between_two_kinds_in_a_pit_or_cup_is_flagged_not_guessed():
    """A benchmark frame where a nickel beside a penny in a pit, and one beside a dime in a
    cup, each measured with its shadow about a millimetre and a half large, were read surely
    as quarters (0.50 and 0.63): sizes over a third of the way to the next silver kind are a
    doubt now."""
    seed = 202
    frame = render(shakala_scene(seed), seed)
    observation = read_frame(CONFIG, frame.image, shakala_mat(), PROFILE)
    wrong = misread(observation, frame.truth)
    assert {name for name, *_ in wrong} >= {"g", "cup-north"}
    assert all(confidence < UNSURE_CONFIDENCE for *_, confidence in wrong), wrong


def test_sizes_between_silver_kinds_are_those_over_the_share_of_the_gap_to_the_next():
    priors = tuple(KindPrior(kind, COIN_KINDS[kind][1], COIN_KINDS[kind][2]) for kind in "PDNQS")
    frame = FrameFit(kinds=tuple("PDNQS"), probabilities=np.zeros((0, 5)), offset_mm=0.5,
                     kind_offsets_mm={"Q": 0.2})
    # A nickel is 21.71 mm as seen, a quarter 24.96 and a dime 18.41: 0.35 of the gap from
    # the nickel to the quarter is 1.14 mm, to the dime 1.16 mm; nothing lies past the
    # dime and the quarter, and a penny's size names no silver kind.
    kinds = ["N", "N", "N", "D", "D", "Q", "P"]
    sizes = np.array([22.5, 22.9, 20.1, 16.0, 19.8, 25.0, 20.4])
    doubtful = between_silver_kinds(frame, priors, kinds, sizes, 0.35)
    assert doubtful.tolist() == [False, True, True, False, True, False, False]


@pytest.mark.parametrize(("seed", "region"), [(97, "C"), (177, "cup-north")])
def test_a_nickel_sized_on_its_rim_ring_or_a_short_arc_is_flagged_not_read_a_dime(seed, region):
    """Benchmark frames where a nickel whose face is as pale as the paper was measured on its
    raised rim ring (under a dime's size) or on 0.59 of its outline (a third of the way to a
    nickel's), and read surely as a dime: the region is now flagged doubtful."""
    frame = render(shakala_scene(seed), seed)
    observation = read_frame(CONFIG, frame.image, shakala_mat(), PROFILE)
    wrong = misread(observation, frame.truth)
    assert all(confidence < UNSURE_CONFIDENCE for *_, confidence in wrong), wrong
    assert observation[region].confidence < UNSURE_CONFIDENCE or region not in {
        name for name, *_ in wrong}


def test_a_dime_measured_well_under_a_dime_and_a_size_on_a_short_arc_are_doubtful():
    priors = tuple(KindPrior(kind, COIN_KINDS[kind][1], COIN_KINDS[kind][2]) for kind in "PDNQS")
    frame = FrameFit(kinds=tuple("PDNQS"), probabilities=np.zeros((0, 5)), offset_mm=0.5,
                     kind_offsets_mm={})
    # A dime is 18.41 mm as seen, a nickel 21.71: 0.2 of the gap is 0.66 mm. A penny or a
    # nickel as small names no rim ring's doubt here (the nickel's is between kinds).
    kinds = ["D", "D", "D", "P", "N"]
    sizes = np.array([17.70, 17.80, 19.2, 17.0, 22.0])
    assert under_smallest_silver(frame, priors, kinds, sizes, 0.2).tolist() == [
        True, False, False, False, False]
    # Per coin shares: the dime at 0.24 of the way to a nickel is doubtful at 0.2, not 0.35.
    shares = np.array([0.35, 0.35, 0.2, 0.35, 0.35])
    assert between_silver_kinds(frame, priors, kinds, sizes, shares).tolist() == [
        False, False, True, False, False]
