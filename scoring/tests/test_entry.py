"""The entry page's grammar (``scoring.entry``): from a form's plain values to the
hand record's entries."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from scoring import ScoringError, entry, score
from scoring.record import KONG_TYPES, SEATS
from scoring.tiles import FLOWER_CODES

from .builders import hand


def test_melds_parse_into_the_contract() -> None:
    assert entry.melds("P5sW k7m U3pS") == [
        {"type": "pong", "tile": "5s", "from": "W", "upgraded": False},
        {"type": "kong", "tile": "7m", "from": None, "upgraded": False},
        {"type": "kong", "tile": "3p", "from": "S", "upgraded": True},
    ]


def test_melds_are_parted_by_spaces_or_commas() -> None:
    assert entry.melds(" K1zN,P2pE，P3pE ") == [
        {"type": "kong", "tile": "1z", "from": "N", "upgraded": False},
        {"type": "pong", "tile": "2p", "from": "E", "upgraded": False},
        {"type": "pong", "tile": "3p", "from": "E", "upgraded": False},
    ]
    assert entry.melds("") == [] and entry.melds("  ") == []


@pytest.mark.parametrize(
    ("text", "code", "token"),
    [
        ("P5sW X1m", "meld_unreadable", "X1m"),
        ("P0sW", "meld_unreadable", "P0sW"),
        ("K5sQ", "meld_unreadable", "K5sQ"),
        ("P5s", "pong_needs_feeder", "P5s"),
        ("u3p", "pong_needs_feeder", "u3p"),
    ],
)
def test_a_bad_token_is_refused_by_code_and_field(text: str, code: str, token: str) -> None:
    with pytest.raises(ScoringError) as info:
        entry.melds(text)
    error = info.value
    assert (error.code, error.params, error.path) == (code, {"token": token}, ("melds",))
    assert token in str(error) and token in error.zh


_TOKENS = st.tuples(
    st.sampled_from("PKU"),
    st.sampled_from([f"{n}{s}" for s in "mps" for n in range(1, 10)] + ["1z", "4z"]),
    st.sampled_from(SEATS),
    st.booleans(),
)


@given(st.lists(_TOKENS, max_size=4))
def test_every_written_meld_reads_back(sets: list[tuple[str, str, str, bool]]) -> None:
    """A token per set, as the page's chips write them, reads as that set."""
    text = " ".join(
        f"{k}{tile}" if k == "K" and concealed else f"{k}{tile}{seat}"
        for k, tile, seat, concealed in sets
    )
    read = entry.melds(text)
    assert [m["tile"] for m in read] == [tile for _, tile, _, _ in sets]
    for meld, (k, _, seat, concealed) in zip(read, sets, strict=True):
        assert meld["type"] == ("pong" if k == "P" else "kong")
        assert meld["upgraded"] == (k == "U")
        assert meld["from"] == (None if k == "K" and concealed else seat)


@pytest.mark.parametrize(
    ("concealed", "last"),
    [("123m55p", "5p"), ("123m456p78 9s", "9s"), ("1m 2m3m ", "3m"), ("", ""), ("123", "")],
)
def test_the_winning_tile_is_the_last_written(concealed: str, last: str) -> None:
    assert entry.last_tile(concealed) == last


def test_a_winners_kongs_come_from_its_melds_and_flower_sets() -> None:
    melds = entry.melds("P5sW K7m K1zN U3pS")
    assert entry.own_kongs("E", melds, "1234f5z") == [
        {"seat": "E", "type": "concealed", "from": None},
        {"seat": "E", "type": "exposed", "from": "N"},
        {"seat": "E", "type": "upgraded", "from": "S"},
        {"seat": "E", "type": "flower", "from": None},
    ]
    assert (
        entry.own_kongs("E", [], "12345678f") == [{"seat": "E", "type": "flower", "from": None}] * 2
    )
    assert entry.own_kongs("E", [], "") == []


def test_flowers_that_do_not_read_give_no_flower_kong() -> None:
    """Scoring refuses them beside the flowers field, not here."""
    assert entry.own_kongs("E", entry.melds("K7m"), "1234x") == [
        {"seat": "E", "type": "concealed", "from": None}
    ]


@pytest.mark.parametrize("kind", KONG_TYPES)
def test_a_kong_row_keeps_a_feeder_only_when_fed(kind: str) -> None:
    fed = kind not in entry.UNFED_KONGS
    assert entry.kong("W", kind, "E") == {"seat": "W", "type": kind, "from": "E" if fed else None}
    assert entry.kong("W", kind, None)["from"] is None


def test_a_win_without_tiles_is_a_quick_entry() -> None:
    assert entry.win("S", "E", hard=4) == (
        {"seat": "S", "discarder": "E", "hard_flowers": 4, "soft_flowers": 0, "features": []},
        [],
    )
    win, kongs = entry.win(
        "S", None, liable="W", flags=["kuaizhao"], features=["duiduihu"], hard=None, soft=2,
        concealed="  ", flowers="1f", others_ponged="5p",
    )  # fmt: skip
    assert kongs == [] and win == {
        "seat": "S", "discarder": None, "liable": "W", "flags": ["kuaizhao"],
        "hard_flowers": 0, "soft_flowers": 2, "features": ["duiduihu"],
    }  # fmt: skip


def test_a_win_by_tiles_carries_them_as_typed_without_spaces() -> None:
    melds = entry.melds("K7m")
    win, kongs = entry.win(
        "S", "E", concealed="123m 456p 789s 55s", melds=melds, flowers="1234f 5z",
        others_ponged="5p 7s", features=["menqing"], hard=9, soft=9,
    )  # fmt: skip
    assert win == {
        "seat": "S", "discarder": "E", "concealed": "123m456p789s55s", "melds": melds,
        "winning_tile": "5s", "flowers": "1234f5z", "others_ponged": "5p7s",
        "features": ["menqing"],
    }  # fmt: skip
    assert kongs == [
        {"seat": "S", "type": "concealed", "from": None},
        {"seat": "S", "type": "flower", "from": None},
    ]
    given_tile, _ = entry.win("S", "E", concealed="123m456p789s55s", winning_tile=" 1m ")
    assert given_tile["winning_tile"] == "1m" and "features" not in given_tile
    assert "others_ponged" not in given_tile


def test_what_the_entry_builds_scores() -> None:
    """A tiles entry with a concealed kong and a flower set is a record score() takes."""
    win, kongs = entry.win(
        "S", None, concealed="234m567m111p55p", melds=entry.melds("K7s"), flowers="1234f"
    )
    result = score(hand(win, kongs=kongs))
    assert result["wins"][0]["seat"] == "S" and sum(result["net"].values()) == 0


def test_flower_codes_are_the_flower_sets_alphabet() -> None:
    """own_kongs() counts sets over the same codes the record accepts as flowers."""
    assert (
        entry.own_kongs("N", [], "".join(FLOWER_CODES))
        == [{"seat": "N", "type": "flower", "from": None}] * 2
    )


def test_a_pages_record_puts_the_winners_own_kongs_before_the_rows() -> None:
    by_tiles = {"seat": "S", "discarder": "E", "concealed": "123m456p55s", "melds": [
        {"type": "kong", "tile": "7m", "from": None, "upgraded": False}]}  # fmt: skip
    quick = {"seat": "N", "discarder": "E", "hard": 3}
    out = entry.record(
        [by_tiles, quick], [("W", "flower", "E"), ("E", "exposed", "S")], [("follow", "N")]
    )
    assert [w["seat"] for w in out["wins"]] == ["S", "N"]
    assert out["kongs"] == [
        {"seat": "S", "type": "concealed", "from": None},
        {"seat": "W", "type": "flower", "from": None},
        {"seat": "E", "type": "exposed", "from": "S"},
    ]
    assert out["penalties"] == [{"type": "follow", "seat": "N"}]
    assert "false_wins" not in out and "dead_hands" not in out


def test_a_worksite_pages_record_names_false_wins_and_dead_hands() -> None:
    out = entry.record([], false_wins=["N"])
    assert out == {"wins": [], "kongs": [], "penalties": [], "false_wins": [{"seat": "N"}],
                   "dead_hands": []}  # fmt: skip
    assert entry.record([], false_wins=[], dead_hands=["W"])["dead_hands"] == [{"seat": "W"}]
