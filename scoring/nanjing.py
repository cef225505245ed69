"""南京麻将: the value of a win, derived from the winner's tiles or taken from
quick entry (counts and ticks), under a ruleset of the ``nanjing`` family.

T = flower_multiplier × (H + S) + run + bonuses, × double_factor if 比下胡.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from typing import Any, NamedTuple

from . import payments, reading, shape, tiles
from .errors import ScoringError
from .reading import Scored
from .record import Hand, Meld, Win, kuaizhao_against, next_seat
from .rulesets import NANJING_BONUSES, NanjingRuleset

#: 软花, in the order the breakdown lists them
SOFT_CODES = ("feng_peng", "yadang", "duzhan", "bianzhi", "queyi", "feng_gang")
SEVEN_PAIR_TIERS = ("qidui", "haohua_qidui", "chaohaohua_qidui", "chaochaohaohua_qidui")
SEVEN_PAIR_CODES = frozenset((*SEVEN_PAIR_TIERS, "shuang_qidui"))
#: 色子胡: every bonus but 门清 and the two 杠开花
BIG_HANDS = frozenset(NANJING_BONUSES) - {"menqing", "xiaogang_kaihua", "dagang_kaihua"}
#: ticks of which at most one counts (quick entry refuses more; the entry page greys
#: out the others), with the reason in English and Chinese
ONE_OF = (SEVEN_PAIR_CODES, frozenset({"hunyise", "qingyise"}))
#: what no seven-pairs hand can also be
SEVEN_PAIRS_EXCLUDE = frozenset({"menqing", "duiduihu", "quanqiu_dudiao", "yajue"})
#: bonuses that only flags can give
FLAG_BONUSES = {
    "after_flower": "xiaogang_kaihua",
    "after_kong": "dagang_kaihua",
    "tianhu": "tianhu",
    "dihu": "dihu",
}
NAMES = {
    "hard_flowers": "硬花",
    "soft_flowers": "软花",
    "feng_peng": "风碰",
    "yadang": "压档",
    "duzhan": "独占",
    "bianzhi": "边枝",
    "queyi": "缺一",
    "feng_gang": "风杠",
    "menqing": "门清",
    "hunyise": "混一色",
    "qingyise": "清一色",
    "duiduihu": "对对胡",
    "quanqiu_dudiao": "全球独钓",
    "qidui": "七对",
    "haohua_qidui": "豪华七对",
    "chaohaohua_qidui": "超豪华七对",
    "chaochaohaohua_qidui": "超超豪华七对",
    "shuang_qidui": "双七对",
    "yajue": "压绝",
    "wuhuaguo": "无花果",
    "xiaogang_kaihua": "小杠开花",
    "dagang_kaihua": "大杠开花",
    "tianhu": "天胡",
    "dihu": "地胡",
    "doubled": "比下胡",
}


class _Reading(NamedTuple):
    soft: dict[str, int]
    bonuses: frozenset[str]
    shape: str
    #: False for the classic 快照 win fed by another player: 对对胡 only, no 无花果
    wuhuaguo: bool = True


# --- 快照 --------------------------------------------------------------------------


def fed(meld: Meld) -> bool:
    """Whether a set was taken from another player's discard: a pong, or a kong made at
    once on a discard; a concealed kong or a kong added to one's own pong was drawn."""
    return meld.feeder is not None and not meld.upgraded


def _duiduihu_only(win: Win, rules: NanjingRuleset) -> bool:
    """篇一 快照2: a 快照 hand whose fourth set another player than L fed counts 对对胡
    only (in a ruleset with ``kuaizhao_discard = "duiduihu"``)."""
    last = win.melds[-1]
    return (
        rules.win.kuaizhao_discard == "duiduihu"
        and fed(last)
        and last.feeder != win.liable
        and win.liable is not None
        and kuaizhao_against(win.melds, win.liable)
    )


# --- from the tiles ----------------------------------------------------------------


def _readings(win: Win, hand: Hand, rules: NanjingRuleset) -> list[_Reading]:
    """Every interpretation of the winner's tiles."""
    assert win.counts is not None and win.winning_tile is not None
    melds = win.melds
    counts = win.counts
    flagged = {FLAG_BONUSES[f] for f in win.flags if f in FLAG_BONUSES} if win.flags else set()
    common = _meld_flowers(melds) if melds else {}
    if "kuaizhao" in win.flags:
        # The 快照 instant win: 对对胡 + 全球独钓 (+ 混一色/清一色 of the four sets);
        # soft flowers from the sets only, 缺一 judged on them; no wait flower.
        queyi, one_suit = reading.colour(None, melds)
        if queyi:
            common["queyi"] = 1
        if _duiduihu_only(win, rules):
            return [_Reading(common, frozenset({"duiduihu"}), "kuaizhao", wuhuaguo=False)]
        bonuses = flagged | {"duiduihu", "quanqiu_dudiao"}
        if one_suit:
            bonuses.add(one_suit)
        return [_Reading(common, frozenset(bonuses), "kuaizhao")]
    win_kind = tiles.kind_of(win.winning_tile)
    queyi, one_suit = reading.colour(counts, melds)
    if queyi:
        common["queyi"] = 1
    if one_suit:
        flagged.add(one_suit)
    earned = frozenset(flagged)
    if not melds or reading.menqing(melds, rules.win.menqing):
        earned |= _MENQING
    if len(melds) == 4:
        earned |= _QUANQIU_DUDIAO
    # 压绝: a pong of the winning tile on the table, the winner's own (篇一 and 篇二) or
    # another player's (篇二: 已经被碰下来)
    ponged = any(m.type == "pong" and m.kind == win_kind for m in melds) or (
        rules.win.yajue == "any" and win_kind in win.others_ponged
    )
    # the wait set only matters to a wait flower (独占, 压档, 边枝: a single wait), so
    # it is worked out the first time a reading places the winning tile for one
    single: bool | None = None
    readings = []
    for decomposition in shape.decompositions(counts):
        got = earned | _DUIDUIHU if decomposition.triplets_only else earned
        for place in reading.wait_places(decomposition.sets, decomposition.pair, win_kind):
            flower = _WAIT_FLOWERS.get(place)
            if flower is not None and single is None:
                single = _single_wait(win, win_kind, decomposition.pair)
            if flower is None or not single:
                readings.append(_Reading(common, got, "standard"))
            elif flower != "duzhan" and ponged:
                readings.append(_Reading(common, got | {"yajue"}, "standard"))
            else:
                readings.append(_Reading({**common, flower: 1}, got, "standard"))
    if not melds and shape.is_seven_pairs(counts):
        # 七对: only the hard flowers and 缺一 count among the flowers; never 门清
        if rules.win.seven_pairs == "shuang":
            flagged.add("shuang_qidui" if counts[win_kind] == 4 else "qidui")
        else:
            flagged.add(SEVEN_PAIR_TIERS[min(counts.count(4), 3)])
        soft = {"queyi": 1} if queyi else {}
        readings.append(_Reading(soft, frozenset(flagged), "seven_pairs"))
    return readings


_DUIDUIHU = frozenset({"duiduihu"})
_MENQING = frozenset({"menqing"})
_QUANQIU_DUDIAO = frozenset({"quanqiu_dudiao"})


def _meld_flowers(melds: tuple[Meld, ...]) -> dict[str, int]:
    """风碰 1 each; 风杠 2 exposed, 3 concealed."""
    soft = {}
    peng = gang = 0
    for m in melds:
        if m.kind >= 27:
            if m.is_kong:
                gang += 3 if m.concealed else 2
            else:
                peng += 1
    if peng:
        soft["feng_peng"] = peng
    if gang:
        soft["feng_gang"] = gang
    return soft


def _single_wait(win: Win, win_kind: int, pair: int) -> bool:
    """Whether the hand before the win waited on one kind only (a kind whose four
    copies are all in sight, the winner's or another player's pong, is no wait)."""
    assert win.counts is not None
    seen: dict[int, int] = {}
    for m in win.melds:
        seen[m.kind] = seen.get(m.kind, 0) + m.size
    for kind in win.others_ponged:
        seen[kind] = seen.get(kind, 0) + 3  # another player's pong: no tile left to win on
    return len(shape.won_waits(win.counts, win_kind, pair, seen, not win.melds)) == 1


_WAIT_FLOWERS = {"pair": "duzhan", "closed": "yadang", "edge": "bianzhi"}
#: the flowers of a reading in the order the breakdown lists them
_SOFT_ORDER = (*SOFT_CODES, "soft_flowers")


def _worth(reading: _Reading, hard: int, rules: NanjingRuleset) -> tuple[int, bool]:
    """A reading's value before doubling, and whether it is a legal win; cheap, to
    choose among readings before the breakdown of the best is written out."""
    bonus = rules.bonus
    earned = [code for code in reading.bonuses if code in bonus]
    menqing = "menqing" in earned
    big = any(code in BIG_HANDS for code in earned)
    points = sum(bonus[code] for code in earned)
    if (
        reading.wuhuaguo
        and "wuhuaguo" in bonus
        and "wuhuaguo" not in earned
        and wuhuaguo(hard, earned)
    ):
        points += bonus["wuhuaguo"]
        big = True
    flowers = hard + sum(reading.soft.values())
    value = rules.win.flower_multiplier * flowers + rules.win.run + points
    return value, menqing or big or hard >= rules.win.min_hard_flowers


def wuhuaguo(hard: int, bonuses: Collection[str]) -> bool:
    """无花果: a win without a hard flower that is 门清 or another big hand (色子胡)."""
    return hard == 0 and ("menqing" in bonuses or bool(set(bonuses) & BIG_HANDS - {"wuhuaguo"}))


# --- value ---------------------------------------------------------------------------


def _assemble(win: Win, hand: Hand, rules: NanjingRuleset, reading: _Reading) -> Scored:
    mult = rules.win.flower_multiplier
    run = rules.win.run
    bonus = rules.bonus
    h = win.hard
    bonuses = bonus.keys() & reading.bonuses
    if reading.wuhuaguo and "wuhuaguo" in bonus and wuhuaguo(h, bonuses):
        bonuses.add("wuhuaguo")
    lines: list[tuple[str, str, int]] = []
    features: list[str] = []
    if h:
        lines.append(("hard_flowers", f"{NAMES['hard_flowers']} ×{h}", mult * h))
    soft_total = 0
    if reading.soft:
        for code in _SOFT_ORDER:
            n = reading.soft.get(code)
            if n:
                soft_total += n
                lines.append((code, NAMES[code] if n == 1 else f"{NAMES[code]} ×{n}", mult * n))
                if code != "soft_flowers":
                    features.append(code)
    lines.append(("run20", f"跑{run}", run))
    points = 0
    for code in sorted(bonuses, key=_BONUS_ORDER.__getitem__):
        lines.append((code, NAMES[code], bonus[code]))
        features.append(code)
        points += bonus[code]
    base = mult * (h + soft_total) + run + points
    factor = rules.next.double_factor if hand.doubled else 1
    if factor != 1:
        lines.append(("doubled", f"{NAMES['doubled']} ×{factor}", base * (factor - 1)))
    duiduihu_value = (mult * (h + soft_total) + run + bonus.get("duiduihu", 0)) * factor
    big_hand = not bonuses.isdisjoint(BIG_HANDS)
    return Scored(
        base * factor, base, tuple(lines), tuple(features), big_hand, "menqing" in bonuses,
        duiduihu_value, reading.shape,
    )  # fmt: skip


#: the order the breakdown lists bonuses in
_BONUS_ORDER = {code: i for i, code in enumerate(NANJING_BONUSES)}


def _legal(scored: Scored, win: Win, rules: NanjingRuleset) -> bool:
    return scored.menqing or scored.big_hand or win.hard >= rules.win.min_hard_flowers


def _refuse_small(win: Win, rules: NanjingRuleset) -> ScoringError:
    need = rules.win.min_hard_flowers
    return ScoringError(
        "not a legal win: a hand that is not 门清 and has no big hand needs at least "
        f"{need} hard flowers, it has {win.hard}",
        field=f"{win.field}.flowers",
        zh=f"不能胡：非门清且无大胡（色子胡）的小胡需至少 {need} 个硬花，现有 {win.hard} 个",
        code="too_few_hard_flowers",
        params={"need": str(need), "hard": str(win.hard)},
    )


def score_win(win: Win, hand: Hand, rules: NanjingRuleset) -> Scored:
    """The value of one win: the reading worth most among the legal ones."""
    if win.quick:
        scored = _quick(win, hand, rules)
        if not _legal(scored, win, rules):
            raise _refuse_small(win, rules)
        return scored
    readings = _readings(win, hand, rules)
    if not readings:
        raise ScoringError(
            "not a winning hand",
            field=f"{win.field}.concealed",
            zh="手牌不成胡",
            code="not_winning",
        )
    if len(readings) == 1:
        # one reading: nothing to choose, its breakdown tells whether it is legal
        best = _assemble(win, hand, rules, readings[0])
        if not _legal(best, win, rules):
            raise _refuse_small(win, rules)
    else:
        best = _assemble(win, hand, rules, _best(readings, win, rules))
    if win.features or win.soft_flowers is not None:
        _check_ticks(win, best, rules)
    return best


def _best(readings: list[_Reading], win: Win, rules: NanjingRuleset) -> _Reading:
    """The reading worth most among the legal ones (the first of equal ones)."""
    hard = win.hard
    best_value, best_reading = -1, None
    for candidate in readings:
        value, legal = _worth(candidate, hard, rules)
        if legal and value > best_value:
            best_value, best_reading = value, candidate
    if best_reading is None:
        raise _refuse_small(win, rules)
    return best_reading


def _check_ticks(win: Win, scored: Scored, rules: NanjingRuleset) -> None:
    """Features ticked by hand that the tiles contradict are refused with a reason."""
    for code in win.features or ():
        if code not in scored.features:
            name = NAMES.get(code, code)
            got = "、".join(NAMES[c] for c in scored.features) or "无"
            raise ScoringError(
                f"{code!r} is ticked but the tiles do not give it "
                f"(they give: {', '.join(scored.features) or 'none'})",
                field=f"{win.field}.features",
                zh=f"勾选了“{name}”，但手牌不成此番（手牌为：{got}）",
                code="ticked_not_given",
                params={"feature": name, "given": got},
            )
    if win.soft_flowers is not None:
        soft = (
            sum(n for code, _, n in scored.lines if code in SOFT_CODES)
            // rules.win.flower_multiplier
        )
        if win.soft_flowers != soft:
            raise ScoringError(
                f"says {win.soft_flowers} soft flowers but the tiles give {soft}",
                field=f"{win.field}.soft_flowers",
                zh=f"软花数 {win.soft_flowers} 与手牌算出的 {soft} 不符",
                code="soft_flowers_mismatch",
                params={"said": str(win.soft_flowers), "given": str(soft)},
            )


def win_payments(win: Win, scored: Scored, rules: NanjingRuleset) -> list[payments.Payment]:
    """Who pays a win (RULES.md, Payments and 包牌 / 快照).

    A discard win: the discarder, or L, one share. Self-drawn, 抢杠 and 大杠开花 (算自摸):
    the other three, or L for all three. A 快照 instant win: L, one share when another
    player fed the fourth set (an 出冲 win), three when the player made it from their
    own draw; in 篇一 (``kuaizhao_discard = "duiduihu"``) three when L fed it too, and
    when another player deals in to a hand showing the 快照 against L, L pays the
    对对胡 value of the hand as one share.
    """
    three = payments.others(win.seat)
    classic = rules.win.kuaizhao_discard == "duiduihu"
    if "kuaizhao" in win.flags:
        last = win.melds[-1]
        if fed(last) and not (classic and last.feeder == win.liable):
            assert last.feeder is not None
            return payments.win_shares(win, scored.value, (last.feeder,))
        return payments.win_shares(win, scored.value, three)
    if win.discarder is None or "robbing_kong" in win.flags:
        return payments.win_shares(win, scored.value, three)
    share = None
    if (
        classic
        and win.liable is not None
        and win.liable != win.discarder
        and kuaizhao_against(win.melds, win.liable)
    ):
        share = scored.duiduihu_value
    return payments.win_shares(win, scored.value, (win.discarder,), share)


def next_hand(hand: Hand, rules: NanjingRuleset, scored: Sequence[Scored]) -> dict[str, Any]:
    """比下胡 and the next dealer (a result's ``next``), per the ruleset's triggers and
    its dealer rule."""
    held = _triggers(hand, scored)
    rule = rules.next.dealer_stays
    if rule == "doubled":
        stays = not held.isdisjoint(rules.next.doubling - {"dealer_stays"})
    else:
        stays = ("big_hand" if rule == "big_hand" else "dealer_wins") in held
    if stays:
        held.add("dealer_stays")
    doubled = not held.isdisjoint(rules.next.doubling)
    return {"dealer": hand.dealer if stays else next_seat(hand.dealer), "doubled": doubled}


def _triggers(hand: Hand, scored: Sequence[Scored]) -> set[str]:
    """The 比下胡 triggers this hand sets off (``dealer_stays`` is added by the caller)."""
    held = set()
    if not hand.wins:
        held.add("drawn")
    elif len(hand.wins) > 1:
        held.add("multiple_winners")
    if hand.penalties:
        held.add("penalty")
    for kong in hand.kongs:
        if kong.type == "flower":
            held.add("flower_kong")
            break
    for win in hand.wins:
        if win.seat == hand.dealer:
            held.add("dealer_wins")
        if win.liable is not None:
            held.add("liable")
        if "after_kong" in win.flags:
            held.update(("dagang_kaihua", "gang_kaihua"))
        elif "after_flower" in win.flags:
            held.add("gang_kaihua")
    for one in scored:
        if one.big_hand:
            held.add("big_hand")
            break
    return held


# --- quick entry --------------------------------------------------------------------


def _quick(win: Win, hand: Hand, rules: NanjingRuleset) -> Scored:
    """Quick entry: H, S and the ticked bonuses, checked for what cannot combine."""
    field = f"wins[{win.number}].features"  # win.field, written out: a call less per hand
    ticked = set(win.features or ())
    for code in win.features or ():
        if code in SOFT_CODES:
            raise ScoringError(
                f"{code!r} is a soft flower: give the count in soft_flowers",
                field=field,
                zh=f"“{NAMES[code]}”是软花，请计入软花数",
                code="soft_flower_ticked",
                params={"feature": NAMES[code]},
            )
        if code not in rules.bonus:
            raise ScoringError(
                f"unknown feature {code!r} in {rules.id}",
                field=field,
                zh=f"本规则没有番种 “{code}”",
                code="unknown_feature",
                params={"feature": str(code), "ruleset": rules.id},
            )
    flagged = {FLAG_BONUSES[f] for f in win.flags if f in FLAG_BONUSES}
    for code in ticked & set(FLAG_BONUSES.values()) - flagged:
        raise ScoringError(
            f"{code!r} needs its flag in 'flags'",
            field=field,
            zh=f"“{NAMES[code]}”需要对应的标记",
            code="feature_needs_flag",
            params={"feature": NAMES[code]},
        )
    bonuses = ticked | flagged

    def clash(message: str, zh: str, *, code: str) -> ScoringError:
        return ScoringError(message, field=field, zh=zh, code=code)

    one_tier, one_colour = ONE_OF
    if len(bonuses & one_tier) > 1:
        raise clash("only one seven-pairs tier counts", "七对类只能选一个", code="one_seven_pairs")
    if len(bonuses & one_colour) > 1:
        raise clash(
            "混一色 and 清一色 exclude each other",
            "混一色与清一色不能同时成立",
            code="hunyise_qingyise",
        )
    if bonuses & SEVEN_PAIR_CODES and bonuses & SEVEN_PAIRS_EXCLUDE:
        raise clash(
            "seven pairs cannot be 门清, 对对胡, 全球独钓 or 压绝",
            "七对不能同时计门清、对对胡、全球独钓或压绝",
            code="seven_pairs_exclude",
        )
    if "quanqiu_dudiao" in bonuses and "duiduihu" not in bonuses:
        raise clash("全球独钓 is always 对对胡 too", "全球独钓必然是对对胡", code="dudiao_duiduihu")
    if "quanqiu_dudiao" in bonuses and "menqing" in bonuses and rules.win.menqing == "none":
        raise clash("全球独钓 cannot be 门清", "全球独钓不能是门清", code="dudiao_menqing")
    if win.melds and "menqing" in bonuses and not reading.menqing(win.melds, rules.win.menqing):
        raise clash(
            "门清 is contradicted by the melds", "有碰或二杠，不是门清", code="menqing_melds"
        )
    if "wuhuaguo" in bonuses and not wuhuaguo(win.hard, bonuses):
        if win.hard:
            raise clash("无花果 needs no hard flower", "无花果要求没有硬花", code="wuhuaguo_hard")
        raise clash(
            "无花果 needs 门清 or another big hand", "无花果需门清或另有大胡", code="wuhuaguo_big"
        )
    plain = "kuaizhao" in win.flags and _duiduihu_only(win, rules)
    if plain and bonuses - {"duiduihu"}:
        raise clash(
            "a 快照 whose fourth set another player than the liable seat fed counts "
            "对对胡 only (篇一 快照2)",
            "快照后由包牌者以外的人送第四嘴，只算对对胡",
            code="kuaizhao_duiduihu_only",
        )
    soft = {"soft_flowers": win.soft_flowers or 0}
    quick = _Reading(soft, frozenset(bonuses), "quick", wuhuaguo=not plain)
    return _assemble(win, hand, rules, quick)
