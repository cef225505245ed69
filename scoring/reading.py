"""What any family reads off a winner's tiles: suits, 门清, where the winning tile sits."""

from __future__ import annotations

from typing import NamedTuple

from . import shape
from .record import Meld

#: 0 万, 1 饼, 2 条, 3 winds, by kind
_SUIT = tuple(kind // 9 if kind < 27 else 3 for kind in range(31))
_NO_SUIT, _NO_WINDS = shape.NONE_HELD[9], shape.NONE_HELD[4]


def colour(counts: tuple[int, ...] | None, melds: tuple[Meld, ...]) -> tuple[bool, str | None]:
    """缺一 (exactly one of 万 条 饼 absent) and 混一色 / 清一色 of the concealed counts
    (None: the sets alone) and the sets; a one-suit hand lacks two suits and gets no
    缺一, a hand of winds only gets none of them."""
    present = set()
    for m in melds:
        present.add(_SUIT[m.kind])
    if counts is not None:
        if counts[:9] != _NO_SUIT:
            present.add(0)
        if counts[9:18] != _NO_SUIT:
            present.add(1)
        if counts[18:27] != _NO_SUIT:
            present.add(2)
        if counts[27:] != _NO_WINDS:
            present.add(3)
    winds = 3 in present
    suits = len(present) - winds
    return suits == 2, ("hunyise" if winds else "qingyise") if suits == 1 else None


def menqing(melds: tuple[Meld, ...], rule: str) -> bool:
    """门清: no pong; with rule "yigang" a kong made at once on a discard (一杠) and
    concealed kongs keep it, a pong later upgraded (二杠) never does; with "none"
    any declared set loses it."""
    if rule == "none":
        return not melds
    return not any(m.type == "pong" or m.upgraded for m in melds)


def wait_places(sets: tuple[shape.Set, ...], pair: int, win: int) -> list[str]:
    """Where the winning tile can sit in one reading: pair, triplet, closed, edge, open,
    each place once, in the order that wins ties between readings of equal value."""
    places = set()
    if pair == win:
        places.add("pair")
    for kind, first in sets:
        if kind == "t" and first == win:
            places.add("triplet")
        elif kind == "r" and first <= win <= first + 2:
            if win == first + 1:
                places.add("closed")
            elif (win == first + 2 and first % 9 == 0) or (win == first and first % 9 == 6):
                places.add("edge")
            else:
                places.add("open")
    return [place for place in PLACE_ORDER if place in places]


#: equal values go to the first reading: a pair wait before a closed or edge one
PLACE_ORDER = ("pair", "closed", "edge", "triplet", "open")


class Scored(NamedTuple):
    """One win's value and how it was reached."""

    value: int
    base: int
    lines: tuple[tuple[str, str, int], ...]
    features: tuple[str, ...]
    big_hand: bool
    menqing: bool
    #: 南京: 2 × (H + S) + run + 对对胡, doubled like the hand, the classic 快照 discard share
    duiduihu_value: int
    shape: str
