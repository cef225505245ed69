"""Issue 10: the rules as RULES.md and HAND_RECORD.md now say them, one test per rule.

Every test works one hand by hand (the arithmetic in its comments) and checks the
result through ``score``, the command line (``python -m scoring score``) and
``explain``, so the three can never tell different payments.
"""

from __future__ import annotations

import io
import json
import sys
from typing import Any

import pytest

from scoring import ScoringError, score
from scoring.__main__ import main
from scoring.explain import SEAT_NAMES, explain
from scoring.features import FLAGS
from scoring.liability import worksite_liable
from scoring.rulesets import get

SEATS = ("E", "S", "W", "N")


def pong(tile: str, frm: str) -> dict[str, Any]:
    return {"type": "pong", "tile": tile, "from": frm, "upgraded": False}


def kong(tile: str, frm: str | None = None, upgraded: bool = False) -> dict[str, Any]:
    return {"type": "kong", "tile": tile, "from": frm, "upgraded": upgraded}


def kong_entry(seat: str, kind: str, frm: str | None = None, robbed: bool = False) -> dict:
    return {"seat": seat, "type": kind, "from": frm, "robbed": robbed}


def win(seat: str, concealed: str, winning_tile: str, **kw: Any) -> dict[str, Any]:
    out: dict[str, Any] = {
        "seat": seat,
        "discarder": None,
        "liable": None,
        "concealed": concealed,
        "melds": [],
        "winning_tile": winning_tile,
        "flowers": "",
        "flags": [],
    }
    out.update(kw)
    return out


def hand(*wins: dict[str, Any], ruleset: str = "nanjing", dealer: str = "E", **kw: Any) -> dict:
    out: dict[str, Any] = {
        "format": "mahjong-hand/1",
        "ruleset": ruleset,
        "dealer": dealer,
        "wins": list(wins),
    }
    out.update(kw)
    return out


def net(**seats: int) -> dict[str, int]:
    return {s: seats.get(s, 0) for s in SEATS}


def scored(record: dict[str, Any]) -> dict[str, Any]:
    """Score a record, and check that the command line and ``explain`` tell the same."""
    result = score(record)
    stdout, stdin = sys.stdout, sys.stdin
    sys.stdin, sys.stdout = io.StringIO(json.dumps(record)), io.StringIO()
    try:
        assert main(["score", "-"]) == 0
        cli = json.loads(sys.stdout.getvalue())
        sys.stdin, sys.stdout = io.StringIO(json.dumps(record)), io.StringIO()
        assert main(["explain", "-"]) == 0
        told = sys.stdout.getvalue()
    finally:
        sys.stdout, sys.stdin = stdout, stdin
    assert cli == result
    text = explain(record, result, get(record["ruleset"]).name)
    assert told.strip() == text.strip()
    for w in result["wins"]:
        assert f"{SEAT_NAMES[w['seat']]}家胡牌" in text and f"每份 {w['value']} 花" in text
        paid = [p for p in result["payments"] if p["reason"] == "win" and p["to"] == w["seat"]]
        for p in paid:
            assert f"{SEAT_NAMES[p['from']]}家付 {p['amount']} 花" in text
    for seat in SEATS:
        assert f"{SEAT_NAMES[seat]} {result['net'][seat]:+d}" in text
    return result


def value(result: dict[str, Any], seat: str = "S") -> int:
    return next(w["value"] for w in result["wins"] if w["seat"] == seat)


def features(result: dict[str, Any], seat: str = "S") -> list[str]:
    return next(w["features"] for w in result["wins"] if w["seat"] == seat)


def refused(record: dict[str, Any], field: str, words: str) -> None:
    with pytest.raises(ScoringError) as err:
        score(record)
    assert err.value.field == field and words in err.value.message


# ================================================================ 1. 缺一


def test_queyi_is_exactly_one_of_wan_tiao_bing_absent() -> None:
    # 万 and 饼, 条 absent: 缺一. 2 × (4 H + 独占 + 缺一) + 20 + 门清 20 = 52
    two = scored(hand(win("S", "234m567m999m111p55p", "5p", discarder="E", flowers="1f2f3f5z")))
    assert value(two) == 52 and "queyi" in features(two)
    # all three suits: none. 2 × (4 H + 独占) + 20 + 20 = 50
    three = scored(hand(win("S", "234m567m999s111p55p", "5p", discarder="E", flowers="1f2f3f5z")))
    assert value(three) == 50 and "queyi" not in features(three)


def test_queyi_is_not_given_to_a_hunyise_or_qingyise_hand() -> None:
    # 混一色 (万 + winds) lacks two suits: 2 × (1 H + 风碰 + 独占) + 20 + 40 = 66
    hun = scored(
        hand(win("S", "123456789m55m", "5m", discarder="N", melds=[pong("2z", "W")], flowers="6f"))
    )
    assert value(hun) == 66 and features(hun) == ["feng_peng", "duzhan", "hunyise"]
    # 清一色: 2 × 2 H + 20 + 60 = 84
    qing = scored(
        hand(
            win(
                "S", "123m345m678m22m", "8m", discarder="W", melds=[pong("9m", "E")], flowers="1f2f"
            )
        )
    )
    assert value(qing) == 84 and features(qing) == ["qingyise"]
    # a 快照's 缺一 is judged on its four sets: 万 + winds, no 缺一 (test below)


# ================================================================ 2. 快照 in nanjing

KZ3 = [pong("1m", "W"), pong("9m", "W"), pong("2z", "W")]  # three mouths fed by W


def test_nanjing_kuaizhao_fourth_set_fed_by_another_player_pays_one_share() -> None:
    # the fourth pong fed by N: an 出冲 win. Sets 1m 9m 东 5m: 混一色, 风碰, no 缺一;
    # 2 × (2 H + 1) + 20 + 对对胡 40 + 全球独钓 60 + 混一色 40 = 166, W pays one share
    record = hand(
        win("S", "3p7s", "5m", liable="W", melds=[*KZ3, pong("5m", "N")], flowers="1f2f",
            flags=["kuaizhao"]),
    )  # fmt: skip
    result = scored(record)
    assert value(result) == 166
    assert features(result) == ["feng_peng", "hunyise", "duiduihu", "quanqiu_dudiao"]
    assert result["net"] == net(S=166, W=-166)
    # fed by L itself: the same, one share
    record["wins"][0]["melds"][3] = pong("5m", "W")
    assert scored(record)["net"] == net(S=166, W=-166)


def test_nanjing_kuaizhao_fourth_set_from_own_draw_pays_three_shares() -> None:
    # the fourth a concealed kong of 5m: made from the player's own draw, W pays 3T.
    # 2 × (2 H + 风碰) + 20 + 40 + 60 + 40 = 166; 3 × 166 = 498; the kong 3 from each
    record = hand(
        win("S", "3p", "5m", liable="W", melds=[*KZ3, kong("5m")], flowers="1f2f",
            flags=["kuaizhao"]),
        kongs=[kong_entry("S", "concealed")],
    )  # fmt: skip
    result = scored(record)
    assert value(result) == 166
    assert result["net"] == net(S=498 + 9, W=-498 - 3, E=-3, N=-3)
    # a kong added to the player's own pong (fed by N): also the player's own draw
    record["wins"][0]["melds"][3] = kong("5m", "N", upgraded=True)
    record["kongs"] = [kong_entry("S", "upgraded", "N")]
    assert scored(record)["net"] == net(S=498 + 6, W=-498, N=-6)


def test_nanjing_kuaizhao_hand_dealt_in_pays_one_share_self_drawn_three() -> None:
    # 三嘴 from W, 555m 77m won on N's discard: W pays T in N's place.
    # 万 + winds: 2 × (4 H + 风碰) + 20 + 混一色 40 + 对对胡 40 = 110
    dealt = win("S", "55577m", "7m", discarder="N", liable="W", melds=KZ3, flowers="1f2f3f5f")
    assert scored(hand(dealt))["net"] == net(S=110, W=-110)
    drawn = {**dealt, "discarder": None}
    assert scored(hand(drawn))["net"] == net(S=330, W=-330)


# ================================================================ 3. 快照 in nanjing-classic


def test_classic_kuaizhao_fourth_fed_by_liable_is_full_and_pays_three_shares() -> None:
    # 快照1 如又对同一家一嘴: 对对胡 + 全球独钓 + 混一色; 2 × 3 + 20 + 140 = 166; W pays 3T
    record = hand(
        win("S", "3p7s", "5m", liable="W", melds=[*KZ3, pong("5m", "W")], flowers="1f2f",
            flags=["kuaizhao"]),
        ruleset="nanjing-classic",
    )  # fmt: skip
    result = scored(record)
    assert value(result) == 166 and "quanqiu_dudiao" in features(result)
    assert result["net"] == net(S=498, W=-498)


def test_classic_kuaizhao_fourth_fed_by_another_is_duiduihu_only_one_share() -> None:
    # 快照2 对不一家一嘴: 对对胡 only, 2 × (2 H + 风碰) + 20 + 40 = 66, W pays one share;
    # with H = 0 no 无花果 either: 2 × 1 + 20 + 40 = 62
    record = hand(
        win("S", "3p7s", "5m", liable="W", melds=[*KZ3, pong("5m", "N")], flowers="1f2f",
            flags=["kuaizhao"]),
        ruleset="nanjing-classic",
    )  # fmt: skip
    result = scored(record)
    assert value(result) == 66 and features(result) == ["feng_peng", "duiduihu"]
    assert result["net"] == net(S=66, W=-66)
    record["wins"][0]["flowers"] = ""
    bare = scored(record)
    assert value(bare) == 62 and "wuhuaguo" not in features(bare)


def test_classic_kuaizhao_fourth_fed_by_another_in_quick_entry() -> None:
    # quick entry of the same: 对对胡 ticked, H 0, S 1: 2 × 1 + 20 + 40 = 62, no 无花果
    quick = {"seat": "S", "liable": "W", "melds": [*KZ3, pong("5m", "N")], "hard_flowers": 0,
             "soft_flowers": 1, "features": ["duiduihu"], "flags": ["kuaizhao"]}  # fmt: skip
    result = scored(hand(quick, ruleset="nanjing-classic"))
    assert value(result) == 62 and result["net"] == net(S=62, W=-62)
    # ticking 全球独钓 as well is refused
    quick["features"] = ["duiduihu", "quanqiu_dudiao"]
    refused(hand(quick, ruleset="nanjing-classic"), "wins[0].features", "对对胡 only")
    # in nanjing the ticks count: 2 × 1 + 20 + 40 + 60 + 无花果 40 = 162, one share
    assert scored(hand(quick))["net"] == net(S=162, W=-162)


def test_classic_kuaizhao_hand_dealt_in_pays_the_duiduihu_value() -> None:
    # 快照 against W, N deals in: value 2 × 5 + 20 + 40 + 40 = 110, W pays the 对对胡
    # value 2 × 5 + 20 + 40 = 70 as one share; self-drawn: W pays 3T
    dealt = win("S", "55577m", "7m", discarder="N", liable="W", melds=KZ3, flowers="1f2f3f5f")
    result = scored(hand(dealt, ruleset="nanjing-classic"))
    assert value(result) == 110 and result["net"] == net(S=70, W=-70)
    drawn = {**dealt, "discarder": None}
    assert scored(hand(drawn, ruleset="nanjing-classic"))["net"] == net(S=330, W=-330)


def test_classic_duiduihu_share_only_when_the_sets_show_the_kuaizhao() -> None:
    # a liable W on a discard win with no melds: W pays T, not the 对对胡 value.
    # 2 × (4 H + 独占 + 缺一) + 20 + 门清 20 = 52 (the 对对胡 value would be 72)
    record = hand(
        win("S", "234m567m999m111p55p", "5p", discarder="N", liable="W", flowers="1f2f3f5z"),
        ruleset="nanjing-classic",
    )
    result = scored(record)
    assert value(result) == 52 and result["net"] == net(S=52, W=-52)
    # two mouths from W and a concealed kong show it: the hand is worth
    # 2 × (4 H + 缺一) + 20 = 30, W pays the 对对胡 value 2 × 5 + 20 + 40 = 70
    shown = hand(
        win("S", "11m345p", "5p", discarder="N", liable="W", flowers="1f2f3f5z",
            melds=[pong("2m", "W"), pong("3m", "W"), kong("4m")]),
        kongs=[kong_entry("S", "concealed")],
        ruleset="nanjing-classic",
    )  # fmt: skip
    result = scored(shown)
    assert value(result) == 30
    assert result["payments"][0] == {"from": "W", "to": "S", "amount": 70, "reason": "win"}


def test_classic_qingyise_fourth_mouth_feeder_pays_three_shares() -> None:
    # 三嘴 of 万 from E, N, W (no 快照), N feeds the fourth: 清一色 + 对对胡 + 全球独钓,
    # 2 × 1 H + 20 + 60 + 40 + 60 = 182; classic: N pays 3T; nanjing: one share
    melds = [pong("1m", "E"), pong("9m", "N"), pong("5m", "W"), pong("7m", "N")]
    kz = win("S", "3p", "7m", liable="N", melds=melds, flowers="8f", flags=["kuaizhao"])
    classic = scored(hand(kz, ruleset="nanjing-classic"))
    assert value(classic) == 182 and classic["net"] == net(S=546, N=-546)
    assert scored(hand(kz))["net"] == net(S=182, N=-182)


# ================================================================ 4. 一炮多响 and 包牌


def test_a_liable_seat_may_be_another_winner_of_the_same_discard() -> None:
    # N fed three of E's sets; S deals 7m; E and N both win on it.
    # E: 555m 77m + 1m 9m 东 pongs: 2 × (4 H + 风碰) + 20 + 混一色 40 + 对对胡 40 = 110,
    #    paid by N as 包牌 (one share, a discard win)
    # N: 123s456s789s东东 68m waiting 7m: 压档, 缺一 (饼 absent), 门清:
    #    2 × (4 + 1 + 1) + 20 + 20 = 52, paid by S
    record = hand(
        win("E", "55577m", "7m", discarder="S", liable="N", flowers="1f2f3f5z",
            melds=[pong("1m", "N"), pong("9m", "N"), pong("2z", "N")]),
        win("N", "123s456s789s11z678m", "7m", discarder="S", flowers="5f6f7f7z"),
    )  # fmt: skip
    result = scored(record)
    assert value(result, "E") == 110 and value(result, "N") == 52
    assert result["net"] == net(E=110, N=52 - 110, S=-52)
    assert result["next"] == {"dealer": "E", "doubled": True}


# ================================================================ 5. 压绝 on others' pongs


YJ = "123p456p789s55s234m"  # 24m waits 3m only: 压档


def test_yajue_counts_another_players_exposed_pong_in_nanjing() -> None:
    # 3m ponged by another player: 压绝 40 in place of 压档.
    # 2 × 4 H + 20 + 门清 20 + 压绝 40 = 88 (without it: 2 × (4 + 1) + 20 + 20 = 50)
    record = hand(win("S", YJ, "3m", discarder="E", flowers="1f2f3f5z", others_ponged="3m"))
    result = scored(record)
    assert value(result) == 88 and features(result) == ["menqing", "yajue"]
    del record["wins"][0]["others_ponged"]
    assert value(scored(record)) == 50


def test_classic_yajue_keeps_the_winners_own_pong_only() -> None:
    # 篇一: 别人碰…不算: the same hand is 压档 only, 2 × 5 + 20 + 20 = 50
    record = hand(
        win("S", YJ, "3m", discarder="E", flowers="1f2f3f5z", others_ponged="3m"),
        ruleset="nanjing-classic",
    )
    result = scored(record)
    assert value(result) == 50 and "yajue" not in features(result)
    # the winner's own pong of 3m still is: 2 × 4 H + 20 + 压绝 40 = 68
    own = hand(
        win("S", "123p456p55s234m", "3m", discarder="E", flowers="1f2f3f5z",
            melds=[pong("3m", "W")]),
        ruleset="nanjing-classic",
    )  # fmt: skip
    result = scored(own)
    assert value(result) == 68 and features(result) == ["yajue"]


def test_a_wait_whose_four_copies_are_accounted_for_is_no_wait() -> None:
    # 1113m waits 2m (11 + 123) and 3m (111 + 33); another player's pong of 3m and the
    # winner's own 3m are all four: the wait is 2m alone, 压档.
    # 2 × (4 + 压档) + 20 + 门清 20 = 50 (two waits: 48)
    record = hand(
        win("S", "11123m456p789p234s", "2m", discarder="E", flowers="1f2f3f5z", others_ponged="3m")
    )
    result = scored(record)
    assert value(result) == 50 and "yadang" in features(result)
    del record["wins"][0]["others_ponged"]
    assert value(scored(record)) == 48


def test_others_ponged_counts_three_copies_in_the_four_copies_check() -> None:
    # the winner holds two 3m: a pong of 3m by another player would make five
    record = hand(
        win("S", "33m123p456p789s234m", "3m", discarder="E", flowers="1f2f3f5z", others_ponged="3m")
    )
    refused(record, "wins[0].others_ponged", "more than four copies")
    # nor can another player pong a tile the winner has ponged
    record = hand(
        win("S", "123p456p55s234m", "3m", discarder="E", flowers="1f2f3f5z",
            melds=[pong("3m", "W")], others_ponged="3m"),
    )  # fmt: skip
    refused(record, "wins[0].others_ponged", "more than four copies")


def test_others_ponged_is_accepted_and_ignored_in_worksite() -> None:
    base = win("S", "234m567m345p789s22s", "5p", flowers="1f2f3f4f5f6z")
    record = hand(
        {**base, "others_ponged": "1z"},
        ruleset="jiangsu-worksite",
        kongs=[kong_entry("S", "flower")],
    )
    plain = hand(base, ruleset="jiangsu-worksite", kongs=[kong_entry("S", "flower")])
    assert scored(record)["net"] == scored(plain)["net"]


# ================================================================ 6. 工地

WS = "234m567m345p789s22s"  # no wind, no pattern but 门前清 (5)


def ws(*wins: dict[str, Any], **kw: Any) -> dict[str, Any]:
    return hand(*wins, ruleset="jiangsu-worksite", **kw)


def test_worksite_win_after_a_flower_is_gangshang_kaihua() -> None:
    # 抓到花必须立即开杠: won on the replacement after 1f: 1 flower + 杠上开花 5 + 门前清 5 = 11
    one = scored(ws(win("S", WS, "5p", flowers="1f", flags=["after_flower"])))
    assert value(one) == 11 and features(one) == ["gangshang_kaihua", "menqianqing"]
    assert one["net"] == net(S=33, E=-11, W=-11, N=-11)
    # two declarations in the chain (1f, then 2f on its replacement): 2 + 10 + 5 = 17
    two = scored(ws(win("S", WS, "5p", flowers="1f2f", flags=["after_flower"], kong_chain=2)))
    assert value(two) == 17
    # the entry page offers it in 工地
    assert "after_flower" in dict(FLAGS["worksite"])


def test_worksite_opening_replacement_win_is_tianhu_not_gangshang_kaihua() -> None:
    # 天糊 (开杠起花后立即糊牌) 5 in place of the 杠上开花: 1 + 5 + 门前清 5 = 11
    result = scored(
        ws(win("S", WS, "5p", flowers="1f", flags=["after_flower", "tianhu"]), dealer="S")
    )
    assert value(result) == 11 and features(result) == ["tianhu", "menqianqing"]


def test_worksite_kong_chain_counts_flower_declarations() -> None:
    # a chain longer than the flowers and kongs the winner shows is refused
    record = ws(win("S", WS, "5p", flowers="1f", flags=["after_flower"], kong_chain=2))
    refused(record, "wins[0].kong_chain", "needs as many flowers or kongs")
    # 南京 has no flower in a kong chain
    record = hand(win("S", WS, "5p", flowers="1f2f3f4f5z", flags=["after_flower"], kong_chain=2))
    record["kongs"] = [kong_entry("S", "flower")]
    refused(record, "wins[0].kong_chain", "above 1")


def test_worksite_robbing_win_is_paid_by_the_konger_alone_one_share() -> None:
    # S robs W's added 5p: W pays T = 5 flowers + 门前清 5 = 10 as if W had discarded it
    record = ws(
        win("S", WS, "5p", flowers="1f2f3f5z6z", flags=["robbing_kong"]),
        kongs=[kong_entry("W", "upgraded", "N", robbed=True)],
    )
    result = scored(record)
    assert value(result) == 10 and result["net"] == net(S=10, W=-10)
    # with the konger as discarder, the same
    record["wins"][0]["discarder"] = "W"
    assert scored(record)["net"] == net(S=10, W=-10)
    # nobody named: refused
    record["wins"][0]["discarder"] = None
    record["kongs"] = []
    refused(record, "wins[0].discarder", "konger")


def test_worksite_baopai_helper_counts_exposed_kongs_beside_pongs() -> None:
    melds = [pong("1m", "W"), kong("9m", "W"), kong("5p", "W", upgraded=True)]
    assert worksite_liable(melds) == "W"
    assert worksite_liable([pong("1m", "W"), kong("9m", "W"), kong("5p")]) is None


def test_worksite_guoshui_refuses_the_same_or_a_tonglu_tile() -> None:
    base = win("S", WS, "5p", discarder="W", flowers="1f2f3f5z6z")
    for passed in ("5p", "2p", "8p"):
        refused(ws({**base, "passed": passed}), "wins[0].passed", "过水")
    for passed in ("3p", "5s", "4z"):
        assert value(scored(ws({**base, "passed": passed}))) == 10


def test_worksite_menqianqing_never_with_a_seven_pair_tier() -> None:
    # 单7对 15张花（不计门前清）: 5 flowers + 15 = 20; 豪华7对: 5 + 30 = 35
    single = scored(ws(win("S", "1133557799m1122p", "9m", flowers="1f2f3f5z6z")))
    assert value(single) == 20 and features(single) == ["danqidui"]
    luxury = scored(ws(win("S", "1111557799m1122p", "9m", flowers="1f2f3f5z6z")))
    assert value(luxury) == 35 and features(luxury) == ["haohua_qidui"]


def test_worksite_legal_win_counts_every_zhanghua_patterns_included() -> None:
    # no flower tile at all: 大四喜 40 + 对对糊 10 + 风暗刻/风碰 4 + 混一色 10 → legal
    record = ws(win("S", "111z222z333z444z55m", "5m", flowers=""))
    assert value(scored(record)) >= 5
    # 4 flower tiles and a pong (no 门前清): T = 4, refused with the count
    small = win("S", "234m567m345p22s", "5p", discarder="W", flowers="1f2f3f5z",
                melds=[pong("9p", "E")])  # fmt: skip
    refused(ws(small), "wins[0].flowers", "at least 5")


def test_worksite_yuan_amounts_are_booked_as_points() -> None:
    # the seed's 人民币5元 penalties and flower sets are 5 花 each; 包牌 pays the win's 花
    record = ws(
        win("S", WS, "5p", discarder="E", liable="W", flowers="1f2f3f4f5z",
            melds=[]),
        kongs=[kong_entry("S", "flower")],
        penalties=[{"type": "follow", "seat": "N"}],
    )  # fmt: skip
    result = scored(record)
    # T = 5 flowers + 门前清 5 = 10, paid by W; flower set 5 from each; N's penalty 5 to each
    assert value(result) == 10
    assert result["net"] == net(S=10 + 15 + 5, W=-10 - 5 + 5, E=-5 + 5, N=-5 - 15)


# ================================================================ 7. the explicit lines


def test_a_kuaizhao_win_is_won_on_the_tile_of_its_last_set() -> None:
    record = hand(
        win("S", "3p7s", "3p", liable="W", melds=[*KZ3, pong("5m", "N")], flowers="1f2f",
            flags=["kuaizhao"]),
    )  # fmt: skip
    refused(record, "wins[0].winning_tile", "tile of the last set")


def test_tianhu_with_any_set_is_refused_a_concealed_kong_included() -> None:
    record = hand(
        win("E", "234m567m111p55p", "5p", melds=[kong("9m")], flowers="1f2f3f5z",
            flags=["tianhu"]),
        kongs=[kong_entry("E", "concealed")],
    )  # fmt: skip
    refused(record, "wins[0].flags", "tianhu with a set declared")


def test_wuhuaguo_counts_in_a_kuaizhao_win_with_no_hard_flower() -> None:
    # H = 0: 2 × 风碰 + 20 + 40 + 60 + 40 + 无花果 40 = 202, N fed the fourth: one share
    record = hand(
        win("S", "3p7s", "5m", liable="W", melds=[*KZ3, pong("5m", "N")], flags=["kuaizhao"]),
    )
    result = scored(record)
    assert value(result) == 202 and "wuhuaguo" in features(result)


def test_quick_entry_keys_features_hard_and_soft_flowers() -> None:
    # no concealed: a quick entry; H 4, S 2, 门清 ticked: 2 × 6 + 20 + 20 = 52
    quick = {"seat": "S", "discarder": "E", "hard_flowers": 4, "soft_flowers": 2,
             "features": ["menqing"]}  # fmt: skip
    assert value(scored(hand(quick))) == 52
    # without concealed it needs hard_flowers or flowers
    refused(hand({"seat": "S", "discarder": "E"}), "wins[0].concealed", "hard_flowers")
    # with concealed, each ticked code must be one the tiles give, counts must agree
    tiles = win("S", "234m567m999m111p55p", "5p", discarder="E", flowers="1f2f3f5z")
    assert value(scored(hand({**tiles, "features": ["menqing"], "soft_flowers": 2}))) == 52
    assert value(scored(hand({**tiles, "features": []}))) == 52
    refused(hand({**tiles, "features": ["qingyise"]}), "wins[0].features", "ticked")
    refused(hand({**tiles, "soft_flowers": 3}), "wins[0].soft_flowers", "soft flowers")
    refused(hand({**tiles, "hard_flowers": 3}), "wins[0].hard_flowers", "says 3")


def test_flags_a_ruleset_does_not_use_score_nothing_and_nanjing_counts_both_kaihua() -> None:
    # kong_discard in 南京: nothing
    plain = value(scored(hand(win("S", "234m567m999m111p55p", "5p", discarder="E",
                                  flowers="1f2f3f5z"))))  # fmt: skip
    record = hand(
        win("S", "234m567m999m111p55p", "5p", discarder="E", flowers="1f2f3f5z",
            flags=["kong_discard"]),
        kongs=[kong_entry("E", "concealed")],
    )  # fmt: skip
    assert value(scored(record)) == plain
    # dihu in 工地: nothing
    assert value(scored(ws(win("S", WS, "5p", flowers="1f", flags=["dihu"])))) == 6
    # after_flower and after_kong together in 南京: 小杠开花 20 + 大杠开花 40
    both = hand(
        win("S", "234m567m111p55p", "5p", flowers="1f2f3f5z", melds=[kong("9m")],
            flags=["after_flower", "after_kong"]),
        kongs=[kong_entry("S", "concealed")],
    )  # fmt: skip
    result = scored(both)
    assert {"xiaogang_kaihua", "dagang_kaihua"} <= set(features(result))
