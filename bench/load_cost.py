"""What each request of the load scenario costs the app alone, and what the scenario's
pace asks of the machine: ``bench/load.py`` runs it after the after-check.

One process, one request at a time, through Django's test client with the whole
middleware stack, on the run's database and settings (a recorder and the second phone
of table 1, the desk, the accountant, the yardstick, each signed in by
``force_login``): the CPU time this process spent on each kind of request (medians
of ``--rounds`` interleaved rounds; PostgreSQL's and Redis's own work is theirs, not
counted here). Then the app's CPU per second the scenario asks at its pace (a hand
every 5 s at each table: the entry page, the preview, the booking, the table page it
leads to; the second phone's poll every 5 s and a reload per hand; the desk's and the
accountant's rounds; the bare view twice a second), in cores.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any
from urllib.parse import urlencode

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "bench.load_settings")

import django  # noqa: E402

django.setup()

from django.contrib.auth.models import User  # noqa: E402
from django.test import Client  # noqa: E402
from formdata import read_form  # noqa: E402


def client(username: str) -> Client:
    phone = Client(HTTP_HOST="127.0.0.1")
    phone.force_login(User.objects.get(username=username))
    return phone


def timed(call: Callable[[], Any]) -> tuple[float, Any]:
    """CPU milliseconds of this process for one request, and its answer."""
    started = time.process_time()
    answer = call()
    spent = (time.process_time() - started) * 1000
    assert answer.status_code in (200, 302), answer.status_code
    return spent, answer


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--accounts", type=Path, required=True)
    parser.add_argument("--rounds", type=int, default=30)
    options = parser.parse_args()
    accounts = json.loads(options.accounts.read_text())
    table = accounts["tables"][0]
    session, tables = table["session"], len(accounts["tables"])
    recorder = client(table["recorder"]["username"])
    second = client(table["poller"]["username"])
    desk, accountant = client("desk"), client("accountant")
    yardstick = client("yardstick")
    form = [
        (n, v)
        for n, v in read_form(recorder.get(f"/play/{session}/hands/new/").content.decode())
        if n not in ("csrfmiddlewaretoken", "winners", "discarder", "S-hard", "S-soft")
    ]
    hand = [*form, ("winners", "S"), ("discarder", "E"), ("S-hard", "4"), ("S-soft", "1")]

    def post(path: str, fields: list[tuple[str, str]], **extra: str) -> Any:
        return recorder.post(
            path, urlencode(fields), content_type="application/x-www-form-urlencoded", **extra
        )

    spent: dict[str, list[float]] = {}
    for n in range(options.rounds + 3):  # three rounds to warm up
        times = {}
        times["entry page"], _ = timed(lambda: recorder.get(f"/play/{session}/hands/new/"))
        times["preview POST"], shown = timed(
            lambda: post(f"/play/{session}/hands/preview/", [*hand, ("preview", "1")])
        )
        carried = [
            (k, v)
            for k, v in read_form(shown.content.decode())
            if k in ("key", "previewed", "after")
        ]
        booking = [*hand, *carried, ("confirm", "1")]
        times["booking POST"], _ = timed(
            lambda: post(f"/play/{session}/hands/book/", booking, HTTP_X_ENTRY_CONFIRM="1")  # noqa: B023 - called at once
        )
        times["table page"], _ = timed(lambda: recorder.get(f"/play/{session}/"))
        times["tip poll"], _ = timed(lambda: second.get(f"/play/{session}/tip/"))
        times["desk: visits page"], _ = timed(lambda: desk.get("/members/visits/"))
        times["bare view"], _ = timed(lambda: yardstick.get("/bench/bare/"))
        if n % 6 == 0:
            times["monthly report page"], _ = timed(lambda: accountant.get("/reports/monthly/"))
            times["monthly report xlsx"], _ = timed(lambda: accountant.get("/reports/monthly.xlsx"))
        if n >= 3:
            for kind, ms in times.items():
                spent.setdefault(kind, []).append(ms)
    cost = {kind: statistics.median(ms) for kind, ms in spent.items()}
    print("\nthe app's CPU per request, alone, in process (median ms):")
    for kind, ms in cost.items():
        print(f"  {kind:28} {ms:7.1f}   {ms / cost['bare view']:5.2f}× the bare view")
    per_hand = (
        sum(cost[k] for k in ("entry page", "preview POST", "booking POST", "table page"))
        + cost["table page"]
    )  # the second phone's reload
    per_second = (
        tables * (per_hand + cost["tip poll"]) / 5
        + 1.5 * cost["desk: visits page"] / 10
        + (cost["monthly report page"] + cost["monthly report xlsx"]) / 30
        + 2 * cost["bare view"]
    )
    print(
        f"  at the scenario's pace ({tables} tables) the app needs {per_second / 1000:.2f} "
        f"cores of CPU, the database's own work not counted"
    )


if __name__ == "__main__":
    main()
