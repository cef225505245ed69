"""Issue 15 item 12: 结账 (never 结帐), 把数 for hands played, 账目明细 for ledger lines,
胡 in the 南京 rulesets (the worksite's own 糊 only in its own rule names)."""

from __future__ import annotations

from pathlib import Path

import pytest
from django.conf import settings
from django.urls import reverse

import scoring.features
import scoring.rulesets
from clubapp.play.tests.factories import TableSessionFactory, book, discard_win

PO = Path(settings.BASE_DIR) / "clubapp/locale/zh_Hans/LC_MESSAGES/django.po"


def test_no_page_text_says_结帐():
    assert "结帐" not in PO.read_text(encoding="utf-8")
    for path in (Path(settings.BASE_DIR) / "scoring").rglob("*.py"):
        assert "结帐" not in path.read_text(encoding="utf-8"), path


def test_the_nanjing_rulesets_write_胡():
    for ident in ("nanjing", "nanjing-classic"):
        ruleset = scoring.rulesets.get(ident)
        names = [name for _code, name in scoring.features.ticks(ruleset)]
        names += [name for _code, name in scoring.features.FLAGS[ruleset.family]]
        assert not [name for name in names if "糊" in name]


@pytest.mark.django_db
def test_hands_played_and_ledger_lines_are_把数_and_账目明细(client, member):
    session = TableSessionFactory()
    seat = session.seats.get(wind="S")
    seat.user = member
    seat.save()
    hand = book(session, discard_win("S", "E"))
    client.force_login(member)
    assert "把数" in client.get(reverse("play:my_history")).content.decode()
    body = client.get(reverse("play:hand", args=[session.pk, hand.number])).content.decode()
    assert "账目明细" in body
