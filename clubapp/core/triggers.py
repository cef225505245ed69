"""The one trigger registry: every trigger of the database declared once.

A trigger is what the database itself refuses (an append-only book's UPDATE, a row on
a closed day, a ledger line beyond its hand's count…). Each app that has some lists
them in ``<app>/guards.py`` as ``TRIGGERS``, a tuple of :class:`Trigger`: its name,
its table, a group (what it is for) and its SQL on PostgreSQL and on SQLite. A trigger
that one database cannot have (PostgreSQL's deferred checks: SQLite has no deferred
triggers) has no statements there.

- **Installed** by one migration operation, ``InstallTriggers(group, model_name)``:
  the registered triggers of the group (on the model's table, when one is named),
  dropped first if they exist; backwards drops them.
- **Put back** after every ``migrate``: SQLite rebuilds a table on most ALTERs and the
  rebuilt table has no triggers. ``restore_missing`` (a ``post_migrate`` handler,
  ``clubapp/core/apps.py``) creates every registered trigger missing from a fully
  migrated database, on both databases, so no migration author has to remember it.
  A database migrated to an earlier state is left alone: its triggers are those of
  its migrations, not the registry's.
- **Lifted around a flush** on SQLite (``clubapp/core/management/commands/flush.py``).

Every trigger raises an integrity error (SQLSTATE 23000 / SQLITE_CONSTRAINT), so
Django raises ``IntegrityError``. ``clubapp/core/tests/test_triggers.py`` compares the
registry with the models and with the database's catalog.
"""

from __future__ import annotations

from dataclasses import dataclass
from importlib import import_module
from typing import Any

from django.apps import apps as global_apps
from django.db import DEFAULT_DB_ALIAS, connections, router
from django.db.backends.base.base import BaseDatabaseWrapper
from django.db.backends.base.schema import BaseDatabaseSchemaEditor
from django.db.migrations.executor import MigrationExecutor
from django.db.migrations.operations.base import Operation
from django.db.migrations.state import ProjectState
from django.utils.module_loading import module_has_submodule

VENDORS = ("postgresql", "sqlite")


@dataclass(frozen=True)
class Trigger:
    """One trigger: ``postgresql`` and ``sqlite`` are its statements on each database
    (a function it calls first, then its CREATE TRIGGER); empty where it does not exist."""

    name: str
    table: str
    group: str
    postgresql: tuple[str, ...] = ()
    sqlite: tuple[str, ...] = ()
    #: columns it needs: a migration of a state before them leaves it for later
    columns: tuple[str, ...] = ()

    def statements(self, vendor: str) -> tuple[str, ...]:
        if vendor not in VENDORS:
            raise NotImplementedError(f"the triggers are not written for {vendor}")
        return self.postgresql if vendor == "postgresql" else self.sqlite

    def exists_on(self, vendor: str) -> bool:
        return bool(self.statements(vendor))

    def drop_sql(self, vendor: str) -> list[str]:
        if not self.exists_on(vendor):
            return []
        on_table = f' ON "{self.table}"' if vendor == "postgresql" else ""
        return [f'DROP TRIGGER IF EXISTS "{self.name}"{on_table}']

    def create_sql(self, vendor: str) -> list[str]:
        """Dropped first, so that it can run again on a table that kept it."""
        return self.drop_sql(vendor) + list(self.statements(vendor))


def registry() -> list[Trigger]:
    """Every app's ``guards.TRIGGERS``, in the order of INSTALLED_APPS, then the room
    triggers that every room-keyed table has (``clubapp.core.roomguards``)."""
    from clubapp.core import roomguards

    found: list[Trigger] = []
    for app_config in global_apps.get_app_configs():
        if module_has_submodule(app_config.module, "guards"):
            found.extend(import_module(f"{app_config.name}.guards").TRIGGERS)
    found.extend(roomguards.triggers())
    names = [trigger.name for trigger in found]
    twice = sorted({name for name in names if names.count(name) > 1})
    if twice:
        raise ValueError(f"triggers declared twice: {', '.join(twice)}")
    return found


def installed(connection: BaseDatabaseWrapper) -> set[str]:
    """The names of the triggers in the database (not PostgreSQL's internal ones,
    which carry its foreign keys)."""
    with connection.cursor() as cursor:
        if connection.vendor == "postgresql":
            cursor.execute("SELECT tgname FROM pg_trigger WHERE NOT tgisinternal")
        else:
            cursor.execute("SELECT name FROM sqlite_master WHERE type = 'trigger'")
        return {name for (name,) in cursor.fetchall()}


class InstallTriggers(Operation):
    """Migration operation: install the registered triggers of ``group`` (only those on
    ``model_name``'s table, when it is given); reversible: backwards drops them.

    ``InstallTriggers("append_only", "hand")`` in a migration of the app that owns the
    model; ``InstallTriggers("play_guards")`` for a group spread over several tables.
    """

    reversible = True
    reduces_to_sql = True

    def __init__(self, group: str, model_name: str = "") -> None:
        self.group = group
        self.model_name = model_name

    def triggers(self, app_label: str, state: ProjectState) -> list[Trigger]:
        table = ""
        if self.model_name:
            table = state.apps.get_model(app_label, self.model_name)._meta.db_table
        columns = {
            model._meta.db_table: {field.column for field in model._meta.fields}
            for model in state.apps.get_models()
        }
        found = [
            trigger
            for trigger in registry()
            if trigger.group == self.group
            and (not table or trigger.table == table)
            and set(trigger.columns) <= columns.get(trigger.table, set())
        ]
        if not found:
            raise ValueError(f"no trigger registered for {self.describe()}")
        return found

    def deconstruct(self) -> tuple[str, list[Any], dict[str, Any]]:
        args = [self.group, self.model_name] if self.model_name else [self.group]
        return (type(self).__qualname__, args, {})

    def state_forwards(self, app_label: str, state: ProjectState) -> None:
        pass  # triggers are not part of Django's model state

    def _run(
        self,
        app_label: str,
        schema_editor: BaseDatabaseSchemaEditor,
        state: ProjectState,
        *,
        create: bool,
    ) -> None:
        alias = schema_editor.connection.alias
        if self.model_name:
            allowed = self.allow_migrate_model(
                alias, state.apps.get_model(app_label, self.model_name)
            )
        else:
            allowed = router.allow_migrate(alias, app_label)
        if not allowed:
            return
        vendor = schema_editor.connection.vendor
        for trigger in self.triggers(app_label, state):
            for statement in trigger.create_sql(vendor) if create else trigger.drop_sql(vendor):
                schema_editor.execute(statement, params=None)

    def database_forwards(
        self,
        app_label: str,
        schema_editor: BaseDatabaseSchemaEditor,
        from_state: ProjectState,
        to_state: ProjectState,
    ) -> None:
        self._run(app_label, schema_editor, to_state, create=True)

    def database_backwards(
        self,
        app_label: str,
        schema_editor: BaseDatabaseSchemaEditor,
        from_state: ProjectState,
        to_state: ProjectState,
    ) -> None:
        self._run(app_label, schema_editor, from_state, create=False)

    def describe(self) -> str:
        on = f" on {self.model_name}" if self.model_name else ""
        return f"Install the {self.group} triggers{on}"

    @property
    def migration_name_fragment(self) -> str:
        return "_".join(filter(None, (self.model_name, self.group)))


def fully_migrated(connection: BaseDatabaseWrapper) -> bool:
    executor = MigrationExecutor(connection)
    return not executor.migration_plan(executor.loader.graph.leaf_nodes())


def restore_missing(
    using: str = DEFAULT_DB_ALIAS, plan: list[Any] | None = None, **kwargs: Any
) -> list[str]:
    """``post_migrate``: create the registered triggers missing from a fully migrated
    database (SQLite dropped them when a migration rebuilt their table). Returns
    their names. A flush sends the signal too, without a plan: it rebuilds no table
    (and puts its triggers back itself), so there is nothing to do."""
    connection = connections[using]
    if plan is None or not fully_migrated(connection):
        return []
    present = installed(connection)
    missing = [
        trigger
        for trigger in registry()
        if trigger.exists_on(connection.vendor) and trigger.name not in present
    ]
    with connection.cursor() as cursor:
        for trigger in missing:
            for statement in trigger.create_sql(connection.vendor):
                cursor.execute(statement)
    return [trigger.name for trigger in missing]
