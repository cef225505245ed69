"""The database guards of the cash book are installed (clubapp/books/guards.py): the
closed-day guard on every dated table, and the frozen draft of a submitted plan."""

from __future__ import annotations

import pytest
from django.apps import apps
from django.db import connection

from clubapp.books.guards import PLAN_FROZEN, guard_name
from clubapp.books.models.base import BookDated


def dated_models():
    return [m for m in apps.get_app_config("books").get_models() if issubclass(m, BookDated)]


def test_the_dated_tables_are_the_ones_expected():
    assert {m.__name__ for m in dated_models()} == {
        "IncomeEntry",
        "HandOverSlip",
        "SlipDecision",
        "Expense",
        "Reversal",
    }


@pytest.mark.django_db
@pytest.mark.parametrize("model", dated_models(), ids=lambda m: m.__name__)
def test_every_dated_table_has_its_guard(model):
    with connection.cursor() as cursor:
        if connection.vendor == "postgresql":
            cursor.execute("SELECT tgname FROM pg_trigger WHERE NOT tgisinternal")
        else:
            cursor.execute("SELECT name FROM sqlite_master WHERE type = 'trigger'")
        installed = {name for (name,) in cursor.fetchall()}
    assert guard_name(model._meta.db_table) in installed


@pytest.mark.django_db
def test_a_submitted_plans_draft_has_its_guards():
    with connection.cursor() as cursor:
        if connection.vendor == "postgresql":
            cursor.execute("SELECT tgname FROM pg_trigger WHERE NOT tgisinternal")
        else:
            cursor.execute("SELECT name FROM sqlite_master WHERE type = 'trigger'")
        installed = {name for (name,) in cursor.fetchall()}
    expected = {t.name for t in PLAN_FROZEN if t.exists_on(connection.vendor)}
    assert len(expected) == (2 if connection.vendor == "postgresql" else 4)
    assert expected <= installed
