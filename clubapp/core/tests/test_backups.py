"""Backups that restore, and the move from SQLite to PostgreSQL (issue 26.3 and 26.6;
docs/operations.md "Backups and restore").

The two-room demo is made in a SQLite file (pytest's own SQLite database lives in
memory, out of the commands' reach) by ``manage.py migrate`` and ``demo --rooms 2``,
and every command runs as an operator runs it, in a subprocess. The comparisons are the
tests' own (:func:`tally`, plain SQL read from the catalog, and ``dumpdata``), not the
figures the commands check themselves: every table's row count and the sums of its
integer and decimal columns (the points ledger, income, expenses, hand-over slips,
receipts… and every key), every field of every row, every media file's bytes, every
trigger.

The SQLite restores run in the suite's SQLite run. In its PostgreSQL run the SQLite
backup is restored into a fresh PostgreSQL database (the move), a hand and a receipt
are booked there, that database is backed up with pg_dump and restored into another
under the two production roles, and a dump by the app's plain role is refused. The
scratch databases and roles are named after the suite's database and dropped after.
"""

from __future__ import annotations

import json
import os
import shutil
import sqlite3
import subprocess
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import psycopg
import pytest
from django.conf import settings
from django.db import connection

from clubapp.core.dbroles import app_role_grants
from clubapp.core.triggers import registry

on_postgres = pytest.mark.skipif(
    connection.vendor != "postgresql",
    reason="needs the PostgreSQL server of the suite's PostgreSQL run (DATABASE_URL)",
)

#: the SQLite restores are the same in both runs of the suite: they run in the SQLite one
sqlite_run = pytest.mark.skipif(
    connection.vendor != "sqlite", reason="runs in the suite's SQLite run (SQLite files only)"
)

#: the variables of this run that must not reach the commands' own settings
OURS = {"DATABASE_URL", "MIGRATE_DATABASE_URL", "MEDIA_ROOT", "BACKUP_ROOT"}


@dataclass
class Site:
    """One installation: its database URL, its media and backups folders."""

    url: str
    media: Path
    backups: Path
    owner_url: str = ""

    def env(self) -> dict[str, str]:
        env = {k: v for k, v in os.environ.items() if k not in OURS}
        env.update(
            DEBUG="1",
            DATABASE_URL=self.url,
            MEDIA_ROOT=str(self.media),
            BACKUP_ROOT=str(self.backups),
        )
        if self.owner_url:
            env["MIGRATE_DATABASE_URL"] = self.owner_url
        return env

    def manage(self, *args: str, ok: bool = True) -> subprocess.CompletedProcess[str]:
        done = subprocess.run(
            [sys.executable, "manage.py", *args],
            cwd=settings.BASE_DIR,
            env=self.env(),
            capture_output=True,
            text=True,
            timeout=900,
        )
        if ok:
            assert done.returncode == 0, done.stdout + done.stderr
        return done


def sqlite_site(folder: Path) -> Site:
    return Site(f"sqlite:///{folder / 'db.sqlite3'}", folder / "media", folder / "backups")


# ----------------------------------------------------------- the tests' own eyes


def tally(cursor: Any, vendor: str) -> dict[str, dict[str, int]]:
    """Every table's row count and the sums of its integer and decimal columns (in
    hundredths), read from the database's catalog alone."""
    if vendor == "sqlite":
        cursor.execute(
            "SELECT name FROM sqlite_master WHERE type = 'table' AND name <> 'sqlite_sequence'"
        )
    else:
        cursor.execute("SELECT tablename FROM pg_tables WHERE schemaname = 'public'")
    found = {}
    for (table,) in sorted(cursor.fetchall()):
        if vendor == "sqlite":
            cursor.execute(f"SELECT name, lower(type) FROM pragma_table_info('{table}')")
        else:
            cursor.execute(
                "SELECT column_name, data_type FROM information_schema.columns "
                f"WHERE table_schema = 'public' AND table_name = '{table}'"
            )
        columns = sorted(cursor.fetchall())
        whole = [c for c, kind in columns if kind.split()[0] in ("integer", "bigint", "smallint")]
        money = [c for c, kind in columns if kind in ("decimal", "numeric")]
        sums = [f'SUM("{c}")' for c in whole] + [f'SUM(ROUND("{c}" * 100))' for c in money]
        cursor.execute(f'SELECT {", ".join(["COUNT(*)", *sums])} FROM "{table}"')
        row = cursor.fetchone()
        found[table] = dict(
            zip(["(rows)", *whole, *money], [int(v or 0) for v in row], strict=True)
        )
    return found


def sqlite_tally(site: Site) -> dict[str, dict[str, int]]:
    with sqlite3.connect(site.url.removeprefix("sqlite:///")) as raw:
        return tally(raw.cursor(), "sqlite")


def sqlite_triggers(site: Site) -> set[str]:
    with sqlite3.connect(site.url.removeprefix("sqlite:///")) as raw:
        return {
            name for (name,) in raw.execute("SELECT name FROM sqlite_master WHERE type = 'trigger'")
        }


def pg_connect(url: str) -> psycopg.Connection[Any]:
    return psycopg.connect(url, autocommit=True)


def pg_tally(url: str) -> dict[str, dict[str, int]]:
    with pg_connect(url) as raw:
        return tally(raw.cursor(), "postgresql")


def pg_triggers(url: str) -> tuple[set[str], set[str]]:
    """The triggers of the database, and those disabled."""
    with pg_connect(url) as raw:
        rows = raw.execute(
            "SELECT tgname, tgenabled FROM pg_trigger WHERE NOT tgisinternal"
        ).fetchall()
    return {name for name, _ in rows}, {name for name, enabled in rows if enabled == "D"}


def dumped(site: Site) -> Any:
    """Every field of every row, as Django reads it (``dumpdata``)."""
    return json.loads(site.manage("dumpdata").stdout)


def media(folder: Path) -> dict[str, bytes]:
    return {str(p.relative_to(folder)): p.read_bytes() for p in folder.rglob("*") if p.is_file()}


# ---------------------------------------------------------------- the demo room


@pytest.fixture(scope="module")
def demo(tmp_path_factory: pytest.TempPathFactory) -> Site:
    """The two-room demo in a SQLite file, with its photos."""
    site = sqlite_site(tmp_path_factory.mktemp("demo"))
    site.manage("migrate", "--no-input")
    site.manage("demo", "--rooms", "2")
    return site


@pytest.fixture(scope="module")
def demo_rows(demo: Site) -> Any:
    return dumped(demo)


@pytest.fixture(scope="module")
def demo_backup(demo: Site) -> Path:
    folder = demo.backups / "demo"
    demo.manage("backup", "--out", str(folder))
    return folder


def test_a_backup_holds_the_database_its_photos_and_a_manifest(demo, demo_backup):
    assert sorted(p.name for p in demo_backup.iterdir()) == ["db.sqlite3", "manifest.json", "media"]
    assert demo_backup.stat().st_mode & 0o777 == 0o700  # hashes, ID numbers, photos
    manifest = json.loads((demo_backup / "manifest.json").read_text())
    assert manifest["engine"] == "sqlite"
    source = sqlite_tally(demo)
    assert {t: f["rows"] for t, f in manifest["figures"].items()} == {
        t: f["(rows)"] for t, f in source.items()
    }
    with sqlite3.connect(demo.url.removeprefix("sqlite:///")) as raw:
        applied = {f"{a}.{n}" for a, n in raw.execute("SELECT app, name FROM django_migrations")}
    assert set(manifest["migrations"]) == applied
    photos = media(demo.media)
    assert photos and media(demo_backup / "media") == photos
    assert manifest["media"] == {"files": len(photos), "bytes": sum(map(len, photos.values()))}


@sqlite_run
def test_the_demo_restores_into_a_fresh_database_with_every_row(
    demo, demo_rows, demo_backup, tmp_path
):
    target = sqlite_site(tmp_path)
    done = target.manage("restore", str(demo_backup))
    assert "every trigger is in place" in done.stdout
    source = sqlite_tally(demo)
    assert source["play_ledgerline"]["(rows)"] > 0 and source["books_incomeentry"]["amount"] > 0
    assert sqlite_tally(target) == source
    assert dumped(target) == demo_rows
    assert media(target.media) == media(demo.media)
    assert sqlite_triggers(target) == sqlite_triggers(demo)


def _copy_of(demo: Site, folder: Path) -> Site:
    site = sqlite_site(folder)
    folder.mkdir(parents=True, exist_ok=True)
    shutil.copy(demo.url.removeprefix("sqlite:///"), folder / "db.sqlite3")
    shutil.copytree(demo.media, site.media)
    return site


@sqlite_run
def test_a_restore_refuses_a_database_that_is_not_empty_unless_forced(demo, demo_backup, tmp_path):
    target = _copy_of(demo, tmp_path)
    with sqlite3.connect(tmp_path / "db.sqlite3") as raw:  # the deployment goes on: a third room
        columns = [c for (c,) in raw.execute("SELECT name FROM pragma_table_info('core_room')")]
        copied = ", ".join("'west'" if c == "slug" else c for c in columns if c != "id")
        kept = ", ".join(c for c in columns if c != "id")
        raw.execute(f"INSERT INTO core_room ({kept}) SELECT {copied} FROM core_room WHERE id = 1")
    after = sqlite_tally(target)
    refused = target.manage("restore", str(demo_backup), ok=False)
    assert refused.returncode == 1
    assert "is not empty" in refused.stderr and "nothing was changed" in refused.stderr
    assert sqlite_tally(target) == after

    done = target.manage("restore", str(demo_backup), "--force")
    assert sqlite_tally(target) == sqlite_tally(demo)
    # what was there is backed up first: the third room is in that backup
    (aside,) = target.backups.glob("*-before-restore")
    assert str(aside) in done.stdout
    rooms = json.loads((aside / "manifest.json").read_text())["figures"]["core_room"]
    assert rooms["rows"] == after["core_room"]["(rows)"] == 3


@sqlite_run
def test_a_damaged_backup_is_refused(demo_backup, tmp_path):
    copy = tmp_path / "copy"
    shutil.copytree(demo_backup, copy)
    with open(copy / "db.sqlite3", "r+b") as file:
        file.seek(50_000)
        byte = file.read(1)
        file.seek(50_000)
        file.write(bytes([byte[0] ^ 0xFF]))
    target = sqlite_site(tmp_path / "target")
    refused = target.manage("restore", str(copy), ok=False)
    assert refused.returncode == 1 and "damaged" in refused.stderr
    assert not (tmp_path / "target" / "db.sqlite3").exists()


@sqlite_run
def test_a_restore_never_replaces_another_applications_tables(demo_backup, tmp_path):
    target = sqlite_site(tmp_path)
    with sqlite3.connect(tmp_path / "db.sqlite3") as raw:
        raw.execute("CREATE TABLE stranger (id INTEGER)")
        raw.execute("INSERT INTO stranger VALUES (7)")
    for force in ((), ("--force",)):
        refused = target.manage("restore", str(demo_backup), *force, ok=False)
        assert refused.returncode == 1 and "not this app's (stranger)" in refused.stderr
    assert sqlite_tally(target) == {"stranger": {"(rows)": 1, "id": 7}}


@sqlite_run
def test_a_backup_of_an_older_release_is_restored_then_migrated(demo, tmp_path):
    older = _copy_of(demo, tmp_path / "older")
    # as before django-axes' latest migration (a table of its own, empty in the demo)
    older.manage("migrate", "axes", "0009_add_session_hash")
    older.manage("backup", "--out", str(tmp_path / "older-backup"))
    manifest = json.loads((tmp_path / "older-backup" / "manifest.json").read_text())
    assert "axes.0010_accessattemptexpiration" not in manifest["migrations"]
    assert "axes_accessattemptexpiration" not in manifest["figures"]

    target = sqlite_site(tmp_path / "target")
    done = target.manage("restore", str(tmp_path / "older-backup"))
    assert "older release: migrating" in done.stdout
    restored = sqlite_tally(target)
    assert restored.pop("axes_accessattemptexpiration")["(rows)"] == 0  # made by migrate
    assert (
        restored.pop("django_migrations")["(rows)"]
        == manifest["figures"]["django_migrations"]["rows"] + 1
    )
    before = sqlite_tally(older)
    before.pop("django_migrations")
    assert restored == before
    assert sqlite_triggers(target) == sqlite_triggers(older)


# --------------------------------------------------------------- on PostgreSQL


def _server_url(name: str, user: str = "") -> str:
    db = connection.settings_dict
    who = user or db["USER"] or "postgres"
    secret = f":{db['PASSWORD']}" if db["PASSWORD"] and not user else ""
    return f"postgres://{who}{secret}@{db['HOST'] or '127.0.0.1'}:{db['PORT'] or 5432}/{name}"


@pytest.fixture(scope="module")
def server() -> Iterator[Any]:
    """Scratch databases and roles on the suite's server, named after its test database
    and dropped at the end."""
    base = connection.settings_dict["NAME"]
    made: list[str] = []
    roles: list[str] = []

    class Server:
        def database(self, suffix: str, owner: str = "") -> str:
            name = f"{base}_{suffix}"
            with pg_connect(_server_url("postgres")) as raw:
                raw.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
                raw.execute(f'CREATE DATABASE "{name}"' + (f' OWNER "{owner}"' if owner else ""))
            made.append(name)
            return name

        def role(self, suffix: str) -> str:
            name = f"{base}_{suffix}"
            with pg_connect(_server_url("postgres")) as raw:
                # what an earlier, interrupted run left: its databases, then the role
                for (database,) in raw.execute(
                    "SELECT datname FROM pg_database d JOIN pg_roles r ON r.oid = d.datdba "
                    "WHERE r.rolname = %s",
                    [name],
                ).fetchall():
                    raw.execute(f'DROP DATABASE "{database}" WITH (FORCE)')
                raw.execute(f'DROP ROLE IF EXISTS "{name}"')
                raw.execute(f'CREATE ROLE "{name}" LOGIN')
            roles.append(name)
            return name

    if connection.vendor != "postgresql":
        yield None
        return
    yield Server()
    with pg_connect(_server_url("postgres")) as raw:
        for name in made:
            raw.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        for name in roles:
            raw.execute(f'DROP ROLE IF EXISTS "{name}"')


@pytest.fixture(scope="module")
def moved(
    server: Any, demo: Site, demo_backup: Path, tmp_path_factory: pytest.TempPathFactory
) -> Site:
    """The demo's SQLite backup restored into a fresh PostgreSQL database: the move."""
    folder = tmp_path_factory.mktemp("moved")
    site = Site(_server_url(server.database("moved")), folder / "media", folder / "backups")
    site.manage("restore", str(demo_backup))
    return site


def _registered_on_postgres() -> set[str]:
    return {t.name for t in registry() if t.exists_on("postgresql")}


@on_postgres
def test_a_room_moves_from_sqlite_to_postgres_without_losing_a_row(demo, demo_rows, moved):
    assert pg_tally(moved.url) == sqlite_tally(demo)
    assert dumped(moved) == demo_rows
    assert media(moved.media) == media(demo.media)
    present, disabled = pg_triggers(moved.url)
    assert _registered_on_postgres() <= present and not disabled


@on_postgres
def test_after_the_move_the_room_books_on_with_its_numbers(moved):
    done = moved.manage(
        "shell", "--no-imports", "-c", "from clubapp.core.tests.moved import run; run()"
    )
    booked = json.loads(done.stdout.strip().splitlines()[-1])
    # the keys go on after the moved rows (the sequences were moved past them)
    assert booked["hand"] == booked["before"]["hand"] + 1
    assert min(booked["lines"]) == booked["before"]["line"] + 1
    assert booked["income"] == booked["before"]["income"] + 1
    # the table's hands and the room's receipts are numbered on
    assert booked["hand_number"] == booked["session_last_number"] + 1
    assert booked["receipt"] == booked["receipt_expected"]
    assert booked["update_refused"]  # the books are append-only still


@on_postgres
def test_postgres_backs_up_and_restores_under_the_production_roles(server, moved, tmp_path):
    backup = tmp_path / "pg-backup"
    moved.manage("backup", "--out", str(backup))
    manifest = json.loads((backup / "manifest.json").read_text())
    assert manifest["engine"] == "postgresql" and (backup / "db.dump").is_file()
    assert manifest["server_version"].split(".")[0] == manifest["pg_dump_version"].split(".")[0]

    owner, app = server.role("owner"), server.role("app")
    name = server.database("restored", owner=owner)
    target = Site(_server_url(name, app), tmp_path / "media", tmp_path / "backups")
    target.owner_url = _server_url(name, owner)
    done = target.manage("restore", str(backup))
    assert f"Privileges granted to {app}" in done.stdout
    assert pg_tally(_server_url(name)) == pg_tally(moved.url)
    # (read as the owner: the app's role sees no room's rows outside a room's scope)
    as_owner = Site(target.owner_url, target.media, target.backups)
    assert dumped(as_owner) == dumped(moved)
    assert media(target.media) == media(moved.media)
    present, disabled = pg_triggers(_server_url(name))
    assert _registered_on_postgres() <= present and not disabled
    with pg_connect(_server_url(name)) as raw:
        owners = {
            o
            for (o,) in raw.execute(
                "SELECT DISTINCT tableowner FROM pg_tables WHERE schemaname = 'public'"
            )
        }
    assert owners == {owner}
    # the app's role works, under the room policies, and cannot rewrite a book
    done = target.manage(
        "shell", "--no-imports", "-c", "from clubapp.core.tests.moved import run; run()"
    )
    assert json.loads(done.stdout.strip().splitlines()[-1])["update_refused"]

    # a second restore is refused; forced, it replaces the database in one transaction
    refused = target.manage("restore", str(backup), ok=False)
    assert refused.returncode == 1 and "is not empty" in refused.stderr
    target.manage("restore", str(backup), "--force")
    assert pg_tally(_server_url(name)) == pg_tally(moved.url)
    assert list(target.backups.glob("*-before-restore"))


@on_postgres
def test_a_role_under_the_room_policies_gets_no_partial_dump(server, moved, tmp_path):
    """pg_dump as the app's plain role would see one room's rows, or none: it fails."""
    plain = server.role("plain")
    name = moved.url.rsplit("/", 1)[1]
    with pg_connect(moved.url) as raw:
        for statement in app_role_grants(role=plain, owner="postgres"):
            raw.execute(statement)
    site = Site(_server_url(name, plain), tmp_path / "media", tmp_path / "backups")
    try:
        refused = site.manage("backup", "--out", str(tmp_path / "partial"), ok=False)
    finally:
        with pg_connect(moved.url) as raw:
            raw.execute(f'DROP OWNED BY "{plain}"')
    assert refused.returncode == 1 and "row-level security" in refused.stderr
    assert not (tmp_path / "partial").exists()
