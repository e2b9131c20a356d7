"""How the regions of a top view are read: each stage's configuration, gathered in one place."""

from __future__ import annotations

from dataclasses import dataclass, field

from vision.cards import CardConfig
from vision.channel_noise import ChannelNoiseConfig
from vision.coin_mass import CoinMassConfig
from vision.dice import DiceConfig
from vision.frame_model import FrameModelConfig
from vision.inner_outlines import InnerOutlineConfig
from vision.light import LightConfig
from vision.loose import LooseConfig
from vision.metals import MetalCheckConfig
from vision.pawns import PawnConfig
from vision.presence import PresenceConfig
from vision.rim_beyond import RimBeyondConfig
from vision.rims import RimConfig
from vision.seeds import SeedConfig
from vision.size_doubt import SizeDoubtConfig
from vision.sure_evidence import SureEvidenceConfig
from vision.tops import TopConfig

#: Region kinds that hold several loose coins rather than one stack.
LOOSE_KINDS = ("pit", "cup")
#: Region kinds also seeded at their middles: a ring's round spaces, each holding one coin
#: laid on it, 4 mm of paper apart, where the unlikeness of two neighbours' rims peaks in the
#: gap between them (no region's) rather than in either coin.
CENTRED_KINDS = ("track",)
#: Region kinds whose coins each lie alone, one to a space and never stacked (a ring's track
#: and HOME spaces hold one coin or none, issue 21): no smaller coin lies on top of one,
#: whatever circle shows inside its outline.
ALONE_KINDS = ("track",)


@dataclass(frozen=True)
class CoinConfig:
    """When a fitted outline is a coin: its rim agrees with its circle on ``least_agreement``
    of the rays no pawn crosses (``sure_agreement`` for full confidence), it stands at least
    ``least_contrast`` of paper out of it, and its diameter, less the frame's offset, lies
    within ``size_margin_mm`` of the kinds' sizes. An outline sought at a space's middle
    where no seed stood out, standing out less than ``clear_contrast``, must agree on more
    rays, up to ``faint_penalty`` more at ``least_contrast``
    (:func:`vision.candidates.faint_agreement`). Outlines closer than
    ``apart_share`` of a radius are one coin. At most ``seeds_per_region`` seeds are measured
    in a square (a coin seldom makes more than two), ``max_loose_coins`` in a pit or cup, each
    at least
    ``loose_spacing_mm`` from the others there; ``loose_rounds`` more rounds seed those
    regions again with the coins found painted over (``painted_margin_mm`` wider than
    their outlines), where an outline overlapping a coin found by more than
    ``loose_overlap_mm``, or standing less than ``painted_contrast`` out of paper, is none.

    Where a pawn stands on the face, the outline must be at least the smallest coin's size less
    ``pawn_size_margin_mm`` (by the frame's size offset), and one the pawn hides on more than
    ``hidden_share`` of its rays is at most a doubt of ``hidden_presence``; a coin read under a
    pawn has a confidence of at most ``hidden_confidence`` (its kind is a guess from its rim),
    and so has an empty square a pawn stands on, a coin in a square a pawn stands in, and a coin
    whose kind rests on part of its evidence: its face clipped white on ``glint_share`` of it or
    more, or its colour within ``metal_boundary`` of halfway between the frame's silver and a
    tinted metal, or farther from both than ``metal_distance`` of the tint between them, where a
    kind of the other metal lies within ``metal_size_gap_mm`` of its size (see
    :func:`vision.read._partial_evidence`), or whose outline stands less than
    ``bare_contrast`` out of paper with no top circle inside it (in a ring's space no coin,
    nor is one so faint whose rim agrees on under ``ragged_agreement`` of its rays, where its
    middle lies under ``bare_face`` of the paper's level below it: :mod:`vision.ring_spaces`),
    and a square where no pawn
    was found but ``pawn_trace_mm2`` or more of pawn-coloured pixels show. A top circle found on
    a coin a pawn stands on more than ``base_gap_mm`` narrower than its outline is the pawn's
    base, not the coin's. An empty reading is doubted by any seed there that stood out
    ``empty_strength`` times the least a seed needs, more the stronger, up to
    ``strength_doubt`` (:func:`vision.candidates.empty_doubt`), and by an outline not taken
    whose presence reaches ``near_presence`` at least as much as a hidden coin's reading
    (``hidden_confidence``) is. An outline too few rays agree with is measured again on the
    view smoothed by ``retry_smoothing_mm``.
    """

    least_agreement: float = 0.4
    sure_agreement: float = 0.7
    least_contrast: float = 0.05
    clear_contrast: float = 0.09
    faint_penalty: float = 0.7
    size_margin_mm: float = 3.0
    apart_share: float = 0.6
    pawn_size_margin_mm: float = 2.0
    hidden_share: float = 0.5
    hidden_presence: float = 0.4
    hidden_confidence: float = 0.45
    base_gap_mm: float = 4.0
    glint_share: float = 0.5
    pawn_trace_mm2: float = 8.0
    metal_boundary: float = 0.25
    metal_distance: float = 0.6
    metal_size_gap_mm: float = 2.5
    bare_contrast: float = 0.1
    ragged_agreement: float = 0.5
    bare_face: float = 0.025
    empty_strength: float = 2.0
    strength_doubt: float = 0.9
    near_presence: float = 0.25
    max_loose_coins: int = 40
    seeds_per_region: int = 3
    loose_spacing_mm: float = 6.0
    loose_rounds: int = 2
    painted_margin_mm: float = 1.5
    loose_overlap_mm: float = 2.0
    painted_contrast: float = 0.15
    retry_smoothing_mm: float = 0.5


@dataclass(frozen=True)
class ReadConfig:
    """How regions are read; the coin kinds and pawn colours come from the profile."""

    light: LightConfig = field(default_factory=LightConfig)
    channel_noise: ChannelNoiseConfig = field(default_factory=ChannelNoiseConfig)
    seeds: SeedConfig = field(default_factory=SeedConfig)
    rims: RimConfig = field(default_factory=RimConfig)
    tops: TopConfig = field(default_factory=TopConfig)
    pawns: PawnConfig = field(default_factory=PawnConfig)
    model: FrameModelConfig = field(default_factory=FrameModelConfig)
    coins: CoinConfig = field(default_factory=CoinConfig)
    dice: DiceConfig = field(default_factory=DiceConfig)
    cards: CardConfig = field(default_factory=CardConfig)
    loose: LooseConfig = field(default_factory=LooseConfig)
    presence: PresenceConfig = field(default_factory=PresenceConfig)
    metals: MetalCheckConfig = field(default_factory=MetalCheckConfig)
    size_doubt: SizeDoubtConfig = field(default_factory=SizeDoubtConfig)
    inner_outlines: InnerOutlineConfig = field(default_factory=InnerOutlineConfig)
    sure_evidence: SureEvidenceConfig = field(default_factory=SureEvidenceConfig)
    rim_beyond: RimBeyondConfig = field(default_factory=RimBeyondConfig)
    coin_mass: CoinMassConfig = field(default_factory=CoinMassConfig)
