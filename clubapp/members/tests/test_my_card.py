from __future__ import annotations

import io

import pytest
from django.urls import reverse

from clubapp.members.services import card_issue, member_create, visit_check_in
from clubapp.members.tests.factories import image_bytes, make_id_number

pytestmark = pytest.mark.django_db
URL = reverse("members:my_card")


@pytest.fixture
def mine(room, manager, member, clock):
    person = member_create(
        room=room,
        name="赵会员",
        phone="1",
        id_number=make_id_number(41),
        photo=io.BytesIO(image_bytes()),
        user=member,
        by=manager,
    )
    card = card_issue(member=person, by=manager)
    visit_check_in(room=room, card=card, by=manager)
    return person


@pytest.fixture
def theirs(room, manager):
    person = member_create(
        room=room,
        name="钱大伯",
        phone="2",
        id_number=make_id_number(42),
        photo=io.BytesIO(image_bytes()),
        by=manager,
    )
    card_issue(member=person, by=manager)
    return person


def test_a_member_sees_their_own_card_and_visits(client, member, mine, theirs):
    client.force_login(member)
    response = client.get(URL)
    body = response.content.decode()
    assert mine.cards.get().number in body
    assert theirs.cards.get().number not in body and "钱大伯" not in body
    assert mine.id_number not in body
    assert len(response.context["visits"]) == 1


def test_a_member_sees_their_own_photo_only(client, member, mine, theirs):
    client.force_login(member)
    assert client.get(reverse("members:member_photo", args=[mine.pk])).status_code == 200
    assert client.get(reverse("members:member_photo", args=[theirs.pk])).status_code == 403
    assert client.get(theirs.get_absolute_url()).status_code == 403


def test_an_account_without_a_member_is_told_so(client, outsider, room):
    client.force_login(outsider)
    assert "没有关联" in client.get(URL).content.decode()
