"""The one format of a length of time: "1 小时 25 分"."""

from __future__ import annotations

import datetime as dt

import pytest
from django.template import Context, Template
from django.utils import translation

from clubapp.core.templatetags.durations import duration


@pytest.mark.parametrize(
    ("value", "shown"),
    [
        (0, "0 分"),
        (25, "25 分"),
        (60, "1 小时"),
        (85, "1 小时 25 分"),
        (1291, "21 小时 31 分"),
        (dt.timedelta(hours=2, minutes=5, seconds=59), "2 小时 5 分"),
        (-3, "0 分"),
        (None, ""),
    ],
)
def test_it_reads_hours_and_minutes(value, shown):
    with translation.override("zh-hans"):
        assert duration(value) == shown


def test_english_and_the_template_filter():
    with translation.override("en"):
        assert Template("{% load durations %}{{ m|duration }}").render(Context({"m": 85})) == (
            "1 h 25 min"
        )
