"""江苏工地麻将: the package's own decisions and paths (quick entry, 过水, refusals,
analyze, compare). The rows of the table are in test_worked_worksite.py."""

from __future__ import annotations

import pytest

from scoring import ScoringError, analyze, score
from scoring.engine import compare

from .builders import hand, kong, pong, win

WS = "jiangsu-worksite"


def ws(*wins: dict, **kw: object) -> dict:
    return hand(*wins, ruleset=WS, **kw)


def test_a_worksite_win_counts_flowers() -> None:
    # 4 flower tiles + 门前清 5 = 9, paid by the discarder
    result = score(ws(win(discarder="E")))
    assert result["wins"][0]["value"] == 9
    assert result["wins"][0]["features"] == ["menqianqing"]
    assert result["net"] == {"E": -9, "S": 9, "W": 0, "N": 0}
    assert result["next"] == {"dealer": "S", "doubled": False}


def test_fewer_than_five_flowers_is_refused_with_the_count() -> None:
    record = ws(win(discarder="E", concealed="234m567m111p55p", winning_tile="2m",
                    melds=[pong("9m", "W")], flowers="1f2f"))  # fmt: skip
    with pytest.raises(ScoringError, match="at least 5 flowers, the hand has 2") as info:
        score(record)
    assert "诈糊" in info.value.zh


@pytest.mark.parametrize(
    ("change", "field"),
    [
        ({"doubled": True}, "doubled"),
        ({"garden": {"size": 100, "left": {"E": 100, "S": 100, "W": 100, "N": 100}}}, "garden"),
    ],
)
def test_nanjing_only_keys_are_refused(change: dict, field: str) -> None:
    with pytest.raises(ScoringError) as info:
        score(ws(win(discarder="E"), **change))
    assert info.value.field == field


def test_kuaizhao_is_refused() -> None:
    record = ws(
        win(
            concealed="5p",
            winning_tile="1z",
            liable="W",
            flags=["kuaizhao"],
            melds=[pong("2m", "W"), pong("3m", "W"), pong("4m", "W"), pong("1z", "N")],
        )
    )
    with pytest.raises(ScoringError, match="快照"):
        score(record)


def test_a_false_winner_pays_a_later_win_and_may_not_win() -> None:
    record = ws(win(discarder=None), false_wins=[{"seat": "N"}, {"seat": "W"}])
    result = score(record)
    assert result["net"] == {"E": 0, "S": 27, "W": 0, "N": -27}  # the first listed pays 3 × 9
    with pytest.raises(ScoringError, match="false winner") as info:
        score(ws(win(discarder="E"), false_wins=[{"seat": "S"}]))
    assert info.value.field == "wins[0].seat"


def test_a_dead_hand_may_not_win_nor_collect_flower_sets() -> None:
    with pytest.raises(ScoringError, match="相公"):
        score(ws(win(discarder="E"), dead_hands=[{"seat": "S"}]))
    result = score(
        ws(kongs=[{"seat": "N", "type": "flower", "from": None}], dead_hands=[{"seat": "N"}])
    )
    assert result["net"] == {"E": 0, "S": 0, "W": 0, "N": 0}


def test_flower_sets_pay_five_from_each_and_kongs_pay_nothing() -> None:
    result = score(ws(kongs=[{"seat": "N", "type": "flower", "from": None},
                             {"seat": "E", "type": "concealed", "from": None}]))  # fmt: skip
    assert result["net"] == {"E": -5, "S": -5, "W": -5, "N": 15}


def test_guoshui_refuses_the_same_tile_and_the_same_road() -> None:
    for passed in ("5p", "2p", "8p", "28p"):
        with pytest.raises(ScoringError, match="过水") as info:
            score(ws(win(discarder="E", passed=passed)))
        assert info.value.field == "wins[0].passed"


def test_guoshui_lets_other_roads_winds_and_self_draws_through() -> None:
    for passed in ("4p", "6p", "5m", "1z"):
        assert score(ws(win(discarder="E", passed=passed)))["wins"][0]["value"] == 9
    assert score(ws(win(discarder=None, passed="5p")))["wins"][0]["value"] == 9
    assert score(ws(win(discarder="E", passed="")))["wins"][0]["value"] == 9


def test_guoshui_winds_match_only_themselves() -> None:
    record = ws(win(discarder="E", concealed="234m567m999m111p11z", winning_tile="1z"))
    with pytest.raises(ScoringError, match="过水"):
        score(dict(record, wins=[dict(record["wins"][0], passed="1z")]))
    assert score(dict(record, wins=[dict(record["wins"][0], passed="4z")]))["net"]["S"] > 0


def test_nanjing_accepts_passed_and_ignores_it() -> None:
    assert score(hand(win(discarder="E", passed="5p")))["wins"][0]["value"] == 52


def test_liable_and_robbing_in_worksite() -> None:
    result = score(ws(win(discarder=None, liable="W")))
    assert result["net"] == {"E": 0, "S": 27, "W": -27, "N": 0}
    robbing = ws(
        win(concealed="234m567m999m111p55p", winning_tile="2m", flags=["robbing_kong"]),
        kongs=[{"seat": "E", "type": "upgraded", "from": "N", "robbed": True}],
    )
    # the konger E pays alone, one share
    assert score(robbing)["net"]["S"] == score(robbing)["wins"][0]["value"]
    assert score(robbing)["net"]["E"] == -score(robbing)["wins"][0]["value"]


# --- quick entry -------------------------------------------------------------------


def quick(**kw: object) -> dict:
    entry = {"seat": "S", "discarder": "E", "hard_flowers": 3}
    entry.update(kw)
    return ws(entry)


def test_a_quick_worksite_entry() -> None:
    result = score(quick(soft_flowers=2, features=["duiduihu"], flags=["last_tile"]))
    win_ = result["wins"][0]
    assert win_["value"] == 3 + 2 + 5 + 10
    assert [line["code"] for line in win_["breakdown"]] == [
        "hard_flowers",
        "soft_flowers",
        "haidi",
        "duiduihu",
    ]


@pytest.mark.parametrize(
    ("features", "message"),
    [
        (["dasixi", "xiaosixi"], "exclude each other"),
        (["sananke", "sianke"], "exclude each other"),
        (["danqidui", "haohua_qidui"], "exclude each other"),
        (["danqidui", "menqianqing"], "seven pairs cannot"),
        (["qidui"], "unknown feature"),
    ],
)
def test_quick_worksite_ticks_that_cannot_combine(features: list[str], message: str) -> None:
    with pytest.raises(ScoringError, match=message):
        score(quick(features=features))


def test_quick_worksite_small_hand_is_refused() -> None:
    with pytest.raises(ScoringError, match="at least 5 flowers"):
        score(quick())


def test_worksite_ticks_and_counts_are_checked_against_the_tiles() -> None:
    with pytest.raises(ScoringError, match="ticked"):
        score(ws(win(discarder="E", features=["qingyise"])))
    with pytest.raises(ScoringError, match="other flowers"):
        score(ws(win(discarder="E", soft_flowers=1)))
    assert score(ws(win(discarder="E", soft_flowers=0, features=["menqianqing"])))["net"]["S"] == 9


def test_a_worksite_non_winning_hand_is_refused() -> None:
    with pytest.raises(ScoringError, match="not a winning hand"):
        score(ws(win(discarder="E", concealed="234m567m999m112p55p", winning_tile="2p")))


def test_analyze_under_worksite() -> None:
    result = analyze("11223344556677m", ruleset=WS)
    assert result["shape"] == "seven_pairs" or "qingyise" in result["features"]
    assert "qingyise" in result["features"]
    assert analyze("123m456p789s11z55s", win="5s", ruleset=WS)["waits"] == ["5s", "1z"]


def test_compare_scores_one_hand_under_every_ruleset() -> None:
    rows = compare(hand(win(discarder="E")))
    by_id = {row["ruleset"]: row for row in rows}
    assert by_id["nanjing"]["result"]["wins"][0]["value"] == 52
    assert by_id["jiangsu-worksite"]["result"]["wins"][0]["value"] == 9
    rows = compare(hand(win(discarder="E"), doubled=True))
    assert "error" in {row["ruleset"]: row for row in rows}["jiangsu-worksite"]
    with pytest.raises(ScoringError):
        compare([])


def test_flags_worksite_does_not_use_score_nothing() -> None:
    plain = score(ws(win(discarder=None)))["wins"][0]["value"]
    assert score(ws(win(discarder=None, flags=["dihu"])))["wins"][0]["value"] == plain


def test_a_kong_completes_its_wind_and_kong_counts() -> None:
    record = ws(
        win(discarder="E", concealed="234m567m55p", winning_tile="2m", flowers="1f",
            melds=[kong("1z", "W"), kong("9m")]),
        kongs=[{"seat": "S", "type": "exposed", "from": "W"},
               {"seat": "S", "type": "concealed", "from": None}],
    )  # fmt: skip
    codes = {line["code"]: line["points"] for line in score(record)["wins"][0]["breakdown"]}
    assert codes["feng_gang"] == 2 and codes["angang"] == 2


def test_ganghou_pao_and_tianhu_count_five_per_kong_and_five() -> None:
    record = ws(win(discarder="E", flags=["kong_discard"], kong_chain=2),
                kongs=[{"seat": "E", "type": "concealed", "from": None}] * 2)  # fmt: skip
    codes = {line["code"]: line for line in score(record)["wins"][0]["breakdown"]}
    assert codes["ganghou_pao"] == {"code": "ganghou_pao", "label": "杠后炮 ×2", "points": 10}
    tianhu = ws(win("E", discarder=None, flags=["tianhu"]))
    assert "tianhu" in score(tianhu)["wins"][0]["features"]
