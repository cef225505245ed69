"""Login protection behind a proxy, per-address rate limit, idle sessions (issue 11.6)."""

from __future__ import annotations

import datetime as dt

import pytest
from axes.models import AccessAttempt
from django.contrib.sessions.models import Session
from django.core.cache import cache
from django.test import RequestFactory
from django.urls import reverse
from django.utils import timezone

from clubapp.core.clientip import client_ip
from clubapp.core.loginlimit import address_failures
from clubapp.core.middleware import SEEN_KEY
from clubapp.core.tests.factories import PASSWORD, UserFactory

pytestmark = pytest.mark.django_db
PROXY = "10.0.0.5"


def _fail(client, username: str, address: str = PROXY, forwarded: str | None = None):
    extra = {"REMOTE_ADDR": address}
    if forwarded is not None:
        extra["HTTP_X_FORWARDED_FOR"] = forwarded
    return client.post(reverse("login"), {"username": username, "password": "nope"}, **extra)


def _login(client, username: str, address: str = PROXY, forwarded: str | None = None):
    extra = {"REMOTE_ADDR": address}
    if forwarded is not None:
        extra["HTTP_X_FORWARDED_FOR"] = forwarded
    return client.post(reverse("login"), {"username": username, "password": PASSWORD}, **extra)


def test_behind_the_proxy_a_lockout_is_the_attackers_alone(client, settings, manager):
    settings.TRUSTED_PROXIES = ["10.0.0.0/24"]
    for _ in range(5):
        _fail(client, "manager", forwarded="198.51.100.7")
    assert _login(client, "manager", forwarded="198.51.100.7").status_code == 429
    # The manager at the desk comes through the same proxy from another address.
    desk = type(client)()
    response = _login(desk, "manager", forwarded="203.0.113.20")
    assert response.status_code == 302


def test_without_a_trusted_proxy_the_header_is_ignored(client, settings, manager):
    settings.TRUSTED_PROXIES = []
    for n in range(5):
        # A client cannot dodge the lockout by writing a new header each time.
        _fail(client, "manager", address="198.51.100.7", forwarded=f"192.0.2.{n}")
    assert (
        _login(client, "manager", address="198.51.100.7", forwarded="192.0.2.99").status_code == 429
    )


@pytest.mark.parametrize(
    ("remote", "forwarded", "trusted", "expected"),
    [
        ("10.0.0.5", "203.0.113.9", ["10.0.0.0/24"], "203.0.113.9"),
        # the left-most entry is whatever the client wrote: only the proxy's own counts
        ("10.0.0.5", "1.2.3.4, 203.0.113.9", ["10.0.0.0/24"], "203.0.113.9"),
        ("10.0.0.5", "203.0.113.9, 10.0.0.7", ["10.0.0.0/24"], "203.0.113.9"),
        ("198.51.100.1", "203.0.113.9", ["10.0.0.0/24"], "198.51.100.1"),  # not the proxy
        ("10.0.0.5", "", ["10.0.0.0/24"], "10.0.0.5"),
        ("10.0.0.5", "not-an-address", ["10.0.0.0/24"], "10.0.0.5"),
        ("10.0.0.5", "203.0.113.9", [], "10.0.0.5"),
        ("::1", "2001:db8::7", ["::1"], "2001:db8::7"),
    ],
)
def test_it_reads_the_client_address(settings, remote, forwarded, trusted, expected):
    settings.TRUSTED_PROXIES = trusted
    request = RequestFactory().get("/", REMOTE_ADDR=remote, HTTP_X_FORWARDED_FOR=forwarded)
    assert client_ip(request) == expected


def test_one_address_trying_many_usernames_is_stopped(client, settings, manager):
    settings.LOGIN_ADDRESS_FAILURE_LIMIT = 6
    names = [UserFactory(username=f"player{n}").username for n in range(3)]
    for name in names:
        for _ in range(2):
            assert _fail(client, name, address="198.51.100.7").status_code == 200
    # Six failures from this address, none of the usernames locked by itself...
    response = _login(client, "manager", address="198.51.100.7")
    assert response.status_code == 429
    assert "登录失败次数过多" in response.content.decode()
    # ...and another address is not affected.
    assert _login(type(client)(), "manager", address="198.51.100.8").status_code == 302


def test_with_the_cache_the_address_limit_counts_there(client, settings, manager):
    # REDIS_URL's settings with a cache of this process standing in for Redis
    settings.CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}}
    settings.AXES_HANDLER = "axes.handlers.cache.AxesCacheHandler"
    settings.LOGIN_ADDRESS_FAILURE_LIMIT = 4
    cache.clear()
    for n in range(2):
        name = UserFactory(username=f"guest{n}").username
        for _ in range(2):
            assert _fail(client, name, address="198.51.100.9").status_code == 200
    assert address_failures("198.51.100.9") == 4
    response = _login(client, "manager", address="198.51.100.9")
    assert response.status_code == 429
    assert "登录失败次数过多" in response.content.decode()
    assert _login(type(client)(), "manager", address="198.51.100.10").status_code == 302
    # nothing of it in the database: axes counted in the cache too
    assert not AccessAttempt.objects.exists()
    cache.clear()


def test_a_session_ends_after_twelve_idle_hours_and_requests_renew_it(client, member):
    assert _login(client, "member").status_code == 302
    session = Session.objects.get()
    twelve = dt.timedelta(hours=12)
    assert twelve - dt.timedelta(minutes=1) < session.expire_date - timezone.now() <= twelve
    # Ten minutes later a page renews the twelve hours...
    store = client.session
    store[SEEN_KEY] -= 600
    store.save()
    Session.objects.filter(pk=session.pk).update(expire_date=timezone.now() + dt.timedelta(hours=1))
    assert client.get(reverse("home")).status_code == 200
    assert Session.objects.get().expire_date - timezone.now() > twelve - dt.timedelta(minutes=1)
    # ...while a page within ten minutes of the last renewal writes nothing.
    before = Session.objects.get().expire_date
    assert client.get(reverse("home")).status_code == 200
    assert Session.objects.get().expire_date == before
    # Idle past its end: logged out.
    Session.objects.filter(pk=session.pk).update(
        expire_date=timezone.now() - dt.timedelta(seconds=1)
    )
    response = client.get(reverse("home"))
    assert response.status_code == 302 and reverse("login") in response.url
