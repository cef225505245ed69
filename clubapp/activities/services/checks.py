"""Writes of the day's checks, damage and violations (篇三 四.6–8, 五.4).

Keyword-only and atomic; each checks who may write (``PermissionDenied``) and
refuses bad input with a ``ValidationError``, having saved nothing. Compensation
is booked through the cash book (``books.services.income_other_record``) and a
card revoked through the members app (``members.services.card_revoke``), in the
same transaction as the row that asks for it.
"""

from __future__ import annotations

import datetime as dt
import uuid
from decimal import Decimal

from django.contrib.auth.models import User
from django.core.exceptions import PermissionDenied, ValidationError
from django.db import transaction
from django.db.models import Max
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop

from clubapp.activities.models import (
    CheckItem,
    CheckPhase,
    CheckTick,
    Damage,
    Violation,
    ViolationKind,
)
from clubapp.activities.permissions import can_manage
from clubapp.activities.selectors.checks import item_due
from clubapp.books.models import IncomeCategory, IncomeEntry
from clubapp.books.services import income_other_record
from clubapp.core.models import Room
from clubapp.core.requestkeys import book_once
from clubapp.members.models import CardStatus, Member
from clubapp.members.selectors import member_current_card, opening_periods_on
from clubapp.members.services import card_revoke

#: the room's own words for a first list (篇三 五.4), translated when created
DEFAULT_ITEMS = [
    (CheckPhase.OPENING, gettext_noop("Lights")),
    (CheckPhase.OPENING, gettext_noop("Doors and windows")),
    (CheckPhase.OPENING, gettext_noop("Fire exits clear")),
    (CheckPhase.CLOSING, gettext_noop("Equipment counted")),
    (CheckPhase.CLOSING, gettext_noop("Tables clean")),
    (CheckPhase.CLOSING, gettext_noop("Lights off, doors and windows shut")),
]


def _manager(by: User) -> None:
    if not can_manage(by):
        raise PermissionDenied(_("Only a manager keeps the day's checks."))


def _text(value: str, *, message: str, max_length: int) -> str:
    value = (value or "").strip()
    if not value:
        raise ValidationError(message, code="required")
    return value[:max_length]


def _not_future(day: dt.date, now: dt.datetime) -> None:
    if day > timezone.localdate(now):
        raise ValidationError(_("The day cannot be in the future."), code="future")


@transaction.atomic
def check_items_ensure(*, room: Room, since: dt.date | None = None) -> list[CheckItem]:
    """The room's first list (lights, windows, fire exits…) when it has no items yet."""
    if CheckItem.objects.filter(room=room).exists():
        return []
    since = since or timezone.localdate()
    return [
        CheckItem.objects.create(room=room, phase=phase, text=_(text), position=n, since=since)
        for n, (phase, text) in enumerate(DEFAULT_ITEMS)
    ]


@transaction.atomic
def check_item_add(
    *, room: Room, phase: CheckPhase, text: str, by: User, now: dt.datetime | None = None
) -> CheckItem:
    _manager(by)
    if phase not in CheckPhase.values:
        raise ValidationError(_("Choose opening or closing."), code="phase")
    text = _text(text, message=_("Enter the item to check."), max_length=100)
    last = CheckItem.objects.filter(room=room, phase=phase).aggregate(n=Max("position"))["n"]
    return CheckItem.objects.create(
        room=room,
        phase=phase,
        text=text,
        position=0 if last is None else last + 1,
        since=timezone.localdate(now or timezone.now()),
    )


@transaction.atomic
def check_item_rename(*, item: CheckItem, text: str, by: User) -> CheckItem:
    _manager(by)
    item.text = _text(text, message=_("Enter the item to check."), max_length=100)
    item.save(update_fields=["text"])
    return item


@transaction.atomic
def check_item_move(*, item: CheckItem, up: bool, by: User) -> CheckItem:
    """One place up or down among the active items of its phase."""
    _manager(by)
    items = list(CheckItem.objects.filter(room=item.room, phase=item.phase, active=True))
    at = next(n for n, i in enumerate(items) if i.pk == item.pk) if item.active else -1
    other = at - 1 if up else at + 1
    if at < 0 or not 0 <= other < len(items):
        return item
    items[at], items[other] = items[other], items[at]
    for n, row in enumerate(items):
        if row.position != n:
            row.position = n
            row.save(update_fields=["position"])
    return next(i for i in items if i.pk == item.pk)


@transaction.atomic
def check_item_retire(*, item: CheckItem, by: User, now: dt.datetime | None = None) -> CheckItem:
    """No longer checked from today; its ticks of earlier days stay."""
    _manager(by)
    if not item.active:
        raise ValidationError(_("This item is no longer checked."), code="retired")
    item.active = False
    item.retired_on = timezone.localdate(now or timezone.now())
    item.save(update_fields=["active", "retired_on"])
    return item


@transaction.atomic
def check_tick(
    *, item: CheckItem, day: dt.date, by: User, now: dt.datetime | None = None
) -> CheckTick:
    """Tick one item of a day's list, with who and when; once."""
    _manager(by)
    now = now or timezone.now()
    _not_future(day, now)
    if not opening_periods_on(room=item.room, day=day):
        raise ValidationError(
            _("The room does not open on %(day)s.") % {"day": f"{day:%Y-%m-%d}"},
            code="closed_day",
        )
    if not item_due(item, day):
        raise ValidationError(_("This item is not checked on that day."), code="not_due")
    list(CheckItem.objects.select_for_update().filter(pk=item.pk).values_list("pk"))
    if CheckTick.objects.filter(item=item, date=day).exists():
        raise ValidationError(
            _("“%(item)s” is already ticked for %(day)s.")
            % {"item": item.text, "day": f"{day:%Y-%m-%d}"},
            code="ticked",
        )
    return CheckTick.objects.create(room=item.room, date=day, item=item, by=by, at=now)


@transaction.atomic
def damage_record(
    *,
    room: Room,
    day: dt.date,
    equipment: str,
    by: User,
    member: Member | None = None,
    notes: str = "",
    compensation: Decimal = Decimal("0"),
    payer: str = "",
    request_key: uuid.UUID | None = None,
    now: dt.datetime | None = None,
) -> Damage:
    """爱护公物: damage to the room's equipment; a compensation (按价赔偿) is booked now
    as income with a receipt through the cash book (on the next open day, 补记, if
    today is closed: money taken cannot be refused)."""
    _manager(by)
    now = now or timezone.now()
    _not_future(day, now)
    equipment = _text(equipment, message=_("Enter the damaged equipment."), max_length=100)
    notes = (notes or "").strip()[:200]
    if compensation is None or compensation < 0:
        raise ValidationError(_("The compensation cannot be negative."), code="negative")
    if member is not None and member.room_id != room.pk:
        raise ValidationError(_("Choose a member of this room."), code="member")

    def book() -> Damage:
        income = None
        if compensation > 0:
            income = income_other_record(
                room=room,
                category=IncomeCategory.COMPENSATION,
                amount=compensation,
                received_at=now,
                payer=member.name if member is not None and not payer.strip() else payer,
                description=_("Compensation: %(equipment)s") % {"equipment": equipment},
                by=by,
                late=True,
                request_key=request_key,
                now=now,
            )
        return Damage.objects.create(
            room=room,
            date=day,
            equipment=equipment,
            member=member,
            notes=notes,
            compensation=compensation,
            income=income,
            recorded_by=by,
            recorded_at=now,
        )

    if compensation <= 0:
        return book()
    return book_once(
        IncomeEntry,
        request_key=request_key,
        book=book,
        answer=lambda entry: Damage.objects.get(income=entry),
    )


@transaction.atomic
def violation_record(
    *,
    room: Room,
    day: dt.date,
    member: Member,
    kind: ViolationKind,
    notes: str,
    by: User,
    now: dt.datetime | None = None,
) -> Violation:
    """A violation of the room's rules (吸烟, 赌博, 寻衅滋事) against a member. Gambling
    revokes the member's card (篇三 四.8) in the same transaction; a member without
    a valid card has the violation recorded and no card revoked (``card`` is None)."""
    _manager(by)
    now = now or timezone.now()
    _not_future(day, now)
    if kind not in ViolationKind.values:
        raise ValidationError(_("Choose the kind of violation."), code="kind")
    if member.room_id != room.pk:
        raise ValidationError(_("Choose a member of this room."), code="member")
    notes = _text(notes, message=_("Enter what happened."), max_length=200)
    card = None
    if kind == ViolationKind.GAMBLING:
        current = member_current_card(member=member)
        if current is not None and current.status not in (CardStatus.REVOKED, CardStatus.VOID):
            card = card_revoke(
                card=current,
                reason=_("Violation on %(day)s: %(kind)s — %(notes)s")
                % {
                    "day": f"{day:%Y-%m-%d}",
                    "kind": ViolationKind(kind).label,
                    "notes": notes,
                },
                by=by,
                now=now,
            )
    return Violation.objects.create(
        room=room,
        date=day,
        member=member,
        kind=kind,
        notes=notes,
        card=card,
        recorded_by=by,
        recorded_at=now,
    )
