"""Pairings: round robin, Swiss and 麻将 draws, by their properties (issue 23.3)."""

from __future__ import annotations

import random
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from clubapp.activities.pairing import NoPairing, draw_tables, round_robin, swiss


def _check_round(players: list[int], pairs: list[tuple[int, int | None]]) -> None:
    seen = [p for pair in pairs for p in pair if p is not None]
    assert sorted(seen) == sorted(players), "every player once a round"
    assert sum(1 for _, b in pairs if b is None) == len(players) % 2, "one bye when odd"


@given(st.integers(min_value=2, max_value=15))
def test_round_robin_meets_every_pair_once(n: int) -> None:
    players = list(range(100, 100 + n))
    rounds = round_robin(players)
    assert len(rounds) == n - 1 + n % 2
    met: Counter[frozenset[int]] = Counter()
    byes = []
    for pairs in rounds:
        _check_round(players, pairs)
        for a, b in pairs:
            if b is None:
                byes.append(a)
            else:
                met[frozenset((a, b))] += 1
    assert len(met) == n * (n - 1) // 2 and set(met.values()) == {1}
    assert len(byes) == len(set(byes)) == n % 2 * n, "the bye to a different player each round"


def test_round_robin_colours_stay_even() -> None:
    players = list(range(8))
    first = Counter(a for pairs in round_robin(players) for a, _ in pairs)
    assert max(first.values()) - min(first.values()) <= 1


def test_round_robin_refuses_an_entrant_twice() -> None:
    with pytest.raises(ValueError):
        round_robin([1, 2, 2])


def _play(pairs: list[tuple[int, int | None]], points: dict[int, int], rng: random.Random) -> None:
    for a, b in pairs:
        if b is None:
            points[a] += 2
            continue
        outcome = rng.choice(((2, 0), (1, 1), (0, 2)))
        points[a] += outcome[0]
        points[b] += outcome[1]


@settings(max_examples=60, deadline=None)
@given(st.integers(min_value=2, max_value=16), st.integers(min_value=0, max_value=2**32))
def test_swiss_never_repeats_a_pair_and_gives_each_bye_to_someone_new(n: int, seed: int) -> None:
    rng = random.Random(seed)
    players = list(range(n))
    points = dict.fromkeys(players, 0)
    played: list[tuple[int, int]] = []
    byes: list[int] = []
    nodes = n + n % 2
    # After k rounds every player has lost k partners: a complete round exists while
    # k < nodes / 2 (Dirac's theorem).
    for _ in range(nodes // 2):
        standings = sorted(players, key=lambda p: (-points[p], p))
        pairs = swiss(standings, points, played, byes)
        _check_round(players, pairs)
        for a, b in pairs:
            if b is None:
                assert a not in byes
                byes.append(a)
            else:
                assert frozenset((a, b)) not in {frozenset(p) for p in played}
                played.append((a, b))
        _play(pairs, points, rng)


def test_swiss_pairs_equal_points_first_and_the_bye_goes_to_the_lowest() -> None:
    standings = [1, 2, 3, 4, 5]
    points = {1: 4, 2: 4, 3: 2, 4: 2, 5: 0}
    pairs = swiss(standings, points, played=[(1, 3)], had_bye=[])
    assert pairs == [(1, 2), (3, 4), (5, None)]
    # 5 had the bye already: the lowest placed without one gets it
    pairs = swiss(standings, points, played=[], had_bye=[5])
    assert (4, None) in pairs and (1, 2) in pairs


def test_swiss_says_when_no_round_is_left() -> None:
    with pytest.raises(NoPairing):
        swiss([1, 2], {1: 2, 2: 0}, played=[(2, 1)])
    with pytest.raises(NoPairing):
        swiss([1], {1: 0}, played=[])
    with pytest.raises(ValueError):
        swiss([1, 1], {1: 0}, played=[])


@given(st.integers(min_value=1, max_value=6), st.integers())
def test_draw_tables_seats_everyone_once_and_repeats_from_its_seed(tables: int, seed: int) -> None:
    entrants = list(range(10, 10 + 4 * tables))
    drawn = draw_tables(entrants, seed)
    assert len(drawn) == tables and all(len(t) == 4 for t in drawn)
    assert sorted(p for t in drawn for p in t) == entrants
    assert draw_tables(entrants, seed) == drawn


def test_draw_tables_needs_fours_and_no_entrant_twice() -> None:
    with pytest.raises(ValueError):
        draw_tables([1, 2, 3], 7)
    with pytest.raises(ValueError):
        draw_tables([1, 2, 3, 3], 7)
