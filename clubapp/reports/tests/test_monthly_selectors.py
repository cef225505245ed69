"""The monthly report's numbers, against the books they come from."""

from __future__ import annotations

from decimal import Decimal

import pytest
from django.db import connection
from django.db.models import Sum
from django.test.utils import CaptureQueriesContext

from clubapp.books.models import IncomeEntry
from clubapp.core.tests.factories import UserFactory
from clubapp.members.models import Table
from clubapp.members.tests.factories import at
from clubapp.play import selectors as play_selectors
from clubapp.play import services as play
from clubapp.play.tests.factories import book, shipped
from clubapp.reports.selectors import Month, monthly_report

NOV = Month(2026, 11)


def test_it_ties_the_income_to_the_cash_book_to_the_fen(november):
    report = monthly_report(room=november.room, month=NOV)
    books = IncomeEntry.objects.filter(
        received_at__gte=NOV.start, received_at__lt=NOV.end
    ).aggregate(t=Sum("amount"))["t"]
    # three cards 50.00, a 年审 10.00, two non-members 4.00 + 2.00
    assert books == Decimal("166.00")
    assert report.income.total == books
    assert sum(total for _day, _amounts, total in report.income.by_day) == books
    assert report.income.ties_out


def test_it_counts_members_and_card_fees(november):
    m = monthly_report(room=november.room, month=NOV).members
    assert m.new_members == 3  # 李昇 registered in October
    assert m.cards_issued == 3
    assert m.renewals == 1  # 王堃's 年审, 10.00 元
    assert m.suspended == 1  # 李昇's card, on the 23rd
    assert m.active_at_end == 3  # 李昇's is suspended
    fees = {label: (n, amount) for label, n, amount in m.fees}
    assert fees["会员证工本费"] == (3, Decimal("150.00"))
    assert fees["年审费"] == (1, Decimal("10.00"))
    assert m.fees_total == Decimal("160.00")


def test_it_counts_visits_hours_and_the_equipment_fees(november):
    report = monthly_report(room=november.room, month=NOV)
    v = report.visits
    assert (v.member_visits, v.members_distinct, v.guest_visits) == (1, 1, 2)
    assert v.member_hours == 2.1  # 09:40-11:45
    assert v.guest_hours_billed == 3 and v.guest_fees == Decimal("6.00")
    fund = report.equipment_fund
    assert fund.collected_month == v.guest_fees
    assert fund.spent_month == Decimal("0.00")  # no expense booked in this November
    assert fund.balance == fund.collected_to_date == Decimal("6.00")
    # Monday 2 November: 陈喆 09:40-11:45 and a guest 10:00-11:30 in the 10 o'clock hour,
    # over the 5 Mondays of the month
    monday_ten = v.busiest[0][v.hours.index(10)]
    assert monday_ten == round((1 + 1) / 5, 1)
    assert v.peak[:2] == ("周一", 10)


def test_it_counts_hands_per_ruleset_big_hands_and_members_points(november):
    p = monthly_report(room=november.room, month=NOV).play
    assert p.sessions == 1
    assert p.hands == 3 and p.voided == 1  # four booked, one voided (its reversal not counted)
    assert p.by_ruleset == [("南京麻将", 1, 3)]
    assert [(b.winner, b.features, b.value) for b in p.big_hands] == [("西 李昇", ["清一色"], 88)]
    points = {name: total for name, _card, _n, total in p.member_points}
    assert points == {"陈喆": 300, "王堃": -100, "李昇": -12}
    assert p.guest_points == -188 and p.guest_seats == 1
    assert p.points_balance == 0


def test_it_leaves_other_months_out(november):
    october = monthly_report(room=november.room, month=Month(2026, 10))
    assert october.income.total == Decimal("50.00")  # 李昇's card
    assert october.play.sessions == 0
    december = monthly_report(room=november.room, month=Month(2026, 12))
    assert december.income.total == Decimal("2.00")
    assert december.equipment_fund.collected_to_date == Decimal("8.00")


def test_it_reads_months():
    assert Month.parse("2026-11") == NOV
    assert NOV.previous == Month(2026, 10) and NOV.next == Month(2026, 12)
    assert Month(2026, 1).previous == Month(2025, 12)
    assert Month(2026, 12).next == Month(2027, 1)
    assert NOV.last_day.day == 30 and len(NOV.days()) == 30
    for bad in ("2026-13", "11/2026", "", "2026-00"):
        with pytest.raises(ValueError):
            Month.parse(bad)


def test_it_lists_the_big_hands_the_play_history_counts(november, clock):
    """Big hands are scoring's (``features.is_big_hand``) on every family: on 工地 any
    pattern but 门前清 (other flowers are a counted item, not a pattern), so the
    report lists what a member's history counts."""
    player = UserFactory(username="worksite")
    session = _worksite_table(november, clock, 2, player, 9)
    for soft, features in ((0, ["menqianqing"]), (2, []), (0, ["yitiaolong"])):
        win = {"seat": "S", "discarder": "E", "hard_flowers": 4, "soft_flowers": soft}
        book(session, {"wins": [{**win, "features": features}]})
    p = monthly_report(room=november.room, month=NOV).play
    listed = [(b.number, b.features) for b in p.big_hands if b.session_id == session.pk]
    assert listed == [(3, ["一条龙"])]
    assert play_selectors.member_stats(room=november.room, user=player).big_hands == len(listed)


def _worksite_table(november, clock, number: int, player, day: int):
    clock.set(at(day, 14, 0))
    return play.session_create(
        room=november.room,
        table=Table.objects.get_or_create(room=november.room, number=number)[0],
        ruleset=shipped("jiangsu-worksite"),
        seats=[
            play.SeatIn(wind="E", name="甲"),
            play.SeatIn(wind="S", user=player),
            play.SeatIn(wind="W", name="丙"),
            play.SeatIn(wind="N", name="丁"),
        ],
        by=None,
        started_at=at(day, 14, 0),
    )


def test_it_reads_a_month_in_the_same_queries_however_many_tables(november, clock):
    """The other apps' selectors read a month's sessions, seats and members in a few
    queries each, never one per table, seat or member."""

    def queries() -> int:
        with CaptureQueriesContext(connection) as captured:
            monthly_report(room=november.room, month=NOV)
        return len(captured)

    before = queries()
    for n in range(3):
        session = _worksite_table(november, clock, 3 + n, UserFactory(username=f"w{n}"), 10 + n)
        book(session, {"wins": [{"seat": "S", "discarder": "E", "hard_flowers": 4,
                                 "soft_flowers": 2, "features": []}]})  # fmt: skip
    assert queries() == before
