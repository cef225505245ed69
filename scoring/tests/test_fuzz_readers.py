"""The readers never raise anything but a clear refusal (HAND_RECORD.md, "Refused
records"): whatever JSON-ish value, MPSZ text or meld text comes in, the hand record
reader, the rulesets' reader, the 包牌 proposals, the entry grammar and the command
line either read it or refuse it with a ScoringError that has a reason in both
languages."""

from __future__ import annotations

import io
import sys
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from scoring import ScoringError, analyze, entry, liability, rulesets, score, tiles
from scoring.__main__ import main

#: the fields and words a hand record and a ruleset are made of, so that random values
#: land where the readers look
KEYS = [
    "format", "ruleset", "dealer", "doubled", "wins", "kongs", "penalties", "seat", "discarder",
    "liable", "concealed", "melds", "winning_tile", "flowers", "flags", "type", "tile", "from",
    "upgraded", "robbed", "garden", "size", "left", "end_when_out", "family", "id", "name", "win",
    "bonus", "next", "kong_chain", "hard_flowers", "soft_flowers", "features",
]  # fmt: skip
WORDS = [
    "mahjong-hand/1", "nanjing", "jiangsu-worksite", "nanjing-classic", "worksite", "E", "S",
    "W", "N", "5p", "1f", "5z", "pong", "kong", "exposed", "flower", "robbing_kong", "kuaizhao",
    "after_kong", "123m456p789s11z55s", "1f2f3f4f", "1m1f",
]  # fmt: skip
SCALARS = (
    st.none()
    | st.booleans()
    | st.integers()
    | st.floats(allow_nan=False)
    | st.text(max_size=8)
    | st.sampled_from(WORDS)
)
VALUES = st.recursive(
    SCALARS,
    lambda inner: (
        st.lists(inner, max_size=4) | st.dictionaries(st.sampled_from(KEYS), inner, max_size=6)
    ),
    max_leaves=20,
)
#: text near the notations: digits (Unicode ones too), suit letters, seats, separators
TEXT = st.text(alphabet="123456789mpszfPKUESWN ,，一１١\n", max_size=24) | st.text(max_size=12)

FUZZ = settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def refused(call: Any, *args: Any, **kwargs: Any) -> None:
    """Call; a refusal must say why, in English and Chinese; nothing else may escape."""
    try:
        call(*args, **kwargs)
    except ScoringError as err:
        assert str(err) and err.zh


@FUZZ
@given(VALUES)
def test_any_value_as_a_hand_is_scored_or_refused(value: Any) -> None:
    refused(score, value)
    refused(score, {"format": "mahjong-hand/1", "ruleset": "nanjing", "wins": [value]})


@FUZZ
@given(VALUES, st.sampled_from(["nanjing", "worksite"]))
def test_proposals_on_any_record_never_break(value: Any, family: str) -> None:
    for record in (value, {"wins": [value]}, {"wins": [{"seat": "S", "melds": value}]}):
        if isinstance(record, dict):
            out, made = liability.propose(record, family)
            assert isinstance(out, dict) and isinstance(made, list)


@FUZZ
@given(VALUES)
def test_any_mapping_as_a_ruleset_is_read_or_refused(value: Any) -> None:
    if isinstance(value, dict):
        refused(rulesets.from_mapping, value)
        refused(rulesets.from_mapping, {**value, "family": value.get("win")})


@FUZZ
@given(TEXT, TEXT, TEXT)
def test_any_text_for_tiles_and_melds_is_read_or_refused(a: str, b: str, c: str) -> None:
    refused(tiles.parse, a)
    refused(entry.melds, a)
    assert isinstance(entry.last_tile(a), str)
    refused(analyze, a, win=b or None, flowers=c)
    refused(rulesets.from_toml, a)
    refused(entry.own_kongs, "E", [], c)


@pytest.mark.parametrize(
    "flowers", ["1m1f", "1f2f3f4f1m", "5z5z5z5z7m"], ids=["one", "a-set-and-one", "dragons"]
)
def test_playing_tiles_among_the_flowers_give_no_flower_kong(flowers: str) -> None:
    assert entry.own_kongs("E", [], flowers) == []
    record = entry.record(
        [{"seat": "S", "discarder": "E", "concealed": "123m456p789s11z555s", "flowers": flowers}]
    )
    with pytest.raises(ScoringError) as err:
        score({"format": "mahjong-hand/1", "ruleset": "nanjing", "dealer": "E", **record})
    assert err.value.field == "wins[0].flowers"


@pytest.mark.parametrize("family", [["nanjing"], {"x": 1}, 7, None])
def test_a_family_that_is_not_a_name_is_refused(family: Any) -> None:
    with pytest.raises(ScoringError) as err:
        rulesets.from_mapping({"id": "x", "name": "x", "family": family})
    assert err.value.code == "ruleset_family"


@pytest.mark.parametrize(
    "wins",
    [{"seat": "S"}, 3.5, "S", [None], ["S"], [{"seat": "S", "melds": 3.5}],
     [{"seat": "S", "flags": 1.0}],
     [{"seat": "S", "melds": [None]}], [{"seat": "S", "melds": [{"type": "pong", "tile": "9x"}]}],
     [{"seat": ["S"], "melds": []}], [{"seat": "S", "flags": [["kuaizhao"]], "melds": []}]],
)  # fmt: skip
def test_an_unreadable_win_gets_no_proposal_and_is_refused(wins: Any) -> None:
    record = {"format": "mahjong-hand/1", "ruleset": "nanjing", "dealer": "E", "wins": wins}
    out, made = liability.propose(record, "nanjing")
    assert (out, made) == (record, [])
    with pytest.raises(ScoringError):
        score(out)


def test_unreadable_kongs_get_no_proposal() -> None:
    record = {"wins": [{"seat": "S", "flags": ["robbing_kong"]}], "kongs": [None]}
    assert liability.propose(record, "nanjing") == (record, [])
    assert liability.propose({**record, "kongs": 1}, "worksite") == ({**record, "kongs": 1}, [])


def test_a_robbed_kong_without_a_seat_proposes_nobody() -> None:
    record = {"wins": [{"seat": "S", "flags": ["robbing_kong"]}], "kongs": [{"robbed": True}]}
    assert liability.propose(record, "nanjing") == (record, [])


@pytest.mark.parametrize("command", [["score"], ["score", "--batch"], ["explain"], ["compare"]])
@pytest.mark.parametrize("data", [b"\xff\xfe{}", b"{", b"[]", b"null", b"1e999999"])
def test_the_command_line_refuses_unreadable_files(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], command: list[str], data: bytes
) -> None:
    path = tmp_path / "hand.json"
    path.write_bytes(data)
    assert main([*command, str(path)]) == 2
    assert capsys.readouterr().err.startswith("error: ") or command == ["score", "--batch"]


def test_the_command_line_refuses_bytes_that_are_not_utf8_on_standard_input(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    raw = io.TextIOWrapper(io.BytesIO(b'{"x": "\xff"}'), encoding="utf-8")
    monkeypatch.setattr(sys, "stdin", raw)
    assert main(["score", "-"]) == 2
    assert capsys.readouterr().err == "error: not UTF-8 text (byte 7)\n"


@pytest.mark.parametrize("meld", ['{"type":', "{}", '{"type": "pong", "tile": 5}'])
def test_analyze_refuses_an_unreadable_meld(capsys: pytest.CaptureFixture[str], meld: str) -> None:
    assert main(["analyze", "123m456p789s11z", "--meld", meld]) == 2
    err = capsys.readouterr().err
    assert err.startswith("error: ") and "Traceback" not in err
