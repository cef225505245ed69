"""The desk's visits: today's list, a visit, 入场 (member, non-member) and 离场."""

from __future__ import annotations

import datetime as dt

from django.contrib import messages
from django.core.exceptions import ValidationError
from django.http import Http404, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils import timezone
from django.utils.translation import gettext as _
from django.views.decorators.debug import sensitive_post_parameters
from django.views.decorators.http import require_POST

from clubapp.books import selectors as books_selectors
from clubapp.core.http import AuthenticatedRequest
from clubapp.members import selectors, services
from clubapp.members.forms import AdmissionForm, CardCheckInForm, CheckOutForm, GuestCheckInForm
from clubapp.members.models import Card, Member, Receipt, Visit
from clubapp.members.permissions import can_manage, manager_required, reader_required
from clubapp.members.views.common import flash_errors, room_card


@reader_required
def visit_list(request: AuthenticatedRequest) -> HttpResponse:
    room = request.room
    now = timezone.now()
    return render(
        request,
        "members/visit_list.html",
        {
            "visits": selectors.visits_now(
                visits=selectors.visits_today(room=room), room=room, now=now
            ),
            "past_closing": selectors.visits_open_past_closing(room=room, now=now),
            "is_open": selectors.room_is_open(room=room, at=now),
            "closed_reason": selectors.check_in_refusal(room=room, at=now),
            "closes": selectors.closing_time(room=room, at=now),
            "periods": selectors.opening_periods_on(room=room, day=timezone.localdate(now)),
            "free_tables": selectors.tables_free(room=room),
            "tables": [t for t in selectors.tables_all(room=room) if t[1] != "inactive"],
            "card_form": CardCheckInForm(),
            "guest_form": GuestCheckInForm(),
            "can_manage": can_manage(request.user),
            # The cash book's box: cash on hand, the oldest receipt not handed over.
            "desk_cash": books_selectors.desk_cash(room=room, now=now),
        },
    )


@reader_required
def visit_detail(request: AuthenticatedRequest, pk: int) -> HttpResponse:
    visit = get_object_or_404(
        Visit.objects.select_related(
            "room", "member", "card", "checked_in_by", "checked_out_by", "admitted_by"
        ),
        pk=pk,
        room=request.room,
    )
    room = request.room
    return render(
        request,
        "members/visit_detail.html",
        {
            "visit": visit,
            "now": selectors.visits_now(visits=[visit], room=room)[0],
            "receipt": Receipt.objects.filter(room=room, visit=visit).first(),
            "can_manage": can_manage(request.user),
        },
    )


@sensitive_post_parameters("q")
@manager_required
def visit_check_in(request: AuthenticatedRequest) -> HttpResponse:
    """Member check-in: look up (by POST: a card number in any form, a phone, a name),
    see the card's photo and state, then confirm. An expired card is offered 年审 or
    entry as a non-member instead of a button that would refuse. Outside the opening
    hours the page says why and offers a special admission with a reason."""
    room = request.room
    form = CardCheckInForm(request.POST if "q" in request.POST else None)
    admission = AdmissionForm(request.POST if "admitted_reason" in request.POST else None)
    matches: list[tuple[Member, Card | None]] = []
    card = None
    member = None
    if request.method == "POST" and "card_id" in request.POST:
        card = room_card(request, _int_or_404(request.POST["card_id"]))
        if request.POST.get("confirm"):
            reason = admission.cleaned_data["admitted_reason"] if admission.is_valid() else ""
            try:
                services.visit_check_in(
                    room=room, card=card, by=request.user, admitted_reason=reason
                )
            except ValidationError as exc:
                flash_errors(request, exc)
            else:
                messages.success(request, _("%(name)s checked in.") % {"name": card.member.name})
                return redirect("members:visit_list")
    elif form.is_bound:
        if form.is_valid():
            matches = selectors.desk_lookup(room=room, q=form.cleaned_data["q"])
            if not matches:
                form.add_error("q", _("No member or card found."))
            elif len(matches) == 1:
                member, card = matches[0]
                matches = []
    elif request.GET.get("card"):
        card = room_card(request, _int_or_404(request.GET["card"]))
    if card is not None:
        member = card.member
    return render(
        request,
        "members/visit_check_in.html",
        {
            "form": form if not card else CardCheckInForm(),
            "matches": matches,
            "card": card,
            "member": member,
            "state": card.state.value if card else "",
            "guest_form": GuestCheckInForm(
                initial={"guest_name": member.name, "guest_phone": member.phone}
            )
            if member
            else None,
            "closed_reason": selectors.check_in_refusal(room=room, at=timezone.now()),
            "admission_form": admission if admission.is_bound else AdmissionForm(),
            "today": timezone.localdate(),
        },
    )


def _int_or_404(value: str) -> int:
    try:
        return int(value)
    except (TypeError, ValueError):
        raise Http404 from None


@require_POST
@manager_required
def visit_guest_check_in(request: AuthenticatedRequest) -> HttpResponse:
    """Non-member check-in. Two questions come back on a page of their own, with what was
    typed kept: 是同一人？ (that name is already inside) and, outside the opening hours,
    the reason of a special admission."""
    form = GuestCheckInForm(request.POST)
    if not form.is_valid():
        messages.error(request, _("Enter the non-member's name."))
        return redirect("members:visit_list")
    room = request.room
    data = form.cleaned_data
    try:
        services.visit_check_in(
            room=room,
            guest_name=data["guest_name"],
            guest_phone=data["guest_phone"],
            request_key=data["request_key"],
            admitted_reason=data["admitted_reason"],
            same_name_confirmed=data["same_name_confirmed"],
            by=request.user,
        )
    except ValidationError as exc:
        codes = {e.code for e in exc.error_list}
        if codes & {"same_name", "room_closed"}:
            return render(
                request,
                "members/visit_guest_check_in.html",
                {
                    "form": form,
                    "errors": [m for e in exc.error_list for m in e.messages],
                    "same_name": selectors.visit_same_name_present(
                        room=room, guest_name=data["guest_name"]
                    ),
                    "closed_reason": selectors.check_in_refusal(room=room, at=timezone.now()),
                },
            )
        flash_errors(request, exc)
    else:
        messages.success(request, _("%(name)s checked in.") % {"name": data["guest_name"]})
    return redirect("members:visit_list")


def _left_at(visit: Visit, time: dt.time | None) -> dt.datetime | None:
    """The time of leaving the desk typed, on the day of the check-in.

    Times are typed to the minute: the check-in's own minute means the check-in itself
    (someone who left as soon as they came), not the seconds before it."""
    if time is None:
        return None
    day = timezone.localtime(visit.checked_in_at).date()
    left_at = timezone.make_aware(dt.datetime.combine(day, time))
    if left_at <= visit.checked_in_at < left_at + dt.timedelta(minutes=1):
        return visit.checked_in_at
    return left_at


def _checked_out(request: AuthenticatedRequest, visit: Visit) -> HttpResponse:
    if visit.is_guest and visit.fee:
        messages.success(
            request,
            _("%(name)s checked out: %(hours)s hour(s), %(fee)s yuan, receipt %(receipt)s.")
            % {
                "name": visit.visitor_name,
                "hours": visit.hours_billed,
                "fee": visit.fee,
                "receipt": visit.receipt.number,
            },
        )
    else:
        messages.success(request, _("%(name)s checked out.") % {"name": visit.visitor_name})
    return redirect("members:visit_list")


@manager_required
def visit_check_out(request: AuthenticatedRequest, pk: int) -> HttpResponse:
    """离场 in two steps: the page shows the time and the fee; the desk confirms the cash.
    A visit still open after closing is closed with a time (the closing time unless the
    desk types another and recalculates)."""
    visit = get_object_or_404(
        Visit.objects.select_related("room", "member", "card"), pk=pk, room=request.room
    )
    form = CheckOutForm(request.POST if request.method == "POST" else None)
    left_at = None
    if request.method == "POST":
        if not form.is_valid():
            messages.error(request, _("Enter the time the person left as hours and minutes."))
            return redirect("members:visit_check_out", pk=visit.pk)
        left_at = _left_at(visit, form.cleaned_data["left_at"])
        if "recalculate" not in request.POST:
            try:
                done = services.visit_check_out(
                    visit=visit,
                    by=request.user,
                    expected_fee=form.cleaned_data["fee"],
                    left_at=left_at,
                    request_key=form.cleaned_data["request_key"],
                )
            except ValidationError as exc:
                flash_errors(request, exc)
                visit.refresh_from_db()
                if not visit.is_open:
                    return redirect("members:visit_list")
                # back on the confirmation, with the time typed and the fee for it
            else:
                return _checked_out(request, done)
    if not visit.is_open:
        messages.error(
            request, _("%(name)s has checked out already.") % {"name": visit.visitor_name}
        )
        return redirect("members:visit_list")
    now = timezone.now()
    past_closing = selectors.visit_is_past_closing(visit=visit, now=now)
    closing = selectors.visit_closing_at(visit=visit)
    if left_at is None:
        left_at = closing if past_closing else now
    elif not visit.checked_in_at <= left_at <= now:
        if "recalculate" in request.POST:  # a confirmation was refused by the service
            messages.error(request, _("The time of leaving must be between the check-in and now."))
        left_at = closing if past_closing else now
    hours, fee = selectors.visit_fee_so_far(visit=visit, left_at=left_at)
    return render(
        request,
        "members/visit_check_out.html",
        {
            "visit": visit,
            "minutes": int((left_at - visit.checked_in_at).total_seconds() // 60),
            "hours": hours,
            "fee": fee,
            "past_closing": past_closing,
            "closing": closing,
            "left_at": left_at,
            "form": CheckOutForm(
                initial={"fee": fee, "left_at": timezone.localtime(left_at).time()}
            ),
        },
    )
