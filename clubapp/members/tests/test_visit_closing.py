"""At closing: open visits past their period's closing time, the fee cap, 补记离场."""

from __future__ import annotations

import datetime as dt
from decimal import Decimal

import pytest
from django.core.exceptions import ValidationError

from clubapp.members.models import ExceptionKind, Receipt, Visit
from clubapp.members.selectors import (
    visit_closing_at,
    visit_fee_so_far,
    visits_open_past_closing,
    visits_present,
)
from clubapp.members.services import (
    card_issue,
    opening_exception_create,
    visit_check_in,
    visit_check_out,
)
from clubapp.members.tests.factories import MemberFactory, at

pytestmark = pytest.mark.django_db


@pytest.fixture
def card(room, manager):
    return card_issue(member=MemberFactory(room=room, name="赵会员"), by=manager, now=at(30, 9))


def _guest(room, manager, when, name="过路客"):
    return visit_check_in(room=room, guest_name=name, by=manager, now=when)


@pytest.mark.parametrize(
    ("checked_in", "closes"),
    [(at(30, 9), at(30, 12)), (at(30, 11, 59), at(30, 12)), (at(30, 13), at(30, 18))],
    ids=["morning", "last-minute", "afternoon"],
)
def test_a_visit_closes_with_the_period_it_began_in(room, manager, tables, checked_in, closes):
    assert visit_closing_at(visit=_guest(room, manager, checked_in)) == closes


def test_an_evening_opening_closes_at_its_own_end(room, manager, tables):
    opening_exception_create(
        room=room, date=dt.date(2026, 11, 30), kind=ExceptionKind.OPEN, opens=dt.time(19),
        closes=dt.time(22), note="夜场",
    )  # fmt: skip
    assert visit_closing_at(visit=_guest(room, manager, at(30, 19, 30))) == at(30, 22)


def test_present_people_are_todays_open_visits_before_closing(room, manager, card, tables):
    yesterday = _guest(room, manager, at(29, 17), name="昨天的客人")
    today = visit_check_in(room=room, card=card, by=manager, now=at(30, 13, 35))
    present = visits_present(room=room, now=at(30, 15))
    assert [row.visit for row in present] == [today]
    assert present[0].minutes == 85
    assert [row.visit for row in visits_open_past_closing(room=room, now=at(30, 15))] == [yesterday]


def test_at_closing_the_open_visits_move_to_the_after_closing_list(room, manager, card, tables):
    visit = visit_check_in(room=room, card=card, by=manager, now=at(30, 16))
    assert [r.visit for r in visits_present(room=room, now=at(30, 17, 59))] == [visit]
    assert visits_open_past_closing(room=room, now=at(30, 17, 59)) == []
    assert visits_present(room=room, now=at(30, 18)) == []
    (row,) = visits_open_past_closing(room=room, now=at(30, 18))
    assert row.visit == visit and row.closing_at == at(30, 18)


def test_the_fee_so_far_stops_growing_at_closing(room, manager, tables):
    guest = _guest(room, manager, at(30, 16, 30))
    assert visit_fee_so_far(visit=guest, now=at(30, 17, 45)) == (2, Decimal("4.00"))
    # the next morning, a day later: still the 2 hours up to 18:00, not 17
    assert visit_fee_so_far(visit=guest, now=at(1, 9, 30, month=12)) == (2, Decimal("4.00"))
    (row,) = visits_open_past_closing(room=room, now=at(1, 9, 30, month=12))
    assert row.fee_so_far == Decimal("4.00") and row.minutes == 90


def test_checking_out_after_closing_bills_up_to_the_closing_time(room, manager, tables):
    guest = _guest(room, manager, at(30, 16, 30))
    visit = visit_check_out(visit=guest, by=manager, now=at(1, 9, 5, month=12))
    assert (visit.checked_out_at, visit.hours_billed, visit.fee) == (
        at(30, 18),
        2,
        Decimal("4.00"),
    )
    assert visit.checked_out_recorded_at == at(1, 9, 5, month=12)
    receipt = Receipt.objects.get(visit=visit)
    assert receipt.amount == Decimal("4.00") and receipt.paid_at == at(1, 9, 5, month=12)


def test_the_desk_may_say_the_guest_left_later_and_the_fee_follows(room, manager, tables):
    guest = _guest(room, manager, at(30, 16, 30))
    visit = visit_check_out(
        visit=guest,
        by=manager,
        now=at(30, 19),
        left_at=at(30, 18, 40),
        expected_fee=Decimal("6.00"),
    )
    assert (visit.checked_out_at, visit.hours_billed, visit.fee) == (
        at(30, 18, 40),
        3,
        Decimal("6.00"),
    )


def test_a_fee_shown_for_another_time_books_nothing(room, manager, tables):
    guest = _guest(room, manager, at(30, 16, 30))
    with pytest.raises(ValidationError, match="6.00"):
        visit_check_out(
            visit=guest,
            by=manager,
            now=at(30, 19),
            left_at=at(30, 18, 40),
            expected_fee=Decimal("4.00"),
        )
    guest.refresh_from_db()
    assert guest.is_open and not Receipt.objects.exists()


@pytest.mark.parametrize(
    ("left_at", "message"),
    [(at(30, 16), "入场"), (at(30, 19, 30), "晚于现在")],
    ids=["before-check-in", "future"],
)
def test_a_time_of_leaving_outside_the_stay_is_refused(room, manager, tables, left_at, message):
    guest = _guest(room, manager, at(30, 16, 30))
    with pytest.raises(ValidationError, match=message):
        visit_check_out(visit=guest, by=manager, now=at(30, 19), left_at=left_at)
    assert Visit.objects.get().is_open


def test_a_check_out_as_it_happens_records_no_later_time(room, manager, tables):
    visit = visit_check_out(visit=_guest(room, manager, at(30, 14)), by=manager, now=at(30, 15))
    assert visit.checked_out_at == at(30, 15) and visit.checked_out_recorded_at is None
