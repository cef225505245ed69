"""Fixtures of the cash-book tests: the room, a second manager, a manager who is also
an approver, and a frozen clock."""

from __future__ import annotations

import datetime as dt
from decimal import Decimal

import pytest

from clubapp.books import services
from clubapp.books.models import IncomeCategory, PlanOutcome
from clubapp.books.tests.factories import (
    approved,
    at,
    draft,
    expense,
    fee,
    first_line,
    other_income,
    submitted,
)
from clubapp.core.roles import Role
from clubapp.core.tests.factories import UserFactory


@pytest.fixture
def clock(monkeypatch):
    """django.utils.timezone.now frozen at 2026-11-04 10:00; ``clock.set(moment)`` moves it."""

    class Clock:
        now = at(4)

        def set(self, moment: dt.datetime) -> None:
            self.now = moment

    c = Clock()
    monkeypatch.setattr("django.utils.timezone.now", lambda: c.now)
    return c


@pytest.fixture
def desk(db):
    """Another manager at the desk."""
    return UserFactory(username="desk", first_name="小孙", roles=[Role.MANAGER])


@pytest.fixture
def boss(db):
    """A manager who is also an approver (a small room's head)."""
    return UserFactory(username="boss", first_name="周主任", roles=[Role.MANAGER, Role.APPROVER])


@pytest.fixture
def books(room, manager, accountant, approver):
    """One of everything a page lists: receipts, a slip, plans in several states, an
    expense. Returns the rows by name."""
    card = fee(room, manager, "50.00", when=at(2, 10))
    donation = other_income(
        room, manager, "500.00", category=IncomeCategory.DONATION, received_at=at(3)
    )
    slip = services.slip_create(
        room=room, incomes=[card], amount=Decimal("50.00"), by=manager, now=at(3, 17)
    )
    plan = approved(room, manager, approver)
    waiting = submitted(room, manager)
    rejected = submitted(room, manager)
    services.plan_decide(
        plan=rejected, outcome=PlanOutcome.REJECTED, comment="先询价", by=approver, now=at(2)
    )
    spent = expense(first_line(plan), manager, "100.00")
    return {
        "card": card,
        "donation": donation,
        "slip": slip,
        "plan": plan,
        "waiting": waiting,
        "rejected": rejected,
        "draft": draft(room, manager),
        "expense": spent,
    }
