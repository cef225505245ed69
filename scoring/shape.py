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
    #: every set a triplet (no run)
    triplets_only: bool = True


_SUIT_SLICES = ((0, 9, True), (9, 18, True), (18, 27, True), (27, 31, False))
#: a suit's counts with no tile held, by the suit's length (9, or 4 winds)
NONE_HELD = {9: (0,) * 9, 4: (0,) * 4}


@lru_cache(maxsize=65536)
def _suit_readings(counts: tuple[int, ...], lo: int) -> tuple[bool, tuple[Decomposition, ...]]:
    """One suit's readings, every way to cut its counts into sets and at most one pair,
    in global kind numbers (the suit starts at ``lo``; winds from 27 make no runs), and
    whether they hold its pair; none when it cannot be read whole (a suit of 3n + 1
    tiles never can). Several readings come in sorted order."""
    total = sum(counts)
    residue = total % 3
    if residue == 1:
        return False, ()
    found: set[Decomposition] = set()
    _cut(list(counts), 0, total, lo, [], -1, True, found)
    return residue == 2, tuple(sorted(found)) if len(found) > 1 else tuple(found)


def _cut(
    counts: list[int],
    low: int,
    left: int,
    lo: int,
    sets: list[Set],
    pair: int,
    triplets: bool,
    found: set[Decomposition],
) -> None:
    """Add to ``found`` every way to cut the ``left`` tiles still in one suit's counts
    (none below ``low``; changed, then restored) into sets, after ``sets``, ``pair`` and
    whether those are all triplets: the lowest tile held starts a triplet, a run or
    the pair. Kinds are the suit's own plus ``lo``."""
    if not left:
        found.add(Decomposition(tuple(sets), pair, triplets))
        return
    while not counts[low]:
        low += 1
    if counts[low] >= 3:
        counts[low] -= 3
        sets.append(("t", lo + low))
        _cut(counts, low, left - 3, lo, sets, pair, triplets, found)
        sets.pop()
        counts[low] += 3
    if lo < 27 and low <= 6 and counts[low + 1] and counts[low + 2]:
        counts[low] -= 1
        counts[low + 1] -= 1
        counts[low + 2] -= 1
        sets.append(("r", lo + low))
        _cut(counts, low, left - 3, lo, sets, pair, False, found)
        sets.pop()
        counts[low] += 1
        counts[low + 1] += 1
        counts[low + 2] += 1
    if pair < 0 and counts[low] >= 2 and (left - 2) % 3 == 0:
        counts[low] -= 2
        _cut(counts, low, left - 2, lo, sets, lo + low, triplets, found)
        counts[low] += 2


def _suit_parts(counts: tuple[int, ...]) -> list[tuple[Decomposition, ...]] | None:
    """Per suit held, its readings; None as soon as a suit cannot be read, or when the
    suits together do not hold exactly one pair."""
    parts = []
    pairs = 0
    for lo, hi, _ in _SUIT_SLICES:
        part = counts[lo:hi]
        if part != NONE_HELD[hi - lo]:
            has_pair, readings = _suit_readings(part, lo)
            if not readings:
                return None
            pairs += has_pair
            parts.append(readings)
    return parts if pairs == 1 else None


def is_standard(counts: tuple[int, ...]) -> bool:
    """True when the concealed counts read as sets plus exactly one pair."""
    return _suit_parts(counts) is not None


def is_seven_pairs(counts: tuple[int, ...]) -> bool:
    """七对: fourteen tiles, every kind held twice or four times."""
    return 1 not in counts and 3 not in counts and sum(counts) == 14


def decompositions(counts: tuple[int, ...]) -> list[Decomposition]:
    """Every standard reading of the concealed counts (global kind numbers), suit by
    suit in kind order, each suit's readings in their sorted order."""
    parts = _suit_parts(counts)
    if parts is None:
        return []
    combos = list(parts[0])
    for readings in parts[1:]:
        combos = [
            Decomposition(
                a.sets + b.sets,
                a.pair if a.pair >= 0 else b.pair,
                a.triplets_only and b.triplets_only,
            )
            for a in combos
            for b in readings
        ]
    return combos


def _readable(counts: tuple[int, ...], runs: bool) -> bool:
    """Whether one suit's counts read whole as sets plus at most one pair, without
    listing the readings: after the pair, the lowest tile held starts ``n % 3`` runs
    (three equal runs read as three triplets), so one pass decides."""
    rem = sum(counts) % 3
    if rem == 1:
        return False
    if rem == 0:
        return _sets_only(list(counts), runs)
    # every set's kinds add up to a multiple of 3 (i + (i+1) + (i+2), or 3i), so the
    # pair's kind p has 2p ≡ Σ i·n (mod 3): only every third kind can hold it
    weight = 0
    for i, n in enumerate(counts):
        weight += i * n
    for i in range(2 * weight % 3, len(counts), 3):
        if counts[i] >= 2:
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
    """Local kinds that, added to one suit's counts, let the suit be read whole (held
    fewer than four times): the tile completes a two-tile part of a reading that is
    otherwise sets, or pairs a tile held alone."""
    total = sum(counts)
    if total % 3 == 0:
        return ()  # one tile more makes 3n + 1, never read whole
    found: set[int] = set()
    work = list(counts)
    if total % 3 == 2:  # the tile makes sets only
        _part_waits(work, runs, found)
    else:  # the tile makes sets and a pair
        weight = 0
        for i, n in enumerate(counts):
            weight += i * n
        # it pairs a tile held alone, the rest sets only: sets' kinds add up to a
        # multiple of 3, so that tile's kind k has k ≡ weight (mod 3)
        for k in range(weight % 3, len(counts), 3):
            if counts[k]:
                work[k] -= 1
                if _sets_only(list(work), runs):
                    found.add(k)
                work[k] += 1
        # or the pair is held, and the tile completes a part of the rest
        for j, n in enumerate(counts):
            if n >= 2:
                work[j] -= 2
                _part_waits(work, runs, found)
                work[j] += 2
    return tuple(sorted(k for k in found if counts[k] < 4))


def _part_waits(counts: list[int], runs: bool, found: set[int]) -> None:
    """Add to ``found`` the kinds that make these counts (3n + 2 tiles; changed, then
    restored) read as sets only: every reading as sets and one two-tile part, searched
    from the lowest tile held, which starts a triplet, a run or the part."""
    size = len(counts)
    low = 0
    while not counts[low]:  # 3n + 2 tiles: some are held
        low += 1
    if counts[low] >= 3:
        counts[low] -= 3
        _part_waits(counts, runs, found)
        counts[low] += 3
    if runs and low + 2 < size and counts[low + 1] and counts[low + 2]:
        counts[low] -= 1
        counts[low + 1] -= 1
        counts[low + 2] -= 1
        _part_waits(counts, runs, found)
        counts[low] += 1
        counts[low + 1] += 1
        counts[low + 2] += 1
    # the part: a pair waits for its third; two in a row wait at either end; two apart
    # wait in between. The rest must read as sets only.
    if counts[low] >= 2 and _sets_only(_less(counts, low, low), runs):
        found.add(low)
    if (
        runs
        and low + 1 < size
        and counts[low + 1]
        and _sets_only(_less(counts, low, low + 1), runs)
    ):
        if low > 0:
            found.add(low - 1)
        if low + 2 < size:
            found.add(low + 2)
    if (
        runs
        and low + 2 < size
        and counts[low + 2]
        and _sets_only(_less(counts, low, low + 2), runs)
    ):
        found.add(low + 1)


def _less(counts: list[int], a: int, b: int) -> list[int]:
    """A copy of the counts without one tile of kind ``a`` and one of kind ``b``."""
    rest = list(counts)
    rest[a] -= 1
    rest[b] -= 1
    return rest


@lru_cache(maxsize=65536)
def _suit_waits(counts: tuple[int, ...], runs: bool) -> tuple[int, bool]:
    """What the wait set needs to know of one suit: its tiles modulo 3, and whether it
    reads whole as it is."""
    return sum(counts) % 3, _readable(counts, runs)


def waits(pre: tuple[int, ...], own: tuple[int, ...], seven_pairs_allowed: bool) -> list[int]:
    """The wait set: kinds that would complete the pre-win concealed counts.

    ``own`` counts the tiles in the player's own hand and declared sets; a kind
    whose four copies are all there is left out, as no such tile is left to win on.
    The tile must go to a suit that cannot be read whole as it is, every other suit
    must be readable, and one pair must result: suit by suit, a lookup in a cached
    table.
    """
    parts = [(lo, pre[lo:hi], runs) for lo, hi, runs in _SUIT_SLICES]
    suits = [_suit_waits(part, runs) for _, part, runs in parts]
    residues = [residue for residue, _ in suits]
    # one tile more must leave no suit of 3n + 1 tiles and exactly one of 3n + 2: it goes
    # to the one suit of 3n + 1, or to either of two suits of 3n + 2
    if residues.count(1) == 1 and 2 not in residues:
        targets = [residues.index(1)]
    elif residues.count(2) == 2 and 1 not in residues:
        targets = [s for s in range(4) if residues[s] == 2]
    else:
        targets = []
    found: set[int] = set()
    for s in targets:
        if all(suits[t][1] for t in range(4) if t != s):
            lo, part, runs = parts[s]
            found.update(lo + i for i in _completions(part, runs) if own[lo + i] < 4)
    if seven_pairs_allowed and sum(pre) == 13 and pre.count(1) + pre.count(3) == 1:
        odd = pre.index(1) if 1 in pre else pre.index(3)
        if own[odd] < 4:
            found.add(odd)
    return sorted(found)


#: per kind, its suit's slice of the counts and whether the suit makes runs
_SUIT_OF = tuple(next(r for r in _SUIT_SLICES if r[0] <= kind < r[1]) for kind in range(31))


def won_waits(
    counts: tuple[int, ...], win: int, pair: int, seen: dict[int, int], seven_pairs_allowed: bool
) -> list[int]:
    """waits() of a won standard hand before its winning tile ``win``, read off two suits.

    ``counts`` are the concealed counts after the win, read as sets and a pair held
    at ``pair``; ``seen`` counts the copies in sight outside them (declared sets,
    another player's pong). Every suit but the winning tile's reads whole already, so
    the tile went to the winning tile's suit, or, when that suit held sets only, to the
    pair's suit provided the winning tile's suit reads whole without it.
    """
    lo, hi, runs = _SUIT_OF[win]
    part = counts[lo:hi]
    i = win - lo
    pre = (*part[:i], part[i] - 1, *part[i + 1 :])
    found = {lo + k for k in _completions(pre, runs)}
    if sum(part) % 3 == 0 and _suit_waits(pre, runs)[1]:
        p_lo, p_hi, p_runs = _SUIT_OF[pair]
        found.update(p_lo + k for k in _completions(counts[p_lo:p_hi], p_runs))
    if seven_pairs_allowed and sum(counts) == 14:
        odd = [k for k, n in enumerate(counts) if (n - (k == win)) % 2]
        if len(odd) == 1:
            found.add(odd[0])
    return sorted(k for k in found if counts[k] - (k == win) + seen.get(k, 0) < 4)
