"""The ledger is append-only and its rows are checked by the database."""

from __future__ import annotations

import pytest
from django.db import IntegrityError, transaction

from clubapp.core.appendonly import AppendOnlyError
from clubapp.play.models import Hand, LedgerLine
from clubapp.play.tests.factories import TableSessionFactory, book, discard_win

pytestmark = pytest.mark.django_db


@pytest.fixture
def hand():
    return book(TableSessionFactory(), discard_win("S", "E"))


def test_it_refuses_to_save_a_booked_line_again(hand):
    line = hand.lines.first()
    line.points = 1000
    with pytest.raises(AppendOnlyError):
        line.save()


def test_it_refuses_to_delete_a_line_or_a_hand(hand):
    with pytest.raises(AppendOnlyError):
        hand.lines.first().delete()
    with pytest.raises(AppendOnlyError):
        hand.delete()


def test_its_querysets_refuse_update_and_delete(hand):
    with pytest.raises(AppendOnlyError):
        LedgerLine.objects.filter(hand=hand).update(points=1)
    with pytest.raises(AppendOnlyError):
        LedgerLine.objects.all().delete()
    with pytest.raises(AppendOnlyError):
        Hand.objects.filter(pk=hand.pk).update(number=9)


def test_it_refuses_to_save_a_booked_hand_again(hand):
    hand.result = {}
    with pytest.raises(AppendOnlyError):
        hand.save()


@pytest.mark.parametrize(
    "bad",
    [
        {"points": 0},
        {"seat": "X"},
        {"counterparty": "S", "seat": "S"},
        {"reason": ""},
    ],
)
def test_the_database_refuses_a_bad_line(hand, bad):
    fields = {
        "room": hand.room,
        "hand": hand,
        "seat": "E",
        "counterparty": "S",
        "points": 1,
        "reason": "win",
    }
    fields.update(bad)
    with pytest.raises(IntegrityError), transaction.atomic():
        LedgerLine.objects.bulk_create([LedgerLine(**fields)])


def test_the_database_refuses_a_second_entry_with_one_number(hand):
    import uuid

    dup = Hand(
        room=hand.session.room,
        session=hand.session,
        number=hand.number,
        record={},
        result={},
        ruleset=hand.ruleset,
        idempotency_key=uuid.uuid4(),
        line_count=0,
        **Hand.state_fields(hand.state()),
    )
    with pytest.raises(IntegrityError, match="(?i)unique"), transaction.atomic():
        Hand.objects.bulk_create([dup])


def test_the_database_refuses_a_void_without_reason(hand):
    import uuid

    entry = Hand(
        room=hand.session.room,
        session=hand.session,
        number=2,
        record={},
        result={},
        ruleset=hand.ruleset,
        idempotency_key=uuid.uuid4(),
        voids=hand,
        line_count=0,
        **Hand.state_fields(hand.state()),
    )
    with pytest.raises(IntegrityError, match="void_has_reason"), transaction.atomic():
        Hand.objects.bulk_create([entry])


def test_the_database_refuses_a_state_with_a_bad_dealer_or_a_garden_without_balances(hand):
    import uuid

    for bad in ({"dealer": "X"}, {"garden": 2, "garden_left": None}):
        row = Hand(
            room=hand.session.room,
            session=hand.session,
            number=2,
            record={},
            result={},
            ruleset=hand.ruleset,
            idempotency_key=uuid.uuid4(),
            line_count=0,
            **{**Hand.state_fields(hand.state()), **bad},
        )
        with pytest.raises(IntegrityError), transaction.atomic():
            Hand.objects.bulk_create([row])


# issue 11 item 4: lines only with their hand, in its transaction (PostgreSQL and SQLite)


def _append_raw(hand, lines):
    """INSERT lines around the models, as a shell or a script could."""
    from django.db import connection

    with connection.cursor() as cursor:
        cursor.executemany(
            "INSERT INTO play_ledgerline (room_id, hand_id, seat, counterparty, points, reason) "
            "VALUES (%s, %s, %s, %s, %s, %s)",
            [(hand.room_id, hand.pk, *line) for line in lines],
        )


def test_the_database_refuses_a_balanced_pair_appended_to_an_old_hand(hand):
    assert hand.line_count == 2
    with pytest.raises(IntegrityError, match="ledger lines"), transaction.atomic():
        _append_raw(hand, [("E", "S", -500, "win"), ("S", "E", 500, "win")])
    assert sorted(hand.lines.values_list("points", flat=True)) == [-28, 28]


def test_the_database_refuses_a_line_appended_to_a_reversal(hand):
    from clubapp.play import services

    reversal = services.hand_void(hand=hand, reason="x", by=None)
    with pytest.raises(IntegrityError, match="ledger lines"), transaction.atomic():
        _append_raw(reversal, [("W", "N", -5, "win"), ("N", "W", 5, "win")])
    assert reversal.lines.count() == 2


def test_a_hand_stores_how_many_lines_it_has():
    from clubapp.play.tests.factories import drawn_hand, self_drawn

    session = TableSessionFactory()
    for record, count in ((self_drawn("E"), 6), (drawn_hand(), 0), (discard_win("S", "E"), 2)):
        row = book(session, record)
        assert row.line_count == count == row.lines.count()


# issue 22 item 5: a hand's lines sum to zero on SQLite too (PostgreSQL: at the commit)


def _bare_hand(session, lines: int):
    import uuid

    from scoring import night

    return Hand.objects.create(
        room=session.room,
        session=session,
        number=1,
        record={},
        result={},
        ruleset=session.ruleset,
        idempotency_key=uuid.uuid4(),
        line_count=lines,
        **Hand.state_fields(night.start(session.night())),
    )


@pytest.mark.django_db(transaction=True)
def test_the_database_refuses_an_unbalanced_hands_lines():
    session = TableSessionFactory()
    with pytest.raises(IntegrityError, match="zero"):
        with transaction.atomic():
            hand = _bare_hand(session, lines=2)
            _append_raw(hand, [("E", "S", -10, "win"), ("S", "E", 9, "win")])
    assert not Hand.objects.exists() and not LedgerLine.objects.exists()


@pytest.mark.django_db(transaction=True)
def test_the_database_takes_a_balanced_hands_lines_one_by_one():
    session = TableSessionFactory()
    with transaction.atomic():
        hand = _bare_hand(session, lines=2)
        _append_raw(hand, [("E", "S", -10, "win")])  # unbalanced for a moment: allowed
        _append_raw(hand, [("S", "E", 10, "win")])
    assert sorted(hand.lines.values_list("points", flat=True)) == [-10, 10]
