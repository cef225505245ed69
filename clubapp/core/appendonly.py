"""The one append-only base of every book: ledger lines, hands, statements, receipts,
cash-book entries. A row is written once and never changed or deleted; a mistake is
corrected by a new, reversing row with a reason.

Three layers refuse a change, so that neither a bug, nor a shell, nor raw SQL can
rewrite history:

- ``AppendOnlyModel.save()`` inserts once; ``delete()`` is refused;
- ``AppendOnlyQuerySet`` refuses bulk ``update()`` and ``delete()``;
- the database itself: ``AppendOnlyTriggers`` (a migration operation) installs
  triggers that refuse UPDATE and DELETE on PostgreSQL and on SQLite alike. Both
  raise an integrity error (SQLSTATE 23000 / SQLITE_CONSTRAINT), so Django raises
  ``IntegrityError``.

Emptying a whole database is not a row change: PostgreSQL's TRUNCATE fires no row
trigger (the app's own database role is not granted TRUNCATE, docs/operations.md),
and on SQLite ``manage.py flush`` goes through ``clubapp.core.sqlite3``, which lifts
the triggers around its DELETEs and puts them back.
"""

from __future__ import annotations

from typing import Any, NoReturn

from django.db import models
from django.db.backends.base.schema import BaseDatabaseSchemaEditor
from django.db.migrations.operations.base import Operation
from django.db.migrations.state import ProjectState

# Every append-only trigger's name ends so; the SQLite backend finds them by it.
TRIGGER_SUFFIX = "_append_only"


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

    A concrete subclass also needs ``AppendOnlyTriggers("<model>")`` in the migration
    that creates its table; ``clubapp/core/tests/test_appendonly.py`` fails for any
    subclass whose table lacks them (SQLite rebuilds a table on most ALTERs and the
    rebuilt table has no triggers: re-run the operation after such a migration).
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


def trigger_names(vendor: str, table: str) -> list[str]:
    """The triggers that guard ``table`` (PostgreSQL's one covers both events)."""
    if vendor == "postgresql":
        return [f"{table}{TRIGGER_SUFFIX}"]
    return [f"{table}_update{TRIGGER_SUFFIX}", f"{table}_delete{TRIGGER_SUFFIX}"]


def create_sql(vendor: str, table: str) -> list[str]:
    """The statements that make ``table`` refuse UPDATE and DELETE on ``vendor``.

    Any triggers of the same names are dropped first, so that the operation can run
    again after a migration that altered the table (SQLite rebuilt it without them;
    PostgreSQL kept them)."""
    names = trigger_names(vendor, table)
    again = drop_sql(vendor, table)
    if vendor == "postgresql":
        return again + [
            # One function for every table; CREATE OR REPLACE keeps the operation idempotent.
            "CREATE OR REPLACE FUNCTION core_refuse_change() RETURNS trigger "
            "LANGUAGE plpgsql AS $$ BEGIN "
            "RAISE EXCEPTION '% rows are append-only (% refused)', TG_TABLE_NAME, TG_OP "
            "USING ERRCODE = '23000'; END $$",
            f'CREATE TRIGGER "{names[0]}" BEFORE UPDATE OR DELETE ON "{table}" '
            "FOR EACH ROW EXECUTE FUNCTION core_refuse_change()",
        ]
    if vendor == "sqlite":
        return again + [
            f'CREATE TRIGGER "{name}" BEFORE {event} ON "{table}" BEGIN '
            f"SELECT RAISE(ABORT, '{table} rows are append-only ({event} refused)'); END"
            for name, event in zip(names, ("UPDATE", "DELETE"), strict=True)
        ]
    raise NotImplementedError(f"append-only triggers are not written for {vendor}")


def drop_sql(vendor: str, table: str) -> list[str]:
    on_table = f' ON "{table}"' if vendor == "postgresql" else ""
    return [f'DROP TRIGGER IF EXISTS "{name}"{on_table}' for name in trigger_names(vendor, table)]


class TableTriggers(Operation):
    """Migration operation: install a model's triggers (reversible: the backwards step
    drops them). A subclass names the SQL, ``create_sql(vendor, table)`` and
    ``drop_sql(vendor, table)``, and what the triggers do (``purpose``, ``fragment``):
    the append-only triggers below, the books' closed-day guard."""

    reversible = True
    reduces_to_sql = True
    purpose = "Install the triggers of {}"
    fragment = "triggers"

    def __init__(self, model_name: str) -> None:
        self.model_name = model_name

    @staticmethod
    def create_sql(vendor: str, table: str) -> list[str]:
        raise NotImplementedError

    @staticmethod
    def drop_sql(vendor: str, table: str) -> list[str]:
        raise NotImplementedError

    def deconstruct(self) -> tuple[str, list[Any], dict[str, Any]]:
        return (type(self).__qualname__, [self.model_name], {})

    def state_forwards(self, app_label: str, state: ProjectState) -> None:
        pass  # triggers are not part of Django's model state

    def _run(
        self, app_label: str, schema_editor: BaseDatabaseSchemaEditor, state: ProjectState, sql
    ) -> None:
        model = state.apps.get_model(app_label, self.model_name)
        if not self.allow_migrate_model(schema_editor.connection.alias, model):
            return
        for statement in sql(schema_editor.connection.vendor, model._meta.db_table):
            schema_editor.execute(statement, params=None)

    def database_forwards(
        self,
        app_label: str,
        schema_editor: BaseDatabaseSchemaEditor,
        from_state: ProjectState,
        to_state: ProjectState,
    ) -> None:
        self._run(app_label, schema_editor, to_state, self.create_sql)

    def database_backwards(
        self,
        app_label: str,
        schema_editor: BaseDatabaseSchemaEditor,
        from_state: ProjectState,
        to_state: ProjectState,
    ) -> None:
        self._run(app_label, schema_editor, from_state, self.drop_sql)

    def describe(self) -> str:
        return self.purpose.format(self.model_name)

    @property
    def migration_name_fragment(self) -> str:
        return f"{self.model_name}_{self.fragment}"


class AppendOnlyTriggers(TableTriggers):
    """The database refuses UPDATE and DELETE on a model's table.

    ``AppendOnlyTriggers("hand")`` in the ``operations`` of a migration of the app
    that owns the model.
    """

    purpose = "Make {} append-only in the database"
    fragment = "append_only"
    create_sql = staticmethod(create_sql)
    drop_sql = staticmethod(drop_sql)
