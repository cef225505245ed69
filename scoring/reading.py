"""What any family reads off a winner's tiles: suits, 门清, where the winning tile sits."""

from __future__ import annotations

from dataclasses import dataclass

from . import shape, tiles
from .record import Meld


def suits(kinds: list[int]) -> tuple[set[int], bool]:
    """The suits present among playing tile kinds, and whether any wind is."""
    return {tiles.suit_of(k) for k in kinds if k < 27}, any(k >= 27 for k in kinds)


def colour(kinds: list[int]) -> tuple[bool, str | None]:
    """缺一 (exactly one of 万 条 饼 absent) and 混一色 / 清一色; a one-suit hand lacks
    two suits and gets no 缺一, a hand of winds only gets none of them."""
    present, winds = suits(kinds)
    one = len(present) == 1
    return len(present) == 2, ("hunyise" if winds else "qingyise") if one else None


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


@dataclass(frozen=True)
class Scored:
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
