"""Reads of the tournaments (赛事): lists, rounds, and the standings, live or frozen.

Live standings are computed on every read from the rows that make them (the last
result of each pairing; the ledgers of each 麻将 table's session), through the pure
``activities.standings``; a closed tournament shows its ``FinalStanding`` rows.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from django.db.models import Prefetch, QuerySet
from django.shortcuts import get_object_or_404

from clubapp.activities import standings
from clubapp.activities.models import (
    Entrant,
    FinalStanding,
    Format,
    Pairing,
    Result,
    Round,
    RoundSeat,
    RoundTable,
    Tournament,
)
from clubapp.core.models import Room
from clubapp.play import selectors as play_selectors
from clubapp.play.models import SEATS, Wind


def tournament_list(*, room: Room) -> QuerySet[Tournament]:
    return Tournament.objects.filter(room=room).select_related("ruleset")


def tournament_get(*, room: Room, pk: int) -> Tournament:
    return get_object_or_404(
        Tournament.objects.select_related("ruleset", "planned"), room=room, pk=pk
    )


def entrant_list(*, tournament: Tournament) -> QuerySet[Entrant]:
    return tournament.entrants.select_related("member", "fee").order_by("number")


def placings_of(tournament: Tournament) -> tuple[int, ...]:
    """The tournament's placing points, first to fourth (``"4,2,1,0"``)."""
    return tuple(int(part) for part in tournament.placings.split(","))


def fraction_text(value: Fraction) -> str:
    """Placing points as shown: whole, or to two places (a shared 7/3 shows 2.33)."""
    if value.denominator == 1:
        return str(value.numerator)
    return f"{float(value):.2f}"


def is_pairing_game(tournament: Tournament) -> bool:
    return tournament.format != Format.TABLES


# --------------------------------------------------------------------- pairing games


def last_results(*, pairings: list[Pairing]) -> dict[int, Result]:
    """The result that counts for each pairing: its last row (a correction is a new row)."""
    out: dict[int, Result] = {}
    for result in Result.objects.filter(pairing__in=[p.pk for p in pairings]).order_by(
        "entered_at", "pk"
    ):
        out[result.pairing_id] = result
    return out


def pairings_of(*, tournament: Tournament) -> list[Pairing]:
    return list(
        Pairing.objects.filter(round__tournament=tournament)
        .select_related("round", "first__member", "second__member")
        .order_by("round__number", "board")
    )


def pair_games(*, tournament: Tournament) -> list[standings.Game[int]]:
    """Every game with a result, and every bye, as the pure standings read them
    (entrant ids)."""
    pairings = pairings_of(tournament=tournament)
    results = last_results(pairings=pairings)
    games: list[standings.Game[int]] = []
    for pairing in pairings:
        if pairing.second_id is None:
            games.append(standings.Game(first=pairing.first_id, second=None))
            continue
        result = results.get(pairing.pk)
        if result is not None:
            games.append(
                standings.Game(
                    first=pairing.first_id,
                    second=pairing.second_id,
                    first_score=result.first_score,
                    second_score=result.second_score,
                )
            )
    return games


# --------------------------------------------------------------------- 麻将 tables


def table_scores(*, tournament: Tournament) -> list[dict[int, int]]:
    """Each table with a session: its entrants' points from the session's ledger
    (``{entrant_id: points}``), live while the session is open."""
    tables = list(
        RoundTable.objects.filter(round__tournament=tournament, session__isnull=False)
        .select_related("session")
        .prefetch_related("seats")
    )
    totals = play_selectors.session_totals([t.session for t in tables if t.session is not None])
    out = []
    for table in tables:
        assert table.session_id is not None
        points = totals[table.session_id]
        out.append({seat.entrant_id: points[seat.wind] for seat in table.seats.all()})
    return out


# --------------------------------------------------------------------- rounds


def round_missing(*, round: Round) -> int:
    """How many of the round's games still lack their result: a pairing without a
    result (a bye needs none), a 麻将 table without a session or still playing."""
    if round.tournament.format == Format.TABLES:
        return sum(
            1
            for table in round.tables.select_related("session")
            if table.session is None or table.session.ended_at is None
        )
    played = round.pairings.filter(second__isnull=False)
    return played.exclude(results__isnull=False).count()


@dataclass(frozen=True)
class PairingLine:
    pairing: Pairing
    result: Result | None
    #: how many results were entered (more than one: corrected)
    entries: int


@dataclass(frozen=True)
class SeatLine:
    wind: str
    entrant: Entrant
    points: int | None

    @property
    def wind_label(self) -> str:
        return str(Wind(self.wind).label)


@dataclass(frozen=True)
class TableLine:
    table: RoundTable
    seats: list[SeatLine]


@dataclass(frozen=True)
class RoundView:
    round: Round
    pairings: list[PairingLine] = field(default_factory=list)
    tables: list[TableLine] = field(default_factory=list)
    missing: int = 0


def rounds_view(*, tournament: Tournament) -> list[RoundView]:
    """Every round with its pairings and results, or its tables, seats and points."""
    rounds = list(
        tournament.rounds.order_by("number").prefetch_related(
            Prefetch(
                "pairings",
                queryset=Pairing.objects.select_related("first__member", "second__member"),
            ),
            Prefetch(
                "tables",
                queryset=RoundTable.objects.select_related("session").prefetch_related(
                    Prefetch("seats", queryset=RoundSeat.objects.select_related("entrant__member"))
                ),
            ),
        )
    )
    if is_pairing_game(tournament):
        pairings = [p for r in rounds for p in r.pairings.all()]
        results = last_results(pairings=pairings)
        counts: dict[int, int] = {}
        for pairing_id in Result.objects.filter(pairing__in=[p.pk for p in pairings]).values_list(
            "pairing", flat=True
        ):
            counts[pairing_id] = counts.get(pairing_id, 0) + 1
        return [
            RoundView(
                round=r,
                pairings=[
                    PairingLine(pairing=p, result=results.get(p.pk), entries=counts.get(p.pk, 0))
                    for p in r.pairings.all()
                ],
                missing=sum(
                    1 for p in r.pairings.all() if p.second_id is not None and p.pk not in results
                ),
            )
            for r in rounds
        ]
    sessions = [t.session for r in rounds for t in r.tables.all() if t.session is not None]
    totals = play_selectors.session_totals(sessions)
    views = []
    for r in rounds:
        lines = []
        for table in r.tables.all():
            seats = sorted(table.seats.all(), key=lambda s: SEATS.index(s.wind))
            points = totals.get(table.session_id) if table.session_id else None
            lines.append(
                TableLine(
                    table=table,
                    seats=[
                        SeatLine(
                            wind=s.wind,
                            entrant=s.entrant,
                            points=points[s.wind] if points is not None else None,
                        )
                        for s in seats
                    ],
                )
            )
        missing = sum(1 for t in r.tables.all() if t.session is None or t.session.ended_at is None)
        views.append(RoundView(round=r, tables=lines, missing=missing))
    return views


# --------------------------------------------------------------------- standings


@dataclass(frozen=True)
class StandingRow:
    rank: int
    entrant: Entrant
    points: int
    #: the tie breaks as shown: "Buchholz / head to head", or the placing points
    tie_break: str
    #: games played (pairing games) or tables played (麻将)
    games: int = 0
    wins: int = 0
    draws: int = 0
    losses: int = 0
    byes: int = 0


def standings_live(*, tournament: Tournament) -> list[StandingRow]:
    """The standings from the rows as they are now, best first."""
    entrants = {e.pk: e for e in entrant_list(tournament=tournament)}
    order = list(entrants)
    if is_pairing_game(tournament):
        lines = standings.pair_standings(order, pair_games(tournament=tournament))
        return [
            StandingRow(
                rank=line.rank,
                entrant=entrants[line.player],
                points=line.points,
                tie_break=f"{line.buchholz} / {line.head_to_head}",
                games=line.games,
                wins=line.wins,
                draws=line.draws,
                losses=line.losses,
                byes=line.byes,
            )
            for line in lines
        ]
    table_lines = standings.table_standings(
        order,
        table_scores(tournament=tournament),
        rank_by=tournament.rank_by,
        placings=placings_of(tournament),
    )
    return [
        StandingRow(
            rank=line.rank,
            entrant=entrants[line.player],
            points=line.points,
            tie_break=fraction_text(line.placings),
            games=line.tables,
        )
        for line in table_lines
    ]


def standings_final(*, tournament: Tournament) -> list[StandingRow]:
    rows = FinalStanding.objects.filter(tournament=tournament).select_related("entrant__member")
    return [
        StandingRow(rank=r.rank, entrant=r.entrant, points=r.points, tie_break=r.tie_break)
        for r in rows.order_by("rank")
    ]


def tournament_standings(*, tournament: Tournament) -> list[StandingRow]:
    """The frozen standings of a closed tournament, else the live ones."""
    if tournament.is_closed:
        return standings_final(tournament=tournament)
    return standings_live(tournament=tournament)


# --------------------------------------------------------------------- a member's own


def entrant_for_user(*, tournament: Tournament, user: Any) -> Entrant | None:
    if not getattr(user, "is_authenticated", False):
        return None
    return tournament.entrants.filter(member__user=user).select_related("member").first()


@dataclass(frozen=True)
class OwnLine:
    round: int
    #: the opponent's name, or the table's other players
    against: str
    #: what the member made: "1–0", or the table's points
    score: str
    bye: bool = False


def own_results(*, tournament: Tournament, entrant: Entrant) -> list[OwnLine]:
    """The entrant's games: each round's opponent or table and the result there."""
    out: list[OwnLine] = []
    for view in rounds_view(tournament=tournament):
        for line in view.pairings:
            p = line.pairing
            if entrant.pk not in (p.first_id, p.second_id):
                continue
            if p.second is None:
                out.append(OwnLine(round=view.round.number, against="", score="", bye=True))
                continue
            mine_first = p.first_id == entrant.pk
            other = p.second if mine_first else p.first
            score = ""
            if line.result is not None:
                a, b = line.result.first_score, line.result.second_score
                score = f"{a}–{b}" if mine_first else f"{b}–{a}"
            out.append(OwnLine(round=view.round.number, against=other.member.name, score=score))
        for table in view.tables:
            seats = {s.entrant.pk: s for s in table.seats}
            if entrant.pk not in seats:
                continue
            mine = seats[entrant.pk]
            others = "、".join(s.entrant.member.name for s in table.seats if s is not mine)
            score = "" if mine.points is None else f"{mine.points:+d}"
            out.append(OwnLine(round=view.round.number, against=others, score=score))
    return out
