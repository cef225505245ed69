from __future__ import annotations

import pytest
from django.urls import reverse

from clubapp.books.models import IncomeEntry
from clubapp.members.models import Card, CardStatus, Receipt
from clubapp.members.services import card_issue, card_revoke
from clubapp.members.tests.factories import MemberFactory

pytestmark = pytest.mark.django_db


@pytest.fixture
def person(room):
    return MemberFactory(room=room, name="孙阿姨")


def _messages(response) -> str:
    return " ".join(str(m) for m in response.context["messages"])


def test_the_manager_issues_a_card(client, manager, person):
    client.force_login(manager)
    response = client.post(reverse("members:card_issue", args=[person.pk]), follow=True)
    card = Card.objects.get()
    assert card.number in _messages(response)
    assert Receipt.objects.count() == 1 and IncomeEntry.objects.count() == 1


def test_the_manager_renews_reissues_suspends_resumes_and_revokes(client, manager, person):
    card = card_issue(member=person, by=manager)
    client.force_login(manager)
    assert (
        client.post(reverse("members:card_renew", args=[card.pk]), {"early": "on"}).status_code
        == 302
    )
    response = client.post(reverse("members:card_reissue", args=[card.pk]), follow=True)
    new = Card.objects.get(status=CardStatus.ACTIVE)
    assert new.number in _messages(response)
    assert client.get(reverse("members:card_suspend", args=[new.pk])).status_code == 200
    client.post(reverse("members:card_suspend", args=[new.pk]), {"reason": "损坏器材"})
    new.refresh_from_db()
    assert new.status == CardStatus.SUSPENDED
    client.post(reverse("members:card_resume", args=[new.pk]))
    new.refresh_from_db()
    assert new.status == CardStatus.ACTIVE
    client.post(reverse("members:card_revoke", args=[new.pk]), {"reason": "赌博"})
    new.refresh_from_db()
    assert (new.status, new.status_reason) == (CardStatus.REVOKED, "赌博")


def test_revoking_without_a_reason_shows_the_form_again(client, manager, person):
    card = card_issue(member=person, by=manager)
    client.force_login(manager)
    response = client.post(reverse("members:card_revoke", args=[card.pk]), {"reason": ""})
    assert response.status_code == 200
    card.refresh_from_db()
    assert card.status == CardStatus.ACTIVE


def test_renewing_a_revoked_card_gives_a_clear_message_and_saves_nothing(client, manager, person):
    card = card_revoke(card=card_issue(member=person, by=manager), reason="赌博", by=manager)
    client.force_login(manager)
    before = (Receipt.objects.count(), IncomeEntry.objects.count())
    response = client.post(reverse("members:card_renew", args=[card.pk]), follow=True)
    assert "不能年审" in _messages(response)
    card.refresh_from_db()
    assert card.status == CardStatus.REVOKED
    assert (Receipt.objects.count(), IncomeEntry.objects.count()) == before


@pytest.mark.parametrize("who", ["accountant", "member", "outsider"])
def test_only_managers_change_cards(client, request, who, manager, person):
    card = card_issue(member=person, by=manager)
    client.force_login(request.getfixturevalue(who))
    for name in ("card_renew", "card_reissue", "card_revoke", "card_suspend", "card_resume"):
        assert (
            client.post(reverse(f"members:{name}", args=[card.pk]), {"reason": "x"}).status_code
            == 403
        )
    assert client.post(reverse("members:card_issue", args=[person.pk])).status_code == 403
    assert Card.objects.count() == 1 and Card.objects.get().status == CardStatus.ACTIVE


def test_the_receipt_page_shows_the_fee(client, accountant, manager, person):
    card_issue(member=person, by=manager)
    receipt = Receipt.objects.get()
    client.force_login(accountant)
    body = client.get(receipt.get_absolute_url()).content.decode()
    assert receipt.number in body and "50.00" in body


def test_a_double_tap_on_renew_renews_once(client, manager, person, room):
    room.renewal_fee = "10.00"
    room.save()
    card = card_issue(member=person, by=manager)
    seen = card.valid_until
    client.force_login(manager)
    url = reverse("members:card_renew", args=[card.pk])
    client.post(url, {"valid_until": seen.isoformat(), "early": "on"})
    response = client.post(url, {"valid_until": seen.isoformat(), "early": "on"}, follow=True)
    assert "刚刚已年审" in _messages(response)
    card.refresh_from_db()
    assert card.valid_until.year == seen.year + 1
    assert Receipt.objects.count() == 2  # the card fee and one renewal


def test_yearly_review_shows_the_fee_and_the_new_end_and_asks(client, manager, person, room):
    room.renewal_fee = "10.00"
    room.save()
    card = card_issue(member=person, by=manager)
    client.force_login(manager)
    page = client.get(reverse("members:card_renew", args=[card.pk])).content.decode()
    assert "10.00" in page and "提前年审" in page
    assert str(card.valid_until.replace(year=card.valid_until.year + 1)) in page
    card.refresh_from_db()
    assert Receipt.objects.count() == 1  # looking renews nothing
    # Without the early confirmation the service refuses, with a message.
    response = client.post(
        reverse("members:card_renew", args=[card.pk]),
        {"valid_until": card.valid_until.isoformat()},
        follow=True,
    )
    assert "天内办理年审" in _messages(response)


def test_reissue_shows_the_card_fee_and_asks(client, manager, person):
    card = card_issue(member=person, by=manager)
    client.force_login(manager)
    page = client.get(reverse("members:card_reissue", args=[card.pk])).content.decode()
    assert "50.00" in page and "已收现金50.00元，补办新证" in page and card.number in page
    card.refresh_from_db()
    assert card.status == CardStatus.ACTIVE  # looking voids nothing


def test_the_issue_form_sent_twice_issues_one_card(client, manager, person):
    client.force_login(manager)
    page = client.get(person.get_absolute_url())
    key = page.context["card_form"]["request_key"].value()
    assert f'value="{key}"' in page.content.decode()
    url = reverse("members:card_issue", args=[person.pk])
    client.post(url, {"request_key": str(key)})
    response = client.post(url, {"request_key": str(key)}, follow=True)
    assert Card.objects.get().number in _messages(response)  # the first card, not a refusal
    assert Receipt.objects.count() == 1
