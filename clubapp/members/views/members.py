"""Member pages: the list and its search, registration, the member page, photo, 我的会员证."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied, ValidationError
from django.http import FileResponse, Http404, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils import timezone
from django.utils.translation import gettext as _
from django.views.decorators.debug import sensitive_post_parameters, sensitive_variables
from django.views.decorators.http import require_POST
from django_tables2 import RequestConfig

from clubapp.core.http import AuthenticatedRequest
from clubapp.members import selectors, services
from clubapp.members.forms import (
    CardForm,
    MemberCreateForm,
    MemberEditForm,
    MemberSearchForm,
    ReasonForm,
)
from clubapp.members.models import Member
from clubapp.members.permissions import (
    can_manage,
    can_read,
    can_see_id_numbers,
    id_number_viewer_required,
    manager_required,
    reader_required,
)
from clubapp.members.tables import MemberTable
from clubapp.members.views.common import form_errors, room_member


@sensitive_variables()
@sensitive_post_parameters("q")
@reader_required
def member_list(request: AuthenticatedRequest) -> HttpResponse:
    """The member list; a search is POSTed, so what the desk types (a name, a phone, an
    ID number) never lands in a URL, an access log or the browser's history."""
    searching = request.method == "POST"
    # The state filter, the sort and the page are harmless in the URL; the search is not.
    search = MemberSearchForm(
        {"q": request.POST.get("q", "") if searching else "", "state": request.GET.get("state", "")}
    )
    q = state = ""
    if search.is_valid():
        q, state = search.cleaned_data["q"], search.cleaned_data["state"]
    members = selectors.member_list(room=request.room, q=q, state=state)
    table = MemberTable(members)
    if searching:
        # Results of a POST cannot be paged or re-sorted by GET links: show them whole.
        table.orderable = False
        RequestConfig(request, paginate={"per_page": 200}).configure(table)
    else:
        RequestConfig(request, paginate={"per_page": 50}).configure(table)
    response = render(
        request,
        "members/member_list.html",
        {"table": table, "search": search, "can_manage": can_manage(request.user)},
    )
    response["Cache-Control"] = "no-store"
    return response


@sensitive_variables()
@sensitive_post_parameters("id_number")
@manager_required
def member_create(request: AuthenticatedRequest) -> HttpResponse:
    form = MemberCreateForm(request.POST or None, request.FILES or None)
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        try:
            member = services.member_create(
                room=request.room,
                name=data["name"],
                phone=data["phone"],
                id_number=data["id_number"],
                photo=data["photo"],
                by=request.user,
            )
        except ValidationError as exc:
            form_errors(form, exc)
        else:
            messages.success(request, _("Member %(name)s registered.") % {"name": member.name})
            if form.id_number_warning:
                messages.warning(request, form.id_number_warning)
            if form.id_number_note:
                messages.info(request, form.id_number_note)
            return redirect(member)
    response = render(request, "members/member_form.html", {"form": form, "creating": True})
    response["Cache-Control"] = "no-store"  # a refused form shows the number typed
    return response


@manager_required
def member_edit(request: AuthenticatedRequest, pk: int) -> HttpResponse:
    member = room_member(request, pk)
    form = MemberEditForm(
        request.POST or None,
        request.FILES or None,
        initial={"name": member.name, "phone": member.phone, "user": member.user_id},
        room=request.room,
    )
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        try:
            services.member_update(
                member=member,
                name=data["name"],
                phone=data["phone"],
                photo=data["photo"],
                user=data["user"],
                by=request.user,
            )
        except ValidationError as exc:
            form_errors(form, exc)
        else:
            messages.success(request, _("Saved."))
            return redirect(member)
    return render(request, "members/member_form.html", {"form": form, "member": member})


@sensitive_variables()
def _member_page(
    request: AuthenticatedRequest, member: Member, *, id_number: str = ""
) -> HttpResponse:
    """The member page; ``id_number`` is the full number right after a recorded 显示."""
    manage = can_manage(request.user)
    response = render(
        request,
        "members/member_detail.html",
        {
            "member": member,
            # Masked for everyone, the manager included; the full number only in the
            # answer to the recorded "show" POST (docs/members.md).
            "id_number": id_number or member.id_number_masked,
            "id_number_shown": bool(id_number),
            "can_see_id_numbers": can_see_id_numbers(request.user),
            "id_number_reveals": selectors.member_id_number_reveals(member=member),
            "current_card": selectors.member_current_card(member=member),
            "cards": selectors.member_cards(member=member),
            "visits": selectors.member_visits(member=member),
            "receipts": selectors.member_receipts(member=member),
            "can_manage": manage,
            "reason_form": ReasonForm(),
            "card_form": CardForm(),
            "today": timezone.localdate(),
        },
    )
    # The page may hold the full number: a shared phone must not keep it.
    response["Cache-Control"] = "no-store"
    return response


@reader_required
def member_detail(request: AuthenticatedRequest, pk: int) -> HttpResponse:
    return _member_page(request, room_member(request, pk))


@sensitive_variables()
@require_POST
@id_number_viewer_required
def member_id_number_show(request: AuthenticatedRequest, pk: int) -> HttpResponse:
    """显示身份证号: recorded (who, when), then the member page with the full number.

    The answer to this POST is the only page that shows it; reloading the member page
    masks it again, and a resent POST is recorded again."""
    member = room_member(request, pk)
    number = services.id_number_reveal(member=member, by=request.user)
    return _member_page(request, member, id_number=number)


@login_required
def member_photo(request: AuthenticatedRequest, pk: int) -> FileResponse:
    """Photos are personal data: served through a permission check, never as public media."""
    member = get_object_or_404(Member, pk=pk, room=request.room)
    own = member.user_id is not None and member.user_id == request.user.pk
    if not (own or can_read(request.user)):
        raise PermissionDenied
    if not member.photo:
        raise Http404
    response = FileResponse(member.photo.open("rb"), content_type="image/jpeg")
    response["Cache-Control"] = "private, max-age=3600"
    return response


@login_required
def my_card(request: AuthenticatedRequest) -> HttpResponse:
    """A member's own card and visits; nobody else's."""
    member = selectors.member_for_user(room=request.room, user=request.user)
    if member is None:
        return render(request, "members/my_card.html", {"member": None})
    return render(
        request,
        "members/my_card.html",
        {
            "member": member,
            "current_card": selectors.member_current_card(member=member),
            "visits": selectors.member_visits(member=member),
            "today": timezone.localdate(),
        },
    )
