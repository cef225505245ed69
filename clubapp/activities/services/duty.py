"""Writes of the duty roster and leave (篇三 五.3: 严格请销假制度，按时上下班).

Keyword-only and atomic; each checks who may write (``PermissionDenied``) and
refuses bad input with a ``ValidationError`` (a code and a message the page shows),
having saved nothing.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Mapping, Sequence

from django.contrib.auth.models import User
from django.core.exceptions import PermissionDenied, ValidationError
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from clubapp.activities.models import (
    DutySign,
    Leave,
    LeaveDecision,
    LeaveReturn,
    RosterEntry,
    SignKind,
)
from clubapp.activities.permissions import can_approve, can_manage
from clubapp.activities.selectors.duty import leaves_live
from clubapp.core.models import Room, UserRoom
from clubapp.core.roles import Role, user_roles
from clubapp.members.selectors import opening_periods_on


def _name(user: User) -> str:
    return user.get_short_name() or user.get_username()


def _staff_check(room: Room, user: User) -> None:
    if (
        Role.MANAGER not in user_roles(user)
        or not UserRoom.objects.filter(user=user, room=room).exists()
    ):
        raise ValidationError(
            _("%(name)s is not a manager: only managers are on duty.") % {"name": _name(user)},
            code="not_staff",
        )


def _open_check(room: Room, day: dt.date) -> None:
    if not opening_periods_on(room=room, day=day):
        raise ValidationError(
            _("The room does not open on %(day)s.") % {"day": f"{day:%Y-%m-%d}"},
            code="closed_day",
        )


@transaction.atomic
def roster_set(
    *,
    room: Room,
    days: Mapping[dt.date, Sequence[User]],
    by: User,
    now: dt.datetime | None = None,
) -> list[RosterEntry]:
    """Put these people on duty on these days (a week's or a month's form): each day's
    roster becomes exactly its list. Only days the room opens."""
    if not can_manage(by):
        raise PermissionDenied(_("Only a manager may set the duty roster."))
    now = now or timezone.now()
    rows: list[RosterEntry] = []
    for day, users in sorted(days.items()):
        if users:
            _open_check(room, day)
        for user in users:
            _staff_check(room, user)
        keep = {u.pk for u in users}
        RosterEntry.objects.filter(room=room, date=day).exclude(user_id__in=keep).delete()
        have = set(
            RosterEntry.objects.filter(room=room, date=day).values_list("user_id", flat=True)
        )
        for user in users:
            if user.pk not in have:
                have.add(user.pk)
                rows.append(
                    RosterEntry.objects.create(
                        room=room, date=day, user=user, created_by=by, created_at=now
                    )
                )
    return rows


def _sign(room: Room, by: User, kind: SignKind, now: dt.datetime | None) -> DutySign:
    if not can_manage(by):
        raise PermissionDenied(_("Only a manager signs on and off duty."))
    now = now or timezone.now()
    day = timezone.localdate(now)
    _open_check(room, day)
    signs = DutySign.objects.select_for_update().filter(room=room, date=day, user=by)
    kinds = set(signs.values_list("kind", flat=True))
    if kind in kinds:
        message = (
            _("You have already signed on today.")
            if kind == SignKind.ON
            else _("You have already signed off today.")
        )
        raise ValidationError(message, code=f"signed_{kind}")
    if kind == SignKind.OFF and SignKind.ON not in kinds:
        raise ValidationError(_("Sign on before you sign off."), code="not_signed_on")
    return DutySign.objects.create(room=room, date=day, user=by, kind=kind, at=now)


@transaction.atomic
def duty_sign_on(*, room: Room, by: User, now: dt.datetime | None = None) -> DutySign:
    """上班: the staff member signs on for today (once)."""
    return _sign(room, by, SignKind.ON, now)


@transaction.atomic
def duty_sign_off(*, room: Room, by: User, now: dt.datetime | None = None) -> DutySign:
    """下班: the staff member signs off today (once, after signing on)."""
    return _sign(room, by, SignKind.OFF, now)


def _on_leave_check(room: Room, user: User, starts: dt.date, ends: dt.date, *, cover: bool) -> None:
    if leaves_live(room=room, user=user, starts=starts, ends=ends):
        if cover:
            raise ValidationError(
                _("%(name)s is on leave on some of these days and cannot cover.")
                % {"name": _name(user)},
                code="cover_on_leave",
            )
        raise ValidationError(
            _("This leave overlaps another leave of yours, pending or approved."),
            code="overlap",
        )


@transaction.atomic
def leave_request(
    *,
    room: Room,
    starts: dt.date,
    ends: dt.date,
    reason: str,
    cover: User | None,
    by: User,
    now: dt.datetime | None = None,
) -> Leave:
    """请假: a staff member asks for leave, naming who covers (another manager)."""
    if not can_manage(by):
        raise PermissionDenied(_("Only a manager asks for leave."))
    now = now or timezone.now()
    reason = (reason or "").strip()[:200]
    if not reason:
        raise ValidationError(_("Enter the reason for the leave."), code="reason")
    if ends < starts:
        raise ValidationError(_("The leave cannot end before it starts."), code="ends_before")
    # the same person's requests are taken one at a time
    list(User.objects.select_for_update().filter(pk=by.pk).values_list("pk"))
    _on_leave_check(room, by, starts, ends, cover=False)
    if cover is not None:
        if cover.pk == by.pk:
            raise ValidationError(_("Choose someone else to cover."), code="cover_self")
        _staff_check(room, cover)
        _on_leave_check(room, cover, starts, ends, cover=True)
    return Leave.objects.create(
        room=room,
        user=by,
        starts=starts,
        ends=ends,
        reason=reason,
        cover=cover,
        requested_at=now,
    )


@transaction.atomic
def leave_decide(
    *,
    leave: Leave,
    approved: bool,
    by: User,
    note: str = "",
    now: dt.datetime | None = None,
) -> LeaveDecision:
    """The approver approves or refuses the leave, once; never their own."""
    if not can_approve(by):
        raise PermissionDenied(_("Only an approver decides leave."))
    leave = Leave.objects.select_for_update().get(pk=leave.pk)
    if leave.user_id == by.pk:
        raise ValidationError(_("You cannot decide your own leave."), code="own_leave")
    if LeaveDecision.objects.filter(leave=leave).exists():
        raise ValidationError(_("This leave has already been decided."), code="decided")
    if approved and leave.cover is not None:
        _on_leave_check(leave.room, leave.cover, leave.starts, leave.ends, cover=True)
    return LeaveDecision.objects.create(
        room_id=leave.room_id,
        leave=leave,
        approved=approved,
        note=(note or "").strip()[:200],
        decided_by=by,
        decided_at=now or timezone.now(),
    )


@transaction.atomic
def leave_back(
    *, leave: Leave, back_on: dt.date, by: User, now: dt.datetime | None = None
) -> LeaveReturn:
    """销假: the person is back at work on ``back_on``. Recorded by them or an approver."""
    if by.pk != leave.user_id and not can_approve(by):
        raise PermissionDenied(_("Only the person on leave or an approver records the return."))
    leave = Leave.objects.select_for_update().get(pk=leave.pk)
    decision = LeaveDecision.objects.filter(leave=leave).first()
    if decision is None or not decision.approved:
        raise ValidationError(_("Only approved leave is closed by a return."), code="not_approved")
    if LeaveReturn.objects.filter(leave=leave).exists():
        raise ValidationError(_("The return from this leave is already recorded."), code="back")
    if not leave.starts <= back_on <= leave.ends + dt.timedelta(days=1):
        raise ValidationError(
            _("The day back must be between %(starts)s and %(after)s.")
            % {
                "starts": f"{leave.starts:%Y-%m-%d}",
                "after": f"{leave.ends + dt.timedelta(days=1):%Y-%m-%d}",
            },
            code="back_on",
        )
    return LeaveReturn.objects.create(
        room_id=leave.room_id,
        leave=leave,
        back_on=back_on,
        recorded_by=by,
        recorded_at=now or timezone.now(),
    )
