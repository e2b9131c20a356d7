"""Review a game folder end to end: replay the journal, analyse every standing move, write the
HTML page, keep the comments beside the journal and export ``game.txt`` with them.

``review`` writes ``game.txt`` itself because a user who asks for a review expects the text
with the review's comments at once; ``review.json`` keeps the comments, so a later
``companion export`` writes them again (for as long as the journal still fits them).
"""

from __future__ import annotations

import os
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from companion.record.errors import RecordError
from companion.record.replay import GameTimeline, load_timeline
from companion.review.analyse import Analyser, GameReview, review_timeline

PAGE_NAME = "review.html"


@dataclass(frozen=True)
class ReviewFiles:
    """What a review wrote, and the timeline and review it wrote them from."""

    page: Path
    text: Path
    comments: Path
    timeline: GameTimeline
    review: GameReview


def seat_colours(timeline: GameTimeline) -> dict[int, str]:
    """Each seat's colour as a CSS colour, as the side screen draws its pawns."""
    from companion.screen_view import seat_colour
    from contract.colours import colour_rgb

    colours = {}
    for seat in timeline.header.seats:
        red, green, blue = colour_rgb(seat.colour or seat_colour(timeline.game, seat.number))[:3]
        colours[seat.number] = f"#{red:02x}{green:02x}{blue:02x}"
    return colours


def write_review(folder: str | os.PathLike[str], analyse: Analyser, settings: str,
                 page: str | os.PathLike[str] | None = None,
                 progress: Callable[[int, int], None] | None = None) -> ReviewFiles:
    """Review the game in ``folder`` and write the page (``folder/review.html`` unless ``page``
    is given), ``review.json`` and ``game.txt``. Raises RecordError for a record with no move
    that replays."""
    from companion.record.export import export_game
    from companion.review.boards import board_picture
    from companion.review.comments import comments_by_event
    from companion.review.page import review_page
    from companion.review.store import save_comments

    timeline = load_timeline(folder)
    if not timeline.standing:
        raise RecordError(f"{folder} holds no move that replays, so there is nothing to review.")
    review = review_timeline(timeline, analyse, settings, progress)
    steps = {step.event.number: index for index, step in enumerate(timeline.steps)}
    hashes = {move.number: move.state_hash for move in review.moves}
    comments = save_comments(folder, comments_by_event(review), hashes, settings)
    title = f"{timeline.game.info.title}, {timeline.header.started[:16].replace('T', ' ')} UTC"
    html = review_page(review, f"Review of {title}", steps,
                       lambda index, move: board_picture(timeline, index, move),
                       seat_colours(timeline), len(timeline.steps))
    target = Path(page) if page is not None else Path(folder) / PAGE_NAME
    try:
        target.write_text(html, encoding="utf-8")
    except OSError as error:
        raise RecordError(f"cannot write the review page to {target}: {error.strerror}.") from None
    text, _ = export_game(folder)
    return ReviewFiles(target, text, comments, timeline, review)
