"""Issue 21 item 8: version hashes, ruleset ids, the raw record (JSON) and MPSZ
placeholders show on the rulesets page only (to managers and a superuser), never on
the table pages: the entry page, the session and its hands, a hand, its comparison,
a statement, the history — for anyone, managers included."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse
from django.utils.html import strip_tags

from clubapp.core.roles import Role
from clubapp.core.tests.factories import UserFactory
from clubapp.play import services
from clubapp.play.tests.factories import TableSessionFactory, book, discard_win

pytestmark = pytest.mark.django_db

#: a tile written in MPSZ, as a placeholder would show it ("123m 456p", "P5sW K7m")
MPSZ = re.compile(r"\d[mpsz]|[PKU]\d[mpsz]")


def visible(body: str) -> str:
    """What a reader sees: the text without tags and without the page's script data."""
    return strip_tags(re.sub(r"<script.*?</script>", "", body, flags=re.S))


def table_pages(session, hand, settlement) -> list[str]:
    pk = session.pk
    return [
        reverse("play:hand_entry", args=[pk]),
        session.get_absolute_url(),
        reverse("play:session_hands", args=[pk]),
        reverse("play:hand", args=[pk, hand.number]),
        reverse("play:hand_compare", args=[pk, hand.number]),
        settlement.get_absolute_url(),
        reverse("play:my_history"),
    ]


@pytest.fixture
def superuser(db):
    return UserFactory(username="root", roles=[Role.MANAGER], is_superuser=True, is_staff=True)


@pytest.mark.parametrize("who", ["member", "manager", "superuser"])
def test_the_table_pages_show_no_codes(client, member, manager, superuser, who):
    user = {"member": member, "manager": manager, "superuser": superuser}[who]
    session = TableSessionFactory(seated=user)
    hand = book(session, discard_win("S", "E"))
    settlement = services.settlement_make(session=session, by=None)
    client.force_login(user)
    version = session.ruleset.version
    for url in table_pages(session, hand, settlement):
        response = client.get(url)
        assert response.status_code == 200, url
        body = response.content.decode()
        text = visible(body)
        assert version not in body, url
        assert session.ruleset.ruleset_id not in text, url  # "nanjing": by its name only
        assert "JSON" not in text and "hard_flowers" not in text, url  # the raw record
        for placeholder in re.findall(r'placeholder="([^"]*)"', body):
            assert not MPSZ.search(placeholder), (url, placeholder)


def test_the_rulesets_page_shows_the_codes_to_managers_and_a_superuser(
    client, member, manager, superuser
):
    session = TableSessionFactory()
    url = reverse("play:rulesets")
    for user in (manager, superuser):
        client.force_login(user)
        body = client.get(url).content.decode()
        assert session.ruleset.version in body and session.ruleset.ruleset_id in visible(body)
    client.force_login(member)
    body = client.get(url).content.decode()
    assert session.ruleset.version not in body and session.ruleset.name in body
