"""The hand entry page (GET): the table's state, a form per seat, the palette, the
exclusions from scoring; the same queries on any night."""

from __future__ import annotations

import json
import uuid

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from clubapp.play import services
from clubapp.play.tests.factories import TableSessionFactory, book, drawn_hand, shipped

pytestmark = pytest.mark.django_db


def _url(session):
    return reverse("play:hand_entry", args=[session.pk])


def test_it_shows_the_entry_page_with_the_table_state(client, member):
    session = TableSessionFactory(seated=member)
    client.force_login(member)
    response = client.get(_url(session))
    assert response.status_code == 200
    body = response.content.decode()
    assert "东 老王" in body  # East deals the first hand
    assert body.count('data-tile="5m"') == 1  # one palette, under the winner shown
    assert 'name="S-hard"' in body and 'name="kong-TOTAL_FORMS"' in body
    assert 'name="S-others_ponged"' in body  # 压绝 on others' pongs (南京)
    rules = json.loads(
        response.context["exclusions"] and json.dumps(response.context["exclusions"])
    )
    assert "menqing" in rules["excludes"]["qidui"] and rules["without_hard_flowers"] == ["wuhuaguo"]
    assert "5z" in rules["flowers"] and "5m" not in rules["flowers"]


def test_a_worksite_table_offers_false_wins_and_its_patterns(client, member):
    session = TableSessionFactory(ruleset=shipped("jiangsu-worksite"), seated=member)
    client.force_login(member)
    body = client.get(_url(session)).content.decode()
    assert 'name="false_wins"' in body and "一条龙" in body and "门清" not in body
    assert "others_ponged" not in body


def test_an_ended_session_sends_the_recorder_back(client, member):
    session = TableSessionFactory(seated=member)
    services.session_end(session=session)
    client.force_login(member)
    response = client.get(_url(session), follow=True)
    assert [str(m) for m in response.context["messages"]] == ["牌局已结束。"]


def test_accountants_cannot_enter_hands(client, accountant):
    client.force_login(accountant)
    assert client.get(_url(TableSessionFactory())).status_code == 403


def test_it_makes_the_same_queries_for_2_hands_as_for_200(client, member):
    short, long = TableSessionFactory(seated=member), TableSessionFactory(seated=member)
    for session, hands in ((short, 2), (long, 200)):
        for _ in range(hands):
            book(session, drawn_hand())
    client.force_login(member)

    def count(session):
        with CaptureQueriesContext(connection) as queries:
            assert client.get(_url(session)).status_code == 200
        return len(queries.captured_queries)

    count(short)
    assert count(short) == count(long)


def _booked_key(client, session) -> str:
    """Preview and confirm a hand as a phone does; the confirm's key."""
    data = {
        "kong-TOTAL_FORMS": "4",
        "kong-INITIAL_FORMS": "0",
        "penalty-TOTAL_FORMS": "2",
        "penalty-INITIAL_FORMS": "0",
        "winners": ["S"],
        "discarder": "E",
        "S-hard": "4",
    }
    shown = client.post(reverse("play:hand_preview", args=[session.pk]), data).context
    key = str(shown["key"])
    data.update(confirm="1", key=key, previewed=shown["previewed"], after=str(shown["after"]))
    assert client.post(reverse("play:hand_book", args=[session.pk]), data).status_code == 302
    return key


def test_a_reload_after_a_booked_key_says_the_hand_is_booked(client, member):
    session = TableSessionFactory(seated=member)
    client.force_login(member)
    key = _booked_key(client, session)
    body = client.get(_url(session), {"key": key}).content.decode()
    assert 'id="already"' in body and "第 1 把已记账" in body
    assert "南 小李 ← 东 老王 28" in body  # which hand it was
    assert "没有送到" not in body


def test_a_reload_after_a_key_never_booked_says_so(client, member):
    session = TableSessionFactory(seated=member)
    client.force_login(member)
    book(session, drawn_hand())
    for key in (str(uuid.uuid4()), "not-a-key"):
        body = client.get(_url(session), {"key": key}).content.decode()
        assert "没有送到" in body and "已记账" not in body


def test_a_key_booked_at_another_table_is_not_this_tables(client, member):
    here, there = TableSessionFactory(seated=member), TableSessionFactory(seated=member)
    client.force_login(member)
    key = _booked_key(client, there)
    body = client.get(_url(here), {"key": key}).content.decode()
    assert "ok-box already" not in body and "没有送到" in body


def test_without_a_key_the_page_says_nothing_of_one(client, member):
    session = TableSessionFactory(seated=member)
    client.force_login(member)
    body = client.get(_url(session)).content.decode()
    assert 'id="already"' not in body


def test_one_palette_and_no_mpsz_placeholder(client, member):
    session = TableSessionFactory(seated=member)
    client.force_login(member)
    body = client.get(_url(session)).content.decode()
    assert body.count('class="palette"') == 1
    assert "placeholder=" not in body
