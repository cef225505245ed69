from __future__ import annotations

import io
from decimal import Decimal

import pytest
from django.urls import reverse

from clubapp.members.models import Receipt, Visit
from clubapp.members.services import card_issue, member_create, table_set_occupied
from clubapp.members.tests.factories import at, image_bytes, make_id_number

pytestmark = pytest.mark.django_db


@pytest.fixture
def card(room, manager, clock):
    person = member_create(
        room=room,
        name="赵会员",
        phone="1",
        id_number=make_id_number(31),
        photo=io.BytesIO(image_bytes()),
        by=manager,
    )
    return card_issue(member=person, by=manager)


def _check_in(client, card):
    """The desk's confirmation of a card it looked up."""
    return client.post(reverse("members:visit_check_in"), {"card_id": card.pk, "confirm": "1"})


def _messages(response) -> str:
    return " ".join(str(m) for m in response.context["messages"])


def test_the_desk_page_shows_free_tables_and_hours(client, manager, tables, clock):
    table_set_occupied(table=tables[0], occupied=True)
    client.force_login(manager)
    body = client.get(reverse("members:visit_list")).content.decode()
    assert "2 张空闲牌桌" in body
    assert "12:00" in body


def test_check_in_shows_the_card_photo_and_the_room_notice(client, manager, card, room):
    client.force_login(manager)
    body = client.post(reverse("members:visit_check_in"), {"q": card.number}).content.decode()
    assert reverse("members:member_photo", args=[card.member.pk]) in body
    assert "赵会员" in body
    assert "请勿吸烟" in body and "严禁赌博" in body
    photo = client.get(reverse("members:member_photo", args=[card.member.pk]))
    assert photo.status_code == 200


def test_a_member_checks_in_and_out(client, manager, card):
    client.force_login(manager)
    response = _check_in(client, card)
    assert response.status_code == 302
    visit = Visit.objects.get()
    assert visit.member == card.member
    client.post(reverse("members:visit_check_out", args=[visit.pk]))
    visit.refresh_from_db()
    assert not visit.is_open


def test_an_unknown_card_number_says_so(client, manager, clock, room):
    client.force_login(manager)
    response = client.post(reverse("members:visit_check_in"), {"q": "2026-9999"})
    assert "没有找到" in response.content.decode()


def test_checking_in_a_member_already_inside_says_so_and_saves_nothing(client, manager, card):
    client.force_login(manager)
    _check_in(client, card)
    response = _check_in(client, card)
    assert "已在场内" in _messages(response)
    assert Visit.objects.count() == 1


def test_a_non_member_is_refused_with_the_reason_when_no_table_is_free(
    client, manager, room, clock
):
    client.force_login(manager)
    response = client.post(
        reverse("members:visit_guest_check_in"), {"guest_name": "过路客"}, follow=True
    )
    assert "没有空闲的牌桌" in _messages(response)
    assert Visit.objects.count() == 0


def test_a_non_member_pays_at_check_out(client, manager, tables, clock):
    client.force_login(manager)
    client.post(reverse("members:visit_guest_check_in"), {"guest_name": "过路客"})
    visit = Visit.objects.get()
    clock.set(at(30, 11, 30))
    response = client.post(
        reverse("members:visit_check_out", args=[visit.pk]), {"fee": "4.00"}, follow=True
    )
    text = _messages(response)
    assert "4.00" in text and "R2026-00001" in text


def test_checking_out_twice_says_so(client, manager, tables, clock):
    client.force_login(manager)
    client.post(reverse("members:visit_guest_check_in"), {"guest_name": "过路客"})
    visit = Visit.objects.get()
    client.post(reverse("members:visit_check_out", args=[visit.pk]))
    response = client.post(reverse("members:visit_check_out", args=[visit.pk]), follow=True)
    assert "已经离场" in _messages(response)


def test_check_in_outside_opening_hours_is_refused(client, manager, card, clock):
    clock.set(at(25, 10))  # Wednesday
    client.force_login(manager)
    response = _check_in(client, card)
    assert "开放时间" in _messages(response)
    assert Visit.objects.count() == 0


def test_visits_still_open_at_closing_are_listed(client, manager, card, clock):
    client.force_login(manager)
    clock.set(at(30, 17, 30))
    _check_in(client, card)
    clock.set(at(30, 18, 30))
    response = client.get(reverse("members:visit_list"))
    assert [row.visit.member for row in response.context["past_closing"]] == [card.member]


def test_the_accountant_reads_but_cannot_check_in(client, accountant, card, tables):
    client.force_login(accountant)
    assert client.get(reverse("members:visit_list")).status_code == 200
    assert _check_in(client, card).status_code == 403
    assert (
        client.post(reverse("members:visit_guest_check_in"), {"guest_name": "x"}).status_code == 403
    )
    assert Visit.objects.count() == 0


def test_a_double_tap_on_non_member_check_in_makes_one_visit(client, manager, tables, clock):
    client.force_login(manager)
    page = client.get(reverse("members:visit_list"))
    key = page.context["guest_form"]["request_key"].value()
    data = {"guest_name": "过路客", "request_key": str(key)}
    client.post(reverse("members:visit_guest_check_in"), data)
    client.post(reverse("members:visit_guest_check_in"), data)
    assert Visit.objects.count() == 1
    other = client.get(reverse("members:visit_list")).context["guest_form"]["request_key"].value()
    assert other != key


def test_check_out_shows_the_hours_and_the_fee_and_asks_for_the_cash(
    client, manager, tables, clock
):
    client.force_login(manager)
    client.post(reverse("members:visit_guest_check_in"), {"guest_name": "过路客"})
    visit = Visit.objects.get()
    clock.set(at(30, 11, 30))  # 90 minutes: 2 started hours
    page = client.get(reverse("members:visit_check_out", args=[visit.pk])).content.decode()
    assert "1 小时 30 分" in page and "4.00" in page and "已收现金4.00元" in page
    visit.refresh_from_db()
    assert visit.is_open  # looking is not checking out
    response = client.post(
        reverse("members:visit_check_out", args=[visit.pk]), {"fee": "4.00"}, follow=True
    )
    assert "R2026-00001" in _messages(response)
    visit.refresh_from_db()
    assert visit.fee == Decimal("4.00") and not visit.is_open


def test_check_out_refuses_a_fee_that_changed_since_it_was_shown(client, manager, tables, clock):
    client.force_login(manager)
    client.post(reverse("members:visit_guest_check_in"), {"guest_name": "过路客"})
    visit = Visit.objects.get()
    clock.set(at(30, 10, 50))  # the desk sees 1 hour, 2.00
    assert (
        "2.00" in client.get(reverse("members:visit_check_out", args=[visit.pk])).content.decode()
    )
    clock.set(at(30, 11, 1))  # confirmed after the second hour began
    response = client.post(
        reverse("members:visit_check_out", args=[visit.pk]), {"fee": "2.00"}, follow=True
    )
    assert "费用已变为4.00元" in _messages(response)
    visit.refresh_from_db()
    assert visit.is_open and not Receipt.objects.exists()
    assert "4.00" in response.content.decode()  # back on the confirmation, with the new fee


def test_open_visits_show_the_time_and_the_fee_so_far(client, manager, tables, clock):
    client.force_login(manager)
    client.post(reverse("members:visit_guest_check_in"), {"guest_name": "过路客"})
    clock.set(at(30, 11, 5))
    page = client.get(reverse("members:visit_list")).content.decode()
    assert "已在场 1 小时 5 分" in page and "目前4.00元" in page


def test_check_in_outside_the_hours_says_why_and_a_manager_admits(client, manager, card, clock):
    clock.set(at(25, 10))  # Wednesday: 调休
    client.force_login(manager)
    page = client.get(reverse("members:visit_check_in"), {"card": card.pk}).content.decode()
    assert "星期三是每周调休日" in page and 'name="admitted_reason"' in page
    client.post(
        reverse("members:visit_check_in"),
        {"card_id": card.pk, "confirm": "1", "admitted_reason": "区里比赛"},
    )
    visit = Visit.objects.get()
    assert visit.admitted_reason == "区里比赛" and visit.admitted_by == manager
