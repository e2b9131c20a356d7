"""The Shakala misreading tally (bench/diagnose_shakala_read.py): coins read matched to the
coins really lying in a pit, and cached frames read back as drawn."""

import numpy as np

from bench.cached_readings import store_frame
from bench.diagnose_shakala_read import causes, frame_of


def test_a_pit_misreading_is_told_as_a_confused_a_missed_and_an_extra_coin():
    truth = [((0.0, 0.0), "N", 0), ((30.0, 0.0), "D", 1), ((60.0, 0.0), "P", 0)]
    read = [((0.5, 0.0), 18.4, "D", 0.45),   # the nickel, sized a dime
            ((60.0, 0.5), 19.0, "P", 1.0),   # the penny, right
            ((90.0, 0.0), 24.0, "Q", 0.9)]   # no coin lies there
    found = causes(read, truth)
    assert found == ["confused N->D level 0 d -2.8mm conf 0.45", "missed D level 1",
                     "extra Q d 24.0mm conf 0.90"]


def test_a_cached_frame_is_read_back_as_rendered(tmp_path):
    image = np.zeros((4, 6, 3), np.uint8)
    placed = [("A", (1.0, 2.0), "N", 0), ("A", (3.0, 2.0), "D", 1)]
    store_frame(tmp_path / "7.pkl", {"image": image, "truth": {"A": ("D", "N"), "B": ()},
                                     "placed": placed})
    got_image, held, got_placed = frame_of(7, tmp_path)
    assert np.array_equal(got_image, image)
    assert held == {"A": "DN", "B": ""}
    assert got_placed == placed
