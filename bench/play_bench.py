"""Table play under load: fill the database with hands, then time the pages.

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/play_bench \\
        python bench/play_bench.py --hands 1000000

1. Migrates the database named by DATABASE_URL, then fills it (unless it already
   holds that many hands) with ended table sessions of ``--per-session`` hands each.
   Every hand is a generated legal record (``scoring.generate``) scored for real
   by ``scoring.score`` with the dealer and 比下胡 the hand before left, and its
   ledger lines are built by the service's own function; rows go in with
   ``bulk_create`` in batches. On PostgreSQL the fill sets
   ``session_replication_role = replica`` (superuser only) so that the per-line
   zero-sum trigger does not run 4 million times: the lines are balanced by
   construction, and the bench checks a sample afterwards.
2. Opens a fresh table and books hands into it through ``services.hand_record``.
3. Times, in one run and one process, through Django's test client with the full
   middleware stack and a logged-in member: a bare view (login required, the
   site's base template, no work of its own), the entry page, its preview POST, the
   hand POST (the confirm that books the previewed hand) and the session page after it. Prints
   the median and 90th percentile of each and its ratio to the bare view; the guard
   is at most 5× for the session page, the hand POST, the entry page and the preview
   POST (a guard, not a goal: the goal that counts is the booking's p95 under the
   20-table load). Exits 1 if one is over.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import time
import uuid
from pathlib import Path
from typing import Any
from urllib.parse import urlencode

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "clubapp.settings")
os.environ.setdefault("SECRET_KEY", "bench-" + "x" * 60)

import django  # noqa: E402

django.setup()

from django.contrib.auth.decorators import login_required  # noqa: E402
from django.contrib.auth.models import Group  # noqa: E402
from django.core.management import call_command  # noqa: E402
from django.db import connection, transaction  # noqa: E402
from django.db.models import Sum  # noqa: E402
from django.http import HttpRequest, HttpResponse  # noqa: E402
from django.template import engines  # noqa: E402
from django.test import Client, override_settings  # noqa: E402
from django.urls import include, path, reverse  # noqa: E402
from django.utils import timezone  # noqa: E402
from formdata import read_form  # noqa: E402

import scoring  # noqa: E402
from clubapp.core.models import Room  # noqa: E402
from clubapp.core.roles import Role  # noqa: E402
from clubapp.core.services import user_create  # noqa: E402
from clubapp.members.models import Table  # noqa: E402
from clubapp.play import services  # noqa: E402
from clubapp.play.models import Hand, LedgerLine, Seat, TableSession  # noqa: E402
from scoring import night  # noqa: E402
from scoring.generate import random_hands  # noqa: E402

SEATS = ("E", "S", "W", "N")
NAMES = ("老王", "小李", "阿张", "赵姐")


@login_required
def bare(request: HttpRequest) -> HttpResponse:
    """The yardstick: what every page pays (session, user, menu, base template)."""
    template = engines["django"].from_string(
        '{% extends "base.html" %}{% block content %}ok{% endblock %}'
    )
    return HttpResponse(template.render({}, request))


urlpatterns = [path("bench/bare/", bare), path("", include("clubapp.urls"))]


def ledger_lines(hand: Hand, payments: list[dict[str, Any]]) -> list[LedgerLine]:
    """Each payment as the service books it: the payer's −amount, the payee's +amount."""
    lines = []
    for p in payments:
        if p["amount"]:
            lines.append(LedgerLine(room_id=hand.room_id, hand=hand, seat=p["from"],
                                    counterparty=p["to"],
                                    points=-p["amount"], reason=p["reason"]))  # fmt: skip
            lines.append(LedgerLine(room_id=hand.room_id, hand=hand, seat=p["to"],
                                    counterparty=p["from"],
                                    points=p["amount"], reason=p["reason"]))  # fmt: skip
    return lines


def fill(total: int, per_session: int, seed: int) -> None:
    have = Hand.objects.count()
    if have >= total:
        print(f"fill: {have:,} hands already there")
        return
    rng = random.Random(seed)
    versions = {v.ruleset_id: v for v in services.ruleset_versions_sync()}
    version = versions["nanjing"]
    ruleset = version.as_ruleset()
    room, _ = Room.objects.get_or_create(slug="main", defaults={"name": "棋牌室"})
    pool = random_hands(seed, 5000, "nanjing")
    scored: dict[tuple[int, str, bool], dict[str, Any] | None] = {}
    sessions = (total - have + per_session - 1) // per_session
    started = time.perf_counter()
    made = 0
    print(f"fill: {sessions:,} sessions of {per_session} hands", flush=True)
    with connection.cursor() as cursor:
        if connection.vendor == "postgresql":
            try:
                cursor.execute("SET session_replication_role = replica")
            except Exception as exc:  # noqa: BLE001 - not a superuser: keep the triggers
                print(f"fill: triggers stay on ({exc})")
    batch = 200  # sessions per transaction
    rooms_tables = [Table.objects.get_or_create(room=room, number=n)[0] for n in range(1, 21)]
    for first in range(0, sessions, batch):
        count = min(batch, sessions - first)
        with transaction.atomic():
            start = timezone.now()
            tables = TableSession.objects.bulk_create(
                [
                    TableSession(
                        room=room,
                        table=rooms_tables[i % 20],
                        table_number=i % 20 + 1,
                        ruleset=version,
                        started_at=start,
                        ended_at=start,
                    )
                    for i in range(count)
                ]
            )
            Seat.objects.bulk_create(
                [
                    Seat(room=room, session=t, wind=w, name=n)
                    for t in tables
                    for w, n in zip(SEATS, NAMES, strict=True)
                ]
            )
            hands: list[Hand] = []
            results: list[dict[str, Any]] = []
            for table in tables:
                state = night.start(table.night())
                number = 0
                while number < per_session:
                    pick = rng.randrange(len(pool))
                    record = {**pool[pick], "dealer": state.dealer, "doubled": state.doubled}
                    # the fill's own memo: a pool hand on a dealer and doubling scores alike
                    key = (pick, state.dealer, state.doubled)
                    if key not in scored:
                        try:
                            scored[key] = scoring.score(record, ruleset=ruleset)
                        except scoring.ScoringError:
                            scored[key] = None  # 天胡 by a seat not dealing, say
                    result = scored[key]
                    if result is None:
                        continue
                    number += 1
                    row = night.Row.read(number, record, result)
                    state = night.after(table.night(), state, row, settled_through=0)
                    hands.append(
                        Hand(
                            room=room,
                            session=table,
                            number=number,
                            record=record,
                            result=result,
                            ruleset=version,
                            idempotency_key=uuid.uuid4(),
                            line_count=2 * sum(1 for p in result["payments"] if p["amount"]),
                            **Hand.state_fields(state),
                        )
                    )
                    results.append(result)
            Hand.objects.bulk_create(hands, batch_size=2000)
            lines = [
                line
                for hand, result in zip(hands, results, strict=True)
                for line in ledger_lines(hand, result["payments"])
            ]
            LedgerLine.objects.bulk_create(lines, batch_size=5000)
        made += len(hands)
        rate = made / (time.perf_counter() - started)
        print(f"fill: {have + made:,} hands ({rate:,.0f}/s)", flush=True)
    with connection.cursor() as cursor:
        if connection.vendor == "postgresql":
            cursor.execute("SET session_replication_role = origin")
            cursor.execute("ANALYZE")
    sample = LedgerLine.objects.filter(hand__session__in=tables[:20]).values("hand_id")
    unbalanced = sample.annotate(total=Sum("points")).exclude(total=0).count()
    assert unbalanced == 0, "unbalanced hands in the fill"


def _table(member: Any, version: Any, per_session: int, seed: int) -> TableSession:
    """A fresh open table with ``per_session`` hands booked through the service."""
    room = Room.objects.get(slug="main")
    # the member sits at 东 (the table's reads and writes are its players'); the room's
    # own code seats the account (by=None), at a table with no open session
    seats = [services.SeatIn(wind=w, name=n) for w, n in zip(SEATS, NAMES, strict=True)]
    seats[0] = services.SeatIn(wind="E", name=NAMES[0], user=member)
    number = 100 + TableSession.objects.filter(table_number__gte=100).count()
    table = services.session_create(
        room=room,
        table=Table.objects.get_or_create(room=room, number=number)[0],
        ruleset=version,
        seats=seats,
        by=None,
    )
    booked = 0
    for record in random_hands(seed, per_session * 3, "nanjing"):
        if booked == per_session:
            break
        try:
            services.hand_record(
                session=table, record=record, idempotency_key=uuid.uuid4(), by=None
            )
            booked += 1
        except scoring.ScoringError:
            continue
    return table


#: (label, series) in the order printed
ROWS = [
    ("bare view", "bare"),
    ("session page (after a booking)", "page"),
    ("hand POST (confirm)", "post"),
    ("entry page GET", "entry"),
    ("preview POST", "preview"),
]
GUARD = 5  # × the bare view, in the same run


def measure(requests: int, per_session: int) -> bool:
    """The series of :func:`rounds`, printed with their ratios to the bare view; False
    if one is over the guard."""
    series = rounds(requests, per_session)
    base = statistics.median(series["bare"])
    ok = True
    print(f"\n{'':32} {'median ms':>10} {'p90 ms':>8} {'× bare':>7}")
    for label, name in ROWS:
        median = statistics.median(series[name])
        p90 = statistics.quantiles(series[name], n=10)[-1]
        ratio = median / base
        target = name != "bare"
        mark = ("  ok" if ratio <= GUARD else f"  OVER {GUARD}×") if target else ""
        ok &= ratio <= GUARD or not target
        print(f"{label:32} {median:10.2f} {p90:8.2f} {ratio:7.2f}{mark}")
    print(
        f"\n{requests} rounds; hands in the database: {Hand.objects.count():,}; {connection.vendor}"
    )
    print(
        f"guard (≤ {GUARD}× the bare view): the session page, the hand POST, the entry page, "
        "the preview"
    )
    return ok


def rounds(requests: int, per_session: int) -> dict[str, list[float]]:
    """Round after round, in this order: the entry page GET, its preview POST, the
    booking POST (the confirm that preview carries), the session page right after it,
    and a bare view. Interleaving the series keeps the machine's drift out of the
    ratios. A table takes ``per_session`` hands more, then the next one takes over, so
    every page shows a night of 40 to 80 hands."""
    # the bench's data is the room "main"'s (made by the fill), the member's account too
    room, _ = Room.objects.get_or_create(slug="main", defaults={"name": "棋牌室"})
    member = user_create(
        username=f"bench-{uuid.uuid4().hex[:8]}", password=uuid.uuid4().hex, room=room
    )
    member.groups.add(Group.objects.get(name=Role.MEMBER.value))
    version = services.ruleset_versions_sync()[1]
    client = Client()
    client.force_login(member)

    def post(url: str, fields: list[tuple[str, str]]) -> Any:
        # as a phone's browser sends the form: urlencoded, every box of the page
        body = urlencode(fields)
        return client.post(url, body, content_type="application/x-www-form-urlencoded")

    def timed(fn: Any) -> tuple[float, Any]:
        started = time.perf_counter()
        response = fn()
        elapsed = (time.perf_counter() - started) * 1000
        assert response.status_code in (200, 302), response.status_code
        return elapsed, response

    def hand(page: str) -> list[tuple[str, str]]:
        """The entry page's form as a phone sends it: S wins on E's discard, 门清."""
        fields = [(n, v) for n, v in read_form(page) if n != "csrfmiddlewaretoken"]
        fields = [(n, v) for n, v in fields if n not in ("S-hard", "S-soft", "discarder")]
        return [*fields, ("winners", "S"), ("discarder", "E"), ("S-hard", "4"),
                ("S-soft", "1"), ("S-features", "menqing")]  # fmt: skip

    names = ("entry", "preview", "post", "page", "bare")
    series: dict[str, list[float]] = {name: [] for name in names}
    warmup = 10
    table = None
    for i in range(warmup + requests):
        if i % per_session == 0:
            table = _table(member, version, per_session, seed=99 + i)
        assert table is not None
        entry = reverse("play:hand_entry", args=[table.pk])
        times = {}
        times["entry"], got = timed(lambda: client.get(entry))  # noqa: B023 - called at once
        data = hand(got.content.decode())
        preview_url = reverse("play:hand_preview", args=[table.pk])
        times["preview"], shown = timed(lambda: post(preview_url, [*data, ("preview", "1")]))  # noqa: B023
        carried = [
            (n, v) for n, v in read_form(shown.content.decode()) if n != "csrfmiddlewaretoken"
        ]
        book_url = reverse("play:hand_book", args=[table.pk])
        times["post"], booked = timed(lambda: post(book_url, [*carried, ("confirm", "1")]))  # noqa: B023
        assert booked.status_code == 302, "the confirm did not book"
        times["page"], _ = timed(lambda: client.get(table.get_absolute_url()))  # noqa: B023
        times["bare"], _ = timed(lambda: client.get("/bench/bare/"))
        if i >= warmup:
            for name, ms in times.items():
                series[name].append(ms)
    return series


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--hands", type=int, default=1_000_000)
    parser.add_argument("--per-session", type=int, default=40)
    parser.add_argument("--requests", type=int, default=200)
    parser.add_argument("--seed", type=int, default=2026)
    args = parser.parse_args()
    call_command("migrate", verbosity=0)
    fill(args.hands, args.per_session, args.seed)
    with override_settings(
        ROOT_URLCONF=__name__,
        ALLOWED_HOSTS=["testserver"],
        SECURE_SSL_REDIRECT=False,
        SESSION_COOKIE_SECURE=False,
        CSRF_COOKIE_SECURE=False,
        STORAGES={
            "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
            "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"},
        },
    ):
        ok = measure(args.requests, args.per_session)
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
