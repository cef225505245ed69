"""Members, membership cards (会员证), visits, opening hours and the tables (会员).

Rules live in ``services.py``; what the database can refuse, it refuses here
(unique ID number per room, one live card per member, one open visit per member,
amounts never negative, a visit never ends before it starts).
"""

from __future__ import annotations

import datetime as dt
import uuid
from decimal import Decimal
from pathlib import PurePosixPath
from typing import Any

from django.conf import settings
from django.db import models
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext_lazy as _
from pypinyin import lazy_pinyin

from clubapp.core.appendonly import AppendOnlyModel
from clubapp.core.models import by_field, room_field
from clubapp.members.crypto import id_number_decrypt, id_number_digest, id_number_encrypt

# Evenings end at 23:00 at the latest (篇三 三).
LATEST_CLOSING = dt.time(23, 0)


def mask_id_number(number: str) -> str:
    """3201**********1232: the first 4 and last 4 characters, the rest hidden.

    Four, not six: the first six name the county, which with the name and the last
    four narrows a person down too far for a page that every reader sees."""
    if len(number) <= 8:
        return "*" * len(number)
    return number[:4] + "*" * (len(number) - 8) + number[-4:]


def name_pinyin(name: str) -> str:
    """The sort key of a Chinese name: its pinyin, lower case (赵会员 -> "zhao hui yuan")."""
    return " ".join(" ".join(lazy_pinyin(name)).split()).lower()


def photo_upload_to(instance: Any, filename: str) -> str:
    # A random name: the file name must not tell whose face it is.
    suffix = PurePosixPath(filename).suffix.lower() or ".jpg"
    return f"members/photos/{uuid.uuid4().hex}{suffix}"


class Member(models.Model):
    room = room_field()
    name = models.CharField(_("name"), max_length=50)
    # The name in pinyin ("zhao hui yuan"), kept by the services: lists sort by it.
    name_pinyin = models.CharField(_("name in pinyin"), max_length=300, blank=True, editable=False)
    phone = models.CharField(_("phone"), max_length=20)
    # 居民身份证号码 (18 characters, checked by services.member_create), never in clear:
    # encrypted (Fernet) and stood for by its keyed hash (HMAC), clubapp/members/crypto.py.
    # Read and set it through the ``id_number`` property.
    id_number_encrypted = models.TextField(_("ID card number (encrypted)"), editable=False)
    id_number_hash = models.CharField(
        _("ID card number (keyed hash)"), max_length=64, editable=False
    )
    photo = models.ImageField(_("photo"), upload_to=photo_upload_to, blank=True)
    # The member's own login, to see their card and visits; optional.
    user = models.OneToOneField(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="member",
        verbose_name=_("account"),
    )
    created_at = models.DateTimeField(_("created at"), auto_now_add=True)

    class Meta:
        verbose_name = _("member")
        verbose_name_plural = _("members")
        ordering = ["name_pinyin", "name", "pk"]
        indexes = [models.Index(fields=["room", "name_pinyin"], name="members_member_room_pinyin")]
        constraints = [
            # On the hash, never the number: PostgreSQL's unique-violation message (and
            # so its log) repeats the key's value.
            models.UniqueConstraint(
                fields=["room", "id_number_hash"], name="members_member_id_hash_unique_in_room"
            ),
            models.CheckConstraint(
                condition=~models.Q(name="")
                & ~models.Q(id_number_encrypted="")
                & ~models.Q(id_number_hash=""),
                name="members_member_name_and_id_present",
            ),
        ]

    def __str__(self) -> str:
        return self.name

    def __repr__(self) -> str:
        # Never the ID number, even in a traceback.
        return f"<Member {self.pk}: {self.name}>"

    def get_absolute_url(self) -> str:
        return reverse("members:member_detail", args=[self.pk])

    @property
    def id_number(self) -> str:
        """The number in clear (decrypted on each read; never store or log it)."""
        return id_number_decrypt(self.id_number_encrypted) if self.id_number_encrypted else ""

    @id_number.setter
    def id_number(self, number: str) -> None:
        self.id_number_encrypted = id_number_encrypt(number)
        self.id_number_hash = id_number_digest(number)

    @property
    def id_number_masked(self) -> str:
        return mask_id_number(self.id_number)


class CardStatus(models.TextChoices):
    """What is stored. "Expired" is not stored: it is an active card past its date."""

    ACTIVE = "active", _("Active")
    SUSPENDED = "suspended", _("Suspended")
    REVOKED = "revoked", _("Revoked")
    VOID = "void", _("Void (reissued)")


class CardState(models.TextChoices):
    """What the desk sees: the stored status, with expiry worked out on the day."""

    ACTIVE = "active", _("Active")
    EXPIRED = "expired", _("Expired")
    SUSPENDED = "suspended", _("Suspended")
    REVOKED = "revoked", _("Revoked")
    VOID = "void", _("Void (reissued)")


LIVE_STATUSES = [CardStatus.ACTIVE, CardStatus.SUSPENDED]


class Card(models.Model):
    """会员证: one person, one card; numbered per room and year (2026-0001)."""

    room = room_field()
    member = models.ForeignKey(
        Member, on_delete=models.PROTECT, related_name="cards", verbose_name=_("member")
    )
    number = models.CharField(_("card number"), max_length=20)
    status = models.CharField(
        _("status"), max_length=10, choices=CardStatus.choices, default=CardStatus.ACTIVE
    )
    issued_on = models.DateField(_("issued on"))
    valid_until = models.DateField(_("valid until"))
    status_reason = models.CharField(_("reason"), max_length=200, blank=True)
    status_changed_at = models.DateTimeField(_("status changed at"), null=True, blank=True)
    replaces = models.OneToOneField(
        "self",
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="replaced_by",
        verbose_name=_("replaces card"),
    )
    created_at = models.DateTimeField(_("created at"), auto_now_add=True)
    # The issue or reissue form's key: sent twice, one card (core.requestkeys).
    request_key = models.UUIDField(_("request key"), null=True, blank=True, editable=False)

    class Meta:
        verbose_name = _("membership card")
        verbose_name_plural = _("membership cards")
        ordering = ["-issued_on", "-pk"]
        indexes = [models.Index(fields=["room", "valid_until"], name="members_card_room_until")]
        constraints = [
            # Each room numbers its own cards: two rooms both have their 2026-0001.
            models.UniqueConstraint(fields=["room", "number"], name="members_card_number_in_room"),
            models.UniqueConstraint(
                fields=["request_key"],
                condition=models.Q(request_key__isnull=False),
                name="members_card_request_key_unique",
            ),
            # One person, one card: at most one active or suspended card per member.
            models.UniqueConstraint(
                fields=["member"],
                condition=models.Q(status__in=["active", "suspended"]),
                name="members_card_one_live_card_per_member",
            ),
            models.CheckConstraint(
                condition=models.Q(valid_until__gte=models.F("issued_on")),
                name="members_card_valid_after_issue",
            ),
            models.CheckConstraint(
                condition=~models.Q(status="revoked") | ~models.Q(status_reason=""),
                name="members_card_revoked_has_reason",
            ),
        ]

    def __str__(self) -> str:
        return self.number

    def state_on(self, day: dt.date) -> CardState:
        if self.status == CardStatus.ACTIVE and self.valid_until < day:
            return CardState.EXPIRED
        return CardState(self.status)

    @property
    def state(self) -> CardState:
        return self.state_on(timezone.localdate())


class Table(models.Model):
    """A mahjong table of the room. ``occupied`` is set at the desk; ``in_play`` by the
    play app while a table session is open at it (docs/members.md)."""

    room = room_field()
    number = models.PositiveSmallIntegerField(_("table number"))
    # What the room calls it ("靠窗", "包间"); the number is shown when blank.
    name = models.CharField(_("table name"), max_length=30, blank=True)
    active = models.BooleanField(_("in use"), default=True)
    occupied = models.BooleanField(_("occupied"), default=False)
    in_play = models.BooleanField(_("in play"), default=False)

    class Meta:
        verbose_name = _("table")
        verbose_name_plural = _("tables")
        ordering = ["number"]
        constraints = [
            models.UniqueConstraint(fields=["room", "number"], name="members_table_number_unique"),
            # Two tables of a room are never called the same ("包间" twice); unnamed ones are
            # told apart by their number.
            models.UniqueConstraint(
                fields=["room", "name"],
                condition=~models.Q(name=""),
                name="members_table_name_unique",
            ),
        ]

    def __str__(self) -> str:
        return self.label

    @property
    def label(self) -> str:
        """What the desk and the players see: "3号桌", or "3号桌 靠窗" when named."""
        number = _("Table %(n)s") % {"n": self.number}
        return f"{number} {self.name}" if self.name else str(number)


class Visit(models.Model):
    """One stay in the room: a member (free) or a non-member (billed at check-out)."""

    room = room_field()
    member = models.ForeignKey(
        Member,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="visits",
        verbose_name=_("member"),
    )
    card = models.ForeignKey(
        Card,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="visits",
        verbose_name=_("card"),
    )
    guest_name = models.CharField(_("non-member name"), max_length=50, blank=True)
    guest_phone = models.CharField(_("non-member phone"), max_length=20, blank=True)
    # From the check-in form: a double submit finds the visit of the first (unique).
    request_key = models.UUIDField(
        _("request key"), null=True, blank=True, unique=True, editable=False
    )
    checked_in_at = models.DateTimeField(_("checked in at"))
    checked_out_at = models.DateTimeField(_("checked out at"), null=True, blank=True)
    hours_billed = models.PositiveSmallIntegerField(_("hours billed"), null=True, blank=True)
    fee = models.DecimalField(
        _("fee (yuan)"), max_digits=10, decimal_places=2, null=True, blank=True
    )
    checked_in_by = by_field(_("checked in by"))
    checked_out_by = by_field(_("checked out by"), null=True)
    # 闭馆后补记: when the desk recorded a check-out it dated earlier (the time the
    # person left, e.g. the closing time); empty for a check-out recorded as it happened.
    checked_out_recorded_at = models.DateTimeField(
        _("check-out recorded at"), null=True, blank=True
    )
    # 特殊情况: a check-in outside the opening hours, admitted by a manager with a reason.
    admitted_reason = models.CharField(_("special admission reason"), max_length=200, blank=True)
    admitted_by = by_field(_("admitted by"), null=True)

    class Meta:
        verbose_name = _("visit")
        verbose_name_plural = _("visits")
        ordering = ["-checked_in_at", "-pk"]
        indexes = [models.Index(fields=["room", "checked_in_at"], name="members_visit_room_in")]
        constraints = [
            models.CheckConstraint(
                condition=models.Q(checked_out_at__isnull=True)
                | models.Q(checked_out_at__gte=models.F("checked_in_at")),
                name="members_visit_out_after_in",
            ),
            models.CheckConstraint(
                condition=models.Q(fee__isnull=True) | models.Q(fee__gte=0),
                name="members_visit_fee_not_negative",
            ),
            # Either a member with a card, or a named non-member.
            models.CheckConstraint(
                condition=(
                    models.Q(member__isnull=False, card__isnull=False, guest_name="")
                    | (models.Q(member__isnull=True, card__isnull=True) & ~models.Q(guest_name=""))
                ),
                name="members_visit_member_or_guest",
            ),
            # A special admission names who admitted and why, both or neither.
            models.CheckConstraint(
                condition=models.Q(admitted_by__isnull=True, admitted_reason="")
                | (models.Q(admitted_by__isnull=False) & ~models.Q(admitted_reason="")),
                name="members_visit_admission_reason",
            ),
            # A member already inside cannot check in again.
            models.UniqueConstraint(
                fields=["member"],
                condition=models.Q(checked_out_at__isnull=True, member__isnull=False),
                name="members_visit_one_open_per_member",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.visitor_name} {timezone.localtime(self.checked_in_at):%Y-%m-%d %H:%M}"

    def get_absolute_url(self) -> str:
        return reverse("members:visit_detail", args=[self.pk])

    @property
    def is_guest(self) -> bool:
        return self.member_id is None

    @property
    def visitor_name(self) -> str:
        return self.member.name if self.member is not None else self.guest_name

    @property
    def is_open(self) -> bool:
        return self.checked_out_at is None

    @property
    def is_special_admission(self) -> bool:
        return bool(self.admitted_reason)

    @property
    def stay(self) -> dt.timedelta | None:
        """How long a closed visit lasted (None while open)."""
        return self.checked_out_at - self.checked_in_at if self.checked_out_at else None


class ReceiptKind(models.TextChoices):
    CARD = "card", _("Card fee")
    RENEWAL = "renewal", _("Yearly review fee")
    REISSUE = "reissue", _("Card reissue fee")
    GUEST = "guest", _("Non-member equipment fee")


class Receipt(AppendOnlyModel):
    """收据: one for every fee paid, numbered per room and year (R2026-00001). Never changed."""

    room = room_field()
    number = models.CharField(_("receipt number"), max_length=20)
    kind = models.CharField(_("kind"), max_length=10, choices=ReceiptKind.choices)
    amount = models.DecimalField(_("amount (yuan)"), max_digits=10, decimal_places=2)
    payer = models.CharField(_("paid by"), max_length=50)
    member = models.ForeignKey(
        Member,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="receipts",
        verbose_name=_("member"),
    )
    card = models.ForeignKey(
        Card,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="receipts",
        verbose_name=_("card"),
    )
    visit = models.OneToOneField(
        Visit,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="receipt",
        verbose_name=_("visit"),
    )
    paid_at = models.DateTimeField(_("paid at"))
    received_by = by_field(_("received by"))
    # The renewal or check-out form's key: sent twice, one receipt (core.requestkeys).
    request_key = models.UUIDField(_("request key"), null=True, blank=True, editable=False)

    class Meta:
        verbose_name = _("receipt")
        verbose_name_plural = _("receipts")
        ordering = ["-paid_at", "-pk"]
        indexes = [models.Index(fields=["room", "paid_at"], name="members_receipt_room_paid")]
        constraints = [
            models.UniqueConstraint(
                fields=["room", "number"], name="members_receipt_number_in_room"
            ),
            # Conditional, so that adding it keeps the table (and its triggers) on SQLite.
            models.UniqueConstraint(
                fields=["request_key"],
                condition=models.Q(request_key__isnull=False),
                name="members_receipt_request_key_unique",
            ),
            models.CheckConstraint(
                condition=models.Q(amount__gt=0), name="members_receipt_amount_positive"
            ),
        ]

    def __str__(self) -> str:
        return self.number

    def get_absolute_url(self) -> str:
        return reverse("members:receipt_detail", args=[self.number])


class IdNumberReveal(AppendOnlyModel):
    """身份证号查看记录: a manager asked to see a member's full ID number. Never changed.

    The number is masked on every page; the "show" action on the member page writes
    one of these rows before it shows the number, and the member page lists them
    (who, when). The member row stands for the number: it is never edited."""

    room = room_field()
    member = models.ForeignKey(
        Member,
        on_delete=models.PROTECT,
        related_name="id_number_reveals",
        verbose_name=_("member"),
    )
    by = by_field(_("seen by"))
    at = models.DateTimeField(_("seen at"))

    class Meta:
        verbose_name = _("ID number viewing")
        verbose_name_plural = _("ID number viewings")
        ordering = ["-at", "-pk"]

    def __str__(self) -> str:
        return f"{self.member} {self.at:%Y-%m-%d %H:%M}"


class Weekday(models.IntegerChoices):
    MONDAY = 0, _("Monday")
    TUESDAY = 1, _("Tuesday")
    WEDNESDAY = 2, _("Wednesday")
    THURSDAY = 3, _("Thursday")
    FRIDAY = 4, _("Friday")
    SATURDAY = 5, _("Saturday")
    SUNDAY = 6, _("Sunday")


class OpeningPeriod(models.Model):
    """One period of the weekly schedule; a weekday without periods is closed."""

    room = room_field()
    weekday = models.PositiveSmallIntegerField(_("weekday"), choices=Weekday.choices)
    opens = models.TimeField(_("opens"))
    closes = models.TimeField(_("closes"))

    class Meta:
        verbose_name = _("opening period")
        verbose_name_plural = _("weekly opening hours")
        ordering = ["weekday", "opens"]
        constraints = [
            models.CheckConstraint(
                condition=models.Q(opens__lt=models.F("closes"), closes__lte=LATEST_CLOSING),
                name="members_openingperiod_opens_before_closes",
            ),
            models.CheckConstraint(
                condition=models.Q(weekday__gte=0, weekday__lte=6),
                name="members_openingperiod_weekday_range",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.get_weekday_display()} {self.opens:%H:%M}-{self.closes:%H:%M}"


class ExceptionKind(models.TextChoices):
    CLOSED = "closed", _("Closed all day")
    OPEN = "open", _("Extra opening")


class OpeningException(models.Model):
    """A dated change: closed all day, or an extra period (an evening, up to 23:00)."""

    room = room_field()
    date = models.DateField(_("date"))
    kind = models.CharField(_("kind"), max_length=10, choices=ExceptionKind.choices)
    opens = models.TimeField(_("opens"), null=True, blank=True)
    closes = models.TimeField(_("closes"), null=True, blank=True)
    note = models.CharField(_("note"), max_length=200, blank=True)

    class Meta:
        verbose_name = _("opening exception")
        verbose_name_plural = _("opening exceptions")
        ordering = ["date", "opens"]
        indexes = [models.Index(fields=["room", "date"], name="members_openingexc_room_date")]
        constraints = [
            models.CheckConstraint(
                condition=models.Q(kind="closed", opens__isnull=True, closes__isnull=True)
                | models.Q(
                    kind="open",
                    opens__isnull=False,
                    closes__isnull=False,
                    opens__lt=models.F("closes"),
                    closes__lte=LATEST_CLOSING,
                ),
                name="members_openingexception_period_valid",
            ),
        ]

    def __str__(self) -> str:
        if self.kind == ExceptionKind.CLOSED:
            return f"{self.date} {self.get_kind_display()}"
        assert self.opens is not None and self.closes is not None
        return f"{self.date} {self.opens:%H:%M}-{self.closes:%H:%M}"


# The weekly schedule of the regulations (篇三 三), used while a room has no
# periods of its own: closed on Wednesday, 9:00-12:00 and 13:00-18:00 otherwise.
DEFAULT_WEEKLY_PERIODS: list[tuple[int, dt.time, dt.time]] = [
    (day, opens, closes)
    for day in range(7)
    if day != Weekday.WEDNESDAY
    for opens, closes in ((dt.time(9), dt.time(12)), (dt.time(13), dt.time(18)))
]

ZERO = Decimal("0.00")
