"""购置计划: purchase plans, drafted by a manager, approved by an approver.

While a plan is a draft, its header (``PurchasePlan``) and its ``PlanDraftLine`` rows
may change. Submitting copies them into append-only rows (``PlanSubmission`` and its
``PlanLine`` rows) and deletes the draft lines; the decision (``PlanDecision``) and
the completion (``PlanCompletion``) are append-only rows of their own, one each. So
what was submitted, approved or rejected can never change afterwards, and the
database refuses it too. Expenses are booked against a ``PlanLine``.

The state is not stored: it is read from those rows (``PlanState``,
``books.selectors.plan_list``).
"""

from __future__ import annotations

from django.db import models
from django.urls import reverse
from django.utils.translation import gettext_lazy as _

from clubapp.books.models.base import MONEY, per_room, positive, room_index
from clubapp.core.appendonly import AppendOnlyModel
from clubapp.core.models import by_field, room_field


class ExpenseCategory(models.TextChoices):
    """What a room buys (篇三 五.7: 棋类、扑克、纯净水等易损器材、设施)."""

    CHESS = "chess", _("Chess and board games")
    CARDS = "cards", _("Playing cards")
    MAHJONG = "mahjong", _("Mahjong")
    CONSUMABLES = "consumables", _("Drinking water and consumables")
    FACILITIES = "facilities", _("Facilities")
    OTHER = "other", _("Other")


# 器材损耗费 "全部用于本活动室器材的更换和设施的改善" (篇三 四.3): the equipment fund
# pays for these lines.
FUND_CATEGORIES = (
    ExpenseCategory.CHESS,
    ExpenseCategory.CARDS,
    ExpenseCategory.MAHJONG,
    ExpenseCategory.FACILITIES,
)


class PlanState(models.TextChoices):
    DRAFT = "draft", _("Draft")
    SUBMITTED = "submitted", _("Submitted")
    APPROVED = "approved", _("Approved")
    REJECTED = "rejected", _("Rejected")
    IN_PROGRESS = "in_progress", _("In progress")
    DONE = "done", _("Done")


class PurchasePlan(models.Model):
    """A plan's header. Title and purpose change only while it is a draft."""

    room = room_field()
    number = models.CharField(_("plan number"), max_length=20)
    title = models.CharField(_("title"), max_length=100)
    purpose = models.TextField(_("purpose"), blank=True)
    drafted_by = by_field(_("drafted by"))
    created_at = models.DateTimeField(_("created at"))
    # A rejected plan copied into a new draft.
    copied_from = models.ForeignKey(
        "self",
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="copies",
        verbose_name=_("copied from"),
    )
    # A supplementary plan (补充计划) for lines that need more than was approved.
    supplement_for = models.ForeignKey(
        "self",
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="supplements",
        verbose_name=_("supplement to"),
    )

    class Meta:
        verbose_name = _("purchase plan")
        verbose_name_plural = _("purchase plans")
        ordering = ["-created_at", "-pk"]
        constraints = [
            models.CheckConstraint(
                condition=~models.Q(title=""), name="books_plan_title_not_blank"
            ),
            per_room("number", "books_plan_number_per_room"),
        ]
        indexes = [room_index("created_at", "books_plan_room_created")]

    def __str__(self) -> str:
        return f"{self.number} {self.title}"

    def get_absolute_url(self) -> str:
        return reverse("books:plan_detail", args=[self.pk])


class LineFields(models.Model):
    """A line of a plan: what, how many, at what estimated price, and why."""

    position = models.PositiveSmallIntegerField(_("line"))
    category = models.CharField(_("category"), max_length=20, choices=ExpenseCategory.choices)
    item = models.CharField(_("item"), max_length=100)
    quantity = models.DecimalField(_("quantity"), **MONEY)
    unit = models.CharField(_("unit"), max_length=10)
    unit_price = models.DecimalField(_("estimated unit price (yuan)"), **MONEY)
    reason = models.CharField(_("reason"), max_length=200, blank=True)

    class Meta:
        abstract = True
        ordering = ["position"]


class PlanDraftLine(LineFields):
    """A line while the plan is drafted; deleted when the plan is submitted."""

    room = room_field()
    plan = models.ForeignKey(
        PurchasePlan, on_delete=models.PROTECT, related_name="draft_lines", verbose_name=_("plan")
    )

    class Meta(LineFields.Meta):
        verbose_name = _("draft line")
        verbose_name_plural = _("draft lines")

    def __str__(self) -> str:
        return self.item


class PlanSubmission(AppendOnlyModel):
    """The plan as submitted, once: what the approver decides on."""

    room = room_field()
    plan = models.OneToOneField(
        PurchasePlan, on_delete=models.PROTECT, related_name="submission", verbose_name=_("plan")
    )
    title = models.CharField(_("title"), max_length=100)
    purpose = models.TextField(_("purpose"), blank=True)
    total = models.DecimalField(_("total (yuan)"), **MONEY)
    submitted_by = by_field(_("submitted by"))
    submitted_at = models.DateTimeField(_("submitted at"))

    class Meta:
        verbose_name = _("submitted plan")
        verbose_name_plural = _("submitted plans")
        constraints = [positive("total", "books_plansubmission_total_positive")]

    def __str__(self) -> str:
        return f"{self.plan_id}: {self.total}"


class PlanLine(LineFields, AppendOnlyModel):
    """A submitted line, frozen: expenses are booked against it, up to its amount."""

    room = room_field()
    submission = models.ForeignKey(
        PlanSubmission, on_delete=models.PROTECT, related_name="lines", verbose_name=_("plan")
    )
    amount = models.DecimalField(_("amount (yuan)"), **MONEY)

    class Meta(LineFields.Meta):
        verbose_name = _("plan line")
        verbose_name_plural = _("plan lines")
        constraints = [
            positive("quantity", "books_planline_quantity_positive"),
            positive("unit_price", "books_planline_unit_price_positive"),
            positive("amount", "books_planline_amount_positive"),
            models.UniqueConstraint(
                fields=["submission", "position"], name="books_planline_position_unique"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.item} {self.amount}"


class PlanOutcome(models.TextChoices):
    APPROVED = "approved", _("Approved")
    REJECTED = "rejected", _("Rejected")


class PlanDecision(AppendOnlyModel):
    """An approver's decision on a submitted plan, once, with a comment."""

    room = room_field()
    submission = models.OneToOneField(
        PlanSubmission, on_delete=models.PROTECT, related_name="decision", verbose_name=_("plan")
    )
    outcome = models.CharField(_("decision"), max_length=10, choices=PlanOutcome.choices)
    comment = models.CharField(_("comment"), max_length=200, blank=True)
    decided_by = by_field(_("decided by"))
    decided_at = models.DateTimeField(_("decided at"))

    class Meta:
        verbose_name = _("plan decision")
        verbose_name_plural = _("plan decisions")
        constraints = [
            models.CheckConstraint(
                condition=models.Q(outcome="approved") | ~models.Q(comment=""),
                name="books_plandecision_rejection_has_comment",
            )
        ]

    def __str__(self) -> str:
        return f"{self.submission_id}: {self.outcome}"


class PlanCompletion(AppendOnlyModel):
    """完成: an approved plan is carried out; no more expenses on it."""

    room = room_field()
    submission = models.OneToOneField(
        PlanSubmission, on_delete=models.PROTECT, related_name="completion", verbose_name=_("plan")
    )
    completed_by = by_field(_("completed by"))
    completed_at = models.DateTimeField(_("completed at"))
    note = models.CharField(_("note"), max_length=200, blank=True)

    class Meta:
        verbose_name = _("plan completion")
        verbose_name_plural = _("plan completions")

    def __str__(self) -> str:
        return str(self.submission_id)
