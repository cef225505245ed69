"""Every list on a 360 px phone: the row's name (its first cell) is on the screen.

The lists are found, not listed: every URL of the URLconf that needs no argument, and
each exported list of the reports app (its registry, ``lists.LISTS``), is opened as each
role of the demo room; a page whose context holds a django-tables2 table with rows is a
list. Every ``Table`` class of the project must turn up that way, so a new list (or one
the demo leaves empty) fails here until it is walked.
"""

from __future__ import annotations

from collections.abc import Iterator
from io import StringIO
from typing import Any

import django_tables2 as tables
import pytest
from django.contrib.auth import get_user_model
from django.contrib.auth.models import Group
from django.core.management import call_command
from django.template import Context
from django.urls import URLPattern, URLResolver, get_resolver, reverse

from clubapp.activities.demo import demo_plans_and_records
from clubapp.core.models import Room
from clubapp.core.roles import Role
from clubapp.reports.lists import LISTS

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PHONE = {"width": 360, "height": 740}
ROLES = ("manager", "accountant", "approver", "member")


def _plain_urls(patterns: list[Any], namespace: str = "") -> Iterator[str]:
    """Names of the URLs that take no argument (the admin's aside: the developer's)."""
    for entry in patterns:
        if isinstance(entry, URLResolver):
            if entry.namespace == "admin":
                continue
            inner = f"{namespace}{entry.namespace}:" if entry.namespace else namespace
            if not entry.pattern.converters:
                yield from _plain_urls(entry.url_patterns, inner)
        elif isinstance(entry, URLPattern) and entry.name and not entry.pattern.converters:
            yield reverse(f"{namespace}{entry.name}")


def _tables_in(response: Any) -> list[tables.Table]:
    found: list[tables.Table] = []
    contexts = response.context
    if isinstance(contexts, Context):  # one template rendered (the service worker's)
        contexts = [contexts]
    for context in contexts or []:
        for value in context.flatten().values():
            if isinstance(value, tables.Table) and value not in found:
                found.append(value)
    return found


def _project_tables(cls: type = tables.Table) -> set[type]:
    found = set()
    for sub in cls.__subclasses__():
        if sub.__module__.startswith("clubapp."):
            found.add(sub)
        found |= _project_tables(sub)
    return found


def _lists(client: Any) -> list[tuple[str, Any, type]]:
    """(url, the first role that sees it with rows, its table class) for every list."""
    users = {u.username: u for u in get_user_model().objects.filter(username__in=ROLES)}
    urls = list(dict.fromkeys(_plain_urls(get_resolver().url_patterns)))
    urls += [reverse("reports:list", args=[slug]) for slug in LISTS]
    found = []
    for url in urls:
        for role in ROLES:
            client.force_login(users[role])
            response = client.get(url)
            shown = [t for t in _tables_in(response) if response.status_code == 200 and t.rows]
            if shown:
                found.append((url, users[role], type(shown[0])))
                break
    return found


@pytest.fixture
def demo_room(db: Any) -> None:
    # A transactional test before this one flushed the migration's role groups.
    for role in Role:
        Group.objects.get_or_create(name=role.value)
    call_command("demo", stdout=StringIO())
    # the activities' demo is its own function until the demo command calls it
    users = get_user_model().objects
    demo_plans_and_records(
        Room.objects.get(), users.get(username="manager"), users.get(username="approver")
    )


def test_every_list_shows_the_rows_name_first_on_a_phone(
    page, live_server, log_in, client, demo_room, tmp_path
):
    found = _lists(client)
    assert _project_tables() <= {cls for _, _, cls in found}, "a list the walk did not see"
    assert len(found) >= 14  # 5 app lists + 9 exported lists in the demo room
    page.set_viewport_size(PHONE)
    for url, user, _ in found:
        log_in(page, user)
        page.goto(f"{live_server.url}{url}")
        row = page.locator("table.stack tbody tr").first
        first = row.locator("td").first
        assert first.inner_text().strip(), url
        box = first.bounding_box()
        assert box is not None, url
        assert box["x"] >= 0 and box["x"] + box["width"] <= PHONE["width"], url
        # The page itself does not scroll sideways either.
        assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"], url
        first.scroll_into_view_if_needed()
        name = url.strip("/").replace("/", "-") or "home"
        page.screenshot(path=str(tmp_path / f"{name}.png"))


def test_the_visits_list_leads_with_the_visitor(page, live_server, log_in, demo_room):
    """Issue 21: at 360 px only 入场 showed; the name and 离场 were off the screen."""
    manager = get_user_model().objects.get(username="manager")
    page.set_viewport_size(PHONE)
    log_in(page, manager)
    page.goto(f"{live_server.url}{reverse('reports:list', args=['visits'])}")
    # A visit that has ended: its card shows the name first, then 入场 and 离场.
    row = page.locator("table.stack tbody tr:has(td[data-label='离场']:not(:empty))").first
    cells = row.locator("td")
    assert cells.first.get_attribute("data-label") == "姓名"
    for cell in (
        cells.first,
        row.locator("td[data-label='入场']"),
        row.locator("td[data-label='离场']"),
    ):
        box = cell.bounding_box()
        assert box is not None and 0 <= box["x"] and box["x"] + box["width"] <= PHONE["width"]
