"""How the regions of a top view are read: the tunable lengths, steps and thresholds."""

from __future__ import annotations

from dataclasses import dataclass

#: Region kinds that hold several loose coins rather than one stack.
LOOSE_KINDS = ("pit", "cup")


@dataclass(frozen=True)
class ReadConfig:
    """How regions are read; the coin and pawn looks come from the :class:`VisionProfile`.

    ``light_window_mm`` must exceed the largest coin (and the largest cluster of coins in a pit
    that should still be read well); texture is the mean gradient over ``texture_mm`` above
    ``texture_step`` of paper, or above ``texture_noise`` times the frame's median (its noise),
    when that is higher. Where the camera clipped (a channel at ``clip_level`` or more), blobs
    within ``clip_reach_mm`` of clipped pixels, joined across twice that, are filled to their
    hulls when round and coin-sized (a silver coin there shows only its edge); only glare that
    clips most of a ``clip_cell_px`` square cell counts (not a coin's highlight).
    ``seed_radius_mm`` is the least inscribed radius of a blob worth measuring (a pawn's is
    7 mm); rays run ``ray_count`` ways out to
    ``ray_reach_mm`` beyond the largest coin's rim. ``outside_weight`` is the weight of rim
    points outside the fitted circle (shadows and edges only ever add outside);
    ``pawn_outside_weight`` theirs for a coin whose face is less than ``beside_pawn_visible``
    clear of pawns (a pawn leaning over the rim and its shadow add more outside); its colour
    is taken ``pawn_colour_margin_mm`` away from the pawn where enough is seen. Up to
    ``max_size_shift_mm`` of common size error per frame is taken out (see
    :func:`vision.coin_size.size_shift`).
    A blob larger than the rays' reach whose rays end on no paper on ``short_rays`` of them (a
    stack spread by its offsets) is measured again with rays as far beyond its blob.
    The top coin's rim is looked for from ``inner_rim_begin`` of the outline's radius to
    ``inner_rim_margin_mm`` inside it; it is trusted to turn a reading on ``inner_rim_share``
    of the rays, to doubt one on ``weak_rim_share``; its width is ``rim_width_mm`` when too few
    coins show it. The top coin's diameter from it (less ``top_bias_mm``, as it reads a little
    large) names a smaller kind when below the midpoint between the kinds plus
    ``top_margin_mm``. The reading turns to that kind (confidence ``top_coin_confidence``)
    within ``top_tolerance_mm`` of its size, when the outline is below the midpoint to the
    next smaller kind plus ``small_outline_mm`` or is the largest of its metal with the rim
    ``top_offset_mm`` off its centre (then with confidence ``off_centre_confidence``: that
    alone is weaker evidence), and the top coin's edge ring is ``top_ring_ratio`` as dark as
    the outline's; else it is doubted (``hidden_coin_doubt``), as is a coin whose rim
    lies ``stack_offset_mm`` off the outline's centre. A rim within ``top_near_mm`` of a
    smaller kind, ``least_stack_offset_mm`` off-centre, with a ring ``clear_ring_ratio`` as
    dark, turns any outline of a larger kind of its metal. A coin whose top rim is not seen
    although no pawn hides it (blur, glare) is doubted by ``unseen_rim_doubt``: a smaller coin
    of its metal may lie on it. See :func:`vision.top_coin.top_coins`.
    A blob less than ``min_visible_share`` clear of pawns holds a coin (read with doubt) when
    its rim fits a circle within ``under_pawn_margin_mm`` of the smallest coin or larger.
    A coin whose circle lies near fewer than ``min_fit_share`` of its rays' rim points is
    read with doubt (``hidden_coin_doubt``): its size is a guess. A coin no pawn is beside
    whose rim shows on fewer than ``min_rim_rays`` of its rays (glare washes silver out) is
    measured by its outline in the foreground instead. With ``silver_top_model`` the top coin
    of every silver outline is named by the ring model of :mod:`vision.silver_tops` instead
    (the rim rules above then read only coins of other metals).
    """

    light_pixels_per_mm: float = 0.125
    light_window_mm: float = 40.0
    reference_blur_px: float = 1.0
    ink_band_mm: float = 1.2
    colour_step: float = 0.25
    texture_mm: float = 0.5
    texture_step: float = 0.05
    texture_noise: float = 1.6
    clip_level: int = 245
    clip_reach_mm: float = 1.5
    clip_cell_px: int = 8
    seed_radius_mm: float = 5.0
    ray_count: int = 40
    ray_step_mm: float = 0.25
    ray_reach_mm: float = 2.0
    blob_reach_mm: float = 4.0
    rim_step: float = 0.15
    paper_tolerance: float = 0.3
    rim_window_mm: float = 0.6
    outside_weight: float = 0.2
    pawn_outside_weight: float = 0.1
    beside_pawn_visible: float = 0.95
    pawn_colour_margin_mm: float = 2.0
    fit_rounds: int = 5
    max_size_shift_mm: float = 1.5
    min_visible_share: float = 0.35
    min_loose_rim_share: float = 0.3
    pawn_margin_mm: float = 0.5
    inner_rim_begin: float = 0.45
    inner_rim_margin_mm: float = 0.8
    inner_rim_share: float = 0.5
    weak_rim_share: float = 0.3
    rim_width_mm: float = 1.5
    top_bias_mm: float = 0.4
    top_margin_mm: float = 0.5
    top_tolerance_mm: float = 1.0
    top_offset_mm: float = 0.6
    top_coin_confidence: float = 0.6
    off_centre_confidence: float = 0.45
    stack_offset_mm: float = 0.9
    top_ring_ratio: float = 0.4
    top_near_mm: float = 0.7
    least_stack_offset_mm: float = 0.3
    clear_ring_ratio: float = 0.7
    small_outline_mm: float = 0.4
    hidden_coin_doubt: float = 0.3
    unseen_rim_doubt: float = 0.45
    under_pawn_margin_mm: float = 0.5
    min_fit_share: float = 0.3
    min_coins_for_shift: int = 4
    min_rim_rays: float = 0.5
    short_rays: float = 0.15
    max_loose_coins: int = 40
    silver_top_model: bool = True
