"""Standings, read from results: pairing games (象棋, 围棋, 五子棋, 跳棋, 扑克) and 麻将.

Pairing games: a win 2 points, a draw 1, a loss 0 (the Chinese 胜2 和1 负0), a bye a
win. Ties are broken by Buchholz (the sum of the opponents' points; a bye adds
nothing), then head to head (points in the games among the players still tied),
then by the order of entry.

麻将: each round's tables give each entrant the points of their table's ledger.
A table's placings score 4/2/1/0 (the tournament may set others); players level on
points at a table share the placings they cover equally (two level for first take
(4+2)/2 = 3 each). The tournament ranks by total points then placing points, or by
placing points then total points; then by the order of entry.
"""

from __future__ import annotations

from collections.abc import Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Generic, TypeVar

P = TypeVar("P", bound=Hashable)

WIN, DRAW, LOSS = 2, 1, 0
PLACINGS = (4, 2, 1, 0)


@dataclass(frozen=True)
class Game(Generic[P]):
    """One pairing's result: the scores each side made (1-0, 0-1, 1-1 for a draw,
    or a game score such as 扑克's). ``second`` None is a bye."""

    first: P
    second: P | None
    first_score: int = 0
    second_score: int = 0

    def points(self) -> tuple[int, int]:
        if self.second is None:
            return WIN, LOSS
        if self.first_score > self.second_score:
            return WIN, LOSS
        if self.first_score < self.second_score:
            return LOSS, WIN
        return DRAW, DRAW


@dataclass(frozen=True)
class Line(Generic[P]):
    player: P
    rank: int
    points: int
    buchholz: int
    head_to_head: int
    games: int
    wins: int
    draws: int
    losses: int
    byes: int


def pair_standings(players: Sequence[P], games: Iterable[Game[P]]) -> list[Line[P]]:
    """The standings of a pairing tournament, best first."""
    games = list(games)
    points = dict.fromkeys(players, 0)
    counts = {player: [0, 0, 0, 0, 0] for player in players}  # games, W, D, L, byes
    opponents: dict[P, list[P]] = {player: [] for player in players}
    for game in games:
        a, b = game.points()
        points[game.first] += a
        if game.second is None:
            counts[game.first][4] += 1
            continue
        points[game.second] += b
        opponents[game.first].append(game.second)
        opponents[game.second].append(game.first)
        for player, got in ((game.first, a), (game.second, b)):
            tally = counts[player]
            tally[0] += 1
            tally[{WIN: 1, DRAW: 2, LOSS: 3}[got]] += 1
    buchholz = {p: sum(points[o] for o in opponents[p]) for p in players}
    # head to head among the players level on points and Buchholz
    level: dict[tuple[int, int], set[P]] = {}
    for player in players:
        level.setdefault((points[player], buchholz[player]), set()).add(player)
    head = dict.fromkeys(players, 0)
    for game in games:
        if game.second is None:
            continue
        group = level[(points[game.first], buchholz[game.first])]
        if game.second in group:
            a, b = game.points()
            head[game.first] += a
            head[game.second] += b
    entry = {player: index for index, player in enumerate(players)}
    order = sorted(players, key=lambda p: (-points[p], -buchholz[p], -head[p], entry[p]))
    return [
        Line(
            player=player,
            rank=rank,
            points=points[player],
            buchholz=buchholz[player],
            head_to_head=head[player],
            games=counts[player][0],
            wins=counts[player][1],
            draws=counts[player][2],
            losses=counts[player][3],
            byes=counts[player][4],
        )
        for rank, player in enumerate(order, start=1)
    ]


def table_placings(table: Mapping[P, int], placings: Sequence[int] = PLACINGS) -> dict[P, Fraction]:
    """Each player's placing points at one table from their points there; players
    level on points share the placings they cover."""
    if len(table) != len(placings):
        raise ValueError("a table has as many players as placings")
    order = sorted(table, key=lambda p: -table[p])
    out: dict[P, Fraction] = {}
    start = 0
    while start < len(order):
        end = start
        while end + 1 < len(order) and table[order[end + 1]] == table[order[start]]:
            end += 1
        share = Fraction(sum(placings[start : end + 1]), end - start + 1)
        for player in order[start : end + 1]:
            out[player] = share
        start = end + 1
    return out


@dataclass(frozen=True)
class TableLine(Generic[P]):
    player: P
    rank: int
    points: int
    placings: Fraction
    tables: int


BY_POINTS, BY_PLACINGS = "points", "placings"


def table_standings(
    players: Sequence[P],
    tables: Iterable[Mapping[P, int]],
    rank_by: str = BY_POINTS,
    placings: Sequence[int] = PLACINGS,
) -> list[TableLine[P]]:
    """The standings of a 麻将 tournament from its tables' points, best first."""
    if rank_by not in (BY_POINTS, BY_PLACINGS):
        raise ValueError(f"rank by {BY_POINTS} or {BY_PLACINGS}")
    total = dict.fromkeys(players, 0)
    placed = dict.fromkeys(players, Fraction(0))
    played = dict.fromkeys(players, 0)
    for table in tables:
        for player, share in table_placings(table, placings).items():
            total[player] += table[player]
            placed[player] += share
            played[player] += 1
    entry = {player: index for index, player in enumerate(players)}

    def key(p: P) -> tuple[object, ...]:
        first, second = (total[p], placed[p]) if rank_by == BY_POINTS else (placed[p], total[p])
        return (-first, -second, entry[p])

    return [
        TableLine(player=p, rank=rank, points=total[p], placings=placed[p], tables=played[p])
        for rank, p in enumerate(sorted(players, key=key), start=1)
    ]
