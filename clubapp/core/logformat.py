"""One time zone in the server's logs: UTC, in gunicorn's master and its workers alike.

gunicorn's master never imports Django; each worker does, and Django sets the
process's zone to ``TIME_ZONE`` (Asia/Shanghai) when its settings load. A formatter in
local time therefore wrote UTC in the master and +0800 in the workers. This one writes
UTC whatever the process's zone, with the zone in every line (``…Z``). It imports only
the standard library: gunicorn's master loads it (gunicorn.conf.py) without Django.
"""

from __future__ import annotations

import logging
import time

FORMAT = "%(asctime)s [%(process)d] [%(levelname)s] %(name)s: %(message)s"
#: ISO 8601 in UTC: 2026-12-02T20:45:01Z
DATEFMT = "%Y-%m-%dT%H:%M:%SZ"


class UTCFormatter(logging.Formatter):
    """Every line's time in UTC (``time.gmtime``, not the process's local zone)."""

    def converter(self, seconds: float | None) -> time.struct_time:
        return time.gmtime(seconds)

    def __init__(self, fmt: str = FORMAT, datefmt: str = DATEFMT) -> None:
        super().__init__(fmt, datefmt)


class SkipUnavailableResponses(logging.Filter):
    """Drop Django's own line for a 503 response (``Service Unavailable: /path`` on
    ``django.request``): the app answers 503 only when the database is away, and the
    code that answers it (``DatabaseUnavailableMiddleware``, ``/healthz``) has already
    logged one line saying why. One refusal, one line."""

    def filter(self, record: logging.LogRecord) -> bool:
        return getattr(record, "status_code", None) != 503
