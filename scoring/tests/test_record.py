"""Refused records: each check the contract implies, with a message naming the field."""

from __future__ import annotations

import copy
from collections.abc import Callable
from typing import Any

import pytest

from scoring import ScoringError, score
from scoring.record import read_meld

from .builders import hand, kong, pong, win

BASE = hand(win(discarder="E"))


def mutate(change: Callable[[dict[str, Any]], None]) -> dict[str, Any]:
    record = copy.deepcopy(BASE)
    change(record)
    return record


def w0(record: dict[str, Any]) -> dict[str, Any]:
    return record["wins"][0]


REFUSED: list[tuple[str, Callable[[dict[str, Any]], None], str, str]] = [
    ("not an object", lambda r: r.clear() or r.update(x=1), "hand", "unknown key 'x'"),
    ("unknown top-level key", lambda r: r.update(dealr="E"), "hand", "unknown key 'dealr'"),
    ("unknown win key", lambda r: w0(r).update(tile="5p"), "wins[0]", "unknown key 'tile'"),
    ("wrong format", lambda r: r.update(format="mahjong-hand/2"), "format", "mahjong-hand/1"),
    ("no ruleset", lambda r: r.pop("ruleset"), "ruleset", "must name"),
    ("unknown ruleset", lambda r: r.update(ruleset="sichuan"), "ruleset", "unknown ruleset"),
    ("bad dealer", lambda r: r.update(dealer="X"), "dealer", "unknown seat"),
    ("doubled not bool", lambda r: r.update(doubled=1), "doubled", "true or false"),
    ("wins missing", lambda r: r.pop("wins"), "wins", "missing"),
    ("wins not list", lambda r: r.update(wins={}), "wins", "must be a list"),
    ("bad seat", lambda r: w0(r).update(seat="EAST"), "wins[0].seat", "unknown seat"),
    (
        "unknown tile",
        lambda r: w0(r).update(concealed="234m567m999m111p55x"),
        "wins[0].concealed",
        "unknown tile",
    ),
    (
        "zero tile",
        lambda r: w0(r).update(concealed="034m567m999m111p55p"),
        "wins[0].concealed",
        "unknown tile '0m'",
    ),
    ("concealed not text", lambda r: w0(r).update(concealed=5), "wins[0].concealed", "MPSZ"),
    (
        "flower in hand",
        lambda r: w0(r).update(concealed="234m567m999m111p5p7z"),
        "wins[0].concealed",
        "flower tile '7z'",
    ),
    (
        "playing tile in flowers",
        lambda r: w0(r).update(flowers="1m"),
        "wins[0].flowers",
        "not a flower tile",
    ),
    (
        "count does not fit",
        lambda r: w0(r).update(concealed="234m567m999m11p55p"),
        "wins[0].concealed",
        "holds 13 tiles",
    ),
    (
        "count with a meld",
        lambda r: w0(r).update(melds=[pong("1z", "W")]),
        "wins[0].concealed",
        "it must hold 11",
    ),
    (
        "winning tile missing",
        lambda r: w0(r).update(winning_tile="6p"),
        "wins[0].winning_tile",
        "not among",
    ),
    ("winning tile absent", lambda r: w0(r).pop("winning_tile"), "wins[0].winning_tile", "missing"),
    (
        "two winning tiles",
        lambda r: w0(r).update(winning_tile="5p5p"),
        "wins[0].winning_tile",
        "exactly one",
    ),
    (
        "not a winning hand",
        lambda r: w0(r).update(concealed="234m567m999m112p55p", winning_tile="2p"),
        "wins[0].concealed",
        "not a winning hand",
    ),
    (
        "discarder is winner",
        lambda r: w0(r).update(discarder="S"),
        "wins[0].discarder",
        "cannot be the winner",
    ),
    (
        "liable is winner",
        lambda r: w0(r).update(liable="S"),
        "wins[0].liable",
        "cannot be the winner",
    ),
    (
        "five copies",
        lambda r: (
            w0(r).update(concealed="999m567m111p55p", melds=[kong("9m", "W")])
            or r.update(kongs=[{"seat": "S", "type": "exposed", "from": "W"}])
        ),
        "wins",
        "more than four copies of '9m'",
    ),
    ("flower held twice", lambda r: w0(r).update(flowers="1f1f2f3f"), "wins", "held twice"),
    (
        "five white dragons",
        lambda r: w0(r).update(flowers="55555z"),
        "wins",
        "more than four copies",
    ),
    ("unknown flag", lambda r: w0(r).update(flags=["haidi"]), "wins[0].flags[0]", "unknown flag"),
    (
        "after_kong without kong",
        lambda r: w0(r).update(discarder=None, flags=["after_kong"]),
        "wins[0].flags",
        "after_kong needs 1",
    ),
    (
        "after_kong on a discard",
        lambda r: w0(r).update(flags=["after_kong"]),
        "wins[0].flags",
        "on a discard",
    ),
    (
        "after_flower on a discard",
        lambda r: w0(r).update(flags=["after_flower"]),
        "wins[0].flags",
        "on a discard",
    ),
    (
        "after_flower with no flowers",
        lambda r: w0(r).update(discarder=None, flowers="", flags=["after_flower"]),
        "wins[0].flags",
        "no flowers",
    ),
    (
        "kong_discard without kongs",
        lambda r: w0(r).update(flags=["kong_discard"]),
        "wins[0].flags",
        "kong_discard needs 1",
    ),
    (
        "kong_discard self-drawn",
        lambda r: w0(r).update(discarder=None, flags=["kong_discard"]),
        "wins[0].flags",
        "needs a discarder",
    ),
    (
        "kong_chain without flag",
        lambda r: w0(r).update(kong_chain=2),
        "wins[0].kong_chain",
        "above 1",
    ),
    (
        "kong_chain not int",
        lambda r: w0(r).update(kong_chain="2"),
        "wins[0].kong_chain",
        "whole number",
    ),
    (
        "tianhu by non-dealer",
        lambda r: w0(r).update(discarder=None, flags=["tianhu"]),
        "wins[0].flags",
        "dealer",
    ),
    (
        "tianhu on a discard",
        lambda r: w0(r).update(seat="E", discarder="S", flags=["tianhu"]),
        "wins[0].flags",
        "discard",
    ),
    (
        "tianhu with a set",
        lambda r: w0(r).update(
            seat="E",
            discarder=None,
            concealed="234m567m111p55p",
            melds=[pong("9m", "W")],
            flags=["tianhu"],
        ),
        "wins[0].flags",
        "tianhu with a set",
    ),
    (
        "dihu with a set",
        lambda r: w0(r).update(
            concealed="234m567m111p55p", melds=[pong("9m", "W")], flags=["dihu"]
        ),
        "wins[0].flags",
        "dihu with a set",
    ),
    (
        "kuaizhao without liable",
        lambda r: w0(r).update(
            discarder=None,
            concealed="5p5p",
            melds=[pong("1m", "W"), pong("2m", "W"), pong("3m", "W"), pong("4m", "N")],
            winning_tile="4m",
            flags=["kuaizhao"],
        ),
        "wins[0].liable",
        "needs the liable",
    ),
    (
        "kuaizhao on a discard",
        lambda r: w0(r).update(
            liable="W",
            concealed="5p5p",
            melds=[pong("1m", "W"), pong("2m", "W"), pong("3m", "W"), pong("4m", "N")],
            winning_tile="4m",
            flags=["kuaizhao"],
        ),
        "wins[0].flags",
        "not on a discard",
    ),
    (
        "kuaizhao without four sets",
        lambda r: w0(r).update(discarder=None, liable="W", flags=["kuaizhao"]),
        "wins[0].melds",
        "four sets",
    ),
    (
        "kuaizhao too many tiles",
        lambda r: w0(r).update(
            discarder=None,
            liable="W",
            concealed="5p5p5p",
            melds=[pong("1m", "W"), pong("2m", "W"), pong("3m", "W"), pong("4m", "N")],
            winning_tile="4m",
            flags=["kuaizhao"],
        ),
        "wins[0].concealed",
        "one or two",
    ),
    (
        "kuaizhao wrong tile",
        lambda r: w0(r).update(
            discarder=None,
            liable="W",
            concealed="5p5p",
            melds=[pong("1m", "W"), pong("2m", "W"), pong("3m", "W"), pong("4m", "N")],
            winning_tile="5p",
            flags=["kuaizhao"],
        ),
        "wins[0].winning_tile",
        "last set",
    ),
    (
        "robbing without liable",
        lambda r: w0(r).update(discarder=None, winning_tile="2m", flags=["robbing_kong"]),
        "wins[0].liable",
        "konger",
    ),
    (
        "robbing holding two",
        lambda r: w0(r).update(discarder=None, liable="E", flags=["robbing_kong"]),
        "wins[0].flags",
        "holds only",
    ),
    (
        "robbed on exposed kong",
        lambda r: r.update(kongs=[{"seat": "E", "type": "exposed", "from": "N", "robbed": True}]),
        "kongs[0].robbed",
        "upgraded",
    ),
    (
        "robbed with no robbing win",
        lambda r: r.update(kongs=[{"seat": "E", "type": "upgraded", "from": "N", "robbed": True}]),
        "kongs[0].robbed",
        "no robbing_kong",
    ),
    (
        "robbing win discarded by another than the konger",
        lambda r: (
            w0(r).update(discarder="W", liable="E", winning_tile="2m", flags=["robbing_kong"]),
            r.update(kongs=[{"seat": "E", "type": "upgraded", "from": "N", "robbed": True}]),
        ),
        "wins[0].discarder",
        "seat whose kong was robbed",
    ),
    (
        "robbing win discarded by another than the liable konger (南京)",
        lambda r: w0(r).update(
            discarder="W", liable="E", winning_tile="2m", flags=["robbing_kong"]
        ),
        "wins[0].discarder",
        "the konger",
    ),
    (
        "robbing one's own kong",
        lambda r: (
            w0(r).update(discarder=None, liable="E", winning_tile="2m", flags=["robbing_kong"]),
            r.update(kongs=[{"seat": "S", "type": "upgraded", "from": "N", "robbed": True}]),
        ),
        "kongs[0].robbed",
        "its own kong",
    ),
    (
        "kong meld without entry",
        lambda r: w0(r).update(concealed="234m567m111p55p", melds=[kong("9m", "W")]),
        "wins[0].melds",
        "do not match",
    ),
    (
        "kong entry without meld",
        lambda r: r.update(kongs=[{"seat": "S", "type": "concealed", "from": None}]),
        "wins[0].melds",
        "do not match",
    ),
    (
        "kong entry of wrong kind",
        lambda r: (
            w0(r).update(concealed="234m567m111p55p", melds=[kong("9m", "W")])
            or r.update(kongs=[{"seat": "S", "type": "upgraded", "from": "W"}])
        ),
        "wins[0].melds",
        "do not match",
    ),
    (
        "flower set without flower kong",
        lambda r: w0(r).update(flowers="1234f"),
        "wins[0].flowers",
        "1 complete flower set",
    ),
    (
        "flower kong without set",
        lambda r: r.update(kongs=[{"seat": "S", "type": "flower", "from": None}]),
        "wins[0].flowers",
        "0 complete flower set",
    ),
    (
        "exposed kong without feeder",
        lambda r: r.update(kongs=[{"seat": "N", "type": "exposed", "from": None}]),
        "kongs[0].from",
        "needs the seat",
    ),
    (
        "concealed kong with feeder",
        lambda r: r.update(kongs=[{"seat": "N", "type": "concealed", "from": "E"}]),
        "kongs[0].from",
        "fed by nobody",
    ),
    (
        "kong fed by itself",
        lambda r: r.update(kongs=[{"seat": "N", "type": "exposed", "from": "N"}]),
        "kongs[0].from",
        "own holder",
    ),
    (
        "unknown kong type",
        lambda r: r.update(kongs=[{"seat": "N", "type": "big", "from": None}]),
        "kongs[0].type",
        "unknown kong type",
    ),
    (
        "unknown kong key",
        lambda r: r.update(kongs=[{"seat": "N", "type": "concealed", "tile": "1m"}]),
        "kongs[0]",
        "unknown key 'tile'",
    ),
    (
        "meld fed by winner",
        lambda r: w0(r).update(concealed="234m567m111p55p", melds=[pong("9m", "S")]),
        "wins[0].melds[0].from",
        "own holder",
    ),
    (
        "pong without feeder",
        lambda r: w0(r).update(concealed="234m567m111p55p", melds=[pong("9m", None)]),
        "wins[0].melds[0].from",
        "needs the seat",
    ),
    (
        "meld type",
        lambda r: w0(r).update(
            concealed="234m567m111p55p", melds=[{"type": "chow", "tile": "9m", "from": "W"}]
        ),
        "wins[0].melds[0].type",
        "pong",
    ),
    (
        "meld of two tiles",
        lambda r: w0(r).update(
            concealed="234m567m111p55p", melds=[{"type": "pong", "tile": "9m9m", "from": "W"}]
        ),
        "wins[0].melds[0].tile",
        "exactly one",
    ),
    (
        "upgraded pong",
        lambda r: w0(r).update(
            concealed="234m567m111p55p",
            melds=[{"type": "pong", "tile": "9m", "from": "W", "upgraded": True}],
        ),
        "wins[0].melds[0].upgraded",
        "upgraded",
    ),
    (
        "upgraded not bool",
        lambda r: w0(r).update(
            concealed="234m567m111p55p",
            melds=[{"type": "kong", "tile": "9m", "from": "W", "upgraded": 1}],
        ),
        "wins[0].melds[0].upgraded",
        "true or false",
    ),
    ("seat not text", lambda r: w0(r).update(seat=["S"]), "wins[0].seat", "unknown seat"),
    (
        "five melds",
        lambda r: w0(r).update(melds=[pong(t, "W") for t in ("1m", "2m", "3m", "4m", "5m")]),
        "wins[0].melds",
        "more than four",
    ),
    (
        "penalty type",
        lambda r: r.update(penalties=[{"type": "late", "seat": "N"}]),
        "penalties[0].type",
        "unknown penalty",
    ),
    (
        "penalty seat",
        lambda r: r.update(penalties=[{"type": "follow"}]),
        "penalties[0].seat",
        "unknown seat",
    ),
    (
        "false win seat",
        lambda r: r.update(false_wins=[{"seat": "X"}]),
        "false_wins[0].seat",
        "unknown seat",
    ),
    (
        "false wins in nanjing",
        lambda r: r.update(false_wins=[{"seat": "N"}]),
        "false_wins",
        "not part of 南京",
    ),
    (
        "dead hands in nanjing",
        lambda r: r.update(dead_hands=[{"seat": "N"}]),
        "dead_hands",
        "not part of 南京",
    ),
    (
        "garden over",
        lambda r: r.update(garden={"size": 100, "left": {"E": 0, "S": 0, "W": 50, "N": 250}}),
        "garden",
        "already over",
    ),
    (
        "garden over at one",
        lambda r: r.update(
            garden={"size": 100, "left": {"E": 0, "S": 100, "W": 50, "N": 250}, "end_when_out": 1}
        ),
        "garden",
        "already over",
    ),
    (
        "garden seat missing",
        lambda r: r.update(garden={"size": 100, "left": {"E": 100, "S": 100, "W": 100}}),
        "garden.left",
        "missing seat 'N'",
    ),
    (
        "garden negative",
        lambda r: r.update(garden={"size": 100, "left": {"E": -1, "S": 100, "W": 100, "N": 100}}),
        "garden.left.E",
        "whole number",
    ),
    (
        "garden end_when_out",
        lambda r: r.update(
            garden={"size": 100, "left": {"E": 1, "S": 100, "W": 100, "N": 100}, "end_when_out": 3}
        ),
        "garden.end_when_out",
        "1 or 2",
    ),
    (
        "garden size",
        lambda r: r.update(garden={"size": 0, "left": {"E": 1, "S": 100, "W": 100, "N": 100}}),
        "garden.size",
        "whole number",
    ),
    ("same seat twice", lambda r: r["wins"].append(copy.deepcopy(w0(r))), "wins", "wins twice"),
    (
        "four winners",
        lambda r: r.update(wins=[win(s, discarder="E") for s in "SWN"] + [win("E", discarder="S")]),
        "wins",
        "at most three",
    ),
    (
        "winners disagree on discarder",
        lambda r: r["wins"].append(win("W", "234m567m999m111s55p", discarder="N")),
        "wins",
        "shared discarder",
    ),
    (
        "winners disagree on tile",
        lambda r: r["wins"].append(win("W", "234m567m999m111s55s", "5s", discarder="E")),
        "wins",
        "shared winning tile",
    ),
    (
        "several self-draws",
        lambda r: (
            w0(r).update(discarder=None)
            or r["wins"].append(win("W", "234m567m999m111s55p", flowers="", discarder=None))
        ),
        "wins",
        "shared discarder",
    ),
    (
        "winner is the discarder",
        lambda r: r["wins"].append(win("E", "234s567s999s111s55p", flowers="", discarder="E")),
        "wins[1].discarder",
        "cannot be the winner",
    ),
    (
        "small hand",
        lambda r: w0(r).update(
            concealed="234m567m111p55p", melds=[pong("9m", "W")], flowers="1f2f3f"
        ),
        "wins[0].flowers",
        "at least 4 hard flowers, it has 3",
    ),
]


@pytest.mark.parametrize(
    ("change", "field", "message"), [c[1:] for c in REFUSED], ids=[c[0] for c in REFUSED]
)
def test_it_refuses_with_a_message_naming_the_field(
    change: Callable[[dict[str, Any]], None], field: str, message: str
) -> None:
    record = mutate(change)
    with pytest.raises(ScoringError) as info:
        score(record)
    assert info.value.field == field, str(info.value)
    assert message in info.value.message
    assert str(info.value).startswith(f"{field}: ")
    assert (
        info.value.zh
        and info.value.zh != info.value.message
        or info.value.field.startswith("ruleset")
    )


def test_the_base_record_is_legal() -> None:
    assert score(BASE)["net"]["S"] == 52


def test_a_winning_tile_reads_like_any_notation() -> None:
    spaced = mutate(lambda r: w0(r).update(winning_tile=" 5p "))
    assert score(spaced) == score(BASE)


def test_a_non_object_record_is_refused() -> None:
    with pytest.raises(ScoringError, match="must be an object"):
        score([1, 2])


def test_a_shared_winning_discard_counts_once() -> None:
    # 5p x2 in each of two hands plus the shared discard: 2 + 2 - 1 + ... = 4 copies in all
    record = hand(
        win("S", "234m567m999m111p55p", discarder="E"),
        win("W", "234s567s999s111s55p", "5p", flowers="", discarder="E"),
    )
    record["wins"][1]["flowers"] = "4f"
    result = score(record)
    assert [w["seat"] for w in result["wins"]] == ["S", "W"]


def test_null_lists_read_as_empty() -> None:
    # "wins": null is a drawn hand, like "wins": []; the same for the optional lists
    drawn = score(hand(kongs=[]))
    assert score({**hand(), "wins": None, "kongs": None, "penalties": None}) == drawn


def test_a_meld_tile_reads_like_any_notation() -> None:
    """As the winning tile: a set's tile written with spaces is that tile."""
    plain = read_meld({"type": "pong", "tile": "5s", "from": "E"}, "melds[0]", "S")
    assert read_meld({"type": "pong", "tile": " 5s ", "from": "E"}, "melds[0]", "S") == plain
