"""Fixtures of the cash-book tests: the room, a second manager, a manager who is also
an approver, and a frozen clock."""

from __future__ import annotations

import datetime as dt

import pytest

from clubapp.books.tests.factories import at
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
