"""Restore a backup folder (``clubapp.core.backups``) into the configured database
(docs/operations.md "Backups and restore").

- **Into an empty database only**, unless forced: a database is empty when it has no
  tables, or when it has no account and no row of any room (what ``migrate`` and
  ``loaddefaults`` write by themselves, the role groups, the standard rulesets, the
  first room's settings, does not count); the media folder must have no file. Forced,
  the database and the media are first backed up (``<time>-before-restore``), so
  nothing is lost even then.
- **SQLite into SQLite**: SQLite's backup API copies the backup file over the target,
  page by page, in one step: triggers and all, no trigger fires.
- **PostgreSQL into PostgreSQL**: what is in the target is dropped and the dump restored
  in **one transaction** (``pg_restore`` turned into SQL, fed to ``psql
  --single-transaction``): if anything fails, the target is as it was. A dump creates
  its tables, loads their rows, and only then creates the triggers, foreign keys and
  room policies, so no trigger refuses a row, and none is left disabled. Objects are
  owned by the restoring role (the owner), privileges are granted again to the app's
  role (``db_app_role``'s statements).
- **SQLite into PostgreSQL** (moving a room's database): the target is migrated, then
  every row of every table is copied in one transaction with the tables' triggers off
  (the closed days, the frozen plans and the append-only books would refuse rows
  inserted in another order than the app wrote them) and back on before it commits; the
  primary keys are kept and the sequences moved past them; the figures are compared
  before the commit.

After the rows: the figures are compared with the manifest's, a backup of an older
release is migrated (``migrate``), and every registered trigger (and, on PostgreSQL,
room policy) must be in place and enabled.
"""

from __future__ import annotations

import shutil
import sqlite3
import subprocess
import tempfile
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from django.apps import apps
from django.conf import settings
from django.core.management import call_command
from django.core.management.color import no_style
from django.db import DEFAULT_DB_ALIAS, connections, models, transaction
from django.db.backends.base.base import BaseDatabaseWrapper
from django.db.migrations.recorder import MigrationRecorder
from django.db.utils import ConnectionHandler
from django.utils import timezone

from clubapp.core import backups
from clubapp.core.backups import BackupError
from clubapp.core.dbroles import app_role_grants
from clubapp.core.roomguards import POLICY, room_keyed_models
from clubapp.core.triggers import fully_migrated, installed, registry

#: the alias under which the move reads a SQLite backup file, read-only
SOURCE = "backup_source"

Say = Callable[[str], None]
#: (the backup's engine, the target's): the restores there are
WAYS = {("sqlite", "sqlite"), ("postgresql", "postgresql"), ("sqlite", "postgresql")}


# --------------------------------------------------------------- what is there


def ours(manifest: dict[str, Any]) -> set[str]:
    """The tables a restore may replace: this release's, and the backup's own."""
    return {m._meta.db_table for m in _copied_models()} | set(manifest["figures"])


def table_names(connection: BaseDatabaseWrapper) -> set[str]:
    if connection.vendor == "sqlite" and not Path(connection.settings_dict["NAME"]).exists():
        return set()  # (and none is made by asking)
    with connection.cursor() as cursor:
        return set(backups.table_names(cursor, connection.vendor))


def contents(connection: BaseDatabaseWrapper) -> dict[str, int]:
    """What the database holds: its tables, its accounts, its rows of a room (a row
    without a room, a standard ruleset, is every installation's)."""
    vendor = connection.vendor
    tables = table_names(connection)
    if not tables:
        return {"tables": 0, "accounts": 0, "room rows": 0}
    with connection.cursor() as cursor:
        accounts = 0
        if "auth_user" in tables:
            cursor.execute("SELECT COUNT(*) FROM auth_user")
            (accounts,) = cursor.fetchone()
        in_rooms = 0
        for model in room_keyed_models():
            table = model._meta.db_table
            if table not in tables:
                continue
            if "room_id" in backups.table_columns(cursor, vendor, table):
                cursor.execute(f'SELECT COUNT(*) FROM "{table}" WHERE room_id IS NOT NULL')
            elif table != "play_rulesetversion":  # a release before the rooms
                cursor.execute(f'SELECT COUNT(*) FROM "{table}"')
            else:
                continue
            in_rooms += cursor.fetchone()[0]
    return {"tables": len(tables), "accounts": int(accounts), "room rows": int(in_rooms)}


def is_empty(found: dict[str, int]) -> bool:
    return found["tables"] == 0 or (found["accounts"] == 0 and found["room rows"] == 0)


def guard_problems(connection: BaseDatabaseWrapper) -> list[str]:
    """What is missing of the database's own guards: every registered trigger present
    (and enabled, on PostgreSQL), every room-keyed table under its room policy."""
    if not fully_migrated(connection):
        return ["the database is not fully migrated"]
    problems = []
    present = installed(connection)
    for trigger in registry():
        if trigger.exists_on(connection.vendor) and trigger.name not in present:
            problems.append(f"trigger {trigger.name} is missing")
    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute(
                "SELECT tgname FROM pg_trigger WHERE NOT tgisinternal AND tgenabled = 'D'"
            )
            problems += [f"trigger {name} is disabled" for (name,) in cursor.fetchall()]
            for model in room_keyed_models():
                table = model._meta.db_table
                cursor.execute(
                    "SELECT c.relrowsecurity, EXISTS (SELECT 1 FROM pg_policy p "
                    "WHERE p.polrelid = c.oid AND p.polname = %s) "
                    "FROM pg_class c WHERE c.oid = %s::regclass",
                    [POLICY, f'"{table}"'],
                )
                if cursor.fetchone() != (True, True):
                    problems.append(f"{table} has no room policy")
    return problems


# ------------------------------------------------------------------- the copies


def _restore_sqlite(folder: Path, connection: BaseDatabaseWrapper) -> None:
    name = str(connection.settings_dict["NAME"])
    if name == ":memory:" or "mode=memory" in name:
        raise BackupError("the target is an in-memory database: restore into a file")
    connection.close()
    Path(name).parent.mkdir(parents=True, exist_ok=True)
    source = sqlite3.connect(f"file:{folder / backups.SQLITE_FILE}?mode=ro", uri=True)
    target = sqlite3.connect(name)
    try:
        source.backup(target)
    finally:
        target.close()
        source.close()


def _drop_everything(cursor: Any) -> list[str]:
    """The statements that empty the current schema of what the app made: its tables
    (with their triggers, policies and sequences) and its trigger functions. Called
    once :func:`restore` has made sure that every table there is the app's."""
    cursor.execute(
        "SELECT format('DROP TABLE IF EXISTS %I.%I CASCADE;', schemaname, tablename) "
        "FROM pg_tables WHERE schemaname = current_schema()"
    )
    statements = [row[0] for row in cursor.fetchall()]
    cursor.execute(
        "SELECT format('DROP FUNCTION IF EXISTS %s CASCADE;', p.oid::regprocedure) "
        "FROM pg_proc p WHERE p.pronamespace = current_schema()::regnamespace "
        "AND p.prorettype = 'trigger'::regtype "
        "AND NOT EXISTS (SELECT 1 FROM pg_depend d WHERE d.objid = p.oid AND d.deptype = 'e')"
    )
    statements += [row[0] for row in cursor.fetchall()]
    return statements


def _restore_postgres(
    folder: Path, manifest: dict[str, Any], connection: BaseDatabaseWrapper
) -> None:
    dump = folder / backups.DUMP_FILE
    made_by = manifest["pg_dump_version"]
    if backups.major(backups.tool_version("pg_restore")) < backups.major(made_by):
        raise BackupError(
            f"the dump was made by pg_dump {made_by}, newer than this pg_restore: install "
            f"postgresql-client-{backups.major(made_by)} and put its bin folder first in PATH"
        )
    with connection.cursor() as cursor:
        drops = _drop_everything(cursor)
    connection.close()
    psql, env = backups.pg_command(
        "psql",
        connection,
        ["-X", "-q", "-v", "ON_ERROR_STOP=1", "--single-transaction", "-f", "-"],
    )
    with tempfile.TemporaryFile() as errors, tempfile.TemporaryFile() as restore_errors:
        loader = subprocess.Popen(
            ["pg_restore", "--no-owner", "--no-privileges", "-f", "-", str(dump)],
            stdout=subprocess.PIPE,
            stderr=restore_errors,
        )
        shell = subprocess.Popen(
            psql, env=env, stdin=subprocess.PIPE, stdout=subprocess.DEVNULL, stderr=errors
        )
        assert loader.stdout is not None and shell.stdin is not None
        try:
            shell.stdin.write("".join(f"{s}\n" for s in drops).encode())
            shutil.copyfileobj(loader.stdout, shell.stdin, 1 << 20)
            shell.stdin.close()
        except BrokenPipeError:
            pass  # psql stopped at an error (its message says which) and rolled back
        finally:
            loader.stdout.close()  # pg_restore, if still writing, stops too
        applied, loaded = shell.wait(), loader.wait()
        if applied or loaded:
            restore_errors.seek(0)
            errors.seek(0)
            message = (restore_errors.read() + errors.read()).decode(errors="replace").strip()
            raise BackupError(f"nothing was changed: the restore failed: {message}")


@contextmanager
def _read_only_sqlite(path: Path) -> Iterator[BaseDatabaseWrapper]:
    """The backup file as a Django database (alias SOURCE), read-only: its rows come out
    as Django reads them (decimals, dates, JSON), to be written as PostgreSQL takes them."""
    handler = ConnectionHandler(
        {
            DEFAULT_DB_ALIAS: {"ENGINE": "django.db.backends.dummy"},
            SOURCE: {"ENGINE": "django.db.backends.sqlite3", "NAME": f"file:{path}?mode=ro"},
        }
    )
    source = handler[SOURCE]
    connections[SOURCE] = source
    try:
        yield source
    finally:
        source.close()
        del connections[SOURCE]


def _copied_models() -> list[type[models.Model]]:
    found = [
        model
        for model in apps.get_models(include_auto_created=True)
        if model._meta.managed and not model._meta.proxy
    ]
    return [*found, MigrationRecorder.Migration]


def _copy_rows(model: type[models.Model], cursor: Any, target: BaseDatabaseWrapper) -> int:
    fields = list(model._meta.concrete_fields)
    columns = ", ".join(target.ops.quote_name(f.column) for f in fields)
    rows = (
        model._base_manager.using(SOURCE)
        .order_by("pk")
        .values_list(*[f.attname for f in fields])
        .iterator(chunk_size=2000)
    )
    count = 0
    with cursor.copy(
        f"COPY {target.ops.quote_name(model._meta.db_table)} ({columns}) FROM STDIN"
    ) as copy:
        for row in rows:
            copy.write_row(
                [f.get_db_prep_save(v, connection=target) for f, v in zip(fields, row, strict=True)]
            )
            count += 1
    return count


def _move_sqlite_into_postgres(
    folder: Path, manifest: dict[str, Any], connection: BaseDatabaseWrapper, say: Say, detail: Say
) -> None:
    copied = _copied_models()
    tables = [m._meta.db_table for m in copied]
    with _read_only_sqlite(folder / backups.SQLITE_FILE) as source:
        if not fully_migrated(source):
            raise BackupError(
                "the backup was made by an older release: restore it into SQLite, run "
                "migrate there, back it up again and move that (docs/operations.md)"
            )
        with source.cursor() as cursor:
            unknown = set(backups.table_names(cursor, "sqlite")) - set(tables)
        if unknown:
            raise BackupError(f"tables this release does not know: {', '.join(sorted(unknown))}")
        say("Migrating the target…")
        call_command("migrate", database=connection.alias, interactive=False, verbosity=0)
        quote = connection.ops.quote_name
        with transaction.atomic(using=connection.alias), connection.cursor() as cursor:
            # What migrate wrote (groups, content types, the standard rulesets) goes: the
            # backup's own rows, with their keys, take its place. TRUNCATE fires no trigger.
            cursor.execute("TRUNCATE " + ", ".join(quote(t) for t in tables))
            for table in tables:
                cursor.execute(f"ALTER TABLE {quote(table)} DISABLE TRIGGER USER")
            total = 0
            for model in copied:
                count = _copy_rows(model, cursor, connection)
                detail(f"  {model._meta.db_table}: {count}")
                total += count
            # The foreign keys (deferred) are checked now, then the triggers go back on:
            # PostgreSQL alters no table with checks pending.
            cursor.execute("SET CONSTRAINTS ALL IMMEDIATE")
            for table in tables:
                cursor.execute(f"ALTER TABLE {quote(table)} ENABLE TRIGGER USER")
            for statement in connection.ops.sequence_reset_sql(no_style(), copied):
                cursor.execute(statement)
            cursor.execute("SET LOCAL row_security = off")
            wrong = backups.differences(
                manifest["figures"], backups.figures(cursor, connection.vendor)
            )
            if wrong:
                raise BackupError("nothing was changed: the copy differs: " + "; ".join(wrong))
        say(f"Copied {total} rows of {len(copied)} tables; keys and sequences kept.")


def _replace_media(folder: Path, say: Say) -> None:
    """The backup's media become MEDIA_ROOT; a folder that had files is kept aside
    (renamed), never deleted."""
    media = Path(settings.MEDIA_ROOT)
    incoming = media.with_name(media.name + ".restoring")
    if incoming.exists():
        shutil.rmtree(incoming)
    shutil.copytree(folder / backups.MEDIA, incoming)
    if media.exists():
        if backups.media_files(media):
            aside = media.with_name(f"{media.name}.before-{backups.stamp()}")
            media.rename(aside)
            say(f"The media folder as it was: {aside}")
        else:
            shutil.rmtree(media)
    incoming.rename(media)


def _grant_app_role(connection: BaseDatabaseWrapper, say: Say) -> None:
    """Restored objects belong to the owner; the app's role gets its privileges again."""
    app = settings.DATABASES[DEFAULT_DB_ALIAS]
    owner = connection.settings_dict
    if connection.alias == DEFAULT_DB_ALIAS or app["USER"] == owner["USER"] or not app["USER"]:
        return
    with connection.cursor() as cursor:
        cursor.execute("SELECT current_user")
        (me,) = cursor.fetchone()
        for statement in app_role_grants(role=app["USER"], owner=me):
            cursor.execute(statement)
    say(f"Privileges granted to {app['USER']}.")


# ------------------------------------------------------------------ the restore


def _check_role(connection: BaseDatabaseWrapper) -> None:
    app = settings.DATABASES[DEFAULT_DB_ALIAS]
    if connection.alias == DEFAULT_DB_ALIAS or not app["USER"]:
        return
    with connection.cursor() as cursor:
        cursor.execute("SELECT 1 FROM pg_roles WHERE rolname = %s", [app["USER"]])
        if cursor.fetchone() is None:
            raise BackupError(
                f"the app's role {app['USER']} does not exist: create it first "
                "(docs/operations.md, the database roles)"
            )


def restore(
    folder: Path,
    *,
    force: bool = False,
    say: Say = lambda line: None,
    detail: Say = lambda line: None,
) -> dict[str, Any]:
    """Restore ``folder`` into the configured database (its owner alias) and MEDIA_ROOT.
    ``say`` tells each step, ``detail`` the rows of each table moved. Returns the
    manifest."""
    folder = Path(folder)
    manifest = backups.read_manifest(folder)
    newer = set(manifest["migrations"]) - backups.known_migrations()
    if newer:
        raise BackupError(
            "the backup was made by a newer release (migrations "
            + ", ".join(sorted(newer))
            + "): install that release first"
        )
    alias = backups.database_alias()
    connection = connections[alias]
    engines = (manifest["engine"], connection.vendor)
    if engines not in WAYS:
        raise BackupError(f"a {engines[0]} backup does not restore into {engines[1]}")
    if connection.vendor == "postgresql":
        _check_role(connection)
    foreign = sorted(table_names(connection) - ours(manifest))
    if foreign:
        # A restore replaces the whole database: never another application's tables.
        raise BackupError(
            "the database holds tables that are not this app's ("
            + ", ".join(foreign[:5])
            + (", …" if len(foreign) > 5 else "")
            + "): restore into a database of its own; nothing was changed"
        )
    found = contents(connection)
    media = backups.media_files(Path(settings.MEDIA_ROOT))
    if not (is_empty(found) and not media):
        what = (
            f"the database has {found['accounts']} accounts and {found['room rows']} rows "
            f"of rooms; the media folder has {len(media)} files"
        )
        if not force:
            raise BackupError(f"the target is not empty ({what}): nothing was changed")
        aside, _ = backups.backup(
            out=Path(settings.BACKUP_ROOT) / f"{backups.stamp()}-before-restore", alias=alias
        )
        say(f"The target was not empty ({what}); it is backed up in {aside}")

    say(f"Restoring {folder} ({manifest['engine']}, made {manifest['created']})…")
    if engines == ("sqlite", "sqlite"):
        _restore_sqlite(folder, connection)
    elif engines == ("postgresql", "postgresql"):
        _restore_postgres(folder, manifest, connection)
    else:
        if not is_empty(found):  # forced: backed up above
            with connection.cursor() as cursor:
                drops = _drop_everything(cursor)
                for statement in drops:
                    cursor.execute(statement)
            say(f"Emptied the target ({len(drops)} objects).")
        _move_sqlite_into_postgres(folder, manifest, connection, say, detail)

    with connection.cursor() as cursor:
        if connection.vendor == "postgresql":
            cursor.execute("SET row_security = off")
        wrong = backups.differences(manifest["figures"], backups.figures(cursor, connection.vendor))
    if wrong:
        raise BackupError("the restored database differs from the backup: " + "; ".join(wrong))
    say(f"Every table's rows and sums are the backup's ({len(manifest['figures'])} tables).")
    _replace_media(folder, say)
    if not fully_migrated(connection):
        say("The backup is of an older release: migrating…")
        call_command("migrate", database=alias, interactive=False, verbosity=0)
    if connection.vendor == "postgresql":
        _grant_app_role(connection, say)
    problems = guard_problems(connection)
    if problems:
        raise BackupError("restored, but the guards are not right: " + "; ".join(problems))
    say(f"Restored at {timezone.now():%Y-%m-%d %H:%M:%S} UTC; every trigger is in place.")
    return manifest
