"""A calendar month in the room's time zone: what the monthly report covers."""

from __future__ import annotations

import datetime as dt
import re
from dataclasses import dataclass

from django.db.models import Q
from django.utils import timezone
from django.utils.formats import date_format


@dataclass(frozen=True)
class Month:
    """A calendar month in the room's time zone."""

    year: int
    month: int

    @classmethod
    def parse(cls, text: str) -> Month:
        """``2026-11`` → Month(2026, 11); ValueError otherwise."""
        match = re.fullmatch(r"(\d{4})-(\d{1,2})", (text or "").strip())
        if match is None:
            raise ValueError(f"not a month: {text!r}")
        year, month = int(match.group(1)), int(match.group(2))
        if not (1 <= month <= 12 and 2000 <= year <= 2999):
            raise ValueError(f"not a month: {text!r}")
        return cls(year, month)

    @classmethod
    def of(cls, day: dt.date) -> Month:
        return cls(day.year, day.month)

    @property
    def first_day(self) -> dt.date:
        return dt.date(self.year, self.month, 1)

    @property
    def next(self) -> Month:
        return Month(self.year + self.month // 12, self.month % 12 + 1)

    @property
    def previous(self) -> Month:
        return Month(self.year - (self.month == 1), (self.month - 2) % 12 + 1)

    @property
    def last_day(self) -> dt.date:
        return self.next.first_day - dt.timedelta(days=1)

    @property
    def start(self) -> dt.datetime:
        return timezone.make_aware(dt.datetime.combine(self.first_day, dt.time.min))

    @property
    def end(self) -> dt.datetime:
        """The first moment after the month (ranges are start <= t < end)."""
        return self.next.start

    @property
    def slug(self) -> str:
        return f"{self.year}-{self.month:02d}"

    @property
    def label(self) -> str:
        """2026年11月 (November 2026 on an English page)."""
        return date_format(self.first_day, "YEAR_MONTH_FORMAT")

    def days(self) -> list[dt.date]:
        return [self.first_day + dt.timedelta(days=n) for n in range(self.last_day.day)]


def in_month(month: Month, field_name: str) -> Q:
    return Q(**{f"{field_name}__gte": month.start, f"{field_name}__lt": month.end})
