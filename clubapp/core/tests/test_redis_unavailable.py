"""Redis away (``REDIS_URL``: the sessions' cache, the lockouts, the login limit): the
503 page and ``/healthz`` 503, not a 500; back by itself, nobody signed out, when Redis
answers again (core/middleware.py ``cache_unavailable``, docs/operations.md)."""

from __future__ import annotations

import os
import socket
import uuid
from collections.abc import Iterator
from typing import Any

import pytest
import redis
from django.contrib.sessions.models import Session
from django.urls import reverse

from clubapp.core.tests.factories import PASSWORD

pytestmark = pytest.mark.django_db

REDIS_URL = os.environ.get("TEST_REDIS_URL", "redis://127.0.0.1:6379/0")


def _closed_port() -> int:
    """A port on which nothing listens: Redis refusing the connection, as when stopped."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _with_redis(settings: Any, url: str, prefix: str) -> None:
    """The settings REDIS_URL makes (clubapp/settings.py), on ``url``."""
    settings.REDIS_URL = url
    settings.CACHES = {
        "default": {
            "BACKEND": "django.core.cache.backends.redis.RedisCache",
            "LOCATION": url,
            "KEY_PREFIX": prefix,
            "OPTIONS": {"socket_connect_timeout": 2, "socket_timeout": 2},
        }
    }
    settings.SESSION_ENGINE = "django.contrib.sessions.backends.cached_db"
    settings.AXES_HANDLER = "axes.handlers.cache.AxesCacheHandler"


@pytest.fixture
def live_redis() -> Iterator[str]:
    client = redis.Redis.from_url(REDIS_URL, socket_connect_timeout=2)
    try:
        client.ping()
    except redis.RedisError as error:
        pytest.skip(f"no Redis answers at {REDIS_URL}: {error}")
    prefix = f"test-{uuid.uuid4().hex}"
    yield prefix
    for key in client.scan_iter(match=f"{prefix}:*"):
        client.delete(key)


def test_a_signed_in_page_says_busy_and_the_app_recovers_when_redis_is_back(
    client, settings, member, live_redis
):
    _with_redis(settings, REDIS_URL, live_redis)
    client.force_login(member)
    home = reverse("home")
    assert client.get(home).status_code == 200

    _with_redis(settings, f"redis://127.0.0.1:{_closed_port()}/0", live_redis)
    away = client.get(home)
    assert away.status_code == 503
    page = away.content.decode()
    assert "服务器暂时繁忙" in page and "Traceback" not in page
    assert away["Retry-After"] == "30"
    health = client.get("/healthz")
    assert (health.status_code, health.content) == (503, b"cache unavailable")

    # Redis is back: the same phone, still signed in (its session is in the database too)
    _with_redis(settings, REDIS_URL, live_redis)
    back = client.get(home)
    assert back.status_code == 200 and back.wsgi_request.user == member
    assert client.get("/healthz").content == b"ok"


def test_a_login_that_cannot_be_checked_is_refused_not_let_through(client, settings, member):
    """The lockouts live in Redis: with Redis away a login is answered 503 and opens no
    session, whatever the password."""
    _with_redis(settings, f"redis://127.0.0.1:{_closed_port()}/0", "test-away")
    assert client.get(reverse("login")).status_code == 200  # a phone with no session
    response = client.post(reverse("login"), {"username": member.username, "password": PASSWORD})
    assert response.status_code == 503
    assert "服务器暂时繁忙" in response.content.decode()
    assert not Session.objects.exists()


def test_without_redis_url_healthz_asks_only_the_database(client, settings):
    settings.REDIS_URL = ""
    settings.CACHES = {"default": {"BACKEND": "django.core.cache.backends.dummy.DummyCache"}}
    assert client.get("/healthz").content == b"ok"
