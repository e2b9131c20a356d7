"""A card's rank and the reader's confidence in it, from what :mod:`vision.cards` sees on its face:
the middle (pips in a number card's columns, or a picture) and both corners' index.

Each rule says what holds for any French-suited deck and is sure only where two readings that
fail in different ways agree; anything else is unsure, and the panel asks:

* **Number cards.** Pips standing in a number card's columns name the rank, but for pips of the
  middle column a lamp's reflection may wash away: the index must tell the count from those
  rivals, or, where no corner can be read as a rival at all, the count stands alone, sure only
  where the index backs it, naming the count nearly as well as any rank (else the panel
  confirms it). Where the
  pips are hidden or broken, both corners must show the same number clearly with a suit under
  it, and no more pips than it names may be counted; a figure as large as a court's is then
  allowed only where the middle's ink makes that many pips (large pips blurred together).
  Both corners reading that number best, each over its suit, but not clearly (an unfamiliar
  typeface, a blurred glyph) name it too, and the panel confirms it; where one of the
  middle's counts finds that many pips, a rival glyph close behind it in a corner does not
  bar it (two witnesses agree: the pips and both corners).
* **Aces.** One figure centred, and an A with its suit under it, read in both corners; a
  figure as large as a court's (a large-pipped deck's ace) with a clear A over its suit in
  both corners is an ace the panel confirms.
* **Courts.** A picture holding a figure larger than any pip, and a letter that stands clear of
  the other letters a picture card can show, with its suit under it in one corner, or the same
  letter read clearly in both corners. The body shows only that the card is a court, so its
  letter rests on the glyph alone: sure only where each corner reads it best of every rank
  (an unfamiliar glyph is printed the same in both, so two corners agree only as far as each
  reads its glyph well); where the other corner names another letter or none, the court is
  read, but the panel confirms it, as it confirms a court whose letter a stem tells from a
  number it resembles (:func:`vision.card_letters.outline_court`: a German B read as an 8).
* **Jokers.** JOKER written down the side in both corners, or a star in both corners with no
  suit under it and no pip layout; a round emblem in each corner, round a figure larger than
  any pip, or JOKER in one corner, is read a joker that the panel confirms (an emblem is a
  mark no rank's glyph matches, as an unfamiliar court letter is too), and so is a star in
  both corners with nothing under it that another rank matches as well (a star in a ring
  matches a Q as well as a star; a Q's index has its suit under it).

Where those readings leave the card unsure, the card's structure decides what it can be
(:func:`_by_structure`), whatever the deck draws: a suit under the index in both corners rules
out a joker, a picture with more than one figure an ace, and no pip layout a number card, so
only a court is left, told by the letter of J, Q and K that both corners read; a star in both
corners with no suit under either, round a picture, is a joker, though less surely (the panel
confirms), whatever pip layout its picture's parts make, and so is a picture with no mark at
all in either corner (every rank prints one; a speck of the paper or of the card's edge, with
far less ink down the corner than any rank's glyph and suit, is no mark).
Corners that each read a different rank or mark clearly disagree: the reading is then unsure,
whatever else agrees.
"""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING

from vision.card_joker_marks import (
    COURT_LETTERS,
    NUMBER_RANKS,
    STAR,
    best_rank,
    court_lettered,
    emblem,
    star_beside_nothing,
    star_tied,
    starred,
    unprinted,
    unsuited_marks,
    word_down_side,
    worded_joker,
)
from vision.card_letters import outline_court
from vision.card_pips import PipCount, rivals
from vision.card_ranks import CentreRead, IndexRead, RankConfig

if TYPE_CHECKING:
    from vision.cards import CardConfig

#: What a corner's letter can be on a card with a picture and no pip layout.
PICTURE_LETTERS: tuple[str, ...] = ("J", "Q", "K", "A")
#: A verdict: the rank (None when unread) and the confidence.
Verdict = tuple[str | None, float]


def counted_rank(centre: CentreRead, pips: PipCount | None) -> str | None:
    """The rank the middle shows by its pips, or None: the pips' count where they stand in
    a pip layout with nothing else as large beside them (an ace's one figure, centred);
    without ``pips``, the plain count of :func:`vision.card_ranks.read_centre`."""
    def rank_of(count: int) -> str | None:
        return "A" if count == 1 else str(count) if 2 <= count <= 10 else None

    if pips is None:
        return rank_of(centre.pips)
    return rank_of(pips.count) if pips.layout and not pips.stray else None


def judge(config: CardConfig, centre: CentreRead, index: IndexRead,
          pips: PipCount | None = None) -> Verdict:
    """The rank and its confidence from the middle (``centre`` and, where counted,
    ``pips``) and the corner index (both corners'): sure only where two readings agree,
    by the card's structure where they leave it unsure, and never sure where the two
    corners clearly disagree."""
    rank, confidence = _by_readings(config, centre, index, pips)
    if confidence <= config.alone_confidence:
        rank, confidence = _by_structure(config, centre, index, pips) or (rank, confidence)
    # A stem in both corners round a court's body (no pip layout): no number, whatever matched.
    court = outline_court(config.rank, centre, index, pips)
    if court is not None and (confidence <= config.shape_confidence or rank in NUMBER_RANKS):
        rank, confidence = court, config.shape_confidence
    if _corners_disagree(config.rank, index):
        return rank, min(confidence, config.alone_confidence)
    return rank, confidence


def _by_readings(config: CardConfig, centre: CentreRead, index: IndexRead,
                 pips: PipCount | None) -> Verdict:
    """The rank and its confidence where the pips, the picture and the index agree."""
    star = dict(index.scores).get(STAR, -1.0)
    ranks = replace(index, scores=tuple(item for item in index.scores if item[0] != STAR))
    counted = counted_rank(centre, pips)
    verdict = _joker(config, centre, ranks, star, counted, pips)
    if verdict is not None:
        return verdict
    if counted is not None and counted in NUMBER_RANKS and pips is not None:
        return _counted_number(config, ranks, counted, pips)
    if counted is not None:
        return _counted(config, ranks, counted)
    verdict = _number_by_index(config, centre, ranks, pips)
    if verdict is not None:
        return verdict
    court, court_match, _ = _best_letter(ranks)
    if centre.picture and court is not None and court_match >= config.rank.least_match:
        return _court(config, centre, ranks, court, pips)
    rank, match, _ = ranks.best()
    if rank is not None and match >= config.rank.least_match:
        return rank, config.unread_confidence
    return None, config.unread_confidence


def _joker(config: CardConfig, centre: CentreRead, index: IndexRead, star: float,
           counted: str | None, pips: PipCount | None) -> Verdict | None:
    """A sure joker, or None: JOKER down the side over a picture (a word has a letter under
    its J, a court's letter its suit); a star in both corners, clearly no rank's glyph and
    with no suit under it, and no pip layout (a rank's index always has its suit under it;
    a mark in a court's picture that looks like a star is seldom seen so in both corners);
    or, round a figure larger than any pip and no pip layout, an emblem (:func:`emblem`)
    in each corner (a rank always prints its index)."""
    rank_config = config.rank
    rank, match, _ = index.best()
    # A digit-like glyph (a blurred J looks like a 3 or a 7) vetoes a word seen in only
    # one corner; not one seen in both.
    worded = len(index.corners) >= 2 and all(corner.joker for corner in index.corners)
    number_index = rank in NUMBER_RANKS and match >= rank_config.sure_match and not worded
    unsuited = index.suit_below <= rank_config.least_suit
    sure = config.agree_confidence * 0.95
    if centre.picture and index.joker and not number_index and unsuited and \
            not court_lettered(rank_config, index):
        return "joker", sure if worded else config.shape_confidence
    if counted not in (None, "A") or not unsuited or len(index.corners) < 2:
        return None
    # A star need stand clear of the ranks' glyphs (a Q in a ring looks like one) only
    # beside a figure a court's picture could hold.
    clear = star >= match + rank_config.sure_margin or \
        centre.largest_mm2 < rank_config.court_figure_mm2
    if star >= rank_config.sure_match and clear and \
            all(corner.best()[0] == STAR for corner in index.corners):
        return "joker", sure
    if star >= rank_config.sure_match and clear and counted is None and \
            all(star_tied(rank_config, corner) for corner in index.corners):
        return "joker", config.shape_confidence
    if counted is None and not index.joker and \
            _largest(centre, pips) >= rank_config.court_figure_mm2 and \
            all(emblem(rank_config, corner) for corner in index.corners):
        return "joker", config.shape_confidence
    return None


def _counted_number(config: CardConfig, index: IndexRead, counted: str, pips: PipCount
                    ) -> Verdict:
    """Pips standing in a number card's columns name the rank but for pips of the middle
    column washed away: the index must match the count and tell it clearly from those
    rivals, or read as none of them and as no other number clearly (at ``clear_match``)
    where both corners show their suit: a corner legible enough to show its suit was not
    washed past reading, so a rival's glyph would have shown there (a reflection across the
    whole card washes pips and corners alike, and then the panel asks).
    Sure only where the index names the count nearly as well as any rank (by
    ``backing_slack``, as an ace's A must): a glyph read better as another rank (a blurred 5
    as a 6) does not back the count, which is then read but confirmed on the panel."""
    rank_config = config.rank
    scores = dict(index.scores)
    backing = scores.get(counted, -1.0)
    possible = () if pips.middle_clear else rivals(counted, pips.columns)
    rival = max((scores.get(other, -1.0) for other in possible), default=-1.0)
    # The index is a second witness only where it names the count nearly as well as any
    # rank; a glyph read better as another rank is one reading against the pips, not two.
    named = backing >= index.best()[1] - rank_config.backing_slack
    if backing >= rank_config.least_match and backing >= rival + rank_config.rival_margin:
        return counted, config.agree_confidence if named else config.shape_confidence
    backed = config.agree_confidence * 0.9 if backing >= rank_config.least_match and named \
        else config.shape_confidence
    if not possible and not _index_disagrees(rank_config, index, counted):
        return counted, backed
    other = max((score for rank, score in scores.items()
                 if rank in NUMBER_RANKS and rank != counted), default=-1.0)
    legible = len(index.corners) >= 2 and all(
        corner.suit_below > rank_config.least_suit for corner in index.corners)
    if legible and rival < rank_config.least_match - rank_config.rival_margin and \
            other < rank_config.clear_match:
        return counted, backed
    return counted, config.alone_confidence


def _index_disagrees(config: RankConfig, index: IndexRead, rank: str) -> bool:
    """Whether the corners read another rank than ``rank``: the same other rank best in
    both (each at ``least_match``), or another number clearly in either (at ``clear_match``
    and by ``sure_margin``)."""
    read = [corner.best() for corner in index.corners or (index,)]
    ranks = {corner_rank for corner_rank, match, _ in read
             if match >= config.least_match}
    both = len(read) >= 2 and len(ranks) == 1 and all(
        match >= config.least_match for _, match, _ in read) and rank not in ranks
    clearly = any(corner_rank != rank and corner_rank in NUMBER_RANKS
                  and match >= config.clear_match and margin >= config.sure_margin
                  for corner_rank, match, margin in read)
    return both or clearly


def _counted(config: CardConfig, index: IndexRead, counted: str) -> Verdict:
    """An ace's one figure (or a count without its columns): the index must back it, that
    rank matching well and nearly as well as any other (a 6 and a 9, an 8 and a 3 look
    alike when blurred); an ace's A has its suit under it (a joker's star or a lone 1 of a
    10 has none) or, where no mark is found there, is matched clearly far better than any
    other."""
    rank_config = config.rank
    _, match, margin = index.best()
    backing = dict(index.scores).get(counted, -1.0)
    marked = counted != "A" or _suit_under(rank_config, index, match, margin)
    if backing >= rank_config.sure_match and marked and \
            backing >= match - rank_config.backing_slack:
        if counted == "A" and not _in_each(index, counted, rank_config.least_match):
            return counted, config.shape_confidence
        return counted, config.agree_confidence
    return counted, config.alone_confidence


def _in_each(index: IndexRead, rank: str, least: float) -> bool:
    """Whether every corner matches ``rank`` at ``least`` at all: a card prints its index in
    both corners, and one corner alone is a single reading (an unfamiliar glyph, a blot)."""
    return all(dict(corner.scores).get(rank, -1.0) >= least
               for corner in index.corners or (index,))


def _suit_under(config: RankConfig, index: IndexRead, match: float, margin: float) -> bool:
    """Whether the index's glyph has a suit under it or, where nothing is found there (run
    into a picture's frame), is matched clearly far better than any other."""
    return index.suit_below > config.least_suit or (
        index.suit_below == -1.0 and match >= config.clear_match
        and margin >= config.clear_margin)


def _number_by_index(config: CardConfig, centre: CentreRead, index: IndexRead,
                     pips: PipCount | None) -> Verdict | None:
    """A number card or an ace whose pips are hidden or broken (a reflection across them,
    a stray blot): sure where both corners show the same number (or A) clearly (matched at
    ``clear_match`` and better than any other rank, or at ``sure_match`` and by
    ``clear_margin``; or at ``sure_match`` and by ``sure_margin`` where one of the middle's
    counts finds that many pips), each with its suit under it; confirmed on the panel where
    both read it best (at ``least_match``, by ``sure_margin``, or by less where one of the
    middle's counts finds that many pips) but not so clearly, as an unfamiliar typeface's
    glyph is printed the same in both corners; and the middle holds no
    picture's figure (but pips blurred together, making that many pips' ink of one colour:
    :attr:`vision.card_pips.PipCount.inked`) and no more pips than that number (an ace's
    broken pip stands in no number's layout)."""
    rank_config = config.rank
    if pips is None or len(index.corners) < 2:
        return None
    read = [corner.best() for corner in index.corners]
    rank = read[0][0]
    if rank not in (*NUMBER_RANKS, "A"):
        return None
    # An ace's pip a reflection breaks may leave a few pieces, but no number's layout.
    count = 1 if rank == "A" else int(rank)
    # A figure as large as a court's is a picture, unless the middle's ink makes that many
    # pips of one colour, some blurred together (a large-pipped 9's).
    if centre.largest_mm2 >= rank_config.court_figure_mm2 and pips.inked != count:
        return None
    if (pips.layout and pips.count > 1) if rank == "A" else pips.count > count:
        return None
    # Where one of the middle's two counts finds that many pips, a corner need only read
    # the number surely, as a count and the corners that agree fail in different ways.
    counted_alike = count in (centre.pips, pips.count)
    sure = True
    for (corner_rank, match, margin), corner in zip(read, index.corners, strict=True):
        clear = (match >= rank_config.clear_match and margin >= rank_config.sure_margin) or \
            (match >= rank_config.sure_match and margin >= rank_config.clear_margin) or \
            (counted_alike and match >= rank_config.sure_match
             and margin >= rank_config.sure_margin)
        if corner_rank != rank or match < rank_config.least_match or \
                (margin < rank_config.sure_margin and not counted_alike) or \
                corner.suit_below <= rank_config.least_suit:
            return None
        sure &= clear
    return rank, config.agree_confidence * 0.9 if sure else config.shape_confidence


def _court(config: CardConfig, centre: CentreRead, index: IndexRead, court: str,
           pips: PipCount | None) -> Verdict:
    """A picture and no pip layout leave only a court or an ace: sure only where the middle
    holds a figure larger than any pip (blobs of uneven sizes alone, decorated pips or a pip
    washed half away, make no court) and the letter stands clear of the other three,
    whatever digit a blurred J resembles (a 3), with its suit under it in one corner or
    read clearly in both."""
    rank_config = config.rank
    _, court_match, court_margin = _best_letter(index)
    _, match, margin = index.best()
    figure = _largest(centre, pips) >= rank_config.court_figure_mm2
    clear = match >= rank_config.clear_match and margin >= rank_config.clear_margin
    lettered = _suited_letter(rank_config, index, court, clear) or \
        _letter_in_both(rank_config, index, court)
    if court_margin >= rank_config.sure_margin and court_match >= rank_config.sure_match \
            and lettered and figure and not index.joker:
        if _other_letter(rank_config, index, court) or \
                not _letter_in_each(rank_config, index, court):
            return court, config.shape_confidence
        return court, config.agree_confidence * 0.95
    return court, config.alone_confidence


def _other_letter(config: RankConfig, index: IndexRead, court: str) -> bool:
    """Whether a corner reads another picture letter than ``court`` best of those letters
    (at ``least_match``): the body shows only that the card is a court, so its letter is the
    glyph's alone, and a card prints the same index in both corners; where they name two
    letters, one is misread (a blurred B is as near a K as a J), and the panel asks."""
    for corner in index.corners:
        letter, match, _ = _best_letter(corner)
        if letter is not None and letter != court and match >= config.least_match:
            return True
    return False


def _letter_in_each(config: RankConfig, index: IndexRead, court: str) -> bool:
    """Whether every corner reads ``court`` best of every rank (a star aside: a court's
    picture may hold a star-like mark), at ``sure_match``: the body shows only that the card
    is a court, so its letter rests on the glyph alone; one corner's glyph is one reading,
    not two, and a glyph a number matches as well is no letter read."""
    for corner in index.corners or (index,):
        letter, match, _ = _best_letter(corner)
        if letter != court or match < config.sure_match or best_rank(corner) != court:
            return False
    return True


def _largest(centre: CentreRead, pips: PipCount | None) -> float:
    """The largest figure (mm2) in the middle, as the picture's reading and the pips' count
    (over a wider part of the face) each measured it."""
    return max(centre.largest_mm2, 0.0 if pips is None else pips.largest_mm2)


def _best_letter(index: IndexRead) -> tuple[str | None, float, float]:
    """The court letter the index matches best among :data:`PICTURE_LETTERS` (None where
    an A matches best), its match, and its margin over the next of those letters."""
    scores = dict(index.scores)
    ranked = sorted(PICTURE_LETTERS, key=lambda letter: -scores.get(letter, -1.0))
    best, second = (scores.get(letter, -1.0) for letter in ranked[:2])
    return (None if ranked[0] == "A" else ranked[0]), best, best - second


def _suited_letter(config: RankConfig, index: IndexRead, court: str, clear: bool) -> bool:
    """Whether a corner shows the letter ``court`` (best of :data:`PICTURE_LETTERS` there)
    with a suit under it (or, with no mark found under it, matched ``clear`` ly), and, for
    a J, no corner shows it with a letter under it: JOKER written down the side, whose J
    and the other corner's suit-like mark must not make a jack."""
    suited = worded = False
    for corner in index.corners or (index,):
        letter, letter_match, _ = _best_letter(corner)
        if letter != court or letter_match < config.least_match:
            continue
        suited |= corner.suit_below > config.least_suit or (corner.suit_below == -1.0 and clear)
        worded |= word_down_side(config, corner, court)
    return suited and not worded


def _letter_in_both(config: RankConfig, index: IndexRead, court: str) -> bool:
    """Whether both corners show the letter ``court`` clearly (their best match, a star's
    included, at ``sure_match`` and by ``clear_margin`` over the other picture letters),
    whatever the mark under it: a card is
    printed point-symmetric, and a suit run into the picture's frame may read as nothing
    or as junk; a J over a letter is still JOKER's."""
    if len(index.corners) < 2:
        return False
    for corner in index.corners:
        letter, letter_match, letter_margin = _best_letter(corner)
        if letter != court or corner.best()[0] != court or \
                letter_match < config.sure_match or letter_margin < config.clear_margin or \
                word_down_side(config, corner, court):
            return False
    return True


def _by_structure(config: CardConfig, centre: CentreRead, index: IndexRead,
                  pips: PipCount | None) -> Verdict | None:
    """A court or a joker told by what every deck's structure allows, or None: a suit under
    the index in both corners and no JOKER word leave no joker; more than one figure in the
    middle no ace; no pip layout no number card: a court, whose letter is the one of J, Q, K
    both corners read best and clearly before the other two, unless both read best an A (an
    ace whose pip is drawn as a picture: read as one, confirmed on the panel, where clear)
    or the same number the middle's ink makes (a large-pipped card's pips blurred together;
    any other number the body rules out: a German D reads as a 9), and sure only where that
    letter is each corner's best of every rank (:func:`_letter_in_each`), else confirmed on
    the panel; where no suit shows under the index, the letter both corners read best of
    every rank (:func:`_letter_best_in_both`) names the court, confirmed on the panel; a
    suited A best in both corners (:func:`_ace_in_both`) is an ace, whatever its one figure's
    size (a large-pipped deck's), confirmed on the panel. A
    star best in both corners, neither with a suit under it, round a figure larger than any
    pip, is a joker whatever pip layout the picture's parts make (two eyes stand as a 2's
    pips do), confirmed on the panel; so is such a figure, with no pip layout, with no
    mark at all in either corner (every rank prints its index there: a dondorf joker), with
    an emblem no suit stands under in both corners (:func:`unsuited_marks`), or with a
    clear star in one corner and no rank legible in the other
    (:func:`star_beside_nothing`)."""
    rank_config = config.rank
    if pips is None or len(index.corners) != 2 or \
            _largest(centre, pips) < rank_config.court_figure_mm2:
        return None
    if starred(rank_config, index):
        # A number's index has its suit under it in both corners: two unsuited stars round
        # a figure larger than any pip are a joker's, whatever pip layout its picture's
        # parts make (two eyes stand as a 2's pips do).
        return "joker", config.shape_confidence
    if pips.layout and not pips.stray:
        return None
    if worded_joker(rank_config, index, pips) or \
            all(unprinted(rank_config, corner) for corner in index.corners) or \
            unsuited_marks(rank_config, index, pips) or \
            star_beside_nothing(rank_config, index):
        return "joker", config.shape_confidence
    suited = all(corner.suit_below > rank_config.court_suit and not corner.joker
                 for corner in index.corners)
    numbers = {best_rank(corner) for corner in index.corners}
    if suited and numbers == {"A"}:
        # An ace's pip may be drawn as a picture (a decorated ace of spades) or as one
        # figure as large as a court's (a large-pipped deck's): its suited A read in both
        # corners is no court's, and the panel confirms the ace.
        return ("A", config.shape_confidence) if _ace_in_both(rank_config, index) else None
    if not suited or not (pips.stray or pips.count >= 2):
        letter = _letter_best_in_both(rank_config, index)
        return None if letter is None else (letter, config.shape_confidence)
    letters = {_court_letter(rank_config, corner) for corner in index.corners}
    letter = letters.pop() if len(letters) == 1 else None
    if len(numbers) == 1 and numbers <= {str(pips.inked)}:
        return None
    if letter is None:
        letter = _letter_first_in_both(rank_config, index)
        return None if letter is None else (letter, config.shape_confidence)
    if not _letter_in_each(rank_config, index, letter):
        return letter, config.shape_confidence
    return letter, config.agree_confidence * 0.9


def _letter_first_in_both(config: RankConfig, index: IndexRead) -> str | None:
    """The letter of J, Q, K both corners match better than the other two, each at
    ``least_match``, or None where they name two, tie, or match it hardly at all: round a
    court's figure, with a suit under the index in both corners (no joker) and no pip layout
    (no number), only those three are left, and a glyph blurred or drawn in another typeface
    (a German B, near an 8) still resembles its own letter most of the three; two corners
    agreeing name it, though not surely."""
    letters = set()
    for corner in index.corners:
        scores = dict(corner.scores)
        ranked = sorted(COURT_LETTERS, key=lambda letter: -scores.get(letter, -1.0))
        best, second = (scores.get(letter, -1.0) for letter in ranked[:2])
        if best <= second or best < config.least_match:
            return None
        letters.add(ranked[0])
    return letters.pop() if len(letters) == 1 else None


def _ace_in_both(config: RankConfig, index: IndexRead) -> bool:
    """Whether both corners read an A best of every mark (at ``sure_match`` and by
    ``sure_margin``)."""
    return all(corner.best()[0] == "A" and corner.best()[1] >= config.sure_match
               and corner.best()[2] >= config.sure_margin for corner in index.corners)


def _letter_best_in_both(config: RankConfig, index: IndexRead) -> str | None:
    """The letter of J, Q, K both corners read best of every rank (at ``sure_match``, by
    ``sure_margin`` over the other picture letters), neither over a letter (JOKER's J), or
    None. Round a court's figure with no pip layout, where no suit shows under the index
    (run into the picture's frame, washed), it names the court, though not surely."""
    letters = set()
    for corner in index.corners:
        letter, match, margin = _best_letter(corner)
        if letter is None or corner.best()[0] != letter or corner.joker or \
                match < config.sure_match or margin < config.sure_margin or \
                word_down_side(config, corner, letter):
            return None
        letters.add(letter)
    return letters.pop() if len(letters) == 1 else None


def _court_letter(config: RankConfig, corner: IndexRead) -> str | None:
    """The letter of :data:`COURT_LETTERS` ``corner`` matches best, where at ``least_match``
    and by ``sure_margin`` over the other two; else None."""
    scores = dict(corner.scores)
    ranked = sorted(COURT_LETTERS, key=lambda letter: -scores.get(letter, -1.0))
    best, second = (scores.get(letter, -1.0) for letter in ranked[:2])
    return ranked[0] if best >= config.least_match and best - second >= config.sure_margin \
        else None


def _corners_disagree(config: RankConfig, index: IndexRead) -> bool:
    """Whether the two corners each read a different rank or mark clearly, each at
    ``agree_match`` and by ``sure_margin`` over its next: a card is printed point-symmetric,
    so one of the two is misread. A star with no suit under it and a J over a letter (JOKER
    down the side) are a joker's marks; a star over a suit is a blurred glyph, no claim."""
    if len(index.corners) != 2:
        return False
    claims = set()
    for corner in index.corners:
        rank, match, margin = corner.best()
        if rank is None or match < config.agree_match or margin < config.sure_margin:
            continue
        if rank == STAR:
            if corner.suit_below > config.least_suit:
                continue
            rank = "joker"
        elif word_down_side(config, corner, rank):
            rank = "joker"
        claims.add(rank)
    return len(claims) == 2
