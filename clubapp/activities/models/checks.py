"""The day's checks (篇三 五.4 卫生、安全保卫; 四.6 爱护公物; 四.7–8).

``CheckItem`` rows are room data the manager edits (lights, windows, fire exits,
equipment counted, tables clean), for the opening or the closing of a day. A tick
(``CheckTick``, append-only) says who checked an item on a day, and when. Damage to
the room's equipment (``Damage``) names the member who caused it and the
compensation (按价赔偿), booked as income with a receipt through the cash book. A
violation of the room's rules (``Violation``: 吸烟, 赌博, 寻衅滋事) is recorded
against a member; a gambling one revokes the member's card (四.8) through the
members app.
"""

from __future__ import annotations

from django.db import models
from django.utils.translation import gettext_lazy as _

from clubapp.books.models.base import MONEY
from clubapp.core.appendonly import AppendOnlyModel
from clubapp.core.models import by_field, room_field


class CheckPhase(models.TextChoices):
    OPENING = "opening", _("Opening")
    CLOSING = "closing", _("Closing")


class CheckItem(models.Model):
    room = room_field()
    phase = models.CharField(_("when"), max_length=10, choices=CheckPhase.choices)
    text = models.CharField(_("item"), max_length=100)
    position = models.PositiveSmallIntegerField(_("position"), default=0)
    #: an item no longer checked stays for the days it was
    active = models.BooleanField(_("checked"), default=True)
    #: the first day the item is checked, and the day it no longer is (set when it is
    #: deactivated): a day's missed items are those due on that day
    since = models.DateField(_("checked from"), null=True, blank=True)
    retired_on = models.DateField(_("no longer checked from"), null=True, blank=True)

    class Meta:
        verbose_name = _("check item")
        verbose_name_plural = _("check items")
        ordering = ["phase", "position", "pk"]
        constraints = [
            models.CheckConstraint(
                condition=~models.Q(text=""), name="activities_check_item_not_blank"
            ),
            models.CheckConstraint(
                condition=models.Q(phase__in=CheckPhase.values),
                name="activities_check_phase_valid",
            ),
        ]

    def __str__(self) -> str:
        return self.text


class CheckTick(AppendOnlyModel):
    room = room_field()
    date = models.DateField(_("date"))
    item = models.ForeignKey(
        CheckItem, on_delete=models.PROTECT, related_name="ticks", verbose_name=_("item")
    )
    by = by_field(_("checked by"))
    at = models.DateTimeField(_("checked at"))

    class Meta:
        verbose_name = _("check")
        verbose_name_plural = _("checks")
        ordering = ["date", "item"]
        indexes = [models.Index(fields=["room", "date"], name="activities_tick_room_date")]
        constraints = [
            models.UniqueConstraint(fields=["date", "item"], name="activities_tick_once_a_day")
        ]

    def __str__(self) -> str:
        return f"{self.date} {self.item_id}"


class Damage(AppendOnlyModel):
    room = room_field()
    date = models.DateField(_("date"))
    equipment = models.CharField(_("equipment"), max_length=100)
    member = models.ForeignKey(
        "members.Member",
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("caused by"),
    )
    notes = models.CharField(_("notes"), max_length=200, blank=True)
    compensation = models.DecimalField(_("compensation (yuan)"), default=0, **MONEY)
    #: the compensation's cash-book line, with its receipt
    income = models.OneToOneField(
        "books.IncomeEntry",
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("income"),
    )
    recorded_by = by_field(_("recorded by"))
    recorded_at = models.DateTimeField(_("recorded at"))

    class Meta:
        verbose_name = _("damage")
        verbose_name_plural = _("damage")
        ordering = ["-date", "-pk"]
        indexes = [models.Index(fields=["room", "date"], name="activities_damage_room_date")]
        constraints = [
            models.CheckConstraint(
                condition=models.Q(compensation__gte=0),
                name="activities_damage_compensation_not_negative",
            ),
            models.CheckConstraint(
                condition=models.Q(compensation=0) | models.Q(income__isnull=False),
                name="activities_damage_compensation_booked",
            ),
            models.CheckConstraint(
                condition=~models.Q(equipment=""), name="activities_damage_equipment_named"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.date} {self.equipment}"


class ViolationKind(models.TextChoices):
    SMOKING = "smoking", _("Smoking")
    GAMBLING = "gambling", _("Gambling")
    TROUBLE = "trouble", _("Picking quarrels")


class Violation(AppendOnlyModel):
    room = room_field()
    date = models.DateField(_("date"))
    member = models.ForeignKey(
        "members.Member", on_delete=models.PROTECT, related_name="+", verbose_name=_("member")
    )
    kind = models.CharField(_("kind"), max_length=20, choices=ViolationKind.choices)
    notes = models.CharField(_("what happened"), max_length=200)
    #: the card revoked for it (gambling: 取消会员资格)
    card = models.ForeignKey(
        "members.Card",
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("card revoked"),
    )
    recorded_by = by_field(_("recorded by"))
    recorded_at = models.DateTimeField(_("recorded at"))

    class Meta:
        verbose_name = _("violation")
        verbose_name_plural = _("violations")
        ordering = ["-date", "-pk"]
        indexes = [models.Index(fields=["room", "date"], name="activities_violation_room_date")]
        constraints = [
            models.CheckConstraint(
                condition=models.Q(kind__in=ViolationKind.values),
                name="activities_violation_kind_valid",
            ),
            models.CheckConstraint(
                condition=~models.Q(notes=""), name="activities_violation_notes_not_blank"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.date} {self.member_id} {self.kind}"
