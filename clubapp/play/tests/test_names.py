"""Issue 15 item 3: seats read 东 老王 everywhere, payment reasons by name, version
hashes and the raw record for managers only, rulesets by name with a room default."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse

from clubapp.play import services
from clubapp.play.tests.factories import TableSessionFactory, book, discard_win, hand_data, shipped

pytestmark = pytest.mark.django_db


def test_the_hand_list_names_the_seats_under_their_winds(client, member):
    session = TableSessionFactory(seated=member)
    book(session, discard_win("S", "E"))
    client.force_login(member)
    for url in (session.get_absolute_url(), reverse("play:session_hands", args=[session.pk])):
        body = client.get(url).content.decode()
        assert "东 老王" in body and "南 小李" in body and "西 阿张" in body and "北 赵姐" in body
        assert "南 小李 ← 东 老王" in re.sub(r"<[^>]+>", "", body)
        assert "第 1 把" in body


def test_the_sessions_list_names_seats_by_wind_never_by_letter(client, member):
    TableSessionFactory(seated=member)
    client.force_login(member)
    body = client.get(reverse("play:sessions")).content.decode()
    assert "东 老王" in body and "北 赵姐" in body
    assert "E 老王" not in body


def test_payment_reasons_read_as_names_never_codes(client, member):
    session = TableSessionFactory(seated=member)
    hand = book(session, discard_win("S", "E"))
    client.force_login(member)
    body = client.get(reverse("play:hand", args=[session.pk, hand.number])).content.decode()
    assert "胡牌" in body
    assert ">win<" not in body and "· win" not in body


def test_a_reversals_lines_name_the_reason_they_take_back(client, member):
    session = TableSessionFactory(seated=member)
    hand = book(session, discard_win("S", "E"))
    services.hand_void(hand=hand, reason="算错", by=None)
    client.force_login(member)
    body = client.get(reverse("play:hand", args=[session.pk, 2])).content.decode()
    # 作废: the room's word for voiding a hand (作废这把, 申请作废), on the ledger too
    assert "作废 胡牌" in body and "冲销 胡牌" not in body and "void:" not in body
    client.cookies["django_language"] = "en"
    body = client.get(reverse("play:hand", args=[session.pk, 2])).content.decode()
    assert "void win" in body


def test_english_mode_names_the_winds_and_reasons_in_english(client, member):
    session = TableSessionFactory(seated=member)
    hand = book(session, discard_win("S", "E"))
    client.force_login(member)
    client.cookies["django_language"] = "en"
    body = client.get(reverse("play:hand", args=[session.pk, hand.number])).content.decode()
    assert "South 小李" in body and "East 老王" in body
    assert '<span class="muted">win</span>' in body and "胡牌" not in body


def test_the_version_hash_and_the_raw_record_are_for_the_rulesets_page(client, member, manager):
    session = TableSessionFactory(seated=member)
    hand = book(session, discard_win("S", "E"))
    url = reverse("play:hand", args=[session.pk, hand.number])
    client.force_login(member)
    body = client.get(url).content.decode()
    assert session.ruleset.version not in body and "hard_flowers" not in body
    compare = client.get(reverse("play:hand_compare", args=[session.pk, hand.number]))
    assert session.ruleset.version not in compare.content.decode()
    rulesets = client.get(reverse("play:rulesets")).content.decode()
    assert session.ruleset.version not in rulesets and session.ruleset.name in rulesets
    client.force_login(manager)
    body = client.get(url).content.decode()
    assert session.ruleset.version not in body and "hard_flowers" not in body  # issue 21
    assert session.ruleset.version in client.get(reverse("play:rulesets")).content.decode()


def test_a_new_table_offers_rulesets_by_name_with_the_rooms_default(client, manager, room):
    shipped("nanjing"), shipped("nanjing-classic")
    classic = shipped("jiangsu-worksite")
    room.default_ruleset = "jiangsu-worksite"
    room.save(update_fields=["default_ruleset"])
    client.force_login(manager)
    body = client.get(reverse("play:session_create")).content.decode()
    assert f'<option value="{classic.pk}" selected>{classic.name}</option>' in body
    assert classic.version not in body


def test_the_manager_sets_the_rooms_default_ruleset(client, manager, room):
    client.force_login(manager)
    data = {
        "card_fee": "20",
        "renewal_fee": "10",
        "guest_hourly_fee": "5",
        "renewal_window_days": "30",
        "notice": "",
        "default_ruleset": "nanjing-classic",
    }
    response = client.post(reverse("members:room_settings"), data)
    assert response.status_code == 302
    room.refresh_from_db()
    assert room.default_ruleset == "nanjing-classic"


def test_the_language_menu_names_english_english(client, member):
    client.force_login(member)
    body = client.get(reverse("play:sessions")).content.decode()
    assert ">English</option>" in body and "英语" not in body


def test_english_mode_explains_the_rule_names_and_the_transfers(client, member):
    session = TableSessionFactory(seated=member)
    hand = book(session, discard_win("S", "E"))
    client.force_login(member)
    url = reverse("play:hand", args=[session.pk, hand.number])
    chinese = client.get(url).content.decode()
    assert "东 老王 → 南 小李 <b>28</b>" in chinese and "base of every win" not in chinese
    client.cookies["django_language"] = "en"
    english = client.get(url).content.decode()
    assert "跑20" in english and "(the base of every win)" in english  # Chinese beside English
    assert "East 老王 pays South 小李 <b>28</b>" in english
    entry = client.get(reverse("play:hand_entry", args=[session.pk])).content.decode()
    # the rule name stays Chinese, marked so, with its English beside it
    assert '<span lang="zh-Hans">门清</span> <small>concealed hand</small>' in entry
    assert "<span>East 老王</span>" in entry


def test_english_mode_gives_scoring_errors_in_english(client, member):
    session = TableSessionFactory(seated=member)
    client.force_login(member)
    client.cookies["django_language"] = "en"
    data = hand_data(winners=["S"], discarder="E", **{"S-concealed": "123m", "S-hard": "0"})
    body = client.post(reverse("play:hand_preview", args=[session.pk]), data).content.decode()
    assert 'class="error"' in body
    error = body.split('class="error">')[1].split("<")[0]
    assert error and not re.search(r"[\u4e00-\u9fff]{4,}", error), error
