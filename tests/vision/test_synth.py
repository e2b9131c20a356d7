"""The synthetic table: ground truth matches the pixels, every variation renders, determinism."""

from dataclasses import replace

import cv2
import numpy as np
import pytest

from calibration import geometry
from contract.table_state import TableState
from vision.synth import (
    CameraPose,
    Light,
    SynthError,
    SynthScene,
    Variation,
    random_hand,
    random_scene,
    random_variation,
    render,
    render_frame,
    with_hands,
)
from vision.synth.feed import SynthCamera

DETECTOR = cv2.aruco.ArucoDetector(
    cv2.aruco.getPredefinedDictionary(cv2.aruco.DICT_4X4_50), cv2.aruco.DetectorParameters()
)


def detect(image):
    corners, ids, _ = DETECTOR.detectMarkers(image)
    if ids is None:
        return {}
    return {int(i): c.reshape(4, 2) for i, c in zip(ids.ravel(), corners, strict=True)}


def coin_colour(frame, name):
    """Median BGR of a small patch at the projected centre of a square (coins centred)."""
    x, y = frame.project([frame.scene.geometry.region(name).centre])[0]
    patch = frame.image[round(y) - 2 : round(y) + 3, round(x) - 2 : round(x) + 3]
    return np.median(patch.reshape(-1, 3), axis=0)


def centred_board(variation):
    """Single coins of each kind on known squares, no off-centre placement, no pawns."""
    coins = {"a1": "P", "c3": "N", "e5": "D", "g7": "Q", "b6": "P", "f2": "N", "h8": "P"}
    return SynthScene.build(coins, {}, variation=replace(variation, placement=0.0))


@pytest.mark.parametrize("seed", [0, 1, 2, 3, 4, 5])
def test_markers_found_where_the_truth_projects_them(seed):
    frame = render(random_scene(seed), seed)
    found = detect(frame.image)
    assert sorted(found) == [0, 1, 2, 3]
    for marker_id, corners in found.items():
        expected = frame.project(frame.scene.geometry.marker(marker_id).corners())
        assert np.abs(corners - expected).max() < 3.0, marker_id


@pytest.mark.parametrize("warmth", [-1.0, 0.0, 1.0])
def test_copper_reads_redder_than_silver_at_the_projected_centres(warmth):
    variation = replace(random_variation(11), light=Light(warmth=warmth))
    frame = render(centred_board(variation), 0)
    ratio = {name: coin_colour(frame, name)[2] / max(1.0, coin_colour(frame, name)[0])
             for name in ("a1", "b6", "h8", "c3", "e5", "g7", "f2")}
    copper = min(ratio[name] for name in ("a1", "b6", "h8"))
    silver = max(ratio[name] for name in ("c3", "e5", "g7", "f2"))
    assert copper > silver * 1.3, ratio


def test_empty_square_shows_the_mat_and_a_coin_differs_from_it():
    frame = render(centred_board(Variation()), 0)
    empty = coin_colour(frame, "d4")
    penny = coin_colour(frame, "a1")
    assert empty.mean() > 170  # the pale mat
    assert np.abs(empty - penny).sum() > 60


def test_truth_lists_every_region_with_its_top_coin_and_pawn():
    scene = SynthScene.build({"a1": "NQ", "b2": "P"}, {"a1": "red"})
    truth = scene.truth()
    assert len(truth) == 64
    assert truth["a1"].top == "Q" and truth["a1"].pawn == "red"
    assert truth["b2"].top == "P" and truth["b2"].pawn is None
    assert truth["c3"].top is None
    observation = scene.observation()
    assert observation.coin("a1") == "Q" and observation.pawn("a1") == "red"
    assert observation.markers_found == (0, 1, 2, 3)


def test_from_table_maps_players_to_colours():
    table = TableState.of_stacks({"a1": "P", "d5": "DQ"}, {"1": "a1", "2": "d5", "3": None})
    scene = SynthScene.from_table(table, layout_seed=4)
    assert scene.pawns_by_region() == {"a1": "red", "d5": "blue"}
    assert scene.coins_by_region() == {"a1": "P", "d5": "DQ"}
    assert scene.layout_seed == 4


def test_same_seed_same_image_and_other_seed_only_noise():
    scene = random_scene(7)
    first, again, other = render_frame(scene, 1), render_frame(scene, 1), render_frame(scene, 2)
    assert np.array_equal(first, again)
    difference = np.abs(first.astype(int) - other.astype(int))
    assert difference.any()
    assert difference.mean() < 6.0  # sensor noise, not a different picture


@pytest.mark.parametrize("seed", range(10, 18))
def test_random_variations_render_at_full_size(seed):
    variation = random_variation(seed)
    assert 0 <= variation.pose.tilt_deg <= 35
    image = render_frame(random_scene(seed, variation), seed)
    assert image.shape == (1080, 1920, 3) and image.dtype == np.uint8
    assert sorted(detect(image)) == [0, 1, 2, 3]


def test_extreme_variation_keeps_markers_detectable():
    variation = Variation(
        pose=CameraPose(tilt_deg=35.0, tilt_azimuth_deg=30.0, rotation_deg=15.0, fill=0.78,
                        offset=(0.8, -0.8), focal_px=1200.0),
        lens_k1=-0.04,
        light=Light(warmth=1.0, exposure=0.8, gradient=0.35, shadows=2, shadow_strength=0.4,
                    glare=1.0, seed=3),
        noise=5.0, blur=1.3, jpeg_quality=55, tarnish=0.8, placement=1.0, table=1,
    )
    frame = render(random_scene(3, variation), 3)
    assert sorted(detect(frame.image)) == [0, 1, 2, 3]


@pytest.mark.parametrize("marker_id", [0, 2])
def test_hand_over_a_marker_hides_it_and_says_so(marker_id):
    scene = with_hands(random_scene(5, Variation()), random_hand(9, cover_marker=marker_id))
    frame = render(scene, 0)
    assert frame.markers_covered == (marker_id,)
    assert marker_id not in frame.markers_visible
    found = detect(frame.image)
    assert marker_id not in found
    assert len(found) == 3


def test_hand_over_play_area_is_flagged_and_changes_the_picture():
    scene = random_scene(6, Variation())
    with_hand = with_hands(scene, random_hand(2))
    plain, covered = render(scene, 0), render(with_hand, 0)
    assert not plain.hand_over_play_area and covered.hand_over_play_area
    assert np.abs(plain.image.astype(int) - covered.image.astype(int)).mean() > 3


def test_pits_hold_loose_coins_inside_their_circle():
    mat = geometry.test_pit_mat()
    scene = SynthScene.build({"s1": "PPNQ", "n3": "D", "cup-w": "SS"}, {}, geometry=mat,
                             variation=Variation(), image_size=(1280, 720))
    frame = render(scene, 0)
    assert frame.image.shape == (720, 1280, 3)
    truth = frame.truth
    assert truth["s1"].loose and truth["s1"].reading().count == 4
    assert truth["s1"].reading().kinds == ("N", "P", "P", "Q")
    assert truth["s2"].reading().count == 0
    assert sorted(detect(frame.image)) == [0, 1, 2, 3]
    # The pit with coins looks different from an empty one.
    def pit_patch(name):
        region = mat.region(name)
        x, y = frame.project([region.centre])[0]
        r = 10
        return frame.image[round(y) - r : round(y) + r, round(x) - r : round(x) + r].astype(int)
    assert np.abs(pit_patch("s1").std() - pit_patch("s2").std()) > 3


def test_camera_serves_changing_scenes():
    boards = [random_scene(1, Variation()), random_scene(2, Variation())]
    calls = []

    def provider(index):
        calls.append(index)
        return boards[min(index, 1)]

    camera = SynthCamera(provider, seed=3)
    first = camera.read()
    second = camera.read_frame()
    assert calls == [0, 1]
    assert second.scene == boards[1]
    assert np.abs(first.astype(int) - second.image.astype(int)).mean() > 1
    camera.set_scene(boards[0])
    third = camera.read()
    assert camera.frames_read == 3
    assert np.abs(first.astype(int) - third.astype(int)).mean() < 6


def test_bad_scenes_are_refused_with_the_bad_input_named():
    with pytest.raises(SynthError, match="'z9'"):
        SynthScene.build({"z9": "P"})
    with pytest.raises(SynthError, match="'X'"):
        SynthScene.build({"a1": "PX"})
    with pytest.raises(SynthError, match="'pink'"):
        SynthScene.build({}, {"a1": "pink"})
    with pytest.raises(SynthError, match="token '5'"):
        SynthScene.from_table(TableState.of_stacks({}, {"5": "a1"}))



@pytest.mark.parametrize("seed", [30, 31, 32])
def test_placed_coins_lie_in_their_regions_and_show_their_metal(seed):
    scene = random_scene(seed)
    frame = render(scene, seed)
    coins, pawns = scene.placements()
    mat = scene.geometry
    assert {pawn.region for pawn in pawns} == set(scene.pawns_by_region())
    assert len(coins) == sum(len(letters) for letters in scene.coins_by_region().values())
    ratios = {"copper": [], "silver": []}
    for coin in coins:
        assert mat.region_at(coin.centre_mm).name == coin.region
        if coin.region in scene.pawns_by_region() or len(scene.coins_by_region()[coin.region]) > 1:
            continue
        x, y = frame.project([coin.centre_mm])[0]
        patch = frame.image[round(y) - 2 : round(y) + 3, round(x) - 2 : round(x) + 3]
        blue, _, red = np.median(patch.reshape(-1, 3), axis=0)
        ratios["copper" if coin.letter == "P" else "silver"].append(red / max(blue, 1.0))
    assert min(ratios["copper"]) > max(ratios["silver"]), ratios


def test_a_visiting_hand_comes_in_stays_and_leaves():
    from vision.synth.feed import hand_visit

    scene = random_scene(8, Variation())
    camera = SynthCamera(hand_visit(scene, random_hand(3), start=2, stay=3, travel=3), seed=0)
    frames = [camera.read_frame() for _ in range(12)]
    over = [frame.hand_over_play_area for frame in frames]
    reach = [frame.scene.hands[0].reach if frame.scene.hands else 0.0 for frame in frames]
    assert reach[:2] == [0.0, 0.0] and reach[5:8] == [1.0, 1.0, 1.0] and reach[-1] == 0.0
    assert reach[2] < reach[3] < reach[4] == 1.0 and reach[8] > reach[9] > 0.0
    assert not over[0] and over[6] and not over[-1]
    still = np.abs(frames[0].image.astype(int) - frames[-1].image.astype(int)).mean()
    moving = np.abs(frames[3].image.astype(int) - frames[4].image.astype(int)).mean()
    assert moving > 2 * still


def test_impossible_variations_are_refused():
    with pytest.raises(SynthError, match=r"pose\.tilt_deg"):
        Variation(pose=CameraPose(tilt_deg=80.0))
    with pytest.raises(SynthError, match="jpeg_quality"):
        Variation(jpeg_quality=150)


def test_a_board_drawn_again_after_another_is_the_same_frame_and_hands_change_only_the_hands():
    # render() keeps the warped board of the last boards; a cached board must never show
    # another board's coins, nor a hand left over from an earlier frame.
    variation = random_variation(5)
    first = SynthScene.build({"a1": "P", "c3": "NN"}, {}, variation=variation)
    second = SynthScene.build({"h8": "Q"}, {}, variation=variation)
    before = render(first, 7).image
    other = render(second, 7).image
    handed = render(with_hands(first, random_hand(3)), 7).image
    again = render(first, 7).image
    assert np.array_equal(before, again)
    assert not np.array_equal(before, other)
    changed = np.abs(handed.astype(int) - before.astype(int)).max(axis=2) > 40
    assert 0 < changed.mean() < 0.5


def test_touching_dice_look_the_same_whatever_order_they_were_thrown_in():
    """The nearer of two touching dice hides the farther where they overlap in the view, and
    neither's shadow darkens the other's top: the picture does not depend on which die the
    scene lists first (a farther die was painted over a nearer one's top, and a later die's
    shadow over an earlier one's)."""
    from vision.synth.dice import Die, draw_dice

    camera = (0.0, 0.0, 450.0)  # the camera's foot up and left of the dice
    near = Die(3, (120.0, 120.0), 20.0, "black", size_mm=17.0)
    far = Die(5, (135.0, 134.0), 20.0, "red", size_mm=15.0)
    pictures = []
    for dice in ((near, far), (far, near)):
        canvas = np.full((280, 280, 3), (90, 140, 70), np.uint8)
        draw_dice(canvas, dice, 1.6, camera, (0.6, 0.8))
        pictures.append(canvas)
    assert np.array_equal(pictures[0], pictures[1])
    # Drawn alone, the nearer die shows the same as beside the farther one where it is seen.
    alone = np.full((280, 280, 3), (90, 140, 70), np.uint8)
    draw_dice(alone, (near,), 1.6, camera, (0.6, 0.8))
    centre = (round(120.0 * 1.6), round(120.0 * 1.6))
    assert np.array_equal(alone[centre[1] - 4:centre[1] + 4, centre[0] - 4:centre[0] + 4],
                          pictures[0][centre[1] - 4:centre[1] + 4, centre[0] - 4:centre[0] + 4])
