"""Tiles and the MPSZ notation.

Playing tiles are numbered 0-30: 万 ``1m``-``9m`` are 0-8, 饼 ``1p``-``9p`` 9-17,
条 ``1s``-``9s`` 18-26 and the winds 东南西北 ``1z``-``4z`` 27-30. 中发白
(``7z`` ``6z`` ``5z``) are flowers here and never part of a hand, like 春夏秋冬梅兰竹菊
(``1f``-``8f``); flowers keep their codes as strings.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from functools import lru_cache

from .errors import ScoringError

SUITS = "mps"
NUM_KINDS = 31
WINDS = range(27, 31)
FLOWER_CODES = ("1f", "2f", "3f", "4f", "5f", "6f", "7f", "8f", "5z", "6z", "7z")
#: how many copies of each flower tile the 144-tile set holds
FLOWER_COPIES = {code: (4 if code.endswith("z") else 1) for code in FLOWER_CODES}
#: 一门花: the complete sets of flowers (花杠)
FLOWER_SETS: tuple[tuple[str, ...], ...] = (
    ("7z",) * 4,
    ("6z",) * 4,
    ("5z",) * 4,
    ("1f", "2f", "3f", "4f"),
    ("5f", "6f", "7f", "8f"),
)

_NUMERALS = "一二三四五六七八九"
_SUIT_NAMES = {"m": "万", "p": "饼", "s": "条"}
_WIND_NAMES = "东南西北"
_FLOWER_NAMES = {
    "1f": "春", "2f": "夏", "3f": "秋", "4f": "冬",
    "5f": "梅", "6f": "兰", "7f": "竹", "8f": "菊",
    "5z": "白板", "6z": "发财", "7z": "红中",
}  # fmt: skip
_GROUP = re.compile(r"([0-9]+)([mpszf])")
#: well-formed notation with known tiles only: the fast path of parse()
_VALID = re.compile(r"(?:[1-9]+[mps]|[1-7]+z|[1-8]+f)*")
#: for playing_counts(): each suit letter's digits, as kinds (winds 1z-4z only)
_SUIT_KINDS = {
    suit: {str(n): base + n for n in range(1, 5 if suit == "z" else 10)}
    for suit, base in (("m", -1), ("p", 8), ("s", 17), ("z", 26))
}
_NO_KINDS: dict[str, int] = {}
#: for flower_codes(): each flower suit letter's digits, as codes
_FLOWER_DIGITS = {
    suit: {code[0]: code for code in FLOWER_CODES if code[1] == suit} for suit in "fz"
}


def kind_of(code: str) -> int:
    """The kind number of a playing tile code (``"5p"`` → 13); KeyError if none."""
    return _KIND[code]


def code_of(kind: int) -> str:
    """The MPSZ code of a playing tile kind (13 → ``"5p"``)."""
    return _CODES[kind]


def suit_of(kind: int) -> int:
    """0 万, 1 饼, 2 条, 3 winds."""
    return kind // 9 if kind < 27 else 3


def is_wind(kind: int) -> bool:
    return kind >= 27


def split(text: str) -> list[str]:
    """Split MPSZ notation into tile codes without judging them.

    ``"123m55p"`` → ``["1m", "2m", "3m", "5p", "5p"]``. Spaces are ignored.
    Raises ValueError with the offending text when the notation itself is broken.
    """
    text = "".join(text.split())
    out: list[str] = []
    pos = 0
    for match in _GROUP.finditer(text):
        if match.start() != pos:
            raise ValueError(text[pos : match.start()] or text[pos:])
        out.extend(digit + match.group(2) for digit in match.group(1))
        pos = match.end()
    if pos != len(text):
        raise ValueError(text[pos:])
    return out


def playing_counts(text: str) -> tuple[int, ...] | None:
    """Counts by kind of well-formed notation holding playing tiles only, read in one
    pass; None for anything else (spaces, flowers, unknown tiles: see parse())."""
    counts = [0] * NUM_KINDS
    # read from the end: each suit letter comes after its digits and says what they are
    kinds = _NO_KINDS
    digits = True  # the group after this character has its digits (or there is none)
    for char in reversed(text):
        kind = kinds.get(char)
        if kind is not None:
            counts[kind] += 1
            digits = True
            continue
        suit = _SUIT_KINDS.get(char)
        if suit is None or not digits:
            return None
        kinds = suit
        digits = False
    return tuple(counts) if digits else None


def flower_codes(text: str) -> tuple[str, ...] | None:
    """The codes of well-formed notation holding flower tiles only (``55z1f``), in their
    order, read in one pass; None for anything else (see parse()). Flower tiles rarely
    come twice in the same order, so they are read afresh rather than looked up."""
    codes = []
    start = 0  # where the digits of the group being read begin
    for i, char in enumerate(text):
        named = _FLOWER_DIGITS.get(char)
        if named is None:
            continue  # a digit, read when its suit letter comes
        if i == start:
            return None  # a suit letter with no digits
        for digit in text[start:i]:
            code = named.get(digit)
            if code is None:
                return None
            codes.append(code)
        start = i + 1
    return tuple(codes) if start == len(text) else None


def parse(text: str) -> list[str]:
    """Parse MPSZ notation into validated codes (playing tiles or flowers)."""
    return list(codes(text))


@lru_cache(maxsize=16384)
def codes(text: str) -> tuple[str, ...]:
    """parse(), as a tuple shared through a cache: the same text is read once."""
    if _VALID.fullmatch(text):
        found: list[str] = []
        for digits, suit in _GROUP.findall(text):
            found.extend(map(_NAMED[suit].__getitem__, digits))
        return tuple(found)
    try:
        found = split(text)
    except ValueError as exc:
        raise ScoringError(
            f"unknown tile {str(exc)!r}",
            zh=f"无法识别的牌 “{exc}”",
            code="unknown_tile",
            params={"tile": str(exc)},
        ) from None
    for code in found:
        if code not in _KIND and code not in FLOWER_COPIES:
            raise ScoringError(
                f"unknown tile {code!r}",
                zh=f"无法识别的牌 “{code}”",
                code="unknown_tile",
                params={"tile": code},
            )
    return tuple(found)


def format(codes: Iterable[str]) -> str:  # noqa: A001 - the notation's own verb
    """Join tile codes into sorted MPSZ notation (``["5p", "1m"]`` → ``"1m5p"``)."""
    groups: dict[str, list[str]] = {}
    for code in codes:
        groups.setdefault(code[1], []).append(code[0])
    return "".join("".join(sorted(groups[suit])) + suit for suit in "mpszf" if suit in groups)


def name(code: str) -> str:
    """The Chinese name of a tile code (``"5p"`` → 五饼, ``"7z"`` → 红中)."""
    if code in _FLOWER_NAMES:
        return _FLOWER_NAMES[code]
    kind = _KIND[code]
    if kind >= 27:
        return _WIND_NAMES[kind - 27] + "风"
    return _NUMERALS[kind % 9] + _SUIT_NAMES[code[1]]


def flower_sets(flowers: Iterable[str]) -> int:
    """How many complete sets of flowers (花杠) a player's flower tiles hold."""
    return flower_tally(tuple(flowers))[0]


def flower_tally(flowers: tuple[str, ...]) -> tuple[int, bool]:
    """How many complete sets of flowers (花杠) the tiles hold, and whether none of
    them is held more times than the set has copies (the same counts answer both)."""
    kinds = set(flowers)
    sets = 0
    for group in _ONE_OF_EACH:
        if group <= kinds:
            sets += 1
    fit = True
    for code in kinds:
        n = flowers.count(code)
        if n > FLOWER_COPIES[code]:
            fit = False
        if n >= 4 and code in _FOUR_OF:
            sets += 1
    return sets, fit


#: the sets of FLOWER_SETS that are one tile of each of their codes (春夏秋冬, 梅兰竹菊),
#: and the codes whose set is their four copies (白 发 中)
_ONE_OF_EACH = tuple(frozenset(group) for group in FLOWER_SETS if len(set(group)) == 4)
_FOUR_OF = frozenset(group[0] for group in FLOWER_SETS if len(set(group)) == 1)


#: the code of each digit in each suit letter, one string each
_NAMED = {suit: {digit: digit + suit for digit in "0123456789"} for suit in "mpszf"}
_CODES = [f"{n}{s}" for s in SUITS for n in range(1, 10)] + [f"{n}z" for n in range(1, 5)]
_KIND = {code: kind for kind, code in enumerate(_CODES)}
