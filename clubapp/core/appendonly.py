"""The one append-only base of every book: ledger lines, hands, statements, receipts,
cash-book entries. A row is written once and never changed or deleted; a mistake is
corrected by a new, reversing row with a reason.

Three layers refuse a change, so that neither a bug, nor a shell, nor raw SQL can
rewrite history:

- ``AppendOnlyModel.save()`` inserts once; ``delete()`` is refused;
- ``AppendOnlyQuerySet`` refuses bulk ``update()`` and ``delete()``;
- the database itself: ``append_only(table)`` declares the triggers that refuse UPDATE
  and DELETE on PostgreSQL and on SQLite alike; each app lists them in its
  ``guards.TRIGGERS`` (the trigger registry, ``clubapp.core.triggers``) and installs
  them with ``InstallTriggers("append_only", "<model>")``. Both raise an integrity
  error (SQLSTATE 23000 / SQLITE_CONSTRAINT), so Django raises ``IntegrityError``.

Emptying a whole database is not a row change: PostgreSQL's TRUNCATE fires no row
trigger (the app's own database role is not granted TRUNCATE, docs/operations.md),
and on SQLite ``manage.py flush`` (``clubapp/core/management/commands/flush.py``)
lifts the triggers around its DELETEs and puts them back.
"""

from __future__ import annotations

from typing import Any, NoReturn

from django.db import models

from clubapp.core.triggers import Trigger

# Every append-only trigger's name ends so.
TRIGGER_SUFFIX = "_append_only"
#: their group in the trigger registry (``InstallTriggers("append_only", "<model>")``)
GROUP = "append_only"


class AppendOnlyError(Exception):
    """A booked row was about to change: correct it with a reversing entry instead."""


class AppendOnlyQuerySet(models.QuerySet[Any]):
    """Refuses bulk update and delete (the database refuses them too)."""

    def update(self, **kwargs: Any) -> NoReturn:
        raise AppendOnlyError(f"{self.model.__name__} rows are append-only")

    def delete(self) -> NoReturn:  # type: ignore[override]
        raise AppendOnlyError(f"{self.model.__name__} rows are append-only")


class AppendOnlyModel(models.Model):
    """save() inserts once and never again; delete() is refused.

    A concrete subclass also needs ``*append_only("<table>")`` in its app's
    ``guards.TRIGGERS`` and ``InstallTriggers("append_only", "<model>")`` in the
    migration that creates its table; ``clubapp/core/tests/test_triggers.py`` fails
    for any subclass without them. (A later migration that makes SQLite rebuild the
    table needs nothing: ``migrate`` puts the registered triggers back.)
    """

    objects = AppendOnlyQuerySet.as_manager()

    class Meta:
        abstract = True

    def save(self, *args: Any, **kwargs: Any) -> None:
        if not self._state.adding:
            raise AppendOnlyError(f"{type(self).__name__} rows are append-only")
        super().save(*args, **kwargs)

    def delete(self, *args: Any, **kwargs: Any) -> NoReturn:
        raise AppendOnlyError(f"{type(self).__name__} rows are append-only")


def append_only(table: str) -> tuple[Trigger, ...]:
    """The triggers that make ``table`` refuse UPDATE and DELETE: on PostgreSQL one row
    trigger for both events, calling ``core_refuse_change()``; on SQLite one ``BEFORE``
    trigger per event, ``RAISE(ABORT)``. An app lists them in its ``guards.TRIGGERS``."""
    refuse = (
        # One function for every table; CREATE OR REPLACE keeps the installation idempotent.
        "CREATE OR REPLACE FUNCTION core_refuse_change() RETURNS trigger "
        "LANGUAGE plpgsql AS $$ BEGIN "
        "RAISE EXCEPTION '% rows are append-only (% refused)', TG_TABLE_NAME, TG_OP "
        "USING ERRCODE = '23000'; END $$"
    )
    both = Trigger(
        f"{table}{TRIGGER_SUFFIX}",
        table,
        GROUP,
        postgresql=(
            refuse,
            f'CREATE TRIGGER "{table}{TRIGGER_SUFFIX}" BEFORE UPDATE OR DELETE ON "{table}" '
            "FOR EACH ROW EXECUTE FUNCTION core_refuse_change()",
        ),
    )
    each = tuple(
        Trigger(
            f"{table}_{event.lower()}{TRIGGER_SUFFIX}",
            table,
            GROUP,
            sqlite=(
                f'CREATE TRIGGER "{table}_{event.lower()}{TRIGGER_SUFFIX}" BEFORE {event} '
                f'ON "{table}" BEGIN '
                f"SELECT RAISE(ABORT, '{table} rows are append-only ({event} refused)'); END",
            ),
        )
        for event in ("UPDATE", "DELETE")
    )
    return (both, *each)


def create_sql(vendor: str, table: str) -> list[str]:
    """The statements that put ``table``'s append-only triggers (back) on ``vendor``:
    for a data migration that lifts them around its own UPDATE."""
    return [statement for trigger in append_only(table) for statement in trigger.create_sql(vendor)]


def drop_sql(vendor: str, table: str) -> list[str]:
    return [statement for trigger in append_only(table) for statement in trigger.drop_sql(vendor)]
