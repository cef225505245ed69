"""A recorded hand scored under every other ruleset, side by side."""

from __future__ import annotations

import pytest
from django.urls import reverse

from clubapp.core.tests.factories import RoomFactory
from clubapp.play import selectors, services
from clubapp.play.tests.factories import TableSessionFactory, book, discard_win, shipped

pytestmark = pytest.mark.django_db

TILES = {
    "wins": [
        {
            "seat": "S",
            "discarder": "E",
            "concealed": "234m567m999m111p55p",
            "winning_tile": "5p",
            "flowers": "1f5z6z7z",
        }
    ]
}


def test_it_scores_a_hand_under_every_ruleset():
    hand = book(TableSessionFactory(), TILES)
    rows = selectors.hand_compare(hand=hand)
    assert rows[0]["own"] and rows[0]["result"] == hand.result
    by_name = {row["name"]: row for row in rows}
    assert set(by_name) == {"南京麻将", "南京麻将（经典）", "江苏工地麻将"}
    assert by_name["南京麻将"]["result"]["wins"][0]["value"] == 52
    assert by_name["江苏工地麻将"]["result"]["wins"][0]["value"] > 0
    assert by_name["南京麻将（经典）"]["net_row"][1] > 0


def test_a_ruleset_that_refuses_the_hand_says_why_in_chinese():
    # four flowers are enough in 南京 but a 工地 win needs five
    hand = book(
        TableSessionFactory(),
        {"wins": [{"seat": "S", "discarder": "E", "hard_flowers": 4, "soft_flowers": 0}]},
    )
    rows = {row["name"]: row for row in selectors.hand_compare(hand=hand)}
    assert "error" in rows["江苏工地麻将"]


@pytest.mark.parametrize(
    ("language", "said"),
    [
        ("zh-hans", "不能胡：至少 5 个花才能胡，这手牌只有 4 个（可记为诈糊）"),
        ("en", "not a legal win: a win needs at least 5 flowers, the hand has 4"),
    ],
)
def test_the_comparison_words_a_refusal_in_the_pages_language(client, member, language, said):
    session = TableSessionFactory(seated=member)
    hand = book(session, {"wins": [{"seat": "S", "discarder": "E", "hard_flowers": 4}]})
    client.force_login(member)
    client.cookies["django_language"] = language
    response = client.get(reverse("play:hand_compare", args=[session.pk, hand.number]))
    assert said in response.content.decode()


def test_a_doubled_garden_hand_compares_without_the_table_state():
    session = TableSessionFactory(mode="garden", garden_size=30)
    book(session, {"wins": []})
    hand = book(session, TILES)
    assert hand.record["doubled"] and "garden" in hand.record
    rows = {row["name"]: row for row in selectors.hand_compare(hand=hand)}
    assert "result" in rows["江苏工地麻将"]


def test_custom_versions_are_compared_too():
    services.ruleset_version_save(
        params={**shipped().params, "id": "mine", "name": "本室"}, room=RoomFactory()
    )
    hand = book(TableSessionFactory(), TILES)
    assert "本室" in [row["name"] for row in selectors.hand_compare(hand=hand)]


def test_the_compare_page(client, accountant):
    session = TableSessionFactory()
    hand = book(session, TILES)
    client.force_login(accountant)
    detail = client.get(reverse("play:hand", args=[session.pk, 1])).content.decode()
    url = reverse("play:hand_compare", args=[session.pk, hand.number])
    assert url in detail
    body = client.get(url).content.decode()
    assert "江苏工地麻将" in body and "独占" in body


def test_a_reversal_has_nothing_to_compare(client, member):
    session = TableSessionFactory(seated=member)
    services.hand_void(hand=book(session, TILES), reason="x", by=None)
    client.force_login(member)
    response = client.get(reverse("play:hand_compare", args=[session.pk, 2]))
    assert response.status_code == 302


def test_a_member_reads_only_a_hand_of_a_table_where_they_sit(client, member, accountant):
    session = TableSessionFactory()
    book(session, discard_win("S", "E"))
    client.force_login(member)
    assert client.get(reverse("play:hand_compare", args=[session.pk, 1])).status_code == 403
    client.force_login(accountant)
    assert client.get(reverse("play:hand_compare", args=[session.pk, 1])).status_code == 200
