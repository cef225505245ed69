"""The day's checks page, the list of items, damage and violations."""

from __future__ import annotations

import pytest
from django.urls import reverse

from clubapp.activities.models import CheckItem, CheckTick, Damage, Violation
from clubapp.activities.tests.duty_cast import *  # noqa: F403 - the fixtures
from clubapp.books.models import IncomeEntry
from clubapp.members.models import CardStatus
from clubapp.members.services import card_issue
from clubapp.members.tests.factories import MemberFactory

pytestmark = pytest.mark.django_db


def test_the_first_visit_gives_the_room_its_default_list(client, room, manager, clock):
    client.force_login(manager)
    page = client.get(reverse("activities:checks")).content.decode()
    assert "灯光" in page and "消防通道畅通" in page and "桌面卫生" in page
    assert CheckItem.objects.count() == 6
    client.get(reverse("activities:checks"))
    assert CheckItem.objects.count() == 6


def test_a_tick_then_a_second_tick_is_refused(client, room, manager, clock):
    client.force_login(manager)
    client.get(reverse("activities:checks"))
    item = CheckItem.objects.first()
    url = reverse("activities:check_tick", args=[item.pk])
    response = client.post(url, {"day": "2026-11-30"}, follow=True)
    assert "已打勾" in response.content.decode()
    again = client.post(url, {"day": "2026-11-30"}, follow=True)
    assert "已经打过勾" in again.content.decode()
    assert CheckTick.objects.count() == 1


def test_the_readers_see_the_list_without_buttons(client, room, manager, accountant, clock):
    client.force_login(accountant)
    page = client.get(reverse("activities:checks")).content.decode()
    assert "灯光" in page and "打勾</button>" not in page


def test_items_are_added_renamed_moved_and_retired(client, room, manager, clock):
    client.force_login(manager)
    url = reverse("activities:check_items")
    client.post(url, {"phase": "opening", "text": "空调"})
    item = CheckItem.objects.get(text="空调")
    edit = reverse("activities:check_item_edit", args=[item.pk])
    client.post(edit, {"action": "rename", "text": "空调关闭"})
    client.post(edit, {"action": "up"})
    client.post(edit, {"action": "retire"})
    item.refresh_from_db()
    assert (item.text, item.position, item.active) == ("空调关闭", 0, False)
    assert "已停止检查" in client.get(url).content.decode()
    response = client.post(url, {"phase": "opening", "text": ""})
    assert CheckItem.objects.count() == 1 and response.status_code == 200


def test_damage_with_compensation_books_a_receipt(client, room, manager, clock):
    person = MemberFactory(room=room, name="钱大伯")
    client.force_login(manager)
    response = client.post(
        reverse("activities:damage_create"),
        {
            "day": "2026-11-30",
            "equipment": "象棋一副",
            "member": person.pk,
            "compensation": "35.00",
        },
        follow=True,
    )
    page = response.content.decode()
    entry = IncomeEntry.objects.get()
    assert f"收据 {entry.reference}" in page and "35.00" in page
    assert Damage.objects.get().income == entry


def test_a_negative_compensation_is_refused(client, room, manager, clock):
    client.force_login(manager)
    response = client.post(
        reverse("activities:damage_create"),
        {"day": "2026-11-30", "equipment": "椅子", "compensation": "-5"},
    )
    assert "赔偿金额不能为负数" in response.content.decode()
    assert not Damage.objects.exists()


def test_gambling_revokes_the_card_and_says_so(client, room, manager, clock):
    person = MemberFactory(room=room)
    card = card_issue(member=person, by=manager)
    client.force_login(manager)
    response = client.post(
        reverse("activities:violation_create"),
        {"day": "2026-11-30", "member": person.pk, "kind": "gambling", "notes": "赌钱"},
        follow=True,
    )
    assert f"会员证 {card.number} 已注销" in response.content.decode()
    card.refresh_from_db()
    assert card.status == CardStatus.REVOKED


def test_gambling_without_a_card_says_none_was_revoked(client, room, manager, clock):
    person = MemberFactory(room=room)
    client.force_login(manager)
    response = client.post(
        reverse("activities:violation_create"),
        {"day": "2026-11-30", "member": person.pk, "kind": "gambling", "notes": "赌钱"},
        follow=True,
    )
    assert "未注销会员证" in response.content.decode()
    assert Violation.objects.get().card is None


def test_a_violation_needs_what_happened(client, room, manager, clock):
    person = MemberFactory(room=room)
    client.force_login(manager)
    client.post(
        reverse("activities:violation_create"),
        {"day": "2026-11-30", "member": person.pk, "kind": "smoking", "notes": ""},
    )
    assert not Violation.objects.exists()
    page = client.get(reverse("activities:violation_list")).content.decode()
    assert "没有违规记录" in page
