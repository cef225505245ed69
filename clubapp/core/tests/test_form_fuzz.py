"""Every form, fed bad values, answers with a page (a form error), a redirect or a
refusal — never a server error.

The test walks the URLconf (``get_resolver``), fills each pattern's arguments from the
demo room's objects, GETs the page as a signed-in member (who sits at a demo table)
and as a manager, reads the POST forms off the page, and sends each form: nothing
at all, the huge number in every field, and the fields people type set to one of the
bad values (random text, a huge number, Arabic-Indic digits, full-width digits), taking
turns form by form so that the whole walk stays cheap. The member walks the play pages
(their table's); the manager every page but the reports (no form posts there). 200 (a
form error), a redirect or a refusal (400, 403, 404, 405) pass; a 500 fails.
"""

from __future__ import annotations

import datetime
import re
from html.parser import HTMLParser
from typing import Any
from urllib.parse import urljoin, urlsplit

import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.test import Client
from django.urls import Resolver404, URLPattern, URLResolver, get_resolver, resolve

pytestmark = pytest.mark.django_db

#: what each field gets in turn: random text, a huge number, Arabic-Indic and
#: full-width digits
BAD_VALUES = ["x<'\"; 中文 ¿", str(10**30), "١٢٣", "１２"]
OK_STATUS = {200, 302, 400, 403, 404, 405}
#: pages left out: they end the signed-in session, switch its room or language, or
#: take a one-time link; and the files (PDF, spreadsheets: no forms, slow to make)
SKIP = re.compile(r"^(accounts/logout|admin/logout|accounts/reset|room/|i18n/)|\.(pdf|xlsx|csv)$")
#: candidate values of a pattern's arguments; the first that a GET answers with 200 wins
TODAY = datetime.date.today()


class _Forms(HTMLParser):
    """The POST forms of a page: each its action and its fields as the page fills them."""

    def __init__(self) -> None:
        super().__init__()
        self.forms: list[tuple[str, dict[str, str]]] = []
        #: the fields people type in (text, numbers, dates, text areas), by name
        self.typed: set[str] = set()
        #: the links of the page
        self.links: list[str] = []
        self._fields: dict[str, str] | None = None
        self._select: str | None = None
        self._textarea: str | None = None

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = {k: v or "" for k, v in attrs}
        if tag == "a" and a.get("href", "").startswith("/"):
            self.links.append(a["href"])
        if tag == "form" and a.get("method", "get").lower() == "post":
            self._fields = {}
            self.forms.append((a.get("action", ""), self._fields))
        if self._fields is None or "name" not in a and tag != "option":
            return
        if tag == "input":
            kind = a.get("type", "text")
            if kind in ("submit", "button", "file", "image", "reset"):
                if kind == "submit":
                    self._fields.setdefault(a["name"], a.get("value", ""))
                return
            if kind in ("checkbox", "radio") and "checked" not in a:
                self._fields.setdefault(a["name"], "") if kind == "radio" else None
                return
            self._fields[a["name"]] = a.get("value", "")
            if kind not in ("hidden", "checkbox", "radio"):
                self.typed.add(a["name"])
        elif tag == "select":
            self._select = a["name"]
            self._fields[a["name"]] = ""
        elif tag == "option" and self._select is not None:
            if "selected" in a or not self._fields.get(self._select):
                self._fields[self._select] = a.get("value", "")
        elif tag == "textarea":
            self._textarea = a["name"]
            self._fields[a["name"]] = ""
            self.typed.add(a["name"])

    def handle_data(self, data: str) -> None:
        if self._fields is not None and self._textarea is not None:
            self._fields[self._textarea] += data

    def handle_endtag(self, tag: str) -> None:
        if tag == "form":
            self._fields = None
        elif tag == "select":
            self._select = None
        elif tag == "textarea":
            self._textarea = None


def _patterns(resolvers: list[Any], prefix: str = "") -> list[str]:
    out = []
    for p in resolvers:
        if isinstance(p, URLResolver):
            out += _patterns(p.url_patterns, prefix + str(p.pattern))
        elif isinstance(p, URLPattern):
            out.append(prefix + str(p.pattern))
    return out


def _candidates(name: str, converter: str) -> list[str]:
    if name in ("day",):
        return [TODAY.isoformat()]
    if name == "year":
        return [str(TODAY.year)]
    if name == "month":
        return [str(TODAY.month)]
    if converter == "int":
        return ["1", "2"]
    if name == "number":  # a receipt's number
        from clubapp.members.models import Receipt

        return [r.number for r in Receipt.objects.all()[:1]] or ["0"]
    if name == "slug":
        return ["members", "cards", "visits", "income"]
    if name == "object_id":
        return ["1", "2"]
    return []


_ARG = re.compile(r"<(?:(\w+):)?(\w+)>")


def _urls(client: Client, pattern: str, linked: dict[str, str]) -> list[str]:
    """The pattern with its arguments filled: a link to it from a page walked before,
    else the first candidates a GET answers with 200 (admin regexes and patterns without
    candidates are left out)."""
    if pattern.startswith("^") or "(?P" in pattern or SKIP.match(pattern):
        return []
    if pattern in linked:
        return [linked[pattern]]
    url = "/" + pattern
    for match in _ARG.finditer(pattern):
        converter, name = match.group(1) or "str", match.group(2)
        values = _candidates(name, converter)
        if not values:
            return []
        for value in values:
            tried = url.replace(match.group(0), value, 1)
            if "<" in tried or client.get(tried).status_code == 200:
                url = tried
                break
        else:
            return []
    return [url]


def _posts(fields: dict[str, str], typed: set[str], turn: int) -> list[dict[str, str]]:
    """Nothing (every field missing); one of the bad values, taking turns form by form,
    in every field people type (the others as the page filled them); the huge number in
    every field, hidden ones (a formset's counts) and choices included. Empty fields are
    what the pages' own tests send."""
    typed = typed & set(fields)
    return [
        {},
        dict.fromkeys(fields, BAD_VALUES[1]),
        {**fields, **dict.fromkeys(typed, BAD_VALUES[turn % len(BAD_VALUES)])},
    ]


def _walk(client: Client, only: str, skip: str) -> tuple[int, int, list[str]]:
    """GET every page, POST its forms; the number of pages and forms, and the faults."""
    pages, forms, faults = 0, 0, []
    found: list[tuple[str, str, dict[str, str], set[str]]] = []
    linked: dict[str, str] = {}  # a route, and the first link to it found on a page
    # the pages without arguments first: their links give the others theirs
    patterns = sorted(_patterns(get_resolver().url_patterns), key=lambda p: p.count("<"))
    for pattern in patterns:
        if not pattern.startswith(only) or pattern.startswith(skip):
            continue
        for url in _urls(client, pattern, linked):
            response = client.get(url)
            if response.status_code not in OK_STATUS:
                faults.append(f"GET {url}: {response.status_code}")
            if response.status_code != 200 or "html" not in response.get("Content-Type", ""):
                continue
            pages += 1
            parser = _Forms()
            parser.feed(response.content.decode())
            for link in parser.links:
                try:
                    linked.setdefault(resolve(urlsplit(link).path).route, urlsplit(link).path)
                except Resolver404:
                    pass
            for action, fields in parser.forms:
                target = urljoin(url, action) if action else url
                if urlsplit(target).netloc or SKIP.match(urlsplit(target).path.lstrip("/")):
                    continue
                found.append((url, urlsplit(target).path, fields, parser.typed))
    seen = set()
    for url, target, fields, typed in found:
        if target in seen:
            continue
        seen.add(target)
        forms += 1
        for data in _posts(fields, typed, forms):
            response = client.post(target, data)
            if response.status_code not in OK_STATUS:
                faults.append(f"POST {target} (from {url}) {data}: {response.status_code}")
    return pages, forms, faults


@pytest.fixture
def demo() -> None:
    call_command("demo", stdout=open("/dev/null", "w"))  # noqa: SIM115


def _client(username: str) -> Client:
    client = Client()
    client.raise_request_exception = False
    client.force_login(get_user_model().objects.get(username=username))
    return client


def test_no_form_meets_a_server_error(demo: None) -> None:
    """A member seated at a demo table first (a manager's posts may change what a
    member sees), then a manager."""
    faults = []
    walks = (("member", "play/", "-", (8, 2)), ("manager", "", "reports/", (50, 30)))
    for username, only, skip, least in walks:
        pages, forms, found = _walk(_client(username), only, skip)
        print(f"{username}: {pages} pages, {forms} forms")  # noqa: T201 - the coverage, for the log
        assert (pages, forms) >= least
        faults += found
    assert faults == []
