"""包牌 helpers: the entry page proposes the liable seat from the melds."""

from __future__ import annotations

import pytest

from scoring.liability import kuaizhao_liable, propose_liable, worksite_liable

from .builders import kong, pong


@pytest.mark.parametrize(
    ("melds", "expected"),
    [
        ([pong("1m", "W"), pong("2m", "W"), pong("3m", "W")], "W"),  # three mouths from W
        ([pong("1m", "W"), kong("2m"), pong("3m", "W")], "W"),  # two from W + a concealed kong
        ([kong("1m"), kong("2m"), pong("3m", "N")], "N"),  # two concealed kongs + one from N
        ([pong("1m", "W"), pong("2m", "N"), pong("3m", "W")], None),
        ([kong("1m"), kong("2m"), kong("3m")], None),  # nobody fed anything
        ([pong("1m", "W"), kong("2m", "W", upgraded=True), kong("3m", "W")], "W"),
        ([], None),
    ],
)
def test_kuaizhao_liable(melds: list, expected: str | None) -> None:
    assert kuaizhao_liable(melds) == expected


def test_it_proposes_the_robbed_konger() -> None:
    kongs = [{"seat": "E", "type": "upgraded", "from": "N", "robbed": True}]
    assert propose_liable({"seat": "S", "flags": ["robbing_kong"]}, kongs) == ("E", "robbing_kong")
    assert propose_liable({"seat": "S", "flags": ["robbing_kong"]}, []) == (None, "")


def test_it_judges_a_kuaizhao_win_on_the_sets_before_the_last() -> None:
    melds = [pong("1m", "W"), pong("2m", "W"), pong("3m", "W"), pong("4p", "N")]
    assert propose_liable({"seat": "S", "flags": ["kuaizhao"], "melds": melds}) == ("W", "kuaizhao")


def test_it_proposes_the_feeder_of_the_fourth_qingyise_mouth() -> None:
    melds = [pong("1m", "W"), pong("2m", "N"), pong("3m", "E"), pong("5m", "N")]
    assert propose_liable({"seat": "S", "flags": ["kuaizhao"], "melds": melds}) == (
        "N",
        "qingyise_fourth",
    )
    mixed = [pong("1m", "W"), pong("2m", "N"), pong("3p", "E"), pong("5m", "N")]
    assert propose_liable({"seat": "S", "flags": ["kuaizhao"], "melds": mixed}) == (None, "")


def test_a_kuaizhao_feeder_takes_precedence_over_the_fourth_mouth() -> None:
    melds = [pong("1m", "W"), pong("2m", "W"), pong("3m", "W"), pong("5m", "N")]
    assert propose_liable({"seat": "S", "flags": ["kuaizhao"], "melds": melds}) == ("W", "kuaizhao")


def test_it_proposes_the_feeder_of_the_kong_for_dagang_kaihua() -> None:
    win = {"seat": "S", "flags": ["after_kong"], "melds": [pong("1m", "E"), kong("2m", "N")]}
    assert propose_liable(win) == ("N", "dagang_kaihua")
    concealed = {"seat": "S", "flags": ["after_kong"], "melds": [kong("2m")]}
    assert propose_liable(concealed) == (None, "")


def test_it_proposes_nothing_for_an_ordinary_win() -> None:
    assert propose_liable({"seat": "S", "melds": [pong("1m", "E")]}) == (None, "")


def test_worksite_liable_is_the_feeder_of_three_sets() -> None:
    assert (
        worksite_liable([pong("1m", "W"), pong("2p", "W"), kong("3s", "W", upgraded=True)]) == "W"
    )
    assert worksite_liable([pong("1m", "W"), pong("2p", "W"), pong("3s", "N"), kong("4s")]) is None


def test_propose_fills_the_liable_seat_and_says_why() -> None:
    from scoring.liability import propose

    kuaizhao = {"seat": "S", "melds": [
        {"type": "pong", "tile": t, "from": "W"} for t in ("1m", "2m", "3m")
    ]}  # fmt: skip
    given = {"seat": "E", "liable": "N", "melds": kuaizhao["melds"]}
    record = {"wins": [kuaizhao, given, {"seat": "N"}], "kongs": []}
    out, made = propose(record, "nanjing")
    assert made == [("S", "W", "kuaizhao")] and out["wins"][0]["liable"] == "W"
    assert out["wins"][1]["liable"] == "N" and "liable" not in record["wins"][0]
    worksite, made = propose({"wins": [kuaizhao]}, "worksite")
    assert made == [("S", "W", "worksite")]
    assert propose({"kongs": []}, "nanjing") == ({"kongs": []}, [])
