"""The per-address login limit: failed logins from one client address, whatever the
usernames tried, within the cool-off time (``LOGIN_ADDRESS_FAILURE_LIMIT``).

Counted where django-axes counts its lockouts, so that every app server sees the same
count: in the database, as the sum of axes' rows of that address (its default
handler); with ``REDIS_URL`` (axes' cache handler), as a counter of the address in the
cache, which this module bumps on each failed login (signal ``user_login_failed``) and
which lives as long as the cool-off after the last failure, as axes' own counters do.
"""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from axes.models import AccessAttempt
from django.conf import settings
from django.core.cache import cache
from django.db.models import Sum
from django.http import HttpRequest
from django.utils import timezone

from clubapp.core.clientip import client_ip

CACHE_HANDLER = "axes.handlers.cache.AxesCacheHandler"


def _in_cache() -> bool:
    return bool(getattr(settings, "AXES_HANDLER", "") == CACHE_HANDLER)


def _cooloff() -> timedelta:
    cooloff = settings.AXES_COOLOFF_TIME
    return cooloff if isinstance(cooloff, timedelta) else timedelta(hours=1)


def _key(address: str) -> str:
    return f"club-login-failures:{address}"


def address_failures(address: str) -> int:
    """Failed logins from ``address`` within the cool-off time, whatever the username."""
    if _in_cache():
        return int(cache.get(_key(address), 0))
    since = timezone.now() - _cooloff()
    total = AccessAttempt.objects.filter(ip_address=address, attempt_time__gte=since).aggregate(
        n=Sum("failures_since_start")
    )["n"]
    return total or 0


def count_failure(sender: Any, request: HttpRequest | None = None, **kwargs: Any) -> None:
    """On a failed login (``user_login_failed``), with the cache: one more for its address
    (in the database, axes' own row of the attempt is the count)."""
    if request is None or not _in_cache():
        return
    key, timeout = _key(client_ip(request)), int(_cooloff().total_seconds())
    if cache.add(key, 1, timeout):
        return
    try:
        cache.incr(key)
    except ValueError:  # it expired between the two calls: this failure starts a new count
        cache.add(key, 1, timeout)
    else:
        cache.touch(key, timeout)
