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
   site's base template, no work of its own), the session page, and the hand POST
   (the confirm that books a hand; its preview is done untimed before it). Prints
   the median and 90th percentile of each and its ratio to the bare view; the
   target is at most 2× for the session page and the hand POST. Exits 1 if missed.
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
from django.forms import CheckboxSelectMultiple  # noqa: E402
from django.http import HttpRequest, HttpResponse  # noqa: E402
from django.template import engines  # noqa: E402
from django.test import Client, override_settings  # noqa: E402
from django.urls import include, path, reverse  # noqa: E402
from django.utils import timezone  # noqa: E402

import scoring  # noqa: E402
from clubapp.core.models import Room  # noqa: E402
from clubapp.core.roles import Role  # noqa: E402
from clubapp.core.services import user_create  # noqa: E402
from clubapp.play import services, views  # noqa: E402
from clubapp.play.entry import HandEntryForm  # noqa: E402
from clubapp.play.models import Hand, LedgerLine, Seat, TableSession  # noqa: E402
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
    for first in range(0, sessions, batch):
        count = min(batch, sessions - first)
        with transaction.atomic():
            start = timezone.now()
            tables = TableSession.objects.bulk_create(
                [
                    TableSession(
                        room=room,
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
                    Seat(session=t, wind=w, name=n)
                    for t in tables
                    for w, n in zip(SEATS, NAMES, strict=True)
                ]
            )
            hands: list[Hand] = []
            results: list[dict[str, Any]] = []
            for table in tables:
                dealer, doubled = "E", False
                number = 0
                while number < per_session:
                    record = {**rng.choice(pool), "dealer": dealer, "doubled": doubled}
                    try:
                        result = scoring.score(record, ruleset=ruleset)
                    except scoring.ScoringError:
                        continue  # 天胡 by a seat not dealing, say
                    number += 1
                    hands.append(
                        Hand(
                            session=table,
                            number=number,
                            record=record,
                            result=result,
                            ruleset=version,
                            idempotency_key=uuid.uuid4(),
                        )
                    )
                    results.append(result)
                    dealer, doubled = result["next"]["dealer"], result["next"]["doubled"]
            Hand.objects.bulk_create(hands, batch_size=2000)
            lines = [
                line
                for hand, result in zip(hands, results, strict=True)
                for line in services._ledger_lines(hand, result["payments"])
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
    table = services.session_create(
        room=Room.objects.get(slug="main"),
        table_number=99,
        ruleset=version,
        seats=[services.SeatIn(wind=w, name=n) for w, n in zip(SEATS, NAMES, strict=True)],
        user=member,
    )
    booked = 0
    for record in random_hands(seed, per_session * 3, "nanjing"):
        if booked == per_session:
            break
        try:
            services.hand_record(
                session=table, record=record, idempotency_key=uuid.uuid4(), user=None
            )
            booked += 1
        except scoring.ScoringError:
            continue
    return table


def measure(requests: int, per_session: int) -> bool:
    """Round after round, in this order: the hand POST (after its untimed preview),
    the session page straight after it (its state not yet computed: what the
    recorder sees on the redirect), the bare view, and the session page again (the
    state cached: what the other phones see). Interleaving the series keeps the
    machine's drift out of the ratios. A table takes ``per_session`` hands more,
    then the next one takes over, so every page shows a night of 40 to 80 hands."""
    member = user_create(username=f"bench-{uuid.uuid4().hex[:8]}", password=uuid.uuid4().hex)
    member.groups.add(Group.objects.get(name=Role.MEMBER.value))
    version = services.ruleset_versions_sync()[1]
    client = Client()
    client.force_login(member)
    # what a phone's browser sends: every text box and select of the page (most of
    # them empty), the checkboxes that are ticked
    data: dict[str, Any] = {
        name: ""
        for name, field in HandEntryForm(ruleset=version).fields.items()
        if not isinstance(field.widget, CheckboxSelectMultiple)
    }
    data.update({"winners": ["S"], "hard_S": "4", "soft_S": "1", "features_S": ["menqing"]})
    form = HandEntryForm(data, ruleset=version)
    assert form.is_valid(), form.errors
    previewed = views._previewed(form.record())

    def post(url: str, fields: dict[str, Any]) -> Any:
        # as a phone's browser sends the form: urlencoded (the test client's default
        # is multipart, which no page of the app uses)
        body = urlencode(fields, doseq=True)
        return client.post(url, body, content_type="application/x-www-form-urlencoded")

    def timed(fn: Any) -> float:
        started = time.perf_counter()
        response = fn()
        elapsed = (time.perf_counter() - started) * 1000
        assert response.status_code in (200, 302), response.status_code
        return elapsed

    series: dict[str, list[float]] = {"bare": [], "post": [], "cold": [], "warm": []}
    warmup = 10
    table = None
    for i in range(warmup + requests):
        if i % per_session == 0:
            table = _table(member, version, per_session, seed=99 + i)
        assert table is not None
        page = table.get_absolute_url()
        entry = reverse("play:hand_entry", args=[table.pk])
        # what the preview page would carry (the preview itself is not timed)
        assert post(entry, {"preview": "1", **data}).status_code == 200
        basis = Hand.objects.filter(session=table).order_by("-number").first()
        payload = {"confirm": "1", **data, "key": str(uuid.uuid4()), "previewed": previewed}
        payload["basis"] = str(basis.number if basis else 0)
        payload["ruleset"] = f"{version.pk}:{version.version}"
        times = {
            "post": timed(lambda: post(entry, payload)),  # noqa: B023 - called at once
            "cold": timed(lambda: client.get(page)),  # noqa: B023
            "bare": timed(lambda: client.get("/bench/bare/")),
            "warm": timed(lambda: client.get(page)),  # noqa: B023
        }
        if i >= warmup:
            for name, ms in times.items():
                series[name].append(ms)
    rows = [
        ("bare view", series["bare"], False),
        ("session page", series["warm"], True),
        ("hand POST (confirm)", series["post"], True),
        ("session page after a booking", series["cold"], False),
    ]
    base = statistics.median(series["bare"])
    ok = True
    print(f"\n{'':32} {'median ms':>10} {'p90 ms':>8} {'× bare':>7}")
    for name, times_ms, target in rows:
        median = statistics.median(times_ms)
        p90 = statistics.quantiles(times_ms, n=10)[-1]
        ratio = median / base
        mark = ("  ok" if ratio <= 2 else "  OVER 2×") if target else ""
        ok &= ratio <= 2 or not target
        print(f"{name:32} {median:10.2f} {p90:8.2f} {ratio:7.2f}{mark}")
    print(
        f"\n{requests} rounds; hands in the database: {Hand.objects.count():,}; {connection.vendor}"
    )
    print("targets (≤ 2×): the session page and the hand POST; the page after a booking")
    print("computes the new state once (the same queries whatever the night's length)")
    return ok


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
