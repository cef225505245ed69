"""Every row keeps the table's state after it; ``manage.py play_check`` recomputes each
from the ledger lines and the results. Long nights (敞开头, 进园子 with 园子 closing,
classic, 工地) with statements and voids between must check clean, and a row booked
around the service with a wrong state must be reported."""

from __future__ import annotations

import random
import uuid
from io import StringIO

import pytest
from django.core.exceptions import ValidationError
from django.core.management import call_command
from django.db.models import Sum

import scoring
from clubapp.members.tests.factories import TableFactory
from clubapp.play import services
from clubapp.play.models import Hand, LedgerLine
from clubapp.play.tests.factories import TableSessionFactory, book, shipped, state_of
from scoring.generate import random_hands

pytestmark = pytest.mark.django_db


def check(*args: str) -> tuple[int, str]:
    out = StringIO()
    try:
        call_command("play_check", *args, stdout=out)
    except SystemExit as exc:
        return int(exc.code or 0), out.getvalue()
    return 0, out.getvalue()


def night(session, family: str, hands: int, seed: int) -> None:
    """Book ``hands`` generated hands, voiding or settling now and then."""
    rng = random.Random(seed)
    booked = 0
    for record in random_hands(seed, hands * 3, family):
        if booked == hands:
            break
        try:
            hand = book(session, record)
        except scoring.ScoringError:
            continue  # 天胡 by a seat that is not dealing, say
        booked += 1
        roll = rng.random()
        if roll < 0.1:
            services.hand_void(hand=hand, reason="记错了", by=None)
        elif roll < 0.25 and state_of(session).number > 0:
            try:
                services.settlement_make(session=session, by=None)
            except ValidationError:
                pass  # nothing since the last statement
    assert booked == hands
    # the stored balances are the sums of the lines
    sums = LedgerLine.objects.filter(hand__session=session).values("seat")
    totals = {row["seat"]: row["t"] for row in sums.annotate(t=Sum("points"))}
    assert {s: p for s, p in state_of(session).balances.items() if p or s in totals} == totals


@pytest.mark.parametrize(
    ("family", "options", "seed"),
    [
        ("nanjing", {"settle_every": "hand"}, 11),
        ("nanjing", {"mode": "garden", "garden_size": 40, "settle_every": "garden"}, 12),
        ("nanjing-classic", {"settle_every": "quan"}, 13),
        ("jiangsu-worksite", {"settle_every": "worksite"}, 14),
    ],
)
def test_long_nights_check_clean(family, options, seed):
    session = TableSessionFactory(ruleset=shipped(family), **options)
    night(session, family, 40, seed)
    if options.get("mode") == "garden":
        assert state_of(session).garden > 2  # a small 园子 closes often
    status, out = check("--session", str(session.pk))
    assert status == 0, out
    assert "1 sessions checked, 0 differences" in out


def test_a_row_booked_around_the_service_is_reported():
    session = TableSessionFactory()
    night(session, "nanjing", 5, 21)
    last = Hand.objects.filter(session=session).order_by("-number").first()
    stale = last.state()  # the state before this row, as a stale read would give it
    row = Hand.objects.create(
        line_count=2,
        room=session.room,
        session=session,
        number=last.number + 1,
        record={"dealer": stale.dealer},
        result={"net": {"E": 10, "S": -10}, "next": {"dealer": stale.dealer, "doubled": False}},
        ruleset=session.ruleset,
        idempotency_key=uuid.uuid4(),
        **Hand.state_fields(stale),
    )
    LedgerLine.objects.create(
        room=row.room, hand=row, seat="E", counterparty="S", points=10, reason="win"
    )
    LedgerLine.objects.create(
        room=row.room, hand=row, seat="S", counterparty="E", points=-10, reason="win"
    )
    status, out = check()
    assert status == 1
    assert f"session {session.pk} #{row.number} balances" in out
    assert f"#{row.number} hands" in out


def test_tables_marked_in_play_are_checked(room):
    table = TableFactory(room=room, number=5, in_play=True)
    status, out = check()
    assert status == 1 and "table 5" in out
    services.session_create(
        room=room,
        table=table,
        ruleset=shipped(),
        seats=[services.SeatIn(wind=w, name=w) for w in "ESWN"],
        by=None,
    )
    assert check()[0] == 0
