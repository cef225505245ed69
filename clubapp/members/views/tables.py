"""The room's tables: the list (adding one), rename, 停用 / 启用, occupied."""

from __future__ import annotations

from django.contrib import messages
from django.core.exceptions import PermissionDenied, ValidationError
from django.http import HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from clubapp.core.http import AuthenticatedRequest
from clubapp.members import selectors, services
from clubapp.members.forms import TableForm, TableRenameForm
from clubapp.members.models import Table
from clubapp.members.permissions import can_manage, manager_required, reader_required
from clubapp.members.views.common import flash_errors, form_errors


@reader_required
def table_list(request: AuthenticatedRequest) -> HttpResponse:
    room = request.room
    manage = can_manage(request.user)
    form = TableForm(request.POST or None)
    if request.method == "POST":
        if not manage:
            raise PermissionDenied
        if form.is_valid():
            try:
                table = services.table_create(
                    room=room,
                    number=form.cleaned_data["number"],
                    name=form.cleaned_data["name"],
                    by=request.user,
                )
            except ValidationError as exc:
                form_errors(form, exc)
            else:
                messages.success(request, _("%(table)s added.") % {"table": table.label})
                return redirect("members:table_list")
    tables = selectors.tables_all(room=room)
    return render(
        request,
        "members/table_list.html",
        {
            "tables": [(t, state) for t, state in tables if manage or state != "inactive"],
            "free_count": sum(1 for _t, state in tables if state == "free"),
            "form": form,
            "can_manage": manage,
        },
    )


@manager_required
def table_edit(request: AuthenticatedRequest, pk: int) -> HttpResponse:
    table = get_object_or_404(Table, pk=pk, room=request.room)
    form = TableRenameForm(request.POST or None, initial={"name": table.name})
    if request.method == "POST" and form.is_valid():
        try:
            services.table_rename(table=table, name=form.cleaned_data["name"], by=request.user)
        except ValidationError as exc:
            form_errors(form, exc)
        else:
            messages.success(request, _("Saved."))
            return redirect("members:table_list")
    return render(request, "members/table_edit.html", {"table": table, "form": form})


@require_POST
@manager_required
def table_active(request: AuthenticatedRequest, pk: int) -> HttpResponse:
    table = get_object_or_404(Table, pk=pk, room=request.room)
    try:
        table = services.table_set_active(table=table, active=not table.active, by=request.user)
    except ValidationError as exc:
        flash_errors(request, exc)
    else:
        done = _("%(table)s is in use.") if table.active else _("%(table)s is out of use.")
        messages.success(request, done % {"table": table.label})
    return redirect("members:table_list")


@require_POST
@manager_required
def table_toggle(request: AuthenticatedRequest, pk: int) -> HttpResponse:
    table = get_object_or_404(Table, pk=pk, room=request.room)
    try:
        services.table_set_occupied(table=table, occupied=not table.occupied)
    except ValidationError as exc:
        flash_errors(request, exc)
    return redirect("members:table_list")
