"""The rooms, each user's room, document counters, and the fields every app uses.

One deployment serves many rooms (docs/rooms.md): every row that belongs to a room
carries ``room`` (:func:`room_field`), and each request works in one room, resolved
once by ``clubapp.core.rooms.RoomMiddleware``.
"""

from __future__ import annotations

from decimal import Decimal
from typing import TYPE_CHECKING, Any, Literal, overload

from django.conf import settings
from django.core.validators import MaxValueValidator, MinValueValidator
from django.db import models
from django.utils.translation import gettext_lazy as _

if TYPE_CHECKING:
    from django.contrib.auth.models import User
    from django.db.models.expressions import Combinable
    from django_stubs_ext import StrOrPromise

DEFAULT_ROOM_SLUG = "main"

# 入室须知 of the room's regulations (篇三 四, points 4-8): room data, edited on the
# settings page, so it is not a translated string.
DEFAULT_ROOM_NOTICE = (
    "注意仪表，谢绝穿短裤、背心、拖鞋入场。\n"
    "注意环境卫生，不随地吐痰、乱扔垃圾。\n"
    "爱护公物，保持室内器材完好无损，故意损坏公物并造成损失的按价赔偿。\n"
    "请勿吸烟，共建无烟活动室。\n"
    "文明活动，严禁赌博或变相赌博、寻衅滋事，如有发现即取消会员资格。"
)


@overload
def by_field(
    verbose_name: StrOrPromise, *, null: Literal[False] = False
) -> models.ForeignKey[User | Combinable, User]: ...
@overload
def by_field(
    verbose_name: StrOrPromise, *, null: Literal[True]
) -> models.ForeignKey[User | Combinable | None, User | None]: ...
def by_field(verbose_name: StrOrPromise, *, null: bool = False) -> models.ForeignKey[Any, Any]:
    """Who did it (``created_by``, ``recorded_by``, ``confirmed_by``, …): a user the row
    keeps (PROTECT: an account that booked something is never deleted), with no reverse
    accessor on the user. ``null`` when the row may have nobody there (then also blank).

    The overloads only tell mypy what the field holds, as it would see a ForeignKey
    written out in the model."""
    return models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        null=null,
        blank=null,
        related_name="+",
        verbose_name=verbose_name,
    )


def room_field() -> models.ForeignKey[Any, Any]:
    """The room a row belongs to: set when the row is made, never changed (a trigger
    refuses it), the same as the room of every room-keyed row it points to (triggers
    too: ``clubapp.core.roomguards``). PROTECT: a room with rows is never deleted."""
    return models.ForeignKey(
        "core.Room",
        on_delete=models.PROTECT,
        related_name="+",
        verbose_name=_("room"),
    )


class RoomManager(models.Manager["Room"]):
    def get_by_natural_key(self, slug: str) -> Room:
        return self.get(slug=slug)


class Room(models.Model):
    slug = models.SlugField(_("code"), max_length=50, unique=True, default=DEFAULT_ROOM_SLUG)
    name = models.CharField(_("name"), max_length=100)
    # The host name that serves this room alone (room-a.example); empty: the room is
    # found from the signed-in user's room (clubapp/core/rooms.py).
    host = models.CharField(_("host name"), max_length=200, blank=True, default="", db_index=True)
    address = models.CharField(_("address"), max_length=200, blank=True)
    phone = models.CharField(_("phone"), max_length=40, blank=True)
    # Fees of the room's regulations (篇三 四): the card's 工本费, the yearly review
    # (年审), and the non-members' 器材损耗费 per started hour (docs/members.md).
    card_fee = models.DecimalField(
        _("card fee (yuan)"),
        max_digits=10,
        decimal_places=2,
        default=Decimal("50.00"),
        validators=[MinValueValidator(Decimal("0"))],
    )
    renewal_fee = models.DecimalField(
        _("yearly review fee (yuan)"),
        max_digits=10,
        decimal_places=2,
        default=Decimal("0.00"),
        validators=[MinValueValidator(Decimal("0"))],
    )
    guest_hourly_fee = models.DecimalField(
        _("non-member fee per hour (yuan)"),
        max_digits=10,
        decimal_places=2,
        default=Decimal("2.00"),
        validators=[MinValueValidator(Decimal("0"))],
    )
    notice = models.TextField(_("room notice"), blank=True, default=DEFAULT_ROOM_NOTICE)
    # 年审 is for cards near their end: this many days before it (docs/members.md).
    renewal_window_days = models.PositiveSmallIntegerField(
        _("yearly review from (days before the end)"), default=30
    )
    # 及时入账 (篇三 五.6): a receipt not handed over (缴款) within this many days is
    # flagged late on the desk page (docs/books.md).
    handover_limit_days = models.PositiveSmallIntegerField(
        _("hand-over limit (days)"),
        default=7,
        validators=[MinValueValidator(1), MaxValueValidator(90)],
    )
    # 器材基金: whether an expense (or a plan's approval) may leave the equipment fund
    # below zero, the unit's funds paying the rest (docs/books.md).
    fund_may_go_negative = models.BooleanField(
        _("the equipment fund may go below zero"), default=True
    )
    # The ruleset a new table starts with (a scoring ruleset id; empty: the first).
    default_ruleset = models.CharField(_("default ruleset"), max_length=60, blank=True)

    objects = RoomManager()

    class Meta:
        verbose_name = _("room")
        verbose_name_plural = _("rooms")
        constraints = [
            models.CheckConstraint(condition=~models.Q(name=""), name="core_room_name_not_blank"),
            models.CheckConstraint(
                condition=models.Q(card_fee__gte=0)
                & models.Q(renewal_fee__gte=0)
                & models.Q(guest_hourly_fee__gte=0),
                name="core_room_fees_not_negative",
            ),
            models.CheckConstraint(
                condition=models.Q(handover_limit_days__gte=1, handover_limit_days__lte=90),
                name="core_room_handover_limit_range",
            ),
            models.UniqueConstraint(
                fields=["host"], condition=~models.Q(host=""), name="core_room_host_unique"
            ),
        ]

    def __str__(self) -> str:
        return self.name

    def natural_key(self) -> tuple[str]:
        return (self.slug,)


class UserRoom(models.Model):
    """The room an account belongs to: one room per user (a superuser may switch, in
    the session). A user without one is a district reader or not yet placed."""

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        primary_key=True,
        related_name="room_link",
        verbose_name=_("user"),
    )
    room = models.ForeignKey(
        Room, on_delete=models.PROTECT, related_name="+", verbose_name=_("room")
    )

    class Meta:
        verbose_name = _("user's room")
        verbose_name_plural = _("users' rooms")

    def __str__(self) -> str:
        return f"{self.user} @ {self.room}"


class DocumentCounter(models.Model):
    """The last number a room handed out in one series of documents ("receipt-2026",
    "card-2026"): each room numbers its own documents.

    Written only by ``clubapp.core.services.next_number``, under a row lock, so two
    desks never get the same receipt or card number and no number is skipped.
    """

    room = room_field()
    key = models.CharField(_("series"), max_length=50)
    value = models.PositiveIntegerField(_("last number"), default=0)

    class Meta:
        verbose_name = _("document counter")
        verbose_name_plural = _("document counters")
        constraints = [
            models.UniqueConstraint(fields=["room", "key"], name="core_counter_room_key_unique")
        ]

    def __str__(self) -> str:
        return f"{self.key}: {self.value}"
