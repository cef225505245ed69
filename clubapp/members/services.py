"""Writes of the members app: members, cards, visits, fees, the room's settings.

Every function is keyword-only and atomic, and raises ``ValidationError`` with a
Chinese message on bad input, having saved nothing. Fees go to the cash book
through ``clubapp.books.services.income_record`` only.
"""

from __future__ import annotations

import datetime as dt
import logging
import uuid
from decimal import Decimal
from typing import IO

from django.contrib.auth import get_user_model
from django.contrib.auth.models import AbstractUser, User
from django.core.exceptions import PermissionDenied, ValidationError
from django.core.files.base import ContentFile
from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext as _
from django.views.decorators.debug import sensitive_variables

from clubapp.books.models import IncomeCategory
from clubapp.books.services import income_record
from clubapp.core.models import Room
from clubapp.core.requestkeys import booked_once
from clubapp.core.roles import Role, user_has_role
from clubapp.core.services import next_number, user_create, user_password_link_issue
from clubapp.members import selectors
from clubapp.members.crypto import id_number_digest
from clubapp.members.idnumbers import id_number_check
from clubapp.members.models import (
    LATEST_CLOSING,
    Card,
    CardState,
    CardStatus,
    ExceptionKind,
    IdNumberReveal,
    Member,
    OpeningException,
    OpeningPeriod,
    Receipt,
    ReceiptKind,
    Table,
    Visit,
    name_pinyin,
)
from clubapp.members.permissions import ID_NUMBER_VIEWERS
from clubapp.members.photos import photo_process
from clubapp.members.selectors import guest_hours  # noqa: F401 - part of this module's API

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
    request_key: uuid.UUID | None = None,
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
        request_key=request_key,
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


def _photo_checked(photo: IO[bytes]) -> ContentFile[bytes]:
    """photo_process, its refusal standing at the form's photo field."""
    try:
        return photo_process(photo)
    except ValidationError as exc:
        raise ValidationError({"photo": exc.error_list}) from None


def _id_duplicate() -> ValidationError:
    return ValidationError(
        {
            "id_number": ValidationError(
                _("This ID card number is already registered as a member."),
                code="id_duplicate",
            )
        }
    )


def _drop_photo(member: Member) -> None:
    if member.photo:
        member.photo.delete(save=False)


@sensitive_variables()
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
    if Member.objects.filter(room=room, id_number_hash=id_number_digest(checked.number)).exists():
        raise _id_duplicate()
    processed = _photo_checked(photo) if photo is not None else None
    member = Member(
        room=room,
        name=name,
        name_pinyin=name_pinyin(name),
        phone=phone,
        user=user,
    )
    member.id_number = checked.number  # the property keeps it encrypted and hashed
    if processed is not None:
        member.photo.save(processed.name or "photo.jpg", processed, save=False)
    try:
        with transaction.atomic():
            member.save()
    except IntegrityError:
        # Two desks registering the same person at once: the constraint decides.
        _drop_photo(member)
        raise _id_duplicate() from None
    except Exception:
        _drop_photo(member)  # nothing half-saved: no orphan file either
        raise
    # The number is never logged: the pk identifies the row.
    logger.debug("member %s created by user %s", member.pk, by.pk)
    return member


@sensitive_variables()
@transaction.atomic
def id_number_reveal(*, member: Member, by: User, now: dt.datetime | None = None) -> str:
    """The member's full ID number, for the one who asked, recorded first (查看身份证号).

    Only the roles that may see ID numbers (``permissions.ID_NUMBER_VIEWERS``: the
    managers) may ask; the row (who, which member, when) is written before the number
    is decrypted, in the same transaction, so a number is never shown unrecorded."""
    if not any(user_has_role(by, role) for role in ID_NUMBER_VIEWERS):
        raise PermissionDenied
    IdNumberReveal.objects.create(
        room_id=member.room_id, member=member, by=by, at=now or timezone.now()
    )
    logger.info("ID number of member %s shown to user %s", member.pk, by.pk)
    return member.id_number


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
    member.name_pinyin = name_pinyin(member.name)
    member.phone = _clean_text(phone, label=_("phone"), max_length=20)
    if user is not None and Member.objects.filter(user=user).exclude(pk=member.pk).exists():
        raise ValidationError(_("This account belongs to another member."), code="user_taken")
    member.user = user
    if photo is not None:
        processed = _photo_checked(photo)
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


# ----------------------------------------------------------------- accounts


def _member_login(member: Member) -> AbstractUser:
    """The member's own login, if it is a plain member account.

    Staff, superusers and accounts with other roles are the administrator's to look
    after: a manager resetting one would take it over.
    """
    user = member.user
    if user is None:
        raise ValidationError(_("This member has no login yet."), code="no_account")
    groups = set(user.groups.values_list("name", flat=True))
    if user.is_staff or user.is_superuser or groups != {Role.MEMBER.value}:
        raise ValidationError(
            _("This account is not a plain member's account: the administrator looks after it."),
            code="not_a_member_account",
        )
    return user


@transaction.atomic
def member_account_create(*, member: Member, username: str, by: User) -> tuple[AbstractUser, str]:
    """A login for the member (role 会员) and the one-time link to set its password.

    Returns the account and the link's path; the manager hands the link over (the
    member opens it on their own phone), so nobody but the member knows the password.
    """
    _must_manage(by)
    member = Member.objects.select_for_update().get(pk=member.pk)
    if member.user_id is not None:
        raise ValidationError(_("This member already has a login."), code="account_exists")
    user_model = get_user_model()
    username = (username or "").strip()
    if not username:
        raise ValidationError(_("Please enter a login name."), code="required")
    try:
        user_model.username_validator(username)
    except ValidationError:
        raise ValidationError(
            _("A login name has only letters, digits and @ . + - _"), code="username_invalid"
        ) from None
    if len(username) > 150:
        raise ValidationError(_("A login name has at most 150 characters."), code="too_long")
    if user_model.objects.filter(username__iexact=username).exists():
        raise ValidationError(_("This login name is taken."), code="username_taken")
    user = user_create(
        username=username, password=None, roles=[Role.MEMBER], first_name=member.name
    )
    member.user = user
    member.save(update_fields=["user"])
    logger.info("account %s created for member %s by user %s", user.pk, member.pk, by.pk)
    return user, user_password_link_issue(user=user)


@transaction.atomic
def member_account_reset(*, member: Member, by: User) -> str:
    """A new one-time link for the member's login; the old password stops working."""
    _must_manage(by)
    user = _member_login(member)
    if not user.is_active:
        raise ValidationError(
            _("This login is disabled: enable it first."), code="account_inactive"
        )
    logger.info("password link for account %s issued by user %s", user.pk, by.pk)
    return user_password_link_issue(user=user)


@transaction.atomic
def member_account_set_active(
    *, member: Member, active: bool, by: User
) -> tuple[AbstractUser, str]:
    """停用 / 启用 the member's login.

    Deactivating ends its use at once (no login, and any password link is spoilt);
    enabling it again returns a fresh one-time link, since the old password is gone.
    """
    _must_manage(by)
    user = _member_login(member)
    user.is_active = active
    user.save(update_fields=["is_active"])
    link = user_password_link_issue(user=user)  # the old password stops working either way
    logger.info("account %s active=%s by user %s", user.pk, active, by.pk)
    return user, link if active else ""


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
@booked_once(Card)
def card_issue(
    *,
    member: Member,
    by: User,
    now: dt.datetime | None = None,
    request_key: uuid.UUID | None = None,
) -> Card:
    """会员证: issued when the card fee (工本费, a room setting) is paid; valid one year.

    The same form sent twice (``request_key``) gives the first card back."""
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
        request_key=request_key,
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


def renewal_end(*, card: Card, today: dt.date) -> dt.date:
    """The card's new end after a 年审 today: a year after its end, or after today."""
    active = card.state_on(today) == CardState.ACTIVE
    return _one_year_after(card.valid_until if active else today - dt.timedelta(days=1))


@transaction.atomic
@booked_once(Receipt, answer=lambda receipt: Card.objects.get(receipts=receipt))
def card_renew(
    *,
    card: Card,
    by: User,
    now: dt.datetime | None = None,
    expected_valid_until: dt.date | None = None,
    early: bool = False,
    request_key: uuid.UUID | None = None,
) -> Card:
    """年审: one more year, from the end of the current one (or from today if expired).

    ``expected_valid_until`` is the date the desk saw: if the card moved on since
    (a double tap, a second desk), nothing is renewed or charged twice. A card not
    yet within ``Room.renewal_window_days`` of its end is refused unless the desk
    confirmed an early review (``early``). The form sent twice (``request_key``, kept
    on the receipt) gives the first renewal back; a review without a fee has no
    receipt, and ``expected_valid_until`` refuses the second.
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
    days_left = (card.valid_until - today).days
    window = card.member.room.renewal_window_days
    if state == CardState.ACTIVE and days_left > window and not early:
        raise ValidationError(
            _(
                "Card %(number)s is valid until %(until)s, %(days)s days from now; the "
                "yearly review is done within %(window)s days of its end."
            )
            % {
                "number": card.number,
                "until": f"{card.valid_until:%Y-%m-%d}",
                "days": days_left,
                "window": window,
            },
            code="renew_early",
        )
    card.valid_until = renewal_end(card=card, today=today)
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
        request_key=request_key,
    )
    return card


@transaction.atomic
@booked_once(Card)
def card_reissue(
    *,
    card: Card,
    by: User,
    now: dt.datetime | None = None,
    request_key: uuid.UUID | None = None,
) -> Card:
    """补办: a lost card gets a new number; the old one is void. Same validity; card fee paid.

    The same form sent twice (``request_key``) gives the first new card back."""
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
    card.status_reason = "遗失补办"  # stored data, not UI text: the same in both languages
    card.status_changed_at = now
    card.save(update_fields=["status", "status_reason", "status_changed_at"])
    new = Card.objects.create(
        member=card.member,
        number=_card_number(today),
        status=old_status,
        issued_on=today,
        valid_until=max(card.valid_until, today),
        replaces=card,
        request_key=request_key,
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
    admitted_reason = " ".join((admitted_reason or "").split())
    admitted_by = None
    refusal = selectors.check_in_refusal(room=room, at=now)
    if refusal and not admitted_reason:
        raise ValidationError(
            _("%(reason)s No check-in, unless a manager admits the person (special case).")
            % {"reason": refusal},
            code="room_closed",
        )
    if admitted_reason:
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
        admitted_reason = _clean_text(
            admitted_reason, label=_("reason of the special admission"), max_length=200
        )
        admitted_by = by
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
                    room=room,
                    member=card.member,
                    card=card,
                    checked_in_at=now,
                    checked_in_by=by,
                    admitted_reason=admitted_reason,
                    admitted_by=admitted_by,
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
        _receipt_issue(
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


# ------------------------------------------------------------ tables, room


def _must_manage(by: User) -> None:
    if not user_has_role(by, Role.MANAGER):
        raise PermissionDenied


def _table_name(name: str) -> str:
    name = (name or "").strip()
    if len(name) > 30:
        raise ValidationError(_("A table's name has at most 30 characters."), code="too_long")
    return name


@transaction.atomic
def table_create(*, room: Room, number: int, name: str = "", by: User) -> Table:
    """A new table of the room (a number the room does not use yet)."""
    _must_manage(by)
    if not isinstance(number, int) or not 1 <= number <= 999:
        raise ValidationError(
            _("A table number is a whole number from 1 to 999."), code="table_number"
        )
    if Table.objects.filter(room=room, number=number).exists():
        raise ValidationError(
            _("Table %(number)s exists already.") % {"number": number}, code="table_exists"
        )
    try:
        with transaction.atomic():
            return Table.objects.create(room=room, number=number, name=_table_name(name))
    except IntegrityError:
        raise ValidationError(
            _("Table %(number)s exists already.") % {"number": number}, code="table_exists"
        ) from None


@transaction.atomic
def table_rename(*, table: Table, name: str, by: User) -> Table:
    """Change what the room calls a table; its number (what sessions name) stays."""
    _must_manage(by)
    table = Table.objects.select_for_update().get(pk=table.pk)
    table.name = _table_name(name)
    table.save(update_fields=["name"])
    return table


@transaction.atomic
def table_set_active(*, table: Table, active: bool, by: User) -> Table:
    """停用 / 启用: an inactive table is never free and is not offered to new sessions.

    A table in play (an open session) cannot be taken out of use until it ends.
    """
    _must_manage(by)
    table = Table.objects.select_for_update().select_related("room").get(pk=table.pk)
    if not active and table.number in selectors.table_numbers_in_play(room=table.room):
        raise ValidationError(
            _("This table is in play: take it out of use after the session ends."),
            code="table_in_play",
        )
    table.active = active
    if not active:
        table.occupied = False
    table.save(update_fields=["active", "occupied"])
    return table


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
