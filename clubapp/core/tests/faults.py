"""Pieces of the fault tests (issue 26.2; docs/operations.md "Faults"): a TCP relay to
PostgreSQL that a test cuts and restores, a gunicorn whose processes a test signals, a
phone that books through the app's HTTP path as ``entry.js`` does, and what PostgreSQL
says about a booking that waits.

The servers run on the PostgreSQL test database: SQLite's lives in the test process's
memory, out of a server's reach.
"""

from __future__ import annotations

import contextlib
import http.client
import json
import os
import re
import signal
import socket
import subprocess
import threading
import time
import urllib.parse
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from http.cookies import SimpleCookie
from pathlib import Path
from typing import IO, Any

import psycopg
from django.db import connection
from django.test import Client

from bench.servers import free_port, start_gunicorn, wait_until_up

#: how long a test waits for something that should happen (a server's boot is slow on
#: a busy machine); nothing is asserted about how long it took
PATIENCE = 120.0


def eventually(check: Callable[[], Any], what: str, seconds: float = PATIENCE) -> Any:
    """``check()``'s first true answer, asked every 0.1 s."""
    deadline = time.monotonic() + seconds
    while True:
        answer = check()
        if answer:
            return answer
        if time.monotonic() > deadline:
            raise AssertionError(f"never happened: {what}")
        time.sleep(0.1)


# ------------------------------------------------------------------- the relay


class Relay:
    """A TCP relay from a port of its own to PostgreSQL. ``cut()`` closes every relayed
    connection and refuses new ones, as a database server that went away does (the
    shared server itself is never touched); ``restore()`` listens on the same port
    again."""

    def __init__(self, host: str, port: int) -> None:
        self.target = (host, port)
        self.port = free_port()
        self._lock = threading.Lock()
        self._open: set[socket.socket] = set()
        self._listening: threading.Event | None = None
        self.restore()

    def restore(self) -> None:
        listener = socket.create_server(("127.0.0.1", self.port))  # SO_REUSEADDR
        listener.settimeout(0.1)  # so that the loop sees a cut
        listening = threading.Event()
        listening.set()
        self._listening = listening
        threading.Thread(target=self._accept, args=(listener, listening), daemon=True).start()

    def cut(self) -> None:
        assert self._listening is not None, "cut twice"
        self._listening.clear()
        self._listening = None
        with self._lock:
            relayed, self._open = self._open, set()
        for sock in relayed:
            _close(sock)

        # the listener closes within its loop's timeout: wait until the port refuses
        def refused() -> bool:
            try:
                socket.create_connection(("127.0.0.1", self.port), timeout=1).close()
            except OSError:
                return True
            return False

        eventually(refused, "the relay's port refuses connections")

    @property
    def is_cut(self) -> bool:
        return self._listening is None

    def close(self) -> None:
        if not self.is_cut:
            self.cut()

    def _accept(self, listener: socket.socket, listening: threading.Event) -> None:
        with listener:
            while listening.is_set():
                try:
                    client, _ = listener.accept()
                except TimeoutError:
                    continue
                try:
                    upstream = socket.create_connection(self.target)
                except OSError:
                    client.close()
                    continue
                client.settimeout(None)
                with self._lock:
                    self._open.update((client, upstream))
                for a, b in ((client, upstream), (upstream, client)):
                    threading.Thread(target=self._pump, args=(a, b), daemon=True).start()

    def _pump(self, source: socket.socket, sink: socket.socket) -> None:
        with contextlib.suppress(OSError):
            while data := source.recv(65536):
                sink.sendall(data)
        with self._lock:
            self._open.difference_update((source, sink))
        _close(source)
        _close(sink)


def _close(sock: socket.socket) -> None:
    with contextlib.suppress(OSError):
        sock.shutdown(socket.SHUT_RDWR)  # wakes a thread blocked in recv
    sock.close()


# ----------------------------------------------------------------- the server


def server_database_url(port: int) -> str:
    """The PostgreSQL test database's URL through a relay's ``port``."""
    db = connection.settings_dict
    user = urllib.parse.quote(db["USER"] or "postgres")
    password = f":{urllib.parse.quote(db['PASSWORD'])}" if db["PASSWORD"] else ""
    return f"postgres://{user}{password}@127.0.0.1:{port}/{db['NAME']}"


class Gunicorn:
    """``gunicorn clubapp.wsgi`` on a port of its own, one worker process of ``threads``
    threads (the gthread worker, as production runs it), its lines in ``log``."""

    def __init__(self, database_url: str, log: Path, threads: int = 4) -> None:
        self.port = free_port()
        self.log = log
        self.threads = threads
        # DEBUG=1 as test_servers.py runs it: production's static storage would need a
        # collectstatic first; the 503 pages are the same either way
        self.env = {
            "DATABASE_URL": database_url,
            "DEBUG": "1",
            "ALLOWED_HOSTS": "127.0.0.1,localhost",
        }
        self._log_file: IO[bytes] | None = None
        self.process: subprocess.Popen[bytes] | None = None
        self.start()

    def start(self) -> None:
        self._log_file = self.log.open("ab")
        self.process = start_gunicorn(self.port, self.env, threads=self.threads, log=self._log_file)
        wait_until_up(self.port, PATIENCE)

    @property
    def master(self) -> int:
        assert self.process is not None
        return self.process.pid

    def workers(self) -> list[int]:
        """The worker processes' ids (the master's children)."""
        children = Path(f"/proc/{self.master}/task/{self.master}/children")
        try:
            return [int(pid) for pid in children.read_text().split()]
        except FileNotFoundError:  # the master has exited
            return []

    def worker(self) -> int:
        """The one worker, once it runs."""
        return int(eventually(lambda: self.workers() and self.workers()[0], "a worker runs"))

    def stop(self) -> None:
        """SIGTERM: gunicorn's graceful stop (requests under way are finished)."""
        if self.process is not None and self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
            try:
                self.process.wait(timeout=PATIENCE)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        if self._log_file is not None:
            self._log_file.close()
            self._log_file = None

    def reload(self) -> None:
        """SIGHUP: new workers started, the old ones stopped gracefully."""
        old = set(self.workers())
        os.kill(self.master, signal.SIGHUP)
        eventually(lambda: self.workers() and not old & set(self.workers()), "new workers")

    @property
    def running(self) -> bool:
        return self.process is not None and self.process.poll() is None

    def lines(self, since: int = 0) -> str:
        """What it has logged (from character ``since``)."""
        return self.log.read_text(errors="replace")[since:]


# ------------------------------------------------------------------- a phone


#: the cookies a phone keeps: its login and the CSRF secret (the messages' cookie is
#: left: the phone never opens the page that would show them)
KEPT_COOKIES = {"sessionid", "csrftoken"}


@dataclass(frozen=True)
class Answer:
    status: int
    headers: Mapping[str, str]
    body: str

    def json(self) -> Any:
        assert self.headers.get("content-type", "").startswith("application/json"), self.body
        return json.loads(self.body)


class Sending:
    """``send()`` in a thread of its own (it waits: the server is held up)."""

    def __init__(self, send: Callable[[], Answer]) -> None:
        self._answer: Answer | None = None
        self._error: BaseException | None = None
        self._thread = threading.Thread(target=self._run, args=(send,), daemon=True)
        self._thread.start()

    def _run(self, send: Callable[[], Answer]) -> None:
        try:
            self._answer = send()
        except BaseException as exc:  # noqa: BLE001 - handed to the test by answer()
            self._error = exc

    def answer(self) -> Answer:
        """The answer (raises what sending raised: OSError when none came)."""
        self._thread.join(PATIENCE)
        assert not self._thread.is_alive(), "no answer, no error"
        if self._error is not None:
            raise self._error
        assert self._answer is not None
        return self._answer


class Phone:
    """A phone at the table, through the app's HTTP path: the session of ``user`` (a
    login made by the test client, stored in the database the server reads), the CSRF
    token of the entry page, and the confirm sent as ``entry.js`` sends it."""

    def __init__(self, port: int, user: Any) -> None:
        self.port = port
        client = Client()
        client.force_login(user)
        self.cookies = {"sessionid": client.cookies["sessionid"].value}
        self.token = ""

    def request(
        self, method: str, path: str, data: Mapping[str, Any] | None = None, **headers: str
    ) -> Answer:
        """One request on a connection of its own; OSError when no answer came."""
        body = urllib.parse.urlencode(data, doseq=True) if data is not None else None
        sent = {"Cookie": "; ".join(f"{k}={v}" for k, v in self.cookies.items()), **headers}
        if body is not None:
            sent["Content-Type"] = "application/x-www-form-urlencoded"
        conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=PATIENCE)
        try:
            conn.request(method, path, body=body, headers=sent)
            response = conn.getresponse()
            text = response.read().decode("utf-8", "replace")
        finally:
            conn.close()
        for value in response.headers.get_all("Set-Cookie") or []:
            for name, morsel in SimpleCookie(value).items():
                if name in KEPT_COOKIES:
                    self.cookies[name] = morsel.value
        answers = {k.lower(): v for k, v in response.getheaders()}
        return Answer(response.status, answers, text)

    def get(self, path: str) -> Answer:
        return self.request("GET", path)

    def patiently(self, send: Callable[[], Answer]) -> Answer:
        """``send()`` again while no answer comes (a refused or dropped connection, a
        5xx), as ``entry.js`` sends a confirm again with the same key; the phone here
        keeps trying for longer than the script's five tries (a restart is slow on a
        busy machine)."""
        deadline = time.monotonic() + PATIENCE
        while True:
            try:
                answer = send()
            except OSError:
                answer = None
            if answer is not None and answer.status < 500:
                return answer
            assert time.monotonic() < deadline, "the server never answered"
            time.sleep(0.2)

    def open_entry(self, session: int) -> None:
        """The entry page (its CSRF cookie and token)."""
        page = self.patiently(lambda: self.get(f"/play/{session}/hands/new/"))
        assert page.status == 200, page.status
        found = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', page.body)
        assert found, "the entry page has its form"
        self.token = found[1]

    def preview(self, session: int, data: Mapping[str, Any]) -> dict[str, Any]:
        """The preview of ``data``, and the confirm form it offers (its key, the
        previewed record's digest, the row it follows)."""
        if not self.token:
            self.open_entry(session)
        form = {**data, "csrfmiddlewaretoken": self.token}
        page = self.patiently(lambda: self.request("POST", f"/play/{session}/hands/preview/", form))
        fields = dict(re.findall(r'name="(key|previewed|after)" value="([^"]*)"', page.body))
        assert page.status == 200 and len(fields) == 3, page.body[:2000]
        return {**form, **fields, "confirm": "1"}

    def confirm(self, session: int, form: Mapping[str, Any]) -> Answer:
        """The confirm, once, as entry.js sends it."""
        return self.request(
            "POST",
            f"/play/{session}/hands/book/",
            form,
            **{"X-Entry-Confirm": "1", "Accept": "application/json"},
        )

    def book(self, session: int, data: Mapping[str, Any]) -> str:
        """Preview and confirm, the confirm sent again until an answer comes; the key
        of the hand the phone was told is booked."""
        form = self.preview(session, data)
        answer = self.patiently(lambda: self.confirm(session, form))
        assert answer.json() == {"location": f"/play/{session}/"}, answer.body[:2000]
        return str(form["key"])


def raw_request(port: int, path: str, form: Mapping[str, Any], cookies: Mapping[str, str]) -> bytes:
    """The bytes of a confirm's HTTP request, as a phone puts them on the wire."""
    body = urllib.parse.urlencode(form, doseq=True).encode()
    head = (
        f"POST {path} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n"
        "Content-Type: application/x-www-form-urlencoded\r\n"
        f"Content-Length: {len(body)}\r\nX-Entry-Confirm: 1\r\nAccept: application/json\r\n"
        f"Cookie: {'; '.join(f'{k}={v}' for k, v in cookies.items())}\r\n\r\n"
    )
    return head.encode() + body


# ---------------------------------------------------------- PostgreSQL's view


@contextlib.contextmanager
def lines_held() -> Iterator[None]:
    """The ledger lines' table locked (ACCESS EXCLUSIVE) by a connection of the test's
    own until the block ends: a booking stops at its lines' INSERT, after its hand's,
    inside its transaction."""
    with psycopg.connect(**connection.get_connection_params()) as holder:
        holder.execute("LOCK TABLE play_ledgerline IN ACCESS EXCLUSIVE MODE")
        try:
            yield
        finally:
            holder.rollback()


def _watch(check: Callable[[psycopg.Connection[Any]], Any], what: str) -> Any:
    # autocommit: pg_stat_activity is read afresh by each statement (a transaction
    # would keep its first reading)
    params = {**connection.get_connection_params(), "autocommit": True}
    with psycopg.connect(**params) as watcher:
        return eventually(lambda: check(watcher), what)


def booking_waiting() -> int:
    """The backend of a booking that waits at its lines' INSERT, its hand inserted in
    its open transaction: its process id (PostgreSQL's)."""

    def waiting(watcher: psycopg.Connection[Any]) -> int | None:
        row = watcher.execute(
            "SELECT a.pid FROM pg_stat_activity a JOIN pg_locks l ON l.pid = a.pid "
            "WHERE a.datname = current_database() AND NOT l.granted "
            "AND l.relation = 'play_ledgerline'::regclass "
            "AND a.query LIKE 'INSERT INTO \"play_ledgerline\"%%' "
            "AND EXISTS (SELECT 1 FROM pg_locks h WHERE h.pid = a.pid AND h.granted "
            "AND h.relation = 'play_hand'::regclass AND h.mode = 'RowExclusiveLock')"
        ).fetchone()
        return int(row[0]) if row else None

    return int(_watch(waiting, "a booking waits at its ledger lines"))


def backend_gone(pid: int) -> None:
    """Waits until PostgreSQL's backend ``pid`` has ended (its transaction finished): a
    client that went away is noticed at the backend's next read."""

    def gone(watcher: psycopg.Connection[Any]) -> bool:
        row = watcher.execute("SELECT count(*) FROM pg_stat_activity WHERE pid = %s", [pid])
        return row.fetchone() == (0,)

    _watch(gone, f"backend {pid} ends")
