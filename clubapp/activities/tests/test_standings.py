"""Standings: points, Buchholz, head to head; 麻将 placings 4/2/1/0 (issue 23.3)."""

from __future__ import annotations

from fractions import Fraction

import pytest

from clubapp.activities.standings import (
    BY_PLACINGS,
    Game,
    pair_standings,
    table_placings,
    table_standings,
)


def test_a_win_is_two_a_draw_one_a_bye_a_win() -> None:
    lines = pair_standings(
        ["a", "b", "c"],
        [Game("a", "b", 1, 0), Game("c", None), Game("b", "c", 1, 1)],
    )
    by = {line.player: line for line in lines}
    assert (by["a"].points, by["b"].points, by["c"].points) == (2, 1, 3)
    assert (by["c"].games, by["c"].draws, by["c"].byes) == (1, 1, 1)
    assert (by["a"].wins, by["b"].losses) == (1, 1)
    assert [line.player for line in lines] == ["c", "a", "b"]
    assert [line.rank for line in lines] == [1, 2, 3]


def test_level_points_are_broken_by_buchholz_then_head_to_head_then_entry() -> None:
    # round 1: a beats b, c beats d; round 2: d beats a, b beats c
    games = [Game("a", "b", 1, 0), Game("c", "d", 1, 0), Game("d", "a", 1, 0), Game("b", "c", 1, 0)]
    lines = pair_standings(["a", "b", "c", "d"], games)
    by = {line.player: line for line in lines}
    assert {p: by[p].points for p in "abcd"} == {"a": 2, "b": 2, "c": 2, "d": 2}
    # everyone's opponents scored 4: Buchholz level; head to head among all four is
    # their points: level again; the order of entry decides
    assert {by[p].buchholz for p in "abcd"} == {4}
    assert [line.player for line in lines] == ["a", "b", "c", "d"]


def test_head_to_head_decides_between_two_level_on_buchholz() -> None:
    # a cycle: x beat y, y beat z, z beat x: level on everything, the entry decides
    games = [Game("y", "x", 0, 1), Game("z", "y", 0, 1), Game("x", "z", 0, 1)]
    lines = pair_standings(["y", "x", "z"], games)
    by = {line.player: line for line in lines}
    assert by["x"].points == by["y"].points == by["z"].points == 2
    assert by["x"].head_to_head == by["y"].head_to_head == by["z"].head_to_head == 2
    assert [line.player for line in lines] == ["y", "x", "z"]
    # three rounds of six: a and d level on points and Buchholz; d beat a
    rounds = [("a", "f", 1, 0), ("b", "e", 1, 0), ("c", "d", 1, 0), ("e", "a", 1, 0)]
    rounds += [("f", "d", 1, 0), ("b", "c", 1, 0), ("a", "d", 0, 1), ("e", "c", 1, 1)]
    rounds += [("f", "b", 1, 0)]
    lines = pair_standings(list("abcdef"), [Game(*game) for game in rounds])
    by = {line.player: line for line in lines}
    assert (by["a"].points, by["a"].buchholz) == (by["d"].points, by["d"].buchholz) == (2, 9)
    assert (by["d"].head_to_head, by["a"].head_to_head) == (2, 0)
    assert [line.player for line in lines][-2:] == ["d", "a"]
    # b and f level on points: Buchholz decides (10 against 8)
    assert [line.player for line in lines][:2] == ["b", "f"]


def test_table_placings_share_ties() -> None:
    assert table_placings({"a": 30, "b": 10, "c": -10, "d": -30}) == {
        "a": 4,
        "b": 2,
        "c": 1,
        "d": 0,
    }
    shared = table_placings({"a": 20, "b": 20, "c": -20, "d": -20})
    assert shared == {"a": 3, "b": 3, "c": Fraction(1, 2), "d": Fraction(1, 2)}
    assert table_placings({"a": 0, "b": 0, "c": 0, "d": 0}) == dict.fromkeys("abcd", Fraction(7, 4))
    with pytest.raises(ValueError):
        table_placings({"a": 1})


def test_mahjong_standings_by_points_then_placings_or_the_other_way() -> None:
    players = ["a", "b", "c", "d", "e", "f", "g", "h"]
    round1 = [{"a": 50, "b": 10, "c": -20, "d": -40}, {"e": 90, "f": -10, "g": -30, "h": -50}]
    round2 = [{"a": -60, "e": 30, "c": 20, "g": 10}, {"b": 5, "f": 5, "d": -5, "h": -5}]
    by_points = table_standings(players, round1 + round2)
    assert [line.player for line in by_points][:2] == ["e", "b"]
    lines = {line.player: line for line in by_points}
    assert lines["e"].points == 120 and lines["e"].placings == 8 and lines["e"].tables == 2
    assert lines["b"].placings == 2 + 3  # second, then level first
    by_placings = table_standings(players, round1 + round2, rank_by=BY_PLACINGS)
    placed = {line.player: line for line in by_placings}
    assert placed["e"].rank == 1
    # a: 4 + 0 = 4 placings but -10 points; c: 1 + 2 = 3
    assert placed["a"].rank < placed["c"].rank
    with pytest.raises(ValueError):
        table_standings(players, [], rank_by="luck")
