"""购置计划: drafting, submitting, deciding, copying, supplementing, completing."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from django import forms
from django.contrib import messages
from django.core.exceptions import ValidationError
from django.http import HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from clubapp.books import selectors, services
from clubapp.books.filters import PlanFilter
from clubapp.books.forms import DecisionForm, LineFormSet, NoteForm, PlanForm
from clubapp.books.models import FUND_CATEGORIES, PlanOutcome, PlanState, PurchasePlan
from clubapp.books.money import CENT, total
from clubapp.books.permissions import (
    approver_required,
    can_approve,
    can_record,
    reader_required,
    recorder_required,
)
from clubapp.books.tables import PlanTable
from clubapp.books.views.common import flash, form_errors, listing
from clubapp.core.http import AuthenticatedRequest

if TYPE_CHECKING:
    from clubapp.books.selectors.lists import PlanWithRow


def _plan(request: AuthenticatedRequest, pk: int) -> PlanWithRow:
    return get_object_or_404(selectors.plan_list(room=request.room), pk=pk)


@reader_required
def plan_list(request: AuthenticatedRequest) -> HttpResponse:
    return listing(
        request,
        template="books/plan_list.html",
        queryset=selectors.plan_list(room=request.room),
        filterset_class=PlanFilter,
        table_class=PlanTable,
        can_record=can_record(request.user),
    )


def _plan_form(request: AuthenticatedRequest, plan: PurchasePlan | None) -> HttpResponse:
    initial: dict[str, Any] = {}
    lines: list[dict[str, Any]] = []
    if plan is not None:
        initial = {"title": plan.title, "purpose": plan.purpose}
        lines = [
            {
                "category": d.category,
                "item": d.item,
                "quantity": d.quantity,
                "unit": d.unit,
                "unit_price": d.unit_price,
                "reason": d.reason,
            }
            for d in plan.draft_lines.order_by("position")
        ]
    data = request.POST if request.method == "POST" else None
    form = PlanForm(data, initial=initial)
    formset = LineFormSet(data, initial=lines, prefix="lines")
    if request.method == "POST" and form.is_valid() and formset.is_valid():
        try:
            if plan is None:
                plan = services.plan_create(
                    room=request.room,
                    title=form.cleaned_data["title"],
                    purpose=form.cleaned_data["purpose"],
                    lines=formset.lines(),
                    by=request.user,
                )
            else:
                services.plan_update(
                    plan=plan,
                    title=form.cleaned_data["title"],
                    purpose=form.cleaned_data["purpose"],
                    lines=formset.lines(),
                    by=request.user,
                )
        except ValidationError as exc:
            form_errors(form, exc)
        else:
            messages.success(request, _("Draft %(plan)s saved.") % {"plan": plan.number})
            return redirect(plan)
    return render(request, "books/plan_form.html", {"form": form, "formset": formset, "plan": plan})


@recorder_required
def plan_create(request: AuthenticatedRequest) -> HttpResponse:
    return _plan_form(request, None)


@recorder_required
def plan_edit(request: AuthenticatedRequest, pk: int) -> HttpResponse:
    plan = _plan(request, pk)
    if plan.state != PlanState.DRAFT:
        messages.error(
            request,
            _("Plan %(plan)s is submitted and can no longer change.") % {"plan": plan.number},
        )
        return redirect(plan)
    return _plan_form(request, plan)


@reader_required
def plan_detail(request: AuthenticatedRequest, pk: int) -> HttpResponse:
    plan = _plan(request, pk)
    submission = selectors.plan_submission(plan=plan)
    lines: list[dict[str, Any]]
    if submission is None:
        lines = [
            {"line": d, "amount": (d.quantity * d.unit_price).quantize(CENT)}
            for d in plan.draft_lines.order_by("position")
        ]
    else:
        lines = [
            {
                "line": line,
                "amount": line.amount,
                "spent": selectors.line_spent(line_id=line.pk),
                "left": selectors.line_left(line=line),
            }
            for line in submission.lines.order_by("position")
        ]
    plan_total = total(row["amount"] for row in lines)
    fund_part = total(row["amount"] for row in lines if row["line"].category in FUND_CATEGORIES)
    drafter = plan.drafted_by_id == request.user.pk
    state = PlanState(plan.state)
    fund = selectors.fund_summary(room=plan.room)
    # Before approval: where the fund would be once the plan's equipment is bought.
    fund_after = fund.closing - fund_part if state == PlanState.SUBMITTED and fund_part else None
    decision_form = DecisionForm()
    if fund_after is not None and fund_after < 0 and plan.room.fund_may_go_negative:
        decision_form.fields["fund_negative_ok"].widget = forms.CheckboxInput()
    return render(
        request,
        "books/plan_detail.html",
        {
            "plan": plan,
            "state": state,
            "submission": submission,
            "decision": selectors.plan_decision(plan=plan),
            "completion": getattr(submission, "completion", None) if submission else None,
            "lines": lines,
            "total": plan_total,
            "fund_part": fund_part,
            "fund": fund,
            "fund_after": fund_after,
            "expenses": selectors.expense_list(room=plan.room)
            .filter(line__submission__plan=plan)
            .order_by("recorded_at", "pk"),
            "copies": selectors.plan_list(room=plan.room).filter(copied_from=plan),
            "supplements": [
                (p, PlanState(p.state).label)
                for p in selectors.plan_list(room=plan.room).filter(supplement_for=plan)
            ],
            "is_open": state in (PlanState.APPROVED, PlanState.IN_PROGRESS),
            "show_spending": state in (PlanState.APPROVED, PlanState.IN_PROGRESS, PlanState.DONE),
            "decision_form": decision_form,
            "note_form": NoteForm(),
            "can_record": can_record(request.user),
            "can_decide": can_approve(request.user) and not drafter,
            "is_drafter": drafter,
        },
    )


@require_POST
@recorder_required
def plan_submit(request: AuthenticatedRequest, pk: int) -> HttpResponse:
    plan = _plan(request, pk)
    try:
        submission = services.plan_submit(plan=plan, by=request.user)
    except ValidationError as exc:
        flash(request, exc)
    else:
        messages.success(
            request,
            _("Plan %(plan)s submitted: %(total)s yuan, waiting for approval.")
            % {"plan": plan.number, "total": submission.total},
        )
    return redirect(plan)


@require_POST
@approver_required
def plan_decide(request: AuthenticatedRequest, pk: int) -> HttpResponse:
    plan = _plan(request, pk)
    form = DecisionForm(request.POST)
    if not form.is_valid():
        messages.error(request, _("Approve or reject the plan."))
        return redirect(plan)
    outcome = PlanOutcome(form.cleaned_data["outcome"])
    try:
        services.plan_decide(
            plan=plan,
            outcome=outcome,
            comment=form.cleaned_data["comment"],
            by=request.user,
            fund_negative_ok=form.cleaned_data["fund_negative_ok"],
        )
    except ValidationError as exc:
        flash(request, exc)
    else:
        done = (
            _("Plan %(plan)s approved.")
            if outcome == PlanOutcome.APPROVED
            else _("Plan %(plan)s rejected.")
        )
        messages.success(request, done % {"plan": plan.number})
    return redirect(plan)


@require_POST
@recorder_required
def plan_copy(request: AuthenticatedRequest, pk: int) -> HttpResponse:
    plan = _plan(request, pk)
    try:
        copy = services.plan_copy(plan=plan, by=request.user)
    except ValidationError as exc:
        flash(request, exc)
        return redirect(plan)
    messages.success(
        request,
        _("Plan %(plan)s copied into the new draft %(copy)s.")
        % {"plan": plan.number, "copy": copy.number},
    )
    return redirect(copy)


@require_POST
@recorder_required
def plan_supplement(request: AuthenticatedRequest, pk: int) -> HttpResponse:
    plan = _plan(request, pk)
    try:
        supplement = services.plan_supplement(plan=plan, by=request.user)
    except ValidationError as exc:
        flash(request, exc)
        return redirect(plan)
    messages.success(
        request,
        _("Supplementary plan %(copy)s drafted: add its lines.") % {"copy": supplement.number},
    )
    return redirect("books:plan_edit", pk=supplement.pk)


@require_POST
@recorder_required
def plan_complete(request: AuthenticatedRequest, pk: int) -> HttpResponse:
    plan = _plan(request, pk)
    form = NoteForm(request.POST)
    try:
        services.plan_complete(
            plan=plan, note=form.cleaned_data["note"] if form.is_valid() else "", by=request.user
        )
    except ValidationError as exc:
        flash(request, exc)
    else:
        messages.success(request, _("Plan %(plan)s is done.") % {"plan": plan.number})
    return redirect(plan)
