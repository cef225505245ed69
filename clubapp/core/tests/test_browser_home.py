"""Each role's home page on a 360 px phone, in the demo room: the sections are there
and nothing runs off the side of the screen."""

from __future__ import annotations

from io import StringIO

import pytest
from django.contrib.auth import get_user_model
from django.contrib.auth.models import Group
from django.core.management import call_command

from clubapp.core.roles import Role

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PHONE = {"width": 360, "height": 740}


@pytest.mark.parametrize(
    ("username", "section"),
    [
        ("manager", ".report.today"),
        ("approver", ".home-approver"),
        ("accountant", ".home-accountant"),
        ("member", ".home-member"),
    ],
)
def test_each_roles_home_fits_a_phone(page, live_server, log_in, username, section, tmp_path):
    for role in Role:  # a transactional test before this one flushed the role groups
        Group.objects.get_or_create(name=role.value)
    call_command("demo", stdout=StringIO())
    page.set_viewport_size(PHONE)
    log_in(page, get_user_model().objects.get(username=username))
    page.goto(f"{live_server.url}/")
    box = page.locator(section).bounding_box()
    assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= PHONE["width"]
    assert page.locator(f"{section} a").count() > 0  # every item leads somewhere
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    page.locator(section).scroll_into_view_if_needed()
    page.screenshot(path=str(tmp_path / f"home-{username}.png"), full_page=True)


def test_the_desk_keeps_each_number_on_one_line_on_a_phone(page, live_server, log_in):
    """A receipt number (R2026-00045) or a card number (2026-0007) broken at its hyphen
    reads as two: on the desk's page at 360 px each is one line (one box)."""
    for role in Role:
        Group.objects.get_or_create(name=role.value)
    call_command("demo", stdout=StringIO())
    page.set_viewport_size(PHONE)
    log_in(page, get_user_model().objects.get(username="manager"))
    page.goto(f"{live_server.url}/members/visits/")
    numbers = page.locator(".nowrap")
    assert numbers.count() >= 2  # the oldest receipt not handed over, members' cards
    texts = numbers.all_inner_texts()
    assert any(t.startswith("R2026-") for t in texts) and any("-" in t for t in texts[1:])
    lines = numbers.evaluate_all("els => els.map(e => e.getClientRects().length)")
    assert set(lines) == {1}, list(zip(texts, lines, strict=True))
