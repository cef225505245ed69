"""Work in a database that was just restored or moved (``test_backups`` runs this in it
with ``manage.py shell -c``): book a hand at an open table and record an income with
its receipt, as the app does, then try to rewrite a book. Writes what happened as JSON."""

from __future__ import annotations

import json
import re
import sys
import uuid
from decimal import Decimal
from typing import Any

from django.contrib.auth import get_user_model
from django.db import IntegrityError, connection, transaction
from django.db.models import Max
from django.utils import timezone

from clubapp.books.models import IncomeCategory, IncomeEntry
from clubapp.books.services.income import income_record, receipt_number
from clubapp.core.models import DEFAULT_ROOM_SLUG, Room
from clubapp.core.rooms import scope
from clubapp.play.models import Hand, LedgerLine, TableSession
from clubapp.play.services import hand_record
from scoring import ScoringError
from scoring.generate import random_hands


def _book_a_hand(room: Room, manager: Any) -> Hand:
    for session in TableSession.objects.filter(room=room, ended_at__isnull=True).order_by("pk"):
        for record in random_hands(99, 40, session.ruleset.ruleset_id):
            try:
                return hand_record(
                    session=session, record=record, idempotency_key=uuid.uuid4(), by=manager
                )
            except ScoringError:
                continue
    raise AssertionError("no open table took a hand")


def run() -> None:
    room = Room.objects.get(slug=DEFAULT_ROOM_SLUG)
    manager = get_user_model().objects.get(username="manager")
    now = timezone.now()
    with scope(room):
        before = {
            "hand": Hand.objects.aggregate(m=Max("pk"))["m"],
            "line": LedgerLine.objects.aggregate(m=Max("pk"))["m"],
            "income": IncomeEntry.objects.aggregate(m=Max("pk"))["m"],
        }
        prefix = f"R{timezone.localtime(now).year}-"
        numbers = [
            int(reference[len(prefix) :])
            for reference in IncomeEntry.objects.filter(
                room=room, reference__startswith=prefix
            ).values_list("reference", flat=True)
            if re.fullmatch(r"\d{5}", reference[len(prefix) :])
        ]
        hand = _book_a_hand(room, manager)
        last_in_session = (
            Hand.objects.filter(session=hand.session).exclude(pk=hand.pk).aggregate(m=Max("number"))
        )["m"]
        income = income_record(
            room=room,
            category=IncomeCategory.DONATION,
            amount=Decimal("30.00"),
            received_at=now,
            reference=receipt_number(room=room, now=now),
            recorded_by=manager,
        )
        refused = False
        try:
            with transaction.atomic(), connection.cursor() as cursor:
                cursor.execute("UPDATE books_incomeentry SET amount = 0 WHERE id = %s", [income.pk])
        except IntegrityError:
            refused = True
    sys.stdout.write(
        json.dumps(
            {
                "before": before,
                "hand": hand.pk,
                "hand_number": hand.number,
                "session_last_number": last_in_session,
                "lines": list(hand.lines.values_list("pk", flat=True)),
                "income": income.pk,
                "receipt": income.reference,
                "receipt_expected": f"{prefix}{max(numbers, default=0) + 1:05d}",
                "update_refused": refused,
            }
        )
    )
