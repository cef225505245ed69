"""Pages of the day's checks, damage and violations (docs/activities.md, The day's checks)."""

from __future__ import annotations

import datetime as dt
from decimal import Decimal

from django.contrib import messages
from django.core.exceptions import PermissionDenied, ValidationError
from django.http import HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import URLPattern, path, reverse
from django.utils import timezone
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from clubapp.activities.forms_checks import (
    DamageForm,
    ItemAddForm,
    ItemRenameForm,
    ViolationForm,
)
from clubapp.activities.models import CheckItem, CheckPhase, ViolationKind
from clubapp.activities.permissions import can_manage, manager_required, reader_required
from clubapp.activities.selectors.checks import (
    check_items,
    checks_on,
    damage_list,
    violation_list,
)
from clubapp.activities.services.checks import (
    check_item_add,
    check_item_move,
    check_item_rename,
    check_item_retire,
    check_items_ensure,
    check_tick,
    damage_record,
    violation_record,
)
from clubapp.books.views.common import flash, form_errors
from clubapp.core.http import AuthenticatedRequest
from clubapp.members.selectors import opening_periods_on


def _day(value: str | None) -> dt.date:
    try:
        return dt.date.fromisoformat(value or "")
    except ValueError:
        return timezone.localdate()


@reader_required
def checks(request: AuthenticatedRequest) -> HttpResponse:
    """The day's opening and closing list, ticked one item at a time."""
    room = request.room
    day = _day(request.GET.get("day"))
    if room.pk:
        check_items_ensure(room=room)  # a room's first visit gets the default list
    return render(
        request,
        "activities/check_day.html",
        {
            "day": day,
            "open": bool(opening_periods_on(room=room, day=day)),
            "phases": checks_on(room=room, day=day),
            "previous": day - dt.timedelta(days=1),
            "next": day + dt.timedelta(days=1),
            "is_today": day == timezone.localdate(),
            "can_manage": can_manage(request.user),
        },
    )


@require_POST
@manager_required
def tick(request: AuthenticatedRequest, pk: int) -> HttpResponse:
    item = get_object_or_404(CheckItem, pk=pk, room=request.room)
    day = _day(request.POST.get("day"))
    try:
        check_tick(item=item, day=day, by=request.user)
    except ValidationError as exc:
        flash(request, exc)
    else:
        messages.success(request, _("Ticked: %(item)s.") % {"item": item.text})
    return redirect(f"{reverse('activities:checks')}?day={day:%Y-%m-%d}")


@reader_required
def items(request: AuthenticatedRequest) -> HttpResponse:
    """The room's list of items: add, rename, reorder, stop checking."""
    room = request.room
    form = ItemAddForm(request.POST or None)
    if request.method == "POST":
        if not can_manage(request.user):
            raise PermissionDenied
        if form.is_valid():
            try:
                check_item_add(
                    room=room,
                    phase=CheckPhase(form.cleaned_data["phase"]),
                    text=form.cleaned_data["text"],
                    by=request.user,
                )
            except ValidationError as exc:
                form_errors(form, exc)
            else:
                messages.success(request, _("Item added."))
                return redirect("activities:check_items")
    rows = check_items(room=room)
    return render(
        request,
        "activities/check_items.html",
        {
            "form": form,
            "phases": [
                (label, [i for i in rows if i.phase == value and i.active])
                for value, label in CheckPhase.choices
            ],
            "retired": [i for i in rows if not i.active],
            "can_manage": can_manage(request.user),
        },
    )


@require_POST
@manager_required
def item_edit(request: AuthenticatedRequest, pk: int) -> HttpResponse:
    item = get_object_or_404(CheckItem, pk=pk, room=request.room)
    action = request.POST.get("action")
    try:
        if action == "rename":
            form = ItemRenameForm(request.POST)
            check_item_rename(
                item=item,
                text=form.cleaned_data["text"] if form.is_valid() else "",
                by=request.user,
            )
        elif action in ("up", "down"):
            check_item_move(item=item, up=action == "up", by=request.user)
        elif action == "retire":
            check_item_retire(item=item, by=request.user)
            messages.success(request, _("“%(item)s” is no longer checked.") % {"item": item.text})
    except ValidationError as exc:
        flash(request, exc)
    return redirect("activities:check_items")


@reader_required
def damages(request: AuthenticatedRequest) -> HttpResponse:
    return render(
        request,
        "activities/check_damage_list.html",
        {"rows": damage_list(room=request.room)[:100], "can_manage": can_manage(request.user)},
    )


@manager_required
def damage_create(request: AuthenticatedRequest) -> HttpResponse:
    room = request.room
    form = DamageForm(request.POST or None, room=room)
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        try:
            damage = damage_record(
                room=room,
                day=data["day"],
                equipment=data["equipment"],
                member=data["member"],
                notes=data["notes"],
                compensation=data["compensation"] or Decimal("0"),
                payer=data["payer"],
                request_key=data["request_key"],
                by=request.user,
            )
        except ValidationError as exc:
            form_errors(form, exc)
        else:
            if damage.income is not None:
                messages.success(
                    request,
                    _("Damage recorded; receipt %(receipt)s: %(amount)s yuan booked.")
                    % {"receipt": damage.income.reference, "amount": damage.compensation},
                )
            else:
                messages.success(request, _("Damage recorded."))
            return redirect("activities:damage_list")
    return render(request, "activities/check_damage_form.html", {"form": form})


@reader_required
def violations(request: AuthenticatedRequest) -> HttpResponse:
    return render(
        request,
        "activities/check_violation_list.html",
        {
            "rows": violation_list(room=request.room)[:100],
            "can_manage": can_manage(request.user),
        },
    )


@manager_required
def violation_create(request: AuthenticatedRequest) -> HttpResponse:
    room = request.room
    form = ViolationForm(request.POST or None, room=room, initial=request.GET or None)
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        try:
            violation = violation_record(
                room=room,
                day=data["day"],
                member=data["member"],
                kind=ViolationKind(data["kind"]),
                notes=data["notes"],
                by=request.user,
            )
        except ValidationError as exc:
            form_errors(form, exc)
        else:
            messages.success(request, _("Violation recorded."))
            if violation.card is not None:
                messages.warning(
                    request,
                    _("Card %(card)s is revoked (the room's rules, part 3, 4.8).")
                    % {"card": violation.card.number},
                )
            elif violation.kind == ViolationKind.GAMBLING:
                messages.warning(request, _("The member has no valid card: no card was revoked."))
            return redirect("activities:violation_list")
    return render(request, "activities/check_violation_form.html", {"form": form})


urlpatterns: list[URLPattern] = [
    path("checks/", checks, name="checks"),
    path("checks/tick/<int:pk>/", tick, name="check_tick"),
    path("checks/items/", items, name="check_items"),
    path("checks/items/<int:pk>/", item_edit, name="check_item_edit"),
    path("checks/damage/", damages, name="damage_list"),
    path("checks/damage/new/", damage_create, name="damage_create"),
    path("checks/violations/", violations, name="violation_list"),
    path("checks/violations/new/", violation_create, name="violation_create"),
]
