"""The observation contract round-trips through JSON and rejects bad input with a clear error."""

import json

import pytest

from contract.observation import (
    CardReading,
    DieReading,
    Observation,
    ObservationError,
    RegionReading,
)


def test_json_round_trip_keeps_every_field():
    observation = Observation(
        regions={
            "a1": RegionReading(coin="P", pawn=None, confidence=0.9),
            "b2": RegionReading(coin=None, pawn="red", confidence=0.75),
            "A": RegionReading(coin="S", confidence=0.5, count=3, kinds=("P", "S")),
        },
        markers_found=(0, 1, 3),
        milliseconds=12.5,
    )
    assert Observation.from_json(observation.to_json()) == observation


def test_relabel_pawns_maps_colours_to_players():
    observation = Observation.of_board({"a1": "P", "c3": None}, pawns={"red": "c3", "blue": "a1"})
    relabelled = observation.relabel_pawns({"red": "1"})
    assert relabelled.pawns() == {"1": "c3", "blue": "a1"}
    assert relabelled.coin("a1") == "P"


def test_unknown_coin_kind_is_named_in_the_error():
    with pytest.raises(ObservationError, match="'X'"):
        Observation.from_json({"regions": {"a1": {"coin": "X"}}})


def test_text_that_is_not_json_is_reported():
    with pytest.raises(ObservationError, match="not JSON"):
        Observation.from_text("{nope")


def test_tray_dice_round_trip_through_json_and_the_schema():
    dice = (DieReading(5, 0.98, "white", (540.25, 351.5)),
            DieReading(None, 0.6, "red", (562.0, 380.0)))
    observation = Observation(regions={"tray": RegionReading(dice=dice, confidence=0.9),
                                       "a1": RegionReading(coin="P")})
    data = observation.to_json()
    assert data["regions"]["tray"]["dice"][0] == {
        "value": 5, "confidence": 0.98, "colour": "white", "centre_mm": [540.25, 351.5]}
    assert data["regions"]["tray"]["dice"][1]["value"] is None
    assert "dice" not in data["regions"]["a1"]
    assert Observation.from_text(json.dumps(data)) == observation


@pytest.mark.parametrize("die", [
    {"value": 7, "confidence": 1, "colour": "white", "centre_mm": [0, 0]},
    {"value": 2, "confidence": 1, "colour": "white"},
    {"value": 0, "confidence": 1, "colour": "white", "centre_mm": [0, 0]},
])
def test_bad_dice_are_refused(die):
    with pytest.raises(ObservationError):
        Observation.from_text(json.dumps({"regions": {"tray": {"coin": None, "dice": [die]}}}))
    with pytest.raises(ObservationError):
        Observation.from_json({"regions": {"tray": {"coin": None, "dice": [die]}}})


def test_discard_cards_round_trip_through_json_and_the_schema():
    observation = Observation(regions={
        "discard-1": RegionReading(card=CardReading("10", 0.97, (120.5, 80.25))),
        "discard-2": RegionReading(card=CardReading("joker", 0.8, (300.0, 80.0))),
        "discard-3": RegionReading(card=CardReading(None, 0.2, (480.0, 80.0)), confidence=0.2),
        "discard-4": RegionReading(),
    })
    data = observation.to_json()
    assert data["regions"]["discard-1"]["card"] == {
        "rank": "10", "confidence": 0.97, "centre_mm": [120.5, 80.25]}
    assert data["regions"]["discard-3"]["card"]["rank"] is None
    assert "card" not in data["regions"]["discard-4"]
    assert Observation.from_text(json.dumps(data)) == observation


@pytest.mark.parametrize("card", [
    {"rank": "11", "confidence": 1, "centre_mm": [0, 0]},
    {"rank": "K", "confidence": 1},
    {"rank": "a", "confidence": 1, "centre_mm": [0, 0]},
])
def test_bad_cards_are_refused(card):
    with pytest.raises(ObservationError):
        Observation.from_text(json.dumps({"regions": {"discard-1": {"card": card}}}))
    with pytest.raises(ObservationError):
        Observation.from_json({"regions": {"discard-1": {"card": card}}})
