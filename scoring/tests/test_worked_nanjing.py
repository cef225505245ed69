"""Worked 南京 cases (`nanjing`, `nanjing-classic`, 进园子), computed by hand.

Written from /work/shared/RULES.md and HAND_RECORD.md only, without reading the
engine, so that a misreading of the rules on either side shows up as a failure.
Every legal case carries its arithmetic in a comment:

    T = 2 × (H + S) + 20 (跑20) + bonuses, × 2 when `doubled` (比下胡).

Conventions used below: the dealer is E unless a case says otherwise; "next"
is (dealer, doubled) of the following hand. Waits claimed in the comments were
checked by enumerating every tile kind against the hand before the win.
"""

from __future__ import annotations

import copy
from collections import Counter

import pytest

from scoring import ScoringError, score

SEATS = ("E", "S", "W", "N")


# --------------------------------------------------------------------------- builders
# They only spell out the full record of HAND_RECORD.md; no defaults are relied on.


def pong(tile: str, frm: str) -> dict:
    return {"type": "pong", "tile": tile, "from": frm, "upgraded": False}


def kong(tile: str, frm: str | None = None, upgraded: bool = False) -> dict:
    """An exposed kong (`frm` = feeder), an upgraded pong (二杠) or, with frm None, concealed."""
    return {"type": "kong", "tile": tile, "from": frm, "upgraded": upgraded}


def kong_entry(seat: str, kind: str, frm: str | None = None, robbed: bool = False) -> dict:
    return {"seat": seat, "type": kind, "from": frm, "robbed": robbed}


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
) -> dict:
    return {
        "seat": seat,
        "discarder": discarder,
        "liable": liable,
        "concealed": concealed,
        "melds": list(melds),
        "winning_tile": winning_tile,
        "flowers": flowers,
        "flags": list(flags),
    }


def hand(
    *wins: dict,
    ruleset: str = "nanjing",
    dealer: str = "E",
    doubled: bool = False,
    kongs: tuple | list = (),
    penalties: tuple | list = (),
    garden: dict | None = None,
) -> dict:
    record = {
        "format": "mahjong-hand/1",
        "ruleset": ruleset,
        "dealer": dealer,
        "doubled": doubled,
        "wins": list(wins),
        "kongs": list(kongs),
        "penalties": list(penalties),
        "false_wins": [],
        "dead_hands": [],
    }
    if garden is not None:
        record["garden"] = garden
    return record


def net(**amounts: int) -> dict:
    return {seat: amounts.get(seat, 0) for seat in SEATS}


def garden(left: dict, end_when_out: int = 2, size: int = 100) -> dict:
    return {"size": size, "left": dict(left), "end_when_out": end_when_out}


def follow(seat: str) -> dict:
    return {"type": "follow", "seat": seat}


def four_discards(seat: str) -> dict:
    return {"type": "four_discards", "seat": seat}


def with_keys(record: dict, **changes) -> dict:
    """A copy of a record with top-level keys replaced or added."""
    out = copy.deepcopy(record)
    out.update(changes)
    return out


def with_win_keys(record: dict, index: int = 0, **changes) -> dict:
    """A copy of a record with keys of one win replaced or added."""
    out = copy.deepcopy(record)
    out["wins"][index].update(changes)
    return out


# --------------------------------------------------------------------------- stock hands

# The contract's own hand (HAND_RECORD.md): 234m 567m 999m 111p + 5p, pair wait on 5p only
# (独占); 条 absent (缺一); no pong (门清).
MQ = "234m567m999m111p55p"

# A small non-门清 hand: pong of 东 (风碰) + 234m 678m 345p 77s; 67m waits 5m/8m, so no wait
# flower; all three suits present, so no 缺一. S = 1.
P_CON = "234m678m345p77s"
P_MELDS = (pong("1z", "W"),)

# 234m 567m 111p 55p beside a kong of 9s: pair wait on 5p only (独占), all suits present.
K_CON = "234m567m111p55p"

# 快照 sets: three mouths fed by W (1m, 9m, 东), the fourth (5m) from N.
KZ_MELDS = (pong("1m", "W"), pong("9m", "W"), pong("2z", "W"), pong("5m", "N"))
# Three mouths fed by W, then a complete hand won on a discard: 555m + 77m (waits 6m/7m).
KZD_MELDS = (pong("1m", "W"), pong("9m", "W"), pong("2z", "W"))

# Second winner of the 一炮多响 cases: 123s 456s 789s 东东 + 34p waiting 2p/5p; 万 absent.
W2_CON = "123s456s789s11z345p"


# --------------------------------------------------------------------------- legal cases
# expected: {"wins": {seat: (value, features)}, "net": ..., "next": (dealer, doubled),
#            optional "left", "garden_over"}. `features` is a set of codes, or a dict
#            {"include": set, "exclude": set} where RULES.md names no code.

CASES = [
    # ---- the contract's worked example
    pytest.param(
        hand(win("S", MQ, "5p", discarder="E", flowers="1f5z6z7z")),
        # 2*(4 H + 1 duzhan + 1 queyi) + 20 + 20 menqing = 52; E pays; no 比下胡 -> S deals
        {
            "wins": {"S": (52, {"duzhan", "queyi", "menqing"})},
            "net": net(E=-52, S=52),
            "next": ("S", False),
        },
        id="contract-example-52",
    ),
    # ---- 门清
    pytest.param(
        hand(
            win("S", K_CON, "5p", discarder="E", melds=[kong("9s", "W")], flowers="1f2f3f5f"),
            kongs=[kong_entry("S", "exposed", "W")],
        ),
        # 一杠 keeps 门清: 2*(4 H + 1 duzhan) + 20 + 20 menqing = 50; E pays 50; W fed kong 6
        {
            "wins": {"S": (50, {"duzhan", "menqing"})},
            "net": net(E=-50, S=56, W=-6),
            "next": ("S", False),
        },
        id="nanjing-menqing-yigang-keeps",
    ),
    pytest.param(
        hand(
            win(
                "S",
                K_CON,
                "5p",
                discarder="E",
                melds=[kong("9s", "W", upgraded=True)],
                flowers="1f2f3f5f",
            ),
            kongs=[kong_entry("S", "upgraded", "W")],
        ),
        # 二杠 loses 门清: 2*(4 H + 1 duzhan) + 20 = 30; E pays 30; W fed the pong, pays 6
        {"wins": {"S": (30, {"duzhan"})}, "net": net(E=-30, S=36, W=-6), "next": ("S", False)},
        id="nanjing-menqing-ergang-upgraded-loses",
    ),
    pytest.param(
        hand(
            win("S", K_CON, "5p", discarder="E", melds=[kong("9s")], flowers="1f2f3f5f"),
            kongs=[kong_entry("S", "concealed")],
        ),
        # concealed kong keeps 门清: 2*(4 + 1 duzhan) + 20 + 20 = 50; E pays 50;
        # kong 3 from each of E, W, N -> E -53, W -3, N -3, S +59
        {
            "wins": {"S": (50, {"duzhan", "menqing"})},
            "net": net(E=-53, S=59, W=-3, N=-3),
            "next": ("S", False),
        },
        id="nanjing-menqing-concealed-kong-keeps",
    ),
    # ---- legal-win rule and plain payments
    pytest.param(
        hand(win("S", P_CON, "8m", discarder="N", melds=P_MELDS, flowers="2f3f4f5f")),
        # not 门清, no big hand, H = 4 is enough: 2*(4 H + 1 feng_peng) + 20 = 30; N pays
        {"wins": {"S": (30, {"feng_peng"})}, "net": net(N=-30, S=30), "next": ("S", False)},
        id="nanjing-small-hand-h4-legal-discard",
    ),
    pytest.param(
        hand(win("S", P_CON, "8m", melds=P_MELDS, flowers="2f3f4f5f")),
        # self-drawn: 2*(4 + 1 feng_peng) + 20 = 30, each of E, W, N pays 30
        {
            "wins": {"S": (30, {"feng_peng"})},
            "net": net(E=-30, S=90, W=-30, N=-30),
            "next": ("S", False),
        },
        id="nanjing-self-drawn-each-pays",
    ),
    # ---- 无花果
    pytest.param(
        hand(win("S", MQ, "5p", discarder="E", flowers="")),
        # H = 0 with 门清: 2*(0 + 1 duzhan + 1 queyi) + 20 + 20 menqing + 40 wuhuaguo = 84;
        # 无花果 is a big hand (色子胡) -> 比下胡: E stays, doubled
        {
            "wins": {"S": (84, {"duzhan", "queyi", "menqing", "wuhuaguo"})},
            "net": net(E=-84, S=84),
            "next": ("E", True),
        },
        id="nanjing-wuhuaguo-with-menqing",
    ),
    pytest.param(
        hand(
            win(
                "S",
                "222m555s77m",
                "7m",
                discarder="E",
                melds=[pong("1z", "W"), pong("9p", "N")],
                flowers="",
            )
        ),
        # 对对胡 with H = 0; 222m 555s + 7m waits on 7m only (独占); all suits present.
        # 2*(0 + 1 feng_peng + 1 duzhan) + 20 + 40 duiduihu + 40 wuhuaguo = 104
        {
            "wins": {"S": (104, {"feng_peng", "duzhan", "duiduihu", "wuhuaguo"})},
            "net": net(E=-104, S=104),
            "next": ("E", True),
        },
        id="nanjing-wuhuaguo-with-big-hand",
    ),
    # ---- 对对胡, 混一色, 清一色, 全球独钓
    pytest.param(
        hand(win("S", "22277m333555s", "3s", melds=[pong("9p", "N")], flowers="1f2f3f5z")),
        # 双碰 wait 7m/3s: no wait flower; all suits: no 缺一. 2*(4 + 0) + 20 + 40 duiduihu = 68;
        # self-drawn, each pays 68; big hand -> E stays, doubled
        {
            "wins": {"S": (68, {"duiduihu"})},
            "net": net(E=-68, S=204, W=-68, N=-68),
            "next": ("E", True),
        },
        id="nanjing-duiduihu-two-waits-no-flower",
    ),
    pytest.param(
        hand(win("S", "123456789m55m", "5m", discarder="N", melds=[pong("2z", "W")], flowers="6f")),
        # 万 + winds: 混一色; 条 and 饼 absent: two suits lack, so no 缺一 (exactly one must);
        # 123456789m + 5m waits on 5m only.
        # 2*(1 H + 1 feng_peng + 1 duzhan) + 20 + 40 hunyise = 66
        {
            "wins": {"S": (66, {"feng_peng", "duzhan", "hunyise"})},
            "net": net(N=-66, S=66),
            "next": ("E", True),
        },
        id="nanjing-hunyise-two-suits-absent-no-queyi",
    ),
    pytest.param(
        hand(
            win(
                "S", "123m345m678m22m", "8m", discarder="W", melds=[pong("9m", "E")], flowers="1f2f"
            )
        ),
        # 清一色 万; waits 2m/5m/8m (no wait flower); a one-suit hand gets no 缺一.
        # 2*(2 H) + 20 + 60 qingyise = 84
        {"wins": {"S": (84, {"qingyise"})}, "net": net(W=-84, S=84), "next": ("E", True)},
        id="nanjing-qingyise-no-queyi",
    ),
    pytest.param(
        hand(
            win(
                "S",
                "77s",
                "7s",
                discarder="E",
                melds=[pong("1m", "W"), pong("9p", "N"), pong("5s", "E"), pong("2z", "W")],
                flowers="1f2f5z5z",
            )
        ),
        # all four sets exposed, one tile left: 全球独钓 (+ 对对胡); 独占 counts beside it.
        # 2*(4 H + 1 feng_peng + 1 duzhan) + 20 + 40 duiduihu + 60 quanqiu_dudiao = 132
        {
            "wins": {"S": (132, {"feng_peng", "duzhan", "duiduihu", "quanqiu_dudiao"})},
            "net": net(E=-132, S=132),
            "next": ("E", True),
        },
        id="nanjing-quanqiu-dudiao-with-duzhan",
    ),
    # ---- 七对 and its tiers (only H and 缺一 count; no 门清; no wait flower)
    pytest.param(
        hand(win("S", "114477m225588p33z", "8p", discarder="N", flowers="8f")),
        # 2*(1 H + 1 queyi) + 20 + 80 qidui = 104 (no duzhan, no menqing, wind pair nothing)
        {"wins": {"S": (104, {"qidui", "queyi"})}, "net": net(N=-104, S=104), "next": ("E", True)},
        id="nanjing-qidui-only-h-and-queyi",
    ),
    pytest.param(
        hand(win("S", "1133557799m1122z", "9m", flowers="")),
        # 七对 of 万 + winds: 混一色 applies to seven pairs; H = 0 with a big hand: 无花果.
        # one suit: no 缺一. 2*0 + 20 + 80 qidui + 40 hunyise + 40 wuhuaguo = 180; self-drawn x3
        {
            "wins": {"S": (180, {"qidui", "hunyise", "wuhuaguo"})},
            "net": net(E=-180, S=540, W=-180, N=-180),
            "next": ("E", True),
        },
        id="nanjing-qidui-hunyise-wuhuaguo",
    ),
    pytest.param(
        hand(win("S", "11113355m2266p44z", "6p", discarder="W", flowers="1f8f")),
        # one concealed four-of-a-kind (1111m): 2*(2 + 1 queyi) + 20 + 160 haohua = 186
        {
            "wins": {"S": (186, {"haohua_qidui", "queyi"})},
            "net": net(W=-186, S=186),
            "next": ("E", True),
        },
        id="nanjing-haohua-qidui-160",
    ),
    pytest.param(
        hand(win("S", "11115555m2266p44z", "2p", discarder="N", flowers="1f8f")),
        # two fours (1111m 5555m): 2*(2 + 1 queyi) + 20 + 240 = 266
        {
            "wins": {"S": (266, {"chaohaohua_qidui", "queyi"})},
            "net": net(N=-266, S=266),
            "next": ("E", True),
        },
        id="nanjing-chaohaohua-qidui-240",
    ),
    pytest.param(
        hand(win("S", "11115555m2222p44z", "4z", flowers="1f8f")),
        # three fours: 2*(2 + 1 queyi) + 20 + 320 = 346; self-drawn x3 = 1038
        {
            "wins": {"S": (346, {"chaochaohaohua_qidui", "queyi"})},
            "net": net(E=-346, S=1038, W=-346, N=-346),
            "next": ("E", True),
        },
        id="nanjing-chaochaohaohua-qidui-320",
    ),
    pytest.param(
        hand(win("S", "11115599m226688p", "1m", flowers="2f3f")),
        # 111m held, fourth 1m self-drawn: after the win the hand holds a concealed four.
        # 2*(2 + 1 queyi) + 20 + 160 haohua = 186; self-drawn x3 = 558
        {
            "wins": {"S": (186, {"haohua_qidui", "queyi"})},
            "net": net(E=-186, S=558, W=-186, N=-186),
            "next": ("E", True),
        },
        id="nanjing-haohua-qidui-fourth-self-drawn",
    ),
    # ---- 压绝 (replaces the 边枝 / 压档 flower)
    pytest.param(
        hand(
            win(
                "S", "123m456p789p55p", "3m", discarder="W", melds=[pong("3m", "N")], flowers="1f2f"
            )
        ),
        # 12m waits on 3m only (边枝) and 3m is ponged by the winner: 压绝, no 边枝 flower.
        # 2*(2 H + 1 queyi) + 20 + 40 yajue = 66 (big hand, so H = 2 is enough)
        {"wins": {"S": (66, {"yajue", "queyi"})}, "net": net(W=-66, S=66), "next": ("E", True)},
        id="nanjing-yajue-on-bianzhi",
    ),
    pytest.param(
        hand(win("S", "123m456m11m789s", "8s", melds=[pong("8s", "E")], flowers="1f2f3f")),
        # 79s waits on 8s only (压档), 8s ponged: 压绝. 2*(3 + 1 queyi) + 20 + 40 = 68; x3
        {
            "wins": {"S": (68, {"yajue", "queyi"})},
            "net": net(E=-68, S=204, W=-68, N=-68),
            "next": ("E", True),
        },
        id="nanjing-yajue-on-yadang",
    ),
    # ---- soft flowers
    pytest.param(
        hand(win("S", "123m456m789s333p55p", "8s", discarder="E", flowers="7z")),
        # 79s waits on 8s only: 压档. 门清 makes H = 1 legal.
        # 2*(1 H + 1 yadang) + 20 + 20 menqing = 44
        {"wins": {"S": (44, {"yadang", "menqing"})}, "net": net(E=-44, S=44), "next": ("S", False)},
        id="nanjing-yadang",
    ),
    pytest.param(
        hand(win("S", "123m456p789p55s", "3m", discarder="N", melds=P_MELDS, flowers="1f2f3f5f")),
        # 12m waits on 3m only: 边枝 (low edge). 2*(4 + 1 feng_peng + 1 bianzhi) + 20 = 32
        {
            "wins": {"S": (32, {"feng_peng", "bianzhi"})},
            "net": net(N=-32, S=32),
            "next": ("S", False),
        },
        id="nanjing-bianzhi-low-edge",
    ),
    pytest.param(
        hand(win("S", "789s111m234m567p99p", "7s", flowers="2f3f")),
        # 89s waits on 7s only: 边枝 (high edge). 2*(2 + 1 bianzhi) + 20 + 20 menqing = 46; x3
        {
            "wins": {"S": (46, {"bianzhi", "menqing"})},
            "net": net(E=-46, S=138, W=-46, N=-46),
            "next": ("S", False),
        },
        id="nanjing-bianzhi-high-edge",
    ),
    pytest.param(
        hand(win("S", "11123m456p789p", "3m", discarder="E", melds=P_MELDS, flowers="1f2f3f5f")),
        # 1112m waits 2m and 3m: more than one tile, no 边枝. 条 absent: 缺一.
        # 2*(4 + 1 feng_peng + 1 queyi) + 20 = 32
        {
            "wins": {"S": (32, {"feng_peng", "queyi"})},
            "net": net(E=-32, S=32),
            "next": ("S", False),
        },
        id="nanjing-two-tile-wait-no-wait-flower",
    ),
    pytest.param(
        hand(
            win(
                "S",
                "11123m456p789p",
                "3m",
                discarder="E",
                melds=[pong("2m", "W")],
                flowers="1f2f3f5f6f",
            )
        ),
        # same 1112m, but the winner's pong of 2m + the 2m in hand are all four 2m: 2m leaves
        # the wait set, which is {3m} alone -> 边枝 counts (3m is not ponged: no 压绝).
        # 2*(5 H + 1 bianzhi + 1 queyi) + 20 = 34
        {"wins": {"S": (34, {"bianzhi", "queyi"})}, "net": net(E=-34, S=34), "next": ("S", False)},
        id="nanjing-wait-set-excludes-kind-held-four",
    ),
    pytest.param(
        hand(
            win(
                "S",
                "234m678m77s",
                "8m",
                discarder="E",
                melds=[pong("1z", "W"), pong("4z", "N")],
                flowers="1f2f3f5f",
            )
        ),
        # two wind pongs + 缺一 (饼 absent): 2*(4 + 2 feng_peng + 1 queyi) + 20 = 34
        {
            "wins": {"S": (34, {"feng_peng", "queyi"})},
            "net": net(E=-34, S=34),
            "next": ("S", False),
        },
        id="nanjing-feng-peng-each-wind-pong",
    ),
    pytest.param(
        hand(win("S", "222z234m678m345p77s", "8m", discarder="W", flowers="3f")),
        # a concealed wind triplet is no 风碰: 2*(1 + 0) + 20 + 20 menqing = 42
        {"wins": {"S": (42, {"menqing"})}, "net": net(W=-42, S=42), "next": ("S", False)},
        id="nanjing-concealed-wind-triplet-no-feng-peng",
    ),
    pytest.param(
        hand(
            win("S", P_CON, "8m", discarder="E", melds=[kong("3z", "N")], flowers="1f2f"),
            kongs=[kong_entry("S", "exposed", "N")],
        ),
        # exposed wind kong (一杠, keeps 门清): 2*(2 + 2 feng_gang) + 20 + 20 = 48; N fed kong 6
        {
            "wins": {"S": (48, {"feng_gang", "menqing"})},
            "net": net(E=-48, S=54, N=-6),
            "next": ("S", False),
        },
        id="nanjing-feng-gang-exposed-2",
    ),
    pytest.param(
        hand(
            win("S", P_CON, "8m", discarder="E", melds=[kong("4z")], flowers="1f2f"),
            kongs=[kong_entry("S", "concealed")],
        ),
        # concealed wind kong: 2*(2 + 3 feng_gang) + 20 + 20 = 50; kong 3 from each
        {
            "wins": {"S": (50, {"feng_gang", "menqing"})},
            "net": net(E=-53, S=59, W=-3, N=-3),
            "next": ("S", False),
        },
        id="nanjing-feng-gang-concealed-3",
    ),
    # ---- 杠开花, 天胡, 地胡
    pytest.param(
        hand(win("S", P_CON, "8m", melds=P_MELDS, flowers="2f3f4f5f", flags=["after_flower"])),
        # 2*(4 + 1 feng_peng) + 20 + 20 xiaogang = 50, x3; 小杠开花 is no 比下胡 trigger
        {
            "wins": {"S": (50, {"feng_peng", "xiaogang_kaihua"})},
            "net": net(E=-50, S=150, W=-50, N=-50),
            "next": ("S", False),
        },
        id="nanjing-xiaogang-kaihua",
    ),
    pytest.param(
        hand(
            win("S", K_CON, "5p", melds=[kong("9s")], flowers="1f2f3f5f", flags=["after_kong"]),
            kongs=[kong_entry("S", "concealed")],
        ),
        # 2*(4 + 1 duzhan) + 20 + 20 menqing + 40 dagang = 90, x3; kong 3 each:
        # E/W/N -93, S +279; 大杠开花 -> 比下胡
        {
            "wins": {"S": (90, {"duzhan", "menqing", "dagang_kaihua"})},
            "net": net(E=-93, S=279, W=-93, N=-93),
            "next": ("E", True),
        },
        id="nanjing-dagang-kaihua-concealed-kong",
    ),
    pytest.param(
        hand(
            win(
                "S",
                K_CON,
                "5p",
                liable="W",
                melds=[kong("9s", "W")],
                flowers="1f2f3f5f",
                flags=["after_kong"],
            ),
            kongs=[kong_entry("S", "exposed", "W")],
        ),
        # 大杠开花 on W's exposed kong: W liable, pays 3 x 90 = 270 + kong 6 = 276
        {
            "wins": {"S": (90, {"duzhan", "menqing", "dagang_kaihua"})},
            "net": net(W=-276, S=276),
            "next": ("E", True),
        },
        id="nanjing-dagang-kaihua-exposed-liable-pays-3t",
    ),
    pytest.param(
        hand(win("E", "234m678m345p111s99s", "8m", flowers="1f", flags=["tianhu"])),
        # dealer's opening hand, waits 5m/8m: 2*(1 + 0) + 20 + 20 menqing + 320 tianhu = 362,
        # each of S, W, N pays 362
        {
            "wins": {"E": (362, {"menqing", "tianhu"})},
            "net": net(E=1086, S=-362, W=-362, N=-362),
            "next": ("E", True),
        },
        id="nanjing-tianhu",
    ),
    pytest.param(
        hand(win("S", "234m678m345p111s99s", "8m", discarder="W", flowers="2f", flags=["dihu"])),
        # 2*(1 + 0) + 20 + 20 menqing + 280 dihu = 322; W pays
        {"wins": {"S": (322, {"menqing", "dihu"})}, "net": net(W=-322, S=322), "next": ("E", True)},
        id="nanjing-dihu",
    ),
    # ---- doubled hands, kong money, flower kongs, penalties
    pytest.param(
        hand(
            win("S", K_CON, "5p", melds=[kong("9s")], flowers="1f2f3f5f"),
            doubled=True,
            kongs=[kong_entry("S", "concealed")],
        ),
        # (2*(4 + 1 duzhan) + 20 + 20 menqing) x 2 = 100, x3; kong money 3 x 2 = 6 each:
        # E/W/N -106, S +318; nothing forms 比下胡 -> S deals, not doubled
        {
            "wins": {"S": (100, {"duzhan", "menqing"})},
            "net": net(E=-106, S=318, W=-106, N=-106),
            "next": ("S", False),
        },
        id="nanjing-doubled-value-and-kong-money",
    ),
    pytest.param(
        hand(
            win("S", P_CON, "8m", discarder="N", melds=P_MELDS, flowers="2f3f4f5f"),
            doubled=True,
            penalties=[follow("W")],
        ),
        # (2*(4 + 1) + 20) x 2 = 60 from N; penalty never doubled: W pays 6 to E, S, N
        # N -60+6 = -54, S +66, E +6, W -18; penalty -> 比下胡
        {
            "wins": {"S": (60, {"feng_peng"})},
            "net": net(E=6, S=66, W=-18, N=-54),
            "next": ("E", True),
        },
        id="nanjing-doubled-penalty-not-doubled",
    ),
    pytest.param(
        hand(
            kongs=[
                kong_entry("E", "exposed", "N"),
                kong_entry("W", "upgraded", "S"),
                kong_entry("N", "concealed"),
            ],
            penalties=[four_discards("S")],
        ),
        # drawn hand: N->E 6, S->W 6 (fed the pong), E/S/W -> N 3 each, S pays 6 to each:
        # E +6-3+6 = 9, S -6-3-18 = -27, W +6-3+6 = 9, N -6+9+6 = 9; 荒庄 -> E stays, doubled
        {"wins": {}, "net": net(E=9, S=-27, W=9, N=9), "next": ("E", True)},
        id="nanjing-drawn-hand-kongs-and-penalty",
    ),
    pytest.param(
        hand(dealer="W", doubled=True, kongs=[kong_entry("N", "flower")]),
        # doubled drawn hand: flower-kong money doubled too, 6 x 2 = 12 from each -> N +36;
        # the dealer W stays (荒庄), next doubled
        {"wins": {}, "net": net(E=-12, S=-12, W=-12, N=36), "next": ("W", True)},
        id="nanjing-doubled-drawn-hand-flower-kong-money-doubled",
    ),
    pytest.param(
        hand(
            win("S", MQ, "5p", discarder="E", flowers="1f5z6z7z", flags=["kong_discard"]),
            kongs=[kong_entry("E", "exposed", "N")],
        ),
        # kong_discard is accepted in 南京 and scores nothing: 52 as the contract;
        # N fed E's kong: 6. E -52+6 = -46, S +52, N -6
        {
            "wins": {"S": (52, {"duzhan", "queyi", "menqing"})},
            "net": net(E=-46, S=52, N=-6),
            "next": ("S", False),
        },
        id="nanjing-kong-discard-flag-scores-nothing",
    ),
    pytest.param(
        hand(
            win(
                "S",
                K_CON,
                "5p",
                melds=[kong("9s")],
                flowers="1f2f3f5f",
                flags=["after_flower", "after_kong"],
            ),
            kongs=[kong_entry("S", "concealed")],
        ),
        # both flags count both bonuses: 2*(4 + 1 duzhan) + 20 + 20 menqing + 20 + 40 = 110,
        # x3; kong 3 each: E/W/N -113, S +339
        {
            "wins": {"S": (110, {"duzhan", "menqing", "xiaogang_kaihua", "dagang_kaihua"})},
            "net": net(E=-113, S=339, W=-113, N=-113),
            "next": ("E", True),
        },
        id="nanjing-after-flower-and-after-kong-both-count",
    ),
    pytest.param(
        hand(
            win("S", MQ, "5p", discarder="E", flowers="1f5z6z7z"), kongs=[kong_entry("N", "flower")]
        ),
        # win 52 as the contract; N's flower kong: 6 from each of E, S, W
        # E -58, S +46, W -6, N +18; flower kong -> 比下胡
        {
            "wins": {"S": (52, {"duzhan", "queyi", "menqing"})},
            "net": net(E=-58, S=46, W=-6, N=18),
            "next": ("E", True),
        },
        id="nanjing-flower-kong-by-other-seat",
    ),
    pytest.param(
        hand(
            win("S", P_CON, "8m", discarder="E", melds=P_MELDS, flowers="1f2f3f4f7z"),
            kongs=[kong_entry("S", "flower")],
        ),
        # 春夏秋冬 + 中: H = 5; 2*(5 + 1 feng_peng) + 20 = 32 from E; flower kong 6 from each:
        # E -38, W -6, N -6, S +50
        {
            "wins": {"S": (32, {"feng_peng"})},
            "net": net(E=-38, S=50, W=-6, N=-6),
            "next": ("E", True),
        },
        id="nanjing-flower-kong-by-winner",
    ),
    pytest.param(
        hand(
            win("S", MQ, "5p", discarder="E", flowers="1f5z6z7z"),
            penalties=[follow("W"), four_discards("N")],
        ),
        # win 52; W pays 6 to E, S, N; N pays 6 to E, S, W
        # E -52+12 = -40, S +52+12 = 64, W -18+6 = -12, N +6-18 = -12
        {
            "wins": {"S": (52, {"duzhan", "queyi", "menqing"})},
            "net": net(E=-40, S=64, W=-12, N=-12),
            "next": ("E", True),
        },
        id="nanjing-penalties-6-each",
    ),
    pytest.param(
        hand(
            win("S", MQ, "5p", discarder="E", flowers="1f5z6z7z"),
            win("W", W2_CON, "5p", discarder="E", flowers="2f3f4f5f"),
        ),
        # 一炮多响: S 52; W: 2*(4 + 1 queyi) + 20 + 20 menqing = 50 (34p waits 2p/5p);
        # E pays both: -102; several winners -> 比下胡
        {
            "wins": {"S": (52, {"duzhan", "queyi", "menqing"}), "W": (50, {"queyi", "menqing"})},
            "net": net(E=-102, S=52, W=50),
            "next": ("E", True),
        },
        id="nanjing-yipao-duoxiang",
    ),
    # ---- 包牌: 抢杠, 快照
    pytest.param(
        hand(
            win(
                "W",
                "345m123p678p999s11s",
                "3m",
                liable="N",
                flowers="1f2f5z6z",
                flags=["robbing_kong"],
            ),
            kongs=[kong_entry("N", "upgraded", "E", robbed=True)],
        ),
        # W robs N's upgrade of 3m (45m waits 3m/6m): 2*(4 + 0) + 20 + 20 menqing = 48;
        # counts as self-drawn, N liable pays 3 x 48 = 144; the robbed kong earns nothing;
        # 抢杠 is a 包牌 -> 比下胡
        {"wins": {"W": (48, {"menqing"})}, "net": net(N=-144, W=144), "next": ("E", True)},
        id="nanjing-robbing-kong-liable-pays-3t",
    ),
    pytest.param(
        hand(
            win("S", "3p7s", "5m", liable="W", melds=KZ_MELDS, flowers="1f2f", flags=["kuaizhao"])
        ),
        # 快照: sets 1m 9m 东 5m -> 混一色 judged on the sets, so no 缺一 (hand tiles 3p 7s
        # ignored); no wait flower. 2*(2 H + 1 feng_peng) + 20 + 40 duiduihu
        # + 60 quanqiu_dudiao + 40 hunyise = 166; N fed the fourth set (an 出冲 win):
        # W pays one share, 166
        {
            "wins": {"S": (166, {"feng_peng", "duiduihu", "quanqiu_dudiao", "hunyise"})},
            "net": net(W=-166, S=166),
            "next": ("E", True),
        },
        id="nanjing-kuaizhao-fourth-fed-liable-pays-t",
    ),
    pytest.param(
        hand(
            win(
                "S",
                "3p",
                "7m",
                liable="W",
                melds=[pong("1m", "W"), pong("9m", "W"), pong("5m", "W"), pong("7m", "E")],
                flowers="8f",
                flags=["kuaizhao"],
            )
        ),
        # 快照 with one tile left; the four sets are all 万: 清一色, no 缺一 (the 3p is ignored).
        # 2*(1 H) + 20 + 40 duiduihu + 60 quanqiu_dudiao + 60 qingyise = 182;
        # E fed the fourth: W pays one share, 182
        {
            "wins": {"S": (182, {"duiduihu", "quanqiu_dudiao", "qingyise"})},
            "net": net(W=-182, S=182),
            "next": ("E", True),
        },
        id="nanjing-kuaizhao-qingyise-one-tile-left",
    ),
    pytest.param(
        hand(
            win(
                "S",
                "3p",
                "5m",
                liable="W",
                melds=[pong("1m", "W"), kong("4z"), pong("9m", "W"), pong("5m", "N")],
                flowers="1f2f",
                flags=["kuaizhao"],
            ),
            kongs=[kong_entry("S", "concealed")],
        ),
        # 快照 by two mouths from W + the player's own concealed kong; a concealed kong is a
        # declared set for 全球独钓. Soft flowers from the sets: concealed wind kong 3 (万 and
        # winds: 混一色, no 缺一). 2*(2 H + 3 feng_gang) + 20 + 40 + 60 + 40 hunyise = 170;
        # N fed the fourth: W pays one share 170; kong 3 from each: W -173, E -3, N -3, S +179
        {
            "wins": {"S": (170, {"feng_gang", "duiduihu", "quanqiu_dudiao", "hunyise"})},
            "net": net(E=-3, S=179, W=-173, N=-3),
            "next": ("E", True),
        },
        id="nanjing-kuaizhao-with-own-concealed-kong",
    ),
    pytest.param(
        hand(
            win("S", "55577m", "7m", discarder="N", liable="W", melds=KZD_MELDS, flowers="1f2f3f5f")
        ),
        # three mouths from W, N deals in: W pays the share N would have paid (T).
        # 万 + winds: no 缺一. 2*(4 + 1 feng_peng) + 20 + 40 hunyise + 40 duiduihu = 110
        {
            "wins": {"S": (110, {"feng_peng", "hunyise", "duiduihu"})},
            "net": net(W=-110, S=110),
            "next": ("E", True),
        },
        id="nanjing-kuaizhao-discard-liable-pays-t",
    ),
    # ---- 比下胡 / dealer
    pytest.param(
        hand(win("E", P_CON, "8m", discarder="S", melds=P_MELDS, flowers="2f3f4f5f")),
        # dealer wins a small hand: 2*(4 + 1) + 20 = 30 from S; dealer winning -> stays, doubled
        {"wins": {"E": (30, {"feng_peng"})}, "net": net(S=-30, E=30), "next": ("E", True)},
        id="nanjing-dealer-wins-stays-doubled",
    ),
    pytest.param(
        hand(win("S", P_CON, "8m", discarder="E", melds=P_MELDS, flowers="2f3f4f5f"), dealer="N"),
        # no trigger: the deal passes from N to its 下家 E
        {"wins": {"S": (30, {"feng_peng"})}, "net": net(E=-30, S=30), "next": ("E", False)},
        id="nanjing-dealer-passes-n-to-e",
    ),
    pytest.param(
        hand(
            win("N", P_CON, "8m", discarder="S", melds=[pong("1z", "E")], flowers="2f3f4f5f"),
            dealer="W",
        ),
        # N (not the dealer) wins a small hand: W passes the deal to N
        {"wins": {"N": (30, {"feng_peng"})}, "net": net(S=-30, N=30), "next": ("N", False)},
        id="nanjing-dealer-passes-w-to-n",
    ),
    # ---- nanjing-classic
    pytest.param(
        hand(win("S", MQ, "5p", discarder="E", flowers="1f5z6z7z"), ruleset="nanjing-classic"),
        # same as the contract: 2*(4 + 1 + 1) + 20 + 20 = 52
        {
            "wins": {"S": (52, {"duzhan", "queyi", "menqing"})},
            "net": net(E=-52, S=52),
            "next": ("S", False),
        },
        id="classic-contract-hand-52",
    ),
    pytest.param(
        hand(
            win("S", MQ, "5p", discarder="E", flowers="1f5z6z7z"),
            ruleset="nanjing-classic",
            penalties=[follow("W"), four_discards("N")],
        ),
        # penalties 10 each: E -52+20 = -32, S +52+20 = 72, W -30+10 = -20, N +10-30 = -20;
        # penalty -> doubled; no big hand -> the deal passes to S
        {
            "wins": {"S": (52, {"duzhan", "queyi", "menqing"})},
            "net": net(E=-32, S=72, W=-20, N=-20),
            "next": ("S", True),
        },
        id="classic-penalty-10",
    ),
    pytest.param(
        hand(
            win("S", "114477m225588p33z", "8p", discarder="N", flowers="8f"),
            ruleset="nanjing-classic",
        ),
        # 七对 40: 2*(1 + 1 queyi) + 20 + 40 = 64; big hand -> dealer stays (doubled)
        {"wins": {"S": (64, {"qidui", "queyi"})}, "net": net(N=-64, S=64), "next": ("E", True)},
        id="classic-qidui-40",
    ),
    pytest.param(
        hand(
            win("S", "11115599m226688p", "1m", discarder="N", flowers="2f3f"),
            ruleset="nanjing-classic",
        ),
        # 111m concealed, single seven-pair wait on the fourth 1m: 双七对 80 in place of 40.
        # 2*(2 + 1 queyi) + 20 + 80 = 106 (RULES.md names no code for 双七对)
        {
            "wins": {"S": (106, {"include": {"queyi"}, "exclude": {"qidui", "menqing"}})},
            "net": net(N=-106, S=106),
            "next": ("E", True),
        },
        id="classic-shuang-qidui-80",
    ),
    pytest.param(
        hand(win("S", "11112233m445566p", "1m", flowers="2f3f"), ruleset="nanjing-classic"),
        # seven-pair reading: 111m + single wait on the fourth 1m -> 双七对, although the
        # standard reading (11m 123m 123m 456p 456p) waits on 1m-4m and is worth only
        # 2*(2 + 1) + 20 + 20 menqing = 46. Best: 2*(2 + 1 queyi) + 20 + 80 = 106, x3
        {
            "wins": {"S": (106, {"include": {"queyi"}, "exclude": {"qidui", "menqing"}})},
            "net": net(E=-106, S=318, W=-106, N=-106),
            "next": ("E", True),
        },
        id="classic-shuang-qidui-judged-on-seven-pair-reading",
    ),
    pytest.param(
        hand(
            win("S", "11115599m226688p", "8p", discarder="N", flowers="2f3f"),
            ruleset="nanjing-classic",
        ),
        # the four 1m were held before the win (win on 8p): no 双七对, no 豪华 tiers in classic.
        # 2*(2 + 1 queyi) + 20 + 40 qidui = 66
        {"wins": {"S": (66, {"qidui", "queyi"})}, "net": net(N=-66, S=66), "next": ("E", True)},
        id="classic-quad-held-before-win-plain-qidui",
    ),
    pytest.param(
        hand(
            win("S", K_CON, "5p", discarder="E", melds=[kong("9s")], flowers="1f2f3f5f"),
            ruleset="nanjing-classic",
            kongs=[kong_entry("S", "concealed")],
        ),
        # classic 门清 is lost with any kong: 2*(4 + 1 duzhan) + 20 = 30; kong 3 each
        # E -33, W -3, N -3, S +39
        {
            "wins": {"S": (30, {"duzhan"})},
            "net": net(E=-33, S=39, W=-3, N=-3),
            "next": ("S", False),
        },
        id="classic-menqing-lost-with-concealed-kong",
    ),
    pytest.param(
        hand(
            win("E", P_CON, "8m", discarder="S", melds=P_MELDS, flowers="2f3f4f5f"),
            ruleset="nanjing-classic",
        ),
        # classic: the dealer winning a small hand passes the deal on, and no 比下胡
        {"wins": {"E": (30, {"feng_peng"})}, "net": net(S=-30, E=30), "next": ("S", False)},
        id="classic-dealer-small-win-passes",
    ),
    pytest.param(
        hand(dealer="W", ruleset="nanjing-classic", penalties=[follow("E")]),
        # classic drawn hand, E's penalty 10 to each: E -30; 比下胡 (doubled) but the deal
        # passes W -> N
        {"wins": {}, "net": net(E=-30, S=10, W=10, N=10), "next": ("N", True)},
        id="classic-drawn-hand-passes-doubled",
    ),
    pytest.param(
        hand(
            win("S", MQ, "5p", discarder="E", flowers="1f5z6z7z"),
            win("W", W2_CON, "5p", discarder="E", flowers="2f3f4f5f"),
            ruleset="nanjing-classic",
        ),
        # classic 一炮多响 of two small hands: E pays 52 + 50; several winners -> doubled,
        # no big hand -> the deal passes to S
        {
            "wins": {"S": (52, {"duzhan", "queyi", "menqing"}), "W": (50, {"queyi", "menqing"})},
            "net": net(E=-102, S=52, W=50),
            "next": ("S", True),
        },
        id="classic-yipao-duoxiang-doubled-dealer-passes",
    ),
    pytest.param(
        hand(
            win("S", P_CON, "8m", melds=P_MELDS, flowers="2f3f4f5f", flags=["after_flower"]),
            ruleset="nanjing-classic",
        ),
        # 2*(4 + 1) + 20 + 20 xiaogang = 50, x3; classic: either 杠开花 forms 比下胡,
        # no big hand -> deal passes to S
        {
            "wins": {"S": (50, {"feng_peng", "xiaogang_kaihua"})},
            "net": net(E=-50, S=150, W=-50, N=-50),
            "next": ("S", True),
        },
        id="classic-xiaogang-kaihua-doubled-dealer-passes",
    ),
    pytest.param(
        hand(
            win("S", K_CON, "5p", melds=[kong("9s")], flowers="1f2f3f5f", flags=["after_kong"]),
            ruleset="nanjing-classic",
            kongs=[kong_entry("S", "concealed")],
        ),
        # classic, no 门清 (kong): 2*(4 + 1 duzhan) + 20 + 40 dagang = 70, x3; kong 3 each:
        # E/W/N -73, S +219; 杠开花 -> doubled; no big hand -> S deals
        {
            "wins": {"S": (70, {"duzhan", "dagang_kaihua"})},
            "net": net(E=-73, S=219, W=-73, N=-73),
            "next": ("S", True),
        },
        id="classic-dagang-kaihua-doubled-dealer-passes",
    ),
    pytest.param(
        hand(
            win(
                "S", "55577m", "7m", discarder="N", liable="W", melds=KZD_MELDS, flowers="1f2f3f5f"
            ),
            ruleset="nanjing-classic",
        ),
        # classic 快照, N deals in: value is the hand's own 2*(4 + 1) + 20 + 40 + 40 = 110,
        # but W pays only the 对对胡 value 2*(4 + 1) + 20 + 40 = 70
        {
            "wins": {"S": (110, {"feng_peng", "hunyise", "duiduihu"})},
            "net": net(W=-70, S=70),
            "next": ("E", True),
        },
        id="classic-kuaizhao-discard-liable-pays-duiduihu-value",
    ),
    pytest.param(
        hand(
            win(
                "S", "55577m", "7m", discarder="N", liable="W", melds=KZD_MELDS, flowers="1f2f3f5f"
            ),
            ruleset="nanjing-classic",
            doubled=True,
        ),
        # doubled: value 110 x 2 = 220; W pays (2*(4 + 1) + 20 + 40) x 2 = 140
        {
            "wins": {"S": (220, {"feng_peng", "hunyise", "duiduihu"})},
            "net": net(W=-140, S=140),
            "next": ("E", True),
        },
        id="classic-kuaizhao-discard-doubled",
    ),
    pytest.param(
        hand(
            win("S", "3p7s", "5m", liable="W", melds=KZ_MELDS, flowers="1f2f", flags=["kuaizhao"]),
            ruleset="nanjing-classic",
        ),
        # 快照 against W, the fourth fed by N (快照2, 对不一家一嘴): 对对胡 only,
        # 2*(2 H + 1 feng_peng) + 20 + 40 = 66 (no 全球独钓, 混一色); W pays one share, 66
        {
            "wins": {"S": (66, {"feng_peng", "duiduihu"})},
            "net": net(W=-66, S=66),
            "next": ("E", True),
        },
        id="classic-kuaizhao-fourth-fed-by-another-duiduihu-only",
    ),
    # ---- 进园子
    pytest.param(
        hand(
            win("S", MQ, "5p", discarder="E", flowers="1f5z6z7z"),
            garden=garden({"E": 30, "S": 100, "W": 100, "N": 100}),
        ),
        # E owes 52 but has 30 left: pays 30; one seat out of two needed -> not over
        {
            "wins": {"S": (52, {"duzhan", "queyi", "menqing"})},
            "net": net(E=-30, S=30),
            "next": ("S", False),
            "left": {"E": 0, "S": 130, "W": 100, "N": 100},
            "garden_over": False,
        },
        id="garden-payment-capped",
    ),
    pytest.param(
        hand(
            win("S", MQ, "5p", discarder="E", flowers="1f5z6z7z"),
            garden=garden({"E": 30, "S": 100, "W": 100, "N": 100}, end_when_out=1),
        ),
        # as above with end_when_out 1: E at zero closes the 园子
        {
            "wins": {"S": (52, {"duzhan", "queyi", "menqing"})},
            "net": net(E=-30, S=30),
            "next": ("S", False),
            "left": {"E": 0, "S": 130, "W": 100, "N": 100},
            "garden_over": True,
        },
        id="garden-over-end-when-out-1",
    ),
    pytest.param(
        hand(
            win("S", MQ, "5p", flowers="1f5z6z7z"),
            garden=garden({"E": 30, "S": 100, "W": 10, "N": 100}),
        ),
        # self-drawn 52 each: E pays 30, W pays 10, N pays 52 -> S +92; E and W out: over
        {
            "wins": {"S": (52, {"duzhan", "queyi", "menqing"})},
            "net": net(E=-30, S=92, W=-10, N=-52),
            "next": ("S", False),
            "left": {"E": 0, "S": 192, "W": 0, "N": 48},
            "garden_over": True,
        },
        id="garden-over-two-out",
    ),
    pytest.param(
        hand(
            win("S", MQ, "5p", discarder="E", flowers="1f5z6z7z"),
            win("W", W2_CON, "5p", discarder="E", flowers="2f3f4f5f"),
            garden=garden({"E": 10, "S": 100, "W": 100, "N": 100}),
        ),
        # E owes S 52 and W 50 (102) with 10 left: 10*52/102 = 5.10 -> 5, 10*50/102 = 4.90 -> 4;
        # the 1 left over goes in turn order from E's right: S. S 6, W 4
        {
            "wins": {"S": (52, {"duzhan", "queyi", "menqing"}), "W": (50, {"queyi", "menqing"})},
            "net": net(E=-10, S=6, W=4),
            "next": ("E", True),
            "left": {"E": 0, "S": 106, "W": 104, "N": 100},
            "garden_over": False,
        },
        id="garden-proportional-split-remainder-turn-order",
    ),
    pytest.param(
        hand(
            win("S", MQ, "5p", discarder="E", flowers="1f5z6z7z"),
            kongs=[kong_entry("W", "concealed")],
            garden=garden({"E": 20, "S": 100, "W": 100, "N": 100}),
        ),
        # E owes S 52 + W 3 = 55 with 20 left: 20*52/55 = 18.9 -> 18, 20*3/55 = 1.09 -> 1,
        # 1 left over to S (E's right): S 19, W 1. S and N pay W 3 each.
        # E -20, S +19-3 = 16, W +1+3+3 = 7, N -3
        {
            "wins": {"S": (52, {"duzhan", "queyi", "menqing"})},
            "net": net(E=-20, S=16, W=7, N=-3),
            "next": ("S", False),
            "left": {"E": 0, "S": 116, "W": 107, "N": 97},
            "garden_over": False,
        },
        id="garden-proportional-split-win-and-kong",
    ),
    pytest.param(
        hand(
            win("S", MQ, "5p", discarder="E", flowers="1f5z6z7z"),
            penalties=[follow("N")],
            garden=garden({"E": 10, "S": 100, "W": 100, "N": 100}),
        ),
        # the cap is E's balance before the hand (10), not 10 + the 6 E receives from N:
        # E -10+6 = -4, S +10+6 = 16, W +6, N -18
        {
            "wins": {"S": (52, {"duzhan", "queyi", "menqing"})},
            "net": net(E=-4, S=16, W=6, N=-18),
            "next": ("E", True),
            "left": {"E": 6, "S": 116, "W": 106, "N": 82},
            "garden_over": False,
        },
        id="garden-cap-is-balance-before-hand",
    ),
    pytest.param(
        hand(
            win("S", MQ, "5p", discarder="E", flowers="1f5z6z7z"),
            kongs=[kong_entry("W", "concealed"), kong_entry("N", "flower")],
            garden=garden({"E": 10, "S": 100, "W": 100, "N": 100}),
        ),
        # E owes S 52, W 3, N 6 (61) with 10 left: 10*52/61 = 8.5 -> 8, 10*3/61 = 0.49 -> 0,
        # 10*6/61 = 0.98 -> 0; 2 left over, one each in turn order from E's right: S, W.
        # E pays S 9, W 1, N 0. S pays W 3, N 6; W pays N 6; N pays W 3.
        # E -10, S +9-3-6 = 0, W +1+3+3-6 = 1, N +6+6-3 = 9; flower kong -> 比下胡
        {
            "wins": {"S": (52, {"duzhan", "queyi", "menqing"})},
            "net": net(E=-10, S=0, W=1, N=9),
            "next": ("E", True),
            "left": {"E": 0, "S": 100, "W": 101, "N": 109},
            "garden_over": False,
        },
        id="garden-remainder-one-each-in-turn-order",
    ),
]


# --------------------------------------------------------------------------- refused records

BASE = hand(win("S", MQ, "5p", discarder="E", flowers="1f5z6z7z"))
SMALL = hand(win("S", P_CON, "8m", discarder="N", melds=P_MELDS, flowers="2f3f4f5f"))
SELF = hand(win("S", MQ, "5p", flowers="1f5z6z7z"))
YIGANG = hand(
    win("S", K_CON, "5p", discarder="E", melds=[kong("9s", "W")], flowers="1f2f3f5f"),
    kongs=[kong_entry("S", "exposed", "W")],
)
ANGANG = hand(
    win("S", K_CON, "5p", discarder="E", melds=[kong("9s")], flowers="1f2f3f5f"),
    kongs=[kong_entry("S", "concealed")],
)
KUAIZHAO = hand(
    win("S", "3p7s", "5m", liable="W", melds=KZ_MELDS, flowers="1f2f", flags=["kuaizhao"])
)
ROB = hand(
    win("W", "345m123p678p999s11s", "3m", liable="N", flowers="1f2f5z6z", flags=["robbing_kong"]),
    kongs=[kong_entry("N", "upgraded", "E", robbed=True)],
)
DOUBLE = hand(
    win("S", MQ, "5p", discarder="E", flowers="1f5z6z7z"),
    win("W", W2_CON, "5p", discarder="E", flowers="2f3f4f5f"),
)

# (record, keyword expected in the message or None)
REFUSED = [
    pytest.param(with_win_keys(BASE, flowers="1f5z6z9f"), None, id="refuse-unknown-tile"),
    pytest.param(
        hand(
            win(
                "S",
                "234m567m111p99m",
                "2m",
                discarder="E",
                melds=[pong("9m", "W")],
                flowers="1f2f3f5f",
            )
        ),
        None,
        id="refuse-five-copies-in-one-hand",
    ),
    pytest.param(
        hand(
            win("S", MQ, "5p", discarder="E", flowers="1f5z6z7z"),
            win("W", "123s456s789s11p55p", "5p", discarder="E", flowers="2f3f4f6f"),
        ),
        None,
        id="refuse-five-copies-across-winners",
    ),  # 1p: 3 (S) + 2 (W)
    pytest.param(
        with_win_keys(BASE, concealed="234m567m777z111p55p", flowers="1f"),
        None,
        id="refuse-flower-tile-in-concealed",
    ),
    pytest.param(
        with_win_keys(BASE, melds=[pong("1z", "W")]),
        None,
        id="refuse-tile-count-does-not-fit-melds",
    ),
    pytest.param(
        with_win_keys(BASE, concealed="234m567m999m111p56p"), None, id="refuse-not-a-winning-hand"
    ),
    pytest.param(
        with_win_keys(BASE, winning_tile="6p"), None, id="refuse-winning-tile-not-in-concealed"
    ),
    pytest.param(with_win_keys(BASE, discarder="S"), None, id="refuse-discarder-is-winner"),
    pytest.param(with_win_keys(BASE, liable="S"), None, id="refuse-liable-is-winner"),
    pytest.param(with_keys(BASE, doubeld=True), "doubeld", id="refuse-unknown-top-level-key"),
    pytest.param(
        with_win_keys(BASE, winningtile="5p"), "winningtile", id="refuse-unknown-key-in-win"
    ),
    pytest.param(
        with_win_keys(SELF, flags=["after_kong"]), None, id="refuse-after-kong-without-kong"
    ),
    pytest.param(
        with_win_keys(BASE, flags=["after_flower"]), None, id="refuse-after-flower-on-discard"
    ),
    pytest.param(with_win_keys(SELF, flags=["tianhu"]), None, id="refuse-tianhu-by-non-dealer"),
    pytest.param(with_win_keys(KUAIZHAO, liable=None), None, id="refuse-kuaizhao-without-liable"),
    pytest.param(with_win_keys(KUAIZHAO, discarder="N"), None, id="refuse-kuaizhao-on-discard"),
    pytest.param(
        with_win_keys(ROB, liable=None), None, id="refuse-robbing-kong-without-liable-nanjing"
    ),
    pytest.param(
        with_win_keys(BASE, flowers="1f2f3f4f7z"), None, id="refuse-flower-set-without-flower-kong"
    ),
    pytest.param(with_win_keys(BASE, flowers="1f1f5z6z"), None, id="refuse-flower-held-twice"),
    pytest.param(
        with_keys(BASE, false_wins=[{"seat": "N"}]), None, id="refuse-false-wins-in-nanjing"
    ),
    pytest.param(
        with_keys(BASE, dead_hands=[{"seat": "N"}]), None, id="refuse-dead-hands-in-nanjing"
    ),
    pytest.param(with_keys(YIGANG, kongs=[]), None, id="refuse-kong-meld-without-kongs-entry"),
    pytest.param(
        with_keys(ANGANG, kongs=[kong_entry("S", "exposed", "W")]),
        None,
        id="refuse-kong-meld-kongs-entry-mismatch",
    ),
    pytest.param(
        with_win_keys(DOUBLE, 1, discarder="N"),
        None,
        id="refuse-several-winners-different-discarders",
    ),
    pytest.param(
        with_win_keys(SMALL, flowers="2f3f4f"), None, id="refuse-h3-not-menqing-no-big-hand"
    ),
    pytest.param(with_win_keys(SMALL, flowers=""), None, id="refuse-h0-small-hand-no-wuhuaguo"),
    pytest.param(
        with_keys(BASE, garden=garden({"E": 0, "S": 0, "W": 100, "N": 300})),
        None,
        id="refuse-garden-already-over",
    ),
    pytest.param(with_win_keys(SMALL, flags=["dihu"]), None, id="refuse-dihu-with-a-set"),
    pytest.param(
        hand(win("E", MQ, "5p", discarder="S", flowers="1f5z6z7z", flags=["tianhu"])),
        None,
        id="refuse-tianhu-on-discard",
    ),
    pytest.param(
        with_win_keys(hand(win("S", MQ, "5p", flowers="")), flags=["after_flower"]),
        None,
        id="refuse-after-flower-without-flowers",
    ),
    pytest.param(
        with_win_keys(ROB, concealed="334455m123p678p11s"),
        None,
        id="refuse-robbing-winner-holds-two-of-the-tile",
    ),
    pytest.param(
        with_keys(ROB, kongs=[kong_entry("N", "exposed", "E", robbed=True)]),
        None,
        id="refuse-robbed-on-a-non-upgraded-kong",
    ),
]


# --------------------------------------------------------------------------- tests


def _check_features(seat: str, got: list, expected) -> None:
    got_set = set(got)
    if isinstance(expected, dict):
        missing = expected["include"] - got_set
        forbidden = expected["exclude"] & got_set
        assert not missing and not forbidden, (seat, sorted(got_set), missing, forbidden)
    else:
        assert got_set == expected, (seat, sorted(got_set), sorted(expected))


@pytest.mark.parametrize(("record", "expected"), CASES)
def test_worked_case(record: dict, expected: dict) -> None:
    result = score(copy.deepcopy(record))

    assert result["format"] == "mahjong-result/1"
    assert result["ruleset"] == record["ruleset"]
    wins = {w["seat"]: w for w in result["wins"]}
    assert set(wins) == set(expected["wins"])
    for seat, (value, features) in expected["wins"].items():
        got = wins[seat]
        assert got["value"] == value, (seat, got.get("breakdown"))
        _check_features(seat, got["features"], features)
        # the contract: breakdown points add up to value; features follow the breakdown order
        assert sum(line["points"] for line in got["breakdown"]) == got["value"]
        codes = list(dict.fromkeys(line["code"] for line in got["breakdown"]))
        assert got["features"] == [c for c in codes if c in set(got["features"])]

    assert result["net"] == expected["net"], result.get("payments")
    assert sum(result["net"].values()) == 0
    from_payments = dict.fromkeys(SEATS, 0)
    for p in result["payments"]:
        from_payments[p["from"]] -= p["amount"]
        from_payments[p["to"]] += p["amount"]
    assert from_payments == result["net"]

    dealer, doubled = expected["next"]
    assert result["next"] == {"dealer": dealer, "doubled": doubled}

    if "left" in expected:
        assert result["left"] == expected["left"]
        assert bool(result.get("garden_over", False)) is expected["garden_over"]


@pytest.mark.parametrize(("record", "keyword"), REFUSED)
def test_refused(record: dict, keyword: str | None) -> None:
    with pytest.raises(ScoringError) as caught:
        score(copy.deepcopy(record))
    assert isinstance(caught.value, ValueError)
    if keyword is not None:
        assert keyword in str(caught.value)


# --------------------------------------------------------------------------- self-check
# The engine plays no part here: the legal records above must themselves obey the tile
# rules of HAND_RECORD.md, so that a failure above is about scoring, not a bad fixture.

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
    return out


def _complete_flower_sets(flowers: list[str]) -> int:
    count = Counter(flowers)
    return sum(all(count[t] >= s.count(t) for t in s) for s in FLOWER_SETS)


@pytest.mark.parametrize(("record", "expected"), CASES)
def test_fixture_is_well_formed(record: dict, expected: dict) -> None:
    copies: Counter = Counter()
    shared = set()
    for w in record["wins"]:
        concealed = _tiles(w["concealed"])
        melds = w["melds"]
        playing = concealed + [m["tile"] for m in melds]
        assert not [t for t in playing if t in ("5z", "6z", "7z") or t.endswith("f")]
        if "kuaizhao" in w["flags"]:
            assert len(melds) == 4 and 1 <= len(concealed) <= 2
            assert w["winning_tile"] == melds[-1]["tile"] and w["liable"]
        else:
            assert len(concealed) == 14 - 3 * len(melds)
            assert w["winning_tile"] in concealed
        copies.update(concealed)
        for m in melds:
            copies[m["tile"]] += 4 if m["type"] == "kong" else 3
        if w["discarder"]:
            shared.add(w["winning_tile"])
        flowers = _tiles(w["flowers"])
        assert all(n == 1 for t, n in Counter(flowers).items() if t.endswith("f"))
        copies.update(flowers)
        # kong melds <-> kongs entries of that seat, one for one
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
        assert entries == from_melds
        flower_kongs = [
            k for k in record["kongs"] if k["seat"] == w["seat"] and k["type"] == "flower"
        ]
        assert len(flower_kongs) == _complete_flower_sets(flowers)
    if len(record["wins"]) > 1:
        for tile in shared:
            copies[tile] -= len(record["wins"]) - 1
    assert max(copies.values(), default=0) <= 4, copies.most_common(3)
