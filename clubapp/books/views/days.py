"""日结 and the month: the list of days, a day's summary and closing, a month."""

from __future__ import annotations

import datetime as dt

from django.contrib import messages
from django.core.exceptions import ValidationError
from django.http import Http404, HttpResponse
from django.shortcuts import redirect, render
from django.utils import timezone
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from clubapp.books import selectors, services
from clubapp.books.forms import NoteForm
from clubapp.books.models import Reversal, SlipDecision
from clubapp.books.permissions import can_check, checker_required, reader_required
from clubapp.core.http import AuthenticatedRequest

DAYS_LISTED = 62


def _day(value: str) -> dt.date:
    try:
        return dt.date.fromisoformat(value)
    except ValueError:
        raise Http404 from None


@reader_required
def day_list(request: AuthenticatedRequest) -> HttpResponse:
    room = request.room
    today = timezone.localdate()
    return render(
        request,
        "books/day_list.html",
        {
            "rows": selectors.day_rows(
                room=room, first=today - dt.timedelta(days=DAYS_LISTED), last=today
            ),
            "today": today,
            "last_closed": selectors.last_closed_day(room=room),
            "next_to_close": selectors.next_day_to_close(room=room, today=today),
            "can_check": can_check(request.user),
        },
    )


@reader_required
def day_detail(request: AuthenticatedRequest, day: str) -> HttpResponse:
    room = request.room
    date = _day(day)
    summary = selectors.day_summary(room=room, day=date)
    today = timezone.localdate()
    return render(
        request,
        "books/day_detail.html",
        {
            "summary": summary,
            "income": selectors.income_list(room=room).filter(book_date=date),
            "slips": selectors.slip_list(room=room).filter(book_date=date),
            "decisions": SlipDecision.objects.filter(room=room, book_date=date).select_related(
                "slip", "decided_by"
            ),
            "expenses": selectors.expense_list(room=room).filter(book_date=date),
            "reversals": Reversal.objects.filter(room=room, book_date=date).select_related(
                "reversed_by", "income", "slip", "expense"
            ),
            "next_to_close": selectors.next_day_to_close(room=room, today=today),
            "previous": date - dt.timedelta(days=1),
            "next": date + dt.timedelta(days=1) if date < today else None,
            "note_form": NoteForm(),
            "can_check": can_check(request.user),
            "is_future": date > today,
        },
    )


@require_POST
@checker_required
def day_close(request: AuthenticatedRequest, day: str) -> HttpResponse:
    date = _day(day)
    form = NoteForm(request.POST)
    try:
        services.day_close(
            room=request.room,
            day=date,
            note=form.cleaned_data["note"] if form.is_valid() else "",
            by=request.user,
        )
    except ValidationError as exc:
        for message in exc.messages:
            messages.error(request, message)
    else:
        messages.success(request, _("%(day)s is closed.") % {"day": f"{date:%Y-%m-%d}"})
    return redirect("books:day_detail", day=date.isoformat())


@reader_required
def month_detail(request: AuthenticatedRequest, year: int, month: int) -> HttpResponse:
    if not 1 <= month <= 12 or not 2000 <= year <= 2100:
        raise Http404
    room = request.room
    summary = selectors.month_summary(room=room, year=year, month=month)
    previous = summary.first_day - dt.timedelta(days=1)
    following = summary.last_day + dt.timedelta(days=1)
    return render(
        request,
        "books/month_detail.html",
        {
            "summary": summary,
            "days": selectors.day_rows(room=room, first=summary.first_day, last=summary.last_day),
            "fund_total": selectors.fund_summary(room=room, last=summary.last_day),
            "previous": previous,
            "following": following if following <= timezone.localdate() else None,
        },
    )


@reader_required
def month_current(request: AuthenticatedRequest) -> HttpResponse:
    today = timezone.localdate()
    return redirect("books:month_detail", year=today.year, month=today.month)
