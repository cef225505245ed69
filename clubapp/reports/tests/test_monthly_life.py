"""The monthly report's room life (issue 23.6): the month's activities and attendance,
tournaments with their winners, duty covered and uncovered, late and early, leave, the
day's checks missed, damage and compensation — on the page, in the xlsx and in the PDF,
each figure tying to the rows it counts."""

from __future__ import annotations

import io
from decimal import Decimal
from io import StringIO

import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.db.models import Sum
from django.utils import timezone
from openpyxl import load_workbook

from clubapp.activities.models import (
    Damage,
    DutySign,
    FinalStanding,
    RecordAttendee,
    Tournament,
    Violation,
)
from clubapp.activities.selectors.month import month_life
from clubapp.activities.selectors.records import records_held
from clubapp.books.models import IncomeCategory, IncomeEntry
from clubapp.core.models import Room
from clubapp.reports.tests.pdfs import assert_ships_its_font, pdf_text

pytestmark = pytest.mark.django_db


@pytest.fixture
def demo(db):
    call_command("loaddefaults", stdout=StringIO())
    call_command("demo", stdout=StringIO())
    return {u.username: u for u in get_user_model().objects.all()}


def _month():
    today = timezone.localdate()
    return today.year, today.month, f"{today:%Y-%m}"


def test_the_figures_tie_to_the_rows(demo):
    room = Room.objects.get()
    year, month, _slug = _month()
    life = month_life(room=room, year=year, month=month)
    held = list(records_held(room=room, first=_first(year, month), last=_last(year, month)))
    # attendance: the attendees of each record's last version, plus its others
    attendees = RecordAttendee.objects.filter(version__in=held).count()
    assert life.attendance == attendees + sum(v.others for v in held)
    assert len(life.held) == len(held) and life.held
    assert 0 <= life.planned_held <= life.planned and life.planned > 0
    # the tournaments of the month, the closed one with its first place as the winner
    names = {t.name for t in life.tournaments}
    assert names == set(
        Tournament.objects.filter(
            room=room, starts__lte=_last(year, month), ends__gte=_first(year, month)
        ).values_list("name", flat=True)
    )
    closed = next(t for t in life.tournaments if t.closed)
    winner = FinalStanding.objects.get(tournament__name=closed.name, rank=1)
    assert closed.leader == winner.entrant.member.name
    # duty: every open day is covered or not (future days neither); late and early
    # count the signs
    assert life.duty.covered + life.duty.uncovered == life.duty.days_open
    signs = DutySign.objects.filter(room=room, date__year=year, date__month=month)
    assert life.duty.covered == len({s.date for s in signs if s.kind == "on"})
    # the day's checks: the missed items counted are the ones listed
    assert life.checks.missed_count == sum(len(items) for _day, items in life.checks.missed)
    # damage: the compensation is the cash book's compensation income of those rows
    damage = Damage.objects.filter(room=room, date__year=year, date__month=month)
    assert life.compensation == sum((d.compensation for d in damage), Decimal("0.00"))
    booked = IncomeEntry.objects.filter(
        category=IncomeCategory.COMPENSATION, pk__in=damage.values("income")
    ).aggregate(t=Sum("amount"))["t"] or Decimal("0.00")
    assert life.compensation == booked
    violations = Violation.objects.filter(room=room, date__year=year, date__month=month)
    assert sum(n for _kind, n in life.violations) == violations.count()


def _first(year, month):
    import datetime as dt

    return dt.date(year, month, 1)


def _last(year, month):
    import calendar
    import datetime as dt

    return dt.date(year, month, calendar.monthrange(year, month)[1])


def test_the_page_shows_the_life_of_the_month(client, demo):
    year, month, slug = _month()
    life = month_life(room=Room.objects.get(), year=year, month=month)
    client.force_login(demo["approver"])
    body = client.get(f"/reports/monthly/?month={slug}").content.decode()
    assert "活动与值班" in body
    for h in life.held:
        assert h.title in body
    for t in life.tournaments:
        assert t.name in body
    closed = next(t for t in life.tournaments if t.closed)
    assert closed.leader in body
    uncovered = f'{life.duty.uncovered}</span><span class="what">开放日无人值班</span>'
    assert uncovered in body
    assert str(life.compensation) in body


def test_the_workbook_has_the_life_sheets(client, demo):
    year, month, slug = _month()
    life = month_life(room=Room.objects.get(), year=year, month=month)
    client.force_login(demo["accountant"])
    response = client.get(f"/reports/monthly.xlsx?month={slug}")
    wb = load_workbook(io.BytesIO(b"".join(response.streaming_content)))
    for title in ("已开展的活动", "赛事", "值班与检查", "损坏与赔偿"):
        assert title in wb.sheetnames
    rows = list(wb["已开展的活动"].iter_rows(values_only=True))
    assert [r[1] for r in rows[3:-1]] == [h.title for h in life.held]
    assert rows[-1][0] == "合计" and rows[-1][-1].startswith("=SUM(")
    duty = dict(r[:2] for r in wb["值班与检查"].iter_rows(values_only=True) if r[0])
    assert duty["开放日无人值班"] == life.duty.uncovered
    assert duty["迟到次数"] == life.duty.late and duty["早退次数"] == life.duty.early
    assert Decimal(str(duty["损坏赔偿（元）"])) == life.compensation
    winners = [r[-1] for r in wb["赛事"].iter_rows(values_only=True)]
    assert next(t for t in life.tournaments if t.closed).leader in winners


def test_the_pdf_carries_the_life_of_the_month(client, demo):
    year, month, slug = _month()
    life = month_life(room=Room.objects.get(), year=year, month=month)
    client.force_login(demo["accountant"])
    data = b"".join(client.get(f"/reports/monthly.pdf?month={slug}").streaming_content)
    text = pdf_text(data)
    assert "活动与值班" in text
    closed = next(t for t in life.tournaments if t.closed)
    assert closed.name in text and closed.leader in text
    assert_ships_its_font(data)
