"""The reference scorers themselves, on worked hands: one named test per point of
issue 10 (RULES.md and HAND_RECORD.md as sharpened), each figure worked out by
hand in the test's docstring. Where a point applies to both families (南京 and
工地), both references score their own version of the hand and each must give
its worked figure. None of these tests asks the engine: they keep the two
references honest, so that the differential (test_reference.py) compares the
engine with the text and not with a third reading."""

from __future__ import annotations

from typing import Any

import pytest

from scoring.tests.reference import nanjing_ref, worksite_ref

Record = dict[str, Any]


def hand(ruleset: str, wins: list[Record], **rest: Any) -> Record:
    record: Record = {"format": "mahjong-hand/1", "ruleset": ruleset, "dealer": "E"}
    record.update(wins=wins, kongs=[], penalties=[])
    record.update(rest)
    return record


def score(record: Record) -> Record:
    ref = worksite_ref if record["ruleset"] == "jiangsu-worksite" else nanjing_ref
    return ref.score(record)


def pong(tile: str, fed: str) -> Record:
    return {"type": "pong", "tile": tile, "from": fed, "upgraded": False}


def kong(tile: str, fed: str | None, upgraded: bool = False) -> Record:
    return {"type": "kong", "tile": tile, "from": fed, "upgraded": upgraded}


def net(**seats: int) -> dict[str, int]:
    return {s: seats.get(s, 0) for s in "ESWN"}


# ---------------------------------------------------------------- 1. 缺一


@pytest.mark.parametrize("ruleset", ["nanjing", "nanjing-classic"])
def test_qingyise_gets_no_queyi(ruleset):
    """123m 111m 456m 999m 77m on E's 4m (two-sided, no wait flower), H = 0:
    门清 20 + 清一色 60 + 无花果 40 + 跑20 = 140; no 缺一 (two suits absent)."""
    r = score(
        hand(
            ruleset,
            [
                {
                    "seat": "S",
                    "discarder": "E",
                    "concealed": "111m234m456m999m77m",
                    "winning_tile": "4m",
                }
            ],
        )
    )
    assert "queyi" not in r["wins"][0]["features"]
    assert r["wins"][0]["value"] == 140
    assert r["net"] == net(E=-140, S=140)


def test_hunyise_gets_no_queyi():
    """123m 456m 789m 111z 55m on E's 4m, H = 0: 门清 20 + 混一色 40 + 无花果 40
    + 跑20 = 120 (winds are not a suit: 条 and 饼 are both absent)."""
    r = score(
        hand(
            "nanjing",
            [
                {
                    "seat": "S",
                    "discarder": "E",
                    "concealed": "123m456m789m111z55m",
                    "winning_tile": "4m",
                }
            ],
        )
    )
    assert r["wins"][0]["features"] == ["menqing", "hunyise", "wuhuaguo"]
    assert r["net"] == net(E=-120, S=120)


def test_queyi_is_exactly_one_suit_absent():
    """123m 456m 789p 111z 55m on E's 4m, H = 0: 缺一 1 → 2 + 门清 20 + 无花果 40
    + 跑20 = 82."""
    r = score(
        hand(
            "nanjing",
            [
                {
                    "seat": "S",
                    "discarder": "E",
                    "concealed": "123m456m789p111z55m",
                    "winning_tile": "4m",
                }
            ],
        )
    )
    assert r["wins"][0]["features"] == ["queyi", "menqing", "wuhuaguo"]
    assert r["net"] == net(E=-82, S=82)


# ---------------------------------------------------------------- 2. 快照 in nanjing

# W's three mouths 2m 5p 9s, all fed by N (a 快照 against N); H = 2.
KUAIZHAO_SETS = [pong("2m", "N"), pong("5p", "N"), pong("9s", "N")]


def kuaizhao(ruleset: str, fourth: Record, flowers: str = "1f2f", **rest: Any) -> Record:
    win = {
        "seat": "W",
        "liable": "N",
        "concealed": "77s",
        "melds": [*KUAIZHAO_SETS, fourth],
        "winning_tile": fourth["tile"],
        "flowers": flowers,
        "flags": ["kuaizhao"],
    }
    return hand(ruleset, [win], **rest)


def test_nanjing_kuaizhao_fed_by_another_player_is_one_share():
    """Fourth set 3m fed by E: 硬花 2 → 4 + 跑20 + 对对胡 40 + 全球独钓 60 = 124
    (all three suits: no 缺一); N pays one share, 124."""
    r = score(kuaizhao("nanjing", pong("3m", "E")))
    assert r["wins"][0]["value"] == 124
    assert r["net"] == net(N=-124, W=124)
    assert r["next"] == {"dealer": "E", "doubled": True}  # a 包牌 forms 比下胡


def test_nanjing_kuaizhao_fed_by_the_liable_seat_is_one_share():
    """Fourth set 3m fed by N itself: still a set taken on a discard: N pays 124."""
    r = score(kuaizhao("nanjing", pong("3m", "N")))
    assert r["net"] == net(N=-124, W=124)


def test_nanjing_kuaizhao_from_own_draw_is_three_shares():
    """Fourth set a concealed kong of 3m: N pays 3 × 124 = 372; the kong earns 3
    from each other seat (E S N): W +381, N −375, E −3, S −3."""
    r = score(
        kuaizhao("nanjing", kong("3m", None))
        | {"kongs": [{"seat": "W", "type": "concealed", "from": None, "robbed": False}]}
    )
    assert r["wins"][0]["value"] == 124
    assert r["net"] == net(W=381, N=-375, E=-3, S=-3)


def test_nanjing_kuaizhao_on_a_kong_added_to_own_pong_is_three_shares():
    """Fourth set: a pong of 3m fed by S, made a kong from W's own draw: N pays 372,
    S pays the upgraded kong's 6."""
    r = score(
        kuaizhao("nanjing", kong("3m", "S", upgraded=True))
        | {"kongs": [{"seat": "W", "type": "upgraded", "from": "S", "robbed": False}]}
    )
    assert r["net"] == net(W=378, N=-372, S=-6)


def test_kuaizhao_with_no_hard_flower_counts_wuhuaguo():
    """H = 0: 跑20 + 对对胡 40 + 全球独钓 60 + 无花果 40 = 160, N pays one share."""
    r = score(kuaizhao("nanjing", pong("3m", "E"), flowers=""))
    assert r["wins"][0]["features"] == ["duiduihu", "quanqiu_dudiao", "wuhuaguo"]
    assert r["net"] == net(N=-160, W=160)


# W with the 快照 against N and a complete hand 345m 77s, H = 4 (not 门清):
# 硬花 4 → 8 + 跑20 = 28 (no 缺一: all three suits).
def kuaizhao_hand(ruleset: str, discarder: str | None) -> Record:
    win = {
        "seat": "W",
        "discarder": discarder,
        "liable": "N",
        "concealed": "345m77s",
        "melds": KUAIZHAO_SETS,
        "winning_tile": "5m",
        "flowers": "1f2f5f6f",
    }
    return hand(ruleset, [win])


def test_nanjing_deal_in_to_a_kuaizhao_hand_is_one_share():
    r = score(kuaizhao_hand("nanjing", "E"))
    assert r["wins"][0]["value"] == 28
    assert r["net"] == net(N=-28, W=28)


@pytest.mark.parametrize("ruleset", ["nanjing", "nanjing-classic"])
def test_self_draw_on_a_kuaizhao_hand_is_three_shares(ruleset):
    r = score(kuaizhao_hand(ruleset, None))
    assert r["net"] == net(N=-84, W=84)


def test_nanjing_qingyise_fourth_mouth_is_one_share():
    """Three mouths 1m 4m 7m from E S N (no 快照), S feeds the fourth 9m: 硬花 2 → 4
    + 跑20 + 清一色 60 + 对对胡 40 + 全球独钓 60 = 184; S pays one share."""
    win = {
        "seat": "W",
        "liable": "S",
        "concealed": "55p",
        "winning_tile": "9m",
        "melds": [pong("1m", "E"), pong("4m", "S"), pong("7m", "N"), pong("9m", "S")],
        "flowers": "1f2f",
        "flags": ["kuaizhao"],
    }
    r = score(hand("nanjing", [win]))
    assert r["wins"][0]["value"] == 184
    assert r["net"] == net(S=-184, W=184)


# ---------------------------------------------------------------- 3. 快照 in nanjing-classic


def test_classic_kuaizhao_fed_by_the_liable_seat_is_three_shares():
    """快照1: N feeds the fourth 3m: 124, N pays 3 × 124 = 372."""
    r = score(kuaizhao("nanjing-classic", pong("3m", "N")))
    assert r["wins"][0]["value"] == 124
    assert r["net"] == net(N=-372, W=372)


def test_classic_kuaizhao_fed_by_another_player_is_duiduihu_only():
    """快照2 (如对不一家一嘴): E feeds the fourth: 对对胡 only, 2 × (2 + 0) + 20 + 40
    = 64, no 全球独钓; N pays it as one share."""
    r = score(kuaizhao("nanjing-classic", pong("3m", "E")))
    assert r["wins"][0]["features"] == ["duiduihu"]
    assert r["net"] == net(N=-64, W=64)


def test_classic_kuaizhao_fed_by_another_player_has_no_wuhuaguo():
    """H = 0: 跑20 + 对对胡 40 = 60, no 无花果."""
    r = score(kuaizhao("nanjing-classic", pong("3m", "E"), flowers=""))
    assert r["net"] == net(N=-60, W=60)


def test_classic_kuaizhao_from_own_draw_is_three_shares():
    """DECISION (the text names L and another player only): a fourth set from W's
    own draw is paid like a self-draw, the full value 124 × 3, plus the concealed
    kong's 3 from each."""
    r = score(
        kuaizhao("nanjing-classic", kong("3m", None))
        | {"kongs": [{"seat": "W", "type": "concealed", "from": None, "robbed": False}]}
    )
    assert r["net"] == net(W=381, N=-375, E=-3, S=-3)


def test_classic_deal_in_to_a_kuaizhao_hand_pays_the_duiduihu_value():
    """E deals in to W's 快照 hand worth 28: N pays 2 × (4 + 0) + 20 + 40 = 68;
    ``value`` stays the hand's own 28."""
    r = score(kuaizhao_hand("nanjing-classic", "E"))
    assert r["wins"][0]["value"] == 28
    assert r["net"] == net(N=-68, W=68)


def test_classic_liable_seat_dealing_in_itself_pays_one_share():
    r = score(kuaizhao_hand("nanjing-classic", "N"))
    assert r["net"] == net(N=-28, W=28)


def test_classic_liable_seat_without_a_kuaizhao_pays_one_share():
    """S, no sets, wins on E's 4m with N named liable (not a 快照 against N): the
    hand is 缺一 2 + 门清 20 + 无花果 40 + 跑20 = 82 and N pays 82, not 68."""
    win = {
        "seat": "S",
        "discarder": "E",
        "liable": "N",
        "concealed": "123m456m789p111z55m",
        "winning_tile": "4m",
    }
    r = score(hand("nanjing-classic", [win]))
    assert r["net"] == net(N=-82, S=82)


def test_classic_qingyise_fourth_mouth_is_three_shares():
    """快照3: the feeder of the fourth 9m (S) pays 3 × 184 = 552."""
    win = {
        "seat": "W",
        "liable": "S",
        "concealed": "55p",
        "winning_tile": "9m",
        "melds": [pong("1m", "E"), pong("4m", "S"), pong("7m", "N"), pong("9m", "S")],
        "flowers": "1f2f",
        "flags": ["kuaizhao"],
    }
    r = score(hand("nanjing-classic", [win]))
    assert r["wins"][0]["value"] == 184
    assert r["net"] == net(S=-552, W=552)


# ---------------------------------------------------------------- 4. liable co-winner


def test_nanjing_liable_seat_may_be_another_winner():
    """S discards 5m; E (three pongs fed by N, 345m 77s, H = 4: 28) and N
    (123p 456p 789p 111z 55m, H = 0, single wait on the pair: 独占 1 + 缺一 1 → 4
    + 门清 20 + 无花果 40 + 跑20 = 84) both win. N pays E's 包牌 28 and S pays
    N 84: E +28, N +56, S −84."""
    e = {
        "seat": "E",
        "discarder": "S",
        "liable": "N",
        "concealed": "345m77s",
        "melds": [pong("2m", "N"), pong("5p", "N"), pong("9s", "N")],
        "winning_tile": "5m",
        "flowers": "1f2f5f6f",
    }
    n = {"seat": "N", "discarder": "S", "concealed": "123p456p789p111z55m", "winning_tile": "5m"}
    r = score(hand("nanjing", [e, n], dealer="W"))
    assert [w["value"] for w in r["wins"]] == [28, 84]
    assert r["net"] == net(E=28, N=56, S=-84)
    assert r["next"] == {"dealer": "W", "doubled": True}


def test_worksite_liable_seat_may_be_another_winner():
    """The same discard in 工地: E 5 flowers = 5, paid by N (包牌, one share on a
    discard); N 5 flowers + 风暗刻 1 + 一条龙 10 + 门前清 5 = 21, paid by S."""
    e = {
        "seat": "E",
        "discarder": "S",
        "liable": "N",
        "concealed": "345m77s",
        "melds": [pong("2m", "N"), pong("5p", "N"), pong("9s", "N")],
        "winning_tile": "5m",
        "flowers": "1f2f5f6f7z",
    }
    n = {
        "seat": "N",
        "discarder": "S",
        "concealed": "123p456p789p111z55m",
        "winning_tile": "5m",
        "flowers": "3f4f8f5z6z",
    }
    r = score(hand("jiangsu-worksite", [e, n], dealer="W"))
    assert [w["value"] for w in r["wins"]] == [5, 21]
    assert r["net"] == net(E=5, N=16, S=-21)


# ---------------------------------------------------------------- 5. 压绝 and the wait set


def edge_wait(ruleset: str, others_ponged: str) -> Record:
    """12m waiting 3m alone (边枝), 456p 789p 234s 55s, H = 0, on E's 3m."""
    win = {
        "seat": "S",
        "discarder": "E",
        "concealed": "123m456p789p234s55s",
        "winning_tile": "3m",
        "others_ponged": others_ponged,
    }
    return hand(ruleset, [win])


def test_nanjing_yajue_on_another_players_pong():
    """Another player's pong of 3m: 压绝 40 in place of 边枝: 门清 20 + 压绝 40
    + 无花果 40 + 跑20 = 120."""
    r = score(edge_wait("nanjing", "3m"))
    assert "yajue" in r["wins"][0]["features"]
    assert r["net"] == net(E=-120, S=120)


def test_classic_yajue_only_on_the_winners_own_pong():
    """篇一: 别人碰…不算: 边枝 1 → 2 + 门清 20 + 无花果 40 + 跑20 = 82."""
    r = score(edge_wait("nanjing-classic", "3m"))
    assert r["wins"][0]["features"] == ["bianzhi", "menqing", "wuhuaguo"]
    assert r["net"] == net(E=-82, S=82)


def test_nanjing_yajue_on_the_winners_own_pong():
    """S ponged 3m and wins on the fourth, 12m edge: 压绝 40; 硬花 4 → 8 + 跑20 +
    压绝 40 = 68 (no 门清, a pong)."""
    win = {
        "seat": "S",
        "discarder": "E",
        "concealed": "12m3m456p789p55s",
        "melds": [pong("3m", "W")],
        "winning_tile": "3m",
        "flowers": "1f2f5f6f",
    }
    for ruleset in ("nanjing", "nanjing-classic"):
        r = score(hand(ruleset, [win]))
        assert r["net"] == net(E=-68, S=68), ruleset


@pytest.mark.parametrize("ruleset", ["nanjing", "nanjing-classic"])
def test_a_wait_whose_four_copies_are_accounted_is_no_wait(ruleset):
    """3456m 789p 234s 111s waits on 3m and 6m; with another player's pong of 6m
    (three copies, the fourth in S's hand) only 3m is left: 独占 1 → 2 + 门清 20 +
    无花果 40 + 跑20 = 82, against 80 without the pong. (DECISION for the classic
    ruleset: the wait set is common to both, only 压绝 reads the winner's own pong.)"""
    win = {"seat": "S", "discarder": "E", "concealed": "33456m789p234s111s", "winning_tile": "3m"}
    assert score(hand(ruleset, [win]))["net"] == net(E=-80, S=80)
    r = score(hand(ruleset, [win | {"others_ponged": "6m"}]))
    assert "duzhan" in r["wins"][0]["features"]
    assert r["net"] == net(E=-82, S=82)


def test_others_ponged_counts_three_copies_in_the_four_copies_check():
    """S holds 3m and wins on 3m: two copies; another pong of 3m makes five."""
    win = {
        "seat": "S",
        "discarder": "E",
        "concealed": "33m456m789p234s111s",
        "winning_tile": "3m",
        "others_ponged": "3m",
    }
    with pytest.raises(ValueError, match="copies"):
        score(hand("nanjing", [win]))


# ---------------------------------------------------------------- 6. 工地


def worksite_win(**win: Any) -> Record:
    """S: 123m 456p 789s 234s 55s, 5 flowers (1f2f3f 白 发)."""
    base = {
        "seat": "S",
        "concealed": "123m456p789s234s55s",
        "winning_tile": "2m",
        "flowers": "1f2f3f5z6z",
    }
    return base | win


def test_worksite_win_after_a_flower_is_gangshang_kaihua():
    """Self-drawn on the replacement after a flower: 5 flowers + 门前清 5 + 杠上开花
    5 = 15 from each other seat."""
    r = score(hand("jiangsu-worksite", [worksite_win(flags=["after_flower"])]))
    assert r["wins"][0]["value"] == 15
    assert "gangshang_kaihua" in r["wins"][0]["features"]
    assert r["net"] == net(S=45, E=-15, W=-15, N=-15)


def test_worksite_tianhu_on_the_opening_replacement_replaces_gangshang_kaihua():
    """The dealer wins on the opening replacement: 5 flowers + 门前清 5 + 天糊 5 = 15,
    no 杠上开花."""
    r = score(hand("jiangsu-worksite", [worksite_win(seat="E", flags=["tianhu", "after_flower"])]))
    assert "gangshang_kaihua" not in r["wins"][0]["features"]
    assert r["net"] == net(E=45, S=-15, W=-15, N=-15)


def chain(kong_chain: int) -> Record:
    win = worksite_win(
        concealed="123m456p789s55s",
        melds=[kong("9m", None)],
        flags=["after_kong", "after_flower"],
        kong_chain=kong_chain,
    )
    kongs = [{"seat": "S", "type": "concealed", "from": None, "robbed": False}]
    return hand("jiangsu-worksite", [win], kongs=kongs)


def test_worksite_kong_then_flower_is_one_chain():
    """A concealed kong of 9m, a flower on its replacement, the win on the next:
    ``after_kong`` and ``after_flower`` with kong_chain 1 give one 杠上开花 line
    (DECISION): 5 flowers + concealed kong 2 + 杠上开花 5 + 门前清 5 (concealed
    kongs keep it) = 17 from each."""
    r = score(chain(1))
    assert r["wins"][0]["value"] == 17
    assert r["net"] == net(S=51, E=-17, W=-17, N=-17)


def test_worksite_after_kong_chain_needs_as_many_kongs():
    """HAND_RECORD's refusal read to the letter (DECISION): ``after_kong`` needs as
    many kongs as ``kong_chain`` among the winner's sets (flower kongs counted),
    even when a flower declaration is a link of the chain."""
    with pytest.raises(ValueError, match="after_kong"):
        score(chain(2))


def test_worksite_robbing_win_is_paid_by_the_konger_alone():
    """S robs W's added kong of 2m: 5 flowers + 门前清 5 = 10, W pays one share."""
    r = score(
        hand(
            "jiangsu-worksite",
            [worksite_win(flags=["robbing_kong"])],
            kongs=[{"seat": "W", "type": "upgraded", "from": "N", "robbed": True}],
        )
    )
    assert r["net"] == net(S=10, W=-10)


def test_worksite_baopai_with_an_exposed_kong_fed_by_the_same_player():
    """N fed S two pongs and an exposed kong (三嘴): S self-draws 5 flowers + exposed
    kong 1 = 6; N pays three shares, 18. The reference's helper names N."""
    melds = [pong("1m", "N"), pong("5p", "N"), kong("9s", "N")]
    assert worksite_ref.liable_seat(melds) == "N"
    win = worksite_win(concealed="234s55s", melds=melds, winning_tile="4s", liable="N")
    r = score(
        hand(
            "jiangsu-worksite",
            [win],
            kongs=[{"seat": "S", "type": "exposed", "from": "N", "robbed": False}],
        )
    )
    assert r["net"] == net(S=18, N=-18)


@pytest.mark.parametrize(
    ("passed", "refused"), [("5m", True), ("2m", True), ("8m", True), ("3m", False), ("5p", False)]
)
def test_worksite_guoshui_refuses_the_same_or_a_same_road_tile(passed, refused):
    """S passed ``passed`` and now wins on W's 5m: refused for 5m and the 同路
    2m / 8m; 3m and 5p are other roads: 5 flowers + 门前清 5 = 10."""
    win = worksite_win(
        concealed="345m456p789s234s55s", winning_tile="5m", discarder="W", passed=passed
    )
    if refused:
        with pytest.raises(ValueError, match="过水"):
            score(hand("jiangsu-worksite", [win]))
    else:
        assert score(hand("jiangsu-worksite", [win]))["net"] == net(S=10, W=-10)


def test_worksite_guoshui_ends_with_the_winners_own_draw():
    win = worksite_win(concealed="345m456p789s234s55s", winning_tile="5m", passed="5m")
    assert score(hand("jiangsu-worksite", [win]))["net"] == net(S=30, E=-10, W=-10, N=-10)


def test_menqing_never_with_seven_pairs():
    """112233m 445566p 77s reads as runs (门前清 / 门清) or as seven pairs; the seven
    pairs count without it. 工地, 5 flowers on E's 7s: 5 + 单7对 15 = 20 (not 25).
    南京, H = 0: 七对 80 + 缺一… no: all three suits; 跑20 + 无花果 40 = 140 (not 160)."""
    w = {"seat": "S", "discarder": "E", "concealed": "112233m445566p77s", "winning_tile": "7s"}
    r = score(hand("jiangsu-worksite", [w | {"flowers": "1f2f3f5z6z"}]))
    assert "menqianqing" not in r["wins"][0]["features"]
    assert r["net"] == net(E=-20, S=20)
    r = score(hand("nanjing", [w]))
    assert "menqing" not in r["wins"][0]["features"]
    assert r["net"] == net(E=-140, S=140)


# ---------------------------------------------------------------- 7. the explicit lines


@pytest.mark.parametrize("ruleset", ["nanjing", "nanjing-classic", "jiangsu-worksite"])
def test_tianhu_with_any_set_is_refused(ruleset):
    """A concealed kong too: the opening 14 tiles were not a win."""
    win = worksite_win(
        seat="E",
        concealed="123m456p789s55s",
        melds=[kong("9m", None)],
        flags=["tianhu"],
        flowers="1f2f3f5f6f",
    )
    record = hand(
        ruleset, [win], kongs=[{"seat": "E", "type": "concealed", "from": None, "robbed": False}]
    )
    with pytest.raises(ValueError, match="tianhu"):
        score(record)


def test_kuaizhao_is_won_on_its_last_sets_tile():
    record = kuaizhao("nanjing", pong("3m", "E"))
    record["wins"][0]["winning_tile"] = "2m"
    with pytest.raises(ValueError, match="last set"):
        score(record)


def test_kuaizhao_is_refused_in_worksite():
    with pytest.raises(ValueError, match="kuaizhao"):
        score(kuaizhao("jiangsu-worksite", pong("3m", "E"), flowers="1f2f3f5f6f"))


@pytest.mark.parametrize("ruleset", ["nanjing", "jiangsu-worksite"])
def test_quick_entry_keys_are_known_but_left_out(ruleset):
    """``features``, ``hard_flowers``, ``soft_flowers`` are keys of the format (not
    refused as unknown); the references score tiles only and say so."""
    win = {
        "seat": "S",
        "discarder": "E",
        "hard_flowers": 4,
        "soft_flowers": 1,
        "features": ["menqing"],
    }
    with pytest.raises(NotImplementedError):
        score(hand(ruleset, [win]))
    with pytest.raises(ValueError, match="unknown"):
        score(hand(ruleset, [win | {"hard_flower": 4}]))


def test_worksite_money_is_booked_as_hua():
    """元 → 花: a drawn hand with S's flower set and W's follow penalty: 5 花 each
    way (S +15 + 5, W −5 − 15, E and N −5 + 5)."""
    r = score(
        hand(
            "jiangsu-worksite",
            [],
            kongs=[{"seat": "S", "type": "flower", "from": None, "robbed": False}],
            penalties=[{"type": "follow", "seat": "W"}],
        )
    )
    assert r["net"] == net(S=20, W=-20)
