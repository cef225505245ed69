"""A member's login: created by the manager, its one-time link, 停用 / 启用."""

from __future__ import annotations

from django.contrib import messages
from django.core.exceptions import ValidationError
from django.http import HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from clubapp.core.http import AuthenticatedRequest
from clubapp.members import services
from clubapp.members.forms import AccountForm
from clubapp.members.models import Member
from clubapp.members.permissions import manager_required
from clubapp.members.views.common import flash_errors, form_errors, room_member


def _link_page(
    request: AuthenticatedRequest, member: Member, path: str, *, new: bool
) -> HttpResponse:
    """The one-time link, shown once to the manager to hand over; never stored or cached."""
    response = render(
        request,
        "members/account_link.html",
        {"member": member, "link": request.build_absolute_uri(path), "new": new},
    )
    response["Cache-Control"] = "no-store"
    return response


@manager_required
def member_account(request: AuthenticatedRequest, pk: int) -> HttpResponse:
    """Create a login for the member; the member sets its password by a one-time link."""
    member = room_member(request, pk)
    form = AccountForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            _user, path = services.member_account_create(
                member=member, username=form.cleaned_data["username"], by=request.user
            )
        except ValidationError as exc:
            form_errors(form, exc)
        else:
            return _link_page(request, member, path, new=True)
    return render(request, "members/account_form.html", {"member": member, "form": form})


@require_POST
@manager_required
def member_account_reset(request: AuthenticatedRequest, pk: int) -> HttpResponse:
    member = room_member(request, pk)
    try:
        path = services.member_account_reset(member=member, by=request.user)
    except ValidationError as exc:
        flash_errors(request, exc)
        return redirect(member)
    return _link_page(request, member, path, new=False)


@require_POST
@manager_required
def member_account_active(request: AuthenticatedRequest, pk: int) -> HttpResponse:
    member = room_member(request, pk)
    active = member.user is not None and not member.user.is_active
    try:
        _user, path = services.member_account_set_active(
            member=member, active=active, by=request.user
        )
    except ValidationError as exc:
        flash_errors(request, exc)
        return redirect(member)
    if active:
        return _link_page(request, member, path, new=False)
    messages.success(request, _("The login of %(name)s is disabled.") % {"name": member.name})
    return redirect(member)
