"""The lists cost the same number of queries for 3 rows as for 12 (no N+1)."""

from __future__ import annotations

from decimal import Decimal

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from clubapp.books import services
from clubapp.books.tests.factories import approved, at, expense, fee, first_line, line

pytestmark = pytest.mark.django_db
LISTS = ["books:income_list", "books:slip_list", "books:plan_list", "books:expense_list"]


def _book(room, manager, approver, n):
    for i in range(n):
        entry = fee(room, manager, "10.00", when=at(2, 9, i))
        services.slip_create(
            room=room, incomes=[entry], amount=Decimal("10.00"), by=manager, now=at(2, 17, i)
        )
        plan = approved(room, manager, approver, line(unit_price="100.00"))
        expense(first_line(plan), manager, "10.00", purchased_on=at(2).date())


def _queries(client, name):
    with CaptureQueriesContext(connection) as queries:
        assert client.get(reverse(name)).status_code == 200
    return len(queries)


def test_the_lists_do_not_grow_with_their_rows(client, room, manager, approver):
    client.force_login(manager)
    _book(room, manager, approver, 3)
    few = {name: _queries(client, name) for name in LISTS}
    _book(room, manager, approver, 9)
    assert {name: _queries(client, name) for name in LISTS} == few
