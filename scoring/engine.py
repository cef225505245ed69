"""score() and analyze(): a hand record in, a result out (HAND_RECORD.md)."""

from __future__ import annotations

from typing import Any

from . import nanjing, payments, rulesets, shape, tiles, worksite
from .errors import ScoringError
from .reading import Scored
from .record import (
    SEATS,
    Hand,
    Win,
    count_kinds,
    flower_tiles,
    next_seat,
    one_tile,
    read_hand,
    read_meld,
)
from .rulesets import NanjingRuleset, Ruleset, WorksiteRuleset

RESULT_FORMAT = "mahjong-result/1"


def score(hand: Any, *, ruleset: Ruleset | None = None) -> dict[str, Any]:
    """Score one hand record; raise ScoringError naming the field or rule at fault.

    ``ruleset`` lets a caller score under a ruleset of its own (a stored copy whose
    ``id`` the record names) instead of a shipped one.
    """
    record = read_hand(hand)
    if ruleset is None:
        ruleset = rulesets.get(record.ruleset)
    elif ruleset.id != record.ruleset:
        raise ScoringError(
            f"the record names {record.ruleset!r} but is scored under {ruleset.id!r}",
            field="ruleset",
            zh="记录的规则与所用规则不一致",
            code="ruleset_mismatch",
            params={"named": record.ruleset, "used": ruleset.id},
        )
    if isinstance(ruleset, WorksiteRuleset):
        return _score_worksite(record, ruleset)
    assert isinstance(ruleset, NanjingRuleset)
    return _score_nanjing(record, ruleset)


def _score_nanjing(hand: Hand, rules: NanjingRuleset) -> dict[str, Any]:
    if hand.false_wins or hand.dead_hands:
        raise ScoringError(
            "诈糊 and 相公 are not part of 南京麻将",
            field="false_wins" if hand.false_wins else "dead_hands",
            zh="南京麻将没有诈糊与相公",
            code="nanjing_no_false_wins",
        )
    for win in hand.wins:
        if not win.flags and win.kong_chain == 1:
            continue
        if "robbing_kong" in win.flags and win.liable is None:
            raise ScoringError(
                "a robbing_kong win needs the konger as liable",
                field=f"{win.field}.liable",
                zh="抢杠胡需注明被抢杠者（包牌）",
                code="robbing_needs_liable",
            )
        if "robbing_kong" in win.flags and win.discarder not in (None, win.liable):
            raise ScoringError(
                "a robbing win's discarder, when given, is the konger (the liable seat)",
                field=f"{win.field}.discarder",
                zh="抢杠胡的放炮者应为被抢杠者",
                code="robbing_discarder_liable",
            )
        if win.kong_chain > 1 and not win.flags & {"after_kong", "kong_discard"}:
            raise ScoringError(
                "above 1 without after_kong or kong_discard (a flower is no kong in 南京)",
                field=f"{win.field}.kong_chain",
                zh="连杠数大于 1 需要杠开花或杠后炮",
                code="nanjing_kong_chain_without_flag",
            )
    scored = [nanjing.score_win(win, hand, rules) for win in hand.wins]
    factor = rules.next.double_factor if hand.doubled else 1
    pays: list[payments.Payment] = []
    for win, one in zip(hand.wins, scored, strict=True):
        pays += nanjing.win_payments(win, one, rules)
    money = rules.kong_money
    pays += payments.kong_money(hand, money.exposed, money.concealed, money.flower, factor)
    pays += payments.penalties(hand, rules.penalty)
    if hand.garden is not None:
        pays = payments.garden_cap(pays, hand.garden)
    totals = payments.net(pays)
    result = _result(hand, rules, scored, pays, totals, nanjing.next_hand(hand, rules, scored))
    if hand.garden is not None:
        result["left"], result["garden_over"] = payments.garden_after(hand.garden, totals)
    return result


def _result(
    hand: Hand,
    rules: Ruleset,
    scored: list[Scored],
    pays: list[payments.Payment],
    totals: dict[str, int],
    nxt: dict[str, Any],
) -> dict[str, Any]:
    return {
        "format": RESULT_FORMAT,
        "ruleset": rules.id,
        "ruleset_version": rules.version,
        "net": totals,
        "wins": [
            {
                "seat": win.seat,
                "value": s.value,
                "features": list(s.features),
                "breakdown": [{"code": c, "label": label, "points": p} for c, label, p in s.lines],
            }
            for win, s in zip(hand.wins, scored, strict=True)
        ],
        "payments": [
            {"from": payer, "to": payee, "amount": amount, "reason": reason}
            for payer, payee, amount, reason in pays
        ],
        "next": nxt,
    }


def _score_worksite(hand: Hand, rules: WorksiteRuleset) -> dict[str, Any]:
    """江苏工地麻将: no doubling, no 园子, no 快照; 诈糊 and 相公 change who pays."""
    if hand.doubled:
        raise ScoringError(
            "工地麻将 never doubles a hand",
            field="doubled",
            zh="工地麻将没有比下胡翻倍",
            code="worksite_doubled",
        )
    if hand.garden is not None:
        raise ScoringError(
            "进园子 is a 南京 table mode",
            field="garden",
            zh="工地麻将没有进园子",
            code="worksite_garden",
        )
    for win in hand.wins:
        if "kuaizhao" in win.flags:
            raise ScoringError(
                "快照 is not part of 工地麻将",
                field=f"{win.field}.flags",
                zh="工地麻将没有快照",
                code="worksite_kuaizhao",
            )
    scored = [worksite.score_win(win, hand, rules) for win in hand.wins]
    pays: list[payments.Payment] = []
    for win, one in zip(hand.wins, scored, strict=True):
        pays += worksite.win_payments(hand, win, one.value)
    barred = (*hand.false_wins, *hand.dead_hands)
    for kong in hand.kongs:
        if kong.type == "flower" and kong.seat not in barred and rules.flower_set:
            pays += [
                payments.Payment(p, kong.seat, rules.flower_set, "flower_kong")
                for p in payments.others(kong.seat)
            ]
    pays += payments.penalties(hand, rules.penalty)
    stays = hand.dealer in [w.seat for w in hand.wins]
    nxt = {"dealer": hand.dealer if stays else next_seat(hand.dealer), "doubled": False}
    return _result(hand, rules, scored, pays, payments.net(pays), nxt)


def compare(hand: Any) -> list[dict[str, Any]]:
    """One hand scored under every shipped ruleset: for each, its id, name, and the
    result or the reason it cannot take the hand (the dispute settler)."""
    if not isinstance(hand, dict):
        raise ScoringError(
            "must be an object", field="hand", zh="格式错误：应为对象", code="not_an_object"
        )
    rows = []
    for ident in rulesets.available():
        ruleset = rulesets.get(ident)
        row: dict[str, Any] = {"ruleset": ident, "name": ruleset.name}
        try:
            row["result"] = score({**hand, "ruleset": ident})
        except ScoringError as exc:
            row["error"] = str(exc)
            row["error_zh"] = exc.zh
        rows.append(row)
    return rows


def analyze(
    hand_tiles: str,
    *,
    win: str | None = None,
    ruleset: str = "nanjing",
    melds: list[dict[str, Any]] | None = None,
    flowers: str = "",
) -> dict[str, Any]:
    """Read a hand's tiles: its shape, the wait set, and the features and value of
    the reading worth most (self-drawn, not doubled; a small hand is not refused).

    With 13 − 3 × sets tiles, ``win`` is added; with 14 − 3 × sets, ``win`` must be
    among them and defaults to the last tile.
    """
    rules = rulesets.get(ruleset)
    codes = list(tiles.parse(hand_tiles))
    for code in codes:
        if code in tiles.FLOWER_COPIES:
            raise ScoringError(
                f"flower tile {code!r} in the hand",
                field="tiles",
                zh="花牌不能在手牌中",
                code="flower_in_tiles",
                params={"tile": tiles.name(code)},
            )
    meld_objs = tuple(read_meld(m, f"melds[{i}]", "") for i, m in enumerate(melds or ()))
    if win is not None:
        win = one_tile(win, "win")
    need = 14 - 3 * len(meld_objs)
    if win is not None and len(codes) == need - 1:
        codes.append(win)
    elif len(codes) != need:
        raise ScoringError(
            f"{len(codes)} tiles; with {len(meld_objs)} sets a hand holds {need}",
            field="tiles",
            zh=f"手牌张数不对（{len(codes)} 张）",
            code="tiles_count",
            params={"held": str(len(codes)), "sets": str(len(meld_objs)), "need": str(need)},
        )
    win = win or codes[-1]
    if win not in codes:
        raise ScoringError(
            f"winning tile {win!r} is not in the hand",
            field="win",
            zh="胡的牌不在手牌中",
            code="win_not_in_tiles",
            params={"tile": tiles.name(win)},
        )
    flower_codes = flower_tiles(flowers, "flowers")
    counts = count_kinds(tuple(codes))
    record = Win(
        number=0, seat="S", discarder=None, liable=None, counts=counts, melds=meld_objs,
        winning_tile=win, flowers=flower_codes, flags=frozenset(), kong_chain=1,
        hard_flowers=None, soft_flowers=None, features=None, hard=len(flower_codes),
        quick=False,
    )  # fmt: skip
    for m in meld_objs:
        if counts[m.kind] + m.size > 4:
            raise ScoringError(
                f"more than four copies of {m.tile!r}",
                field="tiles",
                zh="某张牌超过四张",
                code="tiles_copies_of",
                params={"tile": tiles.name(m.tile)},
            )
    if max(counts) > 4:
        raise ScoringError(
            "more than four copies of a tile",
            field="tiles",
            zh="某张牌超过四张",
            code="tiles_copies",
        )
    hand = Hand(ruleset, SEATS[0], False, (record,), (), (), (), (), None)
    if isinstance(rules, WorksiteRuleset):
        found = [worksite.scored(lines, name) for lines, name in worksite.candidates(record, rules)]
    else:
        assert isinstance(rules, NanjingRuleset)
        readings = nanjing._readings(record, hand, rules)
        found = [nanjing._assemble(record, hand, rules, r) for r in readings]
    if not found:
        raise ScoringError("not a winning hand", field="tiles", zh="手牌不成胡", code="not_winning")
    best = max(found, key=lambda s: s.value)
    pre = list(counts)
    pre[tiles.kind_of(win)] -= 1
    own = list(pre)
    for m in meld_objs:
        own[m.kind] += m.size
    waits = shape.waits(tuple(pre), tuple(own), not meld_objs)
    return {
        "shape": best.shape,
        "waits": [tiles.code_of(k) for k in waits],
        "features": list(best.features),
        "breakdown": [{"code": c, "label": label, "points": p} for c, label, p in best.lines],
    }
