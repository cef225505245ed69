"""Hand shapes: every decomposition of the concealed tiles and the wait set.

A standard hand is four sets (triplet, quad, or a run of one suit) plus a pair;
declared melds count as sets, so the concealed tiles must make up the rest.
Seven pairs (七对) is fourteen concealed tiles in pairs, a four of a kind counting
as two. Decompositions are found suit by suit; each suit's answer depends only
on its nine counts, so it is cached and shared by every hand with that suit.
"""

from __future__ import annotations

from functools import lru_cache
from typing import NamedTuple

#: a set inside a decomposition: ("t", kind) triplet or ("r", kind) run from kind
Set = tuple[str, int]


class Decomposition(NamedTuple):
    """One reading of the concealed tiles as sets plus a pair (standard shape)."""

    sets: tuple[Set, ...]
    pair: int


_Split = tuple[tuple[Set, ...], int]


@lru_cache(maxsize=65536)
def _splits(counts: tuple[int, ...], runs: bool) -> tuple[_Split, ...]:
    """Every way to cut one suit's counts into sets and at most one pair.

    Indices are local to the suit; ``pair`` is -1 when the reading has none.
    """
    first = next((i for i, n in enumerate(counts) if n), -1)
    if first < 0:
        return (((), -1),)
    found: set[_Split] = set()
    rest = list(counts)
    if counts[first] >= 3:
        rest[first] -= 3
        for sets, pair in _splits(tuple(rest), runs):
            found.add(((("t", first), *sets), pair))
        rest[first] += 3
    if runs and first <= 6 and counts[first + 1] and counts[first + 2]:
        rest[first] -= 1
        rest[first + 1] -= 1
        rest[first + 2] -= 1
        for sets, pair in _splits(tuple(rest), runs):
            found.add(((("r", first), *sets), pair))
        rest[first] += 1
        rest[first + 1] += 1
        rest[first + 2] += 1
    if counts[first] >= 2:
        rest[first] -= 2
        for sets, pair in _splits(tuple(rest), runs):
            if pair < 0:
                found.add((sets, first))
    return tuple(sorted(found))


_SUIT_SLICES = ((0, 9, True), (9, 18, True), (18, 27, True), (27, 31, False))


def _suit_parts(counts: tuple[int, ...]) -> list[tuple[int, tuple[_Split, ...]]] | None:
    """Per suit, its offset and readings; None as soon as a suit cannot be read."""
    parts = []
    pairs = 0
    for lo, hi, runs in _SUIT_SLICES:
        part = counts[lo:hi]
        size = sum(part)
        if not size:
            continue
        rem = size % 3
        if rem == 1:
            return None
        if rem == 2:
            pairs += 1
            if pairs > 1:
                return None
        readings = _splits(part, runs)
        if not readings:
            return None
        parts.append((lo, readings))
    return parts if pairs == 1 else None


def is_standard(counts: tuple[int, ...]) -> bool:
    """True when the concealed counts read as sets plus exactly one pair."""
    return _suit_parts(counts) is not None


def is_seven_pairs(counts: tuple[int, ...]) -> bool:
    """七对: fourteen tiles, every kind held twice or four times."""
    return 1 not in counts and 3 not in counts and sum(counts) == 14


def decompositions(counts: tuple[int, ...]) -> list[Decomposition]:
    """Every standard reading of the concealed counts (global kind numbers)."""
    parts = _suit_parts(counts)
    if parts is None:
        return []
    combos: list[tuple[tuple[Set, ...], int]] = [((), -1)]
    for lo, readings in parts:
        combos = [
            (sets + tuple((kind, lo + i) for kind, i in part_sets), lo + p if p >= 0 else pair)
            for sets, pair in combos
            for part_sets, p in readings
        ]
    return [Decomposition(sets, pair) for sets, pair in combos]


def _readable(counts: tuple[int, ...], runs: bool) -> bool:
    """Whether one suit's counts read whole as sets plus at most one pair, without
    listing the readings: after the pair, the lowest tile held starts ``n % 3`` runs
    (three equal runs read as three triplets), so one pass decides."""
    rem = sum(counts) % 3
    if rem == 1:
        return False
    if rem == 0:
        return _sets_only(list(counts), runs)
    for i, n in enumerate(counts):
        if n >= 2:
            rest = list(counts)
            rest[i] -= 2
            if _sets_only(rest, runs):
                return True
    return False


def _sets_only(counts: list[int], runs: bool) -> bool:
    """Whether the counts (changed in place) read whole as sets, lowest tile first."""
    last = len(counts) - 3
    for i, n in enumerate(counts):
        r = n % 3
        if r:
            if not runs or i > last or counts[i + 1] < r or counts[i + 2] < r:
                return False
            counts[i + 1] -= r
            counts[i + 2] -= r
    return True


@lru_cache(maxsize=65536)
def _completions(counts: tuple[int, ...], runs: bool) -> tuple[int, ...]:
    """Local kinds that, added to one suit's counts, let the suit be read whole: only
    a kind beside a tile held (two apart at most; the same kind without runs) can."""
    reach = 2 if runs else 0
    held = [i for i, n in enumerate(counts) if n]
    found = []
    more = list(counts)
    for i, n in enumerate(counts):
        if n < 4 and any(abs(i - j) <= reach for j in held):
            more[i] += 1
            if _readable(tuple(more), runs):
                found.append(i)
            more[i] -= 1
    return tuple(found)


def waits(pre: tuple[int, ...], own: tuple[int, ...], seven_pairs_allowed: bool) -> list[int]:
    """The wait set: kinds that would complete the pre-win concealed counts.

    ``own`` counts the tiles in the player's own hand and declared sets; a kind
    whose four copies are all there is left out, as no such tile is left to win on.
    The tile must go to the one suit that cannot be read whole as it is, every
    other suit must already be readable, and one pair must result: suit by suit
    this is a few lookups in cached tables.
    """
    parts = [(lo, pre[lo:hi], runs) for lo, hi, runs in _SUIT_SLICES]
    residues = [sum(part) % 3 for _, part, _ in parts]
    readable = [_readable(part, runs) for _, part, runs in parts]
    found: set[int] = set()
    for s, (lo, part, runs) in enumerate(parts):
        after = residues[:]
        after[s] = (after[s] + 1) % 3
        if 1 in after or after.count(2) != 1:
            continue
        if not all(readable[t] for t in range(4) if t != s):
            continue
        found.update(lo + i for i in _completions(part, runs) if own[lo + i] < 4)
    if seven_pairs_allowed and sum(pre) == 13:
        odd = [k for k, n in enumerate(pre) if n % 2]
        if len(odd) == 1 and own[odd[0]] < 4:
            found.add(odd[0])
    return sorted(found)
