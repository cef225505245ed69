"""The monthly report, the big xlsx and the PDF on a full database.

    python bench/report_bench.py                    # 1,000,000 hands, 100,000 visits
    python bench/report_bench.py --hands 200000 --visits 20000 --keep

1. Creates its own PostgreSQL database (``h_reports_bench`` on 127.0.0.1:5432 as
   postgres, or ``--db``), migrates it and fills it with COPY: 2,000 members with
   cards, ``--visits`` visits over 2026 (70 % members, 30 % paying non-members, each
   fee with its receipt and its 收 entry), and ``--hands`` hands in table sessions
   of 40 over 2026 (seats: three members and a guest), each hand a generated legal
   record scored for real (``scoring.score``, a pool of 3,000 a ruleset), with its
   ledger lines. The fill runs with ``session_replication_role = replica``
   (superuser): the zero-sum trigger would run once per line, and the lines are
   balanced by construction. The database is dropped at the end unless ``--keep``.
2. Times, in the same run, the monthly report's numbers for November
   (``selectors.monthly_report``) and the raw SQL aggregates that give the same
   numbers, median of 5 after a warm-up each, and prints their ratio (target: the
   report < 2 s and within 3× of the SQL).
3. Streams the xlsx of 1,000,000 ledger lines (the points-ledger export, the first
   million of the filtered rows) in a child process to /dev/null, and prints the
   time to the first bytes, the total time, the size and the child's peak RSS
   (target < 200 MB).
4. Renders November's monthly report PDF (the child process included) and prints
   the time (target < 5 s).

No test runs this; it prints figures (bench/README.md).
"""

from __future__ import annotations

import argparse
import datetime as dt
import json
import os
import random
import resource
import statistics
import subprocess
import sys
import time
import uuid
from array import array
from decimal import Decimal
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
PG = "postgres://postgres@127.0.0.1:5432"


def parse() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=1_000_000)
    parser.add_argument("--visits", type=int, default=100_000)
    parser.add_argument("--lines", type=int, default=1_000_000, help="ledger lines in the xlsx")
    parser.add_argument("--db", default="h_reports_bench")
    parser.add_argument("--keep", action="store_true", help="keep the database afterwards")
    parser.add_argument(
        "--reuse", action="store_true", help="time a database kept by an earlier --keep run"
    )
    parser.add_argument("--xlsx-child", action="store_true", help=argparse.SUPPRESS)
    return parser.parse_args()


ARGS = parse()
os.environ["DATABASE_URL"] = f"{PG}/{ARGS.db}"
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "clubapp.settings")
os.environ.setdefault("SECRET_KEY", "bench-" + "x" * 60)


def create_database() -> None:
    import psycopg

    with psycopg.connect(f"{PG}/postgres", autocommit=True) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{ARGS.db}"')
        conn.execute(f'CREATE DATABASE "{ARGS.db}"')


def drop_database() -> None:
    import psycopg

    with psycopg.connect(f"{PG}/postgres", autocommit=True) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{ARGS.db}" WITH (FORCE)')


if not (ARGS.xlsx_child or ARGS.reuse):
    create_database()

import django  # noqa: E402

django.setup()

from django.conf import settings  # noqa: E402

# the bench runs from the source tree: static files from the finders, not a manifest
settings.STORAGES["staticfiles"]["BACKEND"] = (
    "django.contrib.staticfiles.storage.StaticFilesStorage"
)

from django.core.management import call_command  # noqa: E402
from django.db import connection  # noqa: E402
from django.utils import timezone  # noqa: E402

import scoring  # noqa: E402
import scoring.generate  # noqa: E402
from clubapp.core.models import Room  # noqa: E402
from clubapp.core.services import user_create  # noqa: E402
from clubapp.members.models import Table  # noqa: E402
from clubapp.play import selectors as play_selectors  # noqa: E402
from clubapp.play.models import RulesetVersion  # noqa: E402
from clubapp.reports import lists, selectors  # noqa: E402
from clubapp.reports.pdf import render_template_pdf  # noqa: E402
from clubapp.reports.selectors import Month  # noqa: E402
from clubapp.reports.views import monthly_context  # noqa: E402
from clubapp.reports.xlsx import xlsx_stream  # noqa: E402

YEAR = 2026
MONTH = Month(YEAR, 11)
TZ = timezone.get_default_timezone()
MEMBERS = 2000
PER_SESSION = 40
POOL = 3000


def _in_room(room: Any, columns: list[str], rows: Any) -> tuple[list[str], Any]:
    """The columns and rows of a table whose rows carry their room (docs/rooms.md):
    every row of this bench is the room "main"'s."""
    return ["room_id", *columns], ((room.pk, *row) for row in rows)


def _copy(table: str, columns: list[str], rows: Any) -> int:
    n = 0
    connection.ensure_connection()
    with connection.connection.cursor() as cursor:
        with cursor.copy(f"COPY {table} ({', '.join(columns)}) FROM STDIN") as copy:
            for row in rows:
                copy.write_row(row)
                n += 1
    return n


def _setval(table: str) -> None:
    with connection.cursor() as cursor:
        cursor.execute(
            f"SELECT setval(pg_get_serial_sequence('{table}', 'id'), "
            f"(SELECT COALESCE(MAX(id), 1) FROM {table}))"
        )


def _open_moment(rng: random.Random, day: dt.date) -> dt.datetime:
    hour = rng.choice([9, 10, 11, 13, 14, 15, 16, 17])
    return dt.datetime(day.year, day.month, day.day, hour, rng.randrange(60), tzinfo=TZ)


def _days(rng: random.Random) -> list[dt.date]:
    first = dt.date(YEAR, 1, 1)
    # open every day but Wednesday (the regulations' week)
    return [d for d in (first + dt.timedelta(days=n) for n in range(365)) if d.weekday() != 2]


def pool(rng: random.Random, ruleset_id: str) -> list[tuple[str, str, list[dict[str, Any]]]]:
    """Scored hands: (record JSON, result JSON, payments)."""
    version = RulesetVersion.objects.filter(ruleset_id=ruleset_id).order_by("-id").first()
    assert version is not None
    out = []
    for hand in scoring.generate.random_hands(rng.randrange(10**6), POOL, ruleset_id):
        record = dict(hand)
        record["dealer"] = "E"
        record.pop("doubled", None)
        result = scoring.score(record, ruleset=version.as_ruleset())
        out.append(
            (json.dumps(record, ensure_ascii=False), json.dumps(result, ensure_ascii=False),
             result["payments"])
        )  # fmt: skip
    return out


def fill(rng: random.Random) -> None:
    started = time.perf_counter()
    room = Room.objects.get(slug="main")
    desk = user_create(username="desk", password=uuid.uuid4().hex, room=room)
    with connection.cursor() as cursor:
        cursor.execute("SET session_replication_role = replica")
    now = timezone.now()
    days = _days(rng)
    # member accounts, members, cards, their receipts and income
    user_rows = [
        (100 + n, f"m{n}", "!", False, False, True, f"会员{n}", "", "", now, now)
        for n in range(MEMBERS)
    ]
    _copy(
        "auth_user",
        ["id", "username", "password", "is_superuser", "is_staff", "is_active", "first_name",
         "last_name", "email", "date_joined", "last_login"],
        user_rows,
    )  # fmt: skip
    _setval("auth_user")
    issued = {n: rng.choice(days[:300]) for n in range(MEMBERS)}
    # the ID number is stored encrypted with a keyed hash (the report never reads it):
    # placeholders of the same shape do here
    _copy(
        "members_member",
        ["id", "room_id", "name", "name_pinyin", "phone", "id_number_encrypted",
         "id_number_hash", "photo", "user_id", "created_at"],
        (
            (n + 1, room.pk, f"会员{n}", f"huiyuan{n:06d}", f"139{n:08d}", f"bench-{n}",
             f"{n:064x}", "", 100 + n, dt.datetime.combine(issued[n], dt.time(9), tzinfo=TZ))
            for n in range(MEMBERS)
        ),
    )  # fmt: skip
    _copy(
        "members_card",
        *_in_room(room,
        ["id", "member_id", "number", "status", "issued_on", "valid_until", "status_reason",
         "created_at"],
        (
            (n + 1, n + 1, f"{YEAR}-{n + 1:04d}", "active", issued[n],
             issued[n] + dt.timedelta(days=364), "", now)
            for n in range(MEMBERS)
        )),
    )  # fmt: skip
    receipts: list[tuple[Any, ...]] = []
    income: list[tuple[Any, ...]] = []

    def book(
        kind: str, category: str, amount: Decimal, payer: str, at: dt.datetime, **links: Any
    ) -> None:
        number = f"R{YEAR}-{len(receipts) + 1:06d}"
        receipts.append(
            (len(receipts) + 1, room.pk, number, kind, amount, payer, links.get("member"),
             links.get("card"), links.get("visit"), at, desk.pk)
        )  # fmt: skip
        income.append(
            (len(income) + 1, room.pk, timezone.localdate(at), category, amount, at, number,
             payer, f"{payer}", desk.pk, at)
        )  # fmt: skip

    for n in range(MEMBERS):
        at = dt.datetime.combine(issued[n], dt.time(9, 5), tzinfo=TZ)
        book("card", "card_fee", Decimal("50.00"), f"会员{n}", at, member=n + 1, card=n + 1)
    # visits
    visit_rows = []
    for v in range(ARGS.visits):
        day = rng.choice(days)
        came = _open_moment(rng, day)
        left = came + dt.timedelta(minutes=rng.randrange(20, 300))
        if rng.random() < 0.7:
            m = rng.randrange(MEMBERS)
            visit_rows.append(
                (
                    v + 1,
                    room.pk,
                    m + 1,
                    m + 1,
                    "",
                    "",
                    came,
                    left,
                    None,
                    Decimal("0.00"),
                    desk.pk,
                    desk.pk,
                )
            )
        else:
            hours = max(1, -(-int((left - came).total_seconds()) // 3600))
            fee = Decimal("2.00") * hours
            visit_rows.append(
                (
                    v + 1,
                    room.pk,
                    None,
                    None,
                    f"散客{v}",
                    "",
                    came,
                    left,
                    hours,
                    fee,
                    desk.pk,
                    desk.pk,
                )
            )
            book("guest", "guest_fee", fee, f"散客{v}", left, visit=v + 1)
    _copy(
        "members_visit",
        ["id", "room_id", "member_id", "card_id", "guest_name", "guest_phone", "checked_in_at",
         "checked_out_at", "hours_billed", "fee", "checked_in_by_id", "checked_out_by_id",
         "admitted_reason"],
        (row + ("",) for row in visit_rows),
    )  # fmt: skip
    _copy(
        "members_receipt",
        ["id", "room_id", "number", "kind", "amount", "payer", "member_id", "card_id", "visit_id",
         "paid_at", "received_by_id"],
        receipts,
    )  # fmt: skip
    _copy(
        "books_incomeentry",
        ["id", "room_id", "book_date", "category", "amount", "received_at", "reference",
         "payer", "description", "recorded_by_id", "created_at"],
        income,
    )  # fmt: skip
    # 缴款: every Monday the week's receipts on one slip, confirmed by the accountant the
    # same evening (the last weeks of the year stay at the desk)
    accountant = user_create(username="accountant", password=uuid.uuid4().hex, room=room)
    weeks: dict[dt.date, list[tuple[Any, ...]]] = {}
    for row in income:
        day = row[2]
        monday = day + dt.timedelta(days=7 - day.weekday())
        weeks.setdefault(monday, []).append(row)
    slips, slip_lines, decisions = [], [], []
    for monday in sorted(weeks):
        if monday > dt.date(YEAR, 12, 14):
            continue
        rows = weeks[monday]
        n = len(slips) + 1
        at = dt.datetime.combine(monday, dt.time(17), tzinfo=TZ)
        slips.append((n, room.pk, monday, f"JK{YEAR}-{n:05d}", sum(r[4] for r in rows), at,
                      desk.pk, ""))  # fmt: skip
        slip_lines += [(len(slip_lines) + i + 1, n, r[0], 0) for i, r in enumerate(rows)]
        decisions.append((n, room.pk, monday, n, "confirmed", "", accountant.pk,
                          at + dt.timedelta(hours=1)))  # fmt: skip
    _copy(
        "books_handoverslip",
        ["id", "room_id", "book_date", "number", "amount", "handed_over_at",
         "handed_over_by_id", "note"],
        slips,
    )  # fmt: skip
    _copy(
        "books_handoverline", *_in_room(room, ["id", "slip_id", "income_id", "attempt"], slip_lines)
    )
    _copy(
        "books_slipdecision",
        ["id", "room_id", "book_date", "slip_id", "outcome", "reason", "decided_by_id",
         "decided_at"],
        decisions,
    )  # fmt: skip
    for table in ("members_member", "members_card", "members_visit", "members_receipt",
                  "books_incomeentry", "books_handoverslip", "books_handoverline",
                  "books_slipdecision"):  # fmt: skip
        _setval(table)
    print(f"  members, cards, {ARGS.visits:,} visits, {len(receipts):,} receipts "
          f"({time.perf_counter() - started:.0f} s)")  # fmt: skip
    # table play
    versions = {
        r: RulesetVersion.objects.filter(ruleset_id=r, room=None).order_by("-id").first()
        for r in ("nanjing", "jiangsu-worksite")
    }
    pools = {r: pool(rng, r) for r in versions}
    print(f"  {2 * POOL:,} hands scored for the pool ({time.perf_counter() - started:.0f} s)")
    sessions = ARGS.hands // PER_SESSION
    session_rows, seat_rows, starts, rulesets = [], [], {}, {}
    tables = {n: Table.objects.get_or_create(room=room, number=n)[0].pk for n in range(1, 9)}
    for s in range(sessions):
        ruleset = "nanjing" if rng.random() < 0.8 else "jiangsu-worksite"
        start = _open_moment(rng, rng.choice(days))
        starts[s + 1], rulesets[s + 1] = start, ruleset
        number = rng.randrange(1, 9)
        session_rows.append(
            (s + 1, room.pk, tables[number], number, versions[ruleset].pk, "open", None, 2,
             "quan" if ruleset == "nanjing" else "worksite", 2, start,
             start + dt.timedelta(hours=3), desk.pk)
        )  # fmt: skip
        players = rng.sample(range(MEMBERS), 3)
        for i, wind in enumerate("ESW"):
            seat_rows.append(
                (s * 4 + i + 1, s + 1, wind, f"会员{players[i]}", 100 + players[i], None, "")
            )
        seat_rows.append((s * 4 + 4, s + 1, "N", f"客{s}", None, None, ""))
    _copy(
        "play_tablesession",
        ["id", "room_id", "table_id", "table_number", "ruleset_id", "mode", "garden_size",
         "end_when_out",
         "settle_every", "jiang_count", "started_at", "ended_at", "created_by_id"],
        session_rows,
    )  # fmt: skip
    _copy(
        "play_seat",
        *_in_room(
            room,
            ["id", "session_id", "wind", "name", "user_id", "visit_id", "guest_reason"],
            seat_rows,
        ),
    )
    # which pool entry each hand is (an array of ints: the lines are made from it after)
    picks = array("i", (rng.randrange(POOL) for _ in range(sessions * PER_SESSION)))

    nets = {r: [json.loads(res).get("net") or {} for _rec, res, _p in pools[r]] for r in pools}

    def hand_rows() -> Any:
        balances: dict[str, int] = {}
        for h in range(sessions * PER_SESSION):
            session = h // PER_SESSION + 1
            number = h % PER_SESSION + 1
            record, result, _payments = pools[rulesets[session]][picks[h]]
            at = starts[session] + dt.timedelta(minutes=4 * number)
            if number == 1:
                balances = dict.fromkeys("ESWN", 0)
            for wind, points in nets[rulesets[session]][picks[h]].items():
                balances[wind] += points
            # the stored state after the hand (the report reads none of it; the dealer
            # chain is not replayed here, the balances are the ledger's)
            state = json.dumps(balances)
            lines = 2 * sum(1 for p in pools[rulesets[session]][picks[h]][2] if p["amount"])
            yield (h + 1, session, number, record, result, versions[rulesets[session]].pk,
                   uuid.uuid4(), None, at, None, "", "E", False, 0, number, state, state,
                   False, lines)  # fmt: skip

    hands = _copy(
        "play_hand",
        *_in_room(room,
        ["id", "session_id", "number", "record", "result", "ruleset_id", "idempotency_key",
         "recorded_by_id", "created_at", "voids_id", "void_reason", "dealer", "doubled",
         "passes", "hands", "balances", "unsettled", "due", "line_count"],
        hand_rows()),
    )  # fmt: skip

    def line_rows() -> Any:
        n = 0
        for h in range(sessions * PER_SESSION):
            payments = pools[rulesets[h // PER_SESSION + 1]][picks[h]][2]
            for p in payments:
                if p["amount"]:
                    n += 2
                    yield (n - 1, h + 1, p["from"], p["to"], -p["amount"], p["reason"])
                    yield (n, h + 1, p["to"], p["from"], p["amount"], p["reason"])

    n_lines = _copy(
        "play_ledgerline",
        *_in_room(room, ["id", "hand_id", "seat", "counterparty", "points", "reason"], line_rows()),
    )
    for table in ("play_tablesession", "play_seat", "play_hand", "play_ledgerline"):
        _setval(table)
    with connection.cursor() as cursor:
        cursor.execute("SET session_replication_role = DEFAULT")
        cursor.execute("ANALYZE")
    print(f"  {sessions:,} sessions, {hands:,} hands, {n_lines:,} ledger lines "
          f"({time.perf_counter() - started:.0f} s)")  # fmt: skip


# ------------------------------------------------------------------ timing


RAW_SQL = [
    # the cash book (by book day): income by category and by day, reversals, slips
    # handed over and sent back, expenses by category and by plan, each in the month
    # and before it (the balances), the equipment fund, the receipts, the last closing
    "SELECT category, COUNT(*), SUM(amount) FROM books_incomeentry"
    " WHERE room_id = %(room)s AND book_date BETWEEN %(first)s AND %(last)s GROUP BY 1",
    "SELECT category, SUM(amount) FROM books_incomeentry"
    " WHERE room_id = %(room)s AND book_date < %(first)s GROUP BY 1",
    "SELECT book_date, category, SUM(amount) FROM books_incomeentry"
    " WHERE room_id = %(room)s AND book_date BETWEEN %(first)s AND %(last)s GROUP BY 1, 2",
    "SELECT r.book_date < %(first)s, r.kind, e.category, SUM(r.amount) FROM books_reversal r"
    " LEFT JOIN books_incomeentry e ON e.id = r.income_id WHERE r.room_id = %(room)s"
    " AND r.book_date <= %(last)s GROUP BY 1, 2, 3",
    "SELECT book_date < %(first)s, SUM(amount) FROM books_handoverslip"
    " WHERE room_id = %(room)s AND book_date <= %(last)s GROUP BY 1",
    "SELECT d.book_date < %(first)s, SUM(s.amount) FROM books_slipdecision d"
    " JOIN books_handoverslip s ON s.id = d.slip_id WHERE d.room_id = %(room)s"
    " AND d.outcome = 'returned' AND d.book_date <= %(last)s GROUP BY 1",
    "SELECT x.book_date < %(first)s, l.category, SUM(x.amount) FROM books_expense x"
    " JOIN books_planline l ON l.id = x.line_id WHERE x.room_id = %(room)s"
    " AND x.book_date <= %(last)s GROUP BY 1, 2",
    "SELECT p.number, s.title, SUM(x.amount) FROM books_expense x"
    " JOIN books_planline l ON l.id = x.line_id JOIN books_plansubmission s"
    " ON s.id = l.submission_id JOIN books_purchaseplan p ON p.id = s.plan_id"
    " WHERE x.room_id = %(room)s AND x.book_date BETWEEN %(first)s AND %(last)s GROUP BY 1, 2",
    "SELECT MAX(date) FROM books_dayclosing WHERE room_id = %(room)s",
    "SELECT SUM(amount) FROM members_receipt WHERE room_id = %(room)s"
    " AND paid_at >= %(start)s AND paid_at < %(end)s",
    # members and cards
    "SELECT COUNT(*) FILTER (WHERE issued_on BETWEEN %(first)s AND %(last)s),"
    " COUNT(*) FILTER (WHERE status = 'active' AND valid_until BETWEEN %(first)s AND %(last)s),"
    " COUNT(*) FILTER (WHERE status = 'active' AND issued_on <= %(last)s"
    " AND valid_until >= %(last)s) FROM members_card c JOIN members_member m"
    " ON m.id = c.member_id WHERE m.room_id = %(room)s",
    "SELECT kind, COUNT(*), SUM(amount) FROM members_receipt WHERE room_id = %(room)s"
    " AND paid_at >= %(start)s AND paid_at < %(end)s AND kind IN ('card', 'reissue', 'renewal')"
    " GROUP BY 1",
    "SELECT COUNT(*) FROM members_member WHERE room_id = %(room)s"
    " AND created_at >= %(start)s AND created_at < %(end)s",
    # visits
    "SELECT COUNT(*) FILTER (WHERE member_id IS NOT NULL), COUNT(DISTINCT member_id),"
    " COUNT(*) FILTER (WHERE member_id IS NULL), SUM(checked_out_at - checked_in_at)"
    " FILTER (WHERE member_id IS NOT NULL) FROM members_visit WHERE room_id = %(room)s"
    " AND checked_in_at >= %(start)s AND checked_in_at < %(end)s",
    "SELECT SUM(hours_billed), SUM(fee) FROM members_visit WHERE room_id = %(room)s"
    " AND member_id IS NULL AND checked_out_at >= %(start)s AND checked_out_at < %(end)s",
    "SELECT checked_in_at, checked_out_at FROM members_visit WHERE room_id = %(room)s"
    " AND checked_in_at >= %(start)s AND checked_in_at < %(end)s",
    # table play
    "SELECT r.name, COUNT(*) FROM play_tablesession s JOIN play_rulesetversion r"
    " ON r.id = s.ruleset_id WHERE s.room_id = %(room)s AND s.started_at >= %(start)s"
    " AND s.started_at < %(end)s GROUP BY 1",
    "SELECT r.name, COUNT(*) FILTER (WHERE h.voids_id IS NULL),"
    " COUNT(*) FILTER (WHERE h.voids_id IS NOT NULL) FROM play_hand h"
    " JOIN play_tablesession s ON s.id = h.session_id JOIN play_rulesetversion r"
    " ON r.id = h.ruleset_id WHERE s.room_id = %(room)s AND s.started_at >= %(start)s"
    " AND s.started_at < %(end)s GROUP BY 1",
    "SELECT seat.session_id, seat.wind, seat.name, seat.user_id FROM play_seat seat"
    " JOIN play_tablesession s ON s.id = seat.session_id WHERE s.room_id = %(room)s"
    " AND s.started_at >= %(start)s AND s.started_at < %(end)s",
    "SELECT h.session_id, h.number, h.result -> 'wins' FROM play_hand h"
    " JOIN play_tablesession s ON s.id = h.session_id JOIN play_rulesetversion r"
    " ON r.id = h.ruleset_id WHERE s.room_id = %(room)s"
    " AND s.started_at >= %(start)s AND s.started_at < %(end)s AND h.voids_id IS NULL"
    " AND CASE WHEN r.family = 'worksite' THEN (h.result ->> 'wins') ~ %(big_worksite)s"
    " ELSE (h.result ->> 'wins') ~ %(big_nanjing)s END LIMIT 100",
    "SELECT h.session_id, l.seat, SUM(l.points) FROM play_ledgerline l"
    " JOIN play_hand h ON h.id = l.hand_id JOIN play_tablesession s ON s.id = h.session_id"
    " WHERE s.room_id = %(room)s AND s.started_at >= %(start)s AND s.started_at < %(end)s"
    " GROUP BY 1, 2",
]


def raw(room: Room) -> None:
    params = {
        "room": room.pk,
        "start": MONTH.start,
        "end": MONTH.end,
        "first": MONTH.first_day,
        "last": MONTH.last_day,
        # the same quick filters as the report's
        "big_nanjing": play_selectors.big_hand_pattern("nanjing"),
        "big_worksite": play_selectors.big_hand_pattern("worksite"),
    }
    with connection.cursor() as cursor:
        for sql in RAW_SQL:
            cursor.execute(sql, params)
            cursor.fetchall()


def median_time(fn: Any, runs: int = 5) -> float:
    fn()
    times = []
    for _ in range(runs):
        t = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t)
    return statistics.median(times)


def xlsx_child() -> None:
    """Stream the points-ledger export of ARGS.lines lines to /dev/null."""
    room = Room.objects.get(slug="main")
    spec = lists.LISTS["ledger"]
    qs = spec.queryset(room)[: ARGS.lines]
    started = time.perf_counter()
    first = None
    size = 0
    with open(os.devnull, "wb") as out:
        for chunk in xlsx_stream(str(spec.title), spec.columns(), spec.rows(qs)):
            if first is None:
                first = time.perf_counter() - started
            size += len(chunk)
            out.write(chunk)
    total = time.perf_counter() - started
    print(json.dumps({"first": first, "total": total, "size": size, "peak_mb": peak_rss_mb()}))


def peak_rss_mb() -> float:
    """This process's peak resident memory (VmHWM: ru_maxrss would count the parent's
    size at the fork that started it)."""
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmHWM:"):
            return int(line.split()[1]) / 1024
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def main() -> int:
    if ARGS.xlsx_child:
        xlsx_child()
        return 0
    try:
        if not ARGS.reuse:
            print(f"== database {ARGS.db}: migrate and fill")
            call_command("migrate", verbosity=0)
            call_command("loaddefaults", verbosity=0)
            fill(random.Random(2026))
        room = Room.objects.get(slug="main")
        print(f"== the monthly report of {MONTH.label}")
        report = selectors.monthly_report(room=room, month=MONTH)
        play = report.play
        print(f"  income {report.income.total} yuan, {report.visits.member_visits:,} + "
              f"{report.visits.guest_visits:,} visits, {play.sessions:,} sessions, "
              f"{play.hands:,} hands, {len(play.member_points):,} members' points")  # fmt: skip
        orm = median_time(lambda: selectors.monthly_report(room=room, month=MONTH))
        sql = median_time(lambda: raw(room))
        print(f"  report numbers: {orm:.2f} s (target < 2 s)   raw SQL: {sql:.2f} s   "
              f"ratio {orm / sql:.2f}x (target <= 3x)")  # fmt: skip
        print(f"== xlsx of {ARGS.lines:,} ledger lines (child process, to /dev/null)")
        done = subprocess.run(
            [sys.executable, __file__, "--xlsx-child", "--db", ARGS.db, "--lines", str(ARGS.lines)],
            capture_output=True, text=True, check=True,
        )  # fmt: skip
        figures = json.loads(done.stdout.strip().splitlines()[-1])
        print(f"  first bytes after {figures['first']:.2f} s, all in {figures['total']:.1f} s, "
              f"{figures['size'] / 1e6:.1f} MB, peak RSS {figures['peak_mb']:.0f} MB "
              f"(target < 200 MB)")  # fmt: skip
        print(f"== PDF of {MONTH.label}")
        t = time.perf_counter()
        pdf = render_template_pdf("reports/monthly.html", monthly_context(report, pdf=True))
        print(f"  {time.perf_counter() - t:.2f} s (target < 5 s), {len(pdf) / 1e3:.0f} kB")
    finally:
        connection.close()
        if not ARGS.keep:
            drop_database()
    return 0


if __name__ == "__main__":
    sys.exit(main())
