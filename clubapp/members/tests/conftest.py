"""Fixtures of the members tests: a fixed clock inside opening hours, tables, photos."""

from __future__ import annotations

import datetime as dt

import pytest

from clubapp.members.tests.factories import MONDAY_10, TableFactory


@pytest.fixture
def clock(monkeypatch):
    """Freeze django.utils.timezone.now; ``clock.set(moment)`` moves it."""

    class Clock:
        now = MONDAY_10

        def set(self, moment: dt.datetime) -> None:
            self.now = moment

    c = Clock()
    monkeypatch.setattr("django.utils.timezone.now", lambda: c.now)
    return c


@pytest.fixture
def tables(room):
    return [TableFactory(room=room, number=n) for n in (1, 2, 3)]
