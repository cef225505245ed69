"""Ending a session (散场)."""

from __future__ import annotations

import pytest
from django.urls import reverse

from clubapp.play import services
from clubapp.play.tests.factories import TableSessionFactory, shipped

pytestmark = pytest.mark.django_db

SEATS = [services.SeatIn(wind=w, name=n) for w, n in zip("ESWN", "甲乙丙丁", strict=True)]


def test_it_ends_a_session_once(room):
    session = TableSessionFactory()
    ended = services.session_end(session=session)
    again = services.session_end(session=ended)
    assert again.ended_at == ended.ended_at


def test_a_recorder_ends_the_session(client, member):
    session = TableSessionFactory()
    client.force_login(member)
    response = client.post(reverse("play:session_end", args=[session.pk]))
    assert response.status_code == 302
    session.refresh_from_db()
    assert session.ended_at is not None


def test_a_session_marks_its_table_in_play_at_the_desk_until_it_ends(room, member):
    from clubapp.members.tests.factories import TableFactory

    table = TableFactory(room=room, number=7)
    first = services.session_create(
        room=room, table_number=7, ruleset=shipped(), seats=SEATS, by=member
    )
    second = services.session_create(
        room=room, table_number=7, ruleset=shipped(), seats=SEATS, by=member
    )
    table.refresh_from_db()
    assert table.in_play
    services.session_end(session=first)
    table.refresh_from_db()
    assert table.in_play  # the other session is still open at it
    services.session_end(session=second)
    table.refresh_from_db()
    assert not table.in_play
