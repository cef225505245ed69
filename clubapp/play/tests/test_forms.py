"""The entry page's forms build the hand record (HAND_RECORD.md)."""

from __future__ import annotations

import pytest
from django.utils import translation

import scoring.record
from clubapp.play.forms import KONG_TYPES, PENALTY_TYPES, HandEntry, digest
from clubapp.play.glossary import GLOSSARY
from clubapp.play.tests.factories import hand_data, shipped
from scoring import ScoringError

pytestmark = pytest.mark.django_db


def entry(data, ruleset="nanjing", **kwargs):
    return HandEntry(data, ruleset=shipped(ruleset).as_ruleset(), **kwargs)


def test_melds_go_into_the_record_as_scoring_reads_them():
    data = hand_data(
        winners=["S"], discarder="E", **{"S-concealed": "123m456p55s", "S-melds": "P5sW k7m"}
    )
    form = entry(data)
    assert form.is_valid()
    assert form.record()["wins"][0]["melds"] == [
        {"type": "pong", "tile": "5s", "from": "W", "upgraded": False},
        {"type": "kong", "tile": "7m", "from": None, "upgraded": False},
    ]
    assert form.record()["kongs"] == [{"seat": "S", "type": "concealed", "from": None}]


@pytest.mark.parametrize(
    ("melds", "zh", "en"),
    [
        ("P5sW X9m", "无法识别副露“X9m”", "Cannot read the meld “X9m”"),
        ("P5s", "碰“P5s”需要注明供牌者", "The pong “P5s” needs who fed it"),
    ],
)
def test_a_bad_meld_is_said_in_the_pages_language(melds, zh, en):
    data = hand_data(winners=["S"], **{"S-concealed": "11p", "S-melds": melds})
    for language, words in (("zh-hans", zh), ("en", en)):
        with translation.override(language):
            form = entry(data)
            assert not form.is_valid()
            assert words in form.seats[1].errors["melds"][0]


def test_the_kong_and_penalty_choices_are_scorings_vocabulary():
    assert [kind for kind, _ in KONG_TYPES[1:]] == list(scoring.record.KONG_TYPES)
    assert [kind for kind, _ in PENALTY_TYPES[1:]] == list(scoring.record.PENALTY_TYPES)
    assert set(scoring.record.KONG_TYPES + scoring.record.PENALTY_TYPES) <= set(GLOSSARY)


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


def placed(form, field):
    """The form and field name where scoring's refusal of ``field`` is shown."""
    form.add_scoring_error(ScoringError("no", field=field), "said")
    for each in form.forms():
        for sub in getattr(each, "forms", [each]):
            for name, errors in sub.errors.items():
                if "said" in errors:
                    return sub.prefix or "hand", name
    return None


@pytest.fixture
def tiles_and_quick():
    """S wins by its tiles with a kong, N quick; a kong row of W and a penalty of E."""
    data = hand_data(
        winners=["S", "N"],
        discarder="E",
        **{
            "S-concealed": "123m456p789s55s",
            "S-melds": "K7m",
            "N-hard": "3",
            "kong-0-seat": "W",
            "kong-0-kind": "exposed",
            "kong-0-fed_by": "E",
            "penalty-0-kind": "follow",
            "penalty-0-seat": "E",
        },
    )
    return data


@pytest.mark.parametrize(
    ("field", "where"),
    [
        ("wins[0]", ("hand", "winners")),
        ("wins[0].seat", ("hand", "winners")),
        ("wins[1].discarder", ("hand", "discarder")),
        ("wins[0].melds[0].from", ("S", "melds")),
        ("wins[0].flags[1]", ("S", "flags")),
        ("wins[0].kong_chain", ("S", "flags")),
        ("wins[0].passed", ("S", "concealed")),
        ("wins[0].hard_flowers", ("S", "hard")),
        ("wins[1].concealed", ("N", "hard")),
        ("wins[1].soft_flowers", ("N", "soft")),
        ("wins[0].unknown", ("hand", "winners")),
        ("wins[2].concealed", ("hand", "__all__")),
        ("kongs[0].type", ("S", "melds")),
        ("kongs[1].from", ("kong-0", "fed_by")),
        ("kongs[1].seat", ("kong-0", "kind")),
        ("kongs[2]", ("hand", "__all__")),
        ("penalties[0].type", ("penalty-0", "kind")),
        ("penalties[0].seat", ("penalty-0", "seat")),
        ("penalties[1].seat", ("hand", "__all__")),
        ("false_wins", ("hand", "__all__")),
        ("wins", ("hand", "__all__")),
        ("garden.left.N", ("hand", "__all__")),
        ("", ("hand", "__all__")),
    ],
)
def test_scorings_refusal_is_placed_by_its_path(tiles_and_quick, field, where):
    form = entry(tiles_and_quick)
    assert form.is_valid()
    form.record()
    assert placed(form, field) == where


def test_a_worksite_refusal_of_false_wins_is_placed_beside_them():
    data = hand_data(winners=["S"], discarder="E", false_wins=["N"], **{"S-hard": "6"})
    form = entry(data, "jiangsu-worksite")
    assert form.is_valid()
    assert placed(form, "false_wins") == ("hand", "false_wins")


def test_a_field_the_worksite_page_lacks_is_placed_beside_the_tiles():
    data = hand_data(winners=["S"], discarder="E", **{"S-concealed": "123m456p789s55s"})
    form = entry(data, "jiangsu-worksite")
    assert form.is_valid()
    assert placed(form, "wins[0].others_ponged") == ("S", "concealed")
