from __future__ import annotations

import datetime as dt
from decimal import Decimal

import pytest
from django.urls import reverse
from django.utils import timezone

from clubapp.core.models import Room
from clubapp.members.models import OpeningException, OpeningPeriod
from clubapp.members.selectors import room_is_open
from clubapp.members.tests.factories import at

pytestmark = pytest.mark.django_db
URL = reverse("members:room_settings")
HOURS = reverse("members:hours_update")

DATA = {
    "card_fee": "60.00",
    "renewal_fee": "5.00",
    "guest_hourly_fee": "2.50",
    "notice": "请勿吸烟。",
    "renewal_window_days": "30",
}


def test_the_manager_changes_fees_and_the_notice(client, manager, room):
    client.force_login(manager)
    assert client.get(URL).status_code == 200
    assert client.post(URL, DATA).status_code == 302
    room.refresh_from_db()
    assert (room.card_fee, room.renewal_fee, room.guest_hourly_fee) == (
        Decimal("60.00"),
        Decimal("5.00"),
        Decimal("2.50"),
    )
    assert room.notice == "请勿吸烟。"


def test_a_negative_fee_is_refused(client, manager, room):
    client.force_login(manager)
    response = client.post(URL, {**DATA, "card_fee": "-1"})
    assert response.status_code == 200
    room.refresh_from_db()
    assert room.card_fee == Decimal("50.00")


def test_the_default_notice_is_the_regulations(room):
    assert "请勿吸烟" in Room.objects.get().notice


def test_the_accountant_reads_but_cannot_change(client, accountant, room):
    client.force_login(accountant)
    assert "50.00" in client.get(URL).content.decode()
    assert client.post(URL, DATA).status_code == 403
    room.refresh_from_db()
    assert room.card_fee == Decimal("50.00")


def test_the_manager_adds_and_deletes_a_special_day(client, manager, room):
    client.force_login(manager)
    day = f"{timezone.localdate() + dt.timedelta(days=5):%Y-%m-%d}"  # the page shows upcoming days
    client.post(
        reverse("members:exception_create"),
        {"date": day, "kind": "open", "opens": "19:00", "closes": "23:00", "note": "夜场"},
    )
    exception = OpeningException.objects.get()
    body = client.get(URL).content.decode()
    assert day in body
    client.post(reverse("members:exception_delete", args=[exception.pk]))
    assert OpeningException.objects.count() == 0


def test_an_evening_past_23_00_is_refused_with_a_message(client, manager, room):
    client.force_login(manager)
    response = client.post(
        reverse("members:exception_create"),
        {"date": "2026-12-05", "kind": "open", "opens": "19:00", "closes": "23:30"},
        follow=True,
    )
    assert "23:00" in " ".join(str(m) for m in response.context["messages"])
    assert OpeningException.objects.count() == 0


def test_the_settings_page_shows_the_default_week_to_edit(client, manager, room):
    client.force_login(manager)
    form = client.get(URL).context["hours_form"]
    assert form.initial["d0_opens0"] == dt.time(9) and form.initial["d0_closes1"] == dt.time(18)
    assert "d2_opens0" not in form.initial  # Wednesday: closed


def _week(**overrides):
    data = {}
    for day in range(7):
        if day != 2:
            data.update({f"d{day}_opens0": "09:00", f"d{day}_closes0": "12:00"})
    data.update(overrides)
    return data


def test_the_manager_saves_the_whole_week(client, manager, room):
    client.force_login(manager)
    client.post(HOURS, _week(d2_opens0="14:00", d2_closes0="17:00"))
    assert OpeningPeriod.objects.filter(room=room).count() == 7
    assert room_is_open(room=room, at=at(25, 15))  # Wednesday afternoon now
    assert not room_is_open(room=room, at=at(30, 15))  # Monday afternoon no more


@pytest.mark.parametrize(
    ("overrides", "message"),
    [
        ({"d0_opens1": "11:00", "d0_closes1": "13:00"}, "重叠"),
        ({"d0_opens1": "19:00", "d0_closes1": "23:30"}, "23:00"),
        ({"d0_opens1": "19:00"}, "同时填写"),
        ({"d0_opens1": "15:00", "d0_closes1": "14:00"}, "早于"),
    ],
)
def test_a_bad_week_is_refused_with_a_message_and_nothing_saved(
    client, manager, room, overrides, message
):
    client.force_login(manager)
    response = client.post(HOURS, _week(**overrides), follow=True)
    assert message in " ".join(str(m) for m in response.context["messages"])
    assert OpeningPeriod.objects.count() == 0


def test_the_accountant_cannot_change_the_week(client, accountant, room):
    client.force_login(accountant)
    assert client.post(HOURS, _week()).status_code == 403
    assert OpeningPeriod.objects.count() == 0
