"""会员证: issue, 年审, 补办, revoke, suspend and resume; the fees with their receipts."""

from __future__ import annotations

import datetime as dt
import logging
import uuid

from django.contrib.auth.models import User
from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from clubapp.core.models import Room
from clubapp.core.requestkeys import booked_once
from clubapp.core.services import next_number
from clubapp.members.models import Card, CardState, CardStatus, Member, Receipt, ReceiptKind
from clubapp.members.services.common import clean_text
from clubapp.members.services.receipts import receipt_issue

logger = logging.getLogger(__name__)


def _one_year_after(day: dt.date) -> dt.date:
    """The last day of a year of validity starting the day after ``day``."""
    try:
        return day.replace(year=day.year + 1)
    except ValueError:  # 29 February
        return day.replace(year=day.year + 1, day=28)


def _card_number(room: Room, today: dt.date) -> str:
    return f"{today.year}-{next_number(room=room, key=f'card-{today.year}'):04d}"


def lock_card(card: Card) -> Card:
    # of=self: the card row only, not its member's or the room's (settings stay editable).
    return (
        Card.objects.select_for_update(of=("self",))
        .select_related("room", "member")
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
        room=member.room,
        member=member,
        number=_card_number(member.room, today),
        issued_on=today,
        valid_until=_one_year_after(today) - dt.timedelta(days=1),
        request_key=request_key,
    )
    receipt_issue(
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
    card = lock_card(card)
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
    window = card.room.renewal_window_days
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
    receipt_issue(
        room=card.room,
        kind=ReceiptKind.RENEWAL,
        amount=card.room.renewal_fee,
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
    card = lock_card(card)
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
        room=card.room,
        member=card.member,
        number=_card_number(card.room, today),
        status=old_status,
        issued_on=today,
        valid_until=max(card.valid_until, today),
        replaces=card,
        request_key=request_key,
    )
    receipt_issue(
        room=card.room,
        kind=ReceiptKind.REISSUE,
        amount=card.room.card_fee,
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
    reason = clean_text(reason, label=_("reason for revoking"), max_length=200)
    card = lock_card(card)
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
    reason = clean_text(reason, label=_("reason for suspending"), max_length=200)
    card = lock_card(card)
    if card.status != CardStatus.ACTIVE:
        raise ValidationError(_("Only an active card can be suspended."), code="card_not_active")
    card.status = CardStatus.SUSPENDED
    card.status_reason = reason
    card.status_changed_at = now or timezone.now()
    card.save(update_fields=["status", "status_reason", "status_changed_at"])
    return card


@transaction.atomic
def card_resume(*, card: Card, by: User, now: dt.datetime | None = None) -> Card:
    card = lock_card(card)
    if card.status != CardStatus.SUSPENDED:
        raise ValidationError(_("Only a suspended card can be resumed."), code="card_not_suspended")
    card.status = CardStatus.ACTIVE
    card.status_reason = ""
    card.status_changed_at = now or timezone.now()
    card.save(update_fields=["status", "status_reason", "status_changed_at"])
    return card
