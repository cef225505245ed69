"""The tournaments' services: create, enter, pair, results, 麻将 tables, close."""

from __future__ import annotations

import datetime as dt
import uuid
from decimal import Decimal

import pytest
from django.core.exceptions import PermissionDenied, ValidationError
from django.db import IntegrityError, transaction
from django.utils import timezone

from clubapp.activities import pairing
from clubapp.activities.models import (
    Entrant,
    FinalStanding,
    Format,
    Game,
    Pairing,
    Result,
    Round,
    RoundSeat,
    Tournament,
)
from clubapp.activities.selectors import tournaments as selectors
from clubapp.activities.services import tournaments as services
from clubapp.activities.tests.tournament_factories import (
    boards,
    card_member,
    entered,
    tournament,
)
from clubapp.books.models import IncomeCategory, IncomeEntry
from clubapp.members import services as member_services
from clubapp.members.tests.factories import make_id_number
from clubapp.play import services as play
from clubapp.play.tests.factories import TableSessionFactory, book, discard_win, shipped

pytestmark = pytest.mark.django_db


def _code(exc: pytest.ExceptionInfo[ValidationError]) -> str:
    return exc.value.error_list[0].code or ""


def _finish(t: Tournament, manager, round_: Round, score=(1, 0)) -> None:
    for p in round_.pairings.filter(second__isnull=False):
        services.result_record(
            tournament=t, pairing=p, first_score=score[0], second_score=score[1], by=manager
        )


# --------------------------------------------------------------------- create


def test_it_creates_a_swiss(room, manager):
    t = tournament(room, manager)
    assert (t.game, t.format, t.ruleset, t.created_by) == (
        Game.XIANGQI,
        Format.SWISS,
        None,
        manager,
    )


def test_it_creates_a_mahjong_tournament_with_its_ruleset(room, manager):
    t = tournament(room, manager, game=Game.MAHJONG, placings="5，3，1，0", rank_by="placings")
    assert (t.format, t.ruleset.ruleset_id, t.placings, t.rank_by) == (
        Format.TABLES,
        "nanjing",
        "5,3,1,0",
        "placings",
    )


@pytest.mark.parametrize(
    ("changes", "code"),
    [
        ({"name": " "}, "name"),
        ({"game": Game.MAHJONG, "format": Format.SWISS}, "format_for_game"),
        ({"game": Game.WEIQI, "format": Format.TABLES}, "format_for_game"),
        ({"ends": dt.date(2020, 1, 1)}, "dates"),
        ({"rounds_planned": 0}, "rounds"),
        ({"entry_fee": Decimal("-1")}, "fee"),
        ({"entry_fee": Decimal("1.234")}, "fee"),
        ({"game": Game.MAHJONG, "format": Format.TABLES}, "ruleset"),
        (
            {"game": Game.MAHJONG, "format": Format.TABLES, "ruleset": "x", "placings": "4,2,1"},
            "placings",
        ),
        (
            {"game": Game.MAHJONG, "format": Format.TABLES, "ruleset": "x", "placings": "1,2,3,4"},
            "placings",
        ),
    ],
)
def test_it_refuses_a_bad_tournament(room, manager, changes, code):
    today = timezone.localdate()
    args = {
        "room": room,
        "name": "赛",
        "game": Game.XIANGQI,
        "format": Format.SWISS,
        "starts": today,
        "ends": today,
        "rounds_planned": 3,
        "by": manager,
        **changes,
    }
    if args.get("ruleset") == "x":
        args["ruleset"] = shipped()
    with pytest.raises(ValidationError) as exc:
        services.tournament_create(**args)
    assert _code(exc) == code
    assert not Tournament.objects.exists()


def test_only_a_manager_creates(room, member):
    with pytest.raises(PermissionDenied):
        tournament(room, member)


# --------------------------------------------------------------------- entrants


def test_an_entry_fee_is_income_with_its_receipt(room, manager):
    t = tournament(room, manager, fee="20.00")
    member = card_member(room, manager, 1)
    entrant = services.entrant_add(tournament=t, member=member, by=manager)
    assert entrant.number == 1
    assert entrant.fee.category == IncomeCategory.TOURNAMENT
    assert entrant.fee.amount == Decimal("20.00")
    assert entrant.fee.payer == member.name
    assert entrant.fee.reference.startswith("R")


def test_the_same_form_twice_enters_once(room, manager):
    t = tournament(room, manager, fee="20.00")
    member = card_member(room, manager, 1)
    key = uuid.uuid4()
    first = services.entrant_add(tournament=t, member=member, by=manager, request_key=key)
    again = services.entrant_add(tournament=t, member=member, by=manager, request_key=key)
    assert first == again
    assert IncomeEntry.objects.filter(category=IncomeCategory.TOURNAMENT).count() == 1


def test_an_entrant_twice_is_refused_and_nothing_is_booked(room, manager):
    t = tournament(room, manager, fee="20.00")
    member = card_member(room, manager, 1)
    services.entrant_add(tournament=t, member=member, by=manager)
    with pytest.raises(ValidationError) as exc:
        services.entrant_add(tournament=t, member=member, by=manager, request_key=uuid.uuid4())
    assert _code(exc) == "entered_twice"
    assert t.entrants.count() == 1
    assert IncomeEntry.objects.filter(category=IncomeCategory.TOURNAMENT).count() == 1


def test_a_member_without_a_valid_card_is_refused(room, manager):
    t = tournament(room, manager)
    member = member_services.member_create(
        room=room, name="无卡", phone="1", id_number=make_id_number(77), by=manager
    )
    with pytest.raises(ValidationError) as exc:
        services.entrant_add(tournament=t, member=member, by=manager)
    assert _code(exc) == "card_not_valid"


def test_entries_close_with_the_first_round(room, manager):
    t = tournament(room, manager)
    entered(room, manager, t, 4)
    services.round_pair(tournament=t, by=manager)
    with pytest.raises(ValidationError) as exc:
        services.entrant_add(tournament=t, member=card_member(room, manager, 8), by=manager)
    assert _code(exc) == "entries_closed"


# --------------------------------------------------------------------- pairing games


def test_a_round_robin_pairs_the_berger_rounds(room, manager):
    t = tournament(room, manager, format=Format.ROUND_ROBIN, rounds=3)
    people = entered(room, manager, t, 4)
    berger = pairing.round_robin([e.pk for e in people])
    for number in range(1, 4):
        r = services.round_pair(tournament=t, by=manager)
        assert r.number == number
        assert [(p.first_id, p.second_id) for p in r.pairings.all()] == berger[number - 1]
        _finish(t, manager, r)
    with pytest.raises(ValidationError) as exc:
        services.round_pair(tournament=t, by=manager)
    assert _code(exc) == "rounds_done"


def test_a_round_robin_of_more_rounds_than_pairs_stops(room, manager):
    t = tournament(room, manager, format=Format.ROUND_ROBIN, rounds=9)
    entered(room, manager, t, 2)
    _finish(t, manager, services.round_pair(tournament=t, by=manager))
    with pytest.raises(ValidationError) as exc:
        services.round_pair(tournament=t, by=manager)
    assert _code(exc) == "round_robin_done"


def test_no_round_is_paired_before_the_last_is_complete(room, manager):
    t = tournament(room, manager)
    entered(room, manager, t, 4)
    r = services.round_pair(tournament=t, by=manager)
    services.result_record(
        tournament=t, pairing=r.pairings.first(), first_score=1, second_score=0, by=manager
    )
    with pytest.raises(ValidationError) as exc:
        services.round_pair(tournament=t, by=manager)
    assert _code(exc) == "previous_incomplete"
    assert t.rounds.count() == 1


def test_a_swiss_never_repeats_and_gives_the_bye_to_someone_new(room, manager):
    t = tournament(room, manager, rounds=5)
    entered(room, manager, t, 5)
    met: set[frozenset[int]] = set()
    byes: list[int] = []
    for _number in range(5):
        r = services.round_pair(tournament=t, by=manager)
        seen = []
        for p in r.pairings.all():
            seen.append(p.first_id)
            if p.second_id is None:
                byes.append(p.first_id)
                continue
            seen.append(p.second_id)
            assert frozenset((p.first_id, p.second_id)) not in met
            met.add(frozenset((p.first_id, p.second_id)))
        assert sorted(seen) == sorted(t.entrants.values_list("pk", flat=True))
        _finish(t, manager, r, score=(2, 1))
    assert len(byes) == len(set(byes)) == 5


def test_a_swiss_pairs_by_the_standings(room, manager):
    t = tournament(room, manager)
    people = entered(room, manager, t, 4)
    r1 = services.round_pair(tournament=t, by=manager)
    _finish(t, manager, r1)  # the first of each pairing wins
    winners = {p.first_id for p in r1.pairings.all()}
    r2 = services.round_pair(tournament=t, by=manager)
    top = r2.pairings.get(board=1)
    assert {top.first_id, top.second_id} == winners
    assert len(people) == 4


def test_a_correction_is_a_new_result_and_the_last_counts(room, manager):
    t = tournament(room, manager)
    entered(room, manager, t, 2)
    r = services.round_pair(tournament=t, by=manager)
    p = r.pairings.get()
    services.result_record(tournament=t, pairing=p, first_score=1, second_score=0, by=manager)
    services.result_record(tournament=t, pairing=p, first_score=0, second_score=1, by=manager)
    assert Result.objects.filter(pairing=p).count() == 2
    table = selectors.standings_live(tournament=t)
    assert table[0].entrant.pk == p.second_id
    assert (table[0].points, table[1].points) == (2, 0)


def test_a_result_for_a_pairing_not_in_the_tournament_is_refused(room, manager):
    t = tournament(room, manager)
    other = tournament(room, manager, name="另一赛")
    entered(room, manager, t, 2)
    people = [
        services.entrant_add(tournament=other, member=card_member(room, manager, n), by=manager)
        for n in (5, 6)
    ]
    foreign = services.round_pair(tournament=other, by=manager).pairings.get()
    assert foreign.first_id in {e.pk for e in people}
    with pytest.raises(ValidationError) as exc:
        services.result_record(
            tournament=t, pairing=foreign, first_score=1, second_score=0, by=manager
        )
    assert _code(exc) == "pairing_not_here"
    assert not Result.objects.exists()


def test_a_bye_takes_no_result(room, manager):
    t = tournament(room, manager)
    entered(room, manager, t, 3)
    bye = services.round_pair(tournament=t, by=manager).pairings.get(second__isnull=True)
    with pytest.raises(ValidationError) as exc:
        services.result_record(tournament=t, pairing=bye, first_score=1, second_score=0, by=manager)
    assert _code(exc) == "bye"


def test_a_mahjong_tournament_is_not_paired(room, manager):
    t = tournament(room, manager, game=Game.MAHJONG)
    with pytest.raises(ValidationError) as exc:
        services.round_pair(tournament=t, by=manager)
    assert _code(exc) == "format"
    with pytest.raises(ValidationError):
        services.round_draw(tournament=tournament(room, manager, name="象"), by=manager)


# --------------------------------------------------------------------- 麻将


def _mahjong(room, manager, count=8, **extra):
    t = tournament(room, manager, game=Game.MAHJONG, rounds=2, **extra)
    return t, entered(room, manager, t, count)


def _seats(r: Round) -> list[list[int]]:
    return [
        [s.entrant.member_id for s in sorted(table.seats.all(), key=lambda s: "ESWN".index(s.wind))]
        for table in r.tables.order_by("number")
    ]


def test_a_draw_keeps_its_seed_and_the_same_seed_draws_the_same_tables(room, manager):
    t, people = _mahjong(room, manager)
    r = services.round_draw(tournament=t, seed=12345, by=manager)
    assert r.seed == 12345
    assert r.tables.count() == 2
    assert sorted(RoundSeat.objects.filter(round=r).values_list("entrant", flat=True)) == sorted(
        e.pk for e in people
    )
    expected = [[e.member_id for e in four] for four in pairing.draw_tables(people, 12345)]
    assert _seats(r) == expected


def test_a_draw_without_a_seed_chooses_and_stores_one(room, manager):
    t, _people = _mahjong(room, manager, count=4)
    assert services.round_draw(tournament=t, by=manager).seed is not None


def test_a_draw_needs_a_multiple_of_four(room, manager):
    t, _people = _mahjong(room, manager, count=6)
    with pytest.raises(ValidationError) as exc:
        services.round_draw(tournament=t, seed=1, by=manager)
    assert _code(exc) == "not_multiple_of_four"
    assert not Round.objects.exists()


def test_seats_set_by_hand_never_put_an_entrant_at_two_tables(room, manager):
    t, people = _mahjong(room, manager)
    with pytest.raises(ValidationError) as exc:
        services.round_set(tournament=t, tables=[people[:4], people[3:7]], by=manager)
    assert _code(exc) == "two_tables"
    assert not Round.objects.exists()
    with pytest.raises(ValidationError) as exc:
        services.round_set(tournament=t, tables=[people[:3]], by=manager)
    assert _code(exc) == "table_of_four"


def test_the_database_refuses_an_entrant_at_two_tables(room, manager):
    t, people = _mahjong(room, manager)
    r = services.round_set(tournament=t, tables=[people[:4], people[4:]], by=manager)
    second = r.tables.get(number=2)
    with pytest.raises(IntegrityError), transaction.atomic():
        RoundSeat.objects.filter(table=second, wind="E").update(entrant=people[0])


def _play_round(t, manager, r, tables, hands):
    sessions = []
    for table, board in zip(r.tables.order_by("number"), tables, strict=True):
        session = services.round_table_open(table=table, board=board, by=manager)
        for record in hands:
            book(session, record, by=manager)
        sessions.append(session)
    return sessions


def test_each_table_is_a_session_and_the_standings_read_its_ledger(room, manager):
    t, people = _mahjong(room, manager)
    r = services.round_set(tournament=t, tables=[people[:4], people[4:]], by=manager)
    sessions = _play_round(t, manager, r, boards(room, 2), [discard_win("S", "E")])
    assert all(s.ruleset_id == t.ruleset_id for s in sessions)
    assert [seat.name for seat in sessions[0].seats.order_by("pk")] == [
        e.member.name for e in people[:4]
    ]
    lines = selectors.standings_live(tournament=t)
    south = {people[1].pk, people[5].pk}
    east = {people[0].pk, people[4].pk}
    assert {line.entrant.pk for line in lines[:2]} == south
    assert {line.entrant.pk for line in lines[-2:]} & east
    assert sum(line.points for line in lines) == 0
    assert all(line.games == 1 for line in lines)


def test_the_next_round_waits_for_every_session_to_end(room, manager):
    t, people = _mahjong(room, manager)
    r = services.round_set(tournament=t, tables=[people[:4], people[4:]], by=manager)
    sessions = _play_round(t, manager, r, boards(room, 2), [discard_win("S", "E")])
    play.session_end(session=sessions[0], by=manager)
    with pytest.raises(ValidationError) as exc:
        services.round_draw(tournament=t, seed=3, by=manager)
    assert _code(exc) == "previous_incomplete"
    play.session_end(session=sessions[1], by=manager)
    assert services.round_draw(tournament=t, seed=3, by=manager).number == 2


def test_a_session_lacking_an_entrant_s_seat_is_refused(room, manager):
    t, people = _mahjong(room, manager, count=4)
    r = services.round_set(tournament=t, tables=[people], by=manager)
    session = TableSessionFactory(room=room, ruleset=t.ruleset)  # four guests
    with pytest.raises(ValidationError) as exc:
        services.round_table_link(table=r.tables.get(), session=session, by=manager)
    assert _code(exc) == "entrant_seat_missing"
    assert r.tables.get().session is None


def test_a_session_of_another_ruleset_is_refused(room, manager):
    t, people = _mahjong(room, manager, count=4)
    r = services.round_set(tournament=t, tables=[people], by=manager)
    session = TableSessionFactory(room=room, ruleset=shipped("jiangsu-worksite"))
    with pytest.raises(ValidationError) as exc:
        services.round_table_link(table=r.tables.get(), session=session, by=manager)
    assert _code(exc) == "ruleset"


def test_a_session_seating_the_entrants_is_linked(room, manager):
    t, people = _mahjong(room, manager, count=4)
    r = services.round_set(tournament=t, tables=[people], by=manager)
    session = TableSessionFactory(room=room, ruleset=t.ruleset, seats=False)
    from clubapp.play.models import Seat

    for wind, e in zip("ESWN", people, strict=True):
        Seat.objects.create(
            room=room, session=session, wind=wind, name=e.member.name, user=e.member.user
        )
    table = services.round_table_link(table=r.tables.get(), session=session, by=manager)
    assert table.session == session


# --------------------------------------------------------------------- closing


def test_closing_freezes_the_standings_and_then_nothing_changes(room, manager):
    t = tournament(room, manager)
    people = entered(room, manager, t, 4)
    r = services.round_pair(tournament=t, by=manager)
    _finish(t, manager, r)
    live = selectors.standings_live(tournament=t)
    rows = services.tournament_close(tournament=t, by=manager)
    assert [(f.rank, f.entrant_id, f.points) for f in rows] == [
        (line.rank, line.entrant.pk, line.points) for line in live
    ]
    assert FinalStanding.objects.filter(tournament=t).count() == 4
    t.refresh_from_db()
    assert t.is_closed and t.closed_by == manager
    assert [row.entrant for row in selectors.tournament_standings(tournament=t)] == [
        line.entrant for line in live
    ]
    for call in (
        lambda: services.round_pair(tournament=t, by=manager),
        lambda: services.result_record(
            tournament=t, pairing=r.pairings.first(), first_score=0, second_score=1, by=manager
        ),
        lambda: services.entrant_add(
            tournament=t, member=card_member(room, manager, 9), by=manager
        ),
        lambda: services.tournament_close(tournament=t, by=manager),
    ):
        with pytest.raises(ValidationError) as exc:
            call()
        assert _code(exc) == "closed"
    assert Result.objects.count() == 2 and Entrant.objects.count() == len(people)


def test_a_tournament_closes_only_when_its_last_round_is_complete(room, manager):
    t = tournament(room, manager)
    entered(room, manager, t, 2)
    with pytest.raises(ValidationError) as exc:
        services.tournament_close(tournament=t, by=manager)
    assert _code(exc) == "no_rounds"
    services.round_pair(tournament=t, by=manager)
    with pytest.raises(ValidationError) as exc:
        services.tournament_close(tournament=t, by=manager)
    assert _code(exc) == "previous_incomplete"
    assert not FinalStanding.objects.exists()
    assert Pairing.objects.count() == 1


def test_a_closed_mahjong_tournament_keeps_its_placings(room, manager):
    t, people = _mahjong(room, manager, count=4)
    r = services.round_set(tournament=t, tables=[people], by=manager)
    (session,) = _play_round(t, manager, r, boards(room, 1), [discard_win("S", "E")])
    play.session_end(session=session, by=manager)
    rows = services.tournament_close(tournament=t, by=manager)
    assert rows[0].entrant == people[1] and rows[0].tie_break == "4"
    # E paid; W and N, level on 0, share second and third: (2 + 1) / 2
    assert [row.tie_break for row in rows[1:]] == ["1.50", "1.50", "0"]


def test_session_totals_sum_each_seat_s_ledger_voids_included(room, manager):
    from clubapp.play.selectors import session_totals

    session = TableSessionFactory(room=room)
    quiet = TableSessionFactory(room=room)
    hand = book(session, discard_win("S", "E"), by=manager)
    book(session, discard_win("W", "N"), by=manager)
    totals = session_totals([session, quiet])
    assert totals[quiet.pk] == {"E": 0, "S": 0, "W": 0, "N": 0}
    assert sum(totals[session.pk].values()) == 0
    assert totals[session.pk]["S"] > 0 and totals[session.pk]["W"] > 0
    play.hand_void(hand=hand, reason="记错了", by=manager)
    after = session_totals([session])[session.pk]
    assert after["S"] == 0 and after["W"] > 0 and sum(after.values()) == 0


def test_a_closed_mahjong_tournament_takes_no_round_and_no_table(room, manager):
    t, people = _mahjong(room, manager, count=4)
    r = services.round_set(tournament=t, tables=[people], by=manager)
    (session,) = _play_round(t, manager, r, boards(room, 1), [discard_win("S", "E")])
    play.session_end(session=session, by=manager)
    services.tournament_close(tournament=t, by=manager)
    for call in (
        lambda: services.round_draw(tournament=t, seed=1, by=manager),
        lambda: services.round_set(tournament=t, tables=[people], by=manager),
        lambda: services.round_table_link(table=r.tables.get(), session=session, by=manager),
    ):
        with pytest.raises(ValidationError) as exc:
            call()
        assert _code(exc) == "closed"
    assert t.rounds.count() == 1
