"""The one way a length of time is shown: "1 小时 25 分" (a visit, a table session)."""

from __future__ import annotations

import datetime as dt
from typing import Any

from django import template
from django.utils.translation import gettext as _

register = template.Library()


@register.filter
def duration(value: Any) -> str:
    """Minutes (an int) or a timedelta as hours and minutes: "25 分", "1 小时 25 分",
    "2 小时". Seconds are dropped; nothing shows for no value."""
    if value is None or value == "":
        return ""
    if isinstance(value, dt.timedelta):
        minutes = int(value.total_seconds() // 60)
    else:
        minutes = int(value)
    minutes = max(0, minutes)
    hours, rest = divmod(minutes, 60)
    if not hours:
        return _("%(m)s min") % {"m": rest}
    if not rest:
        return _("%(h)s h") % {"h": hours}
    return _("%(h)s h %(m)s min") % {"h": hours, "m": rest}
