"""The desk finds a member by card number in any form, by phone or by name (issue 15.7)."""

from __future__ import annotations

import datetime as dt

import pytest
from django.urls import reverse

from clubapp.members.models import Card, CardStatus, Visit
from clubapp.members.selectors import desk_lookup
from clubapp.members.tests.factories import CardFactory, MemberFactory, at

pytestmark = pytest.mark.django_db
URL = reverse("members:visit_check_in")


@pytest.fixture
def zhao(room):
    person = MemberFactory(room=room, name="赵会员", phone="13912345678")
    return CardFactory(member=person, number="2026-0007")


@pytest.mark.parametrize(
    "typed",
    ["2026-0007", "20260007", "2026 0007", "0007", "7", "２０２６－０００７", " 2026-0007\n"],
)
def test_it_finds_a_card_typed_in_any_form(room, zhao, typed):
    assert desk_lookup(room=room, q=typed) == [(zhao.member, zhao)]


def test_a_short_number_lists_every_years_card_but_no_void_one(room, zhao):
    old = CardFactory(member=MemberFactory(room=room, name="钱大伯"), number="2025-0007")
    CardFactory(
        member=MemberFactory(room=room, name="孙阿姨"), number="2024-0007", status=CardStatus.VOID
    )
    found = desk_lookup(room=room, q="0007")
    assert len(found) == 2 and {card for _m, card in found} == {zhao, old}


def test_it_finds_by_phone_and_by_name(room, zhao):
    assert desk_lookup(room=room, q="12345678") == [(zhao.member, zhao)]
    assert desk_lookup(room=room, q="赵") == [(zhao.member, zhao)]
    assert desk_lookup(room=room, q="nobody") == []


def test_the_desk_checks_in_by_a_scanned_qr_code(client, manager, zhao, clock):
    client.force_login(manager)
    page = client.post(URL, {"q": "2026-0007"}).content.decode()  # the scanner types it, then Enter
    assert "赵会员" in page and 'name="confirm"' in page
    response = client.post(URL, {"card_id": zhao.pk, "confirm": "1"})
    assert response.status_code == 302
    assert Visit.objects.get().member == zhao.member


def test_several_matches_are_listed_to_choose_from(client, manager, room, zhao, clock):
    CardFactory(member=MemberFactory(room=room, name="赵大姐"), number="2026-0008")
    client.force_login(manager)
    page = client.post(URL, {"q": "赵"}).content.decode()
    assert "找到多位" in page and "赵大姐" in page and "赵会员" in page
    assert f"?card={zhao.pk}" in page
    chosen = client.get(URL, {"card": zhao.pk}).content.decode()
    assert 'name="confirm"' in chosen


def test_an_expired_card_offers_review_or_entry_as_a_non_member(
    client, manager, room, clock, tables
):
    person = MemberFactory(room=room, name="孙阿姨", phone="13700000000")
    expired = CardFactory(
        member=person,
        number="2025-0003",
        issued_on=dt.date(2025, 1, 1),
        valid_until=dt.date(2025, 12, 31),
    )
    client.force_login(manager)
    page = client.post(URL, {"q": "2025-0003"}).content.decode()
    assert 'name="confirm"' not in page  # no button that would refuse
    assert "已于2025-12-31过期" in page
    assert f"{reverse('members:card_renew', args=[expired.pk])}?next=checkin" in page
    assert reverse("members:visit_guest_check_in") in page and "按非会员入场" in page
    # 年审 from there comes back to the check-in with the card shown, now active.
    response = client.post(
        reverse("members:card_renew", args=[expired.pk]),
        {"valid_until": "2025-12-31", "next": "checkin"},
    )
    assert response.url == f"{URL}?card={expired.pk}"
    assert 'name="confirm"' in client.get(response.url).content.decode()
    expired.refresh_from_db()
    assert expired.valid_until > at(30, 10).date()


def test_a_revoked_card_offers_nothing(client, manager, room, clock):
    card = CardFactory(
        member=MemberFactory(room=room),
        number="2026-0011",
        status=CardStatus.REVOKED,
        status_reason="赌博",
    )
    client.force_login(manager)
    page = client.post(URL, {"q": "11"}).content.decode()
    assert "不能用于入场" in page
    assert 'name="confirm"' not in page and "按非会员入场" not in page
    assert Card.objects.get(pk=card.pk).status == CardStatus.REVOKED
