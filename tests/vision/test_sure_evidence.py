"""A reading is sure only where its evidence agrees (:mod:`vision.sure_evidence`), on the
measurements the reader took of real frames of the physically based tuning sets
(``bench/confidence_evidence.py --sets cold,stress``): the kind is kept, the confidence
becomes a doubt."""

from __future__ import annotations

import numpy as np

from contract.observation import COIN_KINDS
from vision.frame_fit import FrameFit
from vision.sure_evidence import SureEvidenceConfig, disagreeing_evidence

KINDS = ("P", "N", "D", "Q")
SIZES = {kind: COIN_KINDS[kind][1] for kind in KINDS}
METALS = {kind: COIN_KINDS[kind][2] for kind in KINDS}


def _frame(offset: float, by_colour: list[list[float]], single: list[float] | None = None,
           outline_mm: list[list[float]] | None = None) -> FrameFit:
    """A frame whose size offset is ``offset``, whose coins' colours give silver and copper
    as ``by_colour``, each a single coin by ``single`` (sure where not given) and expected
    to show each kind's outline at ``outline_mm`` where given."""
    count = len(by_colour)
    return FrameFit(KINDS, np.full((count, 4), 0.25), offset, metals=("silver", "copper"),
                    by_colour=np.array(by_colour), silver_field=np.zeros((count, 2)),
                    single=np.ones(count) if single is None else np.array(single),
                    outline_mm=np.zeros((0, 0)) if outline_mm is None else np.array(outline_mm))


def _confidence(frame: FrameFit, kinds: list[str], colours: list[list[float]],
                diameters: list[float], contrast: list[float], confidence: list[float]
                ) -> np.ndarray:
    return disagreeing_evidence(SureEvidenceConfig(), frame, kinds, SIZES, METALS,
                                np.array(colours), np.array(diameters), np.array(contrast),
                                np.array(confidence))


def test_a_colour_seen_in_one_channel_that_names_the_other_metal_makes_a_doubt() -> None:
    # Cold seed 5, f3: a penny under a 3,000 K lamp, its blue unmeasured, its red against
    # green copper's (0.88), measured 17.2 mm and read as a dime at 0.76.
    frame = _frame(-0.06, [[0.12, 0.88], [0.98, 0.02], [0.45, 0.55]])
    result = _confidence(frame, ["D", "D", "N"],
                         [[-0.005, np.nan], [0.02, np.nan], [0.01, np.nan]],
                         [17.24, 17.8, 21.2], [0.19, 0.25, 0.25], [0.76, 0.95, 0.9])
    assert result[0] <= 0.45
    # A dime whose red says silver, and a nickel whose colour is merely unsure, are kept.
    assert result[1] == 0.95 and result[2] == 0.9


def test_a_faint_outline_a_smaller_coin_and_its_shadow_explain_makes_a_doubt() -> None:
    # Stress seed 1030, e1: a faint nickel (edge 0.09 of paper) outlined on its shadow at
    # 25.9 mm, read as a quarter at 0.98; less 3 mm of shadow it is nearer a nickel.
    frame = _frame(0.29, [[0.99, 0.01]] * 3)
    silver = [[0.04, -0.09]] * 3
    result = _confidence(frame, ["Q", "Q", "Q"], silver, [25.94, 28.27, 25.94],
                         [0.087, 0.083, 0.25], [0.98, 0.92, 0.97])
    assert result[0] <= 0.45
    # A faint quarter measured with its whole shadow (stress seed 1067, b1: 28.3 mm) is a
    # quarter still; so is a quarter of that size that stands out clearly.
    assert result[1] == 0.92 and result[2] == 0.97
    # Nickels are not doubted so: faint nickels read right far outnumber dimes on shadows.
    nickel = _confidence(frame, ["N"], silver[:1], [22.9], [0.08], [0.9])
    assert nickel[0] == 0.9


def test_a_dime_whose_single_outline_a_nickel_explains_makes_a_doubt() -> None:
    # Tuning seed 24, g2: a lone nickel measured 21.4 mm where the frame expects a dime's
    # outline at 19.8 and a nickel's at 22.8 (its top circle, 15.4 mm, on the lettering),
    # read as a dime at 0.88 although the frame takes the outline as a single coin (0.95).
    outlines = [[20.76, 22.79, 19.82, 25.98],
                # Stress seed 1012, e5: a dime on a penny, the penny sticking out (0.38 single).
                [19.59, 21.84, 18.42, 24.88],
                # Stress seed 1037, f4: a faint lone dime, its outline 0.25 of the way.
                [21.15, 23.42, 20.44, 26.53],
                # The tuning nickel read as a nickel: the rule is for the smallest kinds.
                [20.76, 22.79, 19.82, 25.98]]
    frame = _frame(0.5, [[0.99, 0.01]] * 4, [0.95, 0.38, 0.97, 0.95], outlines)
    result = disagreeing_evidence(
        SureEvidenceConfig(), frame, ["D", "D", "D", "N"], SIZES, METALS,
        np.array([[0.04, -0.09]] * 4), np.array([21.42, 20.43, 21.2, 21.42]),
        np.array([0.14, 0.32, 0.1, 0.14]), np.array([0.88, 0.63, 0.9, 0.7]))
    assert result[0] <= 0.45
    assert list(result[1:]) == [0.63, 0.9, 0.7]


def test_a_lone_ring_coin_measured_between_two_kinds_makes_a_doubt() -> None:
    # Ring tuning seed 82, t30: a nickel alone in its space measured 23.55 mm where the frame
    # expects a nickel's outline at 21.95 and a quarter's at 24.77 (0.43 of the way), read as
    # a quarter at 0.67; seed 118, t2: a quarter measured 23.87 mm (0.41 of the way to a
    # nickel's 22.69), read as a nickel at 0.69.
    outlines = [[19.44, 21.95, 18.69, 24.77], [20.2, 22.69, 19.1, 25.57],
                # Seed 82, t42: a dime read right, 0.27 of the way to a nickel: kept.
                [19.66, 22.16, 18.9, 24.98],
                # The first nickel's measure off the ring (no space alone): left to the frame.
                [19.44, 21.95, 18.69, 24.77]]
    frame = _frame(0.5, [[0.99, 0.01]] * 4, [0.88, 0.82, 0.97, 0.88], outlines)
    result = disagreeing_evidence(
        SureEvidenceConfig(), frame, ["Q", "N", "D", "Q"], SIZES, METALS,
        np.array([[0.0, 0.0]] * 4), np.array([23.55, 23.87, 19.79, 23.55]),
        np.array([0.3] * 4), np.array([0.67, 0.69, 0.97, 0.67]),
        np.array([True, True, True, False]))
    assert result[0] <= 0.45 and result[1] <= 0.45
    assert list(result[2:]) == [0.97, 0.67]
