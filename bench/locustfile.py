"""The phones of the load scenario (locust; run by ``bench/load.py``, not by hand).

At each table a recorder's phone books a hand every 5 seconds as a player does: the
entry page, the preview POST (a real hand by quick entry), the confirm sent the way
entry.js sends it (``X-Entry-Confirm``, answered with the table's address as JSON),
one in ten sent twice at the same moment (a double tap), then the table's page it is
sent to, which says which hand was booked. A second phone at the table polls the
journal's end every 5 seconds and reloads the table's page when a hand was booked
(table.js). The desk checks non-members in and, a couple of minutes later, out (a fee,
a receipt); the accountant opens the month's report and downloads its xlsx; one more
phone opens the bare view (``bench/load_urls.py``) twice a second: the yardstick.

Every phone signs in through the login page first; the work starts when all have
(``ready``) and stops ``LOAD_SECONDS`` later (``stop``): each phone finishes what it
was doing and starts nothing new. Two logs (JSON lines): every request with its kind
and time (``LOAD_REQUESTS``), and what each phone was told (``LOAD_LOG``): the hands it
was told were booked and under which key, the receipts the desk was given. The
after-check (``bench/load_check.py``) holds the database to the second.
"""

from __future__ import annotations

import itertools
import json
import os
import random
import re
import time
import uuid
from typing import Any
from urllib.parse import urlencode

import gevent
from formdata import read_form
from gevent.event import Event
from gevent.lock import BoundedSemaphore
from locust import FastHttpUser, constant, constant_pacing, events, task
from locust.exception import StopUser

ACCOUNTS: dict[str, Any] = json.loads(open(os.environ["LOAD_ACCOUNTS"]).read())  # noqa: SIM115
SECONDS = float(os.environ.get("LOAD_SECONDS", "600"))
TABLES = ACCOUNTS["tables"]
PHONES = 2 * len(TABLES) + 3  # recorders, second phones, desk, accountant, yardstick
SEED = int(os.environ.get("LOAD_SEED", "2026"))
#: how long a non-member stays before the desk checks them out (a smoke run: shorter)
STAY = min(120.0, SECONDS / 3)

_requests = open(os.environ["LOAD_REQUESTS"], "a", buffering=1)  # noqa: SIM115
_log = open(os.environ["LOAD_LOG"], "a", buffering=1)  # noqa: SIM115
ready = Event()  # every phone signed in: the measured run starts
stop = Event()  # the run's time is up: nothing new is started
_signed_in = itertools.count(1)
_signing_in = BoundedSemaphore(2)  # a login hashes its password: ~0.3 s of a core

BOOKED = re.compile(r"第 (\d+) 把已记账")
CHECKED_OUT = re.compile(r">([^<>\s]+) 已离场：(\d+) 小时，([\d.]+) 元，收据 (R[\d-]+)。")
STATIC = re.compile(r'(?:href|src)="(/static/[^"]+)"')


def log(**event: Any) -> None:
    _log.write(json.dumps({"t": round(time.time(), 3), **event}, ensure_ascii=False) + "\n")


@events.request.add_listener
def _timed(name: str, response_time: float, response: Any, exception: Any, **kw: Any) -> None:
    status = getattr(response, "status_code", 0) or 0
    line = [round(kw["start_time"], 3), name, round(response_time, 2), status, exception is None]
    _requests.write(json.dumps(line, ensure_ascii=False) + "\n")


@events.init.add_listener
def _clock(environment: Any, **kw: Any) -> None:
    def run() -> None:
        if not ready.wait(timeout=300):
            log(event="error", phone="all", kind="not every phone signed in within 5 minutes")
            environment.runner.quit()
            return
        log(event="ready", phones=PHONES)
        gevent.sleep(SECONDS)
        stop.set()
        log(event="stop")
        gevent.sleep(15)  # each phone finishes the hand or the visit it was at
        log(event="end")
        environment.runner.quit()

    gevent.spawn(run)


# quick entry, the winner's part: (hard flowers, soft flowers, feature ticks); each
# valid under 南京麻将 whoever wins and whoever dealt in (a small hand needs 4 hard
# flowers; 门清 and the big hands none)
HANDS: list[tuple[str, str, list[str]]] = [
    ("4", "1", []),
    ("0", "0", ["menqing"]),
    ("2", "1", ["menqing", "hunyise"]),
    ("5", "2", ["duiduihu"]),
    ("1", "0", ["qingyise"]),
    ("6", "0", []),
]
SEATS = ("E", "S", "W", "N")


class Phone(FastHttpUser):
    """A signed-in phone: its account, its CSRF token, its requests named by kind."""

    abstract = True
    #: accounts handed out in turn to the phones of a class
    taken: itertools.count[int]

    def login(self, who: dict[str, str]) -> None:
        self.call("GET", "/accounts/login/", "login page")
        with _signing_in:  # players arrive one after another, not all in the same second
            answer = self.call(
                "POST",
                "/accounts/login/",
                "login POST",
                [("username", who["username"]), ("password", who["password"])],
            )
        if answer.status_code != 302:
            raise StopUser
        # the page a browser lands on, and its static files once (then cached)
        home = self.call("GET", "/", "home page (after login)")
        for path in sorted(set(STATIC.findall(home.text or ""))):
            self.call("GET", path, "static file")
        if next(_signed_in) == PHONES:
            ready.set()
        ready.wait()
        gevent.sleep(self.rng.uniform(0, 5))  # phones are not in step

    def on_start(self) -> None:
        self.rng = random.Random(SEED + id(self) % 1000)

    def csrf(self) -> str:
        return next((c.value for c in self.client.cookiejar if c.name == "csrftoken"), "")

    def call(
        self,
        method: str,
        path: str,
        kind: str,
        fields: list[tuple[str, str]] | None = None,
        headers: dict[str, str] | None = None,
    ) -> Any:
        """One request as a browser sends it (a form urlencoded, with the CSRF token);
        redirects are not followed (the phone asks for the next page itself). An
        answer other than 2xx or 3xx is logged as an error."""
        body = None
        sent = dict(headers or {})
        if fields is not None:
            body = urlencode([*fields, ("csrfmiddlewaretoken", self.csrf())])
            sent["Content-Type"] = "application/x-www-form-urlencoded"
        answer = self.client.request(
            method, path, name=kind, data=body, headers=sent, allow_redirects=False
        )
        if not 200 <= (answer.status_code or 0) < 400:
            log(event="error", phone=self.phone, kind=kind, path=path, status=answer.status_code)
        return answer


class Recorder(Phone):
    """The phone at 东 that books the table's hands."""

    fixed_count = len(TABLES)
    wait_time = constant_pacing(5)
    taken = itertools.count()

    def on_start(self) -> None:
        super().on_start()
        self.table = TABLES[next(self.taken)]
        self.phone = f"recorder {self.table['table']}"
        self.rng = random.Random(SEED + self.table["table"])
        self.session = self.table["session"]
        self.form: list[tuple[str, str]] | None = None
        self.login(self.table["recorder"])

    def hand(self) -> list[tuple[str, str]]:
        """The entry form as a phone sends it, with one hand: a winner (or none: a
        drawn hand, one in twenty), who dealt in (or self-drawn), the winner's part."""
        assert self.form is not None
        if self.rng.random() < 0.05:
            chosen: list[tuple[str, str]] = [("discarder", "")]
            winner = None
        else:
            winner = self.rng.choice(SEATS)
            dealt_in = self.rng.choice(["", *(s for s in SEATS if s != winner)])
            hard, soft, ticks = self.rng.choice(HANDS)
            chosen = [("winners", winner), ("discarder", dealt_in)]
            chosen += [(f"{winner}-hard", hard), (f"{winner}-soft", soft)]
            chosen += [(f"{winner}-features", tick) for tick in ticks]
        mine = {"winners", "discarder"}
        if winner:
            mine |= {f"{winner}-hard", f"{winner}-soft", f"{winner}-features"}
        return [(n, v) for n, v in self.form if n not in mine] + chosen

    @task
    def book(self) -> None:
        if stop.is_set():
            raise StopUser
        base = f"/play/{self.session}/hands"
        entry = self.call("GET", f"{base}/new/", "entry page")
        if self.form is None:
            page = entry.text or ""
            self.form = [(n, v) for n, v in read_form(page) if n != "csrfmiddlewaretoken"]
        fields = self.hand()
        shown = self.call("POST", f"{base}/preview/", "preview POST", [*fields, ("preview", "1")])
        self.confirm(fields, shown.text or "", double=self.rng.random() < 0.1)

    def confirm(self, fields: list[tuple[str, str]], page: str, *, double: bool) -> None:
        hidden = {
            name: re.search(rf'name="{name}" value="([^"]*)"', page)
            for name in ("key", "previewed", "after")
        }
        if not all(hidden.values()):
            errors = re.findall(r'<p class="error">([^<]+)</p>', page)
            log(event="error", phone=self.phone, kind="preview refused", errors=errors)
            return
        carried = [(name, match[1]) for name, match in hidden.items() if match]
        key = carried[0][1]
        sent = [*fields, *carried, ("confirm", "1")]
        log(event="confirm", phone=self.phone, session=self.session, key=key, double=double)

        def post(kind: str) -> Any:
            return self.call(
                "POST",
                f"/play/{self.session}/hands/book/",
                kind,
                sent,
                {"X-Entry-Confirm": "1", "Accept": "application/json"},
            )

        if double:
            taps = [
                gevent.spawn(post, "booking POST"),
                gevent.spawn(post, "booking POST, tapped again"),
            ]
            gevent.joinall(taps)
            answers = [tap.value for tap in taps]
        else:
            answers = [post("booking POST")]
        where = None
        for answer in answers:
            if (answer.headers.get("Content-Type") or "").startswith("application/json"):
                where = json.loads(answer.text)["location"]
            elif answer.status_code == 200 and 'name="key"' in (answer.text or ""):
                # the table changed since the preview: the fresh preview, checked again
                log(event="table changed", phone=self.phone, session=self.session, key=key)
                self.confirm(fields, answer.text, double=False)
                return
            else:
                log(event="error", phone=self.phone, kind="booking answer", key=key,
                    status=answer.status_code)  # fmt: skip
        if where is None:
            return
        table = self.call("GET", where, "table page (after booking)")
        told = sorted({int(n) for n in BOOKED.findall(table.text or "")})
        log(event="booked", phone=self.phone, session=self.session, key=key, numbers=told,
            double=double)  # fmt: skip


class SecondPhone(Phone):
    """The phone at 南: the table's page, reloaded when the journal's end moves."""

    fixed_count = len(TABLES)
    wait_time = constant(5)
    taken = itertools.count()

    def on_start(self) -> None:
        super().on_start()
        self.table = TABLES[next(self.taken)]
        self.phone = f"second phone {self.table['table']}"
        self.session = self.table["session"]
        self.login(self.table["poller"])
        self.known = self.page()

    def page(self) -> str:
        page = self.call("GET", f"/play/{self.session}/", "table page")
        number = re.search(r'data-tip-number="(\d+)"', page.text or "")
        return number[1] if number else ""

    @task
    def poll(self) -> None:
        if stop.is_set():
            raise StopUser
        tip = self.call("GET", f"/play/{self.session}/tip/", "tip poll")
        if tip.status_code == 200 and str(json.loads(tip.text)["number"]) != self.known:
            self.known = self.page()
            log(event="seen", phone=self.phone, session=self.session, number=self.known)


class Desk(Phone):
    """The desk: non-members in, and out after two minutes with the fee and a receipt."""

    fixed_count = 1
    wait_time = constant_pacing(10)
    taken = itertools.count()

    def on_start(self) -> None:
        super().on_start()
        self.phone = "desk"
        self.guests = itertools.count(1)
        self.inside: list[tuple[str, int, float]] = []  # (name, visit, since)
        self.login(ACCOUNTS["desk"])

    def visits(self) -> str:
        return self.call("GET", "/members/visits/", "desk: visits page").text or ""

    @task
    def desk(self) -> None:
        if stop.is_set():
            raise StopUser
        self.visits()
        if self.inside and time.time() - self.inside[0][2] > STAY:
            self.check_out(*self.inside.pop(0)[:2])
        elif len(self.inside) < 3:
            self.check_in(f"散客{next(self.guests):03d}")

    def check_in(self, name: str) -> None:
        fields = [("guest_name", name), ("guest_phone", ""), ("request_key", str(uuid.uuid4()))]
        self.call("POST", "/members/visits/guest/", "desk: check-in POST", fields)
        visit = re.search(rf'href="/members/visits/(\d+)/">{name}</a>', self.visits())
        log(event="checked in", phone=self.phone, guest=name, visit=visit and int(visit[1]))
        if visit:
            self.inside.append((name, int(visit[1]), time.time()))

    def check_out(self, name: str, visit: int) -> None:
        page = self.call("GET", f"/members/visits/{visit}/check-out/", "desk: check-out page")
        fields = [
            (field, match[1])
            for field in ("fee", "request_key")
            if (match := re.search(rf'name="{field}" value="([^"]*)"', page.text or ""))
        ]
        self.call("POST", f"/members/visits/{visit}/check-out/", "desk: check-out POST", fields)
        told = CHECKED_OUT.search(self.visits())
        if told is None or told[1] != name:
            log(event="error", phone=self.phone, kind="check-out not confirmed", visit=visit)
            return
        log(event="receipt", phone=self.phone, guest=name, visit=visit, hours=int(told[2]),
            fee=told[3], receipt=told[4])  # fmt: skip


class Accountant(Phone):
    """The accountant: the month's report, and its workbook."""

    fixed_count = 1
    wait_time = constant_pacing(30)
    taken = itertools.count()

    def on_start(self) -> None:
        super().on_start()
        self.phone = "accountant"
        self.login(ACCOUNTS["accountant"])

    @task
    def report(self) -> None:
        if stop.is_set():
            raise StopUser
        self.call("GET", "/reports/monthly/", "monthly report page")
        book = self.call("GET", "/reports/monthly.xlsx", "monthly report xlsx")
        if not (book.content or b"").startswith(b"PK"):
            log(
                event="error", phone=self.phone, kind="monthly report xlsx", status=book.status_code
            )


class Yardstick(Phone):
    """The bare view, twice a second, measured in the same run as the rest."""

    fixed_count = 1
    wait_time = constant_pacing(0.5)
    taken = itertools.count()

    def on_start(self) -> None:
        super().on_start()
        self.phone = "yardstick"
        self.login(ACCOUNTS["yardstick"])

    @task
    def bare(self) -> None:
        if stop.is_set():
            raise StopUser
        self.call("GET", "/bench/bare/", "bare view")
