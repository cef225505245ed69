"""Pages of the play app: thin, the work is in services and selectors."""

from __future__ import annotations

import json
import uuid
from collections.abc import Callable
from functools import wraps
from typing import Any

from django.contrib import messages
from django.contrib.auth import get_user_model
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied, ValidationError
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.html import format_html_join
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_POST

from clubapp.core.selectors import room_get
from clubapp.play import entry, selectors, services
from clubapp.play.forms import RulesetForm, SessionForm, VoidForm
from clubapp.play.models import SEATS, Hand
from clubapp.play.permissions import (
    can_edit_rulesets,
    can_read,
    can_record,
    can_see_everyone,
)
from clubapp.play.templatetags.play import tile_name
from scoring import ScoringError

View = Callable[..., HttpResponse]


def _needs(check: Callable[[Any], bool]) -> Callable[[View], View]:
    def decorator(view: View) -> View:
        @login_required
        @wraps(view)
        def wrapped(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
            if not check(request.user):
                raise PermissionDenied
            return view(request, *args, **kwargs)

        return wrapped

    return decorator


reader = _needs(can_read)
recorder = _needs(can_record)


@reader
def session_list(request: HttpRequest) -> HttpResponse:
    return render(
        request,
        "play/session_list.html",
        {"sessions": selectors.session_list()[:50], "can_record": can_record(request.user)},
    )


@recorder
@require_http_methods(["GET", "POST"])
def session_create(request: HttpRequest) -> HttpResponse:
    room = room_get()
    form = SessionForm(request.POST or None, room=room)
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        try:
            session = services.session_create(
                room=room,
                table_number=data["table_number"],
                ruleset=data["ruleset"],
                mode=data["mode"],
                garden_size=data["garden_size"],
                end_when_out=data["end_when_out"],
                settle_every=data["settle_every"] or None,
                jiang_count=data["jiang_count"],
                seats=[
                    services.SeatIn(
                        wind=w,
                        name=data[f"name_{w}"] or "",
                        user=data[f"user_{w}"],
                        visit=data[f"visit_{w}"],
                    )
                    for w in SEATS
                ],
                user=request.user,
            )
        except ValidationError as exc:
            form.add_error(None, exc)
        else:
            return redirect(session)
    return render(request, "play/session_create.html", {"form": form})


def _seat_names(session: Any) -> dict[str, str]:
    return {seat.wind: seat.name for seat in session.seat_list()}


def _session_context(request: HttpRequest, session: Any, detail: int | None) -> dict[str, Any]:
    state = selectors.table_state_cached(session, detail=detail)
    names = _seat_names(session)
    return {
        "session": session,
        "state": state,
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
        "names": names,
        # the cached fragments vary on the players' names (an edit in the admin shows)
        "seat_key": "|".join(f"{wind}:{name}" for wind, name in names.items()),
        "winds": SEATS,
        "pending": selectors.settlement_pending(session, state),
        "settlements": state.statements,
        "can_record": can_record(request.user),
    }


@reader
def session_detail(request: HttpRequest, pk: int) -> HttpResponse:
    session = selectors.session_get(pk)
    context = _session_context(request, session, selectors.RECENT_ENTRIES)
    return render(request, "play/session_detail.html", context)


@reader
def session_hands(request: HttpRequest, pk: int) -> HttpResponse:
    """Every entry of a session with its points: the session's history."""
    session = selectors.session_get(pk)
    return render(request, "play/session_hands.html", _session_context(request, session, None))


@recorder
@require_POST
def settlement_create(request: HttpRequest, pk: int) -> HttpResponse:
    session = selectors.session_get(pk)
    try:
        settlement = services.settlement_make(session=session, user=request.user)
    except ValidationError as exc:
        messages.error(request, " ".join(exc.messages))
        return redirect(session)
    return redirect(settlement)


@reader
def settlement_detail(request: HttpRequest, pk: int, number: int) -> HttpResponse:
    session = selectors.session_get(pk)
    settlement = selectors.settlement_get(session, number)
    names = settlement.statement.get("names") or _seat_names(session)
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


@reader
def hand_detail(request: HttpRequest, pk: int, number: int) -> HttpResponse:
    session = selectors.session_get(pk)
    hand = selectors.hand_get(session, number)
    return render(
        request,
        "play/hand_detail.html",
        {
            "session": session,
            "hand": hand,
            "names": _seat_names(session),
            "lines": hand.lines.order_by("id"),
            "record_json": json.dumps(hand.record, ensure_ascii=False, indent=1),
            "can_record": can_record(request.user),
            "signoffs": hand.signoffs.order_by("seat"),
            "my_seat": session.seats.filter(user=request.user).first(),
        },
    )


@recorder
@require_http_methods(["GET", "POST"])
def hand_void(request: HttpRequest, pk: int, number: int) -> HttpResponse:
    session = selectors.session_get(pk)
    hand = selectors.hand_get(session, number)
    form = VoidForm(request.POST or None, initial={"key": uuid.uuid4()})
    if request.method == "POST" and form.is_valid():
        try:
            services.hand_void(
                hand=hand,
                reason=form.cleaned_data["reason"],
                user=request.user,
                idempotency_key=form.cleaned_data["key"],
            )
        except ValidationError as exc:
            form.add_error(None, exc)
        else:
            messages.success(request, _("Hand %(number)s is voided.") % {"number": hand.number})
            return redirect(session)
    return render(
        request,
        "play/hand_void.html",
        {"session": session, "hand": hand, "form": form, "names": _seat_names(session)},
    )


@recorder
@require_POST
def session_end(request: HttpRequest, pk: int) -> HttpResponse:
    session = selectors.session_get(pk)
    services.session_end(session=session)
    messages.success(request, _("The session is closed."))
    return redirect(session)


@reader
def ruleset_list(request: HttpRequest) -> HttpResponse:
    return render(
        request,
        "play/ruleset_list.html",
        {
            "rulesets": selectors.ruleset_version_list(),
            "can_edit": can_edit_rulesets(request.user),
        },
    )


@_needs(can_edit_rulesets)
@require_http_methods(["GET", "POST"])
def ruleset_edit(request: HttpRequest, pk: int) -> HttpResponse:
    """Edit a copy of a stored version; saving stores a new version (old hands keep theirs)."""
    base = selectors.ruleset_version_get(pk)
    initial = {"params": json.dumps(base.params, ensure_ascii=False, indent=2)}
    form = RulesetForm(request.POST or None, initial=initial)
    if request.method == "POST" and form.is_valid():
        try:
            saved = services.ruleset_version_save(params=form.cleaned_data["params"])
        except ScoringError as exc:
            form.add_error("params", exc.zh)
        else:
            messages.success(
                request, _("Saved as version %(version)s.") % {"version": saved.version}
            )
            return redirect("play:rulesets")
    return render(request, "play/ruleset_edit.html", {"form": form, "base": base})


def _previewed(record: dict[str, Any]) -> str:
    return json.dumps(record, sort_keys=True, ensure_ascii=False)


@recorder
@require_http_methods(["GET", "POST"])
def hand_entry(request: HttpRequest, pk: int) -> HttpResponse:
    """Enter a hand: a POST with ``preview`` shows the scored result and payments;
    a POST with ``confirm`` (and the previewed record and key) books it.

    The same fields travel with both, so nothing typed is lost; confirm books only
    what was previewed on the table as it was then, else it shows a fresh preview.
    """
    if request.method == "POST" and "confirm" in request.POST:
        booked = _book_as_previewed(request, pk)
        if booked is not None:
            return booked
    session = selectors.session_get(pk)
    if not session.is_open:
        messages.error(request, _("The session has ended."))
        return redirect(session)
    form = entry.HandEntryForm(request.POST or None, ruleset=session.ruleset)
    context: dict[str, Any] = {"session": session, "form": form}
    if request.method == "POST":
        key = request.POST.get("key") or ""
        confirm = "confirm" in request.POST and _is_uuid(key)
        if (
            confirm
            and request.POST.get("basis") != str(session.last_entry)
            and Hand.objects.filter(idempotency_key=key, session=session).exists()
        ):
            # a double tap: the first tap booked it (and so moved the table on)
            return redirect(session)
        if form.is_valid():
            record = form.record()
            proposals = entry.propose_liable(record, session.ruleset.family)
            basis = str(session.last_entry)
            matches = (
                confirm
                and request.POST.get("previewed") == _previewed(record)
                and request.POST.get("basis") == basis
            )
            if matches:
                # what was previewed, on the table as it was: book it (hand_record scores
                # it again under the session lock; an error lands on the form)
                try:
                    hand = services.hand_record(
                        session=session,
                        record=record,
                        idempotency_key=key,
                        user=request.user,
                        after=int(basis),
                    )
                except ScoringError as exc:
                    form.add_error(entry.error_field(exc, record, form), exc.zh)
                except services.TableChangedError:
                    matches = False  # another phone was quicker: preview on the new state
                    basis = str(selectors.session_marks(session)[0])
                except ValidationError as exc:
                    form.add_error(None, exc)
                else:
                    messages.success(
                        request, _("Hand %(number)s booked.") % {"number": hand.number}
                    )
                    return redirect(session)
            if not matches and not form.errors:
                try:
                    prepared, result = services.hand_preview(
                        session=session, record=record, state=_entry_state(session, basis)
                    )
                except ScoringError as exc:
                    form.add_error(entry.error_field(exc, record, form), exc.zh)
                else:
                    if "confirm" in request.POST:
                        messages.warning(
                            request,
                            _("The hand or the table changed since the preview: check it again."),
                        )
                    context.update(
                        preview=result,
                        prepared=prepared,
                        proposals=proposals,
                        key=key if _is_uuid(key) else str(uuid.uuid4()),
                        previewed=_previewed(record),
                        basis=basis,
                        ruleset_token=f"{session.ruleset.pk}:{session.ruleset.version}",
                    )
    state = _entry_state(session, context.get("basis"))
    names = _seat_names(session)
    context.update(
        state=state,
        names=names,
        palette=PALETTE_HTML,
        conflicts=entry.conflicts(session.ruleset),
    )
    return render(request, "play/hand_entry.html", context)


def _book_as_previewed(request: HttpRequest, pk: int) -> HttpResponse | None:
    """A confirm's short way: book what was previewed without reading the table first.

    The preview page carries the key, the record as previewed, the entry it followed
    (``basis``) and the ruleset version; ``hand_record`` reads and locks the table in
    one statement and checks all of them against it. None whenever anything is off
    (a changed hand or table, an error, an ended session): the full way then reads
    the table and shows why, or a fresh preview.
    """
    key, basis = request.POST.get("key") or "", request.POST.get("basis") or ""
    ruleset = selectors.ruleset_version_for(request.POST.get("ruleset") or "")
    if ruleset is None or not basis.isdigit() or not _is_uuid(key):
        return None
    form = entry.HandEntryForm(request.POST, ruleset=ruleset)
    if not form.is_valid():
        return None
    record = form.record()
    entry.propose_liable(record, ruleset.family)  # as the preview did
    if request.POST.get("previewed") != _previewed(record):
        return None
    try:
        hand = services.hand_record(
            session=pk,
            record=record,
            idempotency_key=key,
            user=request.user,
            after=int(basis),
            ruleset=ruleset,
        )
    except (ScoringError, ValidationError):
        return None
    messages.success(request, _("Hand %(number)s booked.") % {"number": hand.number})
    return redirect("play:session", pk=pk)


def _entry_state(session: Any, basis: str | None) -> selectors.TableState:
    """The state the entry page shows and previews on: the session's as loaded, or,
    after another phone was quicker, as it is now."""
    if basis is None or int(basis) == session.last_entry:
        return selectors.table_state_cached(session)
    return selectors.table_state(session)


def _is_uuid(value: str) -> bool:
    try:
        uuid.UUID(value)
    except ValueError:
        return False
    return True


#: the tile palette of the entry page: suits in rows, then winds and flowers
PALETTE = [
    [f"{n}m" for n in range(1, 10)],
    [f"{n}p" for n in range(1, 10)],
    [f"{n}s" for n in range(1, 10)],
    ["1z", "2z", "3z", "4z", "5z", "6z", "7z"],
    [f"{n}f" for n in range(1, 9)],
]
#: its buttons, the same under every winner and on every page: made once
PALETTE_HTML = format_html_join(
    "",
    '<button type="button" data-tile="{}">{}</button>',
    ((tile, tile_name(tile)) for row in PALETTE for tile in row),
)


@login_required
@require_POST
def hand_signoff(request: HttpRequest, pk: int, number: int) -> HttpResponse:
    session = selectors.session_get(pk)
    hand = selectors.hand_get(session, number)
    try:
        services.hand_signoff(hand=hand, user=request.user)
    except ValidationError as exc:
        messages.error(request, " ".join(exc.messages))
    else:
        messages.success(request, _("Thank you: hand %(number)s confirmed.") % {"number": number})
    return redirect("play:hand", pk=session.pk, number=number)


@reader
def member_history(request: HttpRequest, user_id: int | None = None) -> HttpResponse:
    """A member's play: their own for members; anyone's for managers and accountants."""
    if user_id is None or user_id == request.user.pk:
        person = request.user
    elif can_see_everyone(request.user):
        person = get_object_or_404(get_user_model(), pk=user_id)
    else:
        raise PermissionDenied
    stats = selectors.member_stats(person)
    return render(request, "play/member_history.html", {"person": person, "stats": stats})


@reader
def hand_compare(request: HttpRequest, pk: int, number: int) -> HttpResponse:
    session = selectors.session_get(pk)
    hand = selectors.hand_get(session, number)
    if hand.is_reversal:
        return redirect("play:hand", pk=pk, number=number)
    return render(
        request,
        "play/hand_compare.html",
        {
            "session": session,
            "hand": hand,
            "rows": selectors.hand_compare(hand),
            "names": _seat_names(session),
            "winds": SEATS,
        },
    )
