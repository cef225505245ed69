"""Who plays whom: round robin (Berger tables), Swiss pairings and 麻将 table draws.

Plain functions over entrant ids (any hashable, in standing or entry order), no
database: the services read the rounds, call these, and store what they return.

- ``round_robin``: every pair once, each player once a round; with an odd number one
  player a round has the bye, a different one each round.
- ``swiss``: the next round from the standings: no pair twice, every player once,
  with an odd number one bye to a player who has not had one (the lowest-placed such
  player). The pairs are a maximum-weight matching (networkx's blossom algorithm)
  whose weights prefer equal points first and neighbours in the standings second.
- ``draw_tables``: a 麻将 round's seats drawn from a seed that is shown, four a table.
"""

from __future__ import annotations

import random
from collections.abc import Hashable, Iterable, Mapping, Sequence
from typing import TypeVar

import networkx as nx

P = TypeVar("P", bound=Hashable)

SEATS = ("E", "S", "W", "N")


class NoPairing(ValueError):
    """No round can be paired under the rules (every pair already met)."""


def round_robin(players: Sequence[P]) -> list[list[tuple[P, P | None]]]:
    """All the rounds of a round robin by the circle method of the Berger tables.

    The first player stays put and the others turn one place a round; a ``None``
    partner is the bye. In a pair the first named plays first (white, red, the
    lead); the fixed player alternates so colours stay even.
    """
    if len(set(players)) != len(players):
        raise ValueError("a player is entered twice")
    ring: list[P | None] = list(players)
    if len(ring) % 2:
        ring.append(None)
    n = len(ring)
    rounds: list[list[tuple[P, P | None]]] = []
    for number in range(n - 1):
        pairs: list[tuple[P, P | None]] = []
        for i in range(n // 2):
            a, b = ring[i], ring[n - 1 - i]
            if i == 0 and number % 2:
                a, b = b, a
            if a is None:
                a, b = b, a
            assert a is not None
            pairs.append((a, b))
        # the bye (if any) is written last
        pairs.sort(key=lambda pair: pair[1] is None)
        rounds.append(pairs)
        ring = [ring[0], ring[-1], *ring[1:-1]]
    return rounds


def swiss(
    standings: Sequence[P],
    points: Mapping[P, int],
    played: Iterable[tuple[P, P]],
    had_bye: Iterable[P] = (),
) -> list[tuple[P, P | None]]:
    """The next Swiss round. ``standings`` is the order of the current standings (best
    first), ``points`` each player's points, ``played`` the pairs already met,
    ``had_bye`` who had a bye. Raises ``NoPairing`` when no complete round exists."""
    if len(set(standings)) != len(standings):
        raise ValueError("a player is entered twice")
    if len(standings) < 2:
        raise NoPairing("a round needs at least two players")
    met = {frozenset(pair) for pair in played}
    byes = set(had_bye)
    rank = {player: index for index, player in enumerate(standings)}
    n = len(standings)
    low = min(points[player] for player in standings)
    high = max(points[player] for player in standings)
    # Weights are integers, so the matching is exact: a difference of one point costs
    # more than any sum of standing distances can.
    scale = n * n + 1
    top = scale * (high - low + 1) ** 2 + n + 1
    graph: nx.Graph = nx.Graph()
    graph.add_nodes_from(range(n))
    for a in standings:
        for b in standings:
            if rank[a] < rank[b] and frozenset((a, b)) not in met:
                gap = points[a] - points[b]
                weight = top - scale * gap * gap - (rank[b] - rank[a])
                graph.add_edge(rank[a], rank[b], weight=weight)
    bye = n  # the bye is one more node, when the number is odd
    if n % 2:
        graph.add_node(bye)
        for player in standings:
            if player not in byes:
                gap = points[player] - low
                weight = top - scale * gap * gap - (n - rank[player])
                graph.add_edge(rank[player], bye, weight=weight)
    matching = nx.max_weight_matching(graph, maxcardinality=True)
    if 2 * len(matching) != graph.number_of_nodes():
        raise NoPairing("no round pairs everyone without a repeat")
    pairs: list[tuple[P, P | None]] = []
    for u, v in matching:
        first, second = sorted((u, v))
        pairs.append((standings[first], None if second == bye else standings[second]))
    pairs.sort(key=lambda pair: (pair[1] is None, rank[pair[0]]))
    return pairs


def draw_tables(entrants: Sequence[P], seed: int) -> list[tuple[P, ...]]:
    """The seats of a 麻将 round drawn from ``seed``: tables of four, seated E S W N.
    The same seed and entrants always give the same tables (the seed is shown)."""
    if len(set(entrants)) != len(entrants):
        raise ValueError("an entrant is entered twice")
    if not entrants or len(entrants) % len(SEATS):
        raise ValueError("a 麻将 round needs a multiple of four entrants")
    order = list(entrants)
    random.Random(seed).shuffle(order)
    size = len(SEATS)
    return [tuple(order[i : i + size]) for i in range(0, len(order), size)]
