"""Independent reference scorer for 江苏工地麻将 (ruleset "jiangsu-worksite").

Written only from /work/shared/RULES.md, HAND_RECORD.md and the seed text.
Python 3.11, standard library only.

    score(record: dict) -> dict

Readings chosen where the documents are open are marked "DECISION" below.
"""
from __future__ import annotations

import re
from collections import Counter

SEATS = ("E", "S", "W", "N")
RULESET = "jiangsu-worksite"

# ---- numbers of the ruleset (RULES.md, 江苏工地麻将) -------------------------
MIN_FLOWERS = 5              # legal win: T >= 5
FLOWER_TILE = 1              # each flower tile held
WIND_PONG_EXPOSED = 1        # exposed wind pong
WIND_TRIPLET_CONCEALED = 1   # concealed wind triplet
WIND_KONG_EXPOSED = 2
WIND_KONG_CONCEALED = 3
KONG_EXPOSED = 1             # other (non-wind) kongs
KONG_CONCEALED = 2
GANG_KAIHUA_PER_KONG = 5     # 杠上开花
GANG_HOU_PAO_PER_KONG = 5    # 杠后炮
TIANHU = 5
HAIDI = 5
DASIXI, XIAOSIXI = 40, 20
DADIAOCHE = 30
QINGYISE, HUNYISE = 15, 10
DUIDUIHU = 10
YITIAOLONG = 10
SANANKE, SIANKE = 10, 20
QIDUI_TIERS = [("danqidui", "单7对", 15), ("haohua_qidui", "豪华7对", 30),
               ("haohua_shuang_qidui", "豪华双7对", 60),
               ("chaohaohua_shuang_qidui", "超豪华双7对", 120)]
MENQIANQING = 5
FLOWER_SET_MONEY = 5         # per declared flower set, from each other player
PENALTY = 5                  # to each other player

TOP_KEYS = {"format", "ruleset", "dealer", "doubled", "wins", "kongs", "penalties",
            "false_wins", "dead_hands", "garden"}
WIN_KEYS = {"seat", "discarder", "liable", "concealed", "melds", "winning_tile",
            "flowers", "flags", "kong_chain", "passed", "others_ponged"}
# quick entry (HAND_RECORD.md): known keys, but this reference scores tiles only
QUICK_KEYS = {"features", "hard_flowers", "soft_flowers"}
MELD_KEYS = {"type", "tile", "from", "upgraded"}
KONG_KEYS = {"seat", "type", "from", "robbed"}
PEN_KEYS = {"type", "seat"}
SEAT_KEYS = {"seat"}
FLAGS = {"after_flower", "after_kong", "kong_discard", "robbing_kong", "last_tile",
         "tianhu", "dihu", "kuaizhao"}
FLOWER_SETS = [("5z",) * 4, ("6z",) * 4, ("7z",) * 4,
               ("1f", "2f", "3f", "4f"), ("5f", "6f", "7f", "8f")]


class ScoringError(ValueError):
    pass


def _err(msg):
    raise ScoringError(msg)


# ---- tiles -------------------------------------------------------------------
_MPSZ = re.compile(r"^(?:[0-9]+[mpszf])*$")


def parse_tiles(s, field):
    if not isinstance(s, str):
        _err(f"{field}: not a string")
    s = s.replace(" ", "")
    if not _MPSZ.match(s):
        _err(f"{field}: bad tile notation {s!r}")
    out = []
    for digits, suit in re.findall(r"([0-9]+)([mpszf])", s):
        for d in digits:
            n = int(d)
            ok = (suit in "mps" and 1 <= n <= 9) or (suit == "z" and 1 <= n <= 7) \
                or (suit == "f" and 1 <= n <= 8)
            if not ok:
                _err(f"{field}: bad tile {d}{suit}")
            out.append(f"{n}{suit}")
    return out


def is_flower(t):
    return t[1] == "f" or (t[1] == "z" and int(t[0]) >= 5)


def is_wind(t):
    return t[1] == "z" and int(t[0]) <= 4


def parse_play_tile(s, field):
    ts = parse_tiles(s, field)
    if len(ts) != 1:
        _err(f"{field}: must be exactly one tile")
    if is_flower(ts[0]):
        _err(f"{field}: {ts[0]} is a flower, not a playing tile")
    return ts[0]


def _key(t):
    return ("mpsz".index(t[1]), int(t[0]))


def decompositions(counts: Counter, nsets: int):
    """All ways to split counts into nsets sets (triplet/run) + one pair.
    Each result: (pair_tile, tuple of ("trip"|"run", tile)) sorted."""
    results = set()

    def sets_only(c, k, acc):
        if k == 0:
            if sum(c.values()) == 0:
                results.add((pair, tuple(sorted(acc, key=lambda g: (g[0], _key(g[1]))))))
            return
        tiles = sorted((t for t, n in c.items() if n > 0), key=_key)
        if not tiles:
            return
        t = tiles[0]
        if c[t] >= 3:
            c[t] -= 3
            sets_only(c, k - 1, acc + [("trip", t)])
            c[t] += 3
        if t[1] in "mps" and int(t[0]) <= 7:
            t2, t3 = f"{int(t[0]) + 1}{t[1]}", f"{int(t[0]) + 2}{t[1]}"
            if c[t2] > 0 and c[t3] > 0:
                for x in (t, t2, t3):
                    c[x] -= 1
                sets_only(c, k - 1, acc + [("run", t)])
                for x in (t, t2, t3):
                    c[x] += 1

    for pair in sorted(counts, key=_key):
        if counts[pair] >= 2:
            c = Counter(counts)
            c[pair] -= 2
            sets_only(c, nsets, [])
    return sorted(results, key=lambda r: (_key(r[0]), r[1]))


def is_seven_pairs(counts: Counter):
    # DECISION: four identical tiles count as two pairs (needed for 豪华7对).
    return sum(counts.values()) == 14 and all(n in (2, 4) for n in counts.values())


# ---- validation helpers ------------------------------------------------------
def _seat(v, field, nullable=False):
    if v is None and nullable:
        return None
    if v not in SEATS:
        _err(f"{field}: bad seat {v!r}")
    return v


def _check_keys(obj, allowed, field):
    if not isinstance(obj, dict):
        _err(f"{field}: not an object")
    extra = set(obj) - allowed
    if extra:
        _err(f"{field}: unknown key(s) {sorted(extra)}")


def _list(rec, key):
    v = rec.get(key, [])
    if v is None:
        v = []
    if not isinstance(v, list):
        _err(f"{key}: not a list")
    return v


def right_of(seat):
    return SEATS[(SEATS.index(seat) + 1) % 4]


# ---- evaluation of one win ---------------------------------------------------
def _line(code, label, points):
    return {"code": code, "label": label, "points": points}


def evaluate_win(w):
    """Return (value, breakdown) of the best reading; None if no winning reading."""
    melds = w["melds"]
    flags = w["flags"]
    chain = w["kong_chain"]
    concealed = w["concealed"]
    cc = Counter(concealed)
    nsets = 4 - len(melds)
    wt = w["winning_tile"]
    # a triplet completed on a discard / robbed kong is not concealed
    from_outside = w["discarder"] is not None or "robbing_kong" in flags

    common = []
    nfl = len(w["flowers"])
    if nfl:
        common.append(_line("flowers", f"花牌 ×{nfl}", nfl * FLOWER_TILE))

    # meld-based points
    feng_peng = feng_gang = gang = 0
    for m in melds:
        t = m["tile"]
        if m["type"] == "pong":
            if is_wind(t):
                feng_peng += WIND_PONG_EXPOSED
        else:
            conc = m["from"] is None
            if is_wind(t):
                feng_gang += WIND_KONG_CONCEALED if conc else WIND_KONG_EXPOSED
            else:
                gang += KONG_CONCEALED if conc else KONG_EXPOSED

    bonus = []
    # 抓到花必须立即开杠: a win on the replacement after a flower is 杠上开花
    # too, 5 per kong or flower declaration in the chain (kong_chain counts
    # both; DECISION: after_kong and after_flower together are one chain).
    # 天糊 is the opening replacement's win and stands in place of it.
    if ({"after_kong", "after_flower"} & set(flags)) and "tianhu" not in flags:
        bonus.append(_line("gangshang_kaihua", f"杠上开花 ×{chain}", GANG_KAIHUA_PER_KONG * chain))
    if "kong_discard" in flags:
        bonus.append(_line("ganghou_pao", f"杠后炮 ×{chain}", GANG_HOU_PAO_PER_KONG * chain))
    if "tianhu" in flags:
        bonus.append(_line("tianhu", "天糊", TIANHU))
    if "last_tile" in flags:
        bonus.append(_line("haidi", "海底捞月", HAIDI))

    # suit test over the whole hand (concealed + melds)
    all_tiles = list(concealed) + [m["tile"] for m in melds]
    suits = {t[1] for t in all_tiles if t[1] in "mps"}
    winds = any(is_wind(t) for t in all_tiles)
    suit_lines = []
    if len(suits) == 1 and not winds:
        suit_lines.append(_line("qingyise", "清一色", QINGYISE))
    elif len(suits) == 1 and winds:
        suit_lines.append(_line("hunyise", "混一色", HUNYISE))

    menqing_ok = all(m["type"] == "kong" and not m["upgraded"] for m in melds)
    conc_kongs = sum(1 for m in melds if m["type"] == "kong" and m["from"] is None)

    candidates = []
    # standard readings
    for pair, groups in decompositions(cc, nsets):
        lines = list(common)
        wind_trips = sum(1 for g, t in groups if g == "trip" and is_wind(t))
        fp, fa = feng_peng, wind_trips * WIND_TRIPLET_CONCEALED
        if fp:
            lines.append(_line("feng_peng", "风碰", fp))
        if fa:
            lines.append(_line("feng_anke", "风暗刻", fa))
        if feng_gang:
            lines.append(_line("feng_gang", "风杠", feng_gang))
        if gang:
            lines.append(_line("gang", "杠", gang))
        lines += bonus
        wind_sets = wind_trips + sum(1 for m in melds if is_wind(m["tile"]))
        if wind_sets == 4:
            lines.append(_line("dasixi", "大四喜", DASIXI))
        elif wind_sets == 3 and is_wind(pair):
            lines.append(_line("xiaosixi", "小四喜", XIAOSIXI))
        if len(melds) == 4:
            lines.append(_line("dadiaoche", "大吊车", DADIAOCHE))
        lines += suit_lines
        if all(g == "trip" for g, _ in groups):
            lines.append(_line("duiduihu", "对对糊", DUIDUIHU))
        for s in "mps":
            if all(("run", f"{n}{s}") in groups for n in (1, 4, 7)):
                lines.append(_line("yitiaolong", "一条龙", YITIAOLONG))
                break
        # 暗刻: concealed triplets + concealed kongs; best placement of the
        # winning tile (a triplet of it is lost only if it cannot sit elsewhere)
        trips = [t for g, t in groups if g == "trip"]
        anke = len(trips) + conc_kongs
        if from_outside and wt in trips:
            elsewhere = pair == wt or any(
                g == "run" and t[1] == wt[1] and int(t[0]) <= int(wt[0]) <= int(t[0]) + 2
                for g, t in groups)
            if not elsewhere:
                anke -= 1
        if anke >= 4:
            lines.append(_line("sianke", "四暗刻", SIANKE))
        elif anke == 3:
            lines.append(_line("sananke", "三暗刻", SANANKE))
        if menqing_ok:
            lines.append(_line("menqianqing", "门前清", MENQIANQING))
        candidates.append(lines)
    # seven pairs reading
    if not melds and is_seven_pairs(cc):
        lines = list(common) + bonus   # no wind flowers, no 门前清
        quads = sum(1 for n in cc.values() if n == 4)
        code, label, pts = QIDUI_TIERS[min(quads, 3)]
        lines.append(_line(code, label, pts))
        lines += suit_lines
        candidates.append(lines)
    if not candidates:
        return None
    best = max(candidates, key=lambda ls: sum(l["points"] for l in ls))
    return sum(l["points"] for l in best), best


# ---- 包牌 ----------------------------------------------------------------------
def liable_seat(melds):
    """The seat that fed three or more of the sets (pongs, kongs taken on its
    discard, kongs added to a pong it fed: item 11's 对牌), or None."""
    fed = Counter(m["from"] for m in melds if m.get("from") is not None)
    for seat in SEATS:
        if fed[seat] >= 3:
            return seat
    return None


# ---- main entry --------------------------------------------------------------
def score(record: dict) -> dict:
    _check_keys(record, TOP_KEYS, "hand")
    if record.get("format") != "mahjong-hand/1":
        _err("format: must be 'mahjong-hand/1'")
    if record.get("ruleset") != RULESET:
        _err(f"ruleset: this reference scores only {RULESET!r}")
    dealer = _seat(record.get("dealer"), "dealer")
    doubled = record.get("doubled", False)
    if doubled is not False:
        _err("doubled: 工地 hands are never doubled")
    if "garden" in record and record["garden"] is not None:
        _err("garden: not used in 工地")

    # kongs
    kongs = []
    for i, k in enumerate(_list(record, "kongs")):
        f = f"kongs[{i}]"
        _check_keys(k, KONG_KEYS, f)
        seat = _seat(k.get("seat"), f + ".seat")
        typ = k.get("type")
        if typ not in ("exposed", "upgraded", "concealed", "flower"):
            _err(f"{f}.type: bad kong type {typ!r}")
        frm = _seat(k.get("from"), f + ".from", nullable=True)
        if typ in ("exposed", "upgraded"):
            if frm is None:
                _err(f"{f}.from: an {typ} kong needs the seat that fed it")
            if frm == seat:
                _err(f"{f}.from: a seat cannot feed itself")
        elif frm is not None:
            _err(f"{f}.from: a {typ} kong has no feeder")
        robbed = k.get("robbed", False)
        if not isinstance(robbed, bool):
            _err(f"{f}.robbed: not a boolean")
        if robbed and typ != "upgraded":
            _err(f"{f}.robbed: only an upgraded kong can be robbed")
        kongs.append({"seat": seat, "type": typ, "from": frm, "robbed": robbed})

    penalties = []
    for i, p in enumerate(_list(record, "penalties")):
        f = f"penalties[{i}]"
        _check_keys(p, PEN_KEYS, f)
        if p.get("type") not in ("follow", "four_discards"):
            _err(f"{f}.type: bad penalty type {p.get('type')!r}")
        penalties.append(_seat(p.get("seat"), f + ".seat"))

    false_wins, dead = [], []
    for key, dest in (("false_wins", false_wins), ("dead_hands", dead)):
        for i, x in enumerate(_list(record, key)):
            _check_keys(x, SEAT_KEYS, f"{key}[{i}]")
            dest.append(_seat(x.get("seat"), f"{key}[{i}].seat"))

    # wins
    raw_wins = _list(record, "wins")
    wins = []
    for i, w in enumerate(raw_wins):
        f = f"wins[{i}]"
        _check_keys(w, WIN_KEYS | QUICK_KEYS, f)
        if QUICK_KEYS & set(w) or "concealed" not in w:
            raise NotImplementedError("quick entry is not covered by this reference")
        seat = _seat(w.get("seat"), f + ".seat")
        disc = _seat(w.get("discarder"), f + ".discarder", nullable=True)
        liable = _seat(w.get("liable"), f + ".liable", nullable=True)
        if disc == seat:
            _err(f"{f}.discarder: equal to the winner")
        if liable == seat:
            _err(f"{f}.liable: equal to the winner")
        if "concealed" not in w or "winning_tile" not in w:
            _err(f"{f}: tiles mode needs concealed and winning_tile")
        flags = w.get("flags", []) or []
        if not isinstance(flags, list) or any(x not in FLAGS for x in flags):
            _err(f"{f}.flags: unknown flag in {flags!r}")
        if "kuaizhao" in flags:
            _err(f"{f}.flags: kuaizhao is not played in 工地")
        chain = w.get("kong_chain", 1)
        if chain is None:
            chain = 1
        if not isinstance(chain, int) or isinstance(chain, bool) or chain < 1:
            _err(f"{f}.kong_chain: must be a positive integer")
        concealed = parse_tiles(w["concealed"], f + ".concealed")
        for t in concealed:
            if is_flower(t):
                _err(f"{f}.concealed: flower {t} among the playing tiles")
        wt = parse_play_tile(w["winning_tile"], f + ".winning_tile")
        flowers = parse_tiles(w.get("flowers", "") or "", f + ".flowers")
        # 过水: the tiles passed on since the winner's own last draw
        passed = parse_tiles(w.get("passed", "") or "", f + ".passed")
        if any(is_flower(t) for t in passed):
            _err(f"{f}.passed: a flower cannot be passed on")
        # DECISION: others_ponged is a 南京 key (压绝); 工地 accepts and ignores it
        parse_tiles(w.get("others_ponged", "") or "", f + ".others_ponged")
        for t in flowers:
            if not is_flower(t):
                _err(f"{f}.flowers: {t} is not a flower")
        melds = []
        for j, m in enumerate(w.get("melds", []) or []):
            mf = f"{f}.melds[{j}]"
            _check_keys(m, MELD_KEYS, mf)
            typ = m.get("type")
            if typ not in ("pong", "kong"):
                _err(f"{mf}.type: bad meld type {typ!r}")
            tile = parse_play_tile(m.get("tile"), mf + ".tile")
            frm = _seat(m.get("from"), mf + ".from", nullable=True)
            up = m.get("upgraded", False)
            if not isinstance(up, bool):
                _err(f"{mf}.upgraded: not a boolean")
            if frm == seat:
                _err(f"{mf}.from: a seat cannot feed itself")
            if typ == "pong" and (frm is None or up):
                _err(f"{mf}: a pong needs 'from' and cannot be upgraded")
            if typ == "kong" and up and frm is None:
                _err(f"{mf}: an upgraded kong needs who fed the pong")
            melds.append({"type": typ, "tile": tile, "from": frm, "upgraded": up})
        if len(melds) > 4:
            _err(f"{f}.melds: more than four sets")
        if len(concealed) != 14 - 3 * len(melds):
            _err(f"{f}.concealed: {len(concealed)} tiles, expected {14 - 3 * len(melds)}")
        if wt not in concealed:
            _err(f"{f}.winning_tile: not among the concealed tiles")
        wins.append({"seat": seat, "discarder": disc, "liable": liable,
                     "concealed": concealed, "melds": melds, "winning_tile": wt,
                     "flowers": flowers, "flags": list(flags), "kong_chain": chain,
                     "passed": passed})

    seats_won = [w["seat"] for w in wins]
    if len(set(seats_won)) != len(seats_won):
        _err("wins: a seat wins twice")
    if len(wins) > 1:
        d0, t0 = wins[0]["discarder"], wins[0]["winning_tile"]
        if d0 is None or any(w["discarder"] != d0 or w["winning_tile"] != t0 for w in wins):
            _err("wins: several winners need one shared discarder and winning tile")
        if any(w["discarder"] in seats_won for w in wins):
            _err("wins: the discarder is also a winner")
        if any("robbing_kong" in w["flags"] for w in wins):
            raise NotImplementedError("several winners robbing one kong")

    # tile totals across winners
    tot = Counter()
    for w in wins:
        tot.update(w["concealed"])
        for m in w["melds"]:
            tot[m["tile"]] += 3 if m["type"] == "pong" else 4
        tot.update(w["flowers"])
    if len(wins) > 1:
        tot[wins[0]["winning_tile"]] -= len(wins) - 1
    for t, n in tot.items():
        if t[1] == "f" and n > 1:
            _err(f"flowers: {t} held twice")
        if n > 4:
            _err(f"tiles: {n} copies of {t}")

    robbed_kongs = [k for k in kongs if k["robbed"]]
    if robbed_kongs and not any("robbing_kong" in w["flags"] for w in wins):
        _err("kongs: robbed kong with no robbing_kong win")

    for i, w in enumerate(wins):
        f = f"wins[{i}]"
        seat, flags, disc = w["seat"], w["flags"], w["discarder"]
        if seat in false_wins:
            _err(f"{f}: seat {seat} made a false win (诈糊) and may not win")
        if seat in dead:
            _err(f"{f}: seat {seat} is a dead hand (相公) and may not win")
        # winner's kongs match the kongs list one for one
        mine = Counter((k["type"], k["from"]) for k in kongs
                       if k["seat"] == seat and k["type"] != "flower")
        need = Counter()
        for m in w["melds"]:
            if m["type"] == "kong":
                if m["from"] is None:
                    need[("concealed", None)] += 1
                elif m["upgraded"]:
                    need[("upgraded", m["from"])] += 1
                else:
                    need[("exposed", m["from"])] += 1
        if mine != need:
            _err(f"{f}: kong sets do not match seat {seat}'s kongs entries")
        fc = Counter(w["flowers"])
        nsets_fl = sum(1 for s in FLOWER_SETS if all(fc[t] >= (4 if len(set(s)) == 1 else 1)
                                                      for t in set(s)))
        nfk = sum(1 for k in kongs if k["seat"] == seat and k["type"] == "flower")
        if nfk != nsets_fl:
            _err(f"{f}: {nsets_fl} complete flower set(s) but {nfk} flower kong(s) recorded")
        # flags
        if "tianhu" in flags and (seat != dealer or disc is not None or w["melds"]):
            _err(f"{f}.flags: tianhu needs the dealer, self-drawn, no set declared")
        if "dihu" in flags and w["melds"]:
            _err(f"{f}.flags: dihu with a set declared")
        if "after_flower" in flags and (disc is not None or not w["flowers"]):
            _err(f"{f}.flags: after_flower on a discard or with no flowers")
        n_own_kongs = sum(1 for m in w["melds"] if m["type"] == "kong") + nfk
        if "after_kong" in flags:
            # DECISION: a replacement-draw win cannot be on a discard
            if disc is not None:
                _err(f"{f}.flags: after_kong on a discard")
            # DECISION: flower kongs count among the winner's kongs
            if n_own_kongs < w["kong_chain"]:
                _err(f"{f}.flags: after_kong needs {w['kong_chain']} kong(s) of the winner")
        if "kong_discard" in flags:
            nd = sum(1 for k in kongs if disc is not None and k["seat"] == disc)
            if nd < w["kong_chain"]:
                _err(f"{f}.flags: kong_discard needs {w['kong_chain']} kong(s) by the discarder")
        if w["kong_chain"] > 1 and not ({"after_kong", "kong_discard"} & set(flags)):
            _err(f"{f}.kong_chain: above 1 without after_kong or kong_discard")
        # 过水: no win on another's tile that is one passed on, or 同路 with it
        # (same suit, three apart: 1-4-7, 2-5-8, 3-6-9) until one's own draw
        if disc is not None or "robbing_kong" in flags:
            wt = w["winning_tile"]
            for t in w["passed"]:
                same_road = (t[1] == wt[1] and t[1] in "mps"
                             and (int(t[0]) - int(wt[0])) % 3 == 0)
                if t == wt or same_road:
                    _err(f"{f}: 过水 — {wt} after passing {t} since the last draw")
        if "robbing_kong" in flags:
            cands = [k for k in robbed_kongs if k["seat"] != seat]
            if not cands:
                _err(f"{f}.flags: robbing_kong with no robbed upgraded kong in kongs")
            if disc is not None and disc not in [k["seat"] for k in cands]:
                _err(f"{f}.discarder: not the seat whose kong was robbed")
            held = w["concealed"].count(w["winning_tile"]) + sum(
                (3 if m["type"] == "pong" else 4) for m in w["melds"]
                if m["tile"] == w["winning_tile"])
            if held > 1:
                _err(f"{f}: a robbing winner holds more than one {w['winning_tile']}")

    # values
    results, payments = [], []
    for i, w in enumerate(wins):
        ev = evaluate_win(w)
        if ev is None:
            _err(f"wins[{i}].concealed: not a winning hand")
        value, lines = ev
        if value < MIN_FLOWERS:
            _err(f"wins[{i}]: {value} flower(s), fewer than the {MIN_FLOWERS} needed to win "
                 "(record it as a false win)")
        feats = []
        for l in lines:
            if l["code"] not in ("flowers", "gang") and l["code"] not in feats:
                feats.append(l["code"])
        results.append({"seat": w["seat"], "value": value, "features": feats,
                        "breakdown": lines})
        seat = w["seat"]
        # the seed is silent on 抢杠; RULES.md: the konger pays it as if they had
        # discarded the tile, one share
        robbing = "robbing_kong" in w["flags"]
        selfdrawn = w["discarder"] is None and not robbing
        konger = w["discarder"]
        if robbing and konger is None:
            konger = next(k["seat"] for k in robbed_kongs if k["seat"] != seat)
        payer = None
        if false_wins:
            payer = false_wins[0]
            if w["liable"] is not None and w["liable"] != payer:
                raise NotImplementedError("诈糊 together with a different 包牌 liable seat")
        elif w["liable"] is not None:
            payer = w["liable"]
        if payer is not None:
            payments.append({"from": payer, "to": seat,
                             "amount": value * (3 if selfdrawn else 1), "reason": "win"})
        elif selfdrawn:
            for s in SEATS:
                if s != seat:
                    payments.append({"from": s, "to": seat, "amount": value, "reason": "win"})
        else:
            payments.append({"from": konger, "to": seat, "amount": value,
                             "reason": "win"})

    # flower-set money (no kong money in 工地)
    for k in kongs:
        if k["type"] != "flower":
            continue
        if k["seat"] in false_wins or k["seat"] in dead:
            continue
        for s in SEATS:
            if s != k["seat"]:
                payments.append({"from": s, "to": k["seat"], "amount": FLOWER_SET_MONEY,
                                 "reason": "flower_kong"})
    for p in penalties:
        for s in SEATS:
            if s != p:
                payments.append({"from": p, "to": s, "amount": PENALTY, "reason": "penalty"})

    net = {s: 0 for s in SEATS}
    for p in payments:
        net[p["from"]] -= p["amount"]
        net[p["to"]] += p["amount"]
    assert sum(net.values()) == 0

    next_dealer = dealer if dealer in seats_won else right_of(dealer)
    return {"format": "mahjong-result/1", "ruleset": RULESET, "net": net,
            "wins": results, "payments": payments,
            "next": {"dealer": next_dealer, "doubled": False}}


# ---- self-check --------------------------------------------------------------
if __name__ == "__main__":
    def hand(**kw):
        base = {"format": "mahjong-hand/1", "ruleset": RULESET, "dealer": "E",
                "wins": [], "kongs": [], "penalties": []}
        base.update(kw)
        return base

    # 1) S wins on E's discard: flowers 3 + 东碰 1 + 一条龙 10 = 14.
    r = score(hand(wins=[{"seat": "S", "discarder": "E", "concealed": "123456789m55p",
                          "melds": [{"type": "pong", "tile": "1z", "from": "W"}],
                          "winning_tile": "5p", "flowers": "1f2f3f"}]))
    assert r["wins"][0]["value"] == 14, r
    assert r["net"] == {"E": -14, "S": 14, "W": 0, "N": 0}, r
    assert r["next"] == {"dealer": "S", "doubled": False}

    # 2) dealer E self-draws 豪华7对 (quad 9p) with a flower kong 春夏秋冬:
    #    4 flowers + 30 = 34 from each; flower-set money 5 from each.
    r = score(hand(wins=[{"seat": "E", "concealed": "11335577m9999p11s",
                          "winning_tile": "3m", "flowers": "1f2f3f4f"}],
                   kongs=[{"seat": "E", "type": "flower", "from": None}]))
    assert r["wins"][0]["value"] == 34, r
    assert r["net"] == {"E": 117, "S": -39, "W": -39, "N": -39}, r
    assert r["next"]["dealer"] == "E"

    # 3) W self-draws on the kong replacement, three pongs fed by N (包牌 N),
    #    concealed 东 kong: 2 flowers + 风暗杠 3 + 杠上开花 5 + 大吊车 30 + 对对糊 10 = 50;
    #    N pays 150. S pays a follow penalty 5 to each other seat.
    r = score(hand(wins=[{"seat": "W", "liable": "N", "concealed": "77s",
                          "melds": [{"type": "pong", "tile": "2m", "from": "N"},
                                    {"type": "pong", "tile": "5p", "from": "N"},
                                    {"type": "pong", "tile": "9s", "from": "N"},
                                    {"type": "kong", "tile": "1z", "from": None}],
                          "winning_tile": "7s", "flowers": "5z6z", "flags": ["after_kong"]}],
                   kongs=[{"seat": "W", "type": "concealed", "from": None}],
                   penalties=[{"type": "follow", "seat": "S"}]))
    assert r["wins"][0]["value"] == 50, r
    assert r["net"] == {"E": 5, "S": -15, "W": 155, "N": -145}, r
    assert r["next"]["dealer"] == "S"

    # 4) 1 flower + 南碰 1 = 2 < 5: refused (门前清 would have made it 7 without the pong)
    try:
        score(hand(wins=[{"seat": "S", "discarder": "E", "concealed": "123456m234p55s",
                          "melds": [{"type": "pong", "tile": "2z", "from": "W"}],
                          "winning_tile": "5s", "flowers": "1f"}]))
        raise SystemExit("expected refusal")
    except ValueError:
        pass
    print("self-check ok")
