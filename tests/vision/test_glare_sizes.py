"""Glare: a face brighter than the view holds keeps no false colour, and coins whose faces the
lamp clips white, which the blur's tail blooms past their edge, are not read a size up."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from contract.observation import Observation
from vision.faces import face_colours
from vision.light import PAPER
from vision.read import read_frame
from vision.synth.physical import TableFrame, random_table_scene, render_table

from .helpers import CONFIG, GEOMETRY, PROFILE

#: Confidence from which the referee takes a reading as it is.
SURE = 0.5
#: Each kind's next size up: what a coin blooming by a millimetre or two is taken for.
SIZE_UP = {"D": "P", "P": "N", "N": "Q"}


def _read(seed: int) -> tuple[TableFrame, Observation]:
    """Tuning-family table ``seed`` of the physically based renderer, and its reading."""
    frame = render_table(random_table_scene(seed, family="tuning"), seed=0)
    return frame, read_frame(CONFIG, frame.image, GEOMETRY, PROFILE)


def _single_coins(frame: TableFrame) -> dict[str, str]:
    """The squares holding one coin and no pawn, with the coin's kind."""
    return {name: truth.coins for name, truth in frame.truth.items()
            if len(truth.coins) == 1 and truth.pawn is None}


def test_a_face_cut_off_at_the_top_of_the_normalised_view_keeps_no_false_colour() -> None:
    """A penny under the lamp, brighter than the light-normalised view holds in red (about 1.3
    times the paper), though the camera clipped nothing: its red against green is cut off, and
    would make it silver; only its blue against green, which shows copper, counts."""
    image = np.full((120, 120, 3), PAPER, np.uint8)
    # BGR of a copper face 1.6 times as bright as the paper in red, cut to 255 there.
    cv2.circle(image, (60, 60), 40, (170, 235, 255), -1)
    unclipped = np.zeros_like(image)
    pawns = np.zeros(image.shape[:2], np.uint8)
    faces = face_colours(image, unclipped, pawns, np.array([[60.0, 60.0]]), np.array([40.0]))
    red_green, blue_green = faces.colours[0]
    assert np.isnan(red_green)
    assert blue_green < -0.2


@pytest.fixture(scope="module")
def glinting_nickels() -> tuple[TableFrame, Observation]:
    """Tuning table 0: a 4,100 K lamp 62 degrees up whose glint clips the faces of the
    pennies and nickels near it white, on paper exposed near the camera's top."""
    return _read(0)


def test_coins_the_lamp_clips_white_are_not_read_a_size_up(
        glinting_nickels: tuple[TableFrame, Observation]) -> None:
    """The clipped face's outline and its own circle both lie past the metal's edge by the
    blur's tail: the frame's glinting coins are measured larger alike, and read as what they
    are, not as the next size up."""
    frame, observation = glinting_nickels
    size_up = [(name, kind, observation[name].coin)
               for name, kind in _single_coins(frame).items()
               if observation[name].coin == SIZE_UP.get(kind)]
    assert not size_up


@pytest.fixture(scope="module")
def bright_pennies() -> tuple[TableFrame, Observation]:
    """Tuning table 24: a strong lamp (3.2 times the room) over shiny coins; some pennies
    shine brighter than the paper without the camera clipping them."""
    return _read(24)


def test_a_bright_penny_is_never_surely_silver(
        bright_pennies: tuple[TableFrame, Observation]) -> None:
    """No single penny is read surely as a silver coin, nor a silver coin surely a penny."""
    frame, observation = bright_pennies
    wrong_metal = [(name, kind, observation[name].coin, observation[name].confidence)
                   for name, kind in _single_coins(frame).items()
                   if observation[name].coin is not None
                   and (kind == "P") != (observation[name].coin == "P")
                   and observation[name].confidence >= SURE]
    assert not wrong_metal


def test_a_coin_glinting_white_on_paper_the_lamp_lights_bright_is_found(
        bright_pennies: tuple[TableFrame, Observation]) -> None:
    """Table 24's nickel on b3 glints white beside paper lit to within a few percent of the
    camera's white: it stands out by its clipping, though hardly by its brightness (main read
    the square as empty)."""
    frame, observation = bright_pennies
    assert frame.truth["b3"].coins == "N"
    assert observation["b3"].coin is not None
