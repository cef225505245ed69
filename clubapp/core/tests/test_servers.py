"""Past one machine: two app servers (two gunicorns on two ports) behind a proxy,
sharing one PostgreSQL (issue 24; docs/operations.md "Several app servers").

The app keeps nothing of its own between requests: a session made by one server is
honoured by the other, a login lockout counted on both is one lockout, a room is the
same room whichever server answers. PostgreSQL only: SQLite's test database lives in
the test process's memory, out of the servers' reach.

Each test runs twice: with the shared state as rows of the database, and with
``REDIS_URL`` (sessions, lockouts and the per-address limit through Redis, under a key
prefix of the test's own; skipped when no Redis answers at ``TEST_REDIS_URL``, by
default redis://127.0.0.1:6379/0).
"""

from __future__ import annotations

import http.cookiejar
import os
import re
import urllib.error
import urllib.parse
import urllib.request
import uuid
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import pytest
import redis
from axes.models import AccessAttempt
from django.contrib.auth.hashers import PBKDF2PasswordHasher
from django.contrib.sessions.models import Session
from django.db import connection

from bench.servers import servers
from clubapp.core.roles import Role
from clubapp.core.tests.factories import PASSWORD, RoomFactory, UserFactory

pytestmark = pytest.mark.skipif(
    connection.vendor != "postgresql", reason="two servers share PostgreSQL, not SQLite"
)


REDIS_URL = os.environ.get("TEST_REDIS_URL", "redis://127.0.0.1:6379/0")
#: the servers' own limits: the per-address one low enough to reach in a test
LIMITS = {"AXES_FAILURE_LIMIT": "5", "LOGIN_ADDRESS_FAILURE_LIMIT": "8"}


@dataclass
class Pair:
    url: str
    #: the servers' Redis and their keys' prefix, or None: rows of the database
    redis: Any = None
    prefix: str = ""

    def redis_keys(self) -> list[str]:
        return [k.decode() for k in self.redis.scan_iter(match=f"{self.prefix}:*")]


def _redis() -> Any:
    client = redis.Redis.from_url(REDIS_URL, socket_connect_timeout=2)
    try:
        client.ping()
    except redis.RedisError as error:
        pytest.skip(f"no Redis answers at {REDIS_URL}: {error}")
    return client


@pytest.fixture(params=["database", "redis"])
def proxy(request: Any, transactional_db: Any) -> Iterator[Pair]:
    """Two gunicorns on the test database, behind the round-robin proxy."""
    db = connection.settings_dict
    url = (
        f"postgres://{urllib.parse.quote(db['USER'] or 'postgres')}@{db['HOST'] or '127.0.0.1'}"
        f":{db['PORT'] or 5432}/{db['NAME']}"
    )
    env = {"DATABASE_URL": url, "DEBUG": "1", "ALLOWED_HOSTS": "127.0.0.1,localhost", **LIMITS}
    pair = Pair("")
    if request.param == "redis":
        pair = Pair("", _redis(), f"test-servers-{uuid.uuid4().hex[:12]}")
        env.update(REDIS_URL=REDIS_URL, REDIS_KEY_PREFIX=pair.prefix)
    else:
        env["REDIS_URL"] = ""  # whatever the environment of the test run says
    try:
        with servers(2, env) as (port, _):
            pair.url = f"http://127.0.0.1:{port}"
            yield pair
    finally:
        if pair.redis is not None:
            for key in pair.redis.scan_iter(match=f"{pair.prefix}:*"):
                pair.redis.delete(key)


def _user(**fields: Any) -> Any:
    """A user the servers can sign in: the tests hash with MD5 for speed, the servers
    (not under pytest) know only the production hashers."""
    user = UserFactory(**fields)
    hasher = PBKDF2PasswordHasher()
    user.password = hasher.encode(PASSWORD, hasher.salt(), iterations=1000)
    user.save(update_fields=["password"])
    return user


class Browser:
    """A cookie jar and the last answer's server; no redirect followed."""

    def __init__(self, base: str) -> None:
        self.base = base
        self.jar = http.cookiejar.CookieJar()
        self.served_by: list[str] = []

        class Stay(urllib.request.HTTPRedirectHandler):
            def redirect_request(self, *args: Any, **kwargs: Any) -> None:
                return None

        self.opener = urllib.request.build_opener(
            urllib.request.HTTPCookieProcessor(self.jar), Stay()
        )

    def open(self, path: str, data: dict[str, str] | None = None) -> tuple[int, str]:
        body = urllib.parse.urlencode(data).encode() if data is not None else None
        request = urllib.request.Request(self.base + path, data=body)
        try:
            answer = self.opener.open(request, timeout=60)
        except urllib.error.HTTPError as error:
            answer = error
        self.served_by.append(answer.headers["X-Served-By"])
        return answer.status, answer.read().decode("utf-8", "replace")

    def log_in(self, username: str, password: str) -> int:
        _, page = self.open("/accounts/login/")
        token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', page)
        assert token, "the login page has its form"
        status, _ = self.open(
            "/accounts/login/",
            {"username": username, "password": password, "csrfmiddlewaretoken": token[1]},
        )
        return status


def test_a_session_made_by_one_server_is_honoured_by_the_other(proxy: Pair) -> None:
    room = RoomFactory(name="城东棋牌室")
    _user(username="manager", first_name="王经理", roles=[Role.MANAGER], room=room)
    browser = Browser(proxy.url)
    assert browser.log_in("manager", PASSWORD) == 302
    pages = [browser.open("/") for _ in range(4)]
    assert all(
        status == 200 and "王经理" in page and "城东棋牌室" in page for status, page in pages
    )
    # the login form, the login, then the pages: every server answered some of them
    assert len(set(browser.served_by)) == 2
    if proxy.redis is not None:
        sessions = [k for k in proxy.redis_keys() if "django.contrib.sessions.cached_db" in k]
        assert len(sessions) == 1
        # Redis restarted empty: still signed in on both (the database's copy)...
        proxy.redis.delete(*sessions)
        assert all("王经理" in browser.open("/")[1] for _ in range(2))
        # ...and read from Redis by both: with the database's copy gone, too
        Session.objects.all().delete()
        pages = [browser.open("/") for _ in range(2)]
        assert all(status == 200 and "王经理" in page for status, page in pages)
        assert len(set(browser.served_by[-2:])) == 2


def test_a_login_lockout_counted_on_both_servers_is_one_lockout(proxy: Pair) -> None:
    RoomFactory()
    _user(username="accountant", roles=[Role.ACCOUNTANT])
    browser = Browser(proxy.url)
    failures = [
        browser.log_in("accountant", "wrong password")
        for _ in range(int(LIMITS["AXES_FAILURE_LIMIT"]))
    ]
    assert failures[-1] == 429 and all(status in (200, 429) for status in failures)
    # locked on both: the right password is refused, whichever server answers
    assert [browser.log_in("accountant", PASSWORD) for _ in range(2)] == [429, 429]
    assert len(set(browser.served_by)) == 2
    if proxy.redis is not None:
        assert not AccessAttempt.objects.exists()  # counted in Redis, not in the database


def test_one_address_failing_on_both_servers_is_stopped_on_both(proxy: Pair) -> None:
    RoomFactory()
    _user(username="manager", roles=[Role.MANAGER])
    for n in range(4):
        _user(username=f"player{n}", roles=[Role.MEMBER])
    browser = Browser(proxy.url)
    # two failures for each of four usernames: none locked by itself (5 lock a name)
    failures = [browser.log_in(f"player{n % 4}", "wrong password") for n in range(8)]
    assert failures == [200] * 8
    # eight from this address: the right password of another name is refused on both
    assert [browser.log_in("manager", PASSWORD) for _ in range(2)] == [429, 429]
    assert len(set(browser.served_by[-4:])) == 2
    if proxy.redis is not None:
        assert not AccessAttempt.objects.exists()


def test_one_signed_out_server_signs_out_everywhere(proxy: Pair) -> None:
    RoomFactory()
    _user(username="approver", first_name="张负责人", roles=[Role.APPROVER])
    browser = Browser(proxy.url)
    assert browser.log_in("approver", PASSWORD) == 302
    _, page = browser.open("/")
    token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', page)
    assert token
    browser.open("/accounts/logout/", {"csrfmiddlewaretoken": token[1]})
    answers = [browser.open("/") for _ in range(2)]
    assert all(status == 302 for status, _ in answers)  # to the login page, on both
