"""Independent reference scorer for 南京麻将 ("nanjing", "nanjing-classic").

Written only from /work/shared/RULES.md, /work/shared/HAND_RECORD.md and the
Chinese seed text.  Python 3.11 standard library only.

    score(record: dict) -> dict

Raises ValueError for records considered illegal, NotImplementedError for
records outside what this reference covers (e.g. jiangsu-worksite).
"""
from __future__ import annotations

import re
from collections import Counter

SEATS = ["E", "S", "W", "N"]

# ---------------------------------------------------------------- parameters
PARAMS = {
    "nanjing": {
        "penalty": 6,
        "qidui_tiers": [("qidui", "七对", 80), ("haohua_qidui", "豪华七对", 160),
                        ("chaohaohua_qidui", "超豪华七对", 240),
                        ("chaochaohaohua_qidui", "超超豪华七对", 320)],
        "shuang_qidui": None,
        "menqing_allows_kongs": True,
    },
    "nanjing-classic": {
        "penalty": 10,
        "qidui_tiers": [("qidui", "七对", 40)],
        "shuang_qidui": ("shuang_qidui", "双七对", 80),
        "menqing_allows_kongs": False,
    },
}
RUN = 20
BONUS = {
    "menqing": ("门清", 20),
    "hunyise": ("混一色", 40),
    "qingyise": ("清一色", 60),
    "duiduihu": ("对对胡", 40),
    "quanqiu_dudiao": ("全球独钓", 60),
    "yajue": ("压绝", 40),
    "wuhuaguo": ("无花果", 40),
    "xiaogang_kaihua": ("小杠开花", 20),
    "dagang_kaihua": ("大杠开花", 40),
    "tianhu": ("天胡", 320),
    "dihu": ("地胡", 280),
}
NOT_BIG = {"menqing", "xiaogang_kaihua", "dagang_kaihua"}
SOFT_LABEL = {"yadang": "压档", "bianzhi": "边枝", "duzhan": "独占",
              "feng_peng": "风碰", "queyi": "缺一", "feng_gang": "风杠"}
KONG_EXPOSED = 6
KONG_CONCEALED = 3
KONG_FLOWER = 6
DDH_BONUS = 40  # classic 快照 deal-in: L pays 2(H+S)+20+40

FLAGS = {"after_flower", "after_kong", "kong_discard", "robbing_kong",
         "last_tile", "tianhu", "dihu", "kuaizhao"}
TOP_KEYS = {"format", "ruleset", "dealer", "doubled", "wins", "kongs",
            "penalties", "false_wins", "dead_hands", "garden"}
WIN_KEYS = {"seat", "discarder", "liable", "concealed", "melds",
            "winning_tile", "flowers", "flags", "kong_chain", "others_ponged",
            "passed"}
# quick entry (HAND_RECORD.md): known keys, but this reference scores tiles only
QUICK_KEYS = {"features", "hard_flowers", "soft_flowers"}
MELD_KEYS = {"type", "tile", "from", "upgraded"}
KONG_KEYS = {"seat", "type", "from", "robbed"}
PEN_KEYS = {"type", "seat"}
GARDEN_KEYS = {"size", "left", "end_when_out"}

FLOWER_SETS = [("5z",) * 4, ("6z",) * 4, ("7z",) * 4,
               ("1f", "2f", "3f", "4f"), ("5f", "6f", "7f", "8f")]


def right_of(seat):
    return SEATS[(SEATS.index(seat) + 1) % 4]


# ---------------------------------------------------------------- tiles
_TILE_RE = re.compile(r"(\d+)([mpszf])")


def parse_tiles(s, field):
    if not isinstance(s, str):
        raise ValueError(f"{field}: not a string")
    out = []
    pos = 0
    for m in _TILE_RE.finditer(s):
        if m.start() != pos:
            raise ValueError(f"{field}: bad tile notation {s!r}")
        pos = m.end()
        suit = m.group(2)
        for d in m.group(1):
            n = int(d)
            hi = {"m": 9, "p": 9, "s": 9, "z": 7, "f": 8}[suit]
            if not 1 <= n <= hi:
                raise ValueError(f"{field}: bad tile {d}{suit}")
            out.append(f"{n}{suit}")
    if pos != len(s):
        raise ValueError(f"{field}: bad tile notation {s!r}")
    return out


def is_flower(t):
    return t[1] == "f" or (t[1] == "z" and int(t[0]) >= 5)


def is_wind(t):
    return t[1] == "z" and int(t[0]) <= 4


def one_tile(s, field):
    ts = parse_tiles(s, field)
    if len(ts) != 1:
        raise ValueError(f"{field}: must be exactly one tile")
    return ts[0]


# kinds 0..30: m1-9, p1-9, s1-9, z1-4
def kind(t):
    n, s = int(t[0]), t[1]
    return {"m": 0, "p": 9, "s": 18, "z": 27}[s] + n - 1


def kind_tile(k):
    if k >= 27:
        return f"{k - 26}z"
    return f"{k % 9 + 1}{'mps'[k // 9]}"


def counts_of(tiles):
    c = [0] * 31
    for t in tiles:
        c[kind(t)] += 1
    return c


def _sets_decomp(c, need, start=0):
    """All ways of splitting counts c into exactly `need` sets."""
    i = start
    while i < 31 and c[i] == 0:
        i += 1
    if i == 31:
        return [[]] if need == 0 else []
    if need == 0:
        return []
    res = []
    if c[i] >= 3:
        c[i] -= 3
        for r in _sets_decomp(c, need - 1, i):
            res.append([("t", i)] + r)
        c[i] += 3
    if i < 27 and i % 9 <= 6 and c[i + 1] and c[i + 2]:
        c[i] -= 1; c[i + 1] -= 1; c[i + 2] -= 1
        for r in _sets_decomp(c, need - 1, i):
            res.append([("r", i)] + r)
        c[i] += 1; c[i + 1] += 1; c[i + 2] += 1
    return res


def standard_decomps(c, need):
    out = []
    for p in range(31):
        if c[p] >= 2:
            c[p] -= 2
            for r in _sets_decomp(c, need):
                out.append((p, r))
            c[p] += 2
    return out


def is_seven_pairs(c):
    return sum(c) == 14 and all(x % 2 == 0 for x in c)


def completes(c, need, allow7):
    if allow7 and is_seven_pairs(c):
        return True
    for p in range(31):
        if c[p] >= 2:
            c[p] -= 2
            ok = bool(_sets_decomp(c, need))
            c[p] += 2
            if ok:
                return True
    return False


# ---------------------------------------------------------------- validation helpers
def _check_keys(obj, allowed, field):
    if not isinstance(obj, dict):
        raise ValueError(f"{field}: must be an object")
    extra = set(obj) - allowed
    if extra:
        raise ValueError(f"{field}: unknown key(s) {sorted(extra)}")


def _seat(v, field, nullable=False):
    if v is None and nullable:
        return None
    if v not in SEATS:
        raise ValueError(f"{field}: bad seat {v!r}")
    return v


def _list(rec, key, field):
    v = rec.get(key, [])
    if v is None:
        v = []
    if not isinstance(v, list):
        raise ValueError(f"{field}: must be a list")
    return v


# ---------------------------------------------------------------- win evaluation
class Win:
    pass


def parse_win(w, i, ruleset, dealer):
    f = f"wins[{i}]"
    _check_keys(w, WIN_KEYS | QUICK_KEYS, f)
    if QUICK_KEYS & set(w) or "concealed" not in w:
        raise NotImplementedError("quick entry is not covered by this reference")
    x = Win()
    x.seat = _seat(w.get("seat"), f + ".seat")
    x.discarder = _seat(w.get("discarder"), f + ".discarder", True)
    x.liable = _seat(w.get("liable"), f + ".liable", True)
    if x.discarder == x.seat or x.liable == x.seat:
        raise ValueError(f"{f}: discarder or liable seat equal to the winner")
    if "concealed" not in w or "winning_tile" not in w:
        raise ValueError(f"{f}: concealed and winning_tile are required")
    x.concealed = parse_tiles(w["concealed"], f + ".concealed")
    if any(is_flower(t) for t in x.concealed):
        raise ValueError(f"{f}.concealed: flower tile in hand")
    x.win_tile = one_tile(w["winning_tile"], f + ".winning_tile")
    if is_flower(x.win_tile):
        raise ValueError(f"{f}.winning_tile: flower tile")
    x.flowers = parse_tiles(w.get("flowers", "") or "", f + ".flowers")
    # 压绝 / wait set: tiles of which another player has an exposed pong or
    # kong (each stands for three copies)
    x.others_ponged = parse_tiles(w.get("others_ponged", "") or "", f + ".others_ponged")
    if any(is_flower(t) for t in x.others_ponged):
        raise ValueError(f"{f}.others_ponged: flower tile")
    # DECISION: `passed` is a 工地 key (过水); 南京 accepts it and ignores it
    parse_tiles(w.get("passed", "") or "", f + ".passed")
    if any(not is_flower(t) for t in x.flowers):
        raise ValueError(f"{f}.flowers: not a flower tile")
    flags = w.get("flags", []) or []
    if not isinstance(flags, list) or any(fl not in FLAGS for fl in flags):
        raise ValueError(f"{f}.flags: unknown flag")
    x.flags = set(flags)
    kc = w.get("kong_chain", 1)
    if isinstance(kc, bool) or not isinstance(kc, int) or kc < 1:
        raise ValueError(f"{f}.kong_chain: must be an integer >= 1")
    x.kong_chain = kc
    melds = w.get("melds", []) or []
    if not isinstance(melds, list):
        raise ValueError(f"{f}.melds: must be a list")
    x.melds = []
    for j, m in enumerate(melds):
        mf = f"{f}.melds[{j}]"
        _check_keys(m, MELD_KEYS, mf)
        typ = m.get("type")
        if typ not in ("pong", "kong"):
            raise ValueError(f"{mf}.type: must be pong or kong")
        t = one_tile(m.get("tile"), mf + ".tile")
        if is_flower(t):
            raise ValueError(f"{mf}.tile: flower tile")
        if typ == "pong" and "from" not in m:
            raise ValueError(f"{mf}: a pong needs from")
        frm = _seat(m.get("from"), mf + ".from", True)
        if frm == x.seat:
            raise ValueError(f"{mf}.from: the winner's own seat")
        up = m.get("upgraded", False)
        if not isinstance(up, bool):
            raise ValueError(f"{mf}.upgraded: must be boolean")
        if typ == "pong" and frm is None:
            raise ValueError(f"{mf}: a pong needs from")
        if up and (typ != "kong" or frm is None):
            raise ValueError(f"{mf}: upgraded only on an exposed kong")
        x.melds.append({"type": typ, "tile": t, "from": frm, "upgraded": up})
    x.kuaizhao = "kuaizhao" in x.flags
    x.robbing = "robbing_kong" in x.flags
    n = len(x.melds)
    if x.kuaizhao:
        if x.liable is None:
            raise ValueError(f"{f}: kuaizhao needs liable")
        if x.discarder is not None:
            raise ValueError(f"{f}: kuaizhao on a discard")
        if n != 4:
            raise ValueError(f"{f}: kuaizhao needs four sets")
        if len(x.concealed) not in (1, 2):
            raise ValueError(f"{f}: kuaizhao leaves one or two tiles in hand")
        if x.win_tile != x.melds[-1]["tile"]:
            raise ValueError(f"{f}: kuaizhao winning_tile must be the last set's tile")
        if not shows_kuaizhao(x.melds[:3], x.liable) and not _one_suit(
            [m["tile"] for m in x.melds]
        ):
            raise ValueError(f"{f}: kuaizhao with no 快照 against liable and not of one suit")
    else:
        if n > 4:
            raise ValueError(f"{f}: more than four sets")
        if len(x.concealed) != 14 - 3 * n:
            raise ValueError(f"{f}.concealed: {len(x.concealed)} tiles, expected {14 - 3 * n}")
        if x.win_tile not in x.concealed:
            raise ValueError(f"{f}.winning_tile: not in concealed")
    if x.robbing:
        if x.liable is None:
            raise ValueError(f"{f}: robbing_kong needs liable (the konger) in 南京")
        if x.discarder is not None and x.discarder != x.liable:
            raise ValueError(f"{f}: robbing_kong discarder must be the konger")
        if x.concealed.count(x.win_tile) > 1:
            raise ValueError(f"{f}: robbing winner holds more than one of the tile")
    if "tianhu" in x.flags:
        if x.seat != dealer or x.discarder is not None or n:
            raise ValueError(f"{f}: tianhu only for the dealer, self-drawn, no set declared")
    if "dihu" in x.flags and n:
        raise ValueError(f"{f}: dihu with a set declared")
    if "after_flower" in x.flags and (x.discarder is not None or not x.flowers):
        raise ValueError(f"{f}: after_flower on a discard or with no flowers")
    if x.kong_chain > 1 and not ({"after_kong", "kong_discard"} & x.flags):
        raise ValueError(f"{f}: kong_chain above 1 without after_kong or kong_discard")
    return x


def _suits_present(tiles):
    return {t[1] for t in tiles if t[1] in "mps"}, any(is_wind(t) for t in tiles)


def _colour(tiles):
    """returns (queyi, hunyise, qingyise) for the tiles given."""
    suits, winds = _suits_present(tiles)
    if not suits:  # winds only: neither, and no 缺一
        return False, False, False
    queyi = len(suits) == 2  # exactly one of 万 条 饼 absent
    one = len(suits) == 1
    return queyi, one and winds, one and not winds


def _meld_tiles(x):
    out = []
    for m in x.melds:
        out += [m["tile"]] * (3 if m["type"] == "pong" else 4)
    return out


def _fourth_feeder(m):
    """Who fed a set: its `from` for a pong or a kong taken on a discard; None
    for a set made from the player's own draw (a concealed kong, or a kong
    added to the player's own pong)."""
    if m["type"] == "pong" or (m["from"] is not None and not m["upgraded"]):
        return m["from"]
    return None


def shows_kuaizhao(melds, liable):
    """快照 against `liable`: three mouths fed by L; two fed by L and a
    concealed kong; or two concealed kongs and one fed by L."""
    fed = sum(1 for m in melds if m["from"] == liable)
    concealed = sum(1 for m in melds if m["type"] == "kong" and m["from"] is None)
    return fed >= 1 and fed + concealed >= 3


def _one_suit(tiles):
    return all(t[1] in "mps" for t in tiles) and len({t[1] for t in tiles}) == 1


def kuaizhao_case(x, ruleset):
    """(value kind, shares L pays) of a 快照 instant win.

    nanjing: the full value (对对胡 + 全球独钓 + 混/清 + 无花果 with H = 0);
    one share when someone fed the fourth set, three when it came from the
    player's own draw.
    nanjing-classic (篇一 快照1-3): with the 快照 against L in the first three
    sets: L fed the fourth -> full, 3T; another fed it -> 对对胡 only, one
    share; own draw -> full, 3T (DECISION: the text names only L and another
    player; a set from one's own draw is paid like a self-draw).  Without it,
    four sets of one suit and L fed the fourth (the 清一色 fourth mouth) ->
    full, 3T; anything else is paid as in nanjing (DECISION)."""
    feeder = _fourth_feeder(x.melds[-1])
    if ruleset == "nanjing-classic":
        if shows_kuaizhao(x.melds[:3], x.liable):
            if feeder is None or feeder == x.liable:
                return "full", 3
            return "duiduihu", 1
        if _one_suit([m["tile"] for m in x.melds]) and feeder == x.liable:
            return "full", 3
    return "full", (1 if feeder is not None else 3)


def evaluate(x, ruleset, doubled):
    """Best reading of win x: dict(value, base, breakdown, features, big, H, S)."""
    P = PARAMS[ruleset]
    H = len(x.flowers)
    mtiles = _meld_tiles(x)
    # soft flowers from sets
    feng_peng = sum(1 for m in x.melds if m["type"] == "pong" and is_wind(m["tile"]))
    feng_gang = sum((3 if m["from"] is None else 2) for m in x.melds
                    if m["type"] == "kong" and is_wind(m["tile"]))
    ponged = {m["tile"] for m in x.melds if m["type"] == "pong"}
    if ruleset == "nanjing":  # 篇二: 已经被碰下来, anyone's; 篇一: the winner's own
        ponged |= set(x.others_ponged)
    flag_bonus = []
    if "after_flower" in x.flags:
        flag_bonus.append("xiaogang_kaihua")
    if "after_kong" in x.flags:
        flag_bonus.append("dagang_kaihua")
    if "tianhu" in x.flags:
        flag_bonus.append("tianhu")
    if "dihu" in x.flags:
        flag_bonus.append("dihu")

    def build(soft, bonuses, tier=None):
        # soft: list of (code, count); bonuses: list of codes (plus tier tuple)
        S = sum(c for _, c in soft)
        bd = []
        if H:
            bd.append({"code": "hard_flowers", "label": f"硬花 ×{H}", "points": 2 * H})
        for code, c in soft:
            lab = SOFT_LABEL[code]
            if code == "feng_peng" and c > 1:
                lab += f" ×{c}"
            bd.append({"code": code, "label": lab, "points": 2 * c})
        bd.append({"code": "run20", "label": "跑20", "points": RUN})
        order = ["menqing", "hunyise", "qingyise", "duiduihu", "quanqiu_dudiao",
                 "TIER", "yajue", "wuhuaguo", "xiaogang_kaihua", "dagang_kaihua",
                 "tianhu", "dihu"]
        feats = [code for code, _ in soft]
        big = False
        for code in order:
            if code == "TIER":
                if tier:
                    bd.append({"code": tier[0], "label": tier[1], "points": tier[2]})
                    feats.append(tier[0]); big = True
                continue
            if code in bonuses:
                lab, pts = BONUS[code]
                bd.append({"code": code, "label": lab, "points": pts})
                feats.append(code)
                if code not in NOT_BIG:
                    big = True
        base = sum(b["points"] for b in bd)
        value = base
        if doubled:
            bd.append({"code": "doubled", "label": "比下胡 ×2", "points": base})
            value = 2 * base
        return {"value": value, "base": base, "breakdown": bd, "features": feats,
                "big": big, "H": H, "S": S, "menqing": "menqing" in bonuses}

    def finish(soft, bonuses, menqing, tier=None):
        # wuhuaguo: H=0 and (menqing or another big hand)
        others_big = tier is not None or any(b not in NOT_BIG for b in bonuses)
        if H == 0 and (menqing or others_big):
            bonuses = bonuses + ["wuhuaguo"]
        return build(soft, bonuses, tier)

    # ------------------------------------------------ 快照 instant win
    if x.kuaizhao:
        q, hun, qing = _colour(mtiles)
        mode, _ = kuaizhao_case(x, ruleset)
        soft = []
        if feng_peng:
            soft.append(("feng_peng", feng_peng))
        if q:
            soft.append(("queyi", 1))
        if feng_gang:
            soft.append(("feng_gang", feng_gang))
        if mode == "duiduihu":  # classic 快照2: 2 x (H + S) + 20 + 40, nothing else
            return build(soft, ["duiduihu"])
        bon = []
        if hun:
            bon.append("hunyise")
        if qing:
            bon.append("qingyise")
        bon += ["duiduihu", "quanqiu_dudiao"]
        if H == 0:  # its 对对胡 and 全球独钓 are big hands
            bon.append("wuhuaguo")
        return build(soft, bon)

    n = len(x.melds)
    all_tiles = x.concealed + mtiles
    q, hun, qing = _colour(all_tiles)
    c = counts_of(x.concealed)
    before = c[:]
    before[kind(x.win_tile)] -= 1
    own = counts_of(x.concealed + mtiles + 3 * x.others_ponged)
    own[kind(x.win_tile)] -= 1  # a wait whose four copies are accounted is none
    waits = []
    for k in range(31):
        if own[k] >= 4:
            continue
        before[k] += 1
        if completes(before, 4 - n, n == 0):
            waits.append(k)
        before[k] -= 1
    single = len(waits) == 1

    if P["menqing_allows_kongs"]:
        menqing_std = not any(m["type"] == "pong" or m["upgraded"] for m in x.melds)
    else:
        menqing_std = n == 0

    candidates = []
    wk = kind(x.win_tile)
    # standard readings
    for pair, sets in standard_decomps(c[:], 4 - n):
        ddh = all(s[0] == "t" for s in sets)
        # choices of wait flower
        wait_opts = [None]
        if single:
            wo = []
            for s in sets:
                if s[0] == "r" and s[1] <= wk <= s[1] + 2:
                    pos = wk - s[1]
                    r = s[1] % 9
                    if pos == 1:
                        wo.append("yadang")
                    elif (pos == 2 and r == 0) or (pos == 0 and r == 6):
                        wo.append("bianzhi")
            if pair == wk:
                wo.append("duzhan")
            # preference order on ties: yadang, bianzhi, duzhan
            wo = sorted(set(wo), key=["yadang", "bianzhi", "duzhan"].index)
            if wo:
                wait_opts = wo
        for wf in wait_opts:
            soft = []
            bon = []
            yajue = wf in ("yadang", "bianzhi") and x.win_tile in ponged
            if wf and not yajue:
                soft.append((wf, 1))
            if feng_peng:
                soft.append(("feng_peng", feng_peng))
            if q:
                soft.append(("queyi", 1))
            if feng_gang:
                soft.append(("feng_gang", feng_gang))
            if menqing_std:
                bon.append("menqing")
            if hun:
                bon.append("hunyise")
            if qing:
                bon.append("qingyise")
            if ddh:
                bon.append("duiduihu")
            if n == 4:
                bon.append("quanqiu_dudiao")
            if yajue:
                bon.append("yajue")
            bon += flag_bonus
            candidates.append(finish(soft, bon, menqing_std))
    # seven-pair reading
    if n == 0 and is_seven_pairs(c):
        soft = [("queyi", 1)] if q else []
        bon = []
        if hun:
            bon.append("hunyise")
        if qing:
            bon.append("qingyise")
        bon += flag_bonus
        quads = sum(1 for v in c if v == 4)
        if P["shuang_qidui"] is not None:
            tier = P["shuang_qidui"] if c[wk] == 4 else P["qidui_tiers"][0]
        else:
            tier = P["qidui_tiers"][quads]
        candidates.append(finish(soft, bon, False, tier))
    if not candidates:
        raise ValueError("not a winning hand")
    legal = [cd for cd in candidates if cd["menqing"] or cd["big"] or H >= 4]
    if not legal:
        raise ValueError("not a legal win: not 门清, no big hand and fewer than 4 hard flowers")
    best = legal[0]
    for cd in legal[1:]:
        if cd["value"] > best["value"]:
            best = cd
    return best


# ---------------------------------------------------------------- main entry
def score(record: dict) -> dict:
    if not isinstance(record, dict):
        raise ValueError("hand: must be an object")
    _check_keys(record, TOP_KEYS, "hand")
    if record.get("format") != "mahjong-hand/1":
        raise ValueError("format: must be mahjong-hand/1")
    ruleset = record.get("ruleset")
    if ruleset == "jiangsu-worksite":
        raise NotImplementedError("jiangsu-worksite is not covered by this reference")
    if ruleset not in PARAMS:
        raise ValueError(f"ruleset: unknown {ruleset!r}")
    P = PARAMS[ruleset]
    dealer = _seat(record.get("dealer"), "dealer")
    doubled = record.get("doubled", False)
    if not isinstance(doubled, bool):
        raise ValueError("doubled: must be boolean")
    if _list(record, "false_wins", "false_wins") or _list(record, "dead_hands", "dead_hands"):
        raise ValueError("false_wins/dead_hands: not allowed in 南京")
    if "wins" not in record:
        raise ValueError("wins: required")
    raw_wins = _list(record, "wins", "wins")
    wins = [parse_win(w, i, ruleset, dealer) for i, w in enumerate(raw_wins)]
    if len({w.seat for w in wins}) != len(wins):
        raise ValueError("wins: a seat wins twice")

    # kongs
    kongs = []
    for i, k in enumerate(_list(record, "kongs", "kongs")):
        kf = f"kongs[{i}]"
        _check_keys(k, KONG_KEYS, kf)
        seat = _seat(k.get("seat"), kf + ".seat")
        typ = k.get("type")
        if typ not in ("exposed", "upgraded", "concealed", "flower"):
            raise ValueError(f"{kf}.type: bad kong type {typ!r}")
        frm = _seat(k.get("from"), kf + ".from", True)
        if typ in ("exposed", "upgraded"):
            if frm is None or frm == seat:
                raise ValueError(f"{kf}.from: an exposed kong needs another seat as feeder")
        elif frm is not None:
            raise ValueError(f"{kf}.from: must be null for a {typ} kong")
        robbed = k.get("robbed", False)
        if not isinstance(robbed, bool):
            raise ValueError(f"{kf}.robbed: must be boolean")
        if robbed:
            if typ != "upgraded":
                raise ValueError(f"{kf}: robbed on a kong that is not upgraded")
            if not any(w.robbing and w.liable == seat for w in wins):
                raise ValueError(f"{kf}: robbed with no robbing_kong win on it")
        kongs.append({"seat": seat, "type": typ, "from": frm, "robbed": robbed})

    penalties = []
    for i, p in enumerate(_list(record, "penalties", "penalties")):
        pf = f"penalties[{i}]"
        _check_keys(p, PEN_KEYS, pf)
        if p.get("type") not in ("follow", "four_discards"):
            raise ValueError(f"{pf}.type: bad penalty type")
        penalties.append(_seat(p.get("seat"), pf + ".seat"))

    garden = record.get("garden")
    if garden is not None:
        _check_keys(garden, GARDEN_KEYS, "garden")
        size = garden.get("size")
        if isinstance(size, bool) or not isinstance(size, int) or size <= 0:
            raise ValueError("garden.size: positive integer required")
        left = garden.get("left")
        if not isinstance(left, dict) or set(left) != set(SEATS):
            raise ValueError("garden.left: needs a balance for each of E S W N")
        for s in SEATS:
            v = left[s]
            if isinstance(v, bool) or not isinstance(v, int) or v < 0:
                raise ValueError(f"garden.left.{s}: non-negative integer required")
        ewo = garden.get("end_when_out", 2)
        if ewo not in (1, 2) or isinstance(ewo, bool):
            raise ValueError("garden.end_when_out: must be 1 or 2")
        if sum(1 for s in SEATS if left[s] == 0) >= ewo:
            raise ValueError("garden: already over")

    # ---- cross-win checks
    if len(wins) > 1:
        if len({w.discarder for w in wins}) != 1 or len({w.win_tile for w in wins}) != 1:
            raise ValueError("wins: several winners without one shared discarder and winning tile")
        if wins[0].discarder is None and not all(w.robbing for w in wins):
            raise ValueError("wins: several self-drawn winners")
    # tile counts across winners
    total = Counter()
    fl_total = Counter()
    for w in wins:
        total.update(w.concealed)
        total.update(_meld_tiles(w))
        fl_total.update(w.flowers)
    if len(wins) > 1:
        total[wins[0].win_tile] -= len(wins) - 1
    for t, v in total.items():
        if v > 4:
            raise ValueError(f"more than four copies of {t}")
    for t, v in fl_total.items():
        if (t[1] == "f" and v > 1) or v > 4:
            raise ValueError(f"flower {t} held too many times")
    # others_ponged: three copies each, beside the winner's own tiles
    # (judged win by win: another winner's pong may be one of them)
    for i, w in enumerate(wins):
        seen = Counter(w.concealed) + Counter(_meld_tiles(w))
        for t in w.others_ponged:
            seen[t] += 3
        for t, v in seen.items():
            if v > 4:
                raise ValueError(f"wins[{i}]: more than four copies of {t} with others_ponged")
    # kong matching / flags needing kongs
    for i, w in enumerate(wins):
        f = f"wins[{i}]"
        mk = Counter()
        for m in w.melds:
            if m["type"] == "kong":
                if m["from"] is None:
                    mk[("concealed", None)] += 1
                else:
                    mk[("upgraded" if m["upgraded"] else "exposed", m["from"])] += 1
        kk = Counter((k["type"], k["from"]) for k in kongs
                     if k["seat"] == w.seat and k["type"] != "flower")
        if mk != kk:
            raise ValueError(f"{f}: kong sets do not match the seat's kongs entries")
        fsets = sum(1 for fs in FLOWER_SETS
                    if all(Counter(w.flowers)[t] >= n for t, n in Counter(fs).items()))
        fk = sum(1 for k in kongs if k["seat"] == w.seat and k["type"] == "flower")
        if fsets != fk:
            raise ValueError(f"{f}: flower kongs ({fk}) do not equal complete flower sets ({fsets})")
        nk = sum(1 for m in w.melds if m["type"] == "kong") + fk
        if "after_kong" in w.flags and nk < w.kong_chain:
            raise ValueError(f"{f}: after_kong without as many kongs as kong_chain")
        if "kong_discard" in w.flags:
            dk = sum(1 for k in kongs if w.discarder is not None and k["seat"] == w.discarder)
            if dk < w.kong_chain:
                raise ValueError(f"{f}: kong_discard without as many kongs by the discarder")

    # ---- values
    results = []
    for i, w in enumerate(wins):
        try:
            results.append(evaluate(w, ruleset, doubled))
        except ValueError as e:
            raise ValueError(f"wins[{i}]: {e}") from None

    # ---- payments
    payments = []

    def pay(frm, to, amount, reason):
        if amount:
            payments.append({"from": frm, "to": to, "amount": amount, "reason": reason})

    for w, r in zip(wins, results):
        T = r["value"]
        selfdrawn_like = w.discarder is None or w.robbing
        if w.kuaizhao:
            _, shares = kuaizhao_case(w, ruleset)
            pay(w.liable, w.seat, shares * T, "win")
        elif selfdrawn_like:
            if w.liable:
                pay(w.liable, w.seat, 3 * T, "win")
            else:
                for s in SEATS:
                    if s != w.seat:
                        pay(s, w.seat, T, "win")
        else:
            if w.liable:
                if (ruleset == "nanjing-classic" and w.liable != w.discarder
                        and shows_kuaizhao(w.melds, w.liable)):
                    # another player dealt in to the 快照 hand: L pays its 对对胡 value
                    amt = 2 * (r["H"] + r["S"]) + RUN + DDH_BONUS
                    if doubled:
                        amt *= 2
                    pay(w.liable, w.seat, amt, "win")
                else:
                    pay(w.liable, w.seat, T, "win")
            else:
                pay(w.discarder, w.seat, T, "win")
    mult = 2 if doubled else 1
    for k in kongs:
        if k["robbed"]:
            continue
        if k["type"] in ("exposed", "upgraded"):
            pay(k["from"], k["seat"], KONG_EXPOSED * mult, "kong")
        elif k["type"] == "concealed":
            for s in SEATS:
                if s != k["seat"]:
                    pay(s, k["seat"], KONG_CONCEALED * mult, "kong")
        else:
            for s in SEATS:
                if s != k["seat"]:
                    pay(s, k["seat"], KONG_FLOWER * mult, "flower_kong")
    for seat in penalties:
        for s in SEATS:
            if s != seat:
                pay(seat, s, P["penalty"], "penalty")

    # ---- 进园子 cap
    if garden is not None:
        payments = _cap(payments, garden["left"])

    net = {s: 0 for s in SEATS}
    for p in payments:
        net[p["from"]] -= p["amount"]
        net[p["to"]] += p["amount"]

    # ---- next dealer / doubling
    winners = {w.seat for w in wins}
    any_big = any(r["big"] for r in results)
    feats = set().union(*[set(r["features"]) for r in results]) if results else set()
    flower_kong = any(k["type"] == "flower" for k in kongs)
    liable_any = any(w.liable for w in wins)
    if ruleset == "nanjing":
        nd = (flower_kong or dealer in winners or bool(penalties)
              or "dagang_kaihua" in feats or not wins or len(wins) > 1
              or any_big or liable_any)
        next_dealer = dealer if nd else right_of(dealer)
    else:
        stays = any_big
        nd = (flower_kong or stays or bool(penalties)
              or bool({"xiaogang_kaihua", "dagang_kaihua"} & feats)
              or liable_any or len(wins) > 1 or not wins)
        next_dealer = dealer if stays else right_of(dealer)

    out = {
        "format": "mahjong-result/1",
        "ruleset": ruleset,
        "net": net,
        "wins": [{"seat": w.seat, "value": r["value"], "features": r["features"],
                  "breakdown": r["breakdown"]} for w, r in zip(wins, results)],
        "payments": payments,
        "next": {"dealer": next_dealer, "doubled": bool(nd)},
    }
    if garden is not None:
        left_after = {s: garden["left"][s] + net[s] for s in SEATS}
        out["left"] = left_after
        ewo = garden.get("end_when_out", 2)
        out["garden_over"] = sum(1 for s in SEATS if left_after[s] == 0) >= ewo
    return out


def _cap(payments, left):
    """Cap each payer's total at its balance before the hand; split in
    proportion to the total owed to each payee (floor, remainder one each to
    payees in turn order from the payer's right); within one payee the capped
    amount is applied to that payee's entries in their order."""
    out = [dict(p) for p in payments]
    for payer in SEATS:
        mine = [p for p in out if p["from"] == payer]
        total = sum(p["amount"] for p in mine)
        budget = left[payer]
        if total <= budget:
            continue
        owed = Counter()
        for p in mine:
            owed[p["to"]] += p["amount"]
        share = {s: budget * owed[s] // total for s in owed}
        rem = budget - sum(share.values())
        s = payer
        while rem > 0:
            s = right_of(s)
            if owed.get(s, 0) > 0 and share[s] < owed[s]:
                share[s] += 1
                rem -= 1
        for p in mine:
            give = min(p["amount"], share[p["to"]])
            share[p["to"]] -= give
            p["amount"] = give
    return [p for p in out if p["amount"] > 0]


if __name__ == "__main__":
    example = {
        "format": "mahjong-hand/1",
        "ruleset": "nanjing",
        "dealer": "E",
        "doubled": False,
        "wins": [{
            "seat": "S", "discarder": "E", "liable": None,
            "concealed": "234m567m999m111p55p", "melds": [],
            "winning_tile": "5p", "flowers": "1f5z6z7z", "flags": [],
        }],
        "kongs": [], "penalties": [], "false_wins": [], "dead_hands": [],
    }
    expected = {
        "format": "mahjong-result/1",
        "ruleset": "nanjing",
        "net": {"E": -52, "S": 52, "W": 0, "N": 0},
        "wins": [{
            "seat": "S", "value": 52,
            "features": ["duzhan", "queyi", "menqing"],
            "breakdown": [
                {"code": "hard_flowers", "label": "硬花 ×4", "points": 8},
                {"code": "duzhan", "label": "独占", "points": 2},
                {"code": "queyi", "label": "缺一", "points": 2},
                {"code": "run20", "label": "跑20", "points": 20},
                {"code": "menqing", "label": "门清", "points": 20},
            ],
        }],
        "payments": [{"from": "E", "to": "S", "amount": 52, "reason": "win"}],
        "next": {"dealer": "S", "doubled": False},
    }
    got = score(example)
    assert got == expected, got
    print("self-check OK")
