"""Ending a session (散场): a seated player or a manager, confirmed, apart from 记一把."""

from __future__ import annotations

import pytest
from django.core.exceptions import PermissionDenied
from django.urls import reverse

from clubapp.core.roles import Role
from clubapp.core.tests.factories import UserFactory
from clubapp.members.tests.factories import TableFactory
from clubapp.play import services
from clubapp.play.tests.factories import TableSessionFactory, shipped

pytestmark = pytest.mark.django_db

SEATS = [services.SeatIn(wind=w, name=n) for w, n in zip("ESWN", "甲乙丙丁", strict=True)]


def _url(session):
    return reverse("play:session_end", args=[session.pk])


def test_it_ends_a_session_once(room):
    session = TableSessionFactory()
    ended = services.session_end(session=session)
    again = services.session_end(session=ended)
    assert again.ended_at == ended.ended_at


def test_ending_asks_first_then_ends_on_the_confirm(client, member):
    session = TableSessionFactory(seated=member)
    client.force_login(member)
    asked = client.post(_url(session))
    assert asked.status_code == 200 and 'name="confirm" value="yes"' in asked.content.decode()
    session.refresh_from_db()
    assert session.ended_at is None
    response = client.post(_url(session), {"confirm": "yes"})
    assert response.status_code == 302
    session.refresh_from_db()
    assert session.ended_at is not None


def test_a_player_not_at_the_table_cannot_end_it(client, member):
    session = TableSessionFactory()
    client.force_login(member)
    assert client.post(_url(session), {"confirm": "yes"}).status_code == 403
    with pytest.raises(PermissionDenied):
        services.session_end(session=session, by=member)
    session.refresh_from_db()
    assert session.ended_at is None


def test_the_end_button_sits_apart_from_recording_a_hand(client, member):
    session = TableSessionFactory(seated=member)
    client.force_login(member)
    body = client.get(session.get_absolute_url()).content.decode()
    actions = body.split('class="actions"')[1].split("</div>")[0]
    assert reverse("play:hand_entry", args=[session.pk]) in actions
    assert _url(session) not in actions
    assert _url(session) in body.split('class="card end-session"')[1]


def test_a_session_marks_its_table_in_play_at_the_desk_until_it_ends(room):
    table = TableFactory(room=room, number=7)
    first = services.session_create(room=room, table=table, ruleset=shipped(), seats=SEATS, by=None)
    table.refresh_from_db()
    assert table.in_play
    services.session_end(session=first)
    table.refresh_from_db()
    assert not table.in_play


# issue 11 item 3: a closed night stays closed


def test_ending_freezes_the_final_statement_of_what_is_unsettled():
    from clubapp.play.tests.factories import book, discard_win

    session = TableSessionFactory(settle_every="session")
    book(session, discard_win("S", "E"))
    book(session, discard_win("W", "S"))
    services.session_end(session=session)
    final = session.settlements.get()
    assert (final.first_number, final.last_number) == (1, 2)
    assert final.statement["net"] == {"E": -28, "S": 0, "W": 28, "N": 0}


def test_ending_a_settled_session_makes_no_empty_statement():
    from clubapp.play.tests.factories import book, discard_win

    session = TableSessionFactory(settle_every="hand")
    book(session, discard_win("S", "E"))
    services.settlement_make(session=session, by=None)
    services.session_end(session=session)
    assert session.settlements.count() == 1


def test_an_ended_session_takes_no_statement():
    session = TableSessionFactory(settle_every="session")
    services.session_end(session=session)
    with pytest.raises(services.SessionClosedError):
        services.settlement_make(session=session, by=None)
    assert not session.settlements.exists()


def test_the_page_of_an_ended_session_offers_no_statement(client, member):
    from clubapp.play.tests.factories import book, discard_win

    session = TableSessionFactory(settle_every="session", seated=member)
    book(session, discard_win("S", "E"))
    services.session_end(session=session)
    client.force_login(member)
    body = client.get(session.get_absolute_url()).content.decode()
    assert reverse("play:settlement_create", args=[session.pk]) not in body
    response = client.post(reverse("play:settlement_create", args=[session.pk]))
    assert response.status_code == 302
    assert session.settlements.count() == 1  # the final one, made by the end
    body = client.get(response["Location"]).content.decode()
    assert "牌局已结束" in body


def test_an_accountant_cannot_end_a_table(client):
    accountant = UserFactory(roles=[Role.ACCOUNTANT])
    session = TableSessionFactory()
    client.force_login(accountant)
    assert client.post(_url(session), {"confirm": "yes"}).status_code == 403
