"""Pages of a table session: the list, opening one, its page and history, its end."""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.core.exceptions import PermissionDenied, ValidationError
from django.http import HttpResponse, HttpResponseNotAllowed, JsonResponse
from django.shortcuts import redirect, render
from django.template.loader import render_to_string
from django.utils.html import strip_tags
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_POST

from clubapp.core.http import AuthenticatedRequest
from clubapp.members import selectors as members_selectors
from clubapp.play import selectors, services
from clubapp.play.forms import SessionForm
from clubapp.play.models import SEATS, TableSession
from clubapp.play.permissions import (
    can_record,
    can_see_everyone,
    check_read_table,
    is_manager,
    manager_only,
    may_act_at_table,
    reader,
    recorder,
    table_actor,
)


@reader
def session_list(request: AuthenticatedRequest) -> HttpResponse:
    """The room's tables (free, in play, marked occupied: as the desk shows them) and the
    sessions the user may read: every one for managers and accountants, a member's own."""
    room = request.room
    sessions = selectors.session_list(room=room)
    if not can_see_everyone(request.user):
        sessions = sessions.filter(seats__user=request.user)
    return render(
        request,
        "play/session_list.html",
        {
            "sessions": sessions[:50],
            "tables": [
                (table, state)
                for table, state in members_selectors.tables_all(room=room)
                if state != "inactive"
            ],
            "can_record": can_record(request.user),
        },
    )


@recorder
@require_http_methods(["GET", "POST"])
def session_create(request: AuthenticatedRequest) -> HttpResponse:
    room = request.room
    manager = is_manager(request.user)
    form = SessionForm(request.POST or None, room=room, typed_names=manager)
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        try:
            session = services.session_create(
                room=room,
                table=data["table"],
                ruleset=data["ruleset"],
                mode=data["mode"],
                garden_size=data["garden_size"],
                end_when_out=data["end_when_out"],
                settle_every=data["settle_every"] or None,
                jiang_count=data["jiang_count"],
                seats=[
                    services.SeatIn(
                        wind=w,
                        name=data.get(f"name_{w}") or "",
                        reason=data.get(f"reason_{w}") or "",
                        visit=data[f"visit_{w}"],
                    )
                    for w in SEATS
                ],
                by=request.user,
            )
        except services.SeatError as exc:
            form.add_error(f"visit_{exc.wind}", exc)
        except ValidationError as exc:
            form.add_error("table" if exc.code in TABLE_ERRORS else None, exc)
        else:
            return redirect(session)
    return render(request, "play/session_create.html", {"form": form, "manager": manager})


#: errors of ``services.session_create`` shown beside the table field
TABLE_ERRORS = ("table_other_room", "table_inactive", "table_in_play")


def _table_context(
    request: AuthenticatedRequest, session: TableSession, tip: selectors.Tip
) -> dict[str, Any]:
    state = tip.state
    return {
        "session": session,
        "state": state,
        "night_over": state.night_over(session.night()),
        "seats": [
            {
                "wind": seat.wind,
                "label": seat.get_wind_display(),
                "name": seat.name,
                "balance": state.balances[seat.wind],
                "garden": state.garden_left[seat.wind] if state.garden_left else None,
                "dealer": seat.wind == state.dealer,
            }
            for seat in session.seat_list()
        ],
        "names": session.names(),
        "winds": SEATS,
        "pending": selectors.settlement_pending(session=session, tip=tip),
        "can_record": may_act_at_table(request.user, session),
        "can_reopen": is_manager(request.user) and services.session_may_reopen(session),
    }


@reader
def session_detail(request: AuthenticatedRequest, pk: int) -> HttpResponse:
    session = selectors.session_get(room=request.room, pk=pk)
    check_read_table(request.user, session)
    lines = selectors.journal_lines(session=session)
    statements = list(selectors.statements(session=session)[: selectors.RECENT])
    context = _table_context(request, session, selectors.tip_of(session, lines, statements))
    context.update(lines=lines, more=bool(lines) and lines[-1].hand.number > 1)
    context["statements"] = statements
    if any(seat.user_id == request.user.pk for seat in session.seat_list()):
        # a seated player is asked to confirm the hands of their table
        context["awaiting"] = selectors.hands_awaiting_count(session=session, user=request.user)
    return render(request, "play/session_detail.html", context)


@reader
def session_hands(request: AuthenticatedRequest, pk: int) -> HttpResponse:
    """Every row of a session's journal with its points: the session's history."""
    session = selectors.session_get(room=request.room, pk=pk)
    check_read_table(request.user, session)
    lines = selectors.journal_lines(session=session, count=None)
    statements = list(selectors.statements(session=session))
    context = _table_context(request, session, selectors.tip_of(session, lines, statements))
    context.update(lines=lines, statements=statements)
    return render(request, "play/session_hands.html", context)


@reader
def session_tip(request: AuthenticatedRequest, pk: int) -> HttpResponse:
    """The number of the journal's last row and what it was, for the table's pages to
    see that another phone booked (polled by table.js; read by the seated players,
    the accountant and managers)."""
    session = selectors.session_get(room=request.room, pk=pk)
    seated = any(seat.user_id == request.user.pk for seat in session.seat_list())
    if not (seated or can_see_everyone(request.user)):
        raise PermissionDenied
    if request.method != "GET":
        return HttpResponseNotAllowed(["GET"])
    number = selectors.journal_tip(session=session).state.number
    booked = selectors.rows_since(session=session, after=number - 1, count=1) if number else []
    text = render_to_string(
        "play/_booked.html", {"booked": booked, "names": session.names()}, request=request
    )
    return JsonResponse({"number": number, "text": strip_tags(text).strip()})


@recorder
@require_POST
@table_actor
def session_end(request: AuthenticatedRequest, pk: int) -> HttpResponse:
    """散场, in two steps: the session page's button shows what ending means and asks;
    the confirm (``confirm=yes``) ends it."""
    session = selectors.session_get(room=request.room, pk=pk)
    if not session.is_open:
        messages.info(request, services.SESSION_ENDED)
        return redirect(session)
    if request.POST.get("confirm") != "yes":
        lines = selectors.journal_lines(session=session, count=1)
        statements = list(selectors.statements(session=session)[:1])
        context = _table_context(request, session, selectors.tip_of(session, lines, statements))
        return render(request, "play/session_end.html", context)
    services.session_end(session=session, by=request.user)
    messages.success(request, _("The session is closed."))
    return redirect(session)


@manager_only
@require_POST
def session_reopen(request: AuthenticatedRequest, pk: int) -> HttpResponse:
    """A manager reopens a session ended by mistake (the same night)."""
    session = selectors.session_get(room=request.room, pk=pk, seats=False)
    try:
        services.session_reopen(session=session, by=request.user)
    except ValidationError as exc:
        messages.error(request, " ".join(exc.messages))
    else:
        messages.success(request, _("The session is open again."))
    return redirect(session)
