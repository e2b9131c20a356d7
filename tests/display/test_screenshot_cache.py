"""Screenshots drawn one after another with a kept render cache (the headless demo saves one a
turn) are the very pictures drawn from scratch: the cache keeps what does not change (board,
sprites, fonts), never a stale part of an earlier screen."""

import os

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")

import numpy as np
import pygame

from companion.display.render import RenderCache
from companion.display.screen import render_surface
from companion.display.snapshot import Snapshot

SIZE = (1600, 900)


def _pixels(surface):
    return pygame.surfarray.array3d(surface)


def test_a_kept_cache_draws_each_screen_as_a_fresh_one_does():
    cache = RenderCache()
    for state in ("turn", "ask", "rejected", "turn", "game-over"):
        snapshot = Snapshot.example(state)
        kept = _pixels(render_surface(snapshot, SIZE, cache))
        fresh = _pixels(render_surface(snapshot, SIZE))
        assert np.array_equal(kept, fresh), state
