"""HAND_RECORD.md, Refused records: a ``kuaizhao`` win whose three sets before the last
show no 快照 against ``liable`` (three fed by it; two fed by it and a concealed kong;
two concealed kongs and one fed by it; an added kong counts as fed by its pong's
feeder) and whose four sets are not all of one suit (the 清一色 fourth mouth) is
refused: there is no instant win, or the wrong seat would pay."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from scoring import ScoringError, score

from .builders import hand, kong, pong, win

ROOT = Path(__file__).resolve().parents[2]


def kuaizhao(melds: list[dict[str, Any]], liable: str = "W", **kw: Any) -> dict[str, Any]:
    """S's 快照 instant win on the tile of its last set, 3p left in hand."""
    return win("S", "3p", melds[-1]["tile"], liable=liable, melds=melds, flags=["kuaizhao"], **kw)


def concealed_kongs(n: int) -> list[dict[str, Any]]:
    return [{"seat": "S", "type": "concealed", "from": None}] * n


#: the issue's case: three mouths fed by W, N and E, the fourth by W; mixed suits
NO_KUAIZHAO = [pong("1m", "W"), pong("9m", "N"), pong("2z", "E"), pong("5m", "W")]


def test_a_kuaizhao_win_with_no_kuaizhao_against_liable_and_mixed_suits_is_refused() -> None:
    with pytest.raises(ScoringError) as info:
        score(hand(kuaizhao(NO_KUAIZHAO)))
    assert info.value.field == "wins[0].liable"
    assert "no 快照 against W" in info.value.message
    assert info.value.zh == "前三组副露对西家不成快照，四组也不是清一色：不能快照胡"


@pytest.mark.parametrize(
    ("name", "melds", "kongs"),
    [
        # a 快照 against another seat (E fed three): W would pay for E's mouths
        ("against another seat", [pong("1m", "E"), pong("9m", "E"), pong("2z", "E"),
                                  pong("5m", "W")], 0),
        # two fed by W, the fourth by W too: the fourth is the win, not a mouth of it
        ("the fourth does not count", [pong("1m", "W"), pong("9m", "W"), pong("2z", "E"),
                                       pong("5m", "W")], 0),
        # one fed by W and one concealed kong: short of three
        ("one and a concealed kong", [pong("1m", "W"), kong("9m"), pong("2z", "E"),
                                      pong("5m", "N")], 1),
        # three concealed kongs: nobody fed a mouth
        ("three concealed kongs", [kong("1m"), kong("9m"), kong("2z"), pong("5m", "W")], 3),
        # one suit but the first three alone: the fourth set is of another
        ("three of one suit", [pong("1m", "E"), pong("9m", "N"), pong("5m", "W"),
                               pong("5p", "W")], 0),
        # winds are no suit: four sets of 万 and winds are not 清一色
        ("winds with one suit", [pong("1m", "E"), pong("9m", "N"), pong("2z", "W"),
                                 pong("5m", "W")], 0),
    ],
)  # fmt: skip
def test_a_kuaizhao_win_without_grounds_is_refused(
    name: str, melds: list[dict[str, Any]], kongs: int
) -> None:
    record = hand(kuaizhao(melds), kongs=concealed_kongs(kongs))
    with pytest.raises(ScoringError, match="no 快照 against W") as info:
        score(record)
    assert info.value.field == "wins[0].liable", name


@pytest.mark.parametrize(
    ("name", "melds", "kongs", "upgraded"),
    [
        ("three fed by L", [pong("1m", "W"), pong("9m", "W"), pong("2z", "W"),
                            pong("5m", "N")], 0, 0),
        ("two fed by L and a concealed kong", [kong("1m"), pong("9m", "W"), pong("2z", "W"),
                                               pong("5m", "N")], 1, 0),
        ("two concealed kongs and one fed by L", [pong("1m", "W"), kong("9m"), kong("2z"),
                                                  pong("5m", "N")], 2, 0),
        # an added kong counts as fed by its pong's feeder
        ("an added kong fed by L", [pong("1m", "W"), kong("9m", "W", upgraded=True),
                                    pong("2z", "W"), pong("5m", "N")], 0, 1),
        # the 清一色 fourth mouth: no 快照, the four sets of 万
        ("the 清一色 fourth mouth", [pong("1m", "E"), pong("9m", "N"), pong("5m", "E"),
                                    pong("7m", "W")], 0, 0),
    ],
)  # fmt: skip
def test_a_kuaizhao_win_with_grounds_is_scored_and_liable_pays(
    name: str, melds: list[dict[str, Any]], kongs: int, upgraded: int
) -> None:
    entries = concealed_kongs(kongs) + [{"seat": "S", "type": "upgraded", "from": "W"}] * upgraded
    result = score(hand(kuaizhao(melds), kongs=entries))
    wins = [p for p in result["payments"] if p["reason"] == "win"]
    assert [p["from"] for p in wins] == ["W"], name


def test_a_quick_entry_kuaizhao_without_grounds_is_refused() -> None:
    quick = {"seat": "S", "liable": "W", "melds": NO_KUAIZHAO, "hard_flowers": 0,
             "soft_flowers": 1, "features": ["duiduihu"], "flags": ["kuaizhao"]}  # fmt: skip
    with pytest.raises(ScoringError, match="no 快照 against W"):
        score(hand(quick))
    quick["melds"] = [pong("1m", "W"), pong("9m", "W"), pong("2z", "W"), pong("5m", "N")]
    assert score(hand(quick))["net"]["W"] < 0


def test_the_classic_ruleset_refuses_it_too() -> None:
    with pytest.raises(ScoringError, match="no 快照 against W"):
        score(hand(kuaizhao(NO_KUAIZHAO), ruleset="nanjing-classic"))


def test_the_command_line_refuses_it_with_one_error_line_and_exit_2() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "scoring", "score", "-"],
        input=json.dumps(hand(kuaizhao(NO_KUAIZHAO))),
        capture_output=True,
        text=True,
        cwd=ROOT,
        check=False,
    )
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr == (
        "error: wins[0].liable: the three sets before the last show no 快照 against W "
        "and the four sets are not of one suit: no kuaizhao win\n"
    )


def test_a_batch_line_refused_so_is_replaced_by_its_error(tmp_path: Path) -> None:
    path = tmp_path / "hands.jsonl"
    good = hand(kuaizhao([pong("1m", "W"), pong("9m", "W"), pong("2z", "W"), pong("5m", "N")]))
    path.write_text(
        json.dumps(good) + "\n" + json.dumps(hand(kuaizhao(NO_KUAIZHAO))) + "\n", encoding="utf-8"
    )
    done = subprocess.run(
        [sys.executable, "-m", "scoring", "score", "--batch", str(path)],
        capture_output=True,
        text=True,
        cwd=ROOT,
        check=False,
    )
    lines = [json.loads(line) for line in done.stdout.splitlines()]
    assert done.returncode == 2 and lines[0]["format"] == "mahjong-result/1"
    assert lines[1]["line"] == 2 and "no 快照 against W" in lines[1]["error"]
