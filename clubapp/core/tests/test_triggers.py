"""The one trigger registry (clubapp/core/triggers.py): every append-only and guarded
table is in it, the models agree with it, every trigger it declares is in the
database's catalog (``sqlite_master`` / ``pg_trigger``) and nothing else is, a
migration installs each, and ``migrate`` puts back the triggers of a table that SQLite
rebuilt. Run on SQLite and on PostgreSQL (``DATABASE_URL``)."""

from __future__ import annotations

import pytest
from django.apps import apps
from django.core.management import call_command
from django.db import connection, models
from django.db.migrations.loader import MigrationLoader

from clubapp.books.models.base import BookDated
from clubapp.core.appendonly import GROUP, AppendOnlyModel
from clubapp.core.triggers import InstallTriggers, Trigger, installed, registry

GUARDED = {
    # table: the groups of its triggers besides append-only
    "books_incomeentry": {"closed_day"},
    "books_handoverslip": {"closed_day"},
    "books_slipdecision": {"closed_day"},
    "books_expense": {"closed_day"},
    "books_reversal": {"closed_day"},
    "books_purchaseplan": {"plan_frozen"},
    "books_plandraftline": {"plan_frozen"},
    "play_ledgerline": {"play_zero_sum", "play_guards"},
    "play_hand": {"play_guards"},
    "play_seat": {"play_guards"},
    "play_tablesession": {"play_guards"},
    "play_handsignoff": {"play_guards"},
}


def concrete(base: type[models.Model]) -> list[type[models.Model]]:
    return [m for m in apps.get_models() if issubclass(m, base) and not m._meta.abstract]


def tables(group: str) -> set[str]:
    return {trigger.table for trigger in registry() if trigger.group == group}


def test_every_append_only_model_is_in_the_registry_and_nothing_else():
    assert tables(GROUP) == {model._meta.db_table for model in concrete(AppendOnlyModel)}


def test_every_dated_book_has_its_closed_day_guard():
    assert tables("closed_day") == {model._meta.db_table for model in concrete(BookDated)}


def test_the_guarded_tables_are_the_ones_expected():
    groups: dict[str, set[str]] = {}
    for trigger in registry():
        if trigger.group != GROUP and not trigger.group.startswith("rooms_"):
            groups.setdefault(trigger.table, set()).add(trigger.group)
    assert groups == GUARDED


def test_every_trigger_is_on_a_table_of_the_models():
    model_tables = {model._meta.db_table for model in apps.get_models()}
    assert {trigger.table for trigger in registry()} <= model_tables


def test_every_trigger_exists_somewhere_and_is_named_in_its_sql():
    for trigger in registry():
        assert trigger.postgresql or trigger.sqlite, trigger.name
        for vendor in ("postgresql", "sqlite"):
            if trigger.exists_on(vendor):
                assert trigger.name in trigger.statements(vendor)[-1], trigger.name
                assert trigger.table in trigger.statements(vendor)[-1], trigger.name


def test_a_trigger_declared_twice_is_refused(monkeypatch):
    from clubapp.members import guards

    monkeypatch.setattr(guards, "TRIGGERS", guards.TRIGGERS + guards.TRIGGERS[:1])
    with pytest.raises(ValueError, match="declared twice"):
        registry()


def test_a_database_not_written_for_is_refused():
    with pytest.raises(NotImplementedError):
        Trigger("t", "x", "g", sqlite=("CREATE TRIGGER t",)).create_sql("oracle")


def test_a_migration_installs_every_group_of_triggers():
    loader = MigrationLoader(None, ignore_no_migrations=True)
    state = loader.project_state()
    covered: set[str] = set()
    for (app_label, _), migration in loader.graph.nodes.items():
        for operation in migration.operations:
            if isinstance(operation, InstallTriggers):
                covered |= {t.name for t in operation.triggers(app_label, state)}
    assert covered == {trigger.name for trigger in registry()}


def test_an_operation_that_finds_no_trigger_is_refused():
    state = MigrationLoader(None, ignore_no_migrations=True).project_state()
    with pytest.raises(ValueError, match="no trigger registered"):
        InstallTriggers("append_only", "seat").triggers("play", state)
    assert InstallTriggers("play_guards").describe() == "Install the play_guards triggers"
    assert InstallTriggers("append_only", "hand").migration_name_fragment == "hand_append_only"
    assert InstallTriggers("closed_day", "expense").deconstruct() == (
        "InstallTriggers",
        ["closed_day", "expense"],
        {},
    )


@pytest.mark.django_db
def test_the_database_has_every_registered_trigger_and_no_other():
    expected = {t.name for t in registry() if t.exists_on(connection.vendor)}
    assert installed(connection) == expected


def _drop(names: list[str]) -> None:
    by_name = {trigger.name: trigger for trigger in registry()}
    with connection.cursor() as cursor:
        for name in names:
            for statement in by_name[name].drop_sql(connection.vendor):
                cursor.execute(statement)


@pytest.mark.django_db(transaction=True)
def test_migrate_puts_back_the_triggers_a_table_lost():
    lost = [
        t.name
        for t in registry()
        if t.table == "play_ledgerline" and t.exists_on(connection.vendor)
    ]
    _drop(lost)
    assert not set(lost) & installed(connection)
    call_command("migrate", verbosity=0)
    assert set(lost) <= installed(connection)


@pytest.mark.django_db(transaction=True)
@pytest.mark.skipif(connection.vendor != "sqlite", reason="SQLite rebuilds a table on ALTER")
def test_a_table_sqlite_rebuilt_gets_its_triggers_back():
    from clubapp.play.models import Settlement

    field = Settlement._meta.get_field("number")
    changed = field.clone()
    changed.set_attributes_from_name(field.name)
    changed.model = Settlement
    changed.null = not field.null  # SQLite remakes the table for this ALTER
    with connection.schema_editor() as editor:
        editor.alter_field(Settlement, field, changed)
    ours = {t.name for t in registry() if t.table == "play_settlement" and t.exists_on("sqlite")}
    assert not ours & installed(connection)  # the rebuild dropped them
    with connection.schema_editor() as editor:
        editor.alter_field(Settlement, changed, field)
    call_command("migrate", verbosity=0)
    assert ours <= installed(connection)


@pytest.mark.django_db
def test_a_database_migrated_back_or_flushed_is_left_alone(monkeypatch):
    from clubapp.core import triggers

    _drop(["play_seat_frozen_insert"])
    assert triggers.restore_missing(using=connection.alias) == []  # a flush: no plan
    monkeypatch.setattr(triggers, "fully_migrated", lambda connection: False)
    assert triggers.restore_missing(using=connection.alias, plan=[]) == []
    monkeypatch.undo()
    assert triggers.restore_missing(using=connection.alias, plan=[]) == ["play_seat_frozen_insert"]
