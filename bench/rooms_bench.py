"""Many rooms in one database: does one room's work stay as fast as with one room?

    python bench/rooms_bench.py                                  # 1,000 rooms × 10 tables × 30 days
    python bench/rooms_bench.py --rooms 20 --days 3 --requests 40    # a quick look

1. Makes two PostgreSQL databases (127.0.0.1:5432 as postgres, a superuser: the fill
   runs with ``session_replication_role = replica``): ``h_rooms_one`` with one room and
   ``h_rooms_many`` with ``--rooms`` rooms, every room with the same month: ``--tables``
   tables, one table session a table a day for ``--days`` days, ``--per-session``
   hands each, with their seats and ledger lines. The hands are those of one real
   night booked through ``services.hand_record`` (a generated legal record, scored),
   copied by SQL (``INSERT … SELECT``) into every session of every room, each with its
   own room, session, time and idempotency key: the volume and the spread of rows are a
   real month's; their content is one night's, repeated.
2. In each database, in one run and one process: play_bench's rounds (the entry page,
   the preview, the booking POST, the session page, a bare view, interleaved) in the
   room "main", and the room's monthly report for that month (median of 3 after a
   warm-up), then the plans (``EXPLAIN ANALYZE``) of the queries a room's pages lean
   on.
3. Prints the ratios to the bare view side by side, one room against many, and the
   report's seconds (target: the same ratios; the report < 2 s).

No test runs this; it prints figures (bench/README.md "rooms_bench.py"). The
databases are dropped at the end unless ``--keep``; ``--reuse`` times kept ones.
"""

from __future__ import annotations

import argparse
import datetime as dt
import os
import statistics
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))
PG = "postgres://postgres@127.0.0.1:5432"
ONE, MANY = "h_rooms_one", "h_rooms_many"
os.environ["DATABASE_URL"] = f"{PG}/{MANY}"

import play_bench  # noqa: E402 - sets Django up on DATABASE_URL
import psycopg  # noqa: E402
from django.core.management import call_command  # noqa: E402
from django.db import connection  # noqa: E402
from django.db.models import Sum  # noqa: E402
from django.test import override_settings  # noqa: E402

from clubapp.core.models import Room  # noqa: E402
from clubapp.core.rooms import scope  # noqa: E402
from clubapp.core.services import user_create  # noqa: E402
from clubapp.members.models import Table  # noqa: E402
from clubapp.play import selectors as play_selectors  # noqa: E402
from clubapp.play import services  # noqa: E402
from clubapp.play.models import Hand, LedgerLine, Seat, TableSession  # noqa: E402
from clubapp.reports.selectors import Month, monthly_report  # noqa: E402


def parse() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rooms", type=int, default=1000)
    parser.add_argument("--tables", type=int, default=10)
    parser.add_argument("--days", type=int, default=30)
    parser.add_argument("--per-session", type=int, default=33)
    parser.add_argument("--requests", type=int, default=200, help="rounds in each database")
    parser.add_argument("--keep", action="store_true", help="keep the databases")
    parser.add_argument("--reuse", action="store_true", help="time databases kept before")
    return parser.parse_args()


def _admin(sql: str) -> None:
    with psycopg.connect(f"{PG}/postgres", autocommit=True) as admin:
        admin.execute(sql)


def use(db: str) -> None:
    """Django's connection now goes to ``db``."""
    connection.close()
    connection.settings_dict["NAME"] = db


def _columns(model: Any) -> list[str]:
    return [f.column for f in model._meta.concrete_fields if not f.primary_key]


def _clone(model: Any, source: str, overrides: dict[str, str], params: dict[str, Any]) -> int:
    """``INSERT INTO`` the model's table every row of ``source`` (a FROM clause with the
    template row as ``tpl``): each column is the template's unless overridden."""
    columns = _columns(model)
    values = ", ".join(overrides.get(c, f"tpl.{c}") for c in columns)
    sql = f"INSERT INTO {model._meta.db_table} ({', '.join(columns)}) SELECT {values} FROM {source}"
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        return cursor.rowcount


def month_filled() -> Month:
    first = dt.date.today().replace(day=1) - dt.timedelta(days=1)
    return Month(first.year, first.month)


def fill(rooms: int, tables: int, days: int, per_session: int) -> None:
    started = time.perf_counter()
    call_command("migrate", verbosity=0)
    main, _ = Room.objects.get_or_create(slug="main", defaults={"name": "棋牌室"})
    Room.objects.bulk_create(
        [Room(slug=f"r{n:04d}", name=f"第{n}活动室") for n in range(2, rooms + 1)]
    )
    version = {v.ruleset_id: v for v in services.ruleset_versions_sync()}["nanjing"]
    player = user_create(username="bench-pool", password=None, room=main)
    # one real night, booked through the service: the pool every session copies
    night = play_bench._table(player, version, per_session, seed=2026)
    with connection.cursor() as cursor:
        cursor.execute("SET session_replication_role = replica")
    month = month_filled()
    params = {
        "pool": night.pk,
        "tables": tables,
        "days": days,
        "start": dt.datetime(month.year, month.month, 1, 10, 0, tzinfo=dt.UTC),
    }
    template_table = Table.objects.filter(room=main).order_by("pk").first()
    assert template_table is not None
    _clone(
        Table,
        f"members_table tpl CROSS JOIN core_room r CROSS JOIN generate_series(1, %(tables)s) n"
        f" WHERE tpl.id = {template_table.pk}",
        {"room_id": "r.id", "number": "n", "name": "''", "active": "true"},
        params,
    )
    sessions = _clone(
        TableSession,
        "play_tablesession tpl CROSS JOIN members_table t"
        " CROSS JOIN generate_series(0, %(days)s - 1) d"
        " WHERE tpl.id = %(pool)s AND t.number <= %(tables)s",
        {
            "room_id": "t.room_id",
            "table_id": "t.id",
            "table_number": "t.number",
            "started_at": "%(start)s + d * interval '1 day' + t.number * interval '1 minute'",
            "ended_at": "%(start)s + d * interval '1 day' + interval '3 hours'",
            "created_by_id": "NULL",
        },
        params,
    )
    print(f"  {rooms:,} rooms, {sessions:,} sessions ({time.perf_counter() - started:.0f} s)")
    _clone(
        Seat,
        "play_seat tpl JOIN play_tablesession s ON s.id > %(pool)s WHERE tpl.session_id = %(pool)s",
        {"room_id": "s.room_id", "session_id": "s.id", "user_id": "NULL", "visit_id": "NULL"},
        params,
    )
    ids = list(Room.objects.order_by("pk").values_list("pk", flat=True))
    hands = lines = 0
    step = 50
    for first in range(0, len(ids), step):
        batch = {**params, "low": ids[first], "high": ids[min(first + step, len(ids)) - 1]}
        hands += _clone(
            Hand,
            "play_hand tpl JOIN play_tablesession s ON s.id > %(pool)s"
            " AND s.room_id BETWEEN %(low)s AND %(high)s WHERE tpl.session_id = %(pool)s",
            {
                "room_id": "s.room_id",
                "session_id": "s.id",
                "idempotency_key": "gen_random_uuid()",
                "created_at": "s.started_at + tpl.number * interval '4 minutes'",
                "recorded_by_id": "NULL",
                "voids_id": "NULL",
            },
            batch,
        )
        lines += _clone(
            LedgerLine,
            "play_ledgerline tpl JOIN play_hand p ON p.id = tpl.hand_id AND p.session_id = %(pool)s"
            " JOIN play_hand h ON h.number = p.number AND h.session_id > %(pool)s"
            " AND h.room_id BETWEEN %(low)s AND %(high)s",
            {"room_id": "h.room_id", "hand_id": "h.id"},
            batch,
        )
        print(
            f"  rooms to {batch['high']:,}: {hands:,} hands, {lines:,} ledger lines"
            f" ({time.perf_counter() - started:.0f} s)",
            flush=True,
        )
    with connection.cursor() as cursor:
        cursor.execute("SET session_replication_role = DEFAULT")
        cursor.execute("ANALYZE")
    print(f"  filled and analysed in {time.perf_counter() - started:.0f} s")


PLANS = {
    "the room's table sessions, newest first (the sessions page)": lambda room: (
        TableSession.objects.filter(room=room).order_by("-started_at")[:20]
    ),
    "one session's hands (the session page)": lambda room: Hand.objects.filter(
        room=room, session=TableSession.objects.filter(room=room).first()
    ).order_by("number"),
    # the query of play.selectors.points_by_seat, the monthly report's biggest read
    "the month's points by seat (the monthly report)": lambda room: (
        LedgerLine.objects.filter(
            hand__session__in=play_selectors.sessions_started(
                room=room, start=month_filled().start, end=month_filled().end
            )
        )
        .order_by()
        .values_list("hand__session_id", "seat")
        .annotate(points=Sum("points"))
    ),
}


def time_room(requests: int, per_session: int) -> dict[str, Any]:
    main = Room.objects.get(slug="main")
    with override_settings(
        ROOT_URLCONF="play_bench",
        ALLOWED_HOSTS=["testserver"],
        SECURE_SSL_REDIRECT=False,
        SESSION_COOKIE_SECURE=False,
        CSRF_COOKIE_SECURE=False,
        STORAGES={
            "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
            "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"},
        },
    ):
        series = play_bench.rounds(requests, per_session)
    month = month_filled()
    with scope(main):
        monthly_report(room=main, month=month)  # warm-up
        seconds = []
        for _ in range(3):
            began = time.perf_counter()
            report = monthly_report(room=main, month=month)
            seconds.append(time.perf_counter() - began)
        plans = {label: make(main).explain(analyze=True) for label, make in PLANS.items()}
    return {
        "series": series,
        "report": statistics.median(seconds),
        "plans": plans,
        "hands": Hand.objects.count(),
        "room hands": Hand.objects.filter(room=main).count(),
        "summary": report,
    }


def main() -> int:
    args = parse()
    results = {}
    for db, rooms in ((ONE, 1), (MANY, args.rooms)):
        print(f"== {db}: {rooms:,} room(s)", flush=True)
        if not args.reuse:
            _admin(f"DROP DATABASE IF EXISTS {db}")
            _admin(f"CREATE DATABASE {db}")
        use(db)
        if not args.reuse:
            fill(rooms, args.tables, args.days, args.per_session)
        results[db] = time_room(args.requests, args.per_session)
        use(MANY)
    one, many = results[ONE], results[MANY]
    print(f"\n{'':32} {'1 room':>16} {f'{args.rooms:,} rooms':>16}")
    print(f"{'hands in the database':32} {one['hands']:>16,} {many['hands']:>16,}")
    print(f"{'hands of the room main':32} {one['room hands']:>16,} {many['room hands']:>16,}")
    for label, name in play_bench.ROWS:
        cells = []
        for result in (one, many):
            median = statistics.median(result["series"][name])
            bare = statistics.median(result["series"]["bare"])
            cells.append(f"{median:7.2f} ms {median / bare:4.2f}×")
        print(f"{label:32} {cells[0]:>16} {cells[1]:>16}")
    print(f"{'monthly report (median of 3)':32} {one['report']:>14.2f} s {many['report']:>14.2f} s")
    print("\ntarget: the same ratios in both; the monthly report < 2 s")
    for label in PLANS:
        print(f"\n-- plan, {args.rooms:,} rooms: {label}\n{many['plans'][label]}")
    if not args.keep:
        connection.close()
        for db in (ONE, MANY):
            _admin(f"DROP DATABASE IF EXISTS {db}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
