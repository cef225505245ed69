"""Pages of the duty roster and leave (docs/activities.md, Duty and leave)."""

from __future__ import annotations

import datetime as dt

from django.contrib import messages
from django.core.exceptions import PermissionDenied, ValidationError
from django.http import HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import URLPattern, path
from django.utils import timezone
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from clubapp.activities.forms_duty import BackForm, DecideForm, LeaveForm, roster_form
from clubapp.activities.permissions import (
    approver_required,
    can_approve,
    can_manage,
    manager_required,
    reader_required,
)
from clubapp.activities.selectors.duty import (
    days_duty,
    leave_list,
    leave_state,
    month_duty,
    open_days,
    staff,
    today_duty,
)
from clubapp.activities.services.duty import (
    duty_sign_off,
    duty_sign_on,
    leave_back,
    leave_decide,
    leave_request,
    roster_set,
)
from clubapp.books.views.common import flash, form_errors
from clubapp.core.http import AuthenticatedRequest


def _week_start(value: str | None) -> dt.date:
    try:
        day = dt.date.fromisoformat(value or "")
    except ValueError:
        day = timezone.localdate()
    return day - dt.timedelta(days=day.weekday())


def _month(value: str | None) -> tuple[int, int]:
    try:
        day = dt.date.fromisoformat(f"{value}-01")
    except ValueError:
        day = timezone.localdate()
    return day.year, day.month


@reader_required
def duty(request: AuthenticatedRequest) -> HttpResponse:
    room = request.room
    today = timezone.localdate()
    return render(
        request,
        "activities/duty_today.html",
        {"duty_today": today_duty(room=room, day=today, user=request.user)},
    )


def _sign(request: AuthenticatedRequest, *, on: bool) -> HttpResponse:
    service = duty_sign_on if on else duty_sign_off
    try:
        sign = service(room=request.room, by=request.user)
    except ValidationError as exc:
        flash(request, exc)
    else:
        when = f"{timezone.localtime(sign.at):%H:%M}"
        messages.success(
            request,
            (_("Signed on at %(time)s.") if on else _("Signed off at %(time)s.")) % {"time": when},
        )
    # the panel of the home page sends the answer back there
    return redirect("home" if request.POST.get("next") == "home" else "activities:duty")


@require_POST
@manager_required
def sign_on(request: AuthenticatedRequest) -> HttpResponse:
    return _sign(request, on=True)


@require_POST
@manager_required
def sign_off(request: AuthenticatedRequest) -> HttpResponse:
    return _sign(request, on=False)


@reader_required
def roster(request: AuthenticatedRequest) -> HttpResponse:
    """A week's roster; a manager ticks who is on duty on each open day."""
    room = request.room
    start = _week_start(request.GET.get("week"))
    week = [start + dt.timedelta(days=n) for n in range(7)]
    opened = [day for day, _periods in open_days(room=room, days=week)]
    people = staff(room=room)
    duties = days_duty(room=room, days=week)
    initial = {
        f"day_{d.day:%Y-%m-%d}": [o.user.pk for o in d.on_duty if o.covering is None]
        + [a.user.pk for a in d.away]
        for d in duties
    }
    form = roster_form(days=opened, staff=people, initial=initial)
    if request.method == "POST":
        if not can_manage(request.user):
            raise PermissionDenied
        form = roster_form(days=opened, staff=people, data=request.POST)
        if form.is_valid():
            try:
                roster_set(
                    room=room,
                    days={day: list(form.cleaned_data[f"day_{day:%Y-%m-%d}"]) for day in opened},
                    by=request.user,
                )
            except ValidationError as exc:
                form_errors(form, exc)
            else:
                messages.success(request, _("The roster is saved."))
                return redirect(f"{request.path}?week={start:%Y-%m-%d}")
    return render(
        request,
        "activities/duty_roster.html",
        {
            "form": form,
            "duties": duties,
            "start": start,
            "previous": start - dt.timedelta(days=7),
            "next": start + dt.timedelta(days=7),
            "can_manage": can_manage(request.user),
        },
    )


@reader_required
def month(request: AuthenticatedRequest) -> HttpResponse:
    year, number = _month(request.GET.get("month"))
    first = dt.date(year, number, 1)
    return render(
        request,
        "activities/duty_month.html",
        {
            "month": month_duty(room=request.room, year=year, month=number),
            "first": first,
            "previous": (first - dt.timedelta(days=1)).replace(day=1),
            "next": (first + dt.timedelta(days=31)).replace(day=1),
        },
    )


@reader_required
def leaves(request: AuthenticatedRequest) -> HttpResponse:
    rows = [(leave, leave_state(leave)) for leave in leave_list(room=request.room)[:100]]
    return render(
        request,
        "activities/duty_leave_list.html",
        {"rows": rows, "can_manage": can_manage(request.user)},
    )


@manager_required
def leave_create(request: AuthenticatedRequest) -> HttpResponse:
    room = request.room
    form = LeaveForm(request.POST or None, staff=staff(room=room), user=request.user)
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        try:
            leave = leave_request(
                room=room,
                starts=data["starts"],
                ends=data["ends"],
                reason=data["reason"],
                cover=data["cover"],
                by=request.user,
            )
        except ValidationError as exc:
            form_errors(form, exc)
        else:
            messages.success(request, _("Your leave is asked: an approver decides it."))
            return redirect("activities:leave_detail", pk=leave.pk)
    return render(request, "activities/duty_leave_form.html", {"form": form})


@reader_required
def leave_detail(request: AuthenticatedRequest, pk: int) -> HttpResponse:
    leave = get_object_or_404(leave_list(room=request.room), pk=pk)
    state = leave_state(leave)
    user = request.user
    return render(
        request,
        "activities/duty_leave_detail.html",
        {
            "leave": leave,
            "state": state,
            "decide_form": DecideForm(),
            "back_form": BackForm(initial={"back_on": timezone.localdate()}),
            "can_decide": state == "pending" and can_approve(user) and leave.user_id != user.pk,
            "can_back": state == "approved" and (leave.user_id == user.pk or can_approve(user)),
        },
    )


@require_POST
@approver_required
def leave_decision(request: AuthenticatedRequest, pk: int) -> HttpResponse:
    leave = get_object_or_404(leave_list(room=request.room), pk=pk)
    form = DecideForm(request.POST)
    if not form.is_valid():
        messages.error(request, _("Choose approve or refuse."))
        return redirect("activities:leave_detail", pk=pk)
    try:
        decision = leave_decide(
            leave=leave,
            approved=form.cleaned_data["approved"],
            note=form.cleaned_data["note"],
            by=request.user,
        )
    except ValidationError as exc:
        flash(request, exc)
    else:
        messages.success(
            request, _("Leave approved.") if decision.approved else _("Leave refused.")
        )
    return redirect("activities:leave_detail", pk=pk)


@require_POST
@reader_required
def leave_return(request: AuthenticatedRequest, pk: int) -> HttpResponse:
    leave = get_object_or_404(leave_list(room=request.room), pk=pk)
    if leave.user_id != request.user.pk and not can_approve(request.user):
        raise PermissionDenied
    form = BackForm(request.POST)
    if not form.is_valid():
        for error in form.errors.get("back_on", []):
            messages.error(request, str(error))
        return redirect("activities:leave_detail", pk=pk)
    try:
        leave_back(leave=leave, back_on=form.cleaned_data["back_on"], by=request.user)
    except ValidationError as exc:
        flash(request, exc)
    else:
        messages.success(request, _("The return from leave is recorded."))
    return redirect("activities:leave_detail", pk=pk)


urlpatterns: list[URLPattern] = [
    path("duty/", duty, name="duty"),
    path("duty/sign-on/", sign_on, name="duty_sign_on"),
    path("duty/sign-off/", sign_off, name="duty_sign_off"),
    path("duty/roster/", roster, name="duty_roster"),
    path("duty/month/", month, name="duty_month"),
    path("duty/leave/", leaves, name="leave_list"),
    path("duty/leave/new/", leave_create, name="leave_create"),
    path("duty/leave/<int:pk>/", leave_detail, name="leave_detail"),
    path("duty/leave/<int:pk>/decide/", leave_decision, name="leave_decide"),
    path("duty/leave/<int:pk>/back/", leave_return, name="leave_back"),
]
