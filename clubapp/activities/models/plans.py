"""活动计划: a month's or a quarter's activities, drafted by a manager, approved by an
approver who is not the drafter (篇三 五.5).

A plan (``ActivityPlan``: a room and a period) has versions. A version is drafted
(its ``DraftActivity`` rows change freely), then submitted: the rows are copied into
append-only ``PlannedActivity`` rows and ``VersionSubmission``, and the draft rows
go. The approver's ``VersionDecision`` is append-only too. An approved version
changes only by a new version, drafted from it, submitted and approved again; the
plan's activities are those of its last approved version. The state is read from
those rows, never stored.
"""

from __future__ import annotations

from django.db import models
from django.utils.translation import gettext_lazy as _

from clubapp.activities.models.common import ActivityKind
from clubapp.books.models.base import MONEY
from clubapp.core.appendonly import AppendOnlyModel
from clubapp.core.models import by_field, room_field


class PlanPeriod(models.TextChoices):
    MONTH = "month", _("Month")
    QUARTER = "quarter", _("Quarter")


class VersionState(models.TextChoices):
    DRAFT = "draft", _("Draft")
    SUBMITTED = "submitted", _("Submitted")
    APPROVED = "approved", _("Approved")
    REJECTED = "rejected", _("Rejected")


class ActivityPlan(models.Model):
    """The plan of one period (a month, or a quarter starting on its first month)."""

    room = room_field()
    period = models.CharField(_("period"), max_length=10, choices=PlanPeriod.choices)
    #: the first day of the month or quarter
    starts = models.DateField(_("starts"))
    created_at = models.DateTimeField(_("created at"))
    created_by = by_field(_("created by"))

    class Meta:
        verbose_name = _("activity plan")
        verbose_name_plural = _("activity plans")
        ordering = ["-starts", "period"]
        constraints = [
            models.UniqueConstraint(
                fields=["room", "period", "starts"], name="activities_plan_one_per_period"
            ),
            models.CheckConstraint(
                condition=models.Q(period__in=PlanPeriod.values),
                name="activities_plan_period_valid",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.starts:%Y-%m} {self.get_period_display()}"


class PlanVersion(models.Model):
    """One version of a plan; version 1 is the first draft."""

    room = room_field()
    plan = models.ForeignKey(
        ActivityPlan, on_delete=models.PROTECT, related_name="versions", verbose_name=_("plan")
    )
    number = models.PositiveSmallIntegerField(_("version"))
    #: why this version replaces the last approved one (empty for version 1)
    reason = models.CharField(_("reason for the new version"), max_length=200, blank=True)
    drafted_by = by_field(_("drafted by"))
    created_at = models.DateTimeField(_("created at"))

    class Meta:
        verbose_name = _("plan version")
        verbose_name_plural = _("plan versions")
        ordering = ["plan", "number"]
        constraints = [
            models.UniqueConstraint(fields=["plan", "number"], name="activities_version_unique"),
            models.CheckConstraint(
                condition=models.Q(number__gte=1), name="activities_version_from_one"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.plan} v{self.number}"


class ActivityFields(models.Model):
    """One planned activity: when, what, which games, how many, what it costs."""

    room = room_field()
    position = models.PositiveSmallIntegerField(_("line"))
    date = models.DateField(_("date"))
    kind = models.CharField(_("kind"), max_length=20, choices=ActivityKind.choices)
    title = models.CharField(_("title"), max_length=100)
    #: Game codes (models.common.Game), at least one
    games = models.JSONField(_("games"), default=list)
    expected = models.PositiveSmallIntegerField(_("expected attendance"))
    budget = models.DecimalField(_("budget (yuan)"), default=0, **MONEY)
    #: the purchase plan (books) that buys what the budget needs, when it needs buying
    purchase_plan = models.ForeignKey(
        "books.PurchasePlan",
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("purchase plan"),
    )

    class Meta:
        abstract = True
        ordering = ["date", "position"]


class DraftActivity(ActivityFields):
    """A line of a draft version; deleted when the version is submitted."""

    version = models.ForeignKey(
        PlanVersion, on_delete=models.CASCADE, related_name="drafts", verbose_name=_("version")
    )

    class Meta(ActivityFields.Meta):
        verbose_name = _("draft activity")
        verbose_name_plural = _("draft activities")

    def __str__(self) -> str:
        return f"{self.date} {self.title}"


class PlannedActivity(ActivityFields, AppendOnlyModel):
    """A line of a submitted version, as submitted: never changed."""

    version = models.ForeignKey(
        PlanVersion, on_delete=models.PROTECT, related_name="activities", verbose_name=_("version")
    )

    class Meta(ActivityFields.Meta):
        verbose_name = _("planned activity")
        verbose_name_plural = _("planned activities")
        indexes = [models.Index(fields=["room", "date"], name="activities_planned_room_date")]
        constraints = [
            models.UniqueConstraint(
                fields=["version", "position"], name="activities_planned_position_unique"
            ),
            models.CheckConstraint(
                condition=models.Q(budget__gte=0), name="activities_planned_budget_not_negative"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.date} {self.title}"


class VersionSubmission(AppendOnlyModel):
    room = room_field()
    version = models.OneToOneField(
        PlanVersion, on_delete=models.PROTECT, related_name="submission", verbose_name=_("version")
    )
    submitted_by = by_field(_("submitted by"))
    submitted_at = models.DateTimeField(_("submitted at"))
    budget = models.DecimalField(_("budget (yuan)"), **MONEY)

    class Meta:
        verbose_name = _("plan submission")
        verbose_name_plural = _("plan submissions")

    def __str__(self) -> str:
        return str(self.version)


class VersionDecision(AppendOnlyModel):
    """The approver's decision on a submitted version: approved or rejected, once."""

    room = room_field()
    version = models.OneToOneField(
        PlanVersion, on_delete=models.PROTECT, related_name="decision", verbose_name=_("version")
    )
    approved = models.BooleanField(_("approved"))
    note = models.CharField(_("note"), max_length=200, blank=True)
    decided_by = by_field(_("decided by"))
    decided_at = models.DateTimeField(_("decided at"))

    class Meta:
        verbose_name = _("plan decision")
        verbose_name_plural = _("plan decisions")

    def __str__(self) -> str:
        return f"{self.version}: {'approved' if self.approved else 'rejected'}"
