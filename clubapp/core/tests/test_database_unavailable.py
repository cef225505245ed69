"""A database that refuses the connection: 503 + Retry-After, a Chinese page and one
log line, not a 500 and a traceback (issue 21.12; core/middleware.py)."""

from __future__ import annotations

import contextlib
import logging
from collections.abc import Iterator
from unittest import mock

import psycopg
import pytest
from django.db import OperationalError, connections
from django.test import Client
from django.urls import reverse

pytestmark = pytest.mark.django_db
postgres_only = pytest.mark.skipif(
    connections["default"].vendor != "postgresql", reason="a real PostgreSQL refusal"
)
TOO_MANY = (
    'connection failed: connection to server at "127.0.0.1", port 5432 failed: '
    "FATAL:  sorry, too many clients already"
)


@contextlib.contextmanager
def _disconnected(**settings: str) -> Iterator[None]:
    """The app's connection as a new request finds it when none is open (Django
    connects at the first query), with ``settings`` changed; the test's own open
    connection and transaction are put back afterwards."""
    wrapper = connections["default"]
    saved = dict(vars(wrapper))
    wrapper.connection = None
    wrapper.settings_dict = {**wrapper.settings_dict, **settings}
    try:
        yield
    finally:
        vars(wrapper).clear()
        vars(wrapper).update(saved)


@contextlib.contextmanager
def _refusing(message: str = TOO_MANY) -> Iterator[None]:
    """Every new connection refused as psycopg refuses one (its OperationalError)."""
    wrapper = connections["default"]
    error = wrapper.Database.OperationalError(message)
    with _disconnected(), mock.patch.object(wrapper, "get_new_connection", side_effect=error):
        yield


@pytest.fixture
def lines() -> Iterator[list[logging.LogRecord]]:
    """What reaches the console at WARNING and above: the app's loggers (root) and
    Django's (its own logger, after the django.request filter)."""
    records: list[logging.LogRecord] = []

    class Keep(logging.Handler):
        def emit(self, record: logging.LogRecord) -> None:
            records.append(record)

    keep = Keep(level=logging.WARNING)
    loggers = [logging.getLogger(), logging.getLogger("django")]
    for logger in loggers:
        logger.addHandler(keep)
    yield records
    for logger in loggers:
        logger.removeHandler(keep)


def test_it_answers_503_with_retry_after_and_a_chinese_page(client, member, lines):
    client.force_login(member)
    with _refusing():
        response = client.get(reverse("home"))
    assert response.status_code == 503
    assert response["Retry-After"] == "30"
    assert "no-cache" in response["Cache-Control"]
    body = response.content.decode()
    assert "服务器暂时繁忙" in body and "请等 30 秒后再试" in body
    assert f'href="{reverse("home")}"' in body  # the way back
    assert "赵会员" not in body  # nothing of the user: it would need the database


def test_it_logs_one_line_without_a_traceback(client, member, lines):
    client.force_login(member)
    with _refusing():
        client.get(reverse("members:my_card"))
    assert len(lines) == 1  # not Django's "Service Unavailable" line besides it
    (line,) = lines
    assert line.levelno == logging.WARNING and line.exc_info is None
    message = line.getMessage()
    assert "GET /members/me/" in message and "too many clients already" in message
    assert "\n" not in message


def test_it_offers_to_repeat_a_get_but_not_a_form(client, member):
    client.force_login(member)
    with _refusing():
        page = client.get(reverse("members:my_card") + "?x=1")
        form = client.post(reverse("logout"))
    assert 'href="/members/me/?x=1"' in page.content.decode()
    assert form.status_code == 503
    assert "重试" not in form.content.decode()


def test_it_answers_a_visitor_who_is_not_logged_in_too(client, lines):
    with _refusing("connection failed: Connection refused"):
        response = client.get(reverse("login"))
    assert response.status_code == 503
    assert len(lines) == 1


def test_it_speaks_english_in_english_mode(client, member):
    client.force_login(member)
    client.cookies["django_language"] = "en"
    with _refusing():
        body = client.get(reverse("home")).content.decode()
    assert "The server is busy" in body and "Wait 30 seconds" in body


def test_it_leaves_a_query_error_on_a_live_connection_a_500(member, lines):
    """A lock timeout is not a refusal: the connection answered; a 500 and its
    traceback, for someone to look into."""
    client = Client(raise_request_exception=False)
    client.force_login(member)
    timeout = OperationalError("canceling statement due to lock timeout")
    with mock.patch("clubapp.core.views.home_sections", side_effect=timeout):
        response = client.get(reverse("home"))
    assert response.status_code == 500
    assert "Retry-After" not in response
    assert any(r.exc_info for r in lines)  # Django's "Internal Server Error" traceback


def test_healthz_answers_503_in_one_line(client, lines):
    with _refusing():
        response = client.get("/healthz")
    assert response.status_code == 503
    assert response["Retry-After"] == "30"
    assert len(lines) == 1 and lines[0].exc_info is None


@postgres_only
@pytest.mark.parametrize(
    ("changed", "words"),
    [
        ({"USER": "h_ops_refused", "PASSWORD": ""}, "too many connections for role"),
        ({"PORT": "1"}, "Connection refused"),
    ],
    ids=["connection-limit-0", "server-away"],
)
def test_it_answers_503_when_postgresql_refuses(client, member, lines, changed, words):
    params = connections["default"].get_connection_params()
    # The role must exist outside the test's transaction: another connection commits it.
    with psycopg.connect(**{**params, "autocommit": True}) as admin:
        admin.execute("DROP ROLE IF EXISTS h_ops_refused")
        admin.execute("CREATE ROLE h_ops_refused LOGIN CONNECTION LIMIT 0")
        try:
            client.force_login(member)
            with _disconnected(**changed):
                response = client.get(reverse("home"))
        finally:
            admin.execute("DROP ROLE h_ops_refused")
    assert response.status_code == 503
    assert response["Retry-After"] == "30"
    assert "服务器暂时繁忙" in response.content.decode()
    assert len(lines) == 1 and words in lines[0].getMessage()
