"""Issue 15 item 9: a member's points history is the member's (linked from their page,
there for members without a login); a player sees the hands waiting for their
confirmation; a confirmed hand no longer offers the button."""

from __future__ import annotations

import pytest
from django.urls import reverse

from clubapp.members import services as member_services
from clubapp.members.models import Visit
from clubapp.members.tests.factories import make_id_number
from clubapp.play import services
from clubapp.play.tests.factories import TableSessionFactory, book, discard_win

pytestmark = pytest.mark.django_db


def _seat_member_by_visit(session, wind, member, manager):
    card = member_services.card_issue(member=member, by=manager)
    visit = Visit.objects.create(
        room=session.room,
        member=member,
        card=card,
        checked_in_at=session.started_at,
        checked_in_by=manager,
    )
    session.seats.filter(wind=wind).update(visit=visit, name=member.name)


def test_a_member_without_a_login_has_a_points_history(client, room, manager):
    person = member_services.member_create(
        room=room, name="钱大伯", phone="13800000002", id_number=make_id_number(2), by=manager
    )
    session = TableSessionFactory(room=room)
    _seat_member_by_visit(session, "S", person, manager)
    book(session, discard_win("S", "E"))
    client.force_login(manager)
    page = client.get(reverse("members:member_detail", args=[person.pk])).content.decode()
    url = reverse("play:member_points", args=[person.pk])
    assert url in page  # linked from the member's page
    body = client.get(url).content.decode()
    assert "钱大伯" in body and "+28" in body


def test_another_member_cannot_read_it(client, room, manager, member):
    person = member_services.member_create(
        room=room, name="钱大伯", phone="13800000002", id_number=make_id_number(2), by=manager
    )
    client.force_login(member)
    assert client.get(reverse("play:member_points", args=[person.pk])).status_code == 403


def test_a_player_sees_the_hands_waiting_for_their_confirmation(client, member):
    session = TableSessionFactory()
    session.seats.filter(wind="E").update(user=member)
    first = book(session, discard_win("S", "E"))
    second = book(session, discard_win("W", "N"))
    services.hand_signoff(hand=first, by=member)
    client.force_login(member)
    body = client.get(reverse("play:my_history")).content.decode()
    waiting = body.split('id="awaiting"')[1].split("</div>")[0]
    assert reverse("play:hand", args=[session.pk, second.number]) in waiting
    assert reverse("play:hand", args=[session.pk, first.number]) not in waiting


def test_a_confirmed_hand_no_longer_offers_the_button(client, member):
    session = TableSessionFactory()
    session.seats.filter(wind="E").update(user=member)
    hand = book(session, discard_win("S", "E"))
    url = reverse("play:hand", args=[session.pk, hand.number])
    confirm = reverse("play:hand_signoff", args=[session.pk, hand.number])
    client.force_login(member)
    assert confirm in client.get(url).content.decode()
    client.post(confirm)
    assert confirm not in client.get(url).content.decode()


def test_the_table_page_tells_a_seated_player_what_waits_for_them(client, member):
    session = TableSessionFactory()
    session.seats.filter(wind="E").update(user=member)
    book(session, discard_win("S", "E"))
    book(session, discard_win("W", "N"))
    client.force_login(member)
    assert "2 把待你确认" in client.get(session.get_absolute_url()).content.decode()


def test_a_hand_the_player_booked_is_not_asked_of_them(client, member):
    """The recorder saw the hand when they booked it: only the other players are asked
    (issue 26's day test: "5 把待你确认" for the recorder's own five hands)."""
    session = TableSessionFactory()
    session.seats.filter(wind="E").update(user=member)
    book(session, discard_win("S", "E"), by=member)
    theirs = book(session, discard_win("W", "N"))
    client.force_login(member)
    assert "1 把待你确认" in client.get(session.get_absolute_url()).content.decode()
    body = client.get(reverse("play:my_history")).content.decode()
    waiting = body.split('id="awaiting"')[1].split("</div>")[0]
    assert waiting.count(f"/play/{session.pk}/hands/") == 1
    assert reverse("play:hand", args=[session.pk, theirs.number]) in waiting
