"""Fixtures of the duty and checks tests (imported by name by those test files): a
second manager, a manager-approver, and a frozen clock in November 2026."""

from __future__ import annotations

import datetime as dt

import pytest

from clubapp.core.roles import Role
from clubapp.core.tests.factories import UserFactory
from clubapp.members.tests.factories import at


def day(n: int) -> dt.date:
    """A day of November 2026 (the 4th, 11th, 18th and 25th are Wednesdays: closed)."""
    return dt.date(2026, 11, n)


@pytest.fixture
def clock(monkeypatch):
    """django.utils.timezone.now frozen at 2026-11-30 10:00 (a Monday); ``clock.set``."""

    class Clock:
        now = at(30, 10)

        def set(self, moment: dt.datetime) -> None:
            self.now = moment

    c = Clock()
    monkeypatch.setattr("django.utils.timezone.now", lambda: c.now)
    return c


@pytest.fixture
def desk(db):
    return UserFactory(username="desk", first_name="小孙", roles=[Role.MANAGER])


@pytest.fixture
def boss(db):
    return UserFactory(username="boss", first_name="周主任", roles=[Role.MANAGER, Role.APPROVER])


__all__ = ["boss", "clock", "desk"]  # the fixtures, for a star import
