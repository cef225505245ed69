"""One hand's path: which of the project's functions a booking passes through.

    python bench/hand_path.py [--list]

Builds a throwaway SQLite test database, opens a 南京 table, and enters one hand
the way a phone does: GET the entry page, POST its form with ``preview``, then POST
the confirm the preview page carries. The confirm (from the POST to its ledger
lines and the redirect) runs under ``sys.settrace``; every function of ``clubapp/``
and ``scoring/`` (tests and migrations left out) that it calls is counted once.
Comprehensions, lambdas and generator expressions are counted apart. Prints the
number of functions, of modules, of returns to a module already left (the modules
calls go into, in order, a run of calls into one module written once; each call into
a module that ran before and was left counts), and of distinct source lines run;
``--list``
prints the functions too.

The form is read from the page itself (every input, select and checked box a
browser would send), so the script does not depend on the form's field names
beyond the few it fills in (see ``choose``).
"""

from __future__ import annotations

import argparse
import os
import re
import sys
from pathlib import Path
from types import FrameType
from typing import Any
from urllib.parse import urlencode

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "clubapp.settings")
os.environ.setdefault("SECRET_KEY", "bench-" + "x" * 60)
os.environ.pop("DATABASE_URL", None)  # always a throwaway SQLite database

import django  # noqa: E402

django.setup()

from django.db import connection  # noqa: E402
from django.test import Client, override_settings  # noqa: E402
from django.test.utils import setup_test_environment  # noqa: E402
from django.urls import reverse  # noqa: E402
from formdata import read_form  # noqa: E402

PROJECT = (str(ROOT / "clubapp"), str(ROOT / "scoring"))
SKIP = ("/tests/", "/migrations/")


def choose(fields: list[tuple[str, str]], names: set[str]) -> list[tuple[str, str]]:
    """South wins on East's discard with four hard flowers (quick entry)."""

    def find(*candidates: str) -> str:
        for name in candidates:
            if name in names:
                return name
        raise SystemExit(f"none of {candidates} on the page")

    hard = find("hard_S", "S-hard", "seat_S-hard")
    out = [(n, v) for n, v in fields if n != hard and n != "csrfmiddlewaretoken"]
    out += [("winners", "S"), (hard, "4")]
    if "discarder" not in dict(out) or dict(out)["discarder"] != "E":
        out = [(n, v) for n, v in out if n != "discarder"] + [("discarder", "E")]
    return out


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--list", action="store_true", help="print every function")
    args = parser.parse_args()
    setup_test_environment()
    old_name = connection.creation.create_test_db(verbosity=0)
    try:
        with override_settings(SECURE_SSL_REDIRECT=False):
            return run(args.list)
    finally:
        connection.creation.destroy_test_db(old_name, verbosity=0)


def run(show: bool) -> int:
    from clubapp.core.roles import Role
    from clubapp.core.services import user_create
    from clubapp.core.tests.factories import RoomFactory
    from clubapp.play import services
    from clubapp.play.models import LedgerLine
    from clubapp.play.tests.factories import TableSessionFactory

    room = RoomFactory()
    user = user_create(username="boss", password="x", roles=[Role.MANAGER])
    session = TableSessionFactory(room=room, ruleset=services.ruleset_versions_sync()[1])
    client = Client()
    client.force_login(user)
    url = reverse("play:hand_entry", args=[session.pk])
    page = client.get(url)
    assert page.status_code == 200, page.status_code
    fields = read_form(page.content.decode())
    data = choose(fields, {n for n, _ in fields})
    action = re.search(r'<form[^>]*action="([^"]+)"[^>]*id="entry"', page.content.decode())
    preview = client.post(
        action.group(1) if action else url,
        urlencode([*data, ("preview", "1")]),
        content_type="application/x-www-form-urlencoded",
    )
    assert preview.status_code == 200, preview.status_code
    carried = [(n, v) for n, v in read_form(preview.content.decode()) if n != "csrfmiddlewaretoken"]
    confirm_url = url
    button = re.search(r'<button[^>]*name="confirm"[^>]*>', preview.content.decode())
    target = re.search(r'formaction="([^"]+)"', button.group(0)) if button else None
    if target:
        confirm_url = target.group(1)
    body = urlencode([*carried, ("confirm", "1")])

    called: dict[tuple[str, str, int], int] = {}
    lines: set[tuple[str, int]] = set()
    # The module of every call in order, a run of calls into one module written once:
    # a call into a module that already ran and was left is a return to it.
    entered: list[str] = []

    def tracer(frame: FrameType, event: str, arg: Any) -> Any:
        code = frame.f_code
        path = code.co_filename
        if not path.startswith(PROJECT) or any(s in path for s in SKIP):
            return None
        if event == "call":
            key = (path, code.co_name, code.co_firstlineno)
            called[key] = called.get(key, 0) + 1
            if not entered or entered[-1] != path:
                entered.append(path)
        return local

    def local(frame: FrameType, event: str, arg: Any) -> Any:
        if event == "line":
            lines.add((frame.f_code.co_filename, frame.f_lineno))
        return local

    before = LedgerLine.objects.count()
    sys.settrace(tracer)
    try:
        response = client.post(confirm_url, body, content_type="application/x-www-form-urlencoded")
    finally:
        sys.settrace(None)
    booked = LedgerLine.objects.count() - before
    assert response.status_code == 302, (response.status_code, response.content[:2000])
    assert booked > 0, "the confirm booked no ledger lines"
    named = {k: n for k, n in called.items() if not k[1].startswith("<")}
    modules = {k[0] for k in named}
    print(f"confirm POST → {booked} ledger lines")
    print(f"functions: {len(named)} in {len(modules)} modules")
    for part in ("clubapp", "scoring"):
        mine = [k for k in named if os.path.relpath(k[0], ROOT).startswith(part)]
        print(f"  {part}/: {len(mine)} in {len({k[0] for k in mine})} modules")
    print(f"comprehensions, lambdas, generator expressions: {len(called) - len(named)}")
    back = [path for i, path in enumerate(entered) if path in entered[:i]]
    print(f"module entries: {len(entered)}; returns to a module already left: {len(back)}")
    for part in ("clubapp", "scoring"):
        mine = [p for p in back if os.path.relpath(p, ROOT).startswith(part)]
        print(f"  into {part}/: {len(mine)}")
    print(f"distinct source lines run: {len(lines)}")
    for part in ("clubapp", "scoring"):
        mine = [k for k in lines if os.path.relpath(k[0], ROOT).startswith(part)]
        print(f"  {part}/: {len(mine)}")
    if show:
        for path, name, first in sorted(named):
            rel = os.path.relpath(path, ROOT)
            print(f"  {rel}:{first} {name} ×{named[(path, name, first)]}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
