"""A seated player confirms a booked hand on their own phone."""

from __future__ import annotations

import pytest
from django.core.exceptions import PermissionDenied, ValidationError
from django.urls import reverse

from clubapp.play import services
from clubapp.play.models import HandSignoff, Seat
from clubapp.play.tests.factories import TableSessionFactory, book, discard_win

pytestmark = pytest.mark.django_db


@pytest.fixture
def session():
    return TableSessionFactory()


def test_a_seated_player_confirms_a_hand_once(client, member, session):
    Seat.objects.filter(session=session, wind="W").update(user=member)
    hand = book(session, discard_win("S", "E"))
    client.force_login(member)
    page = client.get(reverse("play:hand", args=[session.pk, hand.number])).content.decode()
    url = reverse("play:hand_signoff", args=[session.pk, hand.number])
    assert url in page
    client.post(url)
    client.post(url)
    assert list(HandSignoff.objects.values_list("seat", flat=True)) == ["W"]
    page = client.get(reverse("play:hand", args=[session.pk, hand.number])).content.decode()
    assert "✓" in page


def test_someone_not_seated_cannot_confirm(client, accountant, manager, member, session):
    hand = book(session, discard_win("S", "E"))
    url = reverse("play:hand_signoff", args=[session.pk, hand.number])
    for user in (accountant, manager, member):  # the manager too: a sign-off is a player's
        client.force_login(user)
        assert client.post(url).status_code == 403
        with pytest.raises(PermissionDenied):
            services.hand_signoff(hand=hand, by=user)
    assert not HandSignoff.objects.exists()


def test_a_reversal_or_a_voided_hand_needs_no_confirmation(member, session):
    Seat.objects.filter(session=session, wind="W").update(user=member)
    hand = book(session, discard_win())
    reversal = services.hand_void(hand=hand, reason="x", by=None)
    for row in (reversal, hand):
        with pytest.raises(ValidationError):
            services.hand_signoff(hand=row, by=member)


# issue 11 item 8


def test_a_hand_voided_on_another_phone_meanwhile_cannot_be_confirmed(member, session):
    Seat.objects.filter(session=session, wind="W").update(user=member)
    hand = book(session, discard_win())
    assert hand.reversal is None  # this phone read the hand before the void
    services.hand_void(hand=hand, reason="x", by=None)
    with pytest.raises(ValidationError):
        services.hand_signoff(hand=hand, by=member)
    assert not HandSignoff.objects.exists()


def test_the_confirm_button_is_gone_once_confirmed(client, member, session):
    Seat.objects.filter(session=session, wind="W").update(user=member)
    hand = book(session, discard_win("S", "E"))
    client.force_login(member)
    url = reverse("play:hand_signoff", args=[session.pk, hand.number])
    client.post(url)
    page = client.get(reverse("play:hand", args=[session.pk, hand.number])).content.decode()
    assert url not in page
    assert "✓" in page


def test_the_database_refuses_a_signoff_of_a_voided_hand(member, session):
    from django.db import IntegrityError, connection, transaction

    hand = book(session, discard_win())
    services.hand_void(hand=hand, reason="x", by=None)
    with pytest.raises(IntegrityError, match="voided"), transaction.atomic():
        with connection.cursor() as cursor:
            cursor.execute(
                "INSERT INTO play_handsignoff (room_id, hand_id, seat, user_id, created_at) "
                "VALUES (%s, %s, 'W', %s, %s)",
                [hand.room_id, hand.pk, member.pk, hand.created_at],
            )
    assert not HandSignoff.objects.exists()


def test_a_hand_can_be_confirmed_after_the_session_ended(client, member, session):
    """Decision (docs/play.md): a sign-off changes no points, so it is taken after the
    end too (players check their history at home); the booking confirm is not."""
    Seat.objects.filter(session=session, wind="W").update(user=member)
    hand = book(session, discard_win("S", "E"))
    services.session_end(session=session)
    client.force_login(member)
    page = client.get(reverse("play:hand", args=[session.pk, hand.number])).content.decode()
    url = reverse("play:hand_signoff", args=[session.pk, hand.number])
    assert url in page
    client.post(url)
    assert list(HandSignoff.objects.values_list("seat", flat=True)) == ["W"]
