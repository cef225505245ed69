"""The hand entry page (GET): the table's state, a form per seat, the palette, the
exclusions from scoring; the same queries on any night."""

from __future__ import annotations

import json

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
