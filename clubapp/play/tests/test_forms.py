"""The entry page's forms build the hand record (HAND_RECORD.md)."""

from __future__ import annotations

import pytest

from clubapp.play.forms import HandEntry, digest, parse_melds
from clubapp.play.tests.factories import hand_data, shipped

pytestmark = pytest.mark.django_db


def entry(data, ruleset="nanjing", **kwargs):
    return HandEntry(data, ruleset=shipped(ruleset).as_ruleset(), **kwargs)


def test_melds_parse_into_the_contract():
    assert parse_melds("P5sW k7m U3pS") == [
        {"type": "pong", "tile": "5s", "from": "W", "upgraded": False},
        {"type": "kong", "tile": "7m", "from": None, "upgraded": False},
        {"type": "kong", "tile": "3p", "from": "S", "upgraded": True},
    ]


def test_it_builds_a_quick_record():
    form = entry(hand_data(winners=["S"], discarder="E", **{"S-hard": "4", "S-soft": "0"}))
    assert form.is_valid()
    assert form.record() == {
        "wins": [
            {"seat": "S", "discarder": "E", "hard_flowers": 4, "soft_flowers": 0, "features": []}
        ],
        "kongs": [],
        "penalties": [],
    }


def test_the_tiles_of_others_pongs_go_into_the_record():
    data = hand_data(
        winners=["S"],
        discarder="E",
        **{"S-concealed": "123m456m789m46p55s", "S-others_ponged": "5p 7s"},
    )
    form = entry(data)
    assert form.is_valid()
    win = form.record()["wins"][0]
    assert win["others_ponged"] == "5p7s" and win["winning_tile"] == "5s"
    assert (
        "others_ponged" not in entry(hand_data(winners=["S"]), "jiangsu-worksite").seats[0].fields
    )


def test_a_worksite_record_names_false_wins_and_dead_hands():
    data = hand_data(winners=["S"], discarder="E", false_wins=["N"], **{"S-hard": "6"})
    form = entry(data, "jiangsu-worksite")
    assert form.is_valid()
    record = form.record()
    assert record["false_wins"] == [{"seat": "N"}] and record["dead_hands"] == []


def test_kong_and_penalty_rows_keep_their_order_and_skip_the_empty():
    data = hand_data(
        **{
            "kong-2-seat": "W",
            "kong-2-kind": "flower",
            "kong-2-fed_by": "E",
            "penalty-1-kind": "follow",
            "penalty-1-seat": "N",
        }
    )
    form = entry(data)
    assert form.is_valid()
    assert form.record()["kongs"] == [{"seat": "W", "type": "flower", "from": None}]
    assert form.record()["penalties"] == [{"type": "follow", "seat": "N"}]


def test_a_confirm_must_carry_the_digest_of_the_same_record():
    data = hand_data(winners=["S"], discarder="E", **{"S-hard": "4"})
    previewed = entry(data)
    assert previewed.is_valid()
    book = {**data, "key": "8d3a6f4e-4b1a-4d2c-9a51-0c2b7f1e2d3a", "after": "0"}
    assert entry({**book, "previewed": digest(previewed.record())}, book=True).is_valid()
    changed = entry({**book, "S-hard": "5", "previewed": digest(previewed.record())}, book=True)
    assert not changed.is_valid() and changed.changed
