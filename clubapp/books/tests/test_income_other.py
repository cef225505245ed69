"""income_other_record: other income (tournament fees, donations) with its own receipt."""

from __future__ import annotations

import uuid
from decimal import Decimal

import pytest
from django.core.exceptions import PermissionDenied, ValidationError

from clubapp.books import services
from clubapp.books.models import IncomeCategory, IncomeEntry
from clubapp.books.tests.factories import at, day, fee, other_income
from clubapp.members.services import card_issue
from clubapp.members.tests.factories import MemberFactory

pytestmark = pytest.mark.django_db


def test_it_books_the_entry_with_a_receipt_of_the_rooms_one_receipt_book(room, manager):
    card_issue(member=MemberFactory(room=room), by=manager, now=at(2))  # R2026-00001
    entry = other_income(room, manager, "120.00", received_at=at(3, 9), now=at(3, 10))
    assert entry.reference == "R2026-00002"
    assert (entry.category, entry.amount, entry.payer) == (
        IncomeCategory.TOURNAMENT,
        Decimal("120.00"),
        "象棋协会",
    )
    assert (entry.received_at, entry.book_date, entry.recorded_by) == (at(3, 9), day(3), manager)
    assert entry.description == "象棋比赛报名费 12人"


@pytest.mark.parametrize("category", [IncomeCategory.DONATION, IncomeCategory.OTHER])
def test_it_takes_donations_and_other_income(room, manager, category):
    assert other_income(room, manager, category=category).category == category


@pytest.mark.parametrize(
    "category", [IncomeCategory.CARD_FEE, IncomeCategory.RENEWAL_FEE, IncomeCategory.GUEST_FEE]
)
def test_the_desks_fees_are_not_recorded_here(room, manager, category):
    with pytest.raises(ValidationError, match="前台"):
        other_income(room, manager, category=category)
    assert IncomeEntry.objects.count() == 0


@pytest.mark.parametrize(("field", "message"), [("payer", "交款人"), ("description", "事由")])
def test_it_needs_who_paid_and_what_for(room, manager, field, message):
    with pytest.raises(ValidationError, match=message):
        other_income(room, manager, **{field: "  "})
    assert IncomeEntry.objects.count() == 0


def test_money_is_not_received_in_the_future(room, manager):
    with pytest.raises(ValidationError, match="不能晚于现在"):
        other_income(room, manager, received_at=at(3, 11), now=at(3, 10))


@pytest.mark.parametrize(
    ("amount", "message"),
    [("0", "大于零"), ("-5", "大于零"), ("12.345", "两位小数")],
)
def test_bad_amounts_are_refused(room, manager, amount, message):
    with pytest.raises(ValidationError, match=message):
        other_income(room, manager, amount)
    assert IncomeEntry.objects.count() == 0


def test_an_entry_on_a_closed_day_needs_the_late_entry_box(room, manager, accountant):
    fee(room, manager, when=at(2))
    services.day_close(room=room, day=day(2), by=accountant, now=at(3, 9))
    with pytest.raises(ValidationError, match="2026-11-02 已结账.*2026-11-03"):
        other_income(room, manager, received_at=at(2, 15), now=at(4))
    assert IncomeEntry.objects.count() == 1


def test_with_the_box_it_is_booked_on_the_next_open_day_marked_late(room, manager, accountant):
    fee(room, manager, when=at(2))
    services.day_close(room=room, day=day(2), by=accountant, now=at(3, 9))
    entry = other_income(room, manager, received_at=at(2, 15), now=at(4), late=True)
    assert (entry.book_date, entry.late_for, entry.belongs_to) == (day(3), day(2), day(2))


def test_the_box_changes_nothing_on_an_open_day(room, manager):
    entry = other_income(room, manager, received_at=at(3), late=True)
    assert (entry.book_date, entry.late_for) == (day(3), None)


def test_the_same_form_sent_twice_books_once(room, manager):
    key = uuid.uuid4()
    first = other_income(room, manager, request_key=key)
    assert other_income(room, manager, request_key=key) == first
    assert IncomeEntry.objects.count() == 1


@pytest.mark.parametrize("who", ["accountant", "approver", "member", "outsider"])
def test_only_a_manager_records_other_income(room, request, who):
    with pytest.raises(PermissionDenied):
        other_income(room, request.getfixturevalue(who))
    assert IncomeEntry.objects.count() == 0
