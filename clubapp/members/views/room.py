"""The room's settings: fees and rules, the weekly opening hours and their exceptions."""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.core.exceptions import PermissionDenied, ValidationError
from django.http import HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from clubapp.core import services as core_services
from clubapp.core.http import AuthenticatedRequest
from clubapp.members import selectors, services
from clubapp.members.forms import OpeningExceptionForm, RoomSettingsForm, WeeklyHoursForm
from clubapp.members.models import ExceptionKind, OpeningException, Weekday
from clubapp.members.permissions import can_manage, manager_required, reader_required
from clubapp.members.views.common import flash_errors, form_errors


@reader_required
def room_settings(request: AuthenticatedRequest) -> HttpResponse:
    room = request.room
    manage = can_manage(request.user)
    initial: dict[str, Any] = {
        "card_fee": room.card_fee,
        "renewal_fee": room.renewal_fee,
        "guest_hourly_fee": room.guest_hourly_fee,
        "notice": room.notice,
        "renewal_window_days": room.renewal_window_days,
        "handover_limit_days": room.handover_limit_days,
        "default_ruleset": room.default_ruleset,
        "fund_may_go_negative": "yes" if room.fund_may_go_negative else "no",
    }
    form = RoomSettingsForm(request.POST or None, initial=initial, room=room)
    if request.method == "POST":
        if not manage:
            raise PermissionDenied
        if form.is_valid():
            try:
                core_services.room_settings_update(room=room, **form.cleaned_data)
            except ValidationError as exc:
                form_errors(form, exc)
            else:
                messages.success(request, _("Saved."))
                return redirect("members:room_settings")
    return render(
        request,
        "members/room_settings.html",
        {
            "form": form,
            "exception_form": OpeningExceptionForm(),
            "hours_form": WeeklyHoursForm(
                initial=WeeklyHoursForm.initial_from(selectors.weekly_periods(room=room))
            ),
            "weekly": [
                (Weekday(day).label, opens, closes)
                for day, opens, closes in selectors.weekly_periods(room=room)
            ],
            "exceptions": selectors.opening_exceptions_upcoming(room=room),
            "can_manage": manage,
            "default_ruleset_name": dict(form.fields["default_ruleset"].choices).get(  # type: ignore[attr-defined]
                room.default_ruleset, ""
            ),
        },
    )


@require_POST
@manager_required
def opening_hours_update(request: AuthenticatedRequest) -> HttpResponse:
    form = WeeklyHoursForm(request.POST)
    if form.is_valid():
        try:
            services.opening_hours_set(room=request.room, periods=form.periods())
        except ValidationError as exc:
            flash_errors(request, exc)
        else:
            messages.success(request, _("Saved."))
    else:
        for errors in form.errors.values():
            for error in errors:
                messages.error(request, str(error))
    return redirect("members:room_settings")


@require_POST
@manager_required
def opening_exception_create(request: AuthenticatedRequest) -> HttpResponse:
    form = OpeningExceptionForm(request.POST)
    if form.is_valid():
        data = form.cleaned_data
        try:
            services.opening_exception_create(
                room=request.room,
                date=data["date"],
                kind=ExceptionKind(data["kind"]),
                opens=data["opens"],
                closes=data["closes"],
                note=data["note"],
            )
        except ValidationError as exc:
            flash_errors(request, exc)
        else:
            messages.success(request, _("Saved."))
    else:
        for errors in form.errors.values():
            for error in errors:
                messages.error(request, str(error))
    return redirect("members:room_settings")


@require_POST
@manager_required
def opening_exception_delete(request: AuthenticatedRequest, pk: int) -> HttpResponse:
    exception = get_object_or_404(OpeningException, pk=pk, room=request.room)
    services.opening_exception_delete(exception=exception)
    messages.success(request, _("Deleted."))
    return redirect("members:room_settings")
