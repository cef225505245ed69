from __future__ import annotations

import datetime as dt
from decimal import Decimal

import pytest
from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction

from clubapp.books.models import IncomeCategory, IncomeEntry
from clubapp.members.models import Receipt, ReceiptKind, Visit
from clubapp.members.selectors import tables_free_count
from clubapp.members.services import (
    card_issue,
    card_reissue,
    card_revoke,
    card_suspend,
    guest_hours,
    table_set_occupied,
    visit_check_in,
    visit_check_out,
)
from clubapp.members.tests.factories import MemberFactory, at

pytestmark = pytest.mark.django_db


@pytest.fixture
def card(room, manager):
    return card_issue(member=MemberFactory(room=room, name="赵会员"), by=manager, now=at(30, 9))


def _counts():
    return (Visit.objects.count(), Receipt.objects.count(), IncomeEntry.objects.count())


def test_a_member_checks_in_with_an_active_card_and_out_for_free(room, manager, card):
    before = _counts()
    visit = visit_check_in(room=room, card=card, by=manager, now=at(30, 10))
    assert visit.member == card.member and visit.is_open
    visit = visit_check_out(visit=visit, by=manager, now=at(30, 11, 30))
    assert visit.fee == Decimal("0.00") and not visit.is_open
    assert _counts() == (before[0] + 1, before[1], before[2])  # no receipt, no income


@pytest.mark.parametrize("how", ["expired", "suspended", "revoked", "void"])
def test_a_card_that_is_not_active_cannot_check_in(room, manager, card, how):
    if how == "expired":
        now = at(30, 10) + dt.timedelta(days=7 * 53)  # a Monday a year later
    else:
        now = at(30, 10)
        if how == "suspended":
            card_suspend(card=card, reason="x", by=manager)
        elif how == "revoked":
            card_revoke(card=card, reason="赌博", by=manager)
        else:
            card_reissue(card=card, by=manager)
    before = _counts()
    with pytest.raises(ValidationError, match="不能入场"):
        visit_check_in(room=room, card=card, by=manager, now=now)
    assert _counts() == before


def test_a_member_already_inside_cannot_check_in_again(room, manager, card):
    visit_check_in(room=room, card=card, by=manager, now=at(30, 10))
    with pytest.raises(ValidationError, match="已在场内"):
        visit_check_in(room=room, card=card, by=manager, now=at(30, 10, 5))
    assert Visit.objects.count() == 1


def test_the_database_refuses_two_open_visits_of_one_member(room, manager, card):
    visit_check_in(room=room, card=card, by=manager, now=at(30, 10))
    with pytest.raises(IntegrityError), transaction.atomic():
        Visit.objects.bulk_create(
            [
                Visit(
                    room=room,
                    member=card.member,
                    card=card,
                    checked_in_at=at(30, 10),
                    checked_in_by=manager,
                )
            ]
        )


def test_the_database_refuses_a_visit_that_ends_before_it_starts(room, manager, tables):
    visit = visit_check_in(room=room, guest_name="散客", by=manager, now=at(30, 10))
    with pytest.raises(IntegrityError), transaction.atomic():
        Visit.objects.filter(pk=visit.pk).update(checked_out_at=at(30, 9))


def test_the_database_refuses_a_negative_fee(room, manager, tables):
    visit = visit_check_in(room=room, guest_name="散客", by=manager, now=at(30, 10))
    with pytest.raises(IntegrityError), transaction.atomic():
        Visit.objects.filter(pk=visit.pk).update(fee=Decimal("-1.00"))


@pytest.mark.parametrize(
    ("minutes", "hours"),
    [(0, 1), (1, 1), (59, 1), (60, 1), (61, 2), (120, 2), (121, 3), (7 * 60 + 1, 8)],
)
def test_non_members_pay_per_started_hour(minutes, hours):
    start = at(30, 10)
    assert guest_hours(start, start + dt.timedelta(minutes=minutes)) == hours


def test_a_non_member_pays_at_check_out_with_a_receipt_and_an_income_entry(room, manager, tables):
    visit = visit_check_in(room=room, guest_name="过路客", by=manager, now=at(30, 9, 10))
    visit = visit_check_out(visit=visit, by=manager, now=at(30, 11, 20))
    assert visit.hours_billed == 3 and visit.fee == Decimal("6.00")
    receipt = Receipt.objects.get()
    assert (receipt.kind, receipt.amount, receipt.visit, receipt.payer) == (
        ReceiptKind.GUEST,
        Decimal("6.00"),
        visit,
        "过路客",
    )
    entry = IncomeEntry.objects.get()
    assert (entry.reference, entry.amount, entry.category) == (
        receipt.number,
        Decimal("6.00"),
        IncomeCategory.GUEST_FEE,
    )


def test_the_hourly_fee_is_a_room_setting(room, manager, tables):
    room.guest_hourly_fee = Decimal("2.50")
    room.save()
    visit = visit_check_in(room=room, guest_name="过路客", by=manager, now=at(30, 10))
    assert visit_check_out(visit=visit, by=manager, now=at(30, 11, 1)).fee == Decimal("5.00")


def test_a_visit_cannot_be_checked_out_twice(room, manager, tables):
    visit = visit_check_in(room=room, guest_name="过路客", by=manager, now=at(30, 10))
    visit_check_out(visit=visit, by=manager, now=at(30, 11))
    before = _counts()
    with pytest.raises(ValidationError, match="已经离场"):
        visit_check_out(visit=visit, by=manager, now=at(30, 12))
    assert _counts() == before
    visit.refresh_from_db()
    assert visit.fee == Decimal("2.00")


def test_a_non_member_is_refused_when_no_table_is_free(room, manager, tables):
    for table in tables:
        table_set_occupied(table=table, occupied=True)
    assert tables_free_count(room=room) == 0
    with pytest.raises(ValidationError, match="没有空闲的牌桌"):
        visit_check_in(room=room, guest_name="过路客", by=manager, now=at(30, 10))
    assert Visit.objects.count() == 0
    table_set_occupied(table=tables[0], occupied=False)
    assert visit_check_in(room=room, guest_name="过路客", by=manager, now=at(30, 10)).is_guest


def test_a_non_member_is_refused_when_the_room_has_no_tables(room, manager):
    with pytest.raises(ValidationError, match="没有空闲的牌桌"):
        visit_check_in(room=room, guest_name="过路客", by=manager, now=at(30, 10))


def test_members_do_not_need_a_free_table(room, manager, card):
    assert tables_free_count(room=room) == 0
    assert visit_check_in(room=room, card=card, by=manager, now=at(30, 10))


def test_a_non_member_needs_a_name(room, manager, tables):
    with pytest.raises(ValidationError):
        visit_check_in(room=room, guest_name=" ", by=manager, now=at(30, 10))
    assert Visit.objects.count() == 0


@pytest.mark.parametrize(
    "moment",
    [at(25, 10), at(30, 8, 59), at(30, 12, 30), at(30, 18, 0), at(30, 20)],
    ids=["wednesday", "before-9", "lunch", "at-18", "evening"],
)
def test_check_in_outside_opening_hours_is_refused(room, manager, card, tables, moment):
    with pytest.raises(ValidationError, match="开放时间"):
        visit_check_in(room=room, card=card, by=manager, now=moment)
    with pytest.raises(ValidationError, match="开放时间"):
        visit_check_in(room=room, guest_name="过路客", by=manager, now=moment)
    assert Visit.objects.count() == 0


def test_check_out_is_allowed_after_closing_and_dated_at_the_closing_time(room, manager, card):
    visit = visit_check_in(room=room, card=card, by=manager, now=at(30, 17))
    visit = visit_check_out(visit=visit, by=manager, now=at(30, 19))
    assert visit.checked_out_at == at(30, 18)  # unless the desk gives another time
    assert visit.checked_out_recorded_at == at(30, 19)


@pytest.mark.django_db(transaction=True)
def test_two_desks_checking_in_one_card_at_once_make_one_visit(room, manager):
    import threading

    from django.db import connection

    if connection.vendor != "postgresql":
        pytest.skip("SQLite serialises all writes: the race needs PostgreSQL")
    card = card_issue(member=MemberFactory(room=room), by=manager, now=at(30, 9))
    barrier = threading.Barrier(4)
    outcomes: list[str] = []

    def desk() -> None:
        try:
            barrier.wait()
            visit_check_in(room=room, card=card, by=manager, now=at(30, 10))
            outcomes.append("in")
        except ValidationError:
            outcomes.append("refused")
        finally:
            connection.close()

    threads = [threading.Thread(target=desk) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert sorted(outcomes) == ["in", "refused", "refused", "refused"]
    assert Visit.objects.count() == 1
