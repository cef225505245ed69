"""One time zone in the server's logs: UTC, in gunicorn's master and its workers and in
Django's lines alike (issue 21.12; clubapp/core/logformat.py, gunicorn.conf.py)."""

from __future__ import annotations

import logging
import os
import re
import signal
import subprocess
import sys
import time
import urllib.request
from datetime import UTC, datetime
from pathlib import Path

import pytest
from django.conf import settings

from clubapp.core.logformat import UTCFormatter

STAMP = re.compile(r"^(\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ) \[(\d+)\] \[([A-Z]+)\] (\S+): (.*)$")
NOON_UTC = datetime(2026, 12, 2, 12, 0, tzinfo=UTC).timestamp()


def _record(message: str) -> logging.LogRecord:
    record = logging.LogRecord("clubapp.x", logging.WARNING, __file__, 1, message, None, None)
    record.created = NOON_UTC
    return record


def test_it_writes_utc_in_a_process_on_shanghai_time():
    # Django has set the process's zone to TIME_ZONE, as it does in every worker.
    assert time.strftime("%z", time.localtime(NOON_UTC)) == "+0800"
    line = UTCFormatter().format(_record("hello"))
    assert line == f"2026-12-02T12:00:00Z [{os.getpid()}] [WARNING] clubapp.x: hello"


def test_djangos_console_writes_with_it():
    config = settings.LOGGING
    assert config["formatters"]["utc"]["()"] == "clubapp.core.logformat.UTCFormatter"
    assert config["handlers"]["console"]["formatter"] == "utc"
    handlers = [h for h in logging.getLogger().handlers if type(h) is logging.StreamHandler]
    assert handlers and all(isinstance(h.formatter, UTCFormatter) for h in handlers)


def test_gunicorns_master_and_workers_write_one_zone(tmp_path):
    """gunicorn run as in production (its config read from the working directory):
    the master's lines and a worker's, after Django has loaded in it, are all UTC."""
    pytest.importorskip("gunicorn")
    root = Path(settings.BASE_DIR)
    env = {
        **os.environ,
        "DEBUG": "1",
        "DATABASE_URL": f"sqlite:///{tmp_path / 'db.sqlite3'}",
        "PYTHONPATH": str(root),
    }
    env.pop("DJANGO_SETTINGS_MODULE", None)
    server = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "gunicorn",
            "clubapp.wsgi",
            "--bind",
            "127.0.0.1:0",
            "--workers",
            "1",
        ],  # fmt: skip
        cwd=root,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        seen: list[str] = []
        port = None
        while port is None:
            line = server.stderr.readline()
            if not line:
                pytest.fail("gunicorn stopped: " + "".join(seen))
            seen.append(line)
            if found := re.search(r"Listening at: http://127\.0\.0\.1:(\d+)", line):
                port = found[1]
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/healthz", timeout=300) as answer:
            assert answer.read() == b"ok"
    finally:
        server.send_signal(signal.SIGTERM)
        out, err = server.communicate(timeout=300)
    lines = [*seen, *err.splitlines(), *out.splitlines()]
    stamped = [m for line in lines if (m := STAMP.match(line.strip()))]
    assert all(STAMP.match(line.strip()) for line in lines if line.strip()), lines
    master = [m for m in stamped if int(m[2]) == server.pid]
    access = [m for m in stamped if m[4] == "gunicorn.access"]
    assert master and any("Starting gunicorn" in m[5] for m in master)
    assert len(access) == 1 and "GET /healthz" in access[0][5]
    worker = int(access[0][2])
    assert worker != server.pid  # the line of a worker, with Django loaded in it
    # one zone: every line, the master's and the worker's, carries UTC's Z, none +0800
    assert "+0800" not in "".join(lines)
