"""Tiles: MPSZ parsing and formatting, names, flower sets."""

from __future__ import annotations

import pytest

from scoring import ScoringError, tiles


def test_it_parses_groups_of_digits_with_a_suit() -> None:
    assert tiles.parse("123m55p 1z") == ["1m", "2m", "3m", "5p", "5p", "1z"]


def test_it_parses_flowers_and_dragons_as_codes() -> None:
    assert tiles.parse("18f567z") == ["1f", "8f", "5z", "6z", "7z"]


@pytest.mark.parametrize("bad", ["0m", "9f", "8z", "12", "m", "1x", "1m2", "x1m"])
def test_it_refuses_an_unknown_tile(bad: str) -> None:
    with pytest.raises(ScoringError, match="unknown tile"):
        tiles.parse(bad)


def test_it_formats_in_suit_order() -> None:
    assert tiles.format(["5p", "1m", "3m", "1z", "2f", "4s"]) == "13m5p4s1z2f"


def test_it_round_trips() -> None:
    text = "123m456p789s11z"
    assert tiles.format(tiles.parse(text)) == text


def test_it_names_tiles_in_chinese() -> None:
    assert [tiles.name(c) for c in ("5p", "9m", "1s", "3z", "7z", "1f")] == [
        "五饼", "九万", "一条", "西风", "红中", "春",
    ]  # fmt: skip


def test_it_counts_complete_flower_sets() -> None:
    assert tiles.flower_sets(tiles.parse("1234f")) == 1
    assert tiles.flower_sets(tiles.parse("12345678f7777z")) == 3
    assert tiles.flower_sets(tiles.parse("123f555z")) == 0


def test_kinds_and_suits() -> None:
    assert tiles.kind_of("5p") == 13 and tiles.code_of(13) == "5p"
    assert [tiles.suit_of(tiles.kind_of(c)) for c in ("1m", "1p", "1s", "1z")] == [0, 1, 2, 3]
    assert tiles.is_wind(tiles.kind_of("4z")) and not tiles.is_wind(tiles.kind_of("9s"))


@pytest.mark.parametrize("text", ["", "1f", "55z1f", "3f76z27f57z1f65z", "12345678f555566667777z"])
def test_flower_notation_is_read_in_one_pass_as_parse_reads_it(text: str) -> None:
    assert tiles.flower_codes(text) == tiles.codes(text)


@pytest.mark.parametrize("text", ["1m", "5z1m", "9f", "4z", "f", "1f 2f", "1f2", "z5", "11"])
def test_anything_but_flower_notation_is_left_to_parse(text: str) -> None:
    """None: not flowers only, or not written the one way (parse() says what is wrong)."""
    assert tiles.flower_codes(text) is None
