"""The database refuses a book row on a closed day, on PostgreSQL and on SQLite.

``ClosedDayGuard("<model>")`` is a migration operation: a ``BEFORE INSERT`` trigger
on the model's table refuses a row whose ``book_date`` is on or before a day the
room has closed (``books_dayclosing``: closing a day closes every earlier day too).
The services book such a row on the next open day instead, marked 补记; the trigger
is what stops a bug, a shell or raw SQL from writing into a closed day. Like the
append-only triggers it raises an integrity error (SQLSTATE 23000 /
SQLITE_CONSTRAINT), so Django raises ``IntegrityError``.

SQLite drops a table's triggers when a later migration rebuilds the table: run the
operation again in that migration (``tests/test_closed_day_guard.py`` fails otherwise).
"""

from __future__ import annotations

from typing import Any

from django.db.backends.base.schema import BaseDatabaseSchemaEditor
from django.db.migrations.operations.base import Operation
from django.db.migrations.state import ProjectState

GUARD_SUFFIX = "_closed_day_guard"
CLOSINGS = "books_dayclosing"


def guard_name(table: str) -> str:
    return f"{table}{GUARD_SUFFIX}"


def create_sql(vendor: str, table: str) -> list[str]:
    name = guard_name(table)
    closed = (
        f'SELECT 1 FROM "{CLOSINGS}" c WHERE c.room_id = NEW.room_id AND c.date >= NEW.book_date'
    )
    if vendor == "postgresql":
        return [
            "CREATE OR REPLACE FUNCTION books_refuse_closed_day() RETURNS trigger "
            "LANGUAGE plpgsql AS $$ BEGIN "
            f"IF EXISTS ({closed}) THEN "
            "RAISE EXCEPTION '% refused: % is a closed day', TG_TABLE_NAME, NEW.book_date "
            "USING ERRCODE = '23000'; END IF; RETURN NEW; END $$",
            f'CREATE TRIGGER "{name}" BEFORE INSERT ON "{table}" '
            "FOR EACH ROW EXECUTE FUNCTION books_refuse_closed_day()",
        ]
    if vendor == "sqlite":
        return [
            f'CREATE TRIGGER "{name}" BEFORE INSERT ON "{table}" WHEN EXISTS ({closed}) '
            f"BEGIN SELECT RAISE(ABORT, '{table} refused: a closed day'); END"
        ]
    raise NotImplementedError(f"closed-day guards are not written for {vendor}")


def drop_sql(vendor: str, table: str) -> list[str]:
    on_table = f' ON "{table}"' if vendor == "postgresql" else ""
    return [f'DROP TRIGGER IF EXISTS "{guard_name(table)}"{on_table}']


class ClosedDayGuard(Operation):
    """Migration operation: no row of this model on a closed day (reversible)."""

    reversible = True
    reduces_to_sql = True

    def __init__(self, model_name: str) -> None:
        self.model_name = model_name

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
        self._run(app_label, schema_editor, to_state, create_sql)

    def database_backwards(
        self,
        app_label: str,
        schema_editor: BaseDatabaseSchemaEditor,
        from_state: ProjectState,
        to_state: ProjectState,
    ) -> None:
        self._run(app_label, schema_editor, from_state, drop_sql)

    def describe(self) -> str:
        return f"Refuse {self.model_name} rows on a closed day in the database"

    @property
    def migration_name_fragment(self) -> str:
        return f"{self.model_name}_closed_day_guard"
