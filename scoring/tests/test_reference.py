"""Differential test: every generated hand scored by the engine and by an
independent scorer (scoring/tests/reference) must come out the same: each win's
value, every seat's net, the next dealer and doubling, the 园子 balances, the
features, and whether the record is refused at all. Hands are varied beyond the
generator: 进园子 gardens of random balances on 南京 tables, 诈糊 and 相公 seats
on 工地 tables.

A second test builds, from the generator's legal hands, the hands the generator
does not deal, one kind per rule of RULES.md (issue 10 among them): 天胡 (and
天胡 with a set, refused), 地胡, 海底, 杠后炮, 抢杠, 快照 instant wins of every
kind (the fourth set fed by the liable seat, by another player, from one's own
draw; the 清一色 fourth mouth; H = 0 for 无花果; without either, refused), a
deal-in and a self-draw on a 快照 hand, 包牌 seats on ordinary wins and on 一炮多响
where the liable seat is the other winner, ``others_ponged`` for 压绝 and the wait set, 工地's
``after_flower`` chains and 天糊 on the opening replacement, 过水 (``passed``
refused or not), and 快照 in 工地 (refused).

Both tests count every disagreement by kind of hand and by what differs, print
that table, and fail when any count is not zero.

One difference is allowed, and only that one: when a single wait can be read as
two wait flowers worth the same (``123456789m55m`` winning on 5m: 独占 or 压档),
RULES.md does not say which to name. The engine names the pair wait first
(docs/scoring.md, "Reading the hand"); the reference the first of RULES.md's
list. The value is the same either way, and so is the count of wait flowers. And the
工地 kongs (flowers of the hand, no code in RULES.md) are a breakdown line for both
but a feature code only for the engine (``minggang``, ``angang``): not compared.
"""

from __future__ import annotations

import json
import random
import sys
from collections import Counter
from collections.abc import Iterable
from typing import Any

import pytest

import scoring
from scoring import liability
from scoring.generate import random_hands
from scoring.tests.reference import nanjing_ref, worksite_ref

WAIT_FLOWERS = {"yadang", "bianzhi", "duzhan"}
UNCODED = {"minggang", "angang", "gang"}
HANDS = 1500
SEATS = "ESWN"
RULESETS = [
    ("nanjing", nanjing_ref),
    ("nanjing-classic", nanjing_ref),
    ("jiangsu-worksite", worksite_ref),
]

Record = dict[str, Any]


def _vary(record: Record, rng: random.Random, ruleset: str) -> Record:
    winners = {w["seat"] for w in record["wins"]}
    others = [s for s in SEATS if s not in winners]
    if ruleset == "jiangsu-worksite":
        roll = rng.random()
        if roll < 0.3 and others:
            record["false_wins"] = [{"seat": rng.choice(others)}]
        elif roll < 0.6 and others:
            chosen = rng.sample(others, rng.randint(1, len(others)))
            record["dead_hands"] = [{"seat": s} for s in chosen]
    elif rng.random() < 0.5:
        size = rng.choice([30, 50, 100])
        left = {s: rng.randint(1, 2 * size) for s in SEATS}
        record["garden"] = {"size": size, "left": left, "end_when_out": rng.choice([1, 2])}
    return record


def _outcome(result: Record) -> Record:
    return {
        "net": result["net"],
        "values": [(w["seat"], w["value"]) for w in result["wins"]],
        "features": [
            (
                sorted(set(w["features"]) - WAIT_FLOWERS - UNCODED),
                len(set(w["features"]) & WAIT_FLOWERS),
            )
            for w in result["wins"]
        ],
        "next": result["next"],
        "left": result.get("left"),
        "garden_over": bool(result.get("garden_over")),
    }


def _engine(record: Record) -> Record:
    try:
        return scoring.score(json.loads(json.dumps(record)))
    except scoring.ScoringError as exc:
        return {"refused": str(exc)}


def _reference(reference: Any, record: Record) -> Record | None:
    try:
        return reference.score(json.loads(json.dumps(record)))
    except NotImplementedError:
        return None  # a case the reference leaves out
    except ValueError as exc:
        return {"refused": str(exc)}


def _what_differs(ours: Record, theirs: Record) -> str:
    """A short name for how two outcomes differ (the report's second column)."""
    if ("refused" in ours) != ("refused" in theirs):
        return "engine refuses" if "refused" in ours else "reference refuses"
    a, b = _outcome(ours), _outcome(theirs)
    gained: set[str] = set()
    lost: set[str] = set()
    for (fa, _), (fb, _) in zip(a["features"], b["features"], strict=False):
        gained |= set(fa) - set(fb)
        lost |= set(fb) - set(fa)
    parts = [f"+{c}" for c in sorted(gained)] + [f"-{c}" for c in sorted(lost)]
    parts += [key for key in ("values", "net", "next", "left", "garden_over") if a[key] != b[key]]
    return " ".join(parts) or "wait flowers"


class Tally:
    """Hands compared and disagreements, by kind of hand and by what differs."""

    def __init__(self, ruleset: str) -> None:
        self.ruleset = ruleset
        self.compared: Counter[str] = Counter()
        self.disagree: Counter[tuple[str, str]] = Counter()
        self.example: dict[tuple[str, str], str] = {}
        self.kinds: set[str] = set()

    def add(self, kind: str, record: Record, ours: Record, theirs: Record) -> None:
        self.compared[kind] += 1
        self.kinds.add(kind)
        refused = ("refused" in ours, "refused" in theirs)
        if refused == (True, True) or (
            refused == (False, False) and _outcome(ours) == _outcome(theirs)
        ):
            return
        key = (kind, _what_differs(ours, theirs))
        self.disagree[key] += 1
        self.example.setdefault(key, json.dumps(record, ensure_ascii=False))

    def report(self) -> str:
        total = sum(self.disagree.values())
        lines = [
            f"{self.ruleset}: {total} disagreement(s) in {sum(self.compared.values())} hands"
            " (+code: the engine counts it and the reference not; -code: the other way)",
            "  compared: " + ", ".join(f"{k} {n}" for k, n in sorted(self.compared.items())),
        ]
        for (kind, what), count in sorted(self.disagree.items()):
            lines.append(f"  {kind:<24} {what:<40} {count:>5} of {self.compared[kind]}")
        for key, record in sorted(self.example.items()):
            lines.append(f"  e.g. {key[0]} / {key[1]}: {record}")
        return "\n".join(lines)


def _run(ruleset: str, reference: Any, hands: Iterable[tuple[str, Record, bool | None]]) -> Tally:
    """Score each (kind, record, expected refusal) with both; a case the reference
    leaves out is skipped. ``expected`` (None: either) checks the reference and the
    variant builder themselves, whatever the engine says."""
    tally = Tally(ruleset)
    for kind, record, expected in hands:
        theirs = _reference(reference, record)
        if theirs is None:
            continue
        if expected is not None:
            assert ("refused" in theirs) == expected, (kind, record, theirs)
        tally.add(kind, record, _engine(record), theirs)
    sys.stdout.write(tally.report() + "\n")  # the table, shown when the test fails
    return tally


@pytest.mark.parametrize(("ruleset", "reference"), RULESETS)
def test_the_engine_agrees_with_an_independent_scorer(ruleset, reference):
    rng = random.Random(2026)
    hands = (
        ("generated", _vary(record, rng, ruleset), None)
        for record in random_hands(2026, HANDS, ruleset)
    )
    tally = _run(ruleset, reference, hands)
    assert sum(tally.compared.values()) > HANDS * 0.9  # the reference scored nearly all
    assert not tally.disagree, tally.report()


# ---------------------------------------------------------------- rare hands


def _tiles(text: str) -> list[str]:
    return nanjing_ref.parse_tiles(text, "test")


def _held(win: Record) -> Counter[str]:
    """The playing tiles of a win: concealed and sets."""
    held = Counter(_tiles(win["concealed"]))
    for meld in win.get("melds") or []:
        held[meld["tile"]] += 3 if meld["type"] == "pong" else 4
    return held


def _set_kongs(record: Record, win: Record) -> None:
    """Rewrite the winner's non-flower ``kongs`` entries from their melds."""
    seat = win["seat"]
    kept = [k for k in record["kongs"] if k["seat"] != seat or k["type"] == "flower"]
    for meld in win["melds"]:
        if meld["type"] != "kong":
            continue
        if meld["from"] is None:
            kind = "concealed"
        else:
            kind = "upgraded" if meld["upgraded"] else "exposed"
        kept.append({"seat": seat, "type": kind, "from": meld["from"], "robbed": False})
    record["kongs"] = kept


def _set_meld(win: Record, meld: Record, how: str, feeder: str | None) -> bool:
    """Make ``meld`` a pong, exposed kong, upgraded kong or concealed kong; False
    when a kong would need a fifth copy of its tile."""
    if how != "pong" and meld["type"] == "pong" and _held(win)[meld["tile"]] > 3:
        return False
    meld["type"] = "pong" if how == "pong" else "kong"
    meld["from"] = None if how == "concealed" else feeder
    meld["upgraded"] = how == "upgraded"
    return True


def _fed(rng: random.Random) -> str:
    """A set fed by a seat: a pong, or a kong taken on a discard."""
    return rng.choice(["pong", "pong", "exposed"])


def _kuaizhao_sets(rng: random.Random, win: Record, liable: str, melds: list[Record]) -> bool:
    """The sets ``melds`` (three) made to show a 快照 against ``liable``."""
    pattern = rng.choice(["LLL", "LLC", "LCC"])
    hows = [(_fed(rng), liable) if c == "L" else ("concealed", None) for c in pattern]
    rng.shuffle(hows)
    return all(_set_meld(win, m, how, seat) for m, (how, seat) in zip(melds, hows, strict=True))


def _clear(win: Record) -> None:
    win.pop("kong_chain", None)
    win["flags"] = []


def _kuaizhao(rng: random.Random, record: Record, fourth: str) -> Record | None:
    """A 快照 instant win: four sets, the first three a 快照 against L, the
    fourth fed by L, by another player, or from the player's own draw."""
    win = record["wins"][0]
    seat = win["seat"]
    liable = rng.choice([s for s in SEATS if s != seat])
    other = rng.choice([s for s in SEATS if s not in (seat, liable)])
    melds = win["melds"]
    if not _kuaizhao_sets(rng, win, liable, melds[:3]):
        return None
    if fourth == "by_liable":
        ok = _set_meld(win, melds[3], _fed(rng), liable)
    elif fourth == "by_other":
        ok = _set_meld(win, melds[3], _fed(rng), other)
    else:
        how = rng.choice(["concealed", "upgraded"])
        ok = _set_meld(win, melds[3], how, rng.choice([liable, other]))
    if not ok:
        return None
    _clear(win)
    win["flags"], win["discarder"], win["liable"] = ["kuaizhao"], None, liable
    win["winning_tile"] = melds[3]["tile"]
    left = _tiles(win["concealed"])
    win["concealed"] = "".join(left[: rng.choice([1, 2])])
    if rng.random() < 0.3:  # H = 0: 无花果
        win["flowers"] = ""
        record["kongs"] = [k for k in record["kongs"] if k["seat"] != seat or k["type"] != "flower"]
    _set_kongs(record, win)
    return record


def _qingyise_fourth(rng: random.Random, record: Record) -> Record | None:
    """The 清一色 fourth mouth: three sets of one suit fed by three different
    seats (no 快照), the fourth of that suit fed by L."""
    win = record["wins"][0]
    seat = win["seat"]
    suit = rng.choice("mps")
    held = _held(win)
    pair = [t for t in held if held[t] >= 2 and t[1] != suit]
    if not pair:
        return None
    numbers = rng.sample(range(1, 10), 4)
    feeders = rng.sample([s for s in SEATS if s != seat], 3)
    liable = rng.choice(feeders)
    win["melds"] = [
        {"type": "pong", "tile": f"{n}{suit}", "from": f, "upgraded": False}
        for n, f in zip(numbers, [*feeders, liable], strict=True)
    ]
    _clear(win)
    win["flags"], win["discarder"], win["liable"] = ["kuaizhao"], None, liable
    win["concealed"], win["winning_tile"] = pair[0] * 2, f"{numbers[3]}{suit}"
    _set_kongs(record, win)
    return record


def _kuaizhao_unfounded(rng: random.Random, record: Record) -> Record | None:
    """A 快照 instant win without grounds (HAND_RECORD.md, Refused records): the first
    three sets fed by three different seats, so no 快照 against the liable seat, and
    the four sets not of one suit. Refused."""
    win = record["wins"][0]
    seat = win["seat"]
    melds = win["melds"]
    if nanjing_ref._one_suit([m["tile"] for m in melds]):
        return None
    feeders = [s for s in SEATS if s != seat]
    rng.shuffle(feeders)
    for meld, feeder in zip(melds, [*feeders, rng.choice(feeders)], strict=True):
        if not _set_meld(win, meld, _fed(rng), feeder):
            return None
    _clear(win)
    win["flags"], win["discarder"], win["liable"] = ["kuaizhao"], None, rng.choice(feeders)
    win["winning_tile"] = melds[3]["tile"]
    win["concealed"] = "".join(_tiles(win["concealed"])[: rng.choice([1, 2])])
    _set_kongs(record, win)
    return record


def _kuaizhao_hand(rng: random.Random, record: Record, how: str) -> Record | None:
    """A complete hand with three sets that show a 快照 against L, won on a
    discard by another player (``deal_in``), by L itself, or self-drawn."""
    win = record["wins"][0]
    seat = win["seat"]
    liable = rng.choice([s for s in SEATS if s != seat])
    if not _kuaizhao_sets(rng, win, liable, win["melds"]):
        return None
    _clear(win)
    win["liable"] = liable
    if how == "deal_in":
        win["discarder"] = rng.choice([s for s in SEATS if s not in (seat, liable)])
    elif how == "deal_in_by_liable":
        win["discarder"] = liable
    else:
        win["discarder"] = None
    _set_kongs(record, win)
    return record


def _co_winner(rng: random.Random, record: Record) -> Record:
    """一炮多响: the first winner's liable seat is the second winner, who fed
    the first winner's pongs (or some of them)."""
    first, second = record["wins"][:2]
    first["liable"] = second["seat"]
    for meld in first.get("melds") or []:
        if meld["type"] == "pong" and rng.random() < 0.8:
            meld["from"] = second["seat"]
    return record


def _others_ponged(rng: random.Random, record: Record) -> Record | None:
    """Other players' exposed pongs: tiles of which the winner holds at most one
    (the winning tile often among them, for 压绝 and for the wait set)."""
    win = record["wins"][0]
    held = _held(win)
    kinds = [f"{n}{s}" for s in "mps" for n in range(1, 10)] + [f"{n}z" for n in range(1, 5)]
    singles = [t for t in kinds if held[t] == 1]
    free = [t for t in kinds if held[t] == 0]
    chosen = set(rng.sample(singles, min(len(singles), rng.randint(1, 3))))
    if free and rng.random() < 0.5:
        chosen.add(rng.choice(free))
    if held[win["winning_tile"]] == 1 and rng.random() < 0.7:
        chosen.add(win["winning_tile"])
    if not chosen:
        return None
    win["others_ponged"] = "".join(sorted(chosen))
    return record


def _after_flower(rng: random.Random, record: Record, worksite: bool) -> Record | None:
    """A self-drawn win on the replacement after a flower: alone (chain 1), with
    ``after_kong`` (a chain as long as the winner's kongs, flower kongs
    included), or 天糊 on the opening replacement (dealer, no set)."""
    win = record["wins"][0]
    if not win.get("flowers"):
        return None
    win["discarder"] = None
    kongs = sum(1 for m in win.get("melds") or [] if m["type"] == "kong")
    kongs += sum(1 for k in record["kongs"] if k["seat"] == win["seat"] and k["type"] == "flower")
    roll = rng.random()
    _clear(win)
    if roll < 0.4 or (roll < 0.7 and not kongs):
        win["flags"] = ["after_flower"]
    elif roll < 0.7:
        win["flags"], win["kong_chain"] = ["after_flower", "after_kong"], rng.randint(1, kongs)
    elif not win.get("melds"):
        win["flags"], record["dealer"] = ["after_flower", "tianhu"], win["seat"]
    else:
        return None
    return record


def _same_road(tile: str) -> list[str]:
    if tile[1] not in "mps":
        return [tile]
    n = int(tile[0])
    return [f"{m}{tile[1]}" for m in range(1, 10) if (m - n) % 3 == 0]


def _guoshui(rng: random.Random, record: Record) -> tuple[Record, bool] | None:
    """过水: a discard win with ``passed`` tiles: the same tile or a 同路 one
    (refused) or another tile (not)."""
    win = record["wins"][0]
    if not win.get("discarder"):
        return None
    tile = win["winning_tile"]
    road = _same_road(tile)
    if rng.random() < 0.6:
        passed, refused = rng.choice(road), True
    else:
        kinds = [f"{n}{s}" for s in "mps" for n in range(1, 10)] + ["1z", "2z", "3z", "4z"]
        passed, refused = rng.choice([t for t in kinds if t not in road]), False
    win["passed"] = passed
    return record, refused


def _rob(rng: random.Random, record: Record, worksite: bool) -> Record | None:
    win = record["wins"][0]
    tile, seat = win["winning_tile"], win["seat"]
    if _held(win)[tile] > 1:
        return None  # the robbed tile is the only one of its kind the winner holds
    konger = rng.choice([s for s in SEATS if s != seat])
    feeder = rng.choice([s for s in SEATS if s != konger])
    record["kongs"].append({"seat": konger, "type": "upgraded", "from": feeder, "robbed": True})
    _clear(win)
    win["flags"], win["discarder"] = ["robbing_kong"], rng.choice([None, konger])
    if not worksite:
        win["liable"] = konger
    elif rng.random() < 0.2:
        win["liable"] = rng.choice([s for s in SEATS if s != seat])
    return record


def _rare(rng: random.Random, record: Record, worksite: bool) -> tuple[str, Record, bool] | None:
    """A rare variant of a legal generated hand: (kind, record, refused), or None
    when it cannot take the kind drawn."""
    wins = record["wins"]
    if not wins:
        return None
    win = wins[0]
    seat, melds = win["seat"], win.get("melds") or []
    others = [s for s in SEATS if s not in {w["seat"] for w in wins}]
    alone = len(wins) == 1
    # the kinds this hand can take, each rule about as often as the others
    kinds = ["liable", "last_tile", "rob", "after_flower"]
    if alone and not melds:
        kinds += ["tianhu", "dihu"]
    if alone and melds:
        kinds += ["tianhu_with_set"]
    if win.get("discarder"):
        kinds += ["kong_discard"]
    if alone and len(melds) == 4:
        kinds += ["kuaizhao"] * (2 if worksite else 6)
        kinds += [] if worksite else ["qingyise_fourth"] * 2 + ["kuaizhao_unfounded"] * 2
    if not worksite and alone and len(melds) == 3:
        kinds += ["kuaizhao_hand"] * 4
    if not worksite and alone:
        kinds += ["others_ponged"] * 2
    if worksite and alone and win.get("discarder"):
        kinds += ["guoshui"] * 2
    kind = rng.choice(kinds)
    out: Record | None = None
    refused = False
    if len(wins) == 2:
        kind, out = "liable_co_winner", _co_winner(rng, record)
    elif kind == "liable" and others:
        win["liable"] = rng.choice(others)
        out = record
    elif kind == "tianhu" and alone and not melds:
        _clear(win)
        win["discarder"], win["flags"], record["dealer"] = None, ["tianhu"], seat
        out = record
    elif kind == "tianhu_with_set" and alone and melds:
        _clear(win)
        win["discarder"], win["flags"], record["dealer"] = None, ["tianhu"], seat
        out, refused = record, True
    elif kind == "dihu" and alone and not melds:
        _clear(win)
        win["flags"] = ["dihu"]
        out = record
    elif kind == "last_tile":
        win["flags"] = sorted({*win.get("flags", []), "last_tile"})
        out = record
    elif kind == "kong_discard" and win.get("discarder"):
        chain = rng.choice([1, 2])
        record["kongs"] += [
            {"seat": win["discarder"], "type": "concealed", "from": None, "robbed": False}
        ] * chain
        for w in wins:
            w["flags"], w["kong_chain"] = sorted({*w.get("flags", []), "kong_discard"}), chain
        out = record
    elif kind == "rob" and alone:
        out = _rob(rng, record, worksite)
    elif kind == "kuaizhao" and alone and len(melds) == 4:
        fourth = rng.choice(["by_liable", "by_other", "own_draw"])
        kind = f"kuaizhao_{fourth}"
        out, refused = _kuaizhao(rng, record, fourth), worksite
    elif kind == "kuaizhao_unfounded" and alone and len(melds) == 4:
        out, refused = _kuaizhao_unfounded(rng, record), True
    elif kind == "qingyise_fourth" and alone and len(melds) == 4:
        out = _qingyise_fourth(rng, record)
    elif kind == "kuaizhao_hand" and alone and len(melds) == 3:
        how = rng.choice(["deal_in", "deal_in", "deal_in_by_liable", "self_draw"])
        kind = f"kuaizhao_{how}"
        out = _kuaizhao_hand(rng, record, how)
    elif kind == "others_ponged" and alone:
        out = _others_ponged(rng, record)
    elif kind == "after_flower" and alone:
        out = _after_flower(rng, record, worksite)
        if out is not None and "tianhu" in win["flags"]:
            kind = "tianhu_after_flower"
    elif kind == "guoshui" and alone:
        made = _guoshui(rng, record)
        if made is not None:
            (out, refused), kind = made, f"guoshui_{'refused' if made[1] else 'allowed'}"
    if out is None:
        return None
    return kind, out, refused


EXPECTED_KINDS = {
    "nanjing": {
        "liable", "tianhu", "tianhu_with_set", "dihu", "last_tile", "kong_discard", "rob",
        "kuaizhao_by_liable", "kuaizhao_by_other", "kuaizhao_own_draw", "qingyise_fourth",
        "kuaizhao_deal_in", "kuaizhao_deal_in_by_liable", "kuaizhao_self_draw",
        "kuaizhao_unfounded", "others_ponged", "after_flower", "liable_co_winner",
    },
    "jiangsu-worksite": {
        "liable", "tianhu", "tianhu_with_set", "dihu", "last_tile", "kong_discard", "rob",
        "kuaizhao_by_liable", "after_flower", "tianhu_after_flower", "guoshui_refused",
        "guoshui_allowed", "liable_co_winner",
    },
}  # fmt: skip


@pytest.mark.parametrize(("ruleset", "reference"), RULESETS)
def test_the_rare_hands_agree_with_an_independent_scorer(ruleset, reference):
    rng = random.Random(7)
    worksite = ruleset == "jiangsu-worksite"
    hands: list[tuple[str, Record, bool | None]] = []
    for record in random_hands(7, 3 * HANDS, ruleset):
        rare = _rare(rng, record, worksite)
        if rare is not None:
            hands.append(rare)
    tally = _run(ruleset, reference, hands)
    assert sum(tally.compared.values()) > HANDS
    assert EXPECTED_KINDS["jiangsu-worksite" if worksite else "nanjing"] <= tally.kinds
    assert not tally.disagree, tally.report()


def test_a_disagreement_is_counted_and_fails(capsys):
    """The tally is a real check: a reference that scores one rule otherwise is
    reported by kind and by what differs."""

    class Skewed:
        @staticmethod
        def score(record: Record) -> Record:
            result = nanjing_ref.score(record)
            for seat in result["net"]:
                result["net"][seat] *= 2
            return result

    record = next(r for r in random_hands(1, 20, "nanjing") if r["wins"])
    tally = _run("nanjing", Skewed, [("generated", record, None)])
    assert tally.disagree == Counter({("generated", "net"): 1})
    assert "nanjing: 1 disagreement(s) in 1 hands" in capsys.readouterr().out


def test_the_liability_helpers_agree_with_the_references():
    """包牌 proposals on generated sets with feeders redrawn so that one seat often
    feeds three: 工地 counts pongs and kongs fed by the same seat (exposed, or
    added to a pong it fed); 南京's 快照 seat is the one the reference's
    ``shows_kuaizhao`` names, when it names exactly one."""
    rng = random.Random(11)
    disagree: Counter[str] = Counter()
    checked: Counter[str] = Counter()
    for ruleset in ("nanjing", "jiangsu-worksite"):
        for record in random_hands(11, HANDS, ruleset):
            for win in record["wins"]:
                melds = win.get("melds") or []
                others = [s for s in SEATS if s != win["seat"]]
                for meld in melds:
                    if meld["from"] is not None and rng.random() < 0.7:
                        meld["from"] = others[0]
                if ruleset == "jiangsu-worksite":
                    checked["worksite"] += 1
                    if liability.worksite_liable(melds) != worksite_ref.liable_seat(melds):
                        disagree["worksite"] += 1
                    continue
                named = [s for s in others if nanjing_ref.shows_kuaizhao(melds, s)]
                if len(named) == 1:
                    checked["kuaizhao"] += 1
                    if liability.kuaizhao_liable(melds) != named[0]:
                        disagree["kuaizhao"] += 1
    assert checked["worksite"] > 100 and checked["kuaizhao"] > 50, checked
    assert not disagree, (disagree, checked)
