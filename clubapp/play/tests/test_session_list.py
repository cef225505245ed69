"""The tables page: sessions for readers, nothing for outsiders."""

from __future__ import annotations

import pytest
from django.urls import reverse

from clubapp.play import services
from clubapp.play.tests.factories import TableSessionFactory

pytestmark = pytest.mark.django_db

SEATS = [services.SeatIn(wind=w, name=n) for w, n in zip("ESWN", "甲乙丙丁", strict=True)]


def test_it_lists_sessions_for_readers(client, accountant):
    session = TableSessionFactory(table_number=7)
    client.force_login(accountant)
    response = client.get(reverse("play:sessions"))
    assert response.status_code == 200
    assert session.get_absolute_url() in response.content.decode()
    assert reverse("play:session_create") not in response.content.decode()


def test_it_refuses_outsiders(client, outsider):
    client.force_login(outsider)
    assert client.get(reverse("play:sessions")).status_code == 403


def test_it_sends_anonymous_users_to_login(client, db):
    response = client.get(reverse("play:sessions"))
    assert response.status_code == 302 and "/accounts/login/" in response["Location"]


def test_a_member_lists_only_the_tables_where_they_sit(client, member):
    mine, other = TableSessionFactory(seated=member), TableSessionFactory()
    client.force_login(member)
    body = client.get(reverse("play:sessions")).content.decode()
    assert mine.get_absolute_url() in body and other.get_absolute_url() not in body


def test_it_shows_the_rooms_tables_as_the_desk_does(client, room, accountant):
    from clubapp.members.models import Table

    Table.objects.create(room=room, number=1)
    Table.objects.create(room=room, number=2, occupied=True)
    Table.objects.create(room=room, number=3, in_play=True)
    Table.objects.create(room=room, number=4, active=False)
    client.force_login(accountant)
    page = client.get(reverse("play:sessions"))
    assert [(t.number, state) for t, state in page.context["tables"]] == [
        (1, "free"), (2, "occupied"), (3, "play"),
    ]  # fmt: skip
    body = page.content.decode()
    for word in ("空闲", "占用", "对局中"):
        assert word in body
    desk = client.get(reverse("members:visit_list")).content.decode()
    tiles = body.split('class="tables plain compact"')[1].split("</ul>")[0]
    assert tiles in desk  # the same tiles, word for word
