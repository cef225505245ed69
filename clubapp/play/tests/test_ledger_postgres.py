"""The database itself guards the ledger on PostgreSQL: triggers refuse UPDATE and
DELETE, and a deferred constraint trigger refuses, at commit, an entry whose lines
do not sum to zero. These tests go around the models to prove it."""

from __future__ import annotations

import uuid

import pytest
from django.db import IntegrityError, connection, models, transaction

from clubapp.play.models import Hand, LedgerLine
from clubapp.play.tests.factories import TableSessionFactory, book, discard_win
from scoring import night

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.skipif(
        connection.vendor != "postgresql",
        reason="the ledger triggers exist on PostgreSQL only (set DATABASE_URL to run)",
    ),
]


def _bypass_update(queryset: models.QuerySet, **kwargs: object) -> int:
    return models.QuerySet.update(queryset, **kwargs)


def test_the_database_refuses_to_update_a_line():
    hand = book(TableSessionFactory(), discard_win("S", "E"))
    with pytest.raises(IntegrityError, match="append-only"), transaction.atomic():
        _bypass_update(LedgerLine.objects.filter(hand=hand), points=5)
    assert sorted(hand.lines.values_list("points", flat=True)) == [-28, 28]


def test_the_database_refuses_to_delete_a_line_or_a_hand():
    hand = book(TableSessionFactory(), discard_win("S", "E"))
    with pytest.raises(IntegrityError, match="append-only"), transaction.atomic():
        with connection.cursor() as cursor:
            cursor.execute("DELETE FROM play_ledgerline WHERE hand_id = %s", [hand.pk])
    with pytest.raises(IntegrityError, match="append-only"), transaction.atomic():
        _bypass_update(Hand.objects.filter(pk=hand.pk), void_reason="x")
    with pytest.raises(IntegrityError, match="append-only"), transaction.atomic():
        with connection.cursor() as cursor:
            cursor.execute("DELETE FROM play_hand WHERE id = %s", [hand.pk])
    assert hand.lines.count() == 2


def _bare_hand(session, number: int, lines: int = 2) -> Hand:
    return Hand.objects.create(
        room=session.room,
        session=session,
        number=number,
        record={},
        result={},
        ruleset=session.ruleset,
        idempotency_key=uuid.uuid4(),
        line_count=lines,
        **Hand.state_fields(night.start(session.night())),
    )


def test_the_database_refuses_an_unbalanced_entry_at_commit():
    session = TableSessionFactory()
    with pytest.raises(IntegrityError, match="sum to"):
        with transaction.atomic():
            hand = _bare_hand(session, 1)
            LedgerLine.objects.create(
                room=hand.room, hand=hand, seat="E", counterparty="S", points=-10, reason="win"
            )
            LedgerLine.objects.create(
                room=hand.room, hand=hand, seat="S", counterparty="E", points=9, reason="win"
            )
    assert not Hand.objects.exists() and not LedgerLine.objects.exists()


def test_the_balance_check_waits_for_the_commit():
    session = TableSessionFactory()
    with transaction.atomic():
        hand = _bare_hand(session, 1)
        # unbalanced for a moment inside the transaction: allowed
        LedgerLine.objects.create(
            room=hand.room, hand=hand, seat="E", counterparty="S", points=-10, reason="win"
        )
        LedgerLine.objects.create(
            room=hand.room, hand=hand, seat="S", counterparty="E", points=10, reason="win"
        )
    assert LedgerLine.objects.filter(hand=hand).count() == 2


# issue 11 item 4: a row's lines exist only in the transaction that created it


def test_the_database_refuses_at_commit_a_hand_without_its_lines():
    session = TableSessionFactory()
    with pytest.raises(IntegrityError, match="without its"):
        with transaction.atomic():
            hand = _bare_hand(session, 1, lines=2)
            LedgerLine.objects.create(
                room=hand.room, hand=hand, seat="E", counterparty="S", points=-10, reason="win"
            )
    assert not Hand.objects.exists()


def test_lines_cannot_come_in_a_later_transaction():
    session = TableSessionFactory()
    with pytest.raises(IntegrityError, match="without its"):
        with transaction.atomic():
            _bare_hand(session, 1, lines=2)  # its lines "to come later"
    assert not Hand.objects.exists()


def test_the_database_refuses_a_pair_appended_to_a_committed_hand():
    hand = book(TableSessionFactory(), discard_win("S", "E"))
    with pytest.raises(IntegrityError, match="ledger lines"), transaction.atomic():
        with connection.cursor() as cursor:
            cursor.execute(
                "INSERT INTO play_ledgerline"
                " (room_id, hand_id, seat, counterparty, points, reason) VALUES"
                " (%s, %s, 'E', 'S', -500, 'win'), (%s, %s, 'S', 'E', 500, 'win')",
                [hand.room_id, hand.pk, hand.room_id, hand.pk],
            )
    assert hand.lines.count() == 2
