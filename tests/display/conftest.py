"""Real pygame surfaces without a screen: the dummy video driver, only display and font."""

import os

os.environ["SDL_VIDEODRIVER"] = "dummy"
os.environ["SDL_AUDIODRIVER"] = "dummy"
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")

import pygame
import pytest


@pytest.fixture(autouse=True)
def pygame_modules():
    """Initialise only pygame.display and pygame.font (never the mixer) around each test."""
    pygame.display.init()
    pygame.font.init()
    yield
    pygame.display.quit()
