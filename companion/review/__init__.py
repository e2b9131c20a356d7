"""The post-game review: every standing move of a recorded game analysed by the search engine
(:mod:`companion.analysis`), the biggest swings named, written as an offline HTML page and as
comments in the exported ``game.txt``.

:mod:`~companion.review.analyse` replays and searches, :mod:`~companion.review.comments` words
what it found (pure), :mod:`~companion.review.store` keeps it beside the journal for the export,
:mod:`~companion.review.page` writes the HTML page with :mod:`~companion.review.boards`' pictures
and :mod:`~companion.review.plot`'s chart.
"""
