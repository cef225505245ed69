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
