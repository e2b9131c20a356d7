"""The game.txt format on its own: writing, reading back, and malformed texts."""

import random
import string

import pytest

from companion.record.errors import GameTextError
from companion.record.export import (
    CommentItem,
    GameText,
    MoveItem,
    format_game_text,
    parse_game_text,
)

SAMPLE = GameText(
    tags=(
        ("Game", "coin-isolation"),
        ("Variants", "diagonal"),
        ("Players", "2"),
        ("Name1", 'Ada "the quick" \\ co'),
        ("Position", '{"squares":{"a1":"P"}}'),
    ),
    items=(
        CommentItem("setup: b1 read as P, set to N"),
        MoveItem("a1-b1", 1, True),
        MoveItem("h8-g8", 1, False),
        MoveItem("b1-c1", 2, True),
        CommentItem("asked: b1-c1 or b1-c2; chose b1-c1"),
        MoveItem("pass", 2, False),
        CommentItem("player 2 has no legal move"),
        MoveItem("c1-d1-d2", 3, True),
    ),
    result="1",
)


def test_format_gives_tags_then_numbered_moves_and_comments():
    text = format_game_text(SAMPLE)
    assert text.startswith('[Game "coin-isolation"]\n[Variants "diagonal"]\n[Players "2"]\n')
    assert '[Name1 "Ada \\"the quick\\" \\\\ co"]' in text
    assert text.endswith(
        "{setup: b1 read as P, set to N} 1. a1-b1 h8-g8 2. b1-c1\n"
        "{asked: b1-c1 or b1-c2; chose b1-c1} 2... pass {player 2 has no legal move}\n"
        "3. c1-d1-d2 1\n"
    )
    assert all(len(line) <= 80 for line in text.splitlines() if not line.startswith("["))


def test_parse_reads_back_the_same_value_and_text():
    text = format_game_text(SAMPLE)
    parsed = parse_game_text(text)
    assert parsed == SAMPLE
    assert format_game_text(parsed) == text
    assert parsed.moves == ("a1-b1", "h8-g8", "b1-c1", "pass", "c1-d1-d2")
    assert parsed.tag("Name1") == 'Ada "the quick" \\ co'
    assert parsed.start_position_json() == {"squares": {"a1": "P"}}


def test_a_round_that_starts_with_the_second_seat_is_numbered_with_dots():
    game_text = GameText(tags=(), items=(MoveItem("h8-g8", 1, False), MoveItem("a1", 2, True)))
    text = format_game_text(game_text)
    assert text == "\n1... h8-g8 2. a1 *\n"
    assert parse_game_text(text) == game_text


def test_with_more_than_two_players_every_move_names_its_seat():
    game_text = GameText(
        tags=(("Players", "3"),),
        items=(
            MoveItem("c1-d1", 1, True, seat=1),
            MoveItem("a8", 1, False, seat=2),
            MoveItem("h6-g6", 1, False, seat=3),
            MoveItem("e1", 2, True, seat=1),
            CommentItem("asked: a7 or a7-a6; chose a7"),
            MoveItem("a7", 2, False, seat=2),
            MoveItem("pass", 2, False, seat=3),
            CommentItem("player 3 has no legal move"),
        ),
    )
    text = format_game_text(game_text)
    assert text == (
        '[Players "3"]\n\n'
        "1. [1] c1-d1 [2] a8 [3] h6-g6 2. [1] e1 {asked: a7 or a7-a6; chose a7}\n"
        "2... [2] a7 [3] pass {player 3 has no legal move} *\n"
    )
    assert parse_game_text(text) == game_text


def test_braces_in_a_comment_cannot_break_the_text():
    game_text = GameText(tags=(), items=(CommentItem("odd {text}\nhere"),))
    assert parse_game_text(format_game_text(game_text)).items == (CommentItem("odd (text) here"),)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ('[Game "x"\n\n1. a1 *', "line 1 is not a tag pair"),
        ("1. a1 2.", "do not end with a result"),
        ("1. a1 {unclosed *", "where a move was expected"),
        ("1. a1", "do not end with a result"),
        ("1. {comment} a1 *", "followed by a comment"),
        ("1. [2] {comment} a1 *", "seat label [2] is followed by a comment, not a move"),
        ("1. [2] [3] a1 *", "followed by another seat label"),
        ("1. [2] a1 [3]", "seat label [3] is followed by no move"),
        ("1. a1 [2] *", "do not end with a result"),
        ("", "do not end with a result"),
    ],
)
def test_malformed_texts_are_one_sentence_errors(text, expected):
    with pytest.raises(GameTextError) as caught:
        parse_game_text(text)
    assert expected in str(caught.value)


def test_missing_position_tag_is_reported():
    with pytest.raises(GameTextError, match="no \\[Position\\] tag"):
        parse_game_text("1. a1 *").start_position_json()


@pytest.mark.parametrize(("value", "expected"), [
    ('{"passes": NaN}', "NaN is not a JSON number"),
    ('{"passes": ', "the game text's [Position] tag is not JSON"),
])
def test_a_position_tag_that_is_not_strict_json_is_reported(value, expected):
    text = f'[Position "{value.replace(chr(34), chr(92) + chr(34))}"]\n\n1. a1 *'
    with pytest.raises(GameTextError) as caught:
        parse_game_text(text).start_position_json()
    assert expected in str(caught.value)


@pytest.mark.parametrize("seed", range(20))
def test_random_game_texts_round_trip(seed):
    rng = random.Random(seed)
    labelled = seed % 2 == 0  # games of three players, with and without seat labels
    letters = "abcdefgh"
    items = []
    seat, round_number, previous = 0, 1, None
    for _ in range(rng.randint(0, 30)):
        if rng.random() < 0.25:
            words = ["".join(rng.choices(string.printable, k=rng.randint(1, 8))) for _ in range(3)]
            items.append(CommentItem(" ".join(words)))
            continue
        seat = seat % 3 + 1
        if previous is not None and seat <= previous:
            round_number += 1
        path = [f"{rng.choice(letters)}{rng.randint(1, 8)}" for _ in range(rng.randint(1, 4))]
        items.append(MoveItem("-".join(path), round_number, seat == 1, seat if labelled else None))
        previous = seat
    tags = tuple((f"Tag{i}", "".join(rng.choices(string.printable, k=12))) for i in range(3))
    game_text = GameText(tags=tags, items=tuple(items), result=rng.choice(["*", "1", "2=3"]))
    text = format_game_text(game_text)
    parsed = parse_game_text(text)
    assert format_game_text(parsed) == text
    assert parsed.moves == game_text.moves
    assert parsed.result == game_text.result
    assert [name for name, _ in parsed.tags] == [name for name, _ in tags]
    assert [value for _, value in parsed.tags] == [" ".join(v.splitlines()) for _, v in tags]
