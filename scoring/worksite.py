"""江苏工地麻将: the value of a win is the hand's flowers (T), counted from the
winner's tiles or taken from quick entry, under a ruleset of the ``worksite`` family.

No doubling and no kong money: kongs count as flowers of the hand instead. A win
needs at least ``min_flowers``.
"""

from __future__ import annotations

from collections.abc import Mapping
from operator import itemgetter

from . import payments, reading, shape, tiles
from .errors import ScoringError
from .reading import Scored
from .record import Hand, Win
from .rulesets import WORKSITE_BONUSES, WorksiteRuleset

#: the counted things, in the order the breakdown lists them
COUNT_CODES = (
    "hard_flowers", "feng_peng", "feng_anke", "feng_gang", "minggang", "angang",
    "soft_flowers", "gangshang_kaihua", "ganghou_pao", "tianhu", "haidi",
)  # fmt: skip
SEVEN_PAIR_TIERS = ("danqidui", "haohua_qidui", "haohua_shuang_qidui", "chaohaohua_shuang_qidui")
NAMES = {
    "hard_flowers": "花牌",
    "feng_peng": "风碰",
    "feng_anke": "风暗刻",
    "feng_gang": "风杠",
    "minggang": "明杠",
    "angang": "暗杠",
    "soft_flowers": "其他花",
    "gangshang_kaihua": "杠上开花",
    "ganghou_pao": "杠后炮",
    "tianhu": "天糊",
    "haidi": "海底捞月",
    "dasixi": "大四喜",
    "xiaosixi": "小四喜",
    "dadiaoche": "大吊车",
    "qingyise": "清一色",
    "hunyise": "混一色",
    "duiduihu": "对对糊",
    "yitiaolong": "一条龙",
    "sananke": "三暗刻",
    "sianke": "四暗刻",
    "danqidui": "单7对",
    "haohua_qidui": "豪华7对",
    "haohua_shuang_qidui": "豪华双7对",
    "chaohaohua_shuang_qidui": "超豪华双7对",
    "menqianqing": "门前清",
}
#: ticks of which at most one counts (quick entry refuses more; the entry page greys
#: out the others)
ONE_OF = (
    frozenset({"dasixi", "xiaosixi"}),
    frozenset({"sananke", "sianke"}),
    frozenset({"hunyise", "qingyise"}),
    frozenset(SEVEN_PAIR_TIERS),
)
#: what no seven-pairs hand can also be
SEVEN_PAIRS_EXCLUDE = frozenset(
    {"menqianqing", "duiduihu", "dadiaoche", "dasixi", "xiaosixi", "yitiaolong", "sananke"}
    | {"sianke"}
)
#: (name, count) pairs where the label shows a count
_COUNTED = {"hard_flowers", "feng_peng", "feng_anke", "minggang", "angang", "soft_flowers"}


#: a counted line: (code, count, points). A reading's lines are written in the order
#: the breakdown lists them (COUNT_CODES, then WORKSITE_BONUSES), so none is sorted,
#: and hold only what counts: a pattern the ruleset does not score is left out.
Line = tuple[str, int, int]
#: one reading of the winner's tiles: its value, its lines and its shape
_Reading = tuple[int, list[Line], str]


def _common(win: Win, rules: WorksiteRuleset) -> tuple[list[Line], list[Line]]:
    """What counts in every reading: the flower tiles, and the lines of the flags (the
    breakdown lists the sets' flowers between the two)."""
    c = rules.counts
    hard = win.hard
    tiles_line = [("hard_flowers", hard, hard * c.flower_tile)] if hard else []
    flags = win.flags
    if not flags:
        return tiles_line, []
    out = []
    chain = win.kong_chain
    # 杠上开花: declaring a flower is a 开杠 here; the opening replacement's win is 天糊
    # in its place
    if ("after_kong" in flags or "after_flower" in flags) and "tianhu" not in flags:
        out.append(("gangshang_kaihua", chain, chain * c.gangshang_kaihua))
    if "kong_discard" in flags:
        out.append(("ganghou_pao", chain, chain * c.ganghou_pao))
    if "tianhu" in flags:
        out.append(("tianhu", 1, c.tianhu))
    if "last_tile" in flags:
        out.append(("haidi", 1, c.haidi))
    return tiles_line, out


def _set_counts(win: Win, rules: WorksiteRuleset, out: list[Line]) -> tuple[int, int]:
    """风碰 1, 风暗刻 1; 风杠 exposed 2, concealed 3; other kongs exposed 1, concealed 2
    (appended to ``out``); answers the wind sets and the concealed kongs.

    Winds make no runs: a wind held three times is a triplet in every standard
    reading, so 风暗刻 is read off the concealed counts once for all of them."""
    assert win.counts is not None
    c = rules.counts
    peng = wind = wind_points = exposed = concealed = wind_concealed = 0
    for m in win.melds:
        if m.kind >= 27:
            if not m.is_kong:
                peng += 1
            elif m.concealed:
                wind += 1
                wind_concealed += 1
                wind_points += c.wind_kong_concealed
            else:
                wind += 1
                wind_points += c.wind_kong_exposed
        elif m.concealed:
            concealed += 1
        elif m.is_kong:
            exposed += 1
    anke = win.counts[27:].count(3)
    if peng:
        out.append(("feng_peng", peng, peng * c.wind_pong))
    if anke:
        out.append(("feng_anke", anke, anke * c.wind_concealed_triplet))
    if wind:
        out.append(("feng_gang", wind, wind_points))
    if exposed:
        out.append(("minggang", exposed, exposed * c.kong_exposed))
    if concealed:
        out.append(("angang", concealed, concealed * c.kong_concealed))
    return peng + wind + anke, concealed + wind_concealed


def _total(lines: list[Line]) -> int:
    """The points of some lines."""
    total = 0
    for _, _, points in lines:
        total += points
    return total


def _readings(win: Win, rules: WorksiteRuleset) -> list[_Reading]:
    """Every reading of the winner's tiles, valued as it is found, in the order that
    wins ties (the first of equal readings is the one scored)."""
    assert win.counts is not None
    counts = win.counts
    bonus = rules.bonus
    _, one_suit = reading.colour(counts, win.melds)
    suit = [(one_suit, 1, bonus[one_suit])] if one_suit and one_suit in bonus else []
    hard, flags = _common(win, rules)
    decompositions = shape.decompositions(counts)
    found = _standard(win, rules, (hard, flags, suit), decompositions) if decompositions else []
    if not win.melds and shape.is_seven_pairs(counts):
        # 7对: no wind flowers, no 门前清; the tiers count the fours held
        tier = SEVEN_PAIR_TIERS[min(counts.count(4), 3)]
        lines = hard + flags + suit
        if tier in bonus:
            lines.append((tier, 1, bonus[tier]))
        found.append((_total(lines), lines, "seven_pairs"))
    return found


def _standard(
    win: Win,
    rules: WorksiteRuleset,
    common: tuple[list[Line], list[Line], list[Line]],
    decompositions: list[shape.Decomposition],
) -> list[_Reading]:
    """The standard readings: one per decomposition, or one per place of the winning
    tile where that place decides a 暗刻; ``common`` holds the flower tiles', the
    flags' and the suit's lines."""
    assert win.counts is not None
    melds = win.melds
    bonus = rules.bonus
    hard, flags, suit = common
    shared = list(hard)
    wind_sets, concealed_kongs = _set_counts(win, rules, shared)
    shared += flags
    # 小四喜 has its pair of winds: a wind held twice is the pair of every reading
    if wind_sets == 4 and "dasixi" in bonus:
        shared.append(("dasixi", 1, bonus["dasixi"]))
    elif wind_sets == 3 and "xiaosixi" in bonus and 2 in win.counts[27:]:
        shared.append(("xiaosixi", 1, bonus["xiaosixi"]))
    if len(melds) == 4 and "dadiaoche" in bonus:
        shared.append(("dadiaoche", 1, bonus["dadiaoche"]))
    shared += suit
    value = _total(shared)
    # without a declared set, 门清 under any rule; it is the breakdown's last line
    last = []
    if "menqianqing" in bonus and (not melds or reading.menqing(melds, rules.win.menqing)):
        last.append(("menqianqing", 1, bonus["menqianqing"]))
        value += bonus["menqianqing"]
    found = []
    for decomposition in decompositions:
        sets = decomposition.sets
        own = []
        points = value
        if decomposition.triplets_only:
            triplets = len(sets)
            if "duiduihu" in bonus:
                own.append(("duiduihu", 1, bonus["duiduihu"]))
                points += bonus["duiduihu"]
        else:
            runs = [first for kind, first in sets if kind == "r"]
            triplets = len(sets) - len(runs)
            if len(runs) >= 3 and "yitiaolong" in bonus and _long_run(set(runs)):
                own.append(("yitiaolong", 1, bonus["yitiaolong"]))
                points += bonus["yitiaolong"]
        concealed = concealed_kongs + triplets
        if concealed >= 3 and _open_triplet(win, sets):
            # a triplet completed on a discard is not concealed: where the winning tile
            # sits decides 三暗刻 or 四暗刻, each place a reading
            assert win.winning_tile is not None
            win_kind = tiles.kind_of(win.winning_tile)
            for place in reading.wait_places(sets, decomposition.pair, win_kind):
                anke = concealed - (place == "triplet")
                found.append(_standard_reading(points, (shared, own, last), anke, bonus))
        else:
            # wherever the winning tile sits (it sits somewhere: it is among the
            # concealed tiles), the reading is the same
            found.append(_standard_reading(points, (shared, own, last), concealed, bonus))
    return found


def _long_run(runs: set[int]) -> bool:
    """一条龙: runs from 1, 4 and 7 of one suit."""
    return {0, 3, 6} <= runs or {9, 12, 15} <= runs or {18, 21, 24} <= runs


def _open_triplet(win: Win, sets: tuple[shape.Set, ...]) -> bool:
    """Whether the winning tile, taken on a discard (or robbed from a kong), can sit in
    a triplet of the reading."""
    assert win.winning_tile is not None
    if win.discarder is None and "robbing_kong" not in win.flags:
        return False
    return ("t", tiles.kind_of(win.winning_tile)) in sets


def _standard_reading(
    value: int,
    parts: tuple[list[Line], list[Line], list[Line]],
    concealed: int,
    bonus: Mapping[str, int],
) -> _Reading:
    """A standard reading worth ``value`` before its 暗刻, from the lines every reading
    shares, its own and the last (门前清), with ``concealed`` 暗刻 (concealed kongs
    included): 三暗刻 or 四暗刻 go between its own lines and the last."""
    shared, own, last = parts
    if concealed >= 3:
        code = "sianke" if concealed >= 4 else "sananke"
        if code in bonus:
            points = bonus[code]
            return value + points, [*shared, *own, (code, 1, points), *last], "standard"
    return value, [*shared, *own, *last], "standard"


def candidates(win: Win, rules: WorksiteRuleset) -> list[tuple[list[Line], str]]:
    """Every reading of the winner's tiles as its counted lines and its shape."""
    return [(lines, name) for _, lines, name in _readings(win, rules)]


def scored(lines: list[Line], shape_name: str) -> Scored:
    """One reading's value and breakdown, from its lines (in the breakdown's order)."""
    out = []
    features = []
    value = 0
    for code, n, points in lines:
        label = f"{NAMES[code]} ×{n}" if code in _COUNTED or n > 1 else NAMES[code]
        out.append((code, label, points))
        value += points
        if code != "hard_flowers":
            features.append(code)
    menqing = "menqianqing" in features
    return Scored(value, value, tuple(out), tuple(features), False, menqing, 0, shape_name)


def konger(hand: Hand, win: Win) -> str:
    """The seat whose kong a robbing win robbed: its ``discarder``, or the seat of the
    kong marked ``robbed``."""
    if win.discarder is not None:
        return win.discarder
    robbed = [kong.seat for kong in hand.kongs if kong.robbed]
    if not robbed:
        raise ScoringError(
            "a robbing win in 工地 is paid by the konger: give it as discarder, "
            "or mark the robbed kong",
            field=f"{win.field}.discarder",
            zh="工地麻将的抢杠胡由被抢杠者付：请注明被抢杠者（放炮者）或标记被抢的杠",
            code="robbing_needs_konger",
        )
    return robbed[0]


def win_payments(hand: Hand, win: Win, value: int) -> list[payments.Payment]:
    """Who pays a win worth ``value``: the discarder, or each other seat when self-drawn;
    a robbing win (抢杠) the konger alone, one share, as if they had discarded the tile;
    a liable seat (包牌) every share; after a 诈糊 the (first) false winner pays all of it
    in place of the payers."""
    if "robbing_kong" in win.flags:
        payers: tuple[str, ...] = (konger(hand, win),)
    elif win.discarder is None:
        payers = payments.others(win.seat)
    else:
        payers = (win.discarder,)
    if hand.false_wins:
        return [payments.Payment(hand.false_wins[0], win.seat, value * len(payers), "win")]
    return payments.win_shares(win, value, payers)


def _check_passed(win: Win) -> None:
    """过水: a player who passed a win on a discard may not win on the same tile, or a
    同路 tile (same suit, three apart: 1-4-7, 2-5-8, 3-6-9), until their own next draw."""
    # most wins pass nothing, so that is asked first; a robbed tile was never discarded
    if not win.passed or win.self_drawn or "robbing_kong" in win.flags or not win.winning_tile:
        return
    kind = tiles.kind_of(win.winning_tile)
    for code in win.passed:
        other = tiles.kind_of(code)
        same = other == kind
        same_road = (
            kind < 27 and tiles.suit_of(other) == tiles.suit_of(kind) and (other - kind) % 3 == 0
        )
        if same or same_road:
            raise ScoringError(
                f"过水: {win.winning_tile!r} may not be won on a discard after passing "
                f"{code!r} before the winner's own next draw",
                field=f"{win.field}.passed",
                zh=f"过水：放过了{tiles.name(code)}，自己摸牌前不能再胡{tiles.name(win.winning_tile)}",
                code="passed_tile",
                params={"tile": tiles.name(win.winning_tile), "passed": tiles.name(code)},
            )


def score_win(win: Win, hand: Hand, rules: WorksiteRuleset) -> Scored:
    """The value of one win: the reading with the most flowers."""
    if win.seat in hand.false_wins:
        raise ScoringError(
            "a false winner (诈糊) may not win again in this hand",
            field=f"{win.field}.seat",
            zh="诈糊者本庄不能再胡牌",
            code="false_winner_wins",
        )
    if win.seat in hand.dead_hands:
        raise ScoringError(
            "a dead hand (相公) may not win",
            field=f"{win.field}.seat",
            zh="相公不能胡牌",
            code="dead_hand_wins",
        )
    _check_passed(win)
    if win.quick:
        best = _quick(win, rules)
    else:
        found = _readings(win, rules)
        if not found:
            raise ScoringError(
                "not a winning hand",
                field=f"{win.field}.concealed",
                zh="手牌不成胡",
                code="not_winning",
            )
        # the breakdown is written out for the best reading only (the first of equal ones)
        _, lines, name = found[0] if len(found) == 1 else max(found, key=itemgetter(0))
        best = scored(lines, name)
        if win.features or win.soft_flowers is not None:
            _check_ticks(win, best)
    need = rules.win.min_flowers
    if best.value < need:
        raise ScoringError(
            f"not a legal win: a win needs at least {need} flowers, the hand has {best.value}",
            field=f"{win.field}.flowers",
            zh=f"不能胡：至少 {need} 个花才能胡，这手牌只有 {best.value} 个（可记为诈糊）",
            code="too_few_flowers",
            params={"need": str(need), "flowers": str(best.value)},
        )
    return best


def _check_ticks(win: Win, scored: Scored) -> None:
    for code in win.features or ():
        if code not in scored.features:
            raise ScoringError(
                f"{code!r} is ticked but the tiles do not give it "
                f"(they give: {', '.join(scored.features) or 'none'})",
                field=f"{win.field}.features",
                zh=f"勾选了“{NAMES.get(code, code)}”，但手牌不成此番",
                code="worksite_ticked_not_given",
                params={
                    "feature": NAMES.get(code, code),
                    "given": "、".join(NAMES.get(c, c) for c in scored.features) or "无",
                },
            )
    if win.soft_flowers is not None:
        soft = sum(p for code, _, p in scored.lines if code in COUNT_CODES[1:6])
        if win.soft_flowers != soft:
            raise ScoringError(
                f"says {win.soft_flowers} other flowers but the tiles give {soft}",
                field=f"{win.field}.soft_flowers",
                zh=f"其他花数 {win.soft_flowers} 与手牌算出的 {soft} 不符",
                code="other_flowers_mismatch",
                params={"said": str(win.soft_flowers), "given": str(soft)},
            )


def _quick(win: Win, rules: WorksiteRuleset) -> Scored:
    """Quick entry: flower tiles, the other flowers (winds and kongs) as one count, and
    the ticked patterns, checked for what cannot combine."""
    field = f"wins[{win.number}].features"  # win.field, written out: a call less per hand
    ticked = set(win.features or ())
    for code in win.features or ():
        if code not in rules.bonus:
            raise ScoringError(
                f"unknown feature {code!r} in {rules.id}",
                field=field,
                zh=f"本规则没有番种 “{code}”",
                code="unknown_feature",
                params={"feature": str(code), "ruleset": rules.id},
            )
    for group in ONE_OF:
        if len(ticked & group) > 1:
            both = [c for c in WORKSITE_BONUSES if c in ticked & group]
            raise ScoringError(
                f"{' and '.join(both)} exclude each other",
                field=field,
                zh=f"{'、'.join(NAMES[c] for c in both)} 不能同时成立",
                code="features_exclude",
                params={"features": "、".join(NAMES[c] for c in both)},
            )
    if ticked & set(SEVEN_PAIR_TIERS) and ticked & SEVEN_PAIRS_EXCLUDE:
        raise ScoringError(
            "seven pairs cannot combine with set patterns or 门前清",
            field=field,
            zh="七对不能与门前清或成副的番种同时成立",
            code="worksite_seven_pairs_exclude",
        )
    lines, flags = _common(win, rules)
    if win.soft_flowers:
        lines.append(("soft_flowers", win.soft_flowers, win.soft_flowers))
    lines += flags
    lines += [(code, 1, rules.bonus[code]) for code in WORKSITE_BONUSES if code in ticked]
    return scored(lines, "quick")
