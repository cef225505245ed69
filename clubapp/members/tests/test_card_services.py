from __future__ import annotations

import datetime as dt
from decimal import Decimal

import pytest
from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction

from clubapp.books.models import IncomeCategory, IncomeEntry
from clubapp.members.models import Card, CardState, CardStatus, Receipt, ReceiptKind
from clubapp.members.services import (
    card_issue,
    card_reissue,
    card_renew,
    card_resume,
    card_revoke,
    card_suspend,
)
from clubapp.members.tests.factories import MemberFactory, at

pytestmark = pytest.mark.django_db


@pytest.fixture
def person(room):
    return MemberFactory(room=room, name="孙阿姨")


def test_it_issues_a_card_numbered_per_year_valid_one_year(person, manager):
    card = card_issue(member=person, by=manager, now=at(30, 10))
    assert card.number == "2026-0001"
    assert card.issued_on == dt.date(2026, 11, 30)
    assert card.valid_until == dt.date(2027, 11, 29)
    assert card.state_on(dt.date(2027, 11, 29)) == CardState.ACTIVE
    assert card.state_on(dt.date(2027, 11, 30)) == CardState.EXPIRED
    other = card_issue(member=MemberFactory(room=person.room), by=manager, now=at(30, 11))
    assert other.number == "2026-0002"
    next_year = card_issue(
        member=MemberFactory(room=person.room),
        by=manager,
        now=at(2, 10, month=1) + dt.timedelta(days=365),
    )
    assert next_year.number == "2027-0001"


def test_issuing_a_card_takes_the_card_fee_with_a_receipt_and_an_income_entry(person, manager):
    card = card_issue(member=person, by=manager, now=at(30, 10))
    receipt = Receipt.objects.get()
    assert (receipt.number, receipt.kind, receipt.amount) == (
        "R2026-00001",
        ReceiptKind.CARD,
        Decimal("50.00"),
    )
    assert receipt.card == card and receipt.member == person
    entry = IncomeEntry.objects.get()
    assert (entry.reference, entry.amount, entry.category) == (
        "R2026-00001",
        Decimal("50.00"),
        IncomeCategory.CARD_FEE,
    )


def test_the_card_fee_is_a_room_setting(person, manager):
    person.room.card_fee = Decimal("30.00")
    person.room.save()
    card_issue(member=person, by=manager)
    assert IncomeEntry.objects.get().amount == Decimal("30.00")


def test_one_person_one_card(person, manager):
    card_issue(member=person, by=manager)
    with pytest.raises(ValidationError, match="已有会员证"):
        card_issue(member=person, by=manager)
    assert Card.objects.count() == 1 and Receipt.objects.count() == 1


def test_the_database_allows_one_live_card_per_member(person):
    Card.objects.create(
        room=person.room,
        member=person,
        number="A",
        issued_on=dt.date(2026, 1, 1),
        valid_until=dt.date(2026, 12, 31),
    )
    with pytest.raises(IntegrityError), transaction.atomic():
        Card.objects.create(
            room=person.room,
            member=person,
            number="B",
            issued_on=dt.date(2026, 1, 1),
            valid_until=dt.date(2026, 12, 31),
        )


def test_renewal_adds_a_year_to_the_end_of_an_active_card_free_by_default(person, manager):
    card = card_issue(member=person, by=manager, now=at(30, 10))
    card = card_renew(card=card, by=manager, now=at(30, 11), early=True)
    assert card.valid_until == dt.date(2028, 11, 29)
    assert Receipt.objects.count() == 1  # the default 年审 fee is 0: nothing paid, no receipt
    assert IncomeEntry.objects.count() == 1


def test_renewal_of_an_expired_card_runs_a_year_from_today(person, manager):
    card = card_issue(member=person, by=manager, now=at(30, 10) - dt.timedelta(days=500))
    assert card.state_on(dt.date(2026, 11, 30)) == CardState.EXPIRED
    card = card_renew(card=card, by=manager, now=at(30, 10))
    assert card.valid_until == dt.date(2027, 11, 29)
    assert card.state_on(dt.date(2026, 11, 30)) == CardState.ACTIVE


def test_a_renewal_fee_gets_a_receipt_and_an_income_entry(person, manager):
    person.room.renewal_fee = Decimal("10.00")
    person.room.save()
    card = card_issue(member=person, by=manager)
    card_renew(card=card, by=manager, early=True)
    renewal = Receipt.objects.get(kind=ReceiptKind.RENEWAL)
    assert renewal.amount == Decimal("10.00")
    assert IncomeEntry.objects.get(reference=renewal.number).category == IncomeCategory.RENEWAL_FEE


def test_revoking_needs_a_reason(person, manager):
    card = card_issue(member=person, by=manager)
    with pytest.raises(ValidationError, match="原因"):
        card_revoke(card=card, reason=" ", by=manager)
    card.refresh_from_db()
    assert card.status == CardStatus.ACTIVE


def test_the_database_refuses_a_revoked_card_without_reason(person):
    with pytest.raises(IntegrityError), transaction.atomic():
        Card.objects.create(
            room=person.room,
            member=person,
            number="C",
            status=CardStatus.REVOKED,
            issued_on=dt.date(2026, 1, 1),
            valid_until=dt.date(2026, 12, 31),
        )


def test_revoking_is_final(person, manager):
    card = card_issue(member=person, by=manager)
    card = card_revoke(card=card, reason="赌博", by=manager)
    assert card.state == CardState.REVOKED and card.status_reason == "赌博"
    before = (Card.objects.count(), Receipt.objects.count(), IncomeEntry.objects.count())
    with pytest.raises(ValidationError, match="不能年审"):
        card_renew(card=card, by=manager)
    with pytest.raises(ValidationError, match="不能补办"):
        card_reissue(card=card, by=manager)
    with pytest.raises(ValidationError, match="不能再办理"):
        card_issue(member=person, by=manager)
    with pytest.raises(ValidationError):
        card_revoke(card=card, reason="again", by=manager)
    with pytest.raises(ValidationError):
        card_resume(card=card, by=manager)
    assert (Card.objects.count(), Receipt.objects.count(), IncomeEntry.objects.count()) == before
    card.refresh_from_db()
    assert card.status == CardStatus.REVOKED


def test_a_lost_card_is_reissued_under_a_new_number_and_the_old_one_voided(person, manager):
    old = card_issue(member=person, by=manager, now=at(30, 10))
    new = card_reissue(card=old, by=manager, now=at(30, 11))
    old.refresh_from_db()
    assert old.state == CardState.VOID
    assert new.number == "2026-0002" and new.replaces == old
    assert new.valid_until == old.valid_until
    assert new.state_on(dt.date(2026, 11, 30)) == CardState.ACTIVE
    receipt = Receipt.objects.get(kind=ReceiptKind.REISSUE)
    assert receipt.card == new and receipt.amount == Decimal("50.00")
    with pytest.raises(ValidationError, match="作废"):
        card_reissue(card=old, by=manager)
    with pytest.raises(ValidationError, match="作废"):
        card_renew(card=old, by=manager)


def test_a_card_can_be_suspended_and_resumed(person, manager):
    card = card_issue(member=person, by=manager)
    card = card_suspend(card=card, reason="损坏器材", by=manager)
    assert card.state == CardState.SUSPENDED
    with pytest.raises(ValidationError, match="暂停"):
        card_renew(card=card, by=manager)
    card = card_resume(card=card, by=manager)
    assert card.state == CardState.ACTIVE and card.status_reason == ""
    with pytest.raises(ValidationError):
        card_resume(card=card, by=manager)


def test_a_receipt_is_never_changed_or_deleted(person, manager):
    from clubapp.core.appendonly import AppendOnlyError

    card_issue(member=person, by=manager)
    receipt = Receipt.objects.get()
    receipt.amount = Decimal("1.00")
    with pytest.raises(AppendOnlyError):
        receipt.save()
    with pytest.raises(AppendOnlyError):
        receipt.delete()
    with pytest.raises(AppendOnlyError):
        Receipt.objects.update(amount=Decimal("1.00"))
    with pytest.raises(AppendOnlyError):
        Receipt.objects.all().delete()
    assert Receipt.objects.get().amount == Decimal("50.00")


def test_a_card_not_near_its_end_is_refused_unless_confirmed_early(person, manager):
    card = card_issue(member=person, by=manager, now=at(30, 10))
    with pytest.raises(ValidationError) as info:
        card_renew(card=card, by=manager, now=at(30, 11))  # 364 days left
    assert info.value.code == "renew_early"
    card.refresh_from_db()
    assert card.valid_until == dt.date(2027, 11, 29)
    # Within the room's window (default 30 days) it needs no confirmation.
    near = at(30, 11) + dt.timedelta(days=340)
    assert card_renew(card=card, by=manager, now=near).valid_until == dt.date(2028, 11, 29)


def test_the_renewal_window_is_a_room_setting(person, manager):
    person.room.renewal_window_days = 400
    person.room.save()
    card = card_issue(member=person, by=manager, now=at(30, 10))
    assert card_renew(card=card, by=manager, now=at(30, 11)).valid_until.year == 2028
