"""History: a member's points over time, wins, self-draws, deal-ins, big hands."""

from __future__ import annotations

import pytest
from django.urls import reverse

from clubapp.core.tests.factories import RoomFactory
from clubapp.play import selectors, services
from clubapp.play.models import Seat
from clubapp.play.tests.factories import TableSessionFactory, book, discard_win, self_drawn

pytestmark = pytest.mark.django_db


def _seat(session, wind, user):
    Seat.objects.filter(session=session, wind=wind).update(user=user)


def test_it_counts_a_members_play_over_sessions(member):
    first = TableSessionFactory()
    _seat(first, "S", member)
    book(first, discard_win("S", "E"))  # S wins 28 on E's tile
    book(first, discard_win("W", "S"))  # S deals in: pays 28
    wrong = book(first, self_drawn("W"))
    services.hand_void(hand=wrong, reason="错", by=None)
    second = TableSessionFactory()
    _seat(second, "E", member)
    book(second, self_drawn("E", features=("menqing", "qingyise")))  # a big hand
    stats = selectors.member_stats(room=RoomFactory(), user=member)
    assert stats.hands == 3
    assert (stats.wins, stats.self_draws, stats.deal_ins, stats.big_hands) == (2, 1, 1, 1)
    assert stats.average_deal_in == 28.0
    win_values = 28 + (2 * 5 + 20 + 20 + 60)
    assert stats.average_win == round(win_values / 2, 1)
    assert [row["points"] for row in stats.sessions] == [0, 3 * 110]
    assert [row["running"] for row in stats.sessions] == [0, 330]
    assert stats.points == 330


def test_a_member_with_no_sessions_has_empty_history(member):
    stats = selectors.member_stats(room=RoomFactory(), user=member)
    assert (stats.hands, stats.points, stats.average_win, stats.average_deal_in) == (0, 0, 0, 0)


def test_a_member_sees_their_own_history(client, member):
    session = TableSessionFactory()
    _seat(session, "S", member)
    book(session, discard_win("S", "E"))
    client.force_login(member)
    response = client.get(reverse("play:my_history"))
    assert response.status_code == 200
    assert response.context["stats"].wins == 1
    assert session.get_absolute_url() in response.content.decode()


def test_members_cannot_see_each_others_history(client, member, manager):
    client.force_login(member)
    assert client.get(reverse("play:member_history", args=[manager.pk])).status_code == 403
    assert client.get(reverse("play:member_history", args=[member.pk])).status_code == 200


def test_accountants_see_anyones_history(client, accountant, member):
    client.force_login(accountant)
    response = client.get(reverse("play:member_history", args=[member.pk]))
    assert response.status_code == 200 and response.context["name"] == member.get_short_name()
