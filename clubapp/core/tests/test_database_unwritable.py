"""SQLite cannot write: a full disk or a read-only database file gives a clear Chinese
page (503, "没有保存") and one log line, nothing half-saved, and a file that
``PRAGMA integrity_check`` finds whole; once the disk is freed or the file writable the
same confirm books once (issue 26.2; core/middleware.py ``cannot_write``;
docs/operations.md "Faults").

Each test runs the app on a file copy of the test database (SQLite's own test database
lives in memory, where no disk fills), booking a hand through the entry page's views
as a phone does.

- **A full disk**, for real: the file on a small tmpfs that a filler file fills, where
  the test may mount one (root with CAP_SYS_ADMIN, as on the team's machines); and
  always through SQLite's own limit, ``PRAGMA max_page_count``, which gives the same
  error (SQLITE_FULL, "database or disk is full") by the same path.
- **A read-only file**, for real: ``chattr +i`` (immutable: even root cannot open it
  for writing, so SQLite opens it read-only, as it does a file whose permissions
  refuse the server's user), where the file system and the test's privileges allow
  it; and always by opening it read-only (``mode=ro``): the same SQLITE_READONLY.
"""

from __future__ import annotations

import contextlib
import errno
import logging
import sqlite3
import subprocess
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from django.db import DEFAULT_DB_ALIAS, connection, connections
from django.db.backends.base.base import BaseDatabaseWrapper
from django.urls import reverse

from clubapp.core.roles import Role
from clubapp.core.tests.factories import RoomFactory, UserFactory
from clubapp.play import selectors
from clubapp.play.models import Hand, LedgerLine
from clubapp.play.tests.factories import TableSessionFactory, hand_data

pytestmark = [
    pytest.mark.django_db,
    pytest.mark.skipif(
        connection.vendor != "sqlite",
        reason="SQLite's file: PostgreSQL's server keeps its own files (its faults: "
        "play/tests/test_faults.py)",
    ),
]

QUICK = hand_data(winners=["S"], discarder="E", **{"S-hard": "4", "S-soft": "0"})
#: the page's title (templates/503_unsaved.html)
NOT_SAVED = "没有保存"


@contextlib.contextmanager
def on_file(path: Path) -> Iterator[BaseDatabaseWrapper]:
    """The app's default database, for the block: a file copy of the test database
    (migrated, no rows of the test's) at ``path``."""
    memory = connections[DEFAULT_DB_ALIAS]
    memory.ensure_connection()
    with contextlib.closing(sqlite3.connect(path)) as copy:
        memory.connection.backup(copy)
    wrapper = type(memory)({**memory.settings_dict, "NAME": str(path)}, DEFAULT_DB_ALIAS)
    connections[DEFAULT_DB_ALIAS] = wrapper
    try:
        yield wrapper
    finally:
        wrapper.close()
        connections[DEFAULT_DB_ALIAS] = memory


def integrity(path: Path) -> list[tuple[str]]:
    with contextlib.closing(sqlite3.connect(path)) as db:
        return db.execute("PRAGMA integrity_check").fetchall()


@pytest.fixture
def lines() -> Iterator[list[logging.LogRecord]]:
    """What reaches the console at WARNING and above (the app's loggers and Django's)."""
    records: list[logging.LogRecord] = []

    class Keep(logging.Handler):
        def emit(self, record: logging.LogRecord) -> None:
            records.append(record)

    keep = Keep(level=logging.WARNING)
    loggers = [logging.getLogger(), logging.getLogger("django")]
    for logger in loggers:
        logger.addHandler(keep)
    yield records
    for logger in loggers:
        logger.removeHandler(keep)


class Table:
    """A table of a fresh room on the file, with a member seated who books from the
    entry page (the preview, then the confirm as entry.js sends it)."""

    def __init__(self, client: Any) -> None:
        room = RoomFactory()
        member = UserFactory(username="member", roles=[Role.MEMBER], room=room)
        self.session = TableSessionFactory(room=room, seated=member)
        self.client = client
        client.force_login(member)

    def preview(self) -> dict[str, Any]:
        page = self.client.post(reverse("play:hand_preview", args=[self.session.pk]), QUICK)
        context = page.context
        return {
            **QUICK,
            "confirm": "1",
            "key": str(context["key"]),
            "previewed": context["previewed"],
            "after": str(context["after"]),
        }

    def confirm(self, form: dict[str, Any]) -> Any:
        return self.client.post(
            reverse("play:hand_book", args=[self.session.pk]),
            form,
            headers={"X-Entry-Confirm": "1"},
        )

    def book_until_refused(self) -> tuple[dict[str, Any], Any]:
        """Hands booked one after another until the database refuses one: that one's
        form and answer."""
        for _ in range(200):
            form = self.preview()
            answer = self.confirm(form)
            if answer.status_code != 200:
                return form, answer
            assert answer.json() == {"location": self.session.get_absolute_url()}
        raise AssertionError("the database never refused a hand")

    def hands(self) -> list[str]:
        """The keys of the journal, in order: numbered without a gap, each hand with
        its balanced lines, every stored state equal to its recomputation."""
        hands = list(Hand.objects.filter(session=self.session).order_by("number"))
        assert [hand.number for hand in hands] == list(range(1, len(hands) + 1))
        lines = LedgerLine.objects.filter(hand__session=self.session)
        assert lines.count() == sum(hand.line_count for hand in hands)
        assert sum(line.points for line in lines) == 0
        assert selectors.state_differences(session=self.session) == []
        return [str(hand.idempotency_key) for hand in hands]


def _refused_clearly(answer: Any, lines: list[logging.LogRecord], why: str) -> None:
    """The 503 page in Chinese, and one log line saying why, without a traceback."""
    assert answer.status_code == 503
    assert "no-cache" in answer["Cache-Control"]
    body = answer.content.decode()
    assert NOT_SAVED in body and "一项也没有保存" in body and "请告诉管理员" in body
    assert len(lines) == 1, [r.getMessage() for r in lines]
    (line,) = lines
    assert line.levelno == logging.ERROR and line.exc_info is None
    assert line.getMessage().startswith("database cannot write, answered 503: POST /play/")
    assert why in line.getMessage()


# ------------------------------------------------------------------ a full disk


@contextlib.contextmanager
def small_disk(folder: Path) -> Iterator[Path]:
    """A 4 MB tmpfs at ``folder`` (skipped where the test may not mount one)."""
    folder.mkdir()
    mounted = subprocess.run(
        ["mount", "-t", "tmpfs", "-o", "size=4m", "tmpfs", str(folder)],
        capture_output=True,
        text=True,
        check=False,
    )
    if mounted.returncode != 0:
        pytest.skip(
            f"no tmpfs may be mounted here ({mounted.stderr.strip()}): the "
            "max_page_count test gives SQLite the same SQLITE_FULL"
        )
    try:
        yield folder
    finally:
        subprocess.run(["umount", str(folder)], check=True)


def fill(disk: Path) -> Path:
    """A file that takes the disk's last byte."""
    filler = disk / "filler"
    with filler.open("wb", buffering=0) as out:
        block = bytes(64 * 1024)
        try:
            while True:
                out.write(block)
        except OSError as exc:
            assert exc.errno == errno.ENOSPC
    return filler


def test_a_full_disk_books_nothing_and_says_so(client, tmp_path, lines):
    with small_disk(tmp_path / "disk") as disk, on_file(disk / "db.sqlite3"):
        table = Table(client)
        filler = fill(disk)
        lines.clear()
        form, answer = table.book_until_refused()
        _refused_clearly(answer, lines, "database or disk is full")
        booked = table.hands()
        assert form["key"] not in booked  # nothing of the refused hand
        # the pages that only read still open
        assert client.get(table.session.get_absolute_url()).status_code == 200
        filler.unlink()  # the manager frees the disk
        assert integrity(disk / "db.sqlite3") == [("ok",)]
        # entry.js's confirm, sent again with the same key, books once
        assert table.confirm(form).json() == {"location": table.session.get_absolute_url()}
        assert table.confirm(form).json() == {"location": table.session.get_absolute_url()}
        assert table.hands() == [*booked, form["key"]]


def test_a_database_at_its_page_limit_books_nothing_and_says_so(client, tmp_path, lines):
    """SQLite's own limit (PRAGMA max_page_count) gives the full disk's error."""
    path = tmp_path / "db.sqlite3"
    with on_file(path) as db:
        table = Table(client)
        with db.cursor() as cursor:
            cursor.execute("PRAGMA page_count")
            (pages,) = cursor.fetchone()
            cursor.execute(f"PRAGMA max_page_count = {pages}")
        lines.clear()
        form, answer = table.book_until_refused()
        _refused_clearly(answer, lines, "database or disk is full")
        booked = table.hands()
        assert form["key"] not in booked
        assert client.get(table.session.get_absolute_url()).status_code == 200
        with db.cursor() as cursor:
            cursor.execute(f"PRAGMA max_page_count = {pages * 2}")  # room again
        assert integrity(path) == [("ok",)]
        assert table.confirm(form).json() == {"location": table.session.get_absolute_url()}
        assert table.confirm(form).json() == {"location": table.session.get_absolute_url()}
        assert table.hands() == [*booked, form["key"]]


# -------------------------------------------------------------- a read-only file


@contextlib.contextmanager
def immutable(path: Path) -> Iterator[None]:
    """``chattr +i`` on the file (skipped where the file system or the test's
    privileges do not allow it)."""
    done = subprocess.run(["chattr", "+i", str(path)], capture_output=True, text=True, check=False)
    if done.returncode != 0:
        pytest.skip(
            f"chattr +i is not allowed here ({done.stderr.strip()}): the mode=ro test "
            "gives SQLite the same SQLITE_READONLY"
        )
    try:
        yield
    finally:
        subprocess.run(["chattr", "-i", str(path)], check=True)


def test_a_read_only_database_file_books_nothing_and_says_so(client, tmp_path, lines):
    path = tmp_path / "db.sqlite3"
    with on_file(path) as db:
        table = Table(client)
        form = table.preview()
        with immutable(path):
            db.close()  # the next request opens the file again: read-only, now
            lines.clear()
            answer = table.confirm(form)
            _refused_clearly(answer, lines, "attempt to write a readonly database")
            assert table.hands() == []
            assert client.get(table.session.get_absolute_url()).status_code == 200
        db.close()  # writable again
        assert integrity(path) == [("ok",)]
        assert table.confirm(form).json() == {"location": table.session.get_absolute_url()}
        assert table.hands() == [form["key"]]


def test_a_database_opened_read_only_books_nothing_and_says_so(client, tmp_path, lines):
    path = tmp_path / "db.sqlite3"
    with on_file(path) as db:
        table = Table(client)
        form = table.preview()
        db.close()
        db.settings_dict["NAME"] = f"file:{path}?mode=ro"
        lines.clear()
        answer = table.confirm(form)
        _refused_clearly(answer, lines, "attempt to write a readonly database")
        assert table.hands() == []
        client.cookies["django_language"] = "en"  # the language switch
        english = table.confirm(form).content.decode()
        assert "Not saved" in english and "Nothing of what you sent was saved" in english
        del client.cookies["django_language"]
        db.close()
        db.settings_dict["NAME"] = str(path)
        assert integrity(path) == [("ok",)]
        assert table.confirm(form).json() == {"location": table.session.get_absolute_url()}
        assert table.hands() == [form["key"]]
