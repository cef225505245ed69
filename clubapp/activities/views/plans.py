"""活动计划: the list, a plan and its versions, drafting, submitting, deciding."""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.core.exceptions import ValidationError
from django.http import HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import URLPattern, path, reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from clubapp.activities.forms.plans import ActivityFormSet, DecisionForm, PlanForm, ReasonForm
from clubapp.activities.models import ActivityPlan, PlanVersion, VersionState
from clubapp.activities.permissions import (
    approver_required,
    can_approve,
    can_manage,
    manager_required,
    reader_required,
)
from clubapp.activities.selectors import plans as selectors
from clubapp.activities.services import plans as services
from clubapp.books.money import total
from clubapp.core.http import AuthenticatedRequest


def _flash(request: AuthenticatedRequest, exc: ValidationError) -> None:
    for message in exc.messages:
        messages.error(request, message)


def _plan(request: AuthenticatedRequest, pk: int) -> ActivityPlan:
    return get_object_or_404(ActivityPlan, pk=pk, room=request.room)


def _version(request: AuthenticatedRequest, pk: int) -> PlanVersion:
    return get_object_or_404(
        PlanVersion.objects.select_related("plan", "submission", "decision"),
        pk=pk,
        room=request.room,
    )


def _plan_url(plan: ActivityPlan) -> str:
    return reverse("activities:plan_detail", args=[plan.pk])


@reader_required
def plan_list(request: AuthenticatedRequest) -> HttpResponse:
    return render(
        request,
        "activities/plan_list.html",
        {"rows": selectors.plan_list(room=request.room), "can_manage": can_manage(request.user)},
    )


def _lines_formset(request: AuthenticatedRequest, initial: list[dict[str, Any]]) -> Any:
    data = request.POST if request.method == "POST" else None
    return ActivityFormSet(
        data,
        initial=initial,
        prefix="lines",
        form_kwargs={"purchase_plans": selectors.purchase_plans_linkable(room=request.room)},
    )


@manager_required
def plan_create(request: AuthenticatedRequest) -> HttpResponse:
    form = PlanForm(request.POST if request.method == "POST" else None)
    formset = _lines_formset(request, [])
    if request.method == "POST" and form.is_valid() and formset.is_valid():
        try:
            plan = services.plan_create(
                room=request.room,
                period=form.cleaned_data["period"],
                starts=form.cleaned_data["starts"],
                lines=formset.lines(),
                by=request.user,
            )
        except ValidationError as exc:
            for message in exc.messages:
                form.add_error(None, message)
        else:
            messages.success(request, _("Plan %(plan)s drafted.") % {"plan": str(plan)})
            return redirect(_plan_url(plan))
    return render(request, "activities/plan_form.html", {"form": form, "formset": formset})


def _row(line: Any) -> dict[str, Any]:
    return {
        "date": line.date,
        "kind": line.kind,
        "title": line.title,
        "games": list(line.games),
        "expected": line.expected,
        "budget": line.budget,
        "purchase_plan": line.purchase_plan_id,
    }


@manager_required
def version_edit(request: AuthenticatedRequest, pk: int) -> HttpResponse:
    version = _version(request, pk)
    if selectors.version_state(version) != VersionState.DRAFT:
        messages.error(
            request,
            _("Version %(n)s is submitted and can no longer change: draft a new version.")
            % {"n": version.number},
        )
        return redirect(_plan_url(version.plan))
    formset = _lines_formset(request, [_row(d) for d in version.drafts.order_by("position")])
    error = None
    if request.method == "POST" and formset.is_valid():
        try:
            services.draft_update(version=version, lines=formset.lines(), by=request.user)
        except ValidationError as exc:
            error = exc.messages
        else:
            messages.success(request, _("Draft saved."))
            return redirect(_plan_url(version.plan))
    return render(
        request,
        "activities/plan_version_form.html",
        {"version": version, "plan": version.plan, "formset": formset, "errors": error},
    )


@reader_required
def plan_detail(request: AuthenticatedRequest, pk: int) -> HttpResponse:
    plan = _plan(request, pk)
    versions = selectors.plan_versions(plan=plan)
    shown = versions[-1]
    wanted = request.GET.get("version", "")
    for version in versions:
        if wanted.isdigit() and version.number == int(wanted):
            shown = version
    state = selectors.version_state(shown)
    lines = list(selectors.version_lines(shown))
    in_force = selectors.plan_approved_version(plan=plan)
    return render(
        request,
        "activities/plan_detail.html",
        {
            "plan": plan,
            "ends": selectors.plan_end(plan),
            "versions": [(v, selectors.version_state(v)) for v in versions],
            "shown": shown,
            "state": state,
            "lines": lines,
            "budget": total(line.budget for line in lines),
            "in_force": in_force,
            "open_version": selectors.plan_open_version(plan=plan),
            "decision_form": DecisionForm(),
            "reason_form": ReasonForm(),
            "can_manage": can_manage(request.user),
            "can_decide": can_approve(request.user)
            and request.user.pk
            not in (
                shown.drafted_by_id,
                getattr(getattr(shown, "submission", None), "submitted_by_id", None),
            ),
        },
    )


@require_POST
@manager_required
def version_submit(request: AuthenticatedRequest, pk: int) -> HttpResponse:
    version = _version(request, pk)
    try:
        submission = services.version_submit(version=version, by=request.user)
    except ValidationError as exc:
        _flash(request, exc)
    else:
        messages.success(
            request,
            _("Version %(n)s submitted: budget %(budget)s yuan, waiting for approval.")
            % {"n": version.number, "budget": submission.budget},
        )
    return redirect(_plan_url(version.plan))


@require_POST
@approver_required
def version_decide(request: AuthenticatedRequest, pk: int) -> HttpResponse:
    version = _version(request, pk)
    form = DecisionForm(request.POST)
    if not form.is_valid():
        messages.error(request, _("Approve or reject the plan."))
        return redirect(_plan_url(version.plan))
    approved = form.cleaned_data["outcome"] == "approve"
    try:
        services.version_decide(
            version=version, approved=approved, note=form.cleaned_data["note"], by=request.user
        )
    except ValidationError as exc:
        _flash(request, exc)
    else:
        done = _("Version %(n)s approved.") if approved else _("Version %(n)s rejected.")
        messages.success(request, done % {"n": version.number})
    return redirect(_plan_url(version.plan))


@manager_required
def version_new(request: AuthenticatedRequest, pk: int) -> HttpResponse:
    plan = _plan(request, pk)
    form = ReasonForm(request.POST if request.method == "POST" else None)
    if request.method == "POST" and form.is_valid():
        try:
            version = services.version_new(
                plan=plan, reason=form.cleaned_data["reason"], by=request.user
            )
        except ValidationError as exc:
            _flash(request, exc)
            return redirect(_plan_url(plan))
        messages.success(
            request,
            _("Version %(n)s drafted from the last one: change its lines.") % {"n": version.number},
        )
        return redirect("activities:version_edit", pk=version.pk)
    return render(request, "activities/plan_new_version.html", {"plan": plan, "form": form})


urlpatterns: list[URLPattern] = [
    path("plans/", plan_list, name="plan_list"),
    path("plans/new/", plan_create, name="plan_create"),
    path("plans/<int:pk>/", plan_detail, name="plan_detail"),
    path("plans/<int:pk>/new-version/", version_new, name="version_new"),
    path("plans/versions/<int:pk>/edit/", version_edit, name="version_edit"),
    path("plans/versions/<int:pk>/submit/", version_submit, name="version_submit"),
    path("plans/versions/<int:pk>/decide/", version_decide, name="version_decide"),
]
