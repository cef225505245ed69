"""A hand kept on a phone while offline (play/offline.js), sent when the network is
back: booked once under its key, in order on its basis; a basis that no longer holds
(another phone's hand, a statement) or a refused hand is held, never booked blindly."""

from __future__ import annotations

import uuid

import pytest
from django.urls import reverse

from clubapp.play import services
from clubapp.play.models import Hand
from clubapp.play.tests.factories import TableSessionFactory, book, discard_win, hand_data

pytestmark = pytest.mark.django_db

QUICK = hand_data(winners=["S"], discarder="E", **{"S-hard": "4", "S-soft": "0"})


@pytest.fixture
def session(member):
    return TableSessionFactory(seated=member)


def send(client, session, *, after=0, settled=0, key=None, data=QUICK):
    fields = {**data, "key": str(key or uuid.uuid4()), "after": after, "settled": settled}
    response = client.post(
        reverse("play:hand_book", args=[session.pk]), fields, HTTP_X_ENTRY_QUEUED="1"
    )
    assert response["Content-Type"] == "application/json"
    return response.json()


def test_kept_hands_book_in_order_and_a_replayed_key_books_nothing(client, member, session):
    client.force_login(member)
    first, second = uuid.uuid4(), uuid.uuid4()
    assert send(client, session, key=first) == {"outcome": "booked", "number": 1}
    assert send(client, session, key=second, after=1) == {"outcome": "booked", "number": 2}
    assert send(client, session, key=first) == {"outcome": "already", "number": 1}
    assert [h.idempotency_key for h in Hand.objects.order_by("number")] == [first, second]
    assert Hand.objects.get(number=1).result["net"]["S"] == 28  # scored when booked


def test_another_phones_hand_since_holds_it(client, member, session):
    book(session, discard_win())
    client.force_login(member)
    answer = send(client, session, after=0)
    assert answer["outcome"] == "changed" and answer["errors"]
    assert Hand.objects.count() == 1


def test_a_statement_since_holds_it(client, member, session):
    book(session, discard_win())
    services.settlement_make(session=session, by=None)
    client.force_login(member)
    assert send(client, session, after=1, settled=0)["outcome"] == "changed"
    assert send(client, session, after=1, settled=1)["outcome"] == "booked"


def test_a_refused_hand_is_held_with_its_reason(client, member, session):
    client.force_login(member)
    answer = send(client, session, data=hand_data(winners=["S"], discarder="S"))
    assert answer["outcome"] == "invalid" and answer["errors"]
    assert not Hand.objects.exists()


def test_a_held_hands_preview_books_it_under_its_own_key(client, member, session):
    book(session, discard_win())
    client.force_login(member)
    key = uuid.uuid4()
    response = client.post(
        reverse("play:hand_preview", args=[session.pk]), {**QUICK, "queued_key": str(key)}
    )
    assert response.context["key"] == key and response.context["after"] == 1
    assert send(client, session, key=key, after=1, settled=0)["outcome"] == "booked"
    assert send(client, session, key=key, after=0)["outcome"] == "already"


def test_the_entry_page_gives_the_basis_and_is_kept_offline(client, member, session):
    book(session, discard_win())
    client.force_login(member)
    response = client.get(reverse("play:hand_entry", args=[session.pk]))
    assert response["X-Offline-Keep"] == "1"
    html = response.content.decode()
    assert f'data-user="{member.pk}"' in html and 'data-after="1"' in html
    assert 'data-settled="0"' in html
    asked = client.get(reverse("play:hand_entry", args=[session.pk]) + f"?key={uuid.uuid4()}")
    assert "X-Offline-Keep" not in asked
