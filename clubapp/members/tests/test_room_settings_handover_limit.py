"""The cash book's hand-over limit is a room setting, edited with the others."""

from __future__ import annotations

import pytest
from django.urls import reverse

from clubapp.core.models import Room

pytestmark = pytest.mark.django_db
URL = reverse("members:room_settings")
DATA = {
    "card_fee": "50.00",
    "renewal_fee": "0.00",
    "guest_hourly_fee": "2.00",
    "notice": "",
    "renewal_window_days": "30",
}


def test_it_defaults_to_seven_days(room):
    assert Room.objects.get().handover_limit_days == 7


def test_the_manager_changes_the_limit(client, manager, room):
    client.force_login(manager)
    assert client.post(URL, {**DATA, "handover_limit_days": "3"}).status_code == 302
    room.refresh_from_db()
    assert room.handover_limit_days == 3


def test_an_empty_box_keeps_the_limit(client, manager, room):
    client.force_login(manager)
    client.post(URL, {**DATA, "handover_limit_days": ""})
    room.refresh_from_db()
    assert room.handover_limit_days == 7


@pytest.mark.parametrize("value", ["0", "91", "七"])
def test_a_bad_limit_is_refused_and_nothing_saved(client, manager, room, value):
    client.force_login(manager)
    response = client.post(URL, {**DATA, "card_fee": "60.00", "handover_limit_days": value})
    assert response.status_code == 200
    assert response.context["form"].errors["handover_limit_days"]
    room.refresh_from_db()
    assert (room.handover_limit_days, str(room.card_fee)) == (7, "50.00")


def test_the_accountant_sees_the_limit(client, accountant, room):
    client.force_login(accountant)
    assert "缴款期限" in client.get(URL).content.decode()
