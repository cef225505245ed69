"""The app's database role: plain, never a superuser; migrations by the owner (issue 11.4)."""

from __future__ import annotations

import os
import sqlite3
import subprocess
import sys
from io import StringIO
from pathlib import Path

import pytest
from django.conf import settings
from django.core.checks import run_checks
from django.core.management import call_command
from django.db import DatabaseError, IntegrityError, connection, transaction

from clubapp.books.models import IncomeEntry
from clubapp.core.dbroles import app_role_grants
from clubapp.members.tests.factories import MONDAY_10

pytestmark = pytest.mark.django_db
postgres_only = pytest.mark.skipif(
    connection.vendor != "postgresql", reason="roles and privileges are PostgreSQL's"
)
ROLE = "h_members_plain_app"


def _deploy_warnings() -> list[str]:
    return [m.id for m in run_checks(include_deployment_checks=True, tags=["security"])]


@postgres_only
def test_check_deploy_warns_when_the_app_connects_as_a_superuser():
    # The test runner connects as postgres, a superuser.
    assert "core.W001" in _deploy_warnings()


def test_check_deploy_is_quiet_about_roles_on_sqlite():
    if connection.vendor == "postgresql":
        pytest.skip("on PostgreSQL the test runner is a superuser")
    assert "core.W001" not in _deploy_warnings()


def _income(room, user, *, amount="50.00", reference="R2026-09999"):
    return IncomeEntry.objects.create(
        room=room,
        category="card_fee",
        amount=amount,
        received_at=MONDAY_10,
        book_date=MONDAY_10.date(),
        reference=reference,
        recorded_by=user,
    )


def _refused(sql: str, params=()) -> DatabaseError:
    with pytest.raises(DatabaseError) as caught, transaction.atomic():
        with connection.cursor() as cursor:
            cursor.execute(sql, params)
    return caught.value


@postgres_only
def test_the_documented_plain_role_cannot_rewrite_a_book(room, manager):
    entry = _income(room, manager)
    table = IncomeEntry._meta.db_table
    with connection.cursor() as cursor:
        # CREATE ROLE is transactional in PostgreSQL: the test's rollback removes it.
        cursor.execute(f'CREATE ROLE "{ROLE}" NOLOGIN')
        cursor.execute("SELECT current_user")
        (owner,) = cursor.fetchone()
        for statement in app_role_grants(role=ROLE, owner=owner):
            cursor.execute(statement)
        # the plain role is subject to the room policies (docs/rooms.md): it works in
        # the room its transaction names, as every request does
        cursor.execute("SELECT set_config('app.room', %s, true)", [str(room.pk)])
        cursor.execute(f'SET ROLE "{ROLE}"')
        cursor.execute("SELECT current_setting('is_superuser')")
        assert cursor.fetchone() == ("off",)
    try:
        # It reads and appends, as the app must...
        with connection.cursor() as cursor:
            cursor.execute(f'SELECT count(*) FROM "{table}"')
            assert cursor.fetchone() == (1,)
        second = _income(room, manager, amount="1.00", reference="R2026-09998")
        assert second.pk
        # ...and cannot change a booked row, delete it, empty the table or lift the guard.
        for sql in (
            f'UPDATE "{table}" SET amount = 1 WHERE id = %s',
            f'DELETE FROM "{table}" WHERE id = %s',
        ):
            assert isinstance(_refused(sql, [entry.pk]), IntegrityError)
        for sql in (
            f'TRUNCATE "{table}"',
            f'ALTER TABLE "{table}" DISABLE TRIGGER ALL',
            f'DROP TRIGGER "{table}_append_only" ON "{table}"',
        ):
            error = _refused(sql)
            assert getattr(error.__cause__, "sqlstate", "") in {"42501"}, sql  # no privilege
    finally:
        with connection.cursor() as cursor:
            cursor.execute("RESET ROLE")
    entry.refresh_from_db()
    assert str(entry.amount) == "50.00"


def test_the_grants_command_prints_only_row_privileges():
    out = StringIO()
    call_command("db_app_role", "club_app", "--owner", "club_owner", stdout=out)
    sql = out.getvalue()
    assert "GRANT SELECT, INSERT, UPDATE, DELETE ON ALL TABLES" in sql
    assert "USAGE, SELECT ON ALL SEQUENCES" in sql
    assert "TRUNCATE" not in sql and "SUPERUSER" not in sql and "ALL PRIVILEGES" not in sql


def test_the_grants_refuse_a_role_name_that_is_not_an_identifier():
    with pytest.raises(ValueError):
        app_role_grants(role='app"; DROP TABLE x; --', owner="club_owner")


def test_migrations_run_through_the_owner_alias(tmp_path):
    """MIGRATE_DATABASE_URL adds the `owner` alias; `migrate --database owner` uses it
    and nothing else (the app's alias here is another, empty database)."""
    db = tmp_path / "club.sqlite3"
    app_db = tmp_path / "app.sqlite3"
    dropped = {"DATABASE_URL", "DJANGO_ALLOW_ASYNC_UNSAFE"}
    env = {k: v for k, v in os.environ.items() if k not in dropped}
    env.update(
        DEBUG="1",
        DATABASE_URL=f"sqlite:///{app_db}",
        MIGRATE_DATABASE_URL=f"sqlite:///{db}",
    )
    result = subprocess.run(
        [sys.executable, "manage.py", "migrate", "--database", "owner", "--no-input"],
        cwd=Path(settings.BASE_DIR),
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert result.returncode == 0, result.stderr
    with sqlite3.connect(db) as raw:
        names = {row[0] for row in raw.execute("SELECT name FROM sqlite_master")}
    assert {"members_member", "books_incomeentry", "django_migrations"} <= names
    with sqlite3.connect(app_db) as raw:
        assert list(raw.execute("SELECT name FROM sqlite_master")) == []


@postgres_only
@pytest.mark.django_db(transaction=True)
def test_the_plain_role_books_a_hand_that_the_commit_checks_in_its_room():
    """A hand's deferred checks (its ledger lines, their zero sum: docs/play.md) run at
    COMMIT under the room policies: the room of the transaction must still be set then."""
    from clubapp.core.rooms import scope
    from clubapp.play.models import Hand
    from clubapp.play.tests.factories import TableSessionFactory, book, discard_win

    session = TableSessionFactory()
    role = f"{ROLE}_commit"
    with connection.cursor() as cursor:
        cursor.execute(f'CREATE ROLE "{role}" NOLOGIN')  # committed: dropped below
        cursor.execute("SELECT current_user")
        (owner,) = cursor.fetchone()
        for statement in app_role_grants(role=role, owner=owner):
            cursor.execute(statement)
    try:
        with connection.cursor() as cursor:
            cursor.execute(f'SET ROLE "{role}"')
        try:
            with scope(session.room):  # the outermost transaction, as a request's
                hand = book(session, discard_win("S", "E"))
        finally:
            with connection.cursor() as cursor:
                cursor.execute("RESET ROLE")
        assert Hand.objects.get(pk=hand.pk).lines.count() == 2
    finally:
        with connection.cursor() as cursor:
            cursor.execute(f'DROP OWNED BY "{role}"')
            cursor.execute(f'DROP ROLE "{role}"')
