"""Backups that restore (docs/operations.md "Backups and restore").

A backup is one folder, written under a temporary name and renamed when complete (a
folder without ``.partial`` is a whole backup)::

    backups/20261207T152400Z/
        manifest.json   when, which engine and versions, the migrations applied, the
                        database file's SHA-256, every table's row count and sums
        db.sqlite3      SQLite: a copy by SQLite's online backup API
        db.dump         PostgreSQL: ``pg_dump -Fc``
        media/          the uploaded photos (MEDIA_ROOT)

- **SQLite**: ``sqlite3.Connection.backup`` copies the database page by page under a
  read lock: a consistent copy while the app reads and writes (a file copy of a
  database being written can be torn).
- **PostgreSQL**: ``pg_dump`` of a snapshot that this module exports from a REPEATABLE
  READ transaction in which it also counts the rows, so the manifest's figures are
  those of the dump exactly, whatever the app writes meanwhile. It runs as the owner
  role (the ``owner`` alias when MIGRATE_DATABASE_URL is set): the tables' owner is not
  subject to the room policies. Both run with ``row_security = off``: a role that a
  policy would filter gets an error, never a dump that silently lacks other rooms' rows.

The figures (:func:`figures`) are the check of a restore: every table's row count and
the sums of its integer columns (keys included, so a changed id shows) and of its
decimal columns in hundredths (the money), compared after every restore.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import shutil
import sqlite3
import subprocess
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from django.apps import apps
from django.conf import settings
from django.db import DEFAULT_DB_ALIAS, connections, models, transaction
from django.db.backends.base.base import BaseDatabaseWrapper
from django.db.migrations.loader import MigrationLoader
from django.db.migrations.recorder import MigrationRecorder
from django.utils import timezone

FORMAT = 1
MANIFEST = "manifest.json"
SQLITE_FILE = "db.sqlite3"
DUMP_FILE = "db.dump"
MEDIA = "media"
PARTIAL = ".partial"
#: the figures' name for a table's row count (no column of ours is called that)
ROWS = "rows"


class BackupError(Exception):
    """A backup or restore that cannot go on: the message says why and what to do."""


Figures = dict[str, dict[str, int]]


def database_alias() -> str:
    """The alias that backs up and restores: the owner role's, when there is one."""
    return "owner" if "owner" in settings.DATABASES else DEFAULT_DB_ALIAS


def stamp() -> str:
    """A backup's default name: the time in UTC, as the logs write it."""
    return timezone.now().strftime("%Y%m%dT%H%M%SZ")


# ------------------------------------------------------------------- the figures


def _summed_columns() -> dict[str, dict[str, int]]:
    """Per table, the columns summed and their scale: the integer columns (keys and
    references included) and the decimals, from the models, so that SQLite and
    PostgreSQL sum the same columns whatever their declared types."""
    found: dict[str, dict[str, int]] = {}
    tables = list(apps.get_models(include_auto_created=True)) + [MigrationRecorder.Migration]
    for model in tables:
        columns = found.setdefault(model._meta.db_table, {})
        for field in model._meta.concrete_fields:
            target = field.target_field if isinstance(field, models.ForeignKey) else field
            if isinstance(target, models.DecimalField):
                columns[field.column] = target.decimal_places
            elif isinstance(target, models.IntegerField):
                columns[field.column] = 0
    return found


def _literal(name: str) -> str:
    return "'" + name.replace("'", "''") + "'"


def _quote(name: str) -> str:
    return '"' + name.replace('"', '""') + '"'


def table_names(cursor: Any, vendor: str) -> list[str]:
    if vendor == "sqlite":
        cursor.execute(
            "SELECT name FROM sqlite_master WHERE type = 'table' "
            "AND name NOT LIKE 'sqlite\\_%' ESCAPE '\\' ORDER BY name"
        )
    else:
        cursor.execute(
            "SELECT tablename FROM pg_tables WHERE schemaname = current_schema() ORDER BY 1"
        )
    return [name for (name,) in cursor.fetchall()]


def table_columns(cursor: Any, vendor: str, table: str) -> set[str]:
    if vendor == "sqlite":
        cursor.execute(f"SELECT name FROM pragma_table_info({_literal(table)})")
    else:
        cursor.execute(
            "SELECT column_name FROM information_schema.columns "
            f"WHERE table_schema = current_schema() AND table_name = {_literal(table)}"
        )
    return {name for (name,) in cursor.fetchall()}


def figures(cursor: Any, vendor: str) -> Figures:
    """Every table's row count (``rows``) and the sums of its integer and decimal
    columns (decimals as integers of their smallest unit: 12.50 元 counts 1250).
    Works on a Django cursor or a bare ``sqlite3`` one (no parameters are used)."""
    summed = _summed_columns()
    found: Figures = {}
    for table in table_names(cursor, vendor):
        present = table_columns(cursor, vendor, table)
        columns = [(c, scale) for c, scale in summed.get(table, {}).items() if c in present]
        sums = "".join(
            f", SUM({_quote(c)})"
            if not scale
            else f", SUM(CAST(ROUND({_quote(c)} * {10**scale}) AS BIGINT))"
            for c, scale in columns
        )
        cursor.execute(f"SELECT COUNT(*){sums} FROM {_quote(table)}")
        row = cursor.fetchone()
        found[table] = {ROWS: int(row[0])}
        found[table].update(
            {c: int(value or 0) for (c, _), value in zip(columns, row[1:], strict=True)}
        )
    return found


def differences(expected: Figures, found: Figures) -> list[str]:
    """What differs between two sets of figures, one line per table."""
    lines = []
    for table in sorted(set(expected) | set(found)):
        if table not in found:
            lines.append(f"{table}: missing")
        elif table not in expected:
            lines.append(f"{table}: not in the backup")
        elif expected[table] != found[table]:
            wrong = {
                key: (expected[table].get(key), found[table].get(key))
                for key in set(expected[table]) | set(found[table])
                if expected[table].get(key) != found[table].get(key)
            }
            lines.append(f"{table}: expected/found {wrong}")
    return lines


def applied_migrations(cursor: Any, vendor: str) -> list[str]:
    """``app.name`` of every migration applied, from the database's own record."""
    if "django_migrations" not in table_names(cursor, vendor):
        return []
    cursor.execute("SELECT app, name FROM django_migrations ORDER BY app, name")
    return [f"{app}.{name}" for app, name in cursor.fetchall()]


def known_migrations() -> set[str]:
    """Every migration this release has on disk (squashed ones and those they replace)."""
    loader = MigrationLoader(None, ignore_no_migrations=True)
    return {f"{app}.{name}" for app, name in loader.disk_migrations}


# ----------------------------------------------------------------- the pieces


def sha256(path: Path) -> str:
    digest = hashlib.sha256()
    with open(path, "rb") as file:
        for block in iter(lambda: file.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def media_files(root: Path) -> dict[str, int]:
    """The files under ``root`` (relative paths) and their sizes."""
    if not root.is_dir():
        return {}
    return {
        str(path.relative_to(root)): path.stat().st_size
        for path in sorted(root.rglob("*"))
        if path.is_file()
    }


def major(version: str) -> int:
    match = re.search(r"(\d+)(?:\.\d+)?", version)
    if not match:
        raise BackupError(f"cannot read a PostgreSQL version in {version!r}")
    return int(match.group(1))


def tool_version(tool: str) -> str:
    """``pg_dump --version`` and the like: "15.20"."""
    if shutil.which(tool) is None:
        raise BackupError(f"{tool} is not installed: apt-get install postgresql-client")
    answer = subprocess.run([tool, "--version"], capture_output=True, text=True, check=True)
    match = re.search(r"\d+(?:\.\d+)?", answer.stdout)
    return match.group(0) if match else answer.stdout.strip()


def server_version(connection: BaseDatabaseWrapper) -> str:
    with connection.cursor() as cursor:
        cursor.execute("SHOW server_version")
        (version,) = cursor.fetchone()
    return str(version).split()[0]


def pg_command(
    tool: str, connection: BaseDatabaseWrapper, parameters: list[str]
) -> tuple[list[str], dict[str, str]]:
    """The command line and environment of a PostgreSQL client tool for ``connection``'s
    settings: Django's own ``dbshell`` arguments, the password in the environment."""
    args, env = connection.client.settings_to_cmd_args_env(connection.settings_dict, parameters)
    return [tool, *args[1:]], {**os.environ, **(env or {})}


def run(args: list[str], env: dict[str, str], what: str) -> None:
    answer = subprocess.run(args, env=env, capture_output=True, text=True)
    if answer.returncode != 0:
        raise BackupError(f"{what} failed ({answer.returncode}): {answer.stderr.strip()}")


@contextmanager
def snapshot(connection: BaseDatabaseWrapper) -> Iterator[tuple[Any, str]]:
    """A read-only REPEATABLE READ transaction with row security off, and its exported
    snapshot: ``pg_dump --snapshot`` sees exactly what this transaction sees."""
    with transaction.atomic(using=connection.alias), connection.cursor() as cursor:
        cursor.execute("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ, READ ONLY")
        cursor.execute("SET LOCAL row_security = off")
        cursor.execute("SELECT pg_export_snapshot()")
        (name,) = cursor.fetchone()
        yield cursor, name


# ------------------------------------------------------------------- the backup


def _backup_sqlite(connection: BaseDatabaseWrapper, folder: Path) -> dict[str, Any]:
    target = folder / SQLITE_FILE
    connection.ensure_connection()
    copy = sqlite3.connect(target)
    try:
        # One step (pages=-1): the whole database under one read lock, so a consistent
        # copy whatever the app writes before or after.
        connection.connection.backup(copy)
        (check,) = copy.execute("PRAGMA integrity_check").fetchone()
        if check != "ok":
            raise BackupError(f"the copy fails SQLite's integrity check: {check}")
        cursor = copy.cursor()
        found = figures(cursor, "sqlite")
        migrations = applied_migrations(cursor, "sqlite")
    finally:
        copy.close()
    return {
        "engine": "sqlite",
        "database_file": SQLITE_FILE,
        "sqlite_version": sqlite3.sqlite_version,
        "migrations": migrations,
        "figures": found,
    }


def _backup_postgres(connection: BaseDatabaseWrapper, folder: Path) -> dict[str, Any]:
    server = server_version(connection)
    client = tool_version("pg_dump")
    if major(client) < major(server):
        raise BackupError(
            f"pg_dump {client} is older than the server ({server}): install "
            f"postgresql-client-{major(server)} and put its bin folder first in PATH"
        )
    target = folder / DUMP_FILE
    with snapshot(connection) as (cursor, name):
        args, env = pg_command(
            "pg_dump", connection, ["-Fc", "-w", f"--snapshot={name}", "-f", str(target)]
        )
        run(args, env, "pg_dump")
        found = figures(cursor, "postgresql")
        migrations = applied_migrations(cursor, "postgresql")
    return {
        "engine": "postgresql",
        "database_file": DUMP_FILE,
        "server_version": server,
        "pg_dump_version": client,
        "migrations": migrations,
        "figures": found,
    }


def backup(*, out: Path | None = None, alias: str | None = None) -> tuple[Path, dict[str, Any]]:
    """Write a backup folder (``out``, or BACKUP_ROOT/<UTC time>): the database first,
    then the media. Returns the folder and its manifest."""
    alias = alias or database_alias()
    connection = connections[alias]
    folder = Path(out) if out else Path(settings.BACKUP_ROOT) / stamp()
    if folder.exists() and any(folder.iterdir()):
        raise BackupError(f"{folder} exists and is not empty: choose another --out")
    partial = folder.with_name(folder.name + PARTIAL)
    if partial.exists():
        shutil.rmtree(partial)  # what an interrupted backup of the same name left
    partial.parent.mkdir(parents=True, exist_ok=True)
    # Accounts' password hashes, encrypted ID numbers, members' photos: owner only.
    partial.mkdir(mode=0o700)
    try:
        if connection.vendor == "sqlite":
            manifest = _backup_sqlite(connection, partial)
        elif connection.vendor == "postgresql":
            manifest = _backup_postgres(connection, partial)
        else:
            raise BackupError(f"no backup for {connection.vendor}")
        media = Path(settings.MEDIA_ROOT)
        if media.is_dir():
            shutil.copytree(media, partial / MEDIA)
        else:
            (partial / MEDIA).mkdir()
        files = media_files(partial / MEDIA)
        manifest = {
            "format": FORMAT,
            "created": timezone.now().isoformat(timespec="seconds").replace("+00:00", "Z"),
            **manifest,
            "sha256": sha256(partial / manifest["database_file"]),
            "media": {"files": len(files), "bytes": sum(files.values())},
        }
        (partial / MANIFEST).write_text(
            json.dumps(manifest, indent=1, ensure_ascii=False, sort_keys=True) + "\n"
        )
        if folder.exists():
            folder.rmdir()  # empty, checked above
        partial.rename(folder)
    except BaseException:
        shutil.rmtree(partial, ignore_errors=True)
        raise
    return folder, manifest


def read_manifest(folder: Path) -> dict[str, Any]:
    """The manifest of a backup folder, after checking that its database file is the
    one the manifest describes (a truncated copy or a wrong folder is refused)."""
    path = Path(folder) / MANIFEST
    if not path.is_file():
        raise BackupError(f"{folder} is not a backup: no {MANIFEST}")
    manifest: dict[str, Any] = json.loads(path.read_text())
    if manifest.get("format") != FORMAT:
        raise BackupError(f"{folder}: backup format {manifest.get('format')!r} is unknown")
    database = Path(folder) / manifest["database_file"]
    if not database.is_file() or sha256(database) != manifest["sha256"]:
        raise BackupError(f"{database} is missing or damaged: its SHA-256 is not the manifest's")
    files = media_files(Path(folder) / MEDIA)
    if {"files": len(files), "bytes": sum(files.values())} != manifest["media"]:
        raise BackupError(f"{folder}/{MEDIA} is not what the manifest lists")
    return manifest
