"""English mode is English everywhere (issue 21 item 8): every page of the URLconf,
opened by GET with English active, on the demo room's data, shows no Han character
but the room's own words.

What may stay Chinese on an English page (docs/foundation.md "English mode"):
- what people typed: names of people, rooms, tables and rulesets, reasons, notes,
  suppliers… — every text stored in the database is taken out of the page first;
- the room's terms kept beside their English gloss (rule names: 门清 "concealed
  hand"), marked ``lang="zh-Hans"`` in the templates: those elements are taken out.

The URL list is the resolver's: a URL added without a line in ``PAGES`` or
``SKIPPED`` fails ``test_every_url_is_checked_or_skipped``.
"""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from html.parser import HTMLParser
from io import StringIO
from typing import Any

import pytest
from django.apps import apps
from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.db import models
from django.urls import URLPattern, URLResolver, get_resolver, reverse
from django.utils import timezone

from clubapp.activities.demo import demo_plans_and_records
from clubapp.activities.models import ActivityPlan, ActivityRecord, Leave, PlanVersion, Tournament
from clubapp.books.models import (
    Expense,
    HandOverSlip,
    IncomeEntry,
    PlanOutcome,
    PurchasePlan,
)
from clubapp.core.roles import Role
from clubapp.core.services import user_create
from clubapp.members.models import Card, Member, Receipt, Table, Visit
from clubapp.play.models import Hand, RulesetVersion, Settlement, TableSession

pytestmark = pytest.mark.django_db

HAN = re.compile(r"[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\u3000-\u303f\uff01-\uff5e]")

# the URL's arguments: one set, or several (a page opened in each of its states)
Args = Callable[[], dict[str, Any] | list[dict[str, Any]]]


def _none() -> dict[str, Any]:
    return {}


def _first(model: type[models.Model], **filters: Any) -> Any:
    return model._default_manager.filter(**filters).order_by("pk").first()


def _session(**filters: Any) -> TableSession:
    return _first(TableSession, **filters)


def _hand(**filters: Any) -> dict[str, Any]:
    hand = _first(Hand, **filters)
    return {"pk": hand.session_id, "number": hand.number}


def _last_month() -> str:
    first = timezone.localdate().replace(day=1)
    return f"{(first - dt.timedelta(days=1)):%Y-%m}"


def _open_session() -> dict[str, Any]:
    return {"pk": _session(ended_at__isnull=True).pk}


def _member_pk() -> dict[str, Any]:
    return {"pk": _first(Member, name="赵会员").pk}


def _card() -> dict[str, Any]:
    return {"pk": _first(Card, member__name="钱大伯").pk}


def _each(model: type[models.Model], *fields: str, **filters: Any) -> list[dict[str, Any]]:
    rows = model._default_manager.filter(**filters).order_by("pk").values_list(*fields)
    return [dict(zip(("pk", "number")[: len(fields)], row, strict=True)) for row in rows]


@dataclass(frozen=True)
class Page:
    roles: tuple[str, ...]
    args: Args = _none
    #: query strings, each opened too ("" is the page itself)
    queries: Callable[[], list[str]] = lambda: [""]


DESK = ("manager",)
BOOKS = ("accountant",)
EVERYONE = ("manager", "accountant", "approver", "member")


# url name: who opens it (the demo's accounts) and its arguments from the demo data
PAGES: dict[str, Page] = {
    "home": Page(EVERYONE),
    "login": Page(("anonymous",)),
    "password_change": Page(("member",)),
    "password_change_done": Page(("member",)),
    "password_reset_complete": Page(("anonymous",)),
    "members:member_list": Page(DESK),
    "members:member_create": Page(DESK),
    "members:my_card": Page(("member",)),
    "members:member_detail": Page(DESK, lambda: _each(Member, "pk")),
    "members:member_edit": Page(DESK, _member_pk),
    "members:member_account": Page(DESK, lambda: {"pk": _first(Member, name="钱大伯").pk}),
    "members:card_renew": Page(DESK, _card),
    "members:card_reissue": Page(DESK, _card),
    "members:card_revoke": Page(DESK, _card),
    "members:card_suspend": Page(DESK, _card),
    "members:receipt_detail": Page(DESK, lambda: {"number": _first(Receipt).number}),
    "members:visit_list": Page(DESK),
    "members:visit_check_in": Page(DESK),
    "members:visit_check_out": Page(
        DESK, lambda: {"pk": _first(Visit, checked_out_at__isnull=True).pk}
    ),
    "members:visit_detail": Page(DESK, lambda: _each(Visit, "pk")),
    "members:table_list": Page(DESK),
    "members:table_edit": Page(DESK, lambda: {"pk": _first(Table).pk}),
    "members:room_settings": Page(DESK),
    "play:sessions": Page(("manager", "member")),
    "play:session_create": Page(DESK),
    # each table: ended, 进园子 in play, 工地 in play with a void asked for
    "play:session": Page(DESK, lambda: _each(TableSession, "pk")),
    "play:session_hands": Page(DESK, lambda: {"pk": _session().pk}),
    "play:hand_entry": Page(DESK, _open_session),
    "play:offline": Page(("member",)),
    # every row of the journal: played, confirmed, voided, reversals
    "play:hand": Page(("manager",), lambda: _each(Hand, "session_id", "number")),
    "play:hand_compare": Page(DESK, lambda: _hand(voids__isnull=True)),
    "play:hand_void": Page(DESK, lambda: _hand(voids__isnull=True, session__ended_at=None)),
    "play:settlement": Page(
        DESK,
        lambda: {
            "pk": _first(Settlement).session_id,
            "number": _first(Settlement).number,
        },
    ),
    "play:my_history": Page(("member",)),
    "play:member_history": Page(
        DESK, lambda: {"user_id": get_user_model().objects.get(username="member").pk}
    ),
    "play:member_points": Page(DESK, _member_pk),
    "play:rulesets": Page(DESK),
    "play:ruleset_edit": Page(DESK, lambda: {"pk": _first(RulesetVersion).pk}),
    "reports:today": Page(DESK),
    "reports:monthly": Page(BOOKS, queries=lambda: ["", f"?month={_last_month()}"]),
    "reports:cards": Page(DESK),
    "reports:district": Page(("district",), queries=lambda: ["", f"?month={_last_month()}"]),
    "reports:sheet": Page(DESK, lambda: {"pk": _session().pk}),
    "books:home": Page(("manager", "accountant", "approver")),
    "books:income_list": Page(BOOKS),
    "books:income_create": Page(DESK),
    "books:income_detail": Page(BOOKS, lambda: {"pk": _first(IncomeEntry).pk}),
    "books:slip_list": Page(BOOKS),
    "books:slip_create": Page(DESK),
    "books:slip_detail": Page(BOOKS, lambda: _each(HandOverSlip, "pk")),
    "books:plan_list": Page(BOOKS),
    "books:plan_create": Page(DESK),
    "books:plan_detail": Page(BOOKS, lambda: _each(PurchasePlan, "pk")),
    "books:plan_edit": Page(DESK, lambda: {"pk": _first(PurchasePlan, submission=None).pk}),
    "books:expense_list": Page(BOOKS),
    "books:expense_create": Page(DESK),
    "books:expense_detail": Page(BOOKS, lambda: _each(Expense, "pk")),
    "books:day_list": Page(BOOKS),
    "books:day_detail": Page(BOOKS, lambda: {"day": timezone.localdate().isoformat()}),
    "books:month_current": Page(BOOKS),
    "books:month_detail": Page(
        BOOKS, lambda: {"year": timezone.localdate().year, "month": timezone.localdate().month}
    ),
    # activities: the calendar, plans and records (demo_plans_and_records)
    "activities:home": Page(EVERYONE),
    "activities:plan_list": Page(("manager", "approver")),
    "activities:plan_create": Page(DESK),
    "activities:plan_detail": Page(
        ("manager", "approver"), lambda: _each(ActivityPlan, "pk"), lambda: ["", "?version=1"]
    ),
    "activities:version_new": Page(DESK, lambda: {"pk": _first(ActivityPlan).pk}),
    "activities:version_edit": Page(DESK, lambda: {"pk": _first(PlanVersion, submission=None).pk}),
    "activities:record_list": Page(DESK),
    "activities:record_create": Page(DESK),
    "activities:record_detail": Page(
        ("manager",), lambda: _each(ActivityRecord, "pk"), lambda: ["", "?version=1"]
    ),
    "activities:record_correct": Page(DESK, lambda: {"pk": _first(ActivityRecord).pk}),
    # tournaments (demo_tournaments: a closed 麻将 one, a running 象棋 Swiss)
    "activities:tournament_list": Page(EVERYONE),
    "activities:tournament_create": Page(DESK),
    "activities:tournament_detail": Page(EVERYONE, lambda: _each(Tournament, "pk")),
    # duty and leave, the day's checks (demo_duty_and_checks)
    "activities:duty": Page(("manager", "approver")),
    "activities:duty_roster": Page(DESK),
    "activities:duty_month": Page(("manager", "accountant")),
    "activities:leave_list": Page(("manager", "approver")),
    "activities:leave_create": Page(DESK),
    "activities:leave_detail": Page(("manager", "approver"), lambda: _each(Leave, "pk")),
    "activities:checks": Page(DESK),
    "activities:check_items": Page(DESK),
    "activities:damage_list": Page(("manager", "accountant")),
    "activities:damage_create": Page(DESK),
    "activities:violation_list": Page(DESK),
    "activities:violation_create": Page(DESK),
}

# What only a player sees: their tables (one with the void they asked for), their hands
# (confirmed by them or waiting for it). url name, role, arguments.
AS_PLAYER: list[tuple[str, str, Args]] = [
    ("play:session", "member", lambda: _each(TableSession, "pk", seats__user__username="member")),
    (
        "play:hand",
        "member",
        lambda: _each(Hand, "session_id", "number", session__seats__user__username="member"),
    ),
]

# Lists: one page per list of the reports app.
LIST_SLUGS = ("members", "visits", "income", "slips", "expenses", "plans", "sessions")

# url name: why it is not checked here
SKIPPED: dict[str, str] = {
    "healthz": "plain text for the load balancer",
    "manifest": "JSON for the phone: the app's Chinese name is the room's (docs/play.md)",
    "service_worker": "a script: no words",
    "logout": "POST only; ends on the login page (checked)",
    "set_language": "the switch itself; redirects",
    "password_reset_confirm": "an invalid link shows password_reset_complete's words (checked)",
    "members:member_photo": "an image",
    "members:member_account_reset": "POST only",
    "members:member_id_number_show": "POST only; answers the member page (checked)",
    "members:member_account_active": "POST only",
    "members:card_issue": "POST only",
    "members:card_resume": "POST only",
    "members:visit_guest_check_in": "POST only",
    "members:table_toggle": "POST only",
    "members:table_active": "POST only",
    "members:hours_update": "POST only",
    "members:exception_create": "POST only",
    "members:exception_delete": "POST only",
    "play:session_end": "POST only",
    "play:session_reopen": "POST only",
    "play:session_tip": "JSON for the table's script: numbers, no words",
    "play:hand_preview": "POST only (the entry page's preview, htmx)",
    "play:hand_book": "POST only",
    "play:hand_signoff": "POST only",
    "play:settlement_create": "POST only",
    "reports:list": "checked once per list below (LIST_SLUGS)",
    # Downloads are the room's papers: docs/foundation.md "English mode".
    "reports:monthly_xlsx": "a download",
    "reports:monthly_pdf": "a download",
    "reports:district_xlsx": "a download",
    "room_switch": "POST only (the form is on the district page, checked)",
    "reports:list_xlsx": "a download",
    "reports:list_csv": "a download",
    "reports:sheet_pdf": "a download",
    "reports:sheet_xlsx": "a download",
    "reports:card_sheet_pdf": "a download",
    "reports:card_pdf": "a download",
    "reports:receipt_pdf": "a download",
    "books:income_reverse": "POST only",
    "books:slip_confirm": "POST only",
    "books:slip_return": "POST only",
    "books:slip_reverse": "POST only",
    "books:plan_submit": "POST only",
    "books:plan_decide": "POST only",
    "books:plan_copy": "POST only",
    "books:plan_supplement": "POST only",
    "books:plan_complete": "POST only",
    "books:expense_confirm": "POST only",
    "books:expense_reverse": "POST only",
    "books:day_close": "POST only",
    "activities:version_submit": "POST only",
    "activities:version_decide": "POST only",
    "activities:record_photo": "an image",
    "activities:tournament_pdf": "a PDF (its words: test_tournaments_views)",
    "activities:tournament_entrant_add": "POST only",
    "activities:tournament_round_next": "POST only",
    "activities:tournament_round_set": "a 麻将 round set by hand: the demo's tournament is closed",
    "activities:tournament_result": "POST only",
    "activities:tournament_table_open": "POST only",
    "activities:tournament_close": "POST only",
    "activities:duty_sign_on": "POST only (the button is on the home page, checked)",
    "activities:duty_sign_off": "POST only",
    "activities:leave_decide": "POST only (the form is on the leave's page, checked)",
    "activities:leave_back": "POST only",
    "activities:check_tick": "POST only (the boxes are on the checks page, checked)",
    "activities:check_item_edit": "POST only (the forms are on the items page, checked)",
}


def _url_names() -> set[str]:
    names: set[str] = set()

    def walk(patterns: list[Any], namespace: str) -> None:
        for pattern in patterns:
            if isinstance(pattern, URLResolver):
                if pattern.namespace == "admin":
                    continue  # Django's, the developer's (docs/foundation.md)
                inner = pattern.namespace or ""
                joined = f"{namespace}:{inner}" if namespace and inner else namespace or inner
                walk(pattern.url_patterns, joined)
            elif isinstance(pattern, URLPattern) and pattern.name:
                names.add(f"{namespace}:{pattern.name}" if namespace else pattern.name)

    walk(get_resolver().url_patterns, "")
    return names


def test_every_url_is_checked_or_skipped():
    assert sorted(_url_names() - set(PAGES) - set(SKIPPED)) == []
    assert sorted((set(PAGES) | set(SKIPPED)) - _url_names()) == []
    assert set(PAGES).isdisjoint(SKIPPED)


def _typed_texts() -> list[str]:
    """Every text the room typed (names, reasons, notes…): all stored strings with a
    Han character, longest first, so a name is taken out before a part of it."""
    texts: set[str] = set()
    for model in apps.get_models():
        fields = [
            f.attname
            for f in model._meta.concrete_fields
            if isinstance(f, models.CharField | models.TextField) and not f.choices
        ]
        if not fields:
            continue
        for row in model._default_manager.values_list(*fields):
            texts.update(v for v in row if isinstance(v, str) and HAN.search(v))
    pieces = {piece for text in texts for piece in text.split()} | texts
    return sorted(pieces, key=len, reverse=True)


VOID = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source"}


class _Words(HTMLParser):
    """The page's words as a reader meets them (text and the attributes shown), without
    the elements marked Chinese (``lang="zh-Hans"``), scripts and styles."""

    SHOWN = ("title", "placeholder", "aria-label", "alt", "value")

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.words: list[str] = []
        self.skipping = 0  # depth inside a skipped element

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag in VOID:
            if not self.skipping:
                self._attributes(attrs)
            return
        if self.skipping:
            self.skipping += 1
            return
        lang = dict(attrs).get("lang") or ""
        if (lang.startswith("zh") and tag != "html") or tag in ("script", "style"):
            self.skipping = 1
            return
        self._attributes(attrs)

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if not self.skipping:
            self._attributes(attrs)

    def handle_endtag(self, tag: str) -> None:
        if self.skipping and tag not in VOID:
            self.skipping -= 1

    def handle_data(self, data: str) -> None:
        if not self.skipping:
            self.words.append(data)

    def _attributes(self, attrs: list[tuple[str, str | None]]) -> None:
        self.words.extend(v for k, v in attrs if k in self.SHOWN and v)


def _visible_han(html: str, typed: list[str]) -> list[str]:
    parser = _Words()
    parser.feed(html)
    found: list[str] = []
    for text in parser.words:
        for word in typed:
            text = text.replace(word, " ")
        found.extend(line.strip() for line in text.splitlines() if HAN.search(line))
    return found


def _opened() -> Iterator[tuple[str, str, str]]:
    for name, spec in PAGES.items():
        args = spec.args()
        for kwargs in args if isinstance(args, list) else [args]:
            for query in spec.queries():
                for role in spec.roles:
                    yield name, role, reverse(name, kwargs=kwargs) + query
    for name, role, player_args in AS_PLAYER:
        for kwargs in player_args():
            yield name, role, reverse(name, kwargs=kwargs)
    for slug in LIST_SLUGS:
        yield "reports:list", "manager", reverse("reports:list", kwargs={"slug": slug})


@pytest.fixture
def demo_room(db):
    call_command("loaddefaults", stdout=StringIO())
    call_command("demo", stdout=StringIO())
    user_create(username="district", password=None, room=None, roles=[Role.DISTRICT])
    users = get_user_model().objects
    room = _first(Member).room
    demo_plans_and_records(room, users.get(username="manager"), users.get(username="approver"))
    # the states the demo leaves to the office: a rejected plan is shown too
    assert PurchasePlan.objects.filter(submission__decision__outcome=PlanOutcome.REJECTED)


def test_it_shows_every_page_in_english(client, demo_room):
    users = {u.username: u for u in get_user_model().objects.all()}
    typed = _typed_texts()
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"
    failures: dict[str, list[str]] = {}
    for name, role, url in _opened():
        client.logout()
        if role != "anonymous":
            client.force_login(users[role])
        client.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"
        response = client.get(url, follow=True)
        assert response.status_code == 200, (name, role, url, response.status_code)
        landed = response.redirect_chain[-1][0] if response.redirect_chain else url
        assert landed.split("?")[0] != reverse("login") or role == "anonymous", (name, url)
        han = _visible_han(response.content.decode(), typed)
        if han:
            failures[f"{name} ({role}) {url}"] = han
    assert failures == {}, "\n".join(f"{k}: {v}" for k, v in failures.items())
