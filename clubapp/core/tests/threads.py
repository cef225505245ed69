"""Races for the tests: the same call from several threads at once, each on its own
database connection (PostgreSQL only: SQLite serialises writers)."""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any

import pytest
from django.db import connection

#: how many desks race in the tests
THREADS = 8

postgres_only = pytest.mark.skipif(
    connection.vendor != "postgresql",
    reason="SQLite serialises writers: run with DATABASE_URL=postgres://…",
)


def race(book: Callable[[], Any], threads: int = THREADS) -> list[Any]:
    """``book()`` in ``threads`` threads, each on its own connection, released at once;
    every call's answer, and none may raise."""
    barrier = threading.Barrier(threads)
    results: list[Any] = []
    errors: list[BaseException] = []

    def desk() -> None:
        try:
            barrier.wait()
            results.append(book())
        except BaseException as exc:  # noqa: BLE001 - reported below
            errors.append(exc)
        finally:
            connection.close()

    started = [threading.Thread(target=desk) for _ in range(threads)]
    for t in started:
        t.start()
    for t in started:
        t.join()
    assert errors == []
    return results
