"""缴款: slips cover receipts in full, once; the accountant confirms or sends back."""

from __future__ import annotations

import threading
from decimal import Decimal

import pytest
from django.core.exceptions import PermissionDenied, ValidationError
from django.db import connection

from clubapp.books import selectors, services
from clubapp.books.models import HandOverLine, HandOverSlip, SlipDecision, SlipOutcome
from clubapp.books.tests.factories import at, day, fee, other_income
from clubapp.core.roles import Role
from clubapp.core.tests.factories import UserFactory

pytestmark = pytest.mark.django_db


@pytest.fixture
def receipts(room, manager):
    return [
        fee(room, manager, "50.00", when=at(2, 10)),
        fee(room, manager, "6.00", when=at(2, 15)),
        other_income(room, manager, "120.00", received_at=at(3)),
    ]


def _slip(room, manager, incomes, amount=None, now=None):
    total = sum((e.amount for e in incomes), Decimal("0.00"))
    return services.slip_create(
        room=room, incomes=incomes, amount=amount or total, by=manager, now=now or at(3, 17)
    )


def test_a_slip_hands_over_its_receipts_and_takes_the_cash_off_the_desk(room, manager, receipts):
    assert selectors.desk_cash(room=room, now=at(3, 17)).cash_on_hand == Decimal("176.00")
    slip = _slip(room, manager, receipts[:2])
    assert slip.number == "JK2026-0001"
    assert (slip.amount, slip.book_date, slip.handed_over_by) == (
        Decimal("56.00"),
        day(3),
        manager,
    )
    assert list(selectors.slip_receipts(slip=slip)) == receipts[:2]
    desk = selectors.desk_cash(room=room, now=at(3, 17))
    assert (desk.cash_on_hand, desk.receipts, desk.oldest) == (Decimal("120.00"), 1, receipts[2])


def test_the_cash_counted_must_be_the_receipts_total(room, manager, receipts):
    with pytest.raises(ValidationError, match="55.00 元与所选收据合计 56.00 元不符"):
        _slip(room, manager, receipts[:2], amount=Decimal("55.00"))
    assert HandOverSlip.objects.count() == 0


def test_a_receipt_is_handed_over_once(room, manager, receipts):
    first = _slip(room, manager, receipts[:1])
    with pytest.raises(ValidationError, match=f"{receipts[0].reference} 已在缴款单 {first.number}"):
        _slip(room, manager, receipts[:2])
    assert HandOverSlip.objects.count() == 1
    assert HandOverLine.objects.count() == 1


def test_a_slip_needs_receipts(room, manager):
    with pytest.raises(ValidationError, match="请选择"):
        services.slip_create(room=room, incomes=[], amount=Decimal("1.00"), by=manager)


def test_a_reversed_receipt_has_no_cash_to_hand_over(room, manager, accountant, receipts):
    services.income_reverse(entry=receipts[2], reason="重复登记", by=accountant, now=at(3, 12))
    with pytest.raises(ValidationError, match="已冲正"):
        _slip(room, manager, receipts[2:])


@pytest.mark.parametrize("who", ["accountant", "approver", "member", "outsider"])
def test_only_a_manager_hands_cash_over(room, request, receipts, who):
    with pytest.raises(PermissionDenied):
        _slip(room, request.getfixturevalue(who), receipts)
    assert HandOverSlip.objects.count() == 0


def test_the_accountant_confirms_a_slip(room, manager, accountant, receipts):
    slip = _slip(room, manager, receipts)
    decision = services.slip_confirm(slip=slip, by=accountant, now=at(4, 9))
    assert (decision.outcome, decision.decided_by, decision.book_date) == (
        SlipOutcome.CONFIRMED,
        accountant,
        day(4),
    )
    assert selectors.slip_list(room=room).get().state == "confirmed"
    assert {e.state for e in selectors.income_list(room=room)} == {"handed_over"}


def test_a_slip_is_confirmed_once(room, manager, accountant, receipts):
    slip = _slip(room, manager, receipts)
    services.slip_confirm(slip=slip, by=accountant)
    with pytest.raises(ValidationError, match="JK2026-0001 已入账，不能重复确认"):
        services.slip_confirm(slip=slip, by=accountant)
    with pytest.raises(ValidationError, match="已入账"):
        services.slip_return(slip=slip, reason="错", by=accountant)
    assert SlipDecision.objects.count() == 1


@pytest.mark.parametrize("who", ["manager", "approver", "member", "outsider"])
def test_only_the_accountant_confirms_or_sends_back(room, manager, request, receipts, who):
    slip = _slip(room, manager, receipts)
    user = request.getfixturevalue(who)
    with pytest.raises(PermissionDenied):
        services.slip_confirm(slip=slip, by=user)
    with pytest.raises(PermissionDenied):
        services.slip_return(slip=slip, reason="少10元", by=user)
    assert SlipDecision.objects.count() == 0


def test_nobody_confirms_their_own_slip(room, receipts, accountant):
    both = UserFactory(roles=[Role.MANAGER, Role.ACCOUNTANT])
    slip = _slip(room, both, receipts)
    with pytest.raises(ValidationError, match="本人"):
        services.slip_confirm(slip=slip, by=both)
    assert services.slip_confirm(slip=slip, by=accountant)


def test_a_slip_sent_back_puts_its_cash_and_receipts_back_at_the_desk(
    room, manager, accountant, receipts
):
    slip = _slip(room, manager, receipts, now=at(3, 17))
    with pytest.raises(ValidationError, match="原因"):
        services.slip_return(slip=slip, reason=" ", by=accountant)
    decision = services.slip_return(slip=slip, reason="少10元", by=accountant, now=at(4, 9))
    assert (decision.outcome, decision.reason) == (SlipOutcome.RETURNED, "少10元")
    assert selectors.desk_cash(room=room, now=at(4, 9)).cash_on_hand == Decimal("176.00")
    assert selectors.cash_through(room=room, day=day(3)) == Decimal("0.00")
    assert selectors.cash_through(room=room, day=day(4)) == Decimal("176.00")
    again = _slip(room, manager, receipts, now=at(4, 10))
    assert list(HandOverLine.objects.filter(slip=again).values_list("attempt", flat=True)) == [
        1,
        1,
        1,
    ]


def test_a_confirmed_slip_is_corrected_by_a_reversal(room, manager, accountant, receipts):
    slip = _slip(room, manager, receipts)
    with pytest.raises(ValidationError, match="尚未入账"):
        services.slip_reverse(slip=slip, reason="误确认", by=accountant)
    services.slip_confirm(slip=slip, by=accountant, now=at(4, 9))
    with pytest.raises(PermissionDenied):
        services.slip_reverse(slip=slip, reason="误确认", by=manager)
    reversal = services.slip_reverse(slip=slip, reason="误确认", by=accountant, now=at(4, 10))
    assert (reversal.number, reversal.amount, reversal.kind) == (
        "CZ2026-0001",
        Decimal("176.00"),
        "slip",
    )
    assert selectors.slip_list(room=room).get().state == "reversed"
    assert selectors.desk_cash(room=room, now=at(4, 10)).cash_on_hand == Decimal("176.00")
    with pytest.raises(ValidationError, match="已经冲正"):
        services.slip_reverse(slip=slip, reason="再来", by=accountant)


def test_a_returned_slip_is_not_reversed(room, manager, accountant, receipts):
    slip = _slip(room, manager, receipts)
    services.slip_return(slip=slip, reason="少10元", by=accountant)
    with pytest.raises(ValidationError, match="已退回"):
        services.slip_reverse(slip=slip, reason="误", by=accountant)


@pytest.mark.django_db(transaction=True)
def test_two_desks_cannot_hand_over_the_same_receipt_at_once(room, manager):
    if connection.vendor != "postgresql":
        pytest.skip("SQLite serialises writers: the race needs PostgreSQL")
    entry = fee(room, manager, "50.00", when=at(2))
    barrier = threading.Barrier(2)
    outcomes: list[str] = []

    def hand_over() -> None:
        try:
            barrier.wait()
            services.slip_create(room=room, incomes=[entry], amount=Decimal("50.00"), by=manager)
            outcomes.append("slip")
        except ValidationError:
            outcomes.append("refused")
        finally:
            connection.close()

    threads = [threading.Thread(target=hand_over) for _ in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert sorted(outcomes) == ["refused", "slip"]
    assert HandOverLine.objects.filter(income=entry).count() == 1
