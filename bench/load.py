"""The 20-table load scenario (issue 26 item 1; issue 24's two servers): ``make load``.

    python bench/load.py                      # 10 minutes, one gunicorn, Redis
    python bench/load.py --minutes 1          # a smoke run
    python bench/load.py --servers 2          # two gunicorns behind bench/servers.py's proxy
    python bench/load.py --no-redis           # sessions and lockouts as database rows

From scratch, every run: a fresh PostgreSQL database of its own (``--database``, dropped
and created again at the start; left afterwards for a look), migrated, the room of
``bench/load_setup.py`` (20 tables in play, their players checked in, the accounts),
``collectstatic``; then the app as in production (DEBUG off, a generated SECRET_KEY and
ID number keys, WhiteNoise serving the hashed static files, plain HTTP on loopback so no
HTTPS redirect and no secure cookies) under gunicorn, ``--workers`` × ``--threads`` per
server, with ``REDIS_URL`` unless ``--no-redis``; then the phones of
``bench/locustfile.py`` (locust, headless) for ``--minutes`` after they have all signed
in. Prints p50/p95/p99 of each kind of request and of the bare view measured in the
same run, and the booking POST's p95 over the bare view's (the goal: within 3×); then
runs ``bench/load_check.py`` against the phones' own log, and ``bench/load_cost.py``
(each request's CPU alone, and what the scenario's pace asks). Exit status: the check's.
Everything the run wrote is in ``--out`` (default ``.load/``).
"""

from __future__ import annotations

import argparse
import contextlib
import datetime as dt
import json
import os
import resource
import secrets
import signal
import statistics
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit, urlunsplit
from zoneinfo import ZoneInfo

from servers import free_port, servers, start_gunicorn, wait_until_up

ROOT = Path(__file__).resolve().parent.parent
PYTHON = sys.executable
BEIJING = ZoneInfo("Asia/Shanghai")
#: the request kinds in the order printed; the booking POST is the one the goal is about
KINDS = [
    "booking POST",
    "booking POST, tapped again",
    "entry page",
    "preview POST",
    "table page (after booking)",
    "tip poll",
    "table page",
    "desk: visits page",
    "desk: check-in POST",
    "desk: check-out page",
    "desk: check-out POST",
    "monthly report page",
    "monthly report xlsx",
    "bare view",
]
GOAL = 3.0


def fresh_database(url: str) -> None:
    """Drop and create the database of ``url`` (through the server's ``postgres``)."""
    import psycopg

    name = urlsplit(url).path.lstrip("/")
    admin = urlunsplit(urlsplit(url)._replace(path="/postgres"))
    with psycopg.connect(admin, autocommit=True) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        conn.execute(f'CREATE DATABASE "{name}"')


def environment(options: argparse.Namespace, out: Path) -> dict[str, str]:
    """Production's settings on loopback, with keys made for this run."""
    from cryptography.fernet import Fernet

    env = {
        "DJANGO_SETTINGS_MODULE": "bench.load_settings",
        "DATABASE_URL": options.database,
        "DEBUG": "0",
        "SECRET_KEY": secrets.token_urlsafe(50),
        "ID_NUMBER_KEYS": Fernet.generate_key().decode(),
        "ID_NUMBER_HASH_KEY": secrets.token_urlsafe(40),
        "ALLOWED_HOSTS": "127.0.0.1,localhost",
        # plain HTTP on loopback: no redirect to HTTPS, cookies sent without TLS
        "SECURE_SSL_REDIRECT": "0",
        "SECURE_HSTS_SECONDS": "0",
        "SESSION_COOKIE_SECURE": "0",
        "CSRF_COOKIE_SECURE": "0",
        "STATIC_ROOT": str(out / "static"),
        "MEDIA_ROOT": str(out / "media"),
        "LOG_LEVEL": "WARNING",
        "REDIS_URL": options.redis or "",
        # this run's keys only, whatever an earlier run left in the same Redis
        "REDIS_KEY_PREFIX": f"load-{int(time.time())}",
    }
    return env


def refuse_late_hours(minutes: float) -> None:
    """The room admits nobody from 23:00 to midnight, Beijing time (members.models
    LATEST_CLOSING), the desk's check-ins included: the run must not meet that hour."""
    now = dt.datetime.now(BEIJING)
    end = now + dt.timedelta(minutes=minutes + 5)  # setup, sign-ins, the end
    late = now.replace(hour=23, minute=0, second=0, microsecond=0)
    if now.hour == 23 or now < late <= end:
        sys.exit(
            f"It is {now:%H:%M} in Beijing: the room admits nobody from 23:00 to midnight "
            "(the desk's check-ins, the players' visits). Start after midnight Beijing time, "
            "or so that the run ends before 23:00."
        )


def redis_answers(url: str) -> None:
    import redis

    try:
        redis.Redis.from_url(url, socket_connect_timeout=2).ping()
    except redis.RedisError as error:
        sys.exit(f"no Redis answers at {url} ({error}): start it, or run with --no-redis")


@contextlib.contextmanager
def app(
    options: argparse.Namespace, env: dict[str, str], log: Any
) -> Iterator[tuple[str, list[int]]]:
    """The app's address and its servers' ports: one gunicorn, or ``--servers`` behind
    the round-robin proxy."""
    if options.servers == 1:
        port = free_port()
        process = start_gunicorn(port, env, options.workers, options.threads, log)
        try:
            wait_until_up(port)
            yield f"http://127.0.0.1:{port}", [port]
        finally:
            process.terminate()
            process.wait(timeout=30)
    else:
        with servers(options.servers, env, 0, options.workers, options.threads, log) as (
            port,
            backends,
        ):
            yield f"http://127.0.0.1:{port}", backends


@contextlib.contextmanager
def profiled(ports: list[int], out: Path) -> Iterator[None]:
    """py-spy (requirements-load.txt) samples the servers' workers while the phones
    run; their stacks are written to ``profile-PORT.txt`` (collapsed, one a line)."""
    import psutil

    masters = {
        c.laddr.port: c.pid
        for c in psutil.net_connections("tcp")
        if c.status == psutil.CONN_LISTEN and c.laddr.port in ports and c.pid
    }
    spies = [
        subprocess.Popen(
            [
                str(Path(PYTHON).with_name("py-spy")),
                "record",
                "--pid",
                str(pid),
                "--subprocesses",
                "--nonblocking",
                "--rate",
                "50",
                "--format",
                "raw",
                "--output",
                str(out / f"profile-{port}.txt"),
            ],  # fmt: skip
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        for port, pid in masters.items()
    ]
    try:
        yield
    finally:
        for spy in spies:
            spy.send_signal(signal.SIGINT)
        for spy in spies:
            spy.wait(timeout=60)


def percentile(sorted_ms: list[float], p: int) -> float:
    if len(sorted_ms) == 1:
        return sorted_ms[0]
    return statistics.quantiles(sorted_ms, n=100, method="inclusive")[p - 1]


def figures(out: Path) -> dict[str, Any]:
    """p50/p95/p99 of each kind between the phones' ``ready`` and ``stop``."""
    events = [json.loads(line) for line in (out / "phones.jsonl").read_text().splitlines()]
    marks = {e["event"]: e["t"] for e in events if e["event"] in ("ready", "stop")}
    if "ready" not in marks:
        return {"seconds": 0.0, "rows": {}, "ratio": None}
    start, end = marks["ready"], marks.get("stop", float("inf"))
    by_kind: dict[str, list[float]] = {}
    failed: dict[str, int] = {}
    for line in (out / "requests.jsonl").read_text().splitlines():
        t, kind, ms, status, ok = json.loads(line)
        if start <= t <= end:
            by_kind.setdefault(kind, []).append(ms)
            failed[kind] = failed.get(kind, 0) + (not ok or not 200 <= status < 400)
    rows = {}
    for kind in [*KINDS, *sorted(set(by_kind) - set(KINDS))]:
        if kind not in by_kind:
            continue
        ms = sorted(by_kind[kind])
        rows[kind] = {
            "count": len(ms),
            "failed": failed[kind],
            "p50": percentile(ms, 50),
            "p95": percentile(ms, 95),
            "p99": percentile(ms, 99),
        }
    ratio = None
    if "booking POST" in rows and "bare view" in rows:
        ratio = rows["booking POST"]["p95"] / rows["bare view"]["p95"]
    return {"seconds": end - start, "rows": rows, "ratio": ratio}


def print_figures(result: dict[str, Any], options: argparse.Namespace, loads: list[str]) -> str:
    rows = result["rows"]
    bare = rows.get("bare view", {}).get("p95")
    lines = [
        f"{options.servers} server(s) × {options.workers} workers × {options.threads} threads, "
        f"{'Redis' if options.redis else 'no Redis'}, {options.tables} tables, "
        f"{result['seconds'] / 60:.1f} min measured; load average {' → '.join(loads)}",
        "",
        f"{'request':30} {'count':>6} {'failed':>6} {'p50 ms':>8} {'p95 ms':>8} {'p99 ms':>8}"
        f" {'p95 × bare':>10}",
    ]
    for kind, row in rows.items():
        times = "".join(f" {row[p]:8.1f}" for p in ("p50", "p95", "p99"))
        times += f" {row['p95'] / bare:9.2f}×" if bare else ""
        lines.append(f"{kind:30} {row['count']:6} {row['failed']:6}{times}")
    booked = rows.get("booking POST", {}).get("count", 0)
    wanted = options.tables * result["seconds"] / 5
    spent = result["cpu"]
    lines += [
        "",
        f"hands booked {booked} of the {wanted:.0f} the recorders would book at one every 5 s "
        f"({booked / max(wanted, 1):.0%}: below 100 % the app did not keep up)",
        f"CPU seconds of the whole run (sign-ins included): servers {spent['servers']:.0f}, "
        f"locust {spent['locust']:.0f}"
        + (f", proxy {spent['proxy']:.0f}" if spent["proxy"] else "")
        + (f", py-spy {spent['py-spy']:.0f}" if spent["py-spy"] else ""),
    ]
    if result["ratio"] is not None:
        if booked < 0.95 * wanted:
            verdict = (
                "not a measure of the goal: the app did not keep up with the pace, so every "
                "request queued and the ratio is the queue's"
            )
        else:
            verdict = f"{'within' if result['ratio'] <= GOAL else 'OVER'} the goal of {GOAL:.0f}×"
        lines += ["", f"booking POST p95 / bare view p95 = {result['ratio']:.2f}× ({verdict})"]
    text = "\n".join(lines)
    print(text, flush=True)
    return text


def run_locust(url: str, phones: int, seconds: float, env: dict[str, str], out: Path) -> None:
    with open(out / "locust.log", "wb") as locust_log:
        subprocess.run(
            [
                PYTHON,
                "-m",
                "locust",
                "-f",
                "bench/locustfile.py",
                "--headless",
                "--users",
                str(phones),
                "--spawn-rate",
                "10",
                "--host",
                url,
                "--run-time",
                f"{int(seconds) + 600}s",
                "--only-summary",
                "--loglevel",
                "WARNING",
            ],  # fmt: skip
            cwd=ROOT,
            env=env,
            stdout=locust_log,
            stderr=subprocess.STDOUT,
            check=False,
        )


def cpu(usage: resource.struct_rusage) -> float:
    return usage.ru_utime + usage.ru_stime


def loadavg() -> str:
    return "/".join(f"{x:.1f}" for x in os.getloadavg())


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--minutes", type=float, default=10.0, help="measured time (10)")
    parser.add_argument("--tables", type=int, default=20)
    parser.add_argument("--servers", type=int, default=1, help="2: behind the proxy")
    parser.add_argument("--workers", type=int, default=2, help="per server (2)")
    parser.add_argument("--threads", type=int, default=4, help="per worker (4)")
    parser.add_argument(
        "--database",
        default=os.environ.get("LOAD_DATABASE_URL", "postgres://postgres@127.0.0.1:5432/club_load"),
        help="dropped and made again (LOAD_DATABASE_URL)",
    )
    parser.add_argument(
        "--redis", default=os.environ.get("LOAD_REDIS_URL", "redis://127.0.0.1:6379/0")
    )
    parser.add_argument("--no-redis", dest="redis", action="store_const", const="")
    parser.add_argument("--out", type=Path, default=ROOT / ".load")
    parser.add_argument("--profile", action="store_true", help="py-spy on the servers")
    options = parser.parse_args()

    refuse_late_hours(options.minutes)
    if options.redis:
        redis_answers(options.redis)
    out = options.out.resolve()
    out.mkdir(parents=True, exist_ok=True)
    for old in [*out.glob("profile-*.txt"), out / "phones.jsonl", out / "requests.jsonl"]:
        old.unlink(missing_ok=True)
    env = environment(options, out)
    run_env = {**os.environ, **env}

    print(f"database {options.database}: fresh", flush=True)
    fresh_database(options.database)
    accounts = out / "accounts.json"
    subprocess.run(
        [PYTHON, "bench/load_setup.py", "--tables", str(options.tables), "--out", str(accounts)],
        cwd=ROOT,
        env=run_env,
        check=True,
    )
    subprocess.run(
        [PYTHON, "manage.py", "collectstatic", "--no-input", "-v", "0"],
        cwd=ROOT,
        env=run_env,
        check=True,
    )
    phones = 2 * options.tables + 3
    seconds = options.minutes * 60
    loads = [loadavg()]
    # CPU seconds: the servers' (gunicorn's workers are reaped by their master, the
    # master by this process), locust's, and this process's own (the proxy)
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    proxy_before = resource.getrusage(resource.RUSAGE_SELF)
    with (
        open(out / "servers.log", "wb") as server_log,
        app(options, env, server_log) as (url, ports),
    ):
        print(f"app at {url}; {phones} phones sign in, then {options.minutes:g} min", flush=True)
        locust_env = {
            **run_env,
            "LOAD_ACCOUNTS": str(accounts),
            "LOAD_LOG": str(out / "phones.jsonl"),
            "LOAD_REQUESTS": str(out / "requests.jsonl"),
            "LOAD_SECONDS": str(seconds),
        }
        with profiled(ports, out) if options.profile else contextlib.nullcontext():
            run_locust(url, phones, seconds, locust_env, out)
            after_locust = resource.getrusage(resource.RUSAGE_CHILDREN)
        after_profile = resource.getrusage(resource.RUSAGE_CHILDREN)
        loads.append(loadavg())
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    proxy_after = resource.getrusage(resource.RUSAGE_SELF)
    result = figures(out)
    result["cpu"] = {
        "servers": cpu(after) - cpu(after_profile),
        "locust": cpu(after_locust) - cpu(before),
        "proxy": cpu(proxy_after) - cpu(proxy_before) if options.servers > 1 else 0.0,
        "py-spy": cpu(after_profile) - cpu(after_locust),
    }
    text = print_figures(result, options, loads)
    (out / "figures.txt").write_text(text + "\n")
    (out / "figures.json").write_text(json.dumps(result, indent=1, ensure_ascii=False))
    check = subprocess.run(
        [PYTHON, "bench/load_check.py", "--accounts", str(accounts), "--log", str(out)],
        cwd=ROOT,
        env=run_env,
        check=False,
    )
    cost = subprocess.run(
        [PYTHON, "bench/load_cost.py", "--accounts", str(accounts)],
        cwd=ROOT,
        env=run_env,
        check=False,
        capture_output=True,
        text=True,
    )
    print(cost.stdout + cost.stderr[-2000:], flush=True)
    (out / "cost.txt").write_text(cost.stdout)
    return check.returncode


if __name__ == "__main__":
    sys.exit(main())
