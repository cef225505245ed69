"""The desk's forms sent eight times at once book once: every caller gets the first's row.

A guest's check-in (the visit keeps the key), a card issued or reissued (the card
keeps it), a yearly review and a guest's check-out (their receipt keeps it): a
second request with a key already booked returns what the first booked
(``core.requestkeys.book_once``). Races need PostgreSQL; the repeats run on both.
"""

from __future__ import annotations

import uuid
from decimal import Decimal

import pytest
from django.core.exceptions import ValidationError

from clubapp.books.models import IncomeEntry
from clubapp.core.tests.threads import THREADS, postgres_only, race
from clubapp.members import services
from clubapp.members.models import Card, Receipt, Visit
from clubapp.members.tests.factories import CardFactory, MemberFactory, VisitFactory, at

NOW = at(30, 10)


def _guest_in(room, manager, key):
    return services.visit_check_in(
        room=room, guest_name="散客甲", by=manager, now=NOW, request_key=key
    )


@postgres_only
@pytest.mark.django_db(transaction=True)
def test_eight_guest_check_ins_with_one_key_make_one_visit(room, manager, tables):
    key = uuid.uuid4()
    visits = race(lambda: _guest_in(room, manager, key))
    booked = Visit.objects.get(request_key=key)
    assert [v.pk for v in visits] == [booked.pk] * THREADS
    assert Visit.objects.count() == 1


@postgres_only
@pytest.mark.django_db(transaction=True)
def test_eight_card_issues_with_one_key_issue_one_card(room, manager):
    member = MemberFactory(room=room)
    key = uuid.uuid4()
    cards = race(lambda: services.card_issue(member=member, by=manager, now=NOW, request_key=key))
    booked = Card.objects.get(request_key=key)
    assert [c.pk for c in cards] == [booked.pk] * THREADS
    assert (Card.objects.count(), Receipt.objects.count(), IncomeEntry.objects.count()) == (1, 1, 1)
    assert Receipt.objects.get().number == "R2026-00001"


@postgres_only
@pytest.mark.django_db(transaction=True)
def test_eight_reissues_with_one_key_issue_one_new_card(room, manager):
    old = CardFactory(member=MemberFactory(room=room), issued_on=at(1, 10).date())
    key = uuid.uuid4()
    cards = race(lambda: services.card_reissue(card=old, by=manager, now=NOW, request_key=key))
    booked = Card.objects.get(request_key=key)
    assert [c.pk for c in cards] == [booked.pk] * THREADS
    assert (Card.objects.count(), Receipt.objects.count()) == (2, 1)


@postgres_only
@pytest.mark.django_db(transaction=True)
def test_eight_renewals_with_one_key_renew_once(room, manager):
    room.renewal_fee = Decimal("10.00")
    room.save()
    card = CardFactory(member=MemberFactory(room=room), issued_on=at(1, 10, month=1).date())
    before = card.valid_until
    key = uuid.uuid4()
    cards = race(
        lambda: services.card_renew(
            card=card,
            by=manager,
            now=NOW,
            expected_valid_until=before,
            early=True,
            request_key=key,
        )
    )
    assert {c.valid_until for c in cards} == {Card.objects.get(pk=card.pk).valid_until}
    assert Receipt.objects.get(request_key=key).card == card
    assert IncomeEntry.objects.count() == 1


@postgres_only
@pytest.mark.django_db(transaction=True)
def test_eight_guest_check_outs_with_one_key_take_one_fee(room, manager):
    visit = VisitFactory(room=room, checked_in_at=at(30, 9), checked_in_by=manager)
    key = uuid.uuid4()
    visits = race(
        lambda: services.visit_check_out(visit=visit, by=manager, now=NOW, request_key=key)
    )
    receipt = Receipt.objects.get(request_key=key)
    assert [v.pk for v in visits] == [visit.pk] * THREADS
    assert {v.fee for v in visits} == {receipt.amount}
    assert (Receipt.objects.count(), IncomeEntry.objects.count()) == (1, 1)


@pytest.mark.django_db
def test_a_card_form_sent_again_gives_the_first_card(room, manager):
    member = MemberFactory(room=room)
    key = uuid.uuid4()
    first = services.card_issue(member=member, by=manager, now=NOW, request_key=key)
    assert services.card_issue(member=member, by=manager, now=NOW, request_key=key) == first
    assert Receipt.objects.count() == 1


@pytest.mark.django_db
def test_a_check_out_form_sent_again_gives_the_first_check_out(room, manager):
    visit = VisitFactory(room=room, checked_in_at=at(30, 9), checked_in_by=manager)
    key = uuid.uuid4()
    first = services.visit_check_out(visit=visit, by=manager, now=NOW, request_key=key)
    again = services.visit_check_out(visit=visit, by=manager, now=NOW, request_key=key)
    assert (again.pk, again.fee) == (first.pk, first.fee)
    assert Receipt.objects.count() == 1


@pytest.mark.django_db
def test_a_check_out_with_another_key_is_refused_as_already_out(room, manager):
    visit = VisitFactory(room=room, checked_in_at=at(30, 9), checked_in_by=manager)
    services.visit_check_out(visit=visit, by=manager, now=NOW, request_key=uuid.uuid4())
    with pytest.raises(ValidationError) as exc:
        services.visit_check_out(visit=visit, by=manager, now=NOW, request_key=uuid.uuid4())
    assert exc.value.code == "already_out"
