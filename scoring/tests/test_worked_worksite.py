"""Worked 江苏工地麻将 (`jiangsu-worksite`) cases, computed by hand.

Written from /work/shared/RULES.md, HAND_RECORD.md, the worksite seed and the decisions
recorded for worksite, without reading the engine, so that a misreading of the rules on
either side shows up as a failure. Every legal case carries its arithmetic:

    T = flower tiles (1 each, 中发白 included) + wind sets (风碰 1, 暗风刻 1, 风杠 2 / 3)
        + other kongs (明杠 1, 暗杠 2) + 5 × kong_chain (杠上开花, after a kong or a
        flower / 杠后炮) + 天糊 5 (in place of that 杠上开花) + 海底 5 + patterns;
        a win needs T >= 5.

Payments: discard -> the discarder pays T; self-drawn -> each other seat pays T; 抢杠 ->
the konger alone pays T; a liable seat pays 3T / T instead; the first false winner
(诈糊) pays all of it instead of anyone. Flower sets pay their holder 5 from each
other seat (not to a false winner or 相公); penalties 5 to each other seat; no kong
money; never doubled.

Conventions: the dealer is E unless a case says otherwise; the stock winner is S; "next"
is the dealer of the following hand (next.doubled is always false in 工地).
"""

from __future__ import annotations

import copy
from collections import Counter

import pytest

from scoring import ScoringError, score

SEATS = ("E", "S", "W", "N")
RULESET = "jiangsu-worksite"


# --------------------------------------------------------------------------- builders
# They spell out the full record of HAND_RECORD.md; no defaults are relied on.


def pong(tile: str, frm: str) -> dict:
    return {"type": "pong", "tile": tile, "from": frm, "upgraded": False}


def kong(tile: str, frm: str | None = None, upgraded: bool = False) -> dict:
    """Exposed kong (frm = feeder), upgraded pong (frm = who fed the pong) or concealed."""
    return {"type": "kong", "tile": tile, "from": frm, "upgraded": upgraded}


def kong_entry(seat: str, kind: str, frm: str | None = None, robbed: bool = False) -> dict:
    return {"seat": seat, "type": kind, "from": frm, "robbed": robbed}


def flower_kong(seat: str) -> dict:
    return kong_entry(seat, "flower")


def win(
    seat: str,
    concealed: str,
    winning_tile: str,
    *,
    discarder: str | None = None,
    liable: str | None = None,
    melds: tuple | list = (),
    flowers: str = "",
    flags: tuple | list = (),
    **extra,
) -> dict:
    record = {
        "seat": seat,
        "discarder": discarder,
        "liable": liable,
        "concealed": concealed,
        "melds": list(melds),
        "winning_tile": winning_tile,
        "flowers": flowers,
        "flags": list(flags),
    }
    record.update(extra)  # kong_chain, passed
    return record


def hand(
    *wins: dict,
    dealer: str = "E",
    kongs: tuple | list = (),
    penalties: tuple | list = (),
    false_wins: tuple | list = (),
    dead_hands: tuple | list = (),
    **extra,
) -> dict:
    record = {
        "format": "mahjong-hand/1",
        "ruleset": RULESET,
        "dealer": dealer,
        "doubled": False,
        "wins": list(wins),
        "kongs": list(kongs),
        "penalties": list(penalties),
        "false_wins": [{"seat": s} for s in false_wins],
        "dead_hands": [{"seat": s} for s in dead_hands],
    }
    record.update(extra)  # doubled, garden (refused cases)
    return record


def net(**amounts: int) -> dict:
    return {seat: amounts.get(seat, 0) for seat in SEATS}


def follow(seat: str) -> dict:
    return {"type": "follow", "seat": seat}


def four_discards(seat: str) -> dict:
    return {"type": "four_discards", "seat": seat}


def expect(wins: dict, net_: dict, next_dealer: str) -> dict:
    return {"wins": wins, "net": net_, "next": next_dealer}


# --------------------------------------------------------------------------- stock hands

# 234m 567m 345p 22s + pong 9s (fed by N); won on 5p (34p waited 2p/5p). All three
# suits, one pong (no 门前清), no wind, no concealed triplet, no pattern: T = flowers.
BASE_CON = "234m567m345p22s"
BASE_MELDS = (pong("9s", "N"),)
F5 = "1f2f3f5f6f"  # five flower tiles, no complete set
F4 = "1f2f3f5f"  # four flower tiles, no complete set


def base(seat: str = "S", discarder: str | None = "W", flowers: str = F5, **kw) -> dict:
    return win(seat, BASE_CON, "5p", discarder=discarder, melds=BASE_MELDS, flowers=flowers, **kw)


# 234m 567m 22s beside two sets (8 concealed tiles); won on 7m (56m waited 4m/7m).
SMALL_CON = "234m567m22s"

# The liable (包牌) hand: three pongs fed by W (2m 5p 8s), 345m + 77p, won on 7p (single).
LIA_CON = "345m77p"
LIA_MELDS = (pong("2m", "W"), pong("5p", "W"), pong("8s", "W"))

# A 门前清 hand with no melds: 123s 456s 789m 111p 55p, won on 5p (pair wait, single).
MQ2 = "123s456s789m111p55p"

# 三暗刻 / 四暗刻 hands (no melds, so 门前清 too).
SAN = "222m555p888s345m99p"  # 3 triplets + 345m + 99p
SI = "222m555p888s777m99p"  # 4 triplets + 99p

# A hand won on 1z completing the pair (234m 567m 345p + 1z single wait) beside pong 9s.
WIND_PAIR = "234m567m345p11z"


# --------------------------------------------------------------------------- legal cases

CASES = [
    # ================================================================ flower tiles (硬花)
    pytest.param(
        hand(base()),
        # 5 flower tiles = 5 = T (the minimum); W dealt in, pays 5; E (dealer) lost -> S deals
        expect({"S": (5, set())}, net(S=5, W=-5), "S"),
        id="flower-tiles-5-is-enough",
    ),
    pytest.param(
        hand(base(flowers="5z6z7z7z1f8f")),
        # 中发白 count as flower tiles: 5z 6z 7z 7z 1f 8f = 6 = T; W pays 6
        expect({"S": (6, set())}, net(S=6, W=-6), "S"),
        id="flower-tiles-zhong-fa-bai-count-1-each",
    ),
    pytest.param(
        hand(
            base(flowers="1f2f3f4f5f6f7f8f5z5z5z5z6z6z6z6z7z7z7z7z"),
            kongs=[flower_kong("S") for _ in range(5)],
        ),
        # all 20 flower tiles = 20 = T; W pays 20. Five flower sets (春夏秋冬, 梅兰竹菊, 4×白,
        # 4×发, 4×中): 5 × 5 = 25 from each of E, W, N. S = 20 + 75 = 95; E -25; W -20-25 = -45;
        # N -25
        expect({"S": (20, set())}, net(S=95, E=-25, W=-45, N=-25), "S"),
        id="flower-tiles-all-20-five-flower-sets",
    ),
    pytest.param(
        hand(base(flowers="1f2f3f4f6f"), kongs=[flower_kong("S")]),
        # 5 flower tiles = 5 = T, W pays 5; one flower set (春夏秋冬) pays S 5 from E, W, N:
        # S 5 + 15 = 20; W -5-5 = -10; E -5; N -5
        expect({"S": (5, set())}, net(S=20, E=-5, W=-10, N=-5), "S"),
        id="flower-set-money-5-from-each",
    ),
    pytest.param(
        hand(
            base(discarder=None, flowers="5z5z5z5z6z6z6z6z"),
            kongs=[flower_kong("S"), flower_kong("S")],
        ),
        # 8 flower tiles = 8 = T, self-drawn: E, W, N pay 8 each; two sets (4×白, 4×发): 10 more
        # from each. S = 3 × 18 = 54; E, W, N -18
        expect({"S": (8, set())}, net(S=54, E=-18, W=-18, N=-18), "S"),
        id="flower-set-money-two-sets-self-drawn",
    ),
    # ================================================================ winds
    pytest.param(
        hand(win("S", BASE_CON, "5p", discarder="W", melds=[pong("1z", "N")], flowers=F4)),
        # 4 flower tiles + 风碰 (exposed 东 pong) 1 = 5; W pays 5
        expect({"S": (5, {"feng_peng"})}, net(S=5, W=-5), "S"),
        id="feng_peng-exposed-wind-pong-1",
    ),
    pytest.param(
        hand(win("S", "111z" + SMALL_CON, "7m", discarder="W", melds=BASE_MELDS, flowers=F4)),
        # 111z held concealed (the 7m discard completes 567m): 4 flower tiles + 暗风刻 1 = 5;
        # m and s both present: no 混一色; W pays 5
        expect({"S": (5, {"feng_anke"})}, net(S=5, W=-5), "S"),
        id="feng_anke-concealed-wind-triplet-1",
    ),
    pytest.param(
        hand(
            win(
                "S",
                SMALL_CON,
                "7m",
                discarder="W",
                melds=[pong("9s", "N"), kong("1z", "W")],
                flowers="1f2f3f",
            ),
            kongs=[kong_entry("S", "exposed", "W")],
        ),
        # 3 flower tiles + exposed wind kong 2 = 5 (pong 9s: no 门前清); W pays 5, no kong money
        expect({"S": (5, {"feng_gang"})}, net(S=5, W=-5), "S"),
        id="feng_gang-exposed-wind-kong-2",
    ),
    pytest.param(
        hand(
            win(
                "S",
                SMALL_CON,
                "7m",
                discarder="W",
                melds=[pong("9s", "N"), kong("1z")],
                flowers="1f2f",
            ),
            kongs=[kong_entry("S", "concealed")],
        ),
        # 2 flower tiles + concealed wind kong 3 = 5 (not also 暗风刻); W pays 5
        expect({"S": (5, {"feng_gang"})}, net(S=5, W=-5), "S"),
        id="feng_gang-concealed-wind-kong-3",
    ),
    pytest.param(
        hand(
            win(
                "S",
                BASE_CON,
                "5p",
                discarder="W",
                melds=[kong("1z", "N", upgraded=True)],
                flowers="1f2f3f",
            ),
            kongs=[kong_entry("S", "upgraded", "N")],
        ),
        # upgraded pong -> exposed wind kong 2; 3 flower tiles + 2 = 5; the upgrade loses
        # 门前清; W pays 5
        expect({"S": (5, {"feng_gang"})}, net(S=5, W=-5), "S"),
        id="feng_gang-upgraded-wind-kong-counts-as-exposed-2",
    ),
    pytest.param(
        hand(win("S", "1111z33m55m77m99m22m", "2m", discarder="W")),
        # seven pairs with 东 ×4 (two pairs): no wind flowers; 豪华7对 30 + 混一色 (万 + winds)
        # 10 = 40; no 门前清 with seven pairs; W pays 40
        expect({"S": (40, {"haohua_qidui", "hunyise"})}, net(S=40, W=-40), "S"),
        id="seven-pairs-wind-four-gives-no-wind-flowers",
    ),
    # ================================================================ other kongs
    pytest.param(
        hand(
            win(
                "S",
                SMALL_CON,
                "7m",
                discarder="W",
                melds=[pong("8p", "N"), kong("9s", "W")],
                flowers=F4,
            ),
            kongs=[kong_entry("S", "exposed", "W")],
        ),
        # 4 flower tiles + 明杠 1 = 5 (pong 8p: no 门前清); W pays 5 only (no kong money)
        expect({"S": (5, {"minggang"})}, net(S=5, W=-5), "S"),
        id="minggang-exposed-kong-1",
    ),
    pytest.param(
        hand(
            win(
                "S",
                SMALL_CON,
                "7m",
                discarder="W",
                melds=[pong("8p", "N"), kong("9s")],
                flowers="1f2f3f",
            ),
            kongs=[kong_entry("S", "concealed")],
        ),
        # 3 flower tiles + 暗杠 2 = 5; W pays 5 (no kong money from anyone)
        expect({"S": (5, {"angang"})}, net(S=5, W=-5), "S"),
        id="angang-concealed-kong-2",
    ),
    # ================================================================ 杠上开花 / 杠后炮
    pytest.param(
        hand(
            win(
                "S",
                SMALL_CON,
                "7m",
                melds=[pong("8p", "N"), kong("9s", "W")],
                flags=["after_kong"],
            ),
            kongs=[kong_entry("S", "exposed", "W")],
        ),
        # 明杠 1 + 杠上开花 5 × 1 = 6; self-drawn: E, W, N pay 6 each -> S +18
        expect(
            {"S": (6, {"minggang", "gangshang_kaihua"})},
            net(S=18, E=-6, W=-6, N=-6),
            "S",
        ),
        id="gangshang_kaihua-chain-1",
    ),
    pytest.param(
        hand(
            win(
                "S",
                SMALL_CON,
                "7m",
                melds=[kong("9s", "W"), kong("1p")],
                flags=["after_kong"],
                kong_chain=2,
            ),
            kongs=[kong_entry("S", "exposed", "W"), kong_entry("S", "concealed")],
        ),
        # 明杠 1 + 暗杠 2 + 杠上开花 5 × 2 = 10 + 门前清 5 (no pong; a kong at once on a
        # discard and a concealed kong keep it) = 18; self-drawn: 3 × 18 = 54
        expect(
            {"S": (18, {"minggang", "angang", "gangshang_kaihua", "menqianqing"})},
            net(S=54, E=-18, W=-18, N=-18),
            "S",
        ),
        id="gangshang_kaihua-chain-2",
    ),
    pytest.param(
        hand(
            base(flowers="", flags=["kong_discard"]),
            kongs=[kong_entry("W", "exposed", "N")],
        ),
        # 杠后炮 5 × 1 = 5 (no flower tiles); W dealt in after its kong, pays 5; W's kong earns
        # nothing (no kong money)
        expect({"S": (5, {"ganghou_pao"})}, net(S=5, W=-5), "S"),
        id="ganghou_pao-chain-1",
    ),
    pytest.param(
        hand(
            base(flowers="", flags=["kong_discard"], kong_chain=2),
            kongs=[kong_entry("W", "exposed", "N"), kong_entry("W", "concealed")],
        ),
        # 杠后炮 5 × 2 = 10; W pays 10
        expect({"S": (10, {"ganghou_pao"})}, net(S=10, W=-10), "S"),
        id="ganghou_pao-chain-2",
    ),
    # ================================================================ 天糊 / 海底捞月
    pytest.param(
        hand(win("E", "234m567m345p789s22s", "5p", flags=["tianhu"])),
        # dealer E on the opening hand: 天糊 5 + 门前清 5 (no sets) = 10; self-drawn: S, W, N pay
        # 10 each; the dealer won -> E stays
        expect(
            {"E": (10, {"tianhu", "menqianqing"})},
            net(E=30, S=-10, W=-10, N=-10),
            "E",
        ),
        id="tianhu-5",
    ),
    pytest.param(
        hand(base(discarder=None, flowers="", flags=["last_tile"])),
        # 海底捞月 self-drawn: 5 = T; E, W, N pay 5 each
        expect({"S": (5, {"haidi"})}, net(S=15, E=-5, W=-5, N=-5), "S"),
        id="haidi-self-drawn-5",
    ),
    pytest.param(
        hand(base(flowers="", flags=["last_tile"])),
        # 海底 on a discard (the last tile discarded): 5 = T; W pays 5
        expect({"S": (5, {"haidi"})}, net(S=5, W=-5), "S"),
        id="haidi-on-a-discard-5",
    ),
    # ================================================================ patterns
    pytest.param(
        hand(win("S", "123m345m678m99m", "6m", discarder="W", melds=[pong("2m", "N")])),
        # all 万: 清一色 15 (only reading 123 345 678 + 99; no 789, no 一条龙); W pays 15
        expect({"S": (15, {"qingyise"})}, net(S=15, W=-15), "S"),
        id="qingyise-15",
    ),
    pytest.param(
        hand(win("S", "123p345p678p99p", "6p", discarder="W", melds=[pong("1z", "N")])),
        # 饼 + 东: 混一色 10 + 风碰 1 = 11; W pays 11
        expect({"S": (11, {"hunyise", "feng_peng"})}, net(S=11, W=-11), "S"),
        id="hunyise-10-beside-feng_peng",
    ),
    pytest.param(
        hand(win("S", "123m456m789m11m", "5m", discarder="W", melds=[pong("5m", "N")])),
        # 123 456 789 of 万 + 11m, pong 5m: 清一色 15 + 一条龙 10 = 25; W pays 25
        expect({"S": (25, {"qingyise", "yitiaolong"})}, net(S=25, W=-25), "S"),
        id="yitiaolong-beside-qingyise-cumulative",
    ),
    pytest.param(
        hand(win("S", "123m456m789m22p", "5m", discarder="W", melds=BASE_MELDS)),
        # 一条龙 10 (万 1-9), 饼 and 条 present: nothing else; W pays 10
        expect({"S": (10, {"yitiaolong"})}, net(S=10, W=-10), "S"),
        id="yitiaolong-10",
    ),
    pytest.param(
        hand(
            win(
                "S",
                "333s77m",
                "7m",
                discarder="E",
                melds=[pong("2m", "W"), pong("5p", "N"), pong("8s", "W")],
            )
        ),
        # four triplets + pair: 对对糊 10 (one concealed triplet only; three suits); E pays 10
        expect({"S": (10, {"duiduihu"})}, net(S=10, E=-10), "S"),
        id="duiduihu-10",
    ),
    pytest.param(
        hand(
            win(
                "S",
                "77m",
                "7m",
                discarder="E",
                melds=[pong("2m", "W"), pong("5p", "N"), pong("8s", "W"), pong("3s", "N")],
            )
        ),
        # four exposed sets, single wait on 7m: 大吊车 30 + 对对糊 10 = 40; E pays 40
        expect({"S": (40, {"dadiaoche", "duiduihu"})}, net(S=40, E=-40), "S"),
        id="dadiaoche-30-beside-duiduihu",
    ),
    pytest.param(
        hand(
            win(
                "S",
                "99p",
                "9p",
                discarder="E",
                melds=[kong("1p", "W"), kong("3p", "N"), kong("5p"), pong("7p", "W")],
            ),
            kongs=[
                kong_entry("S", "exposed", "W"),
                kong_entry("S", "exposed", "N"),
                kong_entry("S", "concealed"),
            ],
        ),
        # the seed's 清一色碰碰糊大吊车 3杠: 明杠 1 + 1 + 暗杠 2 + 大吊车 30 + 清一色 15
        # + 对对糊 10 = 59 (one concealed triplet, pong 7p: no 门前清); E pays 59
        expect(
            {"S": (59, {"minggang", "angang", "dadiaoche", "qingyise", "duiduihu"})},
            net(S=59, E=-59),
            "S",
        ),
        id="dadiaoche-qingyise-duiduihu-three-kongs",
    ),
    pytest.param(
        hand(
            win(
                "S",
                "333z44z234m",
                "2m",
                discarder="W",
                melds=[pong("1z", "W"), pong("2z", "N")],
            )
        ),
        # 东 南 pongs, 西 concealed triplet, 北 pair: 小四喜 20 + 风碰 1 + 1 + 暗风刻 1
        # + 混一色 (万 + winds) 10 = 33; W pays 33
        expect(
            {"S": (33, {"xiaosixi", "feng_peng", "feng_anke", "hunyise"})},
            net(S=33, W=-33),
            "S",
        ),
        id="xiaosixi-20",
    ),
    pytest.param(
        hand(
            win(
                "S",
                "444z55m",
                "5m",
                discarder="E",
                melds=[pong("1z", "W"), pong("2z", "N"), pong("3z", "W")],
            )
        ),
        # four wind sets: 大四喜 40 (not 小四喜 too) + 风碰 3 × 1 + 暗风刻 1 + 对对糊 10
        # + 混一色 10 = 64; E pays 64
        expect(
            {"S": (64, {"dasixi", "feng_peng", "feng_anke", "duiduihu", "hunyise"})},
            net(S=64, E=-64),
            "S",
        ),
        id="dasixi-40-over-xiaosixi",
    ),
    pytest.param(
        hand(win("S", SAN, "8s")),
        # self-drawn 8s: 222m 555p 888s all concealed: 三暗刻 10 + 门前清 5 = 15;
        # E, W, N pay 15 each
        expect(
            {"S": (15, {"sananke", "menqianqing"})},
            net(S=45, E=-15, W=-15, N=-15),
            "S",
        ),
        id="sananke-10-self-drawn",
    ),
    pytest.param(
        hand(win("S", SAN, "8s", discarder="W")),
        # the same hand won on W's 8s (双碰 8s/9p): 888s completed on a discard is not
        # concealed -> two 暗刻, no 三暗刻: 门前清 5 = 5; W pays 5
        expect({"S": (5, {"menqianqing"})}, net(S=5, W=-5), "S"),
        id="sananke-not-when-discard-completes-the-triplet",
    ),
    pytest.param(
        hand(win("S", "333m345m222p555s99s", "3m", discarder="W")),
        # 333m was held before the discarded 3m, which reads into 345m (the reading worth
        # most): 333m 222p 555s concealed: 三暗刻 10 + 门前清 5 = 15; W pays 15
        expect({"S": (15, {"sananke", "menqianqing"})}, net(S=15, W=-15), "S"),
        id="sananke-discard-tile-read-into-a-run",
    ),
    pytest.param(
        hand(
            win("S", "222m555p345m77s", "4m", discarder="W", melds=[kong("9s")]),
            kongs=[kong_entry("S", "concealed")],
        ),
        # 4m completes 345m; 222m 555p + concealed kong 9s = 三暗刻 10 + 暗杠 2 + 门前清 5
        # (a concealed kong keeps it) = 17; W pays 17
        expect(
            {"S": (17, {"sananke", "angang", "menqianqing"})},
            net(S=17, W=-17),
            "S",
        ),
        id="sananke-concealed-kong-counts",
    ),
    pytest.param(
        hand(win("S", "111m222m333m456p77s", "7s")),
        # read as 111 222 333 (not 123 × 3, worth less): 三暗刻 10 + 门前清 5 = 15;
        # self-drawn: 3 × 15 = 45
        expect(
            {"S": (15, {"sananke", "menqianqing"})},
            net(S=45, E=-15, W=-15, N=-15),
            "S",
        ),
        id="sananke-reading-worth-most-triplets-over-runs",
    ),
    pytest.param(
        hand(win("S", SI, "9p")),
        # four concealed triplets, self-drawn: 四暗刻 20 (not 三暗刻 too) + 对对糊 10
        # + 门前清 5 = 35; E, W, N pay 35 each
        expect(
            {"S": (35, {"sianke", "duiduihu", "menqianqing"})},
            net(S=105, E=-35, W=-35, N=-35),
            "S",
        ),
        id="sianke-20-over-sananke-self-drawn",
    ),
    pytest.param(
        hand(win("S", SI, "9p", discarder="W")),
        # the discard completes the pair, all four triplets held: 四暗刻 20 + 对对糊 10
        # + 门前清 5 = 35; W pays 35
        expect(
            {"S": (35, {"sianke", "duiduihu", "menqianqing"})},
            net(S=35, W=-35),
            "S",
        ),
        id="sianke-on-a-discard-completing-the-pair",
    ),
    pytest.param(
        hand(win("S", SI, "8s", discarder="W")),
        # 双碰 8s/9p won on W's 8s: 888s not concealed -> three 暗刻: 三暗刻 10 + 对对糊 10
        # + 门前清 5 = 25; W pays 25
        expect(
            {"S": (25, {"sananke", "duiduihu", "menqianqing"})},
            net(S=25, W=-25),
            "S",
        ),
        id="sianke-drops-to-sananke-when-discard-completes-a-triplet",
    ),
    pytest.param(
        hand(win("S", "11m33m55p77p22s66s99s", "9s", discarder="W")),
        # 单7对 15, never 门前清; three suits; W pays 15
        expect({"S": (15, {"danqidui"})}, net(S=15, W=-15), "S"),
        id="danqidui-15-tier-1",
    ),
    pytest.param(
        hand(win("S", "1111m33m55p77p22s99s", "9s", discarder="W")),
        # one four (1m) among the pairs: 豪华7对 30; W pays 30
        expect({"S": (30, {"haohua_qidui"})}, net(S=30, W=-30), "S"),
        id="haohua_qidui-30-tier-2",
    ),
    pytest.param(
        hand(win("S", "1111m5555p33m22s99s", "9s", discarder="W")),
        # two fours (1m, 5p): 豪华双7对 60; W pays 60
        expect({"S": (60, {"haohua_shuang_qidui"})}, net(S=60, W=-60), "S"),
        id="haohua_shuang_qidui-60-tier-3",
    ),
    pytest.param(
        hand(win("S", "1111m5555p2222s99s", "9s", discarder="W")),
        # three fours (1m, 5p, 2s): 超豪华双7对 120; W pays 120
        expect({"S": (120, {"chaohaohua_shuang_qidui"})}, net(S=120, W=-120), "S"),
        id="chaohaohua_shuang_qidui-120-tier-4",
    ),
    pytest.param(
        hand(win("S", "234m567m345p789s22s", "5p", discarder="W")),
        # no set declared, no pattern: 门前清 5 = 5 (门前清 needs no self-draw); W pays 5
        expect({"S": (5, {"menqianqing"})}, net(S=5, W=-5), "S"),
        id="menqianqing-5",
    ),
    pytest.param(
        hand(
            win("S", BASE_CON, "5p", discarder="W", melds=[kong("9s", "N")], flowers=F4),
            kongs=[kong_entry("S", "exposed", "N")],
        ),
        # 一杠 (kong at once on N's discard): 4 flower tiles + 明杠 1 + 门前清 5 = 10; W pays 10
        expect({"S": (10, {"minggang", "menqianqing"})}, net(S=10, W=-10), "S"),
        id="menqianqing-kept-with-yigang",
    ),
    pytest.param(
        hand(
            win(
                "S",
                BASE_CON,
                "5p",
                discarder="W",
                melds=[kong("9s", "N", upgraded=True)],
                flowers=F4,
            ),
            kongs=[kong_entry("S", "upgraded", "N")],
        ),
        # 二杠 (pong of N's 9s upgraded): 4 flower tiles + 明杠 1 = 5, 门前清 lost; W pays 5
        expect({"S": (5, {"minggang"})}, net(S=5, W=-5), "S"),
        id="menqianqing-lost-with-upgraded-kong",
    ),
    # ================================================================ who pays
    pytest.param(
        hand(base(discarder=None)),
        # self-drawn, T = 5 flower tiles: E, W, N pay 5 each
        expect({"S": (5, set())}, net(S=15, E=-5, W=-5, N=-5), "S"),
        id="self-drawn-each-other-seat-pays-T",
    ),
    pytest.param(
        hand(win("S", LIA_CON, "7p", discarder="N", liable="W", melds=LIA_MELDS, flowers=F5)),
        # three pongs fed by W: 包牌 on N's discard -> W pays T = 5 (flower tiles), N nothing
        expect({"S": (5, set())}, net(S=5, W=-5), "S"),
        id="baopai-liable-pays-T-on-a-discard",
    ),
    pytest.param(
        hand(win("S", LIA_CON, "7p", liable="W", melds=LIA_MELDS, flowers=F5)),
        # 包牌 self-drawn: W pays the three shares, 3 × 5 = 15
        expect({"S": (5, set())}, net(S=15, W=-15), "S"),
        id="baopai-liable-pays-3T-self-drawn",
    ),
    pytest.param(
        hand(
            base(discarder=None, flags=["robbing_kong"]),
            kongs=[kong_entry("W", "upgraded", "N", robbed=True)],
        ),
        # S robs W's added 5p (S held 34p): the konger W pays alone, one share, as if W
        # had discarded the tile (RULES.md, edge cases: 抢杠 in 工地)
        expect({"S": (5, set())}, net(S=5, W=-5), "S"),
        id="robbing-kong-paid-by-the-konger-one-share",
    ),
    pytest.param(
        hand(base(), win("N", MQ2, "5p", discarder="W")),
        # 一炮多响 on W's 5p: S T = 5 flower tiles; N 门前清 5; W pays 5 + 5
        expect(
            {"S": (5, set()), "N": (5, {"menqianqing"})},
            net(S=5, N=5, W=-10),
            "S",
        ),
        id="yipao-duoxiang-discarder-pays-each",
    ),
    pytest.param(
        hand(win("E", MQ2, "5p", discarder="W"), base()),
        # 一炮多响 with the dealer E among the winners: E 门前清 5, S 5 flower tiles; W pays 10;
        # the dealer won -> E stays
        expect(
            {"E": (5, {"menqianqing"}), "S": (5, set())},
            net(E=5, S=5, W=-10),
            "E",
        ),
        id="yipao-duoxiang-dealer-among-winners-stays",
    ),
    pytest.param(
        hand(),
        # 荒庄: no win, nothing paid; the deal passes E -> S
        expect({}, net(), "S"),
        id="drawn-hand-passes-the-deal",
    ),
    pytest.param(
        hand(kongs=[flower_kong("N")], penalties=[follow("E")]),
        # 荒庄 still pays: N's flower set 5 from E, S, W; E's follow penalty 5 to S, W, N.
        # E -5-15 = -20; S -5+5 = 0; W -5+5 = 0; N +15+5 = 20
        expect({}, net(E=-20, N=20), "S"),
        id="drawn-hand-still-pays-flower-set-and-penalty",
    ),
    pytest.param(
        hand(base(seat="E")),
        # the dealer E wins on W's discard (T = 5): E stays
        expect({"E": (5, set())}, net(E=5, W=-5), "E"),
        id="dealer-wins-stays",
    ),
    pytest.param(
        hand(base(), dealer="N"),
        # N deals, S wins: the deal passes to N's right, E
        expect({"S": (5, set())}, net(S=5, W=-5), "E"),
        id="non-dealer-win-passes-deal-north-to-east",
    ),
    pytest.param(
        hand(base(), penalties=[follow("E")]),
        # W pays the win 5; E (first of four to follow) pays 5 to S, W, N:
        # S 5+5 = 10; W -5+5 = 0; N +5; E -15
        expect({"S": (5, set())}, net(S=10, E=-15, N=5), "S"),
        id="penalty-follow-5-to-each",
    ),
    pytest.param(
        hand(base(), penalties=[four_discards("N"), follow("W"), follow("W")]),
        # win: W -5, S +5; four_discards N: N -15, E S W +5; follow twice by W: W -30,
        # E S N +10. E 15; S 5+5+10 = 20; W -5+5-30 = -30; N -15+10 = -5
        expect({"S": (5, set())}, net(E=15, S=20, W=-30, N=-5), "S"),
        id="penalty-four-discards-and-follow-twice",
    ),
    pytest.param(
        hand(
            base(),
            kongs=[
                kong_entry("W", "exposed", "N"),
                kong_entry("N", "concealed"),
                kong_entry("E", "upgraded", "S"),
            ],
        ),
        # other seats' kongs are worth nothing in 工地 (no kong money): only W pays the 5
        expect({"S": (5, set())}, net(S=5, W=-5), "S"),
        id="no-kong-money",
    ),
    # ================================================================ 诈糊 / 相公
    pytest.param(
        hand(base(), false_wins=["N"]),
        # N made a false win: N pays S's discard win T = 5 in W's place
        expect({"S": (5, set())}, net(S=5, N=-5), "S"),
        id="zhahu-false-winner-pays-a-discard-win",
    ),
    pytest.param(
        hand(base(discarder=None), false_wins=["N"]),
        # self-drawn: N pays all three shares, 3 × 5 = 15
        expect({"S": (5, set())}, net(S=15, N=-15), "S"),
        id="zhahu-false-winner-pays-3T-self-drawn",
    ),
    pytest.param(
        hand(
            win("S", LIA_CON, "7p", liable="W", melds=LIA_MELDS, flowers=F5),
            false_wins=["E", "N"],
        ),
        # first listed false winner E pays in place of the liable W: 3 × 5 = 15
        expect({"S": (5, set())}, net(S=15, E=-15), "S"),
        id="zhahu-first-listed-pays-in-place-of-liable",
    ),
    pytest.param(
        hand(
            base(),
            kongs=[flower_kong("N"), flower_kong("E"), flower_kong("W")],
            false_wins=["N"],
            dead_hands=["E"],
        ),
        # N (诈糊) pays S's win 5; N's and E's (相公) flower sets collect nothing; W's set: 5
        # from E, S, N. S 5-5 = 0; W +15; E -5; N -5-5 = -10
        expect({"S": (5, set())}, net(W=15, E=-5, N=-10), "S"),
        id="zhahu-and-xianggong-collect-no-flower-set-money",
    ),
    pytest.param(
        hand(base(), dead_hands=["N"]),
        # a 相公 pays nothing in anyone's place: W pays its own discard, 5
        expect({"S": (5, set())}, net(S=5, W=-5), "S"),
        id="xianggong-does-not-pay-for-others",
    ),
    # ================================================================ 过水
    pytest.param(
        hand(base(passed="3p6p4p5m2s8m")),
        # 5p is on the 2-5-8 road; 3p 6p (3-6-9) and 4p (1-4-7) are other roads, 5m 2s 8m other
        # suits: accepted, T = 5
        expect({"S": (5, set())}, net(S=5, W=-5), "S"),
        id="guoshui-other-road-accepted",
    ),
    pytest.param(
        hand(base(discarder=None, passed="5p")),
        # self-drawn wins are not checked for 过水: T = 5, 3 × 5
        expect({"S": (5, set())}, net(S=15, E=-5, W=-5, N=-5), "S"),
        id="guoshui-self-drawn-not-checked",
    ),
    pytest.param(
        hand(win("S", WIND_PAIR, "1z", discarder="W", melds=BASE_MELDS, flowers=F5, passed="4z")),
        # winds only match themselves (北 passed, 东 won): accepted; a wind pair scores
        # nothing: T = 5 flower tiles
        expect({"S": (5, set())}, net(S=5, W=-5), "S"),
        id="guoshui-wind-matches-only-itself-accepted",
    ),
    # ================================================================ unused flags
    pytest.param(
        hand(win("S", "234m567m345p789s22s", "5p", flowers="1f", flags=["dihu"])),
        # dihu scores nothing in 工地: 1 flower tile + 门前清 5 = 6;
        # self-drawn: 3 × 6 = 18 (after_flower is 杠上开花 here: test_rules_text)
        expect(
            {"S": (6, {"menqianqing"})},
            net(S=18, E=-6, W=-6, N=-6),
            "S",
        ),
        id="unused-flag-dihu-scores-nothing",
    ),
]


# --------------------------------------------------------------------------- refused
# (record, field): field is the expected `err.field` where the rules make it obvious.

KUAIZHAO = win(
    "S",
    "7m",
    "3s",
    liable="W",
    melds=[pong("2m", "W"), pong("5p", "W"), pong("8s", "W"), pong("3s", "N")],
    flowers=F5,
    flags=["kuaizhao"],
)

REFUSED = [
    pytest.param(hand(base(flowers=F4)), None, id="refuse-T-4-below-5"),
    pytest.param(hand(base(), false_wins=["S"]), None, id="refuse-false-winner-wins"),
    pytest.param(hand(base(), dead_hands=["S"]), None, id="refuse-xianggong-wins"),
    pytest.param(hand(base(passed="5p")), "wins[0].passed", id="refuse-guoshui-same-tile"),
    pytest.param(hand(base(passed="2p")), "wins[0].passed", id="refuse-guoshui-tonglu-2p"),
    pytest.param(
        hand(win("S", WIND_PAIR, "1z", discarder="W", melds=BASE_MELDS, flowers=F5, passed="1z")),
        "wins[0].passed",
        id="refuse-guoshui-same-wind",
    ),
    pytest.param(hand(base(), doubled=True), "doubled", id="refuse-doubled"),
    pytest.param(
        hand(
            base(),
            garden={
                "size": 100,
                "left": {"E": 100, "S": 100, "W": 100, "N": 100},
                "end_when_out": 2,
            },
        ),
        "garden",
        id="refuse-garden",
    ),
    pytest.param(hand(KUAIZHAO), None, id="refuse-kuaizhao"),
]


# --------------------------------------------------------------------------- tests


@pytest.mark.parametrize(("record", "expected"), CASES)
def test_worked_case(record: dict, expected: dict) -> None:
    result = score(copy.deepcopy(record))

    assert result["format"] == "mahjong-result/1"
    assert result["ruleset"] == RULESET
    wins = {w["seat"]: w for w in result["wins"]}
    assert set(wins) == set(expected["wins"])
    for seat, (value, features) in expected["wins"].items():
        got = wins[seat]
        assert got["value"] == value, (seat, got.get("breakdown"))
        assert set(got["features"]) == features, (seat, got["features"], got.get("breakdown"))
        assert "hard_flowers" not in got["features"]
        assert sum(line["points"] for line in got["breakdown"]) == got["value"]
        codes = [line["code"] for line in got["breakdown"]]
        assert set(codes) - {"hard_flowers"} == features, codes

    assert result["net"] == expected["net"], result.get("payments")
    assert sum(result["net"].values()) == 0
    from_payments = dict.fromkeys(SEATS, 0)
    for p in result["payments"]:
        from_payments[p["from"]] -= p["amount"]
        from_payments[p["to"]] += p["amount"]
    assert from_payments == result["net"]

    assert result["next"] == {"dealer": expected["next"], "doubled": False}


@pytest.mark.parametrize(("record", "field"), REFUSED)
def test_refused(record: dict, field: str | None) -> None:
    with pytest.raises(ScoringError) as caught:
        score(copy.deepcopy(record))
    assert isinstance(caught.value, ValueError)
    if field is not None:
        assert caught.value.field == field, str(caught.value)


# --------------------------------------------------------------------------- self-check
# The engine plays no part here: every record above must itself obey the tile rules of
# HAND_RECORD.md, so that a failure above is about scoring, not a bad fixture.

FLOWER_SETS = (
    ("5z",) * 4,
    ("6z",) * 4,
    ("7z",) * 4,
    ("1f", "2f", "3f", "4f"),
    ("5f", "6f", "7f", "8f"),
)


def _tiles(text: str) -> list[str]:
    out: list[str] = []
    digits = ""
    for ch in text:
        if ch.isdigit():
            digits += ch
        else:
            assert ch in "mpszf" and digits, text
            out += [d + ch for d in digits]
            digits = ""
    assert not digits, text
    for t in out:
        suit, n = t[1], int(t[0])
        assert (1 <= n <= 9) if suit in "mps" else (1 <= n <= 7) if suit == "z" else 1 <= n <= 8, t
    return out


def _complete_flower_sets(flowers: list[str]) -> int:
    count = Counter(flowers)
    return sum(all(count[t] >= s.count(t) for t in s) for s in FLOWER_SETS)


def check_record(record: dict) -> None:
    """Tile counts, kong entries and flower sets of a record, as HAND_RECORD.md asks."""
    assert record["ruleset"] == RULESET
    copies: Counter = Counter()
    discarders = {w["discarder"] for w in record["wins"]}
    for w in record["wins"]:
        concealed = _tiles(w["concealed"])
        melds = w["melds"]
        playing = concealed + [m["tile"] for m in melds]
        # 中发白 and 1f-8f are flowers only
        assert not [t for t in playing if t in ("5z", "6z", "7z") or t.endswith("f")], playing
        if "kuaizhao" in w["flags"]:
            assert len(melds) == 4 and 1 <= len(concealed) <= 2
            assert w["winning_tile"] == melds[-1]["tile"]
        else:
            assert len(concealed) == 14 - 3 * len(melds), (w["seat"], len(concealed))
            assert w["winning_tile"] in concealed
        copies.update(concealed)
        for m in melds:
            assert m["type"] in ("pong", "kong")
            if m["type"] == "pong":
                assert m["from"] is not None and not m["upgraded"]
            copies[m["tile"]] += 4 if m["type"] == "kong" else 3
        flowers = _tiles(w["flowers"])
        assert all(t.endswith("f") or t in ("5z", "6z", "7z") for t in flowers), flowers
        assert all(n == 1 for t, n in Counter(flowers).items() if t.endswith("f")), flowers
        copies.update(flowers)
        # kong melds <-> that seat's kongs entries, one for one
        entries = sorted(
            (k["type"], k["from"])
            for k in record["kongs"]
            if k["seat"] == w["seat"] and k["type"] != "flower"
        )
        from_melds = sorted(
            (
                "concealed" if m["from"] is None else "upgraded" if m["upgraded"] else "exposed",
                m["from"],
            )
            for m in melds
            if m["type"] == "kong"
        )
        assert entries == from_melds, (w["seat"], entries, from_melds)
        # every complete flower set held by a winner has its own flower kong
        flower_kongs = [
            k for k in record["kongs"] if k["seat"] == w["seat"] and k["type"] == "flower"
        ]
        assert len(flower_kongs) == _complete_flower_sets(flowers), w["seat"]
        # chains: after_kong needs that many kongs of the winner, kong_discard of the discarder
        chain = w.get("kong_chain", 1)
        if "after_kong" in w["flags"]:
            assert w["discarder"] is None
            assert sum(m["type"] == "kong" for m in melds) >= chain
        if "kong_discard" in w["flags"]:
            assert sum(k["seat"] == w["discarder"] for k in record["kongs"]) >= chain
        if "tianhu" in w["flags"]:
            assert w["seat"] == record["dealer"] and w["discarder"] is None and not melds
        assert w["seat"] not in (w["discarder"], w["liable"])
    if len(record["wins"]) > 1:
        # 一炮多响: one shared discarder and winning tile, counted once
        assert len(discarders) == 1 and None not in discarders
        shared = {w["winning_tile"] for w in record["wins"]}
        assert len(shared) == 1
        copies[shared.pop()] -= len(record["wins"]) - 1
    assert max(copies.values(), default=0) <= 4, copies.most_common(3)
    # all 20 flower tiles at most once for 1f-8f, four times for 中发白 (checked above)


@pytest.mark.parametrize(
    "record",
    [p.values[0] for p in CASES] + [p.values[0] for p in REFUSED],
    ids=[p.id for p in CASES] + [p.id for p in REFUSED],
)
def test_fixture_is_well_formed(record: dict) -> None:
    check_record(record)
