"""Pages of the members app: thin views over forms, services and selectors."""

from __future__ import annotations

import datetime as dt
from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied, ValidationError
from django.forms import Form
from django.http import FileResponse, Http404, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _
from django.views.decorators.debug import sensitive_post_parameters, sensitive_variables
from django.views.decorators.http import require_POST
from django_tables2 import RequestConfig

from clubapp.books import selectors as books_selectors
from clubapp.core import services as core_services
from clubapp.core.http import AuthenticatedRequest
from clubapp.core.selectors import room_get
from clubapp.members import selectors, services
from clubapp.members.forms import (
    AccountForm,
    AdmissionForm,
    CardCheckInForm,
    CardForm,
    CheckOutForm,
    GuestCheckInForm,
    MemberCreateForm,
    MemberEditForm,
    MemberSearchForm,
    OpeningExceptionForm,
    ReasonForm,
    RenewForm,
    RoomSettingsForm,
    TableForm,
    TableRenameForm,
    WeeklyHoursForm,
)
from clubapp.members.models import (
    Card,
    CardState,
    CardStatus,
    ExceptionKind,
    Member,
    OpeningException,
    Receipt,
    Table,
    Visit,
    Weekday,
)
from clubapp.members.permissions import (
    can_manage,
    can_read,
    can_see_id_numbers,
    id_number_viewer_required,
    manager_required,
    reader_required,
)
from clubapp.members.tables import MemberTable


def _room_member(request: AuthenticatedRequest, pk: int) -> Member:
    return get_object_or_404(Member.objects.select_related("room"), pk=pk, room=room_get())


def _room_card(pk: int) -> Card:
    return get_object_or_404(
        Card.objects.select_related("member", "member__room"), pk=pk, member__room=room_get()
    )


def _errors(form: Form, exc: ValidationError) -> None:
    """A service's refusal on the form: at the field it names, else above the form."""
    if hasattr(exc, "error_dict"):
        for field, errors in exc.error_dict.items():
            form.add_error(field if field in form.fields else None, errors)
    else:
        form.add_error(None, exc)


def _flash_errors(request: AuthenticatedRequest, exc: ValidationError) -> None:
    for message in exc.messages:
        messages.error(request, message)


# ------------------------------------------------------------------ members


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
    members = selectors.member_list(room=room_get(), q=q, state=state)
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
            if form.id_number_note:
                messages.info(request, form.id_number_note)
            return redirect(member)
    response = render(request, "members/member_form.html", {"form": form, "creating": True})
    response["Cache-Control"] = "no-store"  # a refused form shows the number typed
    return response


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
    return _member_page(request, _room_member(request, pk))


@sensitive_variables()
@require_POST
@id_number_viewer_required
def member_id_number_show(request: AuthenticatedRequest, pk: int) -> HttpResponse:
    """显示身份证号: recorded (who, when), then the member page with the full number.

    The answer to this POST is the only page that shows it; reloading the member page
    masks it again, and a resent POST is recorded again."""
    member = _room_member(request, pk)
    number = services.id_number_reveal(member=member, by=request.user)
    return _member_page(request, member, id_number=number)


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


# ----------------------------------------------------------------- accounts


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
    member = _room_member(request, pk)
    form = AccountForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            _user, path = services.member_account_create(
                member=member, username=form.cleaned_data["username"], by=request.user
            )
        except ValidationError as exc:
            _errors(form, exc)
        else:
            return _link_page(request, member, path, new=True)
    return render(request, "members/account_form.html", {"member": member, "form": form})


@require_POST
@manager_required
def member_account_reset(request: AuthenticatedRequest, pk: int) -> HttpResponse:
    member = _room_member(request, pk)
    try:
        path = services.member_account_reset(member=member, by=request.user)
    except ValidationError as exc:
        _flash_errors(request, exc)
        return redirect(member)
    return _link_page(request, member, path, new=False)


@require_POST
@manager_required
def member_account_active(request: AuthenticatedRequest, pk: int) -> HttpResponse:
    member = _room_member(request, pk)
    active = member.user is not None and not member.user.is_active
    try:
        _user, path = services.member_account_set_active(
            member=member, active=active, by=request.user
        )
    except ValidationError as exc:
        _flash_errors(request, exc)
        return redirect(member)
    if active:
        return _link_page(request, member, path, new=False)
    messages.success(request, _("The login of %(name)s is disabled.") % {"name": member.name})
    return redirect(member)


# -------------------------------------------------------------------- cards


@require_POST
@manager_required
def card_issue(request: AuthenticatedRequest, pk: int) -> HttpResponse:
    member = _room_member(request, pk)
    form = CardForm(request.POST)
    key = form.cleaned_data["request_key"] if form.is_valid() else None
    try:
        card = services.card_issue(member=member, by=request.user, request_key=key)
    except ValidationError as exc:
        _flash_errors(request, exc)
    else:
        messages.success(request, _("Card %(number)s issued.") % {"number": card.number})
    return redirect(member)


def _after_card(card: Card, next_page: str) -> HttpResponse:
    if next_page == "checkin":
        return redirect(f"{reverse('members:visit_check_in')}?card={card.pk}")
    return redirect(card.member)


@manager_required
def card_renew(request: AuthenticatedRequest, pk: int) -> HttpResponse:
    """年审 in two steps: the page shows the fee and the new end (and says when the card
    is not near its end yet); the desk confirms."""
    card = _room_card(pk)
    room = card.member.room
    form = RenewForm(request.POST or None)
    next_page = request.GET.get("next", "")
    if request.method == "POST":
        data = form.cleaned_data if form.is_valid() else {}
        next_page = data.get("next", "")
        try:
            card = services.card_renew(
                card=card,
                by=request.user,
                expected_valid_until=data.get("valid_until"),
                early=bool(data.get("early")),
                request_key=data.get("request_key"),
            )
        except ValidationError as exc:
            _flash_errors(request, exc)
        else:
            messages.success(
                request,
                _("Card %(number)s renewed until %(date)s.")
                % {"number": card.number, "date": card.valid_until.isoformat()},
            )
        return _after_card(card, next_page)
    today = timezone.localdate()
    state = card.state_on(today)
    days_left = (card.valid_until - today).days
    new_end = services.renewal_end(card=card, today=today)
    return render(
        request,
        "members/card_confirm.html",
        {
            "card": card,
            "action": "renew",
            "fee": room.renewal_fee,
            "new_end": new_end,
            "early": state == CardState.ACTIVE and days_left > room.renewal_window_days,
            "days_left": days_left,
            "refused": state not in (CardState.ACTIVE, CardState.EXPIRED),
            "next": next_page,
            "key_form": CardForm(),
        },
    )


@manager_required
def card_reissue(request: AuthenticatedRequest, pk: int) -> HttpResponse:
    """遗失补办 in two steps: the page shows the card fee and what becomes void; confirm."""
    card = _room_card(pk)
    if request.method == "POST":
        form = CardForm(request.POST)
        key = form.cleaned_data["request_key"] if form.is_valid() else None
        try:
            new = services.card_reissue(card=card, by=request.user, request_key=key)
        except ValidationError as exc:
            _flash_errors(request, exc)
        else:
            messages.success(
                request,
                _("Card %(old)s is void; new card %(new)s issued.")
                % {"old": card.number, "new": new.number},
            )
        return redirect(card.member)
    return render(
        request,
        "members/card_confirm.html",
        {
            "card": card,
            "action": "reissue",
            "fee": card.member.room.card_fee,
            "refused": card.status in (CardStatus.REVOKED, CardStatus.VOID),
            "key_form": CardForm(),
        },
    )


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
            "visits": selectors.visits_now(
                visits=selectors.visits_today(room=room), room=room, now=now
            ),
            "past_closing": selectors.visits_open_past_closing(room=room, now=now),
            "is_open": selectors.room_is_open(room=room, at=now),
            "closed_reason": selectors.check_in_refusal(room=room, at=now),
            "closes": selectors.closing_time(room=room, at=now),
            "periods": selectors.opening_periods_on(room=room, day=timezone.localdate(now)),
            "free_tables": selectors.tables_free(room=room),
            "tables": [t for t in selectors.tables_all(room=room) if t[1] != "inactive"],
            "card_form": CardCheckInForm(),
            "guest_form": GuestCheckInForm(),
            "can_manage": can_manage(request.user),
            # The cash book's box: cash on hand, the oldest receipt not handed over.
            "desk_cash": books_selectors.desk_cash(room=room, now=now),
        },
    )


@reader_required
def visit_detail(request: AuthenticatedRequest, pk: int) -> HttpResponse:
    visit = get_object_or_404(
        Visit.objects.select_related(
            "room", "member", "card", "checked_in_by", "checked_out_by", "admitted_by"
        ),
        pk=pk,
    )
    room = room_get()
    if visit.room_id != room.pk:
        raise Http404
    return render(
        request,
        "members/visit_detail.html",
        {
            "visit": visit,
            "now": selectors.visits_now(visits=[visit], room=room)[0],
            "receipt": Receipt.objects.filter(visit=visit).first(),
            "can_manage": can_manage(request.user),
        },
    )


@sensitive_post_parameters("q")
@manager_required
def visit_check_in(request: AuthenticatedRequest) -> HttpResponse:
    """Member check-in: look up (by POST: a card number in any form, a phone, a name),
    see the card's photo and state, then confirm. An expired card is offered 年审 or
    entry as a non-member instead of a button that would refuse. Outside the opening
    hours the page says why and offers a special admission with a reason."""
    room = room_get()
    form = CardCheckInForm(request.POST if "q" in request.POST else None)
    admission = AdmissionForm(request.POST if "admitted_reason" in request.POST else None)
    matches: list[tuple[Member, Card | None]] = []
    card = None
    member = None
    if request.method == "POST" and "card_id" in request.POST:
        card = _room_card(_int_or_404(request.POST["card_id"]))
        if request.POST.get("confirm"):
            reason = admission.cleaned_data["admitted_reason"] if admission.is_valid() else ""
            try:
                services.visit_check_in(
                    room=room, card=card, by=request.user, admitted_reason=reason
                )
            except ValidationError as exc:
                _flash_errors(request, exc)
            else:
                messages.success(request, _("%(name)s checked in.") % {"name": card.member.name})
                return redirect("members:visit_list")
    elif form.is_bound:
        if form.is_valid():
            matches = selectors.desk_lookup(room=room, q=form.cleaned_data["q"])
            if not matches:
                form.add_error("q", _("No member or card found."))
            elif len(matches) == 1:
                member, card = matches[0]
                matches = []
    elif request.GET.get("card"):
        card = _room_card(_int_or_404(request.GET["card"]))
    if card is not None:
        member = card.member
    return render(
        request,
        "members/visit_check_in.html",
        {
            "form": form if not card else CardCheckInForm(),
            "matches": matches,
            "card": card,
            "member": member,
            "state": card.state.value if card else "",
            "guest_form": GuestCheckInForm(
                initial={"guest_name": member.name, "guest_phone": member.phone}
            )
            if member
            else None,
            "closed_reason": selectors.check_in_refusal(room=room, at=timezone.now()),
            "admission_form": admission if admission.is_bound else AdmissionForm(),
            "today": timezone.localdate(),
        },
    )


def _int_or_404(value: str) -> int:
    try:
        return int(value)
    except (TypeError, ValueError):
        raise Http404 from None


@require_POST
@manager_required
def visit_guest_check_in(request: AuthenticatedRequest) -> HttpResponse:
    """Non-member check-in. Two questions come back on a page of their own, with what was
    typed kept: 是同一人？ (that name is already inside) and, outside the opening hours,
    the reason of a special admission."""
    form = GuestCheckInForm(request.POST)
    if not form.is_valid():
        messages.error(request, _("Enter the non-member's name."))
        return redirect("members:visit_list")
    room = room_get()
    data = form.cleaned_data
    try:
        services.visit_check_in(
            room=room,
            guest_name=data["guest_name"],
            guest_phone=data["guest_phone"],
            request_key=data["request_key"],
            admitted_reason=data["admitted_reason"],
            same_name_confirmed=data["same_name_confirmed"],
            by=request.user,
        )
    except ValidationError as exc:
        codes = {e.code for e in exc.error_list}
        if codes & {"same_name", "room_closed"}:
            return render(
                request,
                "members/visit_guest_check_in.html",
                {
                    "form": form,
                    "errors": [m for e in exc.error_list for m in e.messages],
                    "same_name": selectors.visit_same_name_present(
                        room=room, guest_name=data["guest_name"]
                    ),
                    "closed_reason": selectors.check_in_refusal(room=room, at=timezone.now()),
                },
            )
        _flash_errors(request, exc)
    else:
        messages.success(request, _("%(name)s checked in.") % {"name": data["guest_name"]})
    return redirect("members:visit_list")


def _left_at(visit: Visit, time: dt.time | None) -> dt.datetime | None:
    """The time of leaving the desk typed, on the day of the check-in."""
    if time is None:
        return None
    day = timezone.localtime(visit.checked_in_at).date()
    return timezone.make_aware(dt.datetime.combine(day, time))


def _checked_out(request: AuthenticatedRequest, visit: Visit) -> HttpResponse:
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


@manager_required
def visit_check_out(request: AuthenticatedRequest, pk: int) -> HttpResponse:
    """离场 in two steps: the page shows the time and the fee; the desk confirms the cash.
    A visit still open after closing is closed with a time (the closing time unless the
    desk types another and recalculates)."""
    visit = get_object_or_404(Visit.objects.select_related("room", "member", "card"), pk=pk)
    if visit.room_id != room_get().pk:
        raise Http404
    form = CheckOutForm(request.POST if request.method == "POST" else None)
    left_at = None
    if request.method == "POST":
        if not form.is_valid():
            messages.error(request, _("Enter the time the person left as hours and minutes."))
            return redirect("members:visit_check_out", pk=visit.pk)
        left_at = _left_at(visit, form.cleaned_data["left_at"])
        if "recalculate" not in request.POST:
            try:
                done = services.visit_check_out(
                    visit=visit,
                    by=request.user,
                    expected_fee=form.cleaned_data["fee"],
                    left_at=left_at,
                    request_key=form.cleaned_data["request_key"],
                )
            except ValidationError as exc:
                _flash_errors(request, exc)
                visit.refresh_from_db()
                if not visit.is_open:
                    return redirect("members:visit_list")
                # back on the confirmation, with the time typed and the fee for it
            else:
                return _checked_out(request, done)
    if not visit.is_open:
        messages.error(
            request, _("%(name)s has checked out already.") % {"name": visit.visitor_name}
        )
        return redirect("members:visit_list")
    now = timezone.now()
    past_closing = selectors.visit_is_past_closing(visit=visit, now=now)
    closing = selectors.visit_closing_at(visit=visit)
    if left_at is None:
        left_at = closing if past_closing else now
    elif not visit.checked_in_at <= left_at <= now:
        if "recalculate" in request.POST:  # a confirmation was refused by the service
            messages.error(request, _("The time of leaving must be between the check-in and now."))
        left_at = closing if past_closing else now
    hours, fee = selectors.visit_fee_so_far(visit=visit, left_at=left_at)
    return render(
        request,
        "members/visit_check_out.html",
        {
            "visit": visit,
            "minutes": int((left_at - visit.checked_in_at).total_seconds() // 60),
            "hours": hours,
            "fee": fee,
            "past_closing": past_closing,
            "closing": closing,
            "left_at": left_at,
            "form": CheckOutForm(
                initial={"fee": fee, "left_at": timezone.localtime(left_at).time()}
            ),
        },
    )


# ------------------------------------------------------------ tables, room


@reader_required
def table_list(request: AuthenticatedRequest) -> HttpResponse:
    room = room_get()
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
                _errors(form, exc)
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
    table = get_object_or_404(Table, pk=pk, room=room_get())
    form = TableRenameForm(request.POST or None, initial={"name": table.name})
    if request.method == "POST" and form.is_valid():
        try:
            services.table_rename(table=table, name=form.cleaned_data["name"], by=request.user)
        except ValidationError as exc:
            _errors(form, exc)
        else:
            messages.success(request, _("Saved."))
            return redirect("members:table_list")
    return render(request, "members/table_edit.html", {"table": table, "form": form})


@require_POST
@manager_required
def table_active(request: AuthenticatedRequest, pk: int) -> HttpResponse:
    table = get_object_or_404(Table, pk=pk, room=room_get())
    try:
        table = services.table_set_active(table=table, active=not table.active, by=request.user)
    except ValidationError as exc:
        _flash_errors(request, exc)
    else:
        done = _("%(table)s is in use.") if table.active else _("%(table)s is out of use.")
        messages.success(request, done % {"table": table.label})
    return redirect("members:table_list")


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
        "renewal_window_days": room.renewal_window_days,
        "handover_limit_days": room.handover_limit_days,
        "default_ruleset": room.default_ruleset,
        "fund_may_go_negative": "yes" if room.fund_may_go_negative else "no",
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
            "default_ruleset_name": dict(form.fields["default_ruleset"].choices).get(  # type: ignore[attr-defined]
                room.default_ruleset, ""
            ),
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
