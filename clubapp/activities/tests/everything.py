"""At least one row of every append-only table of the activities app, written by its
services (``clubapp/core/tests/test_appendonly.py`` calls it)."""

from __future__ import annotations


def activities_one_of_everything() -> None:
    # plans and records
    # tournaments
    from clubapp.activities.tests.test_tournaments_everything import tournaments_one_of_everything

    tournaments_one_of_everything()
    # duty and leave
    # the day's checks, damage and violations
    pass
