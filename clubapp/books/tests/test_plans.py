"""购置计划: draft → submitted → approved / rejected → in progress → done, with history."""

from __future__ import annotations

from decimal import Decimal

import pytest
from django.core.exceptions import PermissionDenied, ValidationError
from django.db import IntegrityError, connection, transaction

from clubapp.books import selectors, services
from clubapp.books.models import (
    ExpenseCategory,
    PlanDecision,
    PlanDraftLine,
    PlanLine,
    PlanOutcome,
    PlanState,
    PlanSubmission,
    PurchasePlan,
)
from clubapp.books.tests.factories import (
    approved,
    at,
    draft,
    expense,
    first_line,
    line,
    submitted,
)
from clubapp.core.appendonly import AppendOnlyError

pytestmark = pytest.mark.django_db


def _state(plan):
    return selectors.plan_state(plan=plan)


def test_a_manager_drafts_a_plan_with_lines(room, manager):
    plan = draft(
        room,
        manager,
        line(),
        line(ExpenseCategory.CONSUMABLES, "桶装纯净水", "10", "桶", "18.00", ""),
    )
    assert plan.number == "JH2026-0001"
    assert _state(plan) == PlanState.DRAFT
    assert [(d.position, d.item) for d in plan.draft_lines.order_by("position")] == [
        (1, "麻将牌"),
        (2, "桶装纯净水"),
    ]


def test_a_draft_changes_freely(room, manager):
    plan = draft(room, manager)
    services.plan_update(
        plan=plan, title="改后", purpose="", lines=[line(quantity="3")], by=manager
    )
    plan.refresh_from_db()
    assert plan.title == "改后"
    assert [d.quantity for d in plan.draft_lines.all()] == [Decimal("3.00")]


@pytest.mark.parametrize(
    ("bad", "message"),
    [
        ({"quantity": "0"}, "第 1 项.*大于零"),
        ({"unit_price": "-3"}, "第 1 项.*大于零"),
        ({"unit_price": "1.234"}, "第 1 项.*两位小数"),
        ({"item": " "}, "第 1 项.*品名"),
        ({"unit": ""}, "第 1 项.*单位"),
        ({"category": "toys"}, "第 1 项.*类别"),
    ],
)
def test_bad_lines_are_refused_with_the_line_number(room, manager, bad, message):
    with pytest.raises(ValidationError, match=message):
        draft(room, manager, line(**bad))
    assert PurchasePlan.objects.count() == 0


def test_a_plan_needs_a_title(room, manager):
    with pytest.raises(ValidationError, match="标题"):
        draft(room, manager, title=" ")


def test_submitting_freezes_the_plan(room, manager):
    plan = draft(room, manager, line(), line(ExpenseCategory.CARDS, "扑克", "20", "副", "5.00"))
    submission = services.plan_submit(plan=plan, by=manager, now=at(1, 11))
    assert submission.total == Decimal("400.00")
    assert [(x.item, x.amount) for x in submission.lines.order_by("position")] == [
        ("麻将牌", Decimal("300.00")),
        ("扑克", Decimal("100.00")),
    ]
    assert PlanDraftLine.objects.count() == 0  # the draft lines are gone
    assert _state(plan) == PlanState.SUBMITTED
    with pytest.raises(ValidationError, match="已提交，不能再修改"):
        services.plan_update(plan=plan, title="偷改", lines=[line(quantity="9")], by=manager)
    with pytest.raises(ValidationError, match="已经提交过"):
        services.plan_submit(plan=plan, by=manager)
    assert PlanSubmission.objects.get().total == Decimal("400.00")


def test_the_database_keeps_what_was_submitted_and_decided(room, manager, approver):
    plan = approved(room, manager, approver)
    submitted_line = first_line(plan)
    with pytest.raises(AppendOnlyError):
        PlanLine.objects.filter(pk=submitted_line.pk).update(unit_price=Decimal("999.00"))
    with pytest.raises(IntegrityError), transaction.atomic():
        PlanLine.objects.bulk_create(
            [
                PlanLine(
                    room=room,
                    submission=submitted_line.submission,
                    position=1,
                    category="other",
                    item="x",
                    quantity=1,
                    unit="个",
                    unit_price=1,
                    amount=1,
                )
            ]
        )
    with pytest.raises(IntegrityError), transaction.atomic():
        PlanDecision.objects.create(
            room=room,
            submission=submitted_line.submission,
            outcome=PlanOutcome.REJECTED,
            comment="改主意了",
            decided_by=approver,
            decided_at=at(2),
        )
    assert _state(plan) == PlanState.APPROVED


def test_a_plan_needs_a_line_to_be_submitted(room, manager):
    plan = services.plan_create(room=room, title="空计划", by=manager)
    with pytest.raises(ValidationError, match="至少要有一个项目"):
        services.plan_submit(plan=plan, by=manager)
    assert _state(plan) == PlanState.DRAFT


def test_an_approver_approves(room, manager, approver):
    plan = submitted(room, manager)
    decision = services.plan_decide(
        plan=plan,
        outcome=PlanOutcome.APPROVED,
        comment="",
        by=approver,
        now=at(2),
        fund_negative_ok=True,
    )
    assert (decision.decided_by, decision.decided_at) == (approver, at(2))
    assert _state(plan) == PlanState.APPROVED
    assert selectors.plan_approved_on(plan=plan) == at(2).date()


def test_a_rejection_needs_a_comment(room, manager, approver):
    plan = submitted(room, manager)
    with pytest.raises(ValidationError, match="驳回须写明意见"):
        services.plan_decide(plan=plan, outcome=PlanOutcome.REJECTED, by=approver)
    services.plan_decide(plan=plan, outcome=PlanOutcome.REJECTED, comment="先询价", by=approver)
    assert _state(plan) == PlanState.REJECTED


def test_the_drafter_does_not_approve_their_own_plan(room, boss, approver):
    plan = submitted(room, boss)
    with pytest.raises(ValidationError, match="您编制的"):
        services.plan_decide(plan=plan, outcome=PlanOutcome.APPROVED, by=boss)
    assert _state(plan) == PlanState.SUBMITTED
    services.plan_decide(
        plan=plan, outcome=PlanOutcome.APPROVED, by=approver, fund_negative_ok=True
    )


def test_a_plan_is_decided_once(room, manager, approver, boss):
    plan = approved(room, manager, approver)
    with pytest.raises(ValidationError, match="已经审批过"):
        services.plan_decide(plan=plan, outcome=PlanOutcome.REJECTED, comment="不", by=boss)
    assert PlanDecision.objects.get().outcome == PlanOutcome.APPROVED


def test_a_draft_is_not_decided(room, manager, approver):
    with pytest.raises(ValidationError, match="尚未提交"):
        services.plan_decide(plan=draft(room, manager), outcome="approved", by=approver)


@pytest.mark.parametrize("who", ["manager", "accountant", "member", "outsider"])
def test_only_an_approver_decides(room, manager, request, who):
    plan = submitted(room, manager)
    with pytest.raises(PermissionDenied):
        services.plan_decide(
            plan=plan, outcome=PlanOutcome.APPROVED, by=request.getfixturevalue(who)
        )
    assert PlanDecision.objects.count() == 0


@pytest.mark.parametrize("who", ["accountant", "approver", "member", "outsider"])
def test_only_a_manager_drafts_and_submits(room, manager, request, who):
    user = request.getfixturevalue(who)
    with pytest.raises(PermissionDenied):
        draft(room, user)
    plan = draft(room, manager)
    with pytest.raises(PermissionDenied):
        services.plan_submit(plan=plan, by=user)
    with pytest.raises(PermissionDenied):
        services.plan_update(plan=plan, title="x", lines=[], by=user)


def test_a_rejected_plan_is_copied_into_a_new_draft(room, manager, approver):
    plan = submitted(room, manager, line(), line(ExpenseCategory.CARDS, "扑克", "20", "副", "5.00"))
    with pytest.raises(ValidationError, match="只有被驳回"):
        services.plan_copy(plan=plan, by=manager)
    services.plan_decide(plan=plan, outcome=PlanOutcome.REJECTED, comment="太贵", by=approver)
    copy = services.plan_copy(plan=plan, by=manager, now=at(3))
    assert (copy.copied_from, copy.title, _state(copy)) == (plan, "十二月器材购置", PlanState.DRAFT)
    assert [(d.item, d.quantity, d.unit_price) for d in copy.draft_lines.order_by("position")] == [
        ("麻将牌", Decimal("2.00"), Decimal("150.00")),
        ("扑克", Decimal("20.00"), Decimal("5.00")),
    ]
    assert _state(plan) == PlanState.REJECTED


def test_an_expense_puts_the_plan_in_progress_and_done_ends_it(room, manager, approver):
    plan = approved(room, manager, approver)
    spent = expense(first_line(plan), manager, "100.00")
    assert _state(plan) == PlanState.IN_PROGRESS
    completion = services.plan_complete(plan=plan, by=manager, note="已购齐", now=at(5))
    assert (completion.completed_by, completion.note) == (manager, "已购齐")
    assert _state(plan) == PlanState.DONE
    with pytest.raises(ValidationError, match="已经完成"):
        services.plan_complete(plan=plan, by=manager)
    assert spent.line.submission.plan == plan


def test_an_approved_plan_not_needed_is_done_too(room, manager, approver):
    plan = approved(room, manager, approver)
    services.plan_complete(plan=plan, by=manager)
    assert _state(plan) == PlanState.DONE


@pytest.mark.parametrize("stage", ["draft", "submitted", "rejected"])
def test_only_an_approved_plan_is_done(room, manager, approver, stage):
    plan = draft(room, manager) if stage == "draft" else submitted(room, manager)
    if stage == "rejected":
        services.plan_decide(plan=plan, outcome=PlanOutcome.REJECTED, comment="不", by=approver)
    with pytest.raises(ValidationError, match="只有已批准"):
        services.plan_complete(plan=plan, by=manager)


def test_a_supplementary_plan_is_drafted_for_an_approved_plan(room, manager, approver):
    plan = approved(room, manager, approver)
    supplement = services.plan_supplement(plan=plan, by=manager)
    assert (supplement.supplement_for, _state(supplement)) == (plan, PlanState.DRAFT)
    assert plan.number in supplement.title
    with pytest.raises(ValidationError, match="已批准"):
        services.plan_supplement(plan=draft(room, manager), by=manager)


def test_the_states_can_be_listed_and_filtered(room, manager, approver):
    drafted = draft(room, manager)
    waiting = submitted(room, manager)
    ok = approved(room, manager, approver)
    states = {p.pk: p.state for p in selectors.plan_list(room=room)}
    assert states == {drafted.pk: "draft", waiting.pk: "submitted", ok.pk: "approved"}


def test_the_database_refuses_changing_a_submitted_plans_draft(room, manager):
    plan = submitted(room, manager)
    table = connection.ops.quote_name(PurchasePlan._meta.db_table)
    with pytest.raises(IntegrityError, match="submitted"), transaction.atomic():
        with connection.cursor() as cursor:
            cursor.execute(f"UPDATE {table} SET title = 'renamed' WHERE id = %s", [plan.pk])
    with pytest.raises(IntegrityError, match="submitted"), transaction.atomic():
        PlanDraftLine.objects.create(
            room=room,
            plan=plan,
            position=9,
            category="other",
            item="加一行",
            quantity=1,
            unit="个",
            unit_price=1,
        )
    plan.refresh_from_db()
    assert plan.title == "十二月器材购置" and plan.draft_lines.count() == 0
    # A draft still changes freely.
    other = draft(room, manager)
    services.plan_update(plan=other, title="改", lines=[line()], by=manager)
