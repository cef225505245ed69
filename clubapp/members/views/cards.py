"""会员证 pages: issue, 年审, 补办, revoke, suspend, resume; a receipt."""

from __future__ import annotations

from django.contrib import messages
from django.core.exceptions import ValidationError
from django.http import Http404, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from clubapp.core.http import AuthenticatedRequest
from clubapp.members import selectors, services
from clubapp.members.forms import CardForm, ReasonForm, RenewForm
from clubapp.members.models import Card, CardState, CardStatus
from clubapp.members.permissions import manager_required, reader_required
from clubapp.members.views.common import flash_errors, form_errors, room_card, room_member


@require_POST
@manager_required
def card_issue(request: AuthenticatedRequest, pk: int) -> HttpResponse:
    member = room_member(request, pk)
    form = CardForm(request.POST)
    key = form.cleaned_data["request_key"] if form.is_valid() else None
    try:
        card = services.card_issue(member=member, by=request.user, request_key=key)
    except ValidationError as exc:
        flash_errors(request, exc)
    else:
        messages.success(request, _("Card %(number)s issued.") % {"number": card.number})
    return redirect(member)


def _after_card(card: Card, next_page: str) -> HttpResponse:
    if next_page == "checkin":
        return redirect(f"{reverse('members:visit_check_in')}?card={card.pk}")
    return redirect(card.member)


@manager_required
def card_renew(request: AuthenticatedRequest, pk: int) -> HttpResponse:
    """年审 in two steps: the page shows the fee and the new end (and says when the card
    is not near its end yet); the desk confirms."""
    card = room_card(request, pk)
    room = card.member.room
    form = RenewForm(request.POST or None)
    next_page = request.GET.get("next", "")
    if request.method == "POST":
        data = form.cleaned_data if form.is_valid() else {}
        next_page = data.get("next", "")
        try:
            card = services.card_renew(
                card=card,
                by=request.user,
                expected_valid_until=data.get("valid_until"),
                early=bool(data.get("early")),
                request_key=data.get("request_key"),
            )
        except ValidationError as exc:
            flash_errors(request, exc)
        else:
            messages.success(
                request,
                _("Card %(number)s renewed until %(date)s.")
                % {"number": card.number, "date": card.valid_until.isoformat()},
            )
        return _after_card(card, next_page)
    today = timezone.localdate()
    state = card.state_on(today)
    days_left = (card.valid_until - today).days
    new_end = services.renewal_end(card=card, today=today)
    return render(
        request,
        "members/card_confirm.html",
        {
            "card": card,
            "action": "renew",
            "fee": room.renewal_fee,
            "new_end": new_end,
            "early": state == CardState.ACTIVE and days_left > room.renewal_window_days,
            "days_left": days_left,
            "refused": state not in (CardState.ACTIVE, CardState.EXPIRED),
            "next": next_page,
            "key_form": CardForm(),
        },
    )


@manager_required
def card_reissue(request: AuthenticatedRequest, pk: int) -> HttpResponse:
    """遗失补办 in two steps: the page shows the card fee and what becomes void; confirm."""
    card = room_card(request, pk)
    if request.method == "POST":
        form = CardForm(request.POST)
        key = form.cleaned_data["request_key"] if form.is_valid() else None
        try:
            new = services.card_reissue(card=card, by=request.user, request_key=key)
        except ValidationError as exc:
            flash_errors(request, exc)
        else:
            messages.success(
                request,
                _("Card %(old)s is void; new card %(new)s issued.")
                % {"old": card.number, "new": new.number},
            )
        return redirect(card.member)
    return render(
        request,
        "members/card_confirm.html",
        {
            "card": card,
            "action": "reissue",
            "fee": card.member.room.card_fee,
            "refused": card.status in (CardStatus.REVOKED, CardStatus.VOID),
            "key_form": CardForm(),
        },
    )


def _card_with_reason(request: AuthenticatedRequest, pk: int, action: str) -> HttpResponse:
    card = room_card(request, pk)
    form = ReasonForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        service = services.card_revoke if action == "revoke" else services.card_suspend
        try:
            service(card=card, reason=form.cleaned_data["reason"], by=request.user)
        except ValidationError as exc:
            form_errors(form, exc)
        else:
            done = (
                _("Card %(number)s revoked.")
                if action == "revoke"
                else _("Card %(number)s suspended.")
            )
            messages.success(request, done % {"number": card.number})
            return redirect(card.member)
    return render(
        request, "members/card_reason.html", {"card": card, "form": form, "action": action}
    )


@manager_required
def card_revoke(request: AuthenticatedRequest, pk: int) -> HttpResponse:
    return _card_with_reason(request, pk, "revoke")


@manager_required
def card_suspend(request: AuthenticatedRequest, pk: int) -> HttpResponse:
    return _card_with_reason(request, pk, "suspend")


@require_POST
@manager_required
def card_resume(request: AuthenticatedRequest, pk: int) -> HttpResponse:
    card = room_card(request, pk)
    try:
        services.card_resume(card=card, by=request.user)
    except ValidationError as exc:
        flash_errors(request, exc)
    else:
        messages.success(request, _("Card %(number)s is active again.") % {"number": card.number})
    return redirect(card.member)


@reader_required
def receipt_detail(request: AuthenticatedRequest, number: str) -> HttpResponse:
    receipt = selectors.receipt_get(room=request.room, number=number)
    if receipt is None:
        raise Http404
    return render(request, "members/receipt_detail.html", {"receipt": receipt})
