from __future__ import annotations

import datetime as dt
import io

import pytest
from django.urls import reverse

from clubapp.members.services import id_number_reveal, member_create
from clubapp.members.tests.factories import CardFactory, MemberFactory, image_bytes

pytestmark = pytest.mark.django_db


@pytest.fixture
def person(room):
    person = MemberFactory(room=room, name="钱大伯")
    CardFactory(member=person, number="2026-0042")
    return person


def test_the_manager_sees_the_id_number_masked_a_show_button_and_the_card(client, manager, person):
    client.force_login(manager)
    body = client.get(person.get_absolute_url()).content.decode()
    assert person.id_number not in body
    assert person.id_number_masked in body
    assert reverse("members:member_id_number_show", args=[person.pk]) in body
    assert "2026-0042" in body


def test_the_page_lists_who_saw_the_full_number_and_when(client, manager, accountant, person):
    id_number_reveal(member=person, by=manager, now=dt.datetime(2026, 11, 30, 2, 5, tzinfo=dt.UTC))
    client.force_login(accountant)
    body = client.get(person.get_absolute_url()).content.decode()
    assert "王经理" in body
    assert "2026-11-30 10:05" in body  # Asia/Shanghai
    assert person.id_number not in body


def test_the_accountant_sees_the_id_number_masked_and_no_actions(client, accountant, person):
    client.force_login(accountant)
    body = client.get(person.get_absolute_url()).content.decode()
    assert person.id_number not in body
    assert person.id_number_masked in body
    assert reverse("members:member_id_number_show", args=[person.pk]) not in body
    assert reverse("members:card_reissue", args=[person.cards.get().pk]) not in body


@pytest.mark.parametrize("who", ["member", "outsider"])
def test_others_cannot_see_a_member(client, request, who, person):
    client.force_login(request.getfixturevalue(who))
    assert client.get(person.get_absolute_url()).status_code == 403


def test_the_photo_is_served_to_readers_only(client, room, manager, accountant, outsider):
    person = member_create(
        room=room,
        name="钱",
        phone="1",
        id_number="11010519491231002X",
        photo=io.BytesIO(image_bytes()),
        by=manager,
    )
    url = reverse("members:member_photo", args=[person.pk])
    client.force_login(accountant)
    response = client.get(url)
    assert response.status_code == 200 and response["Content-Type"] == "image/jpeg"
    client.force_login(outsider)
    assert client.get(url).status_code == 403


def test_the_photo_shows_before_a_card_is_issued(client, manager, room):
    import io

    from clubapp.members import services
    from clubapp.members.tests.factories import image_bytes, make_id_number

    person = services.member_create(
        room=room,
        name="郑新人",
        phone="1",
        id_number=make_id_number(77),
        photo=io.BytesIO(image_bytes()),
        by=manager,
    )
    assert not person.cards.exists()
    client.force_login(manager)
    body = client.get(person.get_absolute_url()).content.decode()
    assert reverse("members:member_photo", args=[person.pk]) in body
