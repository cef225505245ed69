"""Opening a table and ending it on a phone-sized browser (issue 15 items 2 and 4): the
seats chosen from the players checked in, the 进园子 fields only for 进园子, an error
beside its seat, and a 散场 that asks first."""

from __future__ import annotations

import re

import pytest

from clubapp.members.models import Table
from clubapp.members.tests.factories import VisitFactory
from clubapp.play.models import TableSession
from clubapp.play.tests.factories import TableSessionFactory, shipped

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_a_manager_opens_a_table_of_checked_in_players(page, live_server, log_in, room, manager):
    ruleset = shipped()
    table = Table.objects.create(room=room, number=3, name="靠窗")
    visits = [VisitFactory(room=room, guest_name=n, checked_in_by=manager) for n in "甲乙丙丁"]
    log_in(page, manager)
    page.goto(f"{live_server.url}/play/new/")
    assert not page.is_visible("input[name=garden_size]")
    page.select_option("select[name=mode]", "garden")
    assert page.is_visible("input[name=garden_size]")
    page.select_option("select[name=mode]", "open")
    assert not page.is_visible("input[name=garden_size]")
    page.select_option("select[name=table]", str(table.pk))
    page.select_option("select[name=ruleset]", str(ruleset.pk))
    for wind, visit in zip("ESWN", [visits[0], visits[0], visits[2], visits[3]], strict=True):
        page.select_option(f"select[name=visit_{wind}]", str(visit.pk))
    page.click("button.primary")
    south = page.locator(".field.has-error", has=page.locator("select[name=visit_S]"))
    assert "已有座位" in south.inner_text()
    page.select_option("select[name=visit_S]", str(visits[1].pk))
    page.click("button.primary")
    page.wait_for_url(re.compile(r"/play/\d+/$"))
    session = TableSession.objects.get()
    assert page.url == f"{live_server.url}/play/{session.pk}/"
    assert session.table == table
    assert [s.visit for s in session.seat_list()] == visits


def test_ending_a_table_asks_to_confirm(page, live_server, log_in, member):
    session = TableSessionFactory(seated=member)
    log_in(page, member)
    page.goto(f"{live_server.url}/play/{session.pk}/")
    page.click(".end-session button")
    assert "确认散场" in page.inner_text("main")
    session.refresh_from_db()
    assert session.is_open
    page.click("text=确认散场")
    page.wait_for_url(f"{live_server.url}/play/{session.pk}/")
    session.refresh_from_db()
    assert not session.is_open
