"""The database itself keeps the books append-only, on SQLite and on PostgreSQL.

These tests go around the models (raw SQL through the connection's cursor, and the
plain QuerySet.update the models refuse) to prove that the database refuses.
"""

from __future__ import annotations

import pytest
from django.apps import apps
from django.core.management import call_command
from django.db import IntegrityError, connection, models, transaction

from clubapp.activities.tests.everything import activities_one_of_everything
from clubapp.books.tests.factories import book_one_of_everything as books_one_of_everything
from clubapp.core.appendonly import AppendOnlyError, AppendOnlyModel, append_only
from clubapp.members.services import card_issue, id_number_reveal
from clubapp.members.tests.factories import MemberFactory
from clubapp.play.models import Seat, Settlement
from clubapp.play.services import hand_signoff, settlement_make
from clubapp.play.tests.factories import TableSessionFactory, book, discard_win


def append_only_models() -> list[type[models.Model]]:
    return [
        model
        for model in apps.get_models()
        if issubclass(model, AppendOnlyModel) and not model._meta.abstract
    ]


def installed_triggers() -> set[str]:
    with connection.cursor() as cursor:
        if connection.vendor == "postgresql":
            cursor.execute("SELECT tgname FROM pg_trigger WHERE NOT tgisinternal")
        else:
            cursor.execute("SELECT name FROM sqlite_master WHERE type = 'trigger'")
        return {name for (name,) in cursor.fetchall()}


def book_one_of_everything(manager, member) -> None:
    """At least one row of every append-only table, written by the services."""
    card_issue(member=MemberFactory(), by=manager)  # a receipt and its income entry
    id_number_reveal(member=MemberFactory(), by=manager)  # a recorded ID number viewing
    session = TableSessionFactory(seats=False)
    for wind, name in zip("ESWN", ("老王", "小李", "阿张", "赵姐"), strict=True):
        Seat.objects.create(
            room=session.room,
            session=session,
            wind=wind,
            name=name,
            user=member if wind == "S" else None,
        )
    hand = book(session, discard_win("S", "E"))  # a hand and its ledger lines
    hand_signoff(hand=hand, by=member)
    settlement_make(session=session, by=manager)
    books_one_of_everything()  # every cash-book row: slips, plans, expenses, days, reversals
    activities_one_of_everything()  # plans, records, tournaments, duty, the day's checks


@pytest.fixture
def everything(db, manager, member):
    book_one_of_everything(manager, member)


def test_the_books_are_append_only_models():
    names = {model._meta.label for model in append_only_models()}
    assert {
        "books.IncomeEntry",
        "members.Receipt",
        "members.IdNumberReveal",
        "play.Hand",
        "play.LedgerLine",
        "play.Settlement",
        "play.HandSignoff",
        "play.RulesetVersion",
        "books.HandOverSlip",
        "books.HandOverLine",
        "books.SlipDecision",
        "books.PlanSubmission",
        "books.PlanLine",
        "books.PlanDecision",
        "books.PlanCompletion",
        "books.Expense",
        "books.ExpenseConfirmation",
        "books.DayClosing",
        "books.Reversal",
    } <= names


@pytest.mark.django_db
@pytest.mark.parametrize("model", append_only_models(), ids=lambda m: m._meta.label)
def test_every_append_only_table_has_its_triggers(model):
    expected = {
        trigger.name
        for trigger in append_only(model._meta.db_table)
        if trigger.exists_on(connection.vendor)
    }
    assert expected
    assert expected <= installed_triggers()


@pytest.mark.parametrize("model", append_only_models(), ids=lambda m: m._meta.label)
def test_the_database_refuses_update_and_delete(everything, model):
    table = connection.ops.quote_name(model._meta.db_table)
    count = model.objects.count()
    assert count > 0, f"book_one_of_everything writes no {model._meta.label}"
    with pytest.raises(IntegrityError, match="append-only"), transaction.atomic():
        models.QuerySet.update(model.objects.all(), id=models.F("id"))
    with pytest.raises(IntegrityError, match="append-only"), transaction.atomic():
        with connection.cursor() as cursor:
            cursor.execute(f"UPDATE {table} SET id = id")
    with pytest.raises(IntegrityError, match="append-only"), transaction.atomic():
        with connection.cursor() as cursor:
            cursor.execute(f"DELETE FROM {table}")
    assert model.objects.count() == count


def test_the_models_refuse_too(everything):
    statement = Settlement.objects.get()
    with pytest.raises(AppendOnlyError):
        statement.save()
    with pytest.raises(AppendOnlyError):
        statement.delete()
    with pytest.raises(AppendOnlyError):
        Settlement.objects.all().delete()
    with pytest.raises(AppendOnlyError):
        Settlement.objects.update(number=2)


@pytest.mark.django_db(transaction=True)
def test_a_flush_empties_the_books_and_keeps_the_guard(manager, member):
    # The test runner flushes between transactional tests; so does `manage.py flush`.
    book_one_of_everything(manager, member)
    before = installed_triggers()
    call_command("flush", interactive=False, verbosity=0)
    assert all(model.objects.count() == 0 for model in append_only_models())
    assert installed_triggers() == before


def test_flush_is_the_command_that_lifts_the_triggers():
    # Django's documented override: an app's command replaces the built-in of its name.
    from django.core.management import get_commands

    assert get_commands()["flush"] == "clubapp.core"
