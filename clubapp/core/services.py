"""Writes of the core app."""

from __future__ import annotations

from decimal import Decimal

from django.contrib.auth import get_user_model
from django.contrib.auth.models import AbstractUser, Group, User
from django.contrib.auth.tokens import default_token_generator
from django.core.exceptions import ValidationError
from django.db import transaction
from django.db.models import F
from django.urls import reverse
from django.utils.encoding import force_bytes
from django.utils.http import urlsafe_base64_encode
from django.utils.translation import gettext as _

from clubapp.core.models import DocumentCounter, Room, UserRoom
from clubapp.core.roles import Role


@transaction.atomic
def user_create(
    *,
    username: str,
    password: str | None,
    room: Room | None,
    roles: list[Role] | tuple[Role, ...] = (),
    first_name: str = "",
    is_staff: bool = False,
) -> User:
    """Create an active account of ``room`` (None: of no room, a district reader) in
    the given role groups: its roles are roles in that room.

    Managers work in the admin, so they are staff; nobody becomes a superuser here.
    ``password=None`` makes an account without a usable password: its owner sets one
    through a one-time link (``user_password_link_issue``).
    """
    user = get_user_model().objects.create_user(
        username=username,
        password=password,
        first_name=first_name,
        is_staff=is_staff or Role.MANAGER in roles,
    )
    if roles:
        user.groups.set(Group.objects.filter(name__in=[Role(r).value for r in roles]))
    if room is not None:
        UserRoom.objects.create(user=user, room=room)
    return user


@transaction.atomic
def next_number(*, room: Room, key: str) -> int:
    """The room's next number of the series ``key`` (1, 2, 3, ...), without gaps or
    repeats; each room counts its own.

    The counter row is locked (``select_for_update``) until the caller's transaction
    ends, so a receipt number is only spent if the receipt itself is committed.
    SQLite locks the whole database on write instead, which is as safe.
    """
    counter, _ = DocumentCounter.objects.select_for_update().get_or_create(room=room, key=key)
    DocumentCounter.objects.filter(pk=counter.pk).update(value=F("value") + 1)
    counter.refresh_from_db(fields=["value"])
    return counter.value


@transaction.atomic
def user_password_link_issue(*, user: AbstractUser) -> str:
    """A one-time link (a path) with which the account's owner sets a new password.

    The old password stops working at once, and so does any earlier link: Django's
    token is made from the password hash, which changes here and again when the link
    is used (one use). It expires after ``PASSWORD_RESET_TIMEOUT``. Whoever issues it
    never learns the new password.
    """
    user.set_unusable_password()
    user.save(update_fields=["password"])
    uid = urlsafe_base64_encode(force_bytes(user.pk))
    token = default_token_generator.make_token(user)
    return reverse("password_reset_confirm", kwargs={"uidb64": uid, "token": token})


@transaction.atomic
def room_settings_update(
    *,
    room: Room,
    card_fee: Decimal,
    renewal_fee: Decimal,
    guest_hourly_fee: Decimal,
    notice: str,
    renewal_window_days: int,
    handover_limit_days: int | None = None,
    default_ruleset: str | None = None,
    fund_may_go_negative: bool | None = None,
) -> Room:
    """The room's fees (工本费, 年审费, the non-members' hourly 器材损耗费), its notice,
    the 年审 window and the cash book's hand-over limit: one room-wide row (core.Room),
    written here whichever page edits it. ``handover_limit_days`` None keeps the limit."""
    for amount in (card_fee, renewal_fee, guest_hourly_fee):
        if not isinstance(amount, Decimal) or amount < 0:
            raise ValidationError(_("A fee cannot be negative."), code="fee_negative")
    if handover_limit_days is not None and not 1 <= handover_limit_days <= 90:
        raise ValidationError(_("The hand-over limit is 1 to 90 days."), code="handover_limit")
    if not isinstance(renewal_window_days, int) or not 0 <= renewal_window_days <= 366:
        raise ValidationError(
            _("The yearly review window is 0 to 366 days."), code="renewal_window"
        )
    room = Room.objects.select_for_update().get(pk=room.pk)
    room.card_fee = card_fee
    room.renewal_fee = renewal_fee
    room.guest_hourly_fee = guest_hourly_fee
    room.notice = (notice or "").strip()
    room.renewal_window_days = renewal_window_days
    fields = ["card_fee", "renewal_fee", "guest_hourly_fee", "notice", "renewal_window_days"]
    if handover_limit_days is not None:
        room.handover_limit_days = handover_limit_days
        fields.append("handover_limit_days")
    if default_ruleset is not None:
        room.default_ruleset = default_ruleset
        fields.append("default_ruleset")
    if fund_may_go_negative is not None:
        room.fund_may_go_negative = fund_may_go_negative
        fields.append("fund_may_go_negative")
    room.save(update_fields=fields)
    return room
