"""Pages of the play app: thin, the work is in services and selectors."""

from __future__ import annotations

import json
import uuid
from typing import Any

from django.contrib import messages
from django.contrib.auth import get_user_model
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied, ValidationError
from django.http import HttpResponse, HttpResponseNotAllowed, JsonResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.template.loader import render_to_string
from django.utils.html import strip_tags
from django.utils.translation import get_language, gettext_lazy
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_http_methods, require_POST

import scoring.features
import scoring.tiles
from clubapp.core.http import AuthenticatedRequest
from clubapp.core.selectors import room_get
from clubapp.members import selectors as members_selectors
from clubapp.members.models import Member
from clubapp.play import forms, selectors, services
from clubapp.play.forms import HandEntry, RulesetForm, SessionForm, VoidForm, digest
from clubapp.play.models import SEATS, TableSession
from clubapp.play.permissions import (
    can_edit_rulesets,
    can_record,
    can_see_everyone,
    check_read_table,
    is_manager,
    manager_only,
    may_act_at_table,
    reader,
    recorder,
    ruleset_editor,
    table_actor,
)
from clubapp.play.templatetags.play import gloss
from scoring import ScoringError


def said(error: ScoringError) -> str:
    """Scoring's reason in the page's language (its own Chinese, or its English)."""
    return error.zh if (get_language() or "").startswith("zh") else str(error)


# --------------------------------------------------------------------- sessions


@reader
def session_list(request: AuthenticatedRequest) -> HttpResponse:
    """The room's tables (free, in play, marked occupied: as the desk shows them) and the
    sessions the user may read: every one for managers and accountants, a member's own."""
    room = room_get()
    sessions = selectors.session_list()
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
    room = room_get()
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
    session = selectors.session_get(pk=pk)
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
    session = selectors.session_get(pk=pk)
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
    session = selectors.session_get(pk=pk)
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
    session = selectors.session_get(pk=pk)
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
    session = selectors.session_get(pk=pk, seats=False)
    try:
        services.session_reopen(session=session, by=request.user)
    except ValidationError as exc:
        messages.error(request, " ".join(exc.messages))
    else:
        messages.success(request, _("The session is open again."))
    return redirect(session)


# --------------------------------------------------------------------- hand entry


def _glossed(choices: list[tuple[str, str]]) -> list[tuple[str, str, str]]:
    """(code, Chinese name, its English on an English page)."""
    return [(code, name, gloss(code)) for code, name in choices]


def _entry_page(
    request: AuthenticatedRequest,
    session: TableSession,
    entry: HandEntry,
    state: Any,
    preview: services.Preview | None = None,
    booked: list[selectors.Line] | None = None,
    already: tuple[str, selectors.Line | None] | None = None,
) -> HttpResponse:
    seats = forms.SEAT_CHOICES
    context: dict[str, Any] = {
        "session": session,
        # what another phone booked since this recorder's preview
        "booked": booked or [],
        # (key, its row or None): whether the confirm whose answer was lost was booked
        "already": already,
        # the winners chosen: the 放炮者 chips of these seats are not offered
        "winners": entry.hand["winners"].value() or [],
        "entering": request.method == "POST",
        "entry": entry,
        "state": state,
        "names": session.names(),
        # the choices of the page's inputs, the same under every seat and row
        "choices": {
            "seats": seats,
            "discarder": entry.hand.fields["discarder"].choices,  # type: ignore[attr-defined]
            "seat_or_none": forms.NO_SEAT + seats,
            "features": _glossed(entry.seats[0].fields["features"].choices),  # type: ignore[attr-defined]
            "flags": _glossed(entry.seats[0].fields["flags"].choices),  # type: ignore[attr-defined]
            "kong_row": [forms.NO_SEAT + seats, forms.KONG_TYPES, forms.NO_SEAT + seats],
            "penalty_row": [forms.PENALTY_TYPES, forms.NO_SEAT + seats],
        },
        "exclusions": {
            "excludes": scoring.features.conflicts(entry.family),
            "without_hard_flowers": scoring.features.without_hard_flowers(entry.family),
            "flowers": sorted(scoring.tiles.FLOWER_COPIES),
        },
    }
    if preview is not None:
        context.update(
            preview=preview,
            key=uuid.uuid4(),
            previewed=digest(entry.record()),
            after=preview.state.number,
        )
    return render(request, "play/hand_entry.html", context)


def _preview(entry: HandEntry, session: TableSession, state: Any) -> services.Preview | None:
    """The hand scored on ``state``, or None with the errors on the forms."""
    if not entry.is_valid() and not entry.changed:
        return None
    try:
        return services.hand_preview(session=session, record=entry.record(), state=state)
    except ScoringError as exc:
        entry.add_scoring_error(exc, said(exc))
        return None


@recorder
@table_actor
@require_GET
def hand_entry(request: AuthenticatedRequest, pk: int) -> HttpResponse:
    """The entry page: the table's state and an empty hand."""
    session = selectors.session_get(pk=pk)
    if not session.is_open:
        messages.error(request, services.SESSION_ENDED)
        return redirect(session)
    entry = HandEntry(ruleset=session.ruleset.as_ruleset())
    already = None
    key = request.GET.get("key")
    if key:
        # entry.js came back after a confirm it sent got no answer: was it booked?
        already = (key, selectors.row_booked_with(session=session, key=key))
    state = selectors.journal_tip(session=session).state
    return _entry_page(request, session, entry, state, already=already)


@recorder
@table_actor
@require_POST
def hand_preview(request: AuthenticatedRequest, pk: int) -> HttpResponse:
    """Score the hand without booking it: the breakdown and the payments, and a
    confirm that books exactly this on the table as it is now."""
    session = selectors.session_get(pk=pk)
    if not session.is_open:
        messages.error(request, services.SESSION_ENDED)
        return redirect(session)
    entry = HandEntry(request.POST, ruleset=session.ruleset.as_ruleset())
    state = selectors.journal_tip(session=session).state
    return _entry_page(request, session, entry, state, _preview(entry, session, state))


def _go(request: AuthenticatedRequest, to: Any) -> HttpResponse:
    """A redirect; to entry.js, which sends the confirm itself (so that it can send it
    again with the same key when no answer came), the address to go to, as JSON: a
    followed redirect would spend the page's message on a response nobody sees."""
    if request.headers.get("X-Entry-Confirm"):
        return JsonResponse({"location": to.get_absolute_url()})
    return redirect(to)


@recorder
@table_actor
@require_POST
def hand_book(request: AuthenticatedRequest, pk: int) -> HttpResponse:
    """Book what was previewed. When the hand or the table changed since the preview,
    a fresh preview; a scoring error goes beside its field; an ended session says so.
    The same key books once: a confirm sent again (entry.js retries one that got no
    answer) gets the hand its first sending booked."""
    session = selectors.session_get(pk=pk, seats=False)
    entry = HandEntry(request.POST, ruleset=session.ruleset.as_ruleset(), book=True)
    booked: list[selectors.Line] = []
    if entry.is_valid():
        assert entry.book is not None
        try:
            hand = services.hand_record(
                session=session,
                record=entry.record(),
                idempotency_key=entry.book.cleaned_data["key"],
                by=request.user,
                after=entry.book.cleaned_data["after"],
            )
        except services.SessionClosedError:
            messages.error(request, services.SESSION_ENDED)
            return _go(request, session)
        except services.TableChangedError:
            # another phone was quicker: say what it booked, and a fresh preview below
            booked = selectors.rows_since(session=session, after=entry.book.cleaned_data["after"])
        except ScoringError as exc:
            entry.add_scoring_error(exc, said(exc))
            state = selectors.journal_tip(session=session).state
            return _entry_page(request, session, entry, state)
        except ValidationError as exc:
            entry.hand.add_error(None, exc)
            state = selectors.journal_tip(session=session).state
            return _entry_page(request, session, entry, state)
        else:
            messages.success(request, _("Hand %(number)s booked.") % {"number": hand.number})
            return _go(request, session)
    elif not entry.changed:
        state = selectors.journal_tip(session=session).state
        return _entry_page(request, session, entry, state)
    if not session.is_open:
        messages.error(request, services.SESSION_ENDED)
        return _go(request, session)
    if not booked:
        messages.warning(
            request, _("The hand or the table changed since the preview: check it again.")
        )
    state = selectors.journal_tip(session=session).state
    return _entry_page(request, session, entry, state, _preview(entry, session, state), booked)


# --------------------------------------------------------------------- hands


@reader
def hand_detail(request: AuthenticatedRequest, pk: int, number: int) -> HttpResponse:
    session = selectors.session_get(pk=pk)
    check_read_table(request.user, session)
    hand = selectors.hand_get(session=session, number=number)
    signoffs = list(hand.signoffs.order_by("seat"))
    my_seat = next((seat for seat in session.seat_list() if seat.user_id == request.user.pk), None)
    return render(
        request,
        "play/hand_detail.html",
        {
            "session": session,
            "hand": hand,
            "names": session.names(),
            "lines": hand.lines.order_by("id"),
            "can_record": may_act_at_table(request.user, session),
            "void_pending": services.void_request_pending(hand=hand),
            "signoffs": signoffs,
            "my_seat": my_seat,
            # a hand confirmed for my seat no longer offers the button
            "my_confirmed": my_seat is not None
            and any(signoff.seat == my_seat.wind for signoff in signoffs),
        },
    )


@recorder
@table_actor
@require_http_methods(["GET", "POST"])
def hand_void(request: AuthenticatedRequest, pk: int, number: int) -> HttpResponse:
    """A manager voids; a seated player asks, and a second seated player confirms."""
    session = selectors.session_get(pk=pk)
    hand = selectors.hand_get(session=session, number=number)
    pending = services.void_request_pending(hand=hand)
    voids = is_manager(request.user) or (
        pending is not None and pending.requested_by_id != request.user.pk
    )
    initial = {"key": uuid.uuid4(), "reason": pending.reason if pending else ""}
    form = VoidForm(request.POST or None, initial=initial)
    if request.method == "POST" and form.is_valid():
        try:
            if voids:
                services.hand_void(
                    hand=hand,
                    reason=form.cleaned_data["reason"],
                    by=request.user,
                    idempotency_key=form.cleaned_data["key"],
                )
            else:
                services.hand_void_request(
                    hand=hand, reason=form.cleaned_data["reason"], by=request.user
                )
        except services.AlreadyVoidedError as exc:
            messages.warning(request, exc.message)  # this request voided nothing
            return redirect(session)
        except ValidationError as exc:
            form.add_error(None, exc)
        else:
            if voids:
                messages.success(request, _("Hand %(number)s is voided.") % {"number": hand.number})
            else:
                messages.success(
                    request,
                    _("Asked: a second player at the table confirms the void of hand %(number)s.")
                    % {"number": hand.number},
                )
            return redirect(session)
    return render(
        request,
        "play/hand_void.html",
        {
            "session": session,
            "hand": hand,
            "form": form,
            "names": session.names(),
            "pending": pending,
            "voids": voids,
        },
    )


@login_required
@require_POST
def hand_signoff(request: AuthenticatedRequest, pk: int, number: int) -> HttpResponse:
    session = selectors.session_get(pk=pk, seats=False)
    hand = selectors.hand_get(session=session, number=number)
    try:
        services.hand_signoff(hand=hand, by=request.user)
    except ValidationError as exc:
        messages.error(request, " ".join(exc.messages))
    else:
        messages.success(request, _("Thank you: hand %(number)s confirmed.") % {"number": number})
    return redirect("play:hand", pk=session.pk, number=number)


@reader
def hand_compare(request: AuthenticatedRequest, pk: int, number: int) -> HttpResponse:
    session = selectors.session_get(pk=pk)
    check_read_table(request.user, session)
    hand = selectors.hand_get(session=session, number=number)
    if hand.is_reversal:
        return redirect("play:hand", pk=pk, number=number)
    rows = selectors.hand_compare(hand=hand)
    chinese = (get_language() or "").startswith("zh")
    for row in rows:
        if "error" in row and chinese:
            row["error"] = row["error_zh"]
    return render(
        request,
        "play/hand_compare.html",
        {"session": session, "hand": hand, "rows": rows, "names": session.names(), "winds": SEATS},
    )


# --------------------------------------------------------------------- statements


@recorder
@require_POST
@table_actor
def settlement_create(request: AuthenticatedRequest, pk: int) -> HttpResponse:
    session = selectors.session_get(pk=pk, seats=False)
    try:
        settlement = services.settlement_make(session=session, by=request.user)
    except ValidationError as exc:
        messages.error(request, " ".join(exc.messages))
        return redirect(session)
    return redirect(settlement)


@reader
def settlement_detail(request: AuthenticatedRequest, pk: int, number: int) -> HttpResponse:
    session = selectors.session_get(pk=pk)
    check_read_table(request.user, session)
    settlement = selectors.settlement_get(session=session, number=number)
    names = settlement.statement["names"]
    return render(
        request,
        "play/settlement_detail.html",
        {
            "session": session,
            "settlement": settlement,
            "names": names,
            "rows": [
                (wind, names.get(wind, ""), settlement.statement["net"].get(wind, 0))
                for wind in SEATS
            ],
        },
    )


# --------------------------------------------------------------------- people, rulesets


@reader
def member_history(request: AuthenticatedRequest, user_id: int | None = None) -> HttpResponse:
    """A member's play: their own for members; anyone's for managers and accountants."""
    if user_id is None or user_id == request.user.pk:
        person = request.user
    elif can_see_everyone(request.user):
        person = get_object_or_404(get_user_model(), pk=user_id)
    else:
        raise PermissionDenied
    stats = selectors.member_stats(user=person)
    name = person.get_short_name() or person.get_username()
    awaiting = selectors.hands_awaiting(user=person) if person == request.user else []
    return render(
        request,
        "play/member_history.html",
        {"name": name, "stats": stats, "awaiting": awaiting},
    )


@reader
def member_points(request: AuthenticatedRequest, pk: int) -> HttpResponse:
    """A member's play, login or not (the history is the member's, not the account's):
    the member's own, or anyone's for managers and accountants."""
    member = get_object_or_404(Member, pk=pk)
    own = member.user_id is not None and member.user_id == request.user.pk
    if not (own or can_see_everyone(request.user)):
        raise PermissionDenied
    stats = selectors.member_stats(member=member)
    awaiting = selectors.hands_awaiting(user=request.user) if own else []
    return render(
        request,
        "play/member_history.html",
        {"name": member.name, "stats": stats, "awaiting": awaiting, "member": member},
    )


@reader
def ruleset_list(request: AuthenticatedRequest) -> HttpResponse:
    # versions (hashes) and ruleset ids are the managers' (and a superuser's), here
    # only: the table pages name a ruleset, never its codes; the others see each
    # ruleset by name (its newest version)
    show_codes = can_edit_rulesets(request.user) or request.user.is_superuser
    return render(
        request,
        "play/ruleset_list.html",
        {
            "rulesets": selectors.ruleset_version_list()
            if show_codes
            else selectors.ruleset_versions_latest(),
            "can_edit": can_edit_rulesets(request.user),
            "show_codes": show_codes,
        },
    )


#: the editor's JSON keys behind the columns a stored version may not fit
_RULESET_KEYS = {"ruleset_id": gettext_lazy("the id (id)"), "name": gettext_lazy("the name (name)")}


@ruleset_editor
@require_http_methods(["GET", "POST"])
def ruleset_edit(request: AuthenticatedRequest, pk: int) -> HttpResponse:
    """Edit a copy of a stored version; saving stores a new version (old hands keep theirs)."""
    base = selectors.ruleset_version_get(pk=pk)
    initial = {"params": json.dumps(base.params, ensure_ascii=False, indent=2)}
    form = RulesetForm(request.POST or None, initial=initial)
    if request.method == "POST" and form.is_valid():
        try:
            saved = services.ruleset_version_save(params=form.cleaned_data["params"])
        except ScoringError as exc:
            form.add_error("params", said(exc))
        except ValidationError as exc:
            for name, errors in exc.message_dict.items():
                label = _RULESET_KEYS.get(name, name)
                for error in errors:
                    form.add_error(
                        "params", _("%(field)s: %(error)s") % {"field": label, "error": error}
                    )
        else:
            messages.success(
                request, _("Saved as version %(version)s.") % {"version": saved.version}
            )
            return redirect("play:rulesets")
    return render(request, "play/ruleset_edit.html", {"form": form, "base": base})
