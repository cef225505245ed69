"""Writes of the members app: members, cards, visits, fees, the room's settings.

Every function is keyword-only and atomic, and raises ``ValidationError`` with a
Chinese message on bad input, having saved nothing. Fees go to the cash book
through ``clubapp.books.services.income_record`` only.
"""

from __future__ import annotations

import datetime as dt
import logging
import math
import uuid
from decimal import Decimal
from typing import IO

from django.contrib.auth.models import User
from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from clubapp.books.models import IncomeCategory
from clubapp.books.services import income_record
from clubapp.core.models import Room
from clubapp.core.services import next_number
from clubapp.members import selectors
from clubapp.members.idnumbers import id_number_check
from clubapp.members.models import (
    LATEST_CLOSING,
    Card,
    CardState,
    CardStatus,
    ExceptionKind,
    Member,
    OpeningException,
    OpeningPeriod,
    Receipt,
    ReceiptKind,
    Table,
    Visit,
)
from clubapp.members.photos import photo_process

logger = logging.getLogger(__name__)


_INCOME_CATEGORY = {
    ReceiptKind.CARD: IncomeCategory.CARD_FEE,
    ReceiptKind.REISSUE: IncomeCategory.CARD_FEE,
    ReceiptKind.RENEWAL: IncomeCategory.RENEWAL_FEE,
    ReceiptKind.GUEST: IncomeCategory.GUEST_FEE,
}


def _one_year_after(day: dt.date) -> dt.date:
    """The last day of a year of validity starting the day after ``day``."""
    try:
        return day.replace(year=day.year + 1)
    except ValueError:  # 29 February
        return day.replace(year=day.year + 1, day=28)


def _clean_text(value: str, *, label: str, max_length: int) -> str:
    value = (value or "").strip()
    if not value:
        raise ValidationError(
            _("Please fill in the %(field)s.") % {"field": label}, code="required"
        )
    if len(value) > max_length:
        raise ValidationError(
            _("The %(field)s may not be longer than %(count)s characters.")
            % {"field": label, "count": max_length},
            code="too_long",
        )
    return value


# ----------------------------------------------------------------- receipts


def _receipt_issue(
    *,
    room: Room,
    kind: ReceiptKind,
    amount: Decimal,
    payer: str,
    by: User,
    now: dt.datetime,
    member: Member | None = None,
    card: Card | None = None,
    visit: Visit | None = None,
) -> Receipt | None:
    """A numbered receipt and its 收 entry; nothing for a fee of zero (nothing was paid)."""
    if amount <= 0:
        return None
    year = timezone.localtime(now).year
    number = f"R{year}-{next_number(key=f'receipt-{year}'):05d}"
    receipt = Receipt.objects.create(
        room=room,
        number=number,
        kind=kind,
        amount=amount,
        payer=payer,
        member=member,
        card=card,
        visit=visit,
        paid_at=now,
        received_by=by,
    )
    income_record(
        room=room,
        category=_INCOME_CATEGORY[ReceiptKind(kind)],
        amount=amount,
        received_at=now,
        reference=number,
        recorded_by=by,
        description=f"{ReceiptKind(kind).label} · {payer}",
    )
    return receipt


# ------------------------------------------------------------------ members


def _drop_photo(member: Member) -> None:
    if member.photo:
        member.photo.delete(save=False)


@transaction.atomic
def member_create(
    *,
    room: Room,
    name: str,
    phone: str,
    id_number: str,
    by: User,
    photo: IO[bytes] | None = None,
    user: User | None = None,
) -> Member:
    """Register a member. The ID number is checked (GB 11643) and unique in the room."""
    name = _clean_text(name, label=_("name"), max_length=50)
    phone = _clean_text(phone, label=_("phone"), max_length=20)
    checked = id_number_check(id_number, today=timezone.localdate())
    if Member.objects.filter(room=room, id_number=checked.number).exists():
        raise ValidationError(_("This ID number is already registered."), code="id_duplicate")
    processed = photo_process(photo) if photo is not None else None
    member = Member(room=room, name=name, phone=phone, id_number=checked.number, user=user)
    if processed is not None:
        member.photo.save(processed.name or "photo.jpg", processed, save=False)
    try:
        with transaction.atomic():
            member.save()
    except IntegrityError:
        # Two desks registering the same person at once: the constraint decides.
        _drop_photo(member)
        raise ValidationError(
            _("This ID number is already registered."), code="id_duplicate"
        ) from None
    except Exception:
        _drop_photo(member)  # nothing half-saved: no orphan file either
        raise
    # The number is never logged: the pk identifies the row.
    logger.debug("member %s created by user %s", member.pk, by.pk)
    return member


@transaction.atomic
def member_update(
    *,
    member: Member,
    name: str,
    phone: str,
    by: User,
    photo: IO[bytes] | None = None,
    user: User | None = None,
) -> Member:
    """Change the name, phone, the linked account and (optionally) the photo.

    The ID number is not editable: a wrong one means a new registration.
    """
    member = Member.objects.select_for_update().get(pk=member.pk)
    member.name = _clean_text(name, label=_("name"), max_length=50)
    member.phone = _clean_text(phone, label=_("phone"), max_length=20)
    if user is not None and Member.objects.filter(user=user).exclude(pk=member.pk).exists():
        raise ValidationError(_("This account belongs to another member."), code="user_taken")
    member.user = user
    if photo is not None:
        processed = photo_process(photo)
        old = member.photo.name if member.photo else ""
        member.photo.save(processed.name or "photo.jpg", processed, save=False)
        if old:
            storage = member.photo.storage
            transaction.on_commit(lambda: storage.delete(old))
    try:
        with transaction.atomic():
            member.save()
    except Exception:
        if photo is not None:
            _drop_photo(member)
        raise
    logger.debug("member %s updated by user %s", member.pk, by.pk)
    return member


# -------------------------------------------------------------------- cards


def _card_number(today: dt.date) -> str:
    return f"{today.year}-{next_number(key=f'card-{today.year}'):04d}"


def _lock_card(card: Card) -> Card:
    # of=self: the card row only, not its member's or the room's (settings stay editable).
    return (
        Card.objects.select_for_update(of=("self",))
        .select_related("member", "member__room")
        .get(pk=card.pk)
    )


@transaction.atomic
def card_issue(*, member: Member, by: User, now: dt.datetime | None = None) -> Card:
    """会员证: issued when the card fee (工本费, a room setting) is paid; valid one year."""
    now = now or timezone.now()
    today = timezone.localdate(now)
    member = Member.objects.select_for_update(of=("self",)).select_related("room").get(pk=member.pk)
    cards = member.cards.all()
    if cards.filter(status=CardStatus.REVOKED).exists():
        raise ValidationError(_("This membership was revoked: no new card."), code="member_revoked")
    if cards.filter(status__in=[CardStatus.ACTIVE, CardStatus.SUSPENDED]).exists():
        raise ValidationError(
            _("This member has a card already: renew it when expired, reissue it when lost."),
            code="card_exists",
        )
    card = Card.objects.create(
        member=member,
        number=_card_number(today),
        issued_on=today,
        valid_until=_one_year_after(today) - dt.timedelta(days=1),
    )
    _receipt_issue(
        room=member.room,
        kind=ReceiptKind.CARD,
        amount=member.room.card_fee,
        payer=member.name,
        by=by,
        now=now,
        member=member,
        card=card,
    )
    logger.debug("card %s issued to member %s", card.number, member.pk)
    return card


@transaction.atomic
def card_renew(
    *,
    card: Card,
    by: User,
    now: dt.datetime | None = None,
    expected_valid_until: dt.date | None = None,
) -> Card:
    """年审: one more year, from the end of the current one (or from today if expired).

    ``expected_valid_until`` is the date the desk saw: if the card moved on since
    (a double tap, a second desk), nothing is renewed or charged twice.
    """
    now = now or timezone.now()
    today = timezone.localdate(now)
    card = _lock_card(card)
    if expected_valid_until is not None and card.valid_until != expected_valid_until:
        raise ValidationError(
            _("Card %(number)s was renewed just now: valid until %(date)s.")
            % {"number": card.number, "date": f"{card.valid_until:%Y-%m-%d}"},
            code="stale",
        )
    state = card.state_on(today)
    if state == CardState.REVOKED:
        raise ValidationError(
            _("This card is revoked (the membership was revoked): no renewal."),
            code="card_revoked",
        )
    if state == CardState.VOID:
        raise ValidationError(
            _("This card is void (a new one was issued): renew the new card."), code="card_void"
        )
    if state == CardState.SUSPENDED:
        raise ValidationError(
            _("This card is suspended: resume it before renewing."), code="card_suspended"
        )
    start = card.valid_until if state == CardState.ACTIVE else today - dt.timedelta(days=1)
    card.valid_until = _one_year_after(start)
    card.save(update_fields=["valid_until"])
    _receipt_issue(
        room=card.member.room,
        kind=ReceiptKind.RENEWAL,
        amount=card.member.room.renewal_fee,
        payer=card.member.name,
        by=by,
        now=now,
        member=card.member,
        card=card,
    )
    return card


@transaction.atomic
def card_reissue(*, card: Card, by: User, now: dt.datetime | None = None) -> Card:
    """补办: a lost card gets a new number; the old one is void. Same validity; card fee paid."""
    now = now or timezone.now()
    today = timezone.localdate(now)
    card = _lock_card(card)
    if card.status == CardStatus.REVOKED:
        raise ValidationError(
            _("This card is revoked (the membership was revoked): no reissue."),
            code="card_revoked",
        )
    if card.status == CardStatus.VOID:
        raise ValidationError(_("This card is void: it cannot be reissued."), code="card_void")
    old_status = card.status
    card.status = CardStatus.VOID
    card.status_reason = "遗失补办"
    card.status_changed_at = now
    card.save(update_fields=["status", "status_reason", "status_changed_at"])
    new = Card.objects.create(
        member=card.member,
        number=_card_number(today),
        status=old_status,
        issued_on=today,
        valid_until=max(card.valid_until, today),
        replaces=card,
    )
    _receipt_issue(
        room=card.member.room,
        kind=ReceiptKind.REISSUE,
        amount=card.member.room.card_fee,
        payer=card.member.name,
        by=by,
        now=now,
        member=card.member,
        card=new,
    )
    logger.debug("card %s reissued as %s", card.number, new.number)
    return new


@transaction.atomic
def card_revoke(*, card: Card, reason: str, by: User, now: dt.datetime | None = None) -> Card:
    """取消会员资格 (e.g. for gambling, 篇三 四.8): needs a reason and is final."""
    reason = _clean_text(reason, label=_("reason for revoking"), max_length=200)
    card = _lock_card(card)
    if card.status == CardStatus.REVOKED:
        raise ValidationError(_("This card is revoked."), code="card_revoked")
    if card.status == CardStatus.VOID:
        raise ValidationError(_("This card is void: use the new card."), code="card_void")
    card.status = CardStatus.REVOKED
    card.status_reason = reason
    card.status_changed_at = now or timezone.now()
    card.save(update_fields=["status", "status_reason", "status_changed_at"])
    logger.debug("card %s revoked by user %s", card.number, by.pk)
    return card


@transaction.atomic
def card_suspend(*, card: Card, reason: str, by: User, now: dt.datetime | None = None) -> Card:
    """暂停: the card cannot be used for check-in until resumed."""
    reason = _clean_text(reason, label=_("reason for suspending"), max_length=200)
    card = _lock_card(card)
    if card.status != CardStatus.ACTIVE:
        raise ValidationError(_("Only an active card can be suspended."), code="card_not_active")
    card.status = CardStatus.SUSPENDED
    card.status_reason = reason
    card.status_changed_at = now or timezone.now()
    card.save(update_fields=["status", "status_reason", "status_changed_at"])
    return card


@transaction.atomic
def card_resume(*, card: Card, by: User, now: dt.datetime | None = None) -> Card:
    card = _lock_card(card)
    if card.status != CardStatus.SUSPENDED:
        raise ValidationError(_("Only a suspended card can be resumed."), code="card_not_suspended")
    card.status = CardStatus.ACTIVE
    card.status_reason = ""
    card.status_changed_at = now or timezone.now()
    card.save(update_fields=["status", "status_reason", "status_changed_at"])
    return card


# ------------------------------------------------------------------- visits


def guest_hours(checked_in_at: dt.datetime, checked_out_at: dt.datetime) -> int:
    """Billed hours: every started hour counts, and a visit is at least one hour."""
    seconds = (checked_out_at - checked_in_at).total_seconds()
    return max(1, math.ceil(seconds / 3600))


@transaction.atomic
def visit_check_in(
    *,
    room: Room,
    by: User,
    card: Card | None = None,
    guest_name: str = "",
    guest_phone: str = "",
    now: dt.datetime | None = None,
    request_key: uuid.UUID | None = None,
) -> Visit:
    """入场: a member by their card (it must be active), or a non-member while a table is free.

    ``request_key`` comes from the non-member form: the same form sent twice (a
    double tap) returns the visit of the first, instead of a second visit.
    """
    if request_key is not None:
        existing = Visit.objects.filter(request_key=request_key).first()
        if existing is not None:
            return existing
    now = now or timezone.now()
    if not selectors.room_is_open(room=room, at=now):
        raise ValidationError(_("The room is not open now: no check-in."), code="room_closed")
    if card is not None:
        card = _lock_card(card)
        if card.member.room_id != room.pk:
            raise ValidationError(_("This card is not one of this room's."), code="card_other_room")
        state = card.state_on(timezone.localdate(now))
        if state != CardState.ACTIVE:
            raise ValidationError(
                _("Card %(number)s is %(state)s: no check-in.")
                % {"number": card.number, "state": state.label},
                code="card_not_active",
            )
        if Visit.objects.filter(member=card.member, checked_out_at__isnull=True).exists():
            raise ValidationError(
                _("%(name)s is in the room already.") % {"name": card.member.name},
                code="already_in",
            )
        try:
            with transaction.atomic():
                return Visit.objects.create(
                    room=room, member=card.member, card=card, checked_in_at=now, checked_in_by=by
                )
        except IntegrityError:
            raise ValidationError(
                _("%(name)s is in the room already.") % {"name": card.member.name},
                code="already_in",
            ) from None
    guest_name = _clean_text(guest_name, label=_("non-member's name"), max_length=50)
    guest_phone = (guest_phone or "").strip()[:20]
    # 场所空闲: non-members only while a table is free (篇三 四.3). Lock the tables
    # so that two desks do not both admit a guest to the last free table.
    list(Table.objects.select_for_update().filter(room=room))
    if selectors.tables_free_count(room=room) == 0:
        raise ValidationError(
            _("No table is free: non-members cannot check in now."), code="no_free_table"
        )
    return Visit.objects.create(
        room=room,
        guest_name=guest_name,
        guest_phone=guest_phone,
        checked_in_at=now,
        checked_in_by=by,
        request_key=request_key,
    )


@transaction.atomic
def visit_check_out(*, visit: Visit, by: User, now: dt.datetime | None = None) -> Visit:
    """离场: free for members; non-members pay 器材损耗费 per started hour, with a receipt."""
    now = now or timezone.now()
    visit = (
        Visit.objects.select_for_update(of=("self",))
        .select_related("room", "member")
        .get(pk=visit.pk)
    )
    if visit.checked_out_at is not None:
        raise ValidationError(_("This visit is checked out already."), code="already_out")
    if now < visit.checked_in_at:
        raise ValidationError(
            _("The check-out cannot be before the check-in."), code="out_before_in"
        )
    visit.checked_out_at = now
    visit.checked_out_by = by
    if visit.is_guest:
        visit.hours_billed = guest_hours(visit.checked_in_at, now)
        visit.fee = (visit.room.guest_hourly_fee * visit.hours_billed).quantize(Decimal("0.01"))
    else:
        visit.hours_billed = None
        visit.fee = Decimal("0.00")
    visit.save(update_fields=["checked_out_at", "checked_out_by", "hours_billed", "fee"])
    if visit.is_guest:
        _receipt_issue(
            room=visit.room,
            kind=ReceiptKind.GUEST,
            amount=visit.fee,
            payer=visit.guest_name,
            by=by,
            now=now,
            visit=visit,
        )
    return visit


# ------------------------------------------------------------ tables, room


@transaction.atomic
def table_set_occupied(*, table: Table, occupied: bool) -> Table:
    table = Table.objects.select_for_update().get(pk=table.pk)
    if not table.active:
        raise ValidationError(_("This table is out of use."), code="table_inactive")
    table.occupied = occupied
    table.save(update_fields=["occupied"])
    return table


@transaction.atomic
def table_set_in_play(*, room: Room, number: int, in_play: bool) -> Table | None:
    """The play app's mark: a table session is open at the room's table ``number`` (or
    no longer is). A number that is not one of the room's tables marks nothing."""
    table = Table.objects.select_for_update().filter(room=room, number=number).first()
    if table is not None and table.in_play != in_play:
        table.in_play = in_play
        table.save(update_fields=["in_play"])
    return table


@transaction.atomic
def opening_hours_set(
    *, room: Room, periods: list[tuple[int, dt.time, dt.time]]
) -> list[OpeningPeriod]:
    """Replace the room's whole weekly schedule (a weekday without periods is closed)."""
    by_day: dict[int, list[tuple[dt.time, dt.time]]] = {}
    for weekday, opens, closes in periods:
        if weekday not in range(7):
            raise ValidationError(_("Not a day of the week."), code="weekday")
        if opens >= closes:
            raise ValidationError(_("The start must be before the end."), code="times_order")
        if closes > LATEST_CLOSING:
            raise ValidationError(_("The room cannot be open after 23:00."), code="too_late")
        by_day.setdefault(weekday, []).append((opens, closes))
    for day_periods in by_day.values():
        day_periods.sort()
        for (_opens, first_closes), (second_opens, _closes) in zip(
            day_periods, day_periods[1:], strict=False
        ):
            if second_opens < first_closes:
                raise ValidationError(_("Periods of one day cannot overlap."), code="overlap")
    OpeningPeriod.objects.filter(room=room).delete()
    return OpeningPeriod.objects.bulk_create(
        OpeningPeriod(room=room, weekday=weekday, opens=opens, closes=closes)
        for weekday, opens, closes in sorted(periods)
    )


@transaction.atomic
def opening_exception_create(
    *,
    room: Room,
    date: dt.date,
    kind: ExceptionKind,
    opens: dt.time | None = None,
    closes: dt.time | None = None,
    note: str = "",
) -> OpeningException:
    """A special closure (all day) or an extra opening, e.g. an evening up to 23:00."""
    if kind == ExceptionKind.CLOSED:
        opens = closes = None
    else:
        if opens is None or closes is None:
            raise ValidationError(
                _("An extra opening needs its start and end."), code="times_required"
            )
        if opens >= closes:
            raise ValidationError(_("The start must be before the end."), code="times_order")
        if closes > LATEST_CLOSING:
            raise ValidationError(_("An evening opening cannot go past 23:00."), code="too_late")
    return OpeningException.objects.create(
        room=room, date=date, kind=kind, opens=opens, closes=closes, note=(note or "").strip()
    )


@transaction.atomic
def opening_exception_delete(*, exception: OpeningException) -> None:
    exception.delete()
