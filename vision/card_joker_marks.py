"""What a card's corners show besides a rank's index: a joker's marks (a star, an emblem, JOKER
written down the side, nothing at all) and the glyphs a court's letter is told from, for
:mod:`vision.card_judge`. A rank prints its index, a glyph over its suit, in both corners; a
joker prints no suit, and may print nothing there at all."""

from __future__ import annotations

from vision.card_pips import PipCount
from vision.card_ranks import IndexRead, RankConfig

#: The label of the index templates of a joker's corner star (:mod:`vision.card_fonts`).
STAR = "star"
#: Ranks whose index is a number: no joker's corner reads as one.
NUMBER_RANKS: tuple[str, ...] = ("2", "3", "4", "5", "6", "7", "8", "9", "10")


def star_tied(config: RankConfig, corner: IndexRead) -> bool:
    """Whether ``corner`` shows one mark with nothing under it that matches a star (at
    ``sure_match``) nearly as well as any rank (within ``backing_slack``): a rank's index
    has its suit under it, and a star in a ring matches a Q as well as a star."""
    scores = dict(corner.scores)
    return corner.suit_below == -1.0 and corner.parts == 1 and \
        scores.get(STAR, -1.0) >= max(config.sure_match, corner.best()[1] - config.backing_slack)


def court_lettered(config: RankConfig, index: IndexRead) -> bool:
    """Whether a corner not spelling JOKER reads a court's letter clearly (best, at
    ``agree_match``; a J with no letter under it, as JOKER's first letter has): a court's
    index, which a word seen in the other corner contradicts, so neither is taken surely."""
    for corner in index.corners:
        rank, match, _ = corner.best()
        if not corner.joker and rank in COURT_LETTERS and match >= config.agree_match \
                and not word_down_side(config, corner, rank):
            return True
    return False


#: How far from square (height over width, either way) an emblem's box may be.
EMBLEM_ASPECT = 1.33


def emblem(config: RankConfig, corner: IndexRead) -> bool:
    """Whether a corner shows an emblem and no rank's index: one piece of ink as wide as
    tall (a ring, a roundel), matching no glyph well (no rank's, and no star's either: a
    court whose index is printed inside its picture may show a star-like mark in a corner),
    with nothing under it (a rank's index is its glyph over its suit, or beside it as two
    pieces). An empty corner is no emblem: such a court may show nothing there at all."""
    _, match, _ = corner.best()
    return corner.parts == 1 and corner.suit_below == -1.0 and \
        1 / EMBLEM_ASPECT <= corner.aspect <= EMBLEM_ASPECT and match < config.sure_match


def word_down_side(config: RankConfig, corner: IndexRead, court: str) -> bool:
    """Whether ``corner`` shows a J with a letter under it: JOKER written down the side."""
    return court == "J" and -1.0 < corner.suit_below < -config.least_suit


#: The letters a court's corner shows (an A's picture is one figure, no court's).
COURT_LETTERS: tuple[str, ...] = ("J", "Q", "K")


def unprinted(config: RankConfig, corner: IndexRead) -> bool:
    """Whether ``corner`` shows no index: no glyph found there, or less ink down its column
    than ``blank_mm2``, far less than any rank's glyph and suit (a speck of the paper or of
    the card's edge, taken for a small glyph). Every rank prints its index in the corner."""
    return not corner.scores or 0.0 <= corner.column_mm2 < config.blank_mm2


def starred(config: RankConfig, index: IndexRead) -> bool:
    """Whether both corners read a star best (at ``sure_match``), neither with a suit under
    it (a mark matching a suit better than a letter by ``court_suit``, as a rank's suit
    does): a joker's corner mark."""
    return all(corner.best()[0] == STAR and corner.best()[1] >= config.sure_match
               and corner.suit_below <= config.court_suit for corner in index.corners)


def unsuited_marks(config: RankConfig, index: IndexRead, pips: PipCount) -> bool:
    """Whether both corners show one round piece of ink (as wide as tall, within
    :data:`EMBLEM_ASPECT`) with no suit under it (none matching a suit better than a letter
    by ``court_suit``), read best as a number or a star but as no number the middle's ink
    makes: round a figure larger than any pip, a number's index is ruled out by the body
    (no pip layout), a court's by its letter, which the corners do not read best, and a
    rank's index has its suit under it. An emblem a joker prints in its corners (a ring,
    a roundel) matches an 8 or a star a little, whatever the deck draws."""
    for corner in index.corners:
        rank = best_rank(corner) if corner.best()[0] != STAR else STAR
        if corner.parts != 1 or corner.suit_below > config.court_suit or \
                not 1 / EMBLEM_ASPECT <= corner.aspect <= EMBLEM_ASPECT or \
                rank not in (*NUMBER_RANKS, STAR) or rank == str(pips.inked):
            return False
    return True


def star_beside_nothing(config: RankConfig, index: IndexRead) -> bool:
    """Whether one corner reads a star clearly (at ``clear_match`` and by ``clear_margin``
    over every rank) with no suit under it, and the other corner no rank or star at
    ``least_match``: a rank's index is printed in both corners, so one read clearly would
    show in the other too; a joker's star alone may stand there while the other corner's
    mark runs into the picture."""
    starred = [corner for corner in index.corners
               if corner.best()[0] == STAR and corner.best()[1] >= config.clear_match
               and corner.best()[2] >= config.clear_margin
               and corner.suit_below <= config.least_suit]
    blank = [corner for corner in index.corners if corner.best()[1] < config.least_match]
    return len(starred) == 1 and len(blank) == 1


def worded_joker(config: RankConfig, index: IndexRead, pips: PipCount) -> bool:
    """Whether a corner spells JOKER down the side (or both show their glyph over a letter,
    no suit: a word's first letters), neither corner has a suit under its
    glyph nor reads a court's letter clearly (:func:`court_lettered`), and the middle is
    one figure or a picture, no number's pips: whatever number a word's round letters look
    like (an O like an 8), no number card is so."""
    lettered = all(-1.0 < corner.suit_below < -config.least_suit for corner in index.corners)
    return (index.joker or lettered) and not pips.layout and \
        not court_lettered(config, index) and \
        all(corner.suit_below <= config.least_suit for corner in index.corners)


def best_rank(corner: IndexRead) -> str | None:
    """The rank (no star) ``corner`` matches best, or None where it reads none."""
    ranked = [(score, rank) for rank, score in corner.scores if rank != STAR]
    return max(ranked)[1] if ranked else None
