"""The cash book's front page: what waits for whom, the cash, the fund."""

from __future__ import annotations

from django.db.models import Q
from django.http import HttpResponse
from django.shortcuts import render
from django.utils import timezone

from clubapp.books import selectors
from clubapp.books.models import PlanState
from clubapp.books.permissions import can_approve, can_check, can_record, reader_required
from clubapp.core.http import AuthenticatedRequest


@reader_required
def home(request: AuthenticatedRequest) -> HttpResponse:
    room = request.room
    now = timezone.now()
    today = timezone.localdate(now)
    plans = selectors.plan_list(room=room)
    return render(
        request,
        "books/home.html",
        {
            "desk": selectors.desk_cash(room=room, now=now),
            "today": selectors.day_summary(room=room, day=today),
            "pending_slips": selectors.pending_slips(room=room),
            "unconfirmed_expenses": selectors.unconfirmed_expenses(room=room).select_related(
                "line"
            ),
            "plans_to_decide": plans.filter(state=PlanState.SUBMITTED),
            "plans_open": plans.filter(
                Q(state=PlanState.APPROVED) | Q(state=PlanState.IN_PROGRESS)
            ),
            "drafts": plans.filter(state=PlanState.DRAFT),
            "fund": selectors.fund_summary(room=room),
            "last_closed": selectors.last_closed_day(room=room),
            "next_to_close": selectors.next_day_to_close(room=room, today=today),
            "month": today,
            "can_record": can_record(request.user),
            "can_check": can_check(request.user),
            "can_approve": can_approve(request.user),
        },
    )
