"""What the database itself refuses so that no row crosses from one room to another.

Every room-keyed table (a model with ``room = room_field()``) gets, read from the
models so that no table or reference is forgotten:

- **room fixed**: a row's room never changes (``<table>_room_fixed``);
- **same room**: each reference to another room-keyed row points into the row's own
  room (``<table>_<column>_room``), on INSERT and on UPDATE of either column; a row
  whose ``room`` may be empty (the standard rulesets, shared read-only) may be
  referred to from any room;
- on PostgreSQL, **row-level security** (``room_only`` policy): the app's plain role
  sees and writes only the rows of the room its transaction set in ``app.room``
  (``clubapp.core.rooms.scope``); the tables' owner (migrations) is not subject to it.

The triggers join the registry (``clubapp.core.triggers``) in one group per app,
``rooms_<app label>``, installed by that app's migration; the policies are put in
place after every ``migrate`` on PostgreSQL (:func:`install_row_security`).
``FillRoom`` is the migration operation that fills a new room column from the row it
hangs off, for an existing database.
"""

from __future__ import annotations

from typing import Any

from django.apps import apps as global_apps
from django.db import DEFAULT_DB_ALIAS, connections
from django.db.backends.base.schema import BaseDatabaseSchemaEditor
from django.db.migrations.operations.base import Operation
from django.db.migrations.state import ProjectState
from django.db.models import ForeignKey, Model

from clubapp.core.triggers import Trigger, fully_migrated

POLICY = "room_only"
#: the models that resolve a request's room: read before its room is known
RESOLVERS = ("core.Room", "core.UserRoom")


def room_keyed(model: type[Model]) -> bool:
    if model._meta.label in RESOLVERS or not model._meta.managed or model._meta.proxy:
        return False
    try:
        field = model._meta.get_field("room")
    except Exception:  # noqa: BLE001 - FieldDoesNotExist
        return False
    if not isinstance(field, ForeignKey) or isinstance(field.related_model, str):
        return False
    return field.related_model._meta.label == "core.Room"


def room_keyed_models() -> list[type[Model]]:
    return [m for m in global_apps.get_models() if room_keyed(m)]


def _refuse_pg(message: str) -> str:
    return f"RAISE EXCEPTION '{message}' USING ERRCODE = '23000';"


def _room_fixed(model: type[Model]) -> Trigger:
    table = model._meta.db_table
    name = f"{table}_room_fixed"
    message = f"{table}: a row stays in its room"
    return Trigger(
        name,
        table,
        f"rooms_{model._meta.app_label}",
        postgresql=(
            f"CREATE OR REPLACE FUNCTION {name}() RETURNS trigger LANGUAGE plpgsql AS $$ "
            f"BEGIN {_refuse_pg(message)} RETURN NULL; END $$",
            f'CREATE TRIGGER "{name}" BEFORE UPDATE OF room_id ON "{table}" FOR EACH ROW '
            f"WHEN (OLD.room_id IS DISTINCT FROM NEW.room_id) EXECUTE FUNCTION {name}()",
        ),
        sqlite=(
            f'CREATE TRIGGER "{name}" BEFORE UPDATE OF room_id ON "{table}" '
            f"WHEN NEW.room_id IS NOT OLD.room_id "
            f"BEGIN SELECT RAISE(ABORT, '{message}'); END",
        ),
        columns=("room_id",),
    )


def _same_room(model: type[Model], field: ForeignKey[Any, Any]) -> list[Trigger]:
    """Two triggers: on INSERT (``…_room``) and on UPDATE of either column
    (``…_room_update``); on PostgreSQL they call one function."""
    table = model._meta.db_table
    column = field.column
    related: Any = field.related_model
    parent = related._meta.db_table
    key = field.target_field.column
    name = f"{table}_{column}_room"
    message = f"{table}.{column}: a row of another room"
    # A parent without a room (a standard ruleset) is every room's.
    parent_room = (
        f"(SELECT COALESCE(room_id, NEW.room_id) FROM {parent} WHERE {key} = NEW.{column})"
    )
    condition = f"NEW.{column} IS NOT NULL AND NEW.room_id IS DISTINCT FROM {parent_room}"
    function = (
        f"CREATE OR REPLACE FUNCTION {name}() RETURNS trigger LANGUAGE plpgsql AS $$ "
        f"BEGIN IF {condition} THEN {_refuse_pg(message)} END IF; RETURN NEW; END $$"
    )
    found = []
    for suffix, event in (("", "INSERT"), ("_update", f"UPDATE OF {column}, room_id")):
        found.append(
            Trigger(
                f"{name}{suffix}",
                table,
                f"rooms_{model._meta.app_label}",
                postgresql=(
                    function,
                    f'CREATE TRIGGER "{name}{suffix}" BEFORE {event} ON "{table}" '
                    f"FOR EACH ROW EXECUTE FUNCTION {name}()",
                ),
                sqlite=(
                    f'CREATE TRIGGER "{name}{suffix}" BEFORE {event} ON "{table}" '
                    f"WHEN {condition.replace('IS DISTINCT FROM', 'IS NOT')} "
                    f"BEGIN SELECT RAISE(ABORT, '{message}'); END",
                ),
                columns=(column, "room_id"),
            )
        )
    return found


def triggers() -> list[Trigger]:
    """The room triggers of every room-keyed table, app by app."""
    found: list[Trigger] = []
    for model in room_keyed_models():
        found.append(_room_fixed(model))
        for field in model._meta.fields:
            if (
                isinstance(field, ForeignKey)
                and field.name != "room"
                and not isinstance(field.related_model, str)
                and room_keyed(field.related_model)
            ):
                found.extend(_same_room(model, field))
    return found


def policy_sql(model: type[Model]) -> list[str]:
    """The room's row-level security on the model's table (PostgreSQL)."""
    table = model._meta.db_table
    mine = "room_id = NULLIF(current_setting('app.room', true), '')::bigint"
    if getattr(model._meta.get_field("room"), "null", False):
        mine = f"(room_id IS NULL OR {mine})"
    return [
        f'ALTER TABLE "{table}" ENABLE ROW LEVEL SECURITY',
        f'DROP POLICY IF EXISTS {POLICY} ON "{table}"',
        f'CREATE POLICY {POLICY} ON "{table}" USING ({mine}) WITH CHECK ({mine})',
    ]


def install_row_security(
    using: str = DEFAULT_DB_ALIAS, plan: list[Any] | None = None, **kwargs: Any
) -> list[str]:
    """``post_migrate`` on PostgreSQL: the room policy on every room-keyed table of a
    fully migrated database (run as the tables' owner, who alone may). Returns the
    tables."""
    connection = connections[using]
    if connection.vendor != "postgresql" or plan is None or not fully_migrated(connection):
        return []
    tables = []
    with connection.cursor() as cursor:
        for model in room_keyed_models():
            for statement in policy_sql(model):
                cursor.execute(statement)
            tables.append(model._meta.db_table)
    return tables


class FillRoom(Operation):
    """Migration operation: fill ``model_name``'s new, still empty room column from the
    row that ``through`` points to (``FillRoom("hand", "session")``), or, without
    ``through`` (a top-level row: a member, a table, an income), with the first room
    (a database from before rooms had one room): an existing database keeps every
    row, now in its room. The table's triggers (append-only
    books refuse UPDATE) are lifted for the UPDATE only, and put back as they were.
    Put the parents' FillRoom first. Backwards: the table's room policy goes (on
    PostgreSQL), before the column."""

    reversible = True
    reduces_to_sql = False

    def __init__(self, model_name: str, through: str = "") -> None:
        self.model_name = model_name
        self.through = through

    def deconstruct(self) -> tuple[str, list[Any], dict[str, Any]]:
        args = [self.model_name, self.through] if self.through else [self.model_name]
        return (type(self).__qualname__, args, {})

    def state_forwards(self, app_label: str, state: ProjectState) -> None:
        pass

    def database_forwards(
        self,
        app_label: str,
        schema_editor: BaseDatabaseSchemaEditor,
        from_state: ProjectState,
        to_state: ProjectState,
    ) -> None:
        model = to_state.apps.get_model(app_label, self.model_name)
        if not self.allow_migrate_model(schema_editor.connection.alias, model):
            return
        table = model._meta.db_table
        if self.through:
            field = model._meta.get_field(self.through)
            parent = field.related_model._meta.db_table
            key = field.target_field.column
            source = (
                f'SELECT room_id FROM "{parent}" '
                f'WHERE "{parent}"."{key}" = "{table}"."{field.column}"'
            )
        else:
            source = 'SELECT id FROM "core_room" ORDER BY id LIMIT 1'
        update = f'UPDATE "{table}" SET room_id = ({source}) WHERE room_id IS NULL'
        if schema_editor.connection.vendor == "postgresql":
            statements = [
                f'ALTER TABLE "{table}" DISABLE TRIGGER USER',
                update,
                f'ALTER TABLE "{table}" ENABLE TRIGGER USER',
            ]
        else:
            with schema_editor.connection.cursor() as cursor:
                cursor.execute(
                    "SELECT name, sql FROM sqlite_master WHERE type = 'trigger' AND tbl_name = %s",
                    [table],
                )
                kept = cursor.fetchall()
            statements = [f'DROP TRIGGER "{name}"' for name, _ in kept]
            statements += [update] + [sql for _, sql in kept]
        for statement in statements:
            schema_editor.execute(statement, params=None)

    def database_backwards(
        self,
        app_label: str,
        schema_editor: BaseDatabaseSchemaEditor,
        from_state: ProjectState,
        to_state: ProjectState,
    ) -> None:
        # The column goes next: first its room policy, which PostgreSQL will not drop.
        model = from_state.apps.get_model(app_label, self.model_name)
        if schema_editor.connection.vendor == "postgresql" and self.allow_migrate_model(
            schema_editor.connection.alias, model
        ):
            schema_editor.execute(
                f'DROP POLICY IF EXISTS {POLICY} ON "{model._meta.db_table}"', params=None
            )

    def describe(self) -> str:
        return f"Fill the room of {self.model_name} from its {self.through or 'first room'}"

    @property
    def migration_name_fragment(self) -> str:
        return f"{self.model_name}_room"


#: the triggers set aside on each SQLite connection, by alias, until put back
_ASIDE: dict[str, list[tuple[str, str]]] = {}


def _set_aside(schema_editor: BaseDatabaseSchemaEditor) -> None:
    connection = schema_editor.connection
    if connection.vendor != "sqlite":
        return
    with connection.cursor() as cursor:
        cursor.execute("SELECT name, sql FROM sqlite_master WHERE type = 'trigger'")
        kept = cursor.fetchall()
    _ASIDE[connection.alias] = kept
    for name, _ in kept:
        schema_editor.execute(f'DROP TRIGGER "{name}"', params=None)


def _put_back(schema_editor: BaseDatabaseSchemaEditor) -> None:
    connection = schema_editor.connection
    if connection.vendor != "sqlite":
        return
    with connection.cursor() as cursor:
        cursor.execute("SELECT name FROM sqlite_master WHERE type = 'table'")
        tables = {name for (name,) in cursor.fetchall()}
        cursor.execute("SELECT name FROM sqlite_master WHERE type = 'trigger'")
        present = {name for (name,) in cursor.fetchall()}
    for name, sql in _ASIDE.pop(connection.alias, []):
        table = sql.split(" ON ", 1)[1].split()[0].strip('"`[]') if " ON " in sql else ""
        if name not in present and (not table or table in tables):
            schema_editor.execute(sql, params=None)


class SetTriggersAside(Operation):
    """Migration operation, SQLite only: drop every trigger of the database until
    :class:`PutTriggersBack`. SQLite rebuilds a table to make a column required, and
    refuses to rename the rebuilt table while another table's trigger names the old
    one; PostgreSQL alters in place and keeps its triggers (nothing to do there).
    Put ``SetTriggersAside()`` before the ``AlterField``s and ``PutTriggersBack()``
    after them, in the same migration."""

    reversible = True
    reduces_to_sql = False

    def deconstruct(self) -> tuple[str, list[Any], dict[str, Any]]:
        return (type(self).__qualname__, [], {})

    def state_forwards(self, app_label: str, state: ProjectState) -> None:
        pass

    def database_forwards(
        self,
        app_label: str,
        schema_editor: BaseDatabaseSchemaEditor,
        from_state: ProjectState,
        to_state: ProjectState,
    ) -> None:
        _set_aside(schema_editor)

    def database_backwards(
        self,
        app_label: str,
        schema_editor: BaseDatabaseSchemaEditor,
        from_state: ProjectState,
        to_state: ProjectState,
    ) -> None:
        _put_back(schema_editor)

    def describe(self) -> str:
        return "Set the triggers aside (SQLite)"


class PutTriggersBack(SetTriggersAside):
    """The triggers :class:`SetTriggersAside` dropped, created again as they were
    (those of a table the operations between dropped stay gone)."""

    def database_forwards(
        self,
        app_label: str,
        schema_editor: BaseDatabaseSchemaEditor,
        from_state: ProjectState,
        to_state: ProjectState,
    ) -> None:
        _put_back(schema_editor)

    def database_backwards(
        self,
        app_label: str,
        schema_editor: BaseDatabaseSchemaEditor,
        from_state: ProjectState,
        to_state: ProjectState,
    ) -> None:
        _set_aside(schema_editor)

    def describe(self) -> str:
        return "Put the triggers back (SQLite)"
