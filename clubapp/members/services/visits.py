"""Visits: 入场 (a member by card, a non-member while a table is free) and 离场."""

from __future__ import annotations

import datetime as dt
import uuid
from decimal import Decimal

from django.contrib.auth.models import User
from django.core.exceptions import PermissionDenied, ValidationError
from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from clubapp.core.models import Room
from clubapp.core.requestkeys import booked_once
from clubapp.core.roles import Role, user_has_role
from clubapp.members import selectors
from clubapp.members.models import (
    LATEST_CLOSING,
    Card,
    CardState,
    Receipt,
    ReceiptKind,
    Table,
    Visit,
)
from clubapp.members.services.cards import lock_card
from clubapp.members.services.common import clean_text
from clubapp.members.services.receipts import receipt_issue


@transaction.atomic
@booked_once(Visit)
def visit_check_in(
    *,
    room: Room,
    by: User,
    card: Card | None = None,
    guest_name: str = "",
    guest_phone: str = "",
    now: dt.datetime | None = None,
    request_key: uuid.UUID | None = None,
    admitted_reason: str = "",
    same_name_confirmed: bool = False,
) -> Visit:
    """入场: a member by their card (it must be active), or a non-member while a table is free.

    Outside the opening hours the check-in is refused with the reason (the weekly rest
    day, before opening, …), unless a manager admits the person with ``admitted_reason``
    (特殊情况), recorded on the visit with who admitted; never from 23:00 on.
    A non-member whose name is already present is refused (``same_name``: 是同一人？)
    unless the desk confirms it is another person (``same_name_confirmed``).
    ``request_key`` comes from the non-member form: the same form sent twice (a
    double tap, or eight) returns the visit of the first, instead of a second visit.
    """
    now = now or timezone.now()
    admission = _admission(room=room, by=by, now=now, reason=admitted_reason)
    if card is not None:
        return _member_enters(room=room, card=card, by=by, now=now, admission=admission)
    return _guest_enters(
        room=room,
        guest_name=guest_name,
        guest_phone=guest_phone,
        by=by,
        now=now,
        request_key=request_key,
        admission=admission,
        same_name_confirmed=same_name_confirmed,
    )


def _admission(*, room: Room, by: User, now: dt.datetime, reason: str) -> tuple[str, User | None]:
    """The visit's (admitted_reason, admitted_by): ("", None) within the opening hours.

    Outside them nobody enters unless a manager admits the person (特殊情况) with a
    reason, and not even then from 23:00 on; within them a reason is refused."""
    reason = " ".join((reason or "").split())
    refusal = selectors.check_in_refusal(room=room, at=now)
    if refusal and not reason:
        raise ValidationError(
            _("%(reason)s No check-in, unless a manager admits the person (special case).")
            % {"reason": refusal},
            code="room_closed",
        )
    if not reason:
        return "", None
    if not refusal:
        raise ValidationError(
            _("The room is open: a special admission is not needed."), code="room_open"
        )
    if not user_has_role(by, Role.MANAGER):
        raise PermissionDenied(_("Only a manager can admit a person outside the hours."))
    if timezone.localtime(now).time() >= LATEST_CLOSING:
        raise ValidationError(
            _("Even in special cases the room is not open after 23:00."), code="too_late"
        )
    reason = clean_text(reason, label=_("reason of the special admission"), max_length=200)
    return reason, by


def _member_enters(
    *, room: Room, card: Card, by: User, now: dt.datetime, admission: tuple[str, User | None]
) -> Visit:
    """A member's 入场 by an active card of this room, unless they are inside already."""
    card = lock_card(card)
    if card.room_id != room.pk:
        raise ValidationError(_("This card is not one of this room's."), code="card_other_room")
    state = card.state_on(timezone.localdate(now))
    if state != CardState.ACTIVE:
        raise ValidationError(
            _("Card %(number)s is %(state)s: no check-in.")
            % {"number": card.number, "state": state.label},
            code="card_not_active",
        )
    already_in = ValidationError(
        _("%(name)s is in the room already.") % {"name": card.member.name}, code="already_in"
    )
    if Visit.objects.filter(member=card.member, checked_out_at__isnull=True).exists():
        raise already_in
    admitted_reason, admitted_by = admission
    try:
        with transaction.atomic():
            return Visit.objects.create(
                room=room,
                member=card.member,
                card=card,
                checked_in_at=now,
                checked_in_by=by,
                admitted_reason=admitted_reason,
                admitted_by=admitted_by,
            )
    except IntegrityError:
        raise already_in from None


def _guest_enters(
    *,
    room: Room,
    guest_name: str,
    guest_phone: str,
    by: User,
    now: dt.datetime,
    request_key: uuid.UUID | None,
    admission: tuple[str, User | None],
    same_name_confirmed: bool,
) -> Visit:
    """A non-member's 入场 while a table is free; a name already inside is asked about."""
    guest_name = clean_text(guest_name, label=_("non-member's name"), max_length=50)
    guest_phone = (guest_phone or "").strip()[:20]
    # 场所空闲: non-members only while a table is free (篇三 四.3). Lock the tables
    # so that two desks do not both admit a guest to the last free table.
    list(Table.objects.select_for_update().filter(room=room))
    if selectors.tables_free_count(room=room) == 0:
        raise ValidationError(
            _("No table is free: non-members cannot check in now."), code="no_free_table"
        )
    if not same_name_confirmed:
        present = selectors.visit_same_name_present(room=room, guest_name=guest_name, now=now)
        if present is not None:
            raise ValidationError(
                _("%(name)s is already inside (since %(time)s). The same person?")
                % {
                    "name": guest_name,
                    "time": timezone.localtime(present.checked_in_at).strftime("%H:%M"),
                },
                code="same_name",
            )
    admitted_reason, admitted_by = admission
    return Visit.objects.create(
        room=room,
        guest_name=guest_name,
        guest_phone=guest_phone,
        checked_in_at=now,
        checked_in_by=by,
        request_key=request_key,
        admitted_reason=admitted_reason,
        admitted_by=admitted_by,
    )


@transaction.atomic
@booked_once(Receipt, answer=lambda receipt: Visit.objects.get(receipt=receipt))
def visit_check_out(
    *,
    visit: Visit,
    by: User,
    now: dt.datetime | None = None,
    expected_fee: Decimal | None = None,
    left_at: dt.datetime | None = None,
    request_key: uuid.UUID | None = None,
) -> Visit:
    """离场: free for members; non-members pay 器材损耗费 per started hour, with a receipt.

    ``left_at`` is when the person left, if not now: the desk closing a visit still open
    after closing gives the time (by default the closing time, so the fee stops there).
    It is between the check-in and now; the visit keeps when it was recorded.
    ``expected_fee`` is the fee the desk showed and took in cash: if another hour has
    begun since (the fee is no longer that), nothing is booked and the desk asks again.
    The form sent twice (``request_key``, kept on the receipt) gives the first
    check-out back; a check-out without a fee has no receipt, and is refused as
    already out.
    """
    now = now or timezone.now()
    visit = (
        Visit.objects.select_for_update(of=("self",))
        .select_related("room", "member")
        .get(pk=visit.pk)
    )
    if visit.checked_out_at is not None:
        raise ValidationError(_("This visit is checked out already."), code="already_out")
    if left_at is None and selectors.visit_is_past_closing(visit=visit, now=now):
        left_at = selectors.visit_closing_at(visit=visit)
    if left_at is not None and left_at > now:
        raise ValidationError(
            _("The time of leaving cannot be in the future."), code="left_in_future"
        )
    if (left_at or now) < visit.checked_in_at:
        raise ValidationError(
            _("The check-out cannot be before the check-in."), code="out_before_in"
        )
    visit.checked_out_at = left_at or now
    visit.checked_out_recorded_at = now if left_at is not None and left_at != now else None
    visit.checked_out_by = by
    if visit.is_guest:
        visit.hours_billed, visit.fee = selectors.visit_fee_so_far(
            visit=visit, left_at=visit.checked_out_at
        )
        if expected_fee is not None and visit.fee != expected_fee:
            raise ValidationError(
                _("The fee is now %(fee)s yuan (%(hours)s hours): please confirm the cash again.")
                % {"fee": visit.fee, "hours": visit.hours_billed},
                code="fee_changed",
            )
    else:
        visit.hours_billed = None
        visit.fee = Decimal("0.00")
    visit.save(
        update_fields=[
            "checked_out_at",
            "checked_out_recorded_at",
            "checked_out_by",
            "hours_billed",
            "fee",
        ]
    )
    if visit.is_guest:
        receipt_issue(
            room=visit.room,
            kind=ReceiptKind.GUEST,
            amount=visit.fee,
            payer=visit.guest_name,
            by=by,
            now=now,
            visit=visit,
            request_key=request_key,
        )
    return visit
