"""The duty roster and leave (篇三 五.3: 严格请销假制度，按时上下班，确保活动室正常开放).

Staff are the users with the manager role. ``RosterEntry`` puts one on duty on a day
the room opens; ``DutySign`` rows (append-only) are their sign-on and sign-off, once
each a day. Leave is requested (``Leave``), decided by an approver who is not the
requester (``LeaveDecision``, append-only), and closed when the person is back
(``LeaveReturn``, 销假, append-only). Approved leave takes the person off the roster
of its days, and the cover named in the request takes the duty.
"""

from __future__ import annotations

from django.db import models
from django.utils.translation import gettext_lazy as _

from clubapp.core.appendonly import AppendOnlyModel
from clubapp.core.models import by_field, room_field


class RosterEntry(models.Model):
    room = room_field()
    date = models.DateField(_("date"))
    user = by_field(_("on duty"))
    created_by = by_field(_("created by"))
    created_at = models.DateTimeField(_("created at"))

    class Meta:
        verbose_name = _("roster entry")
        verbose_name_plural = _("roster entries")
        ordering = ["date", "user_id"]
        constraints = [
            models.UniqueConstraint(
                fields=["room", "date", "user"], name="activities_roster_once_a_day"
            )
        ]

    def __str__(self) -> str:
        return f"{self.date} {self.user_id}"


class SignKind(models.TextChoices):
    ON = "on", _("Signed on")
    OFF = "off", _("Signed off")


class DutySign(AppendOnlyModel):
    room = room_field()
    date = models.DateField(_("date"))
    user = by_field(_("staff"))
    kind = models.CharField(_("kind"), max_length=3, choices=SignKind.choices)
    at = models.DateTimeField(_("at"))

    class Meta:
        verbose_name = _("duty sign")
        verbose_name_plural = _("duty signs")
        ordering = ["date", "at"]
        constraints = [
            models.UniqueConstraint(
                fields=["room", "date", "user", "kind"], name="activities_sign_once_a_day"
            ),
            models.CheckConstraint(
                condition=models.Q(kind__in=SignKind.values), name="activities_sign_kind_valid"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.date} {self.user_id} {self.kind}"


class Leave(models.Model):
    room = room_field()
    user = by_field(_("staff"))
    starts = models.DateField(_("from"))
    ends = models.DateField(_("to"))
    reason = models.CharField(_("reason"), max_length=200)
    #: who takes the duty of the leave's days
    cover = by_field(_("covered by"), null=True)
    requested_at = models.DateTimeField(_("requested at"))

    class Meta:
        verbose_name = _("leave")
        verbose_name_plural = _("leave")
        ordering = ["-starts", "-pk"]
        indexes = [models.Index(fields=["room", "starts"], name="activities_leave_room_starts")]
        constraints = [
            models.CheckConstraint(
                condition=models.Q(ends__gte=models.F("starts")),
                name="activities_leave_ends_after_start",
            ),
            models.CheckConstraint(
                condition=~models.Q(reason=""), name="activities_leave_reason_not_blank"
            ),
            models.CheckConstraint(
                condition=~models.Q(cover=models.F("user")),
                name="activities_leave_cover_is_someone_else",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.user_id} {self.starts}–{self.ends}"


class LeaveDecision(AppendOnlyModel):
    room = room_field()
    leave = models.OneToOneField(
        Leave, on_delete=models.PROTECT, related_name="decision", verbose_name=_("leave")
    )
    approved = models.BooleanField(_("approved"))
    note = models.CharField(_("note"), max_length=200, blank=True)
    decided_by = by_field(_("decided by"))
    decided_at = models.DateTimeField(_("decided at"))

    class Meta:
        verbose_name = _("leave decision")
        verbose_name_plural = _("leave decisions")

    def __str__(self) -> str:
        return f"{self.leave}: {'approved' if self.approved else 'refused'}"


class LeaveReturn(AppendOnlyModel):
    """销假: back at work on ``back_on`` (on or before the leave's last day + 1)."""

    room = room_field()
    leave = models.OneToOneField(
        Leave, on_delete=models.PROTECT, related_name="back", verbose_name=_("leave")
    )
    back_on = models.DateField(_("back on"))
    recorded_by = by_field(_("recorded by"))
    recorded_at = models.DateTimeField(_("recorded at"))

    class Meta:
        verbose_name = _("return from leave")
        verbose_name_plural = _("returns from leave")

    def __str__(self) -> str:
        return f"{self.leave} back {self.back_on}"
