"""The visit page: times, who, the special admission, 补记离场, the fee and receipt."""

from __future__ import annotations

import pytest
from django.urls import reverse

from clubapp.members.services import visit_check_in, visit_check_out
from clubapp.members.tests.factories import at

pytestmark = pytest.mark.django_db


def test_it_shows_the_special_admission_and_the_recorded_close_out(
    client, room, manager, accountant, tables, clock
):
    visit = visit_check_in(
        room=room, guest_name="夜客", by=manager, now=at(30, 19), admitted_reason="象棋夜场"
    )
    visit_check_out(visit=visit, by=manager, now=at(1, 9, month=12), left_at=at(30, 20, 25))
    client.force_login(accountant)
    body = client.get(reverse("members:visit_detail", args=[visit.pk])).content.decode()
    assert "象棋夜场" in body and "准许人" in body
    assert "2026-11-30 20:25" in body and "2026-12-01 09:00补记" in body
    assert "1 小时 25 分" in body and "R2026-00001" in body


def test_an_open_visit_past_closing_says_so(client, room, manager, tables, clock):
    visit = visit_check_in(room=room, guest_name="过路客", by=manager, now=at(30, 17))
    clock.set(at(30, 19))
    client.force_login(manager)
    body = client.get(reverse("members:visit_detail", args=[visit.pk])).content.decode()
    assert "闭馆后仍在场" in body and "补记离场" in body and "1 小时" in body


def test_a_member_cannot_read_visits(client, room, manager, member, tables, clock):
    visit = visit_check_in(room=room, guest_name="过路客", by=manager, now=at(30, 10))
    client.force_login(member)
    assert client.get(reverse("members:visit_detail", args=[visit.pk])).status_code == 403
