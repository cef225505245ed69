from __future__ import annotations

import threading

import pytest
from django.db import connection, transaction

from clubapp.core.models import DocumentCounter
from clubapp.core.services import next_number
from clubapp.core.tests.factories import RoomFactory


@pytest.mark.django_db
def test_it_counts_from_one_without_gaps(room):
    assert [next_number(room=room, key="receipt-2026") for _ in range(3)] == [1, 2, 3]
    assert DocumentCounter.objects.get(room=room, key="receipt-2026").value == 3


@pytest.mark.django_db
def test_it_keeps_each_series_apart(room):
    next_number(room=room, key="card-2026")
    next_number(room=room, key="card-2026")
    assert next_number(room=room, key="card-2027") == 1
    assert next_number(room=room, key="receipt-2026") == 1


@pytest.mark.django_db
def test_it_gives_the_number_back_when_the_transaction_rolls_back(room):
    next_number(room=room, key="receipt-2026")
    with pytest.raises(RuntimeError), transaction.atomic():
        next_number(room=room, key="receipt-2026")
        raise RuntimeError("the receipt was not saved")
    assert next_number(room=room, key="receipt-2026") == 2


@pytest.mark.django_db(transaction=True)
def test_it_never_hands_out_a_number_twice_under_concurrency(room):
    if connection.vendor != "postgresql":
        pytest.skip("SQLite ignores select_for_update: the locking test needs PostgreSQL")
    results: list[int] = []
    errors: list[BaseException] = []
    barrier = threading.Barrier(8)

    def worker() -> None:
        try:
            barrier.wait()
            for _ in range(10):
                results.append(next_number(room=room, key="receipt-race"))
        except BaseException as exc:  # reported below
            errors.append(exc)
        finally:
            connection.close()

    threads = [threading.Thread(target=worker) for _ in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors
    assert sorted(results) == list(range(1, 81))


@pytest.mark.django_db
def test_each_room_numbers_its_own_documents(room):
    other = RoomFactory(slug="east", name="东区活动室")
    assert [next_number(room=room, key="receipt-2026") for _ in range(2)] == [1, 2]
    assert next_number(room=other, key="receipt-2026") == 1
    assert next_number(room=room, key="receipt-2026") == 3
    assert DocumentCounter.objects.filter(key="receipt-2026").count() == 2
