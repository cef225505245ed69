"""What a hand's entry offers per family of rules, read from the family modules: the
ticks of quick entry, the ways a hand can be won (flags), and which ticks exclude
each other (the entry page greys them out; quick entry refuses them together)."""

from __future__ import annotations

from collections.abc import Collection

from . import nanjing, worksite
from .rulesets import NANJING_BONUSES, WORKSITE_BONUSES, Ruleset

#: how a hand was won, as the entry page offers it (record flags, with their names)
FLAGS = {
    "nanjing": (
        ("after_flower", "小杠开花"),
        ("after_kong", "大杠开花"),
        ("robbing_kong", "抢杠"),
        ("kuaizhao", "快照"),
        ("tianhu", "天胡"),
        ("dihu", "地胡"),
    ),
    "worksite": (
        ("after_kong", "杠上开花"),
        ("after_flower", "补花杠上开花"),
        ("kong_discard", "杠后炮"),
        ("robbing_kong", "抢杠"),
        ("tianhu", "天糊"),
        ("last_tile", "海底捞月"),
    ),
}


def ticks(ruleset: Ruleset) -> list[tuple[str, str]]:
    """The features quick entry offers under ``ruleset`` (code, name): its bonuses,
    less those only a flag can give (小杠开花, 大杠开花, 天胡, 地胡)."""
    if ruleset.family == "worksite":
        return [(c, worksite.NAMES[c]) for c in WORKSITE_BONUSES if c in ruleset.bonus]
    flagged = set(nanjing.FLAG_BONUSES.values())
    return [
        (c, nanjing.NAMES[c]) for c in NANJING_BONUSES if c in ruleset.bonus and c not in flagged
    ]


def conflicts(family: str) -> dict[str, list[str]]:
    """For each tick of ``family``, the ticks it excludes (symmetric): at most one of
    each of the family's ``ONE_OF`` groups, and no seven-pairs tier with what a
    seven-pairs hand cannot be."""
    groups: tuple[frozenset[str], ...] = tuple(nanjing.ONE_OF)
    pairs: frozenset[str] = nanjing.SEVEN_PAIR_CODES
    excluded = nanjing.SEVEN_PAIRS_EXCLUDE
    if family == "worksite":
        groups = worksite.ONE_OF
        pairs = frozenset(worksite.SEVEN_PAIR_TIERS)
        excluded = worksite.SEVEN_PAIRS_EXCLUDE
    out: dict[str, set[str]] = {}
    for group in groups:
        for code in group:
            out.setdefault(code, set()).update(group - {code})
    for code in pairs:
        out.setdefault(code, set()).update(excluded)
    for code in excluded:
        out.setdefault(code, set()).update(pairs)
    return {code: sorted(others) for code, others in sorted(out.items())}


def without_hard_flowers(family: str) -> list[str]:
    """The ticks a win with a hard flower cannot have (南京's 无花果)."""
    return ["wuhuaguo"] if family == "nanjing" else []


#: 工地's features that do not make a win big: its counted items (winds, kongs, other
#: flowers, 杠上开花, 天糊, 海底捞月: RULES.md's list before the patterns) and 门前清
_WORKSITE_PLAIN = frozenset(worksite.COUNT_CODES) | {"menqianqing"}


def is_big_hand(family: str, codes: Collection[str]) -> bool:
    """A win that counts as a big hand (a member's history, the monthly report): 南京's
    色子胡 (any bonus but 门清 and the two 杠开花); on 工地 any pattern (RULES.md's table)
    but 门前清."""
    if family == "worksite":
        return bool(set(codes) - _WORKSITE_PLAIN)
    return bool(set(codes) & nanjing.BIG_HANDS)


def big_hand_codes(family: str) -> frozenset[str]:
    """The feature codes of which any one makes a win of ``family`` big (``is_big_hand``):
    what a reader may look for in stored results before checking each win exactly."""
    if family == "worksite":
        return frozenset(worksite.NAMES) - _WORKSITE_PLAIN
    return nanjing.BIG_HANDS
