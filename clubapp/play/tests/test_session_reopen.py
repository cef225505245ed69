"""Reopening a session ended by mistake: a manager's, the same night, at a free table,
with every seated player still in the room."""

from __future__ import annotations

import pytest
from django.core.exceptions import PermissionDenied, ValidationError
from django.urls import reverse

from clubapp.members.tests.factories import TableFactory
from clubapp.play import services
from clubapp.play.models import TableSession
from clubapp.play.tests.factories import TableSessionFactory, shipped

pytestmark = pytest.mark.django_db

SEATS = [services.SeatIn(wind=w, name=n) for w, n in zip("ESWN", "甲乙丙丁", strict=True)]


def test_a_manager_reopens_a_session_ended_by_mistake(client, room, manager):
    table = TableFactory(room=room, number=8)
    session = services.session_create(
        room=room, table=table, ruleset=shipped(), seats=SEATS, by=None
    )
    services.session_end(session=session, by=manager)
    client.force_login(manager)
    page = client.get(session.get_absolute_url()).content.decode()
    assert reverse("play:session_reopen", args=[session.pk]) in page
    response = client.post(reverse("play:session_reopen", args=[session.pk]))
    assert response.status_code == 302
    session.refresh_from_db()
    table.refresh_from_db()
    assert session.is_open and session.reopened_by == manager and table.in_play


def test_only_a_manager_reopens(client, member):
    session = TableSessionFactory(seated=member)
    services.session_end(session=session, by=member)
    client.force_login(member)
    assert client.post(reverse("play:session_reopen", args=[session.pk])).status_code == 403
    with pytest.raises(PermissionDenied):
        services.session_reopen(session=session, by=member)
    assert not TableSession.objects.get(pk=session.pk).is_open


def test_reopening_is_the_same_night_and_at_a_free_table(room, manager):
    from datetime import timedelta

    session = services.session_end(session=TableSessionFactory(room=room), by=manager)
    later = session.ended_at + services.REOPEN_WITHIN + timedelta(minutes=1)
    with pytest.raises(ValidationError) as late:
        services.session_reopen(session=session, by=manager, now=later)
    TableSessionFactory(room=room, table=session.table, table_number=session.table_number)
    with pytest.raises(ValidationError) as busy:
        services.session_reopen(session=session, by=manager)
    assert (late.value.code, busy.value.code) == ("reopen_too_late", "table_in_play")


def test_reopening_refuses_a_player_who_has_checked_out(room, manager):
    from django.utils import timezone

    from clubapp.members.tests.factories import VisitFactory

    visits = [VisitFactory(room=room, guest_name=n, checked_in_by=manager) for n in "甲乙丙丁"]
    session = services.session_create(
        room=room, table=TableFactory(room=room, number=9), ruleset=shipped(), by=manager,
        seats=[services.SeatIn(wind=w, visit=v) for w, v in zip("ESWN", visits, strict=True)],
    )  # fmt: skip
    services.session_end(session=session, by=manager)
    visits[2].checked_out_at = timezone.now()
    visits[2].save()
    with pytest.raises(ValidationError) as gone:
        services.session_reopen(session=session, by=manager)
    assert gone.value.code == "visit_closed"
