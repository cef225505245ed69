"""Pages of the members app: thin views over forms, services and selectors."""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied, ValidationError
from django.forms import Form
from django.http import FileResponse, Http404, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils import timezone
from django.utils.translation import gettext as _
from django.views.decorators.debug import sensitive_post_parameters
from django.views.decorators.http import require_POST
from django_tables2 import RequestConfig

from clubapp.core import services as core_services
from clubapp.core.http import AuthenticatedRequest
from clubapp.core.selectors import room_get
from clubapp.members import selectors, services
from clubapp.members.forms import (
    CardCheckInForm,
    GuestCheckInForm,
    MemberCreateForm,
    MemberEditForm,
    MemberSearchForm,
    OpeningExceptionForm,
    ReasonForm,
    RenewForm,
    RoomSettingsForm,
    WeeklyHoursForm,
)
from clubapp.members.models import (
    Card,
    ExceptionKind,
    Member,
    OpeningException,
    Table,
    Visit,
    Weekday,
)
from clubapp.members.permissions import can_manage, can_read, manager_required, reader_required
from clubapp.members.tables import MemberTable


def _room_member(request: AuthenticatedRequest, pk: int) -> Member:
    return get_object_or_404(Member.objects.select_related("room"), pk=pk, room=room_get())


def _room_card(pk: int) -> Card:
    return get_object_or_404(
        Card.objects.select_related("member", "member__room"), pk=pk, member__room=room_get()
    )


def _errors(form: Form, exc: ValidationError) -> None:
    for message in exc.messages:
        form.add_error(None, message)


def _flash_errors(request: AuthenticatedRequest, exc: ValidationError) -> None:
    for message in exc.messages:
        messages.error(request, message)


# ------------------------------------------------------------------ members


@reader_required
def member_list(request: AuthenticatedRequest) -> HttpResponse:
    search = MemberSearchForm(request.GET or None)
    q = state = ""
    if search.is_valid():
        q, state = search.cleaned_data["q"], search.cleaned_data["state"]
    members = selectors.member_list(room=room_get(), q=q, state=state)
    table = MemberTable(members)
    RequestConfig(request, paginate={"per_page": 50}).configure(table)
    return render(
        request,
        "members/member_list.html",
        {"table": table, "search": search, "can_manage": can_manage(request.user)},
    )


@sensitive_post_parameters("id_number")
@manager_required
def member_create(request: AuthenticatedRequest) -> HttpResponse:
    form = MemberCreateForm(request.POST or None, request.FILES or None)
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        try:
            member = services.member_create(
                room=room_get(),
                name=data["name"],
                phone=data["phone"],
                id_number=data["id_number"],
                photo=data["photo"],
                by=request.user,
            )
        except ValidationError as exc:
            _errors(form, exc)
        else:
            messages.success(request, _("Member %(name)s registered.") % {"name": member.name})
            if form.id_number_warning:
                messages.warning(request, form.id_number_warning)
            return redirect(member)
    return render(request, "members/member_form.html", {"form": form, "creating": True})


@manager_required
def member_edit(request: AuthenticatedRequest, pk: int) -> HttpResponse:
    member = _room_member(request, pk)
    form = MemberEditForm(
        request.POST or None,
        request.FILES or None,
        initial={"name": member.name, "phone": member.phone, "user": member.user_id},
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
            _errors(form, exc)
        else:
            messages.success(request, _("Saved."))
            return redirect(member)
    return render(request, "members/member_form.html", {"form": form, "member": member})


@reader_required
def member_detail(request: AuthenticatedRequest, pk: int) -> HttpResponse:
    member = _room_member(request, pk)
    manage = can_manage(request.user)
    return render(
        request,
        "members/member_detail.html",
        {
            "member": member,
            # The full number is for the manager at the desk, on this page only.
            "id_number": member.id_number if manage else member.id_number_masked,
            "current_card": selectors.member_current_card(member=member),
            "cards": selectors.member_cards(member=member),
            "visits": selectors.member_visits(member=member),
            "receipts": selectors.member_receipts(member=member),
            "can_manage": manage,
            "reason_form": ReasonForm(),
            "today": timezone.localdate(),
        },
    )


@login_required
def member_photo(request: AuthenticatedRequest, pk: int) -> FileResponse:
    """Photos are personal data: served through a permission check, never as public media."""
    member = get_object_or_404(Member, pk=pk)
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
    member = selectors.member_for_user(user=request.user)
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


# -------------------------------------------------------------------- cards


@require_POST
@manager_required
def card_issue(request: AuthenticatedRequest, pk: int) -> HttpResponse:
    member = _room_member(request, pk)
    try:
        card = services.card_issue(member=member, by=request.user)
    except ValidationError as exc:
        _flash_errors(request, exc)
    else:
        messages.success(request, _("Card %(number)s issued.") % {"number": card.number})
    return redirect(member)


@require_POST
@manager_required
def card_renew(request: AuthenticatedRequest, pk: int) -> HttpResponse:
    card = _room_card(pk)
    form = RenewForm(request.POST)
    expected = form.cleaned_data["valid_until"] if form.is_valid() else None
    try:
        card = services.card_renew(card=card, by=request.user, expected_valid_until=expected)
    except ValidationError as exc:
        _flash_errors(request, exc)
    else:
        messages.success(
            request,
            _("Card %(number)s renewed until %(date)s.")
            % {"number": card.number, "date": card.valid_until.isoformat()},
        )
    return redirect(card.member)


@require_POST
@manager_required
def card_reissue(request: AuthenticatedRequest, pk: int) -> HttpResponse:
    card = _room_card(pk)
    try:
        new = services.card_reissue(card=card, by=request.user)
    except ValidationError as exc:
        _flash_errors(request, exc)
    else:
        messages.success(
            request,
            _("Card %(old)s is void; new card %(new)s issued.")
            % {"old": card.number, "new": new.number},
        )
    return redirect(card.member)


def _card_with_reason(request: AuthenticatedRequest, pk: int, action: str) -> HttpResponse:
    card = _room_card(pk)
    form = ReasonForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        service = services.card_revoke if action == "revoke" else services.card_suspend
        try:
            service(card=card, reason=form.cleaned_data["reason"], by=request.user)
        except ValidationError as exc:
            _errors(form, exc)
        else:
            done = (
                _("Card %(number)s revoked.")
                if action == "revoke"
                else _("Card %(number)s suspended.")
            )
            messages.success(request, done % {"number": card.number})
            return redirect(card.member)
    return render(
        request, "members/card_reason.html", {"card": card, "form": form, "action": action}
    )


@manager_required
def card_revoke(request: AuthenticatedRequest, pk: int) -> HttpResponse:
    return _card_with_reason(request, pk, "revoke")


@manager_required
def card_suspend(request: AuthenticatedRequest, pk: int) -> HttpResponse:
    return _card_with_reason(request, pk, "suspend")


@require_POST
@manager_required
def card_resume(request: AuthenticatedRequest, pk: int) -> HttpResponse:
    card = _room_card(pk)
    try:
        services.card_resume(card=card, by=request.user)
    except ValidationError as exc:
        _flash_errors(request, exc)
    else:
        messages.success(request, _("Card %(number)s is active again.") % {"number": card.number})
    return redirect(card.member)


@reader_required
def receipt_detail(request: AuthenticatedRequest, number: str) -> HttpResponse:
    receipt = selectors.receipt_get(room=room_get(), number=number)
    if receipt is None:
        raise Http404
    return render(request, "members/receipt_detail.html", {"receipt": receipt})


# ------------------------------------------------------------------- visits


@reader_required
def visit_list(request: AuthenticatedRequest) -> HttpResponse:
    room = room_get()
    now = timezone.now()
    return render(
        request,
        "members/visit_list.html",
        {
            "visits": selectors.visits_today(room=room),
            "past_closing": selectors.visits_open_past_closing(room=room, now=now),
            "is_open": selectors.room_is_open(room=room, at=now),
            "closes": selectors.closing_time(room=room, at=now),
            "periods": selectors.opening_periods_on(room=room, day=timezone.localdate(now)),
            "free_tables": selectors.tables_free(room=room),
            "card_form": CardCheckInForm(),
            "guest_form": GuestCheckInForm(),
            "can_manage": can_manage(request.user),
        },
    )


@manager_required
def visit_check_in(request: AuthenticatedRequest) -> HttpResponse:
    """Member check-in in two steps: look the card up (the desk sees its photo), confirm."""
    room = room_get()
    data = request.POST if request.method == "POST" else request.GET
    form = CardCheckInForm(data or None)
    card = None
    if form.is_valid():
        card = selectors.card_get_by_number(room=room, number=form.cleaned_data["card"])
        if card is None:
            form.add_error("card", _("No card with this number."))
        elif request.method == "POST":
            try:
                services.visit_check_in(room=room, card=card, by=request.user)
            except ValidationError as exc:
                _errors(form, exc)
            else:
                messages.success(request, _("%(name)s checked in.") % {"name": card.member.name})
                return redirect("members:visit_list")
    return render(
        request,
        "members/visit_check_in.html",
        {"form": form, "card": card, "today": timezone.localdate()},
    )


@require_POST
@manager_required
def visit_guest_check_in(request: AuthenticatedRequest) -> HttpResponse:
    form = GuestCheckInForm(request.POST)
    if form.is_valid():
        try:
            services.visit_check_in(
                room=room_get(),
                guest_name=form.cleaned_data["guest_name"],
                guest_phone=form.cleaned_data["guest_phone"],
                request_key=form.cleaned_data["request_key"],
                by=request.user,
            )
        except ValidationError as exc:
            _flash_errors(request, exc)
        else:
            messages.success(
                request, _("%(name)s checked in.") % {"name": form.cleaned_data["guest_name"]}
            )
    else:
        messages.error(request, _("Enter the non-member's name."))
    return redirect("members:visit_list")


@require_POST
@manager_required
def visit_check_out(request: AuthenticatedRequest, pk: int) -> HttpResponse:
    visit = get_object_or_404(Visit, pk=pk, room=room_get())
    try:
        visit = services.visit_check_out(visit=visit, by=request.user)
    except ValidationError as exc:
        _flash_errors(request, exc)
        return redirect("members:visit_list")
    if visit.is_guest and visit.fee:
        messages.success(
            request,
            _("%(name)s checked out: %(hours)s hour(s), %(fee)s yuan, receipt %(receipt)s.")
            % {
                "name": visit.visitor_name,
                "hours": visit.hours_billed,
                "fee": visit.fee,
                "receipt": visit.receipt.number,
            },
        )
    else:
        messages.success(request, _("%(name)s checked out.") % {"name": visit.visitor_name})
    return redirect("members:visit_list")


# ------------------------------------------------------------ tables, room


@reader_required
def table_list(request: AuthenticatedRequest) -> HttpResponse:
    room = room_get()
    return render(
        request,
        "members/table_list.html",
        {
            "tables": selectors.tables_active(room=room),
            "free_count": selectors.tables_free_count(room=room),
            "can_manage": can_manage(request.user),
        },
    )


@require_POST
@manager_required
def table_toggle(request: AuthenticatedRequest, pk: int) -> HttpResponse:
    table = get_object_or_404(Table, pk=pk, room=room_get())
    try:
        services.table_set_occupied(table=table, occupied=not table.occupied)
    except ValidationError as exc:
        _flash_errors(request, exc)
    return redirect("members:table_list")


@reader_required
def room_settings(request: AuthenticatedRequest) -> HttpResponse:
    room = room_get()
    manage = can_manage(request.user)
    initial: dict[str, Any] = {
        "card_fee": room.card_fee,
        "renewal_fee": room.renewal_fee,
        "guest_hourly_fee": room.guest_hourly_fee,
        "notice": room.notice,
    }
    form = RoomSettingsForm(request.POST or None, initial=initial)
    if request.method == "POST":
        if not manage:
            raise PermissionDenied
        if form.is_valid():
            try:
                core_services.room_settings_update(room=room, **form.cleaned_data)
            except ValidationError as exc:
                _errors(form, exc)
            else:
                messages.success(request, _("Saved."))
                return redirect("members:room_settings")
    return render(
        request,
        "members/room_settings.html",
        {
            "form": form,
            "exception_form": OpeningExceptionForm(),
            "hours_form": WeeklyHoursForm(
                initial=WeeklyHoursForm.initial_from(selectors.weekly_periods(room=room))
            ),
            "weekly": [
                (Weekday(day).label, opens, closes)
                for day, opens, closes in selectors.weekly_periods(room=room)
            ],
            "exceptions": selectors.opening_exceptions_upcoming(room=room),
            "can_manage": manage,
        },
    )


@require_POST
@manager_required
def opening_hours_update(request: AuthenticatedRequest) -> HttpResponse:
    form = WeeklyHoursForm(request.POST)
    if form.is_valid():
        try:
            services.opening_hours_set(room=room_get(), periods=form.periods())
        except ValidationError as exc:
            _flash_errors(request, exc)
        else:
            messages.success(request, _("Saved."))
    else:
        for errors in form.errors.values():
            for error in errors:
                messages.error(request, str(error))
    return redirect("members:room_settings")


@require_POST
@manager_required
def opening_exception_create(request: AuthenticatedRequest) -> HttpResponse:
    form = OpeningExceptionForm(request.POST)
    if form.is_valid():
        data = form.cleaned_data
        try:
            services.opening_exception_create(
                room=room_get(),
                date=data["date"],
                kind=ExceptionKind(data["kind"]),
                opens=data["opens"],
                closes=data["closes"],
                note=data["note"],
            )
        except ValidationError as exc:
            _flash_errors(request, exc)
        else:
            messages.success(request, _("Saved."))
    else:
        for errors in form.errors.values():
            for error in errors:
                messages.error(request, str(error))
    return redirect("members:room_settings")


@require_POST
@manager_required
def opening_exception_delete(request: AuthenticatedRequest, pk: int) -> HttpResponse:
    exception = get_object_or_404(OpeningException, pk=pk, room=room_get())
    services.opening_exception_delete(exception=exception)
    messages.success(request, _("Deleted."))
    return redirect("members:room_settings")
