"""The load scenario's after-check: the database against what the phones were told.

    python bench/load_check.py --accounts .load/accounts.json --log .load

Run by ``bench/load.py`` after the phones stopped, on the same ``DATABASE_URL``. Fails
(exit status 1) on any of:

- an error: a request answered other than 2xx or 3xx, a preview refused, a confirm
  answered with neither the table's address nor a fresh preview, a check-out not
  confirmed, a confirm that got no answer at all;
- a lost hand: one a phone was told was booked (the number on the table's page after
  the confirm) that is not in the database under the confirm's key, at that number;
- a doubled hand: a confirm (a double tap's two sendings included) told of more than
  one hand, or a hand in the database that no phone was told of;
- a gap: the hands of a session not numbered 1, 2, 3, … without a gap;
- a hand whose ledger lines do not sum to zero, or are not as many as it says;
- a receipt the desk was told of that is missing or differs (amount, payer, visit), a
  receipt or cash-book income that nobody was told of, or a receipt booked twice in the
  cash book; a non-member visit the desk did not make;
- ``manage.py play_check`` reporting a difference.
"""

from __future__ import annotations

import argparse
import io
import json
import os
import sys
from collections import Counter, defaultdict
from decimal import Decimal
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "bench.load_settings")

import django  # noqa: E402

django.setup()

from django.core.management import call_command  # noqa: E402
from django.db.models import Count, Sum  # noqa: E402

from clubapp.books.models import IncomeEntry  # noqa: E402
from clubapp.members.models import Receipt, Visit  # noqa: E402
from clubapp.play.models import Hand  # noqa: E402


class Report:
    def __init__(self) -> None:
        self.failures: list[str] = []
        self.counts: dict[str, int] = {}

    def fail(self, what: str) -> None:
        self.failures.append(what)

    def count(self, what: str, n: int) -> None:
        self.counts[what] = n


def check_hands(events: list[dict[str, Any]], sessions: list[int], report: Report) -> None:
    confirms = [e for e in events if e["event"] == "confirm"]
    booked = {e["key"]: e for e in events if e["event"] == "booked"}
    changed = {e["key"] for e in events if e["event"] == "table changed"}
    report.count("hands the phones were told of", len(booked))
    report.count("double taps", sum(1 for e in confirms if e["double"]))
    report.count("tables changed since the preview", len(changed))
    for confirm in confirms:
        if confirm["key"] not in booked and confirm["key"] not in changed:
            report.fail(f"confirm {confirm['key']} ({confirm['phone']}) got no answer")
    hands = {
        str(h.idempotency_key): h
        for h in Hand.objects.filter(session_id__in=sessions).only(
            "idempotency_key", "session_id", "number", "line_count"
        )
    }
    report.count("hands in the database", len(hands))
    lost = doubled = 0
    for key, told in booked.items():
        hand = hands.get(key)
        if len(told["numbers"]) != 1:
            doubled += 1
            report.fail(f"{told['phone']}: key {key} told of hands {told['numbers']}")
        if hand is None or hand.session_id != told["session"] or [hand.number] != told["numbers"]:
            lost += 1
            report.fail(f"{told['phone']}: hand {told['numbers']} (key {key}) not in the database")
    unlogged = set(hands) - set(booked)
    for key in sorted(unlogged):
        doubled += 1
        hand = hands[key]
        report.fail(f"hand {hand.number} of session {hand.session_id}: no phone was told of it")
    report.count("lost hands", lost)
    report.count("doubled hands", doubled)
    by_session: dict[int, list[int]] = defaultdict(list)
    for hand in hands.values():
        by_session[hand.session_id].append(hand.number)
    gaps = 0
    for session, numbers in by_session.items():
        if sorted(numbers) != list(range(1, len(numbers) + 1)):
            gaps += 1
            report.fail(f"session {session}: hands numbered {sorted(numbers)}")
    report.count("sessions with a gap", gaps)
    sums = Hand.objects.filter(session_id__in=sessions).annotate(
        total=Sum("lines__points"), lines_n=Count("lines")
    )
    unbalanced = 0
    for hand in sums.only("number", "session_id", "line_count"):
        if (hand.total or 0) != 0 or hand.lines_n != hand.line_count:
            unbalanced += 1
            report.fail(
                f"hand {hand.number} of session {hand.session_id}: lines sum to {hand.total}, "
                f"{hand.lines_n} lines of {hand.line_count}"
            )
    report.count("hands whose lines do not sum to zero", unbalanced)


def check_desk(events: list[dict[str, Any]], accounts: dict[str, Any], report: Report) -> None:
    told = [e for e in events if e["event"] == "receipt"]
    entered = [e for e in events if e["event"] == "checked in"]
    report.count("guests checked in", len(entered))
    report.count("receipts the desk was told of", len(told))
    before = set(accounts["receipts_before"])
    receipts = {r.number: r for r in Receipt.objects.exclude(number__in=before)}
    wrong = 0
    for event in told:
        receipt = receipts.pop(event["receipt"], None)
        if (
            receipt is None
            or receipt.amount != Decimal(event["fee"])
            or receipt.payer != event["guest"]
            or receipt.visit_id != event["visit"]
        ):
            wrong += 1
            report.fail(f"receipt {event['receipt']} for {event['guest']}: {receipt!r} differs")
    for number in sorted(receipts):
        wrong += 1
        report.fail(f"receipt {number}: the desk was told of no such receipt")
    incomes = Counter(
        IncomeEntry.objects.exclude(reference__in=before).values_list("reference", flat=True)
    )
    for event in told:
        if incomes.pop(event["receipt"], 0) != 1:
            wrong += 1
            report.fail(f"receipt {event['receipt']}: not once in the cash book")
    for reference in sorted(incomes):
        wrong += 1
        report.fail(f"income {reference}: the desk was told of no such receipt")
    guests = Counter(Visit.objects.filter(member=None).values_list("guest_name", flat=True))
    if guests != Counter(e["guest"] for e in entered):
        wrong += 1
        report.fail(f"non-member visits {dict(guests)} are not the desk's check-ins")
    report.count("receipts, incomes or visits that differ", wrong)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--accounts", type=Path, required=True)
    parser.add_argument("--log", type=Path, required=True, help="the run's folder")
    options = parser.parse_args()
    accounts = json.loads(options.accounts.read_text())
    events = [json.loads(line) for line in (options.log / "phones.jsonl").read_text().splitlines()]
    report = Report()
    errors = [e for e in events if e["event"] == "error"]
    for error in errors[:20]:
        report.fail(f"error: {error}")
    report.count("errors", len(errors))
    if not any(e["event"] == "ready" for e in events):
        report.fail("the phones never all signed in")
    check_hands(events, [t["session"] for t in accounts["tables"]], report)
    check_desk(events, accounts, report)
    out = io.StringIO()
    try:
        call_command("play_check", stdout=out)
        clean = True
    except SystemExit:
        clean = False
    if not clean:
        report.fail("play_check: " + out.getvalue().strip().replace("\n", "; "))
    print("\nafter-check:")
    for what, n in report.counts.items():
        print(f"  {what:42} {n}")
    print(f"  {'play_check':42} {out.getvalue().strip().splitlines()[-1]}")
    for failure in report.failures[:50]:
        print(f"  FAIL {failure}")
    print("  all clean" if not report.failures else f"  {len(report.failures)} failures")
    return 1 if report.failures else 0


if __name__ == "__main__":
    sys.exit(main())
