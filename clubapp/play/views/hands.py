"""Pages of a hand: entry, preview and booking (one outcome mapped in one place), its
page, its void, a player's sign-off, the comparison under other rulesets."""

from __future__ import annotations

import uuid
from typing import TYPE_CHECKING, Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.http import HttpResponse, JsonResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_http_methods, require_POST

import scoring.features
import scoring.tiles
from clubapp.core.http import AuthenticatedRequest
from clubapp.play import forms, selectors, services
from clubapp.play.forms import HandEntry, VoidForm, digest
from clubapp.play.models import SEATS, TableSession
from clubapp.play.permissions import (
    check_read_table,
    is_manager,
    may_act_at_table,
    reader,
    recorder,
    table_actor,
)
from clubapp.play.refusals import said, worded
from clubapp.play.templatetags.play import gloss
from scoring import ScoringError, night
from scoring.rulesets import Ruleset

if TYPE_CHECKING:
    from django_stubs_ext import StrOrPromise


def _glossed(choices: list[tuple[str, str]]) -> list[tuple[str, str, str]]:
    """(code, Chinese name, its English on an English page)."""
    return [(code, name, gloss(code)) for code, name in choices]


def _entry_page(
    request: AuthenticatedRequest,
    session: TableSession,
    entry: HandEntry,
    ruleset: Ruleset,
    *,
    preview: bool = False,
    booked: list[selectors.Line] | None = None,
    already: tuple[str, selectors.Line | None] | None = None,
) -> HttpResponse:
    """The entry page on the table as it now is; ``preview``: with the hand scored on
    it under ``ruleset`` (or scoring's error beside its field)."""
    tip = selectors.journal_tip(session=session)
    state = tip.state
    scored = _preview(entry, session, ruleset, state) if preview else None
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
        # the basis a hand kept offline on this page follows (docs/play.md "Offline")
        "settled": tip.settled_through,
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
    if scored is not None:
        context.update(
            preview=scored,
            key=_queued_key(request) or uuid.uuid4(),
            previewed=digest(entry.record()),
            after=scored.state.number,
        )
    return render(request, "play/hand_entry.html", context)


def _queued_key(request: AuthenticatedRequest) -> uuid.UUID | None:
    """The key of a hand kept offline and held for review: its preview books it under
    that key, so the phone's queue finds it booked (and drops it) when it next replays."""
    try:
        return uuid.UUID(request.POST.get("queued_key", ""))
    except ValueError:
        return None


def _preview(
    entry: HandEntry, session: TableSession, ruleset: Ruleset, state: night.State
) -> services.Preview | None:
    """The hand scored on ``state``, or None with the errors on the forms."""
    if not entry.is_valid() and not entry.changed:
        return None
    try:
        return services.hand_preview(
            session=session, ruleset=ruleset, record=entry.record(), state=state
        )
    except ScoringError as exc:
        entry.add_scoring_error(exc, said(exc))
        return None


@recorder
@table_actor
@require_GET
def hand_entry(request: AuthenticatedRequest, pk: int) -> HttpResponse:
    """The entry page: the table's state and an empty hand."""
    session = selectors.session_get(room=request.room, pk=pk)
    if not session.is_open:
        messages.error(request, services.SESSION_ENDED)
        return redirect(session)
    ruleset = session.ruleset.as_ruleset()
    already = None
    key = request.GET.get("key")
    if key:
        # entry.js came back after a confirm it sent got no answer: was it booked?
        already = (key, selectors.row_booked_with(session=session, key=key))
    response = _entry_page(request, session, HandEntry(ruleset=ruleset), ruleset, already=already)
    if not key:
        # the service worker keeps this page for offline use (the table's page, the
        # recorder's own); js/app.js drops it at logout
        response["X-Offline-Keep"] = "1"
    return response


@recorder
@table_actor
@require_POST
def hand_preview(request: AuthenticatedRequest, pk: int) -> HttpResponse:
    """Score the hand without booking it: the breakdown and the payments, and a
    confirm that books exactly this on the table as it is now."""
    session = selectors.session_get(room=request.room, pk=pk)
    if not session.is_open:
        messages.error(request, services.SESSION_ENDED)
        return redirect(session)
    ruleset = session.ruleset.as_ruleset()
    entry = HandEntry(request.POST, ruleset=ruleset)
    return _entry_page(request, session, entry, ruleset, preview=True)


@recorder
@table_actor
@require_POST
def hand_book(request: AuthenticatedRequest, pk: int) -> HttpResponse:
    """Book what was previewed. The outcomes, each mapped once: booked → the table's
    page; the session ended → the table's page, saying so; the hand or the table
    changed since the preview → a fresh preview on the table as it now is (with what
    another phone booked); a form's or scoring's error → beside its field. The same key
    books once: a confirm sent again (entry.js retries one that got no answer) gets the
    hand its first sending booked."""
    session = selectors.session_get(room=request.room, pk=pk, seats=False)
    ruleset = session.ruleset.as_ruleset()  # parsed once: the forms and the booking
    if request.headers.get("X-Entry-Queued"):
        return _book_queued(request, session, ruleset)
    entry = HandEntry(request.POST, ruleset=ruleset, book=True)
    valid = entry.is_valid()
    changed = not valid and entry.changed  # the hand is not the one previewed
    booked: list[selectors.Line] = []  # what another phone booked since the preview
    said_at_table: tuple[int, StrOrPromise] | None = None  # back to the table, saying it
    if valid:
        assert entry.book is not None
        after = entry.book.cleaned_data["after"]
        try:
            hand = services.hand_record(
                session=session,
                ruleset=ruleset,
                record=entry.record(),
                idempotency_key=entry.book.cleaned_data["key"],
                by=request.user,
                after=after,
            )
        except services.SessionClosedError:
            said_at_table = (messages.ERROR, services.SESSION_ENDED)
        except services.TableChangedError:
            changed = True
            booked = selectors.rows_since(session=session, after=after)
        except ScoringError as exc:
            entry.add_scoring_error(exc, said(exc))
        except ValidationError as exc:
            entry.hand.add_error(None, exc)
        else:
            booked_message = _("Hand %(number)s booked.") % {"number": hand.number}
            said_at_table = (messages.SUCCESS, booked_message)
    if changed and not session.is_open:
        said_at_table = (messages.ERROR, services.SESSION_ENDED)
    if said_at_table is not None:
        messages.add_message(request, *said_at_table)
        url = reverse("play:session", args=[session.pk])
        if request.headers.get("X-Entry-Confirm"):
            # entry.js sends the confirm itself (so that it can send it again with the
            # same key when no answer came): it gets the address, as JSON; a followed
            # redirect would spend the page's message on a response nobody sees
            return JsonResponse({"location": url})
        return redirect(url)
    if not changed:
        return _entry_page(request, session, entry, ruleset)  # the errors beside their fields
    if not booked:
        messages.warning(
            request, _("The hand or the table changed since the preview: check it again.")
        )
    return _entry_page(request, session, entry, ruleset, preview=True, booked=booked)


def _book_queued(
    request: AuthenticatedRequest, session: TableSession, ruleset: Ruleset
) -> JsonResponse:
    """A hand the phone kept while offline (play/offline.js), sent when the network is
    back, as JSON for the queue: booked; already booked under its key (nothing booked
    again); or held for the recorder: the table changed since its basis (another
    phone's hand, a void, a statement), the session ended, or the hand is refused."""
    entry = HandEntry(request.POST, ruleset=ruleset, book=True, queued=True)
    if not entry.is_valid():
        errors = [str(e) for form in entry.forms() for e in _form_errors(form)]
        if entry.book is not None:
            errors += [str(e) for e in _form_errors(entry.book)]
        return JsonResponse({"outcome": "invalid", "errors": errors})
    assert entry.book is not None
    data = entry.book.cleaned_data
    already = selectors.row_booked_with(session=session, key=str(data["key"]))
    if already is not None:
        return JsonResponse({"outcome": "already", "number": already.hand.number})
    try:
        hand = services.hand_record(
            session=session,
            ruleset=ruleset,
            record=entry.record(),
            idempotency_key=data["key"],
            by=request.user,
            after=data["after"],
            settled=data["settled"],
        )
    except services.SessionClosedError:
        return JsonResponse({"outcome": "closed", "errors": [str(services.SESSION_ENDED)]})
    except services.TableChangedError as exc:
        return JsonResponse({"outcome": "changed", "errors": list(exc.messages)})
    except ScoringError as exc:
        return JsonResponse({"outcome": "invalid", "errors": [str(said(exc))]})
    except ValidationError as exc:
        return JsonResponse({"outcome": "invalid", "errors": list(exc.messages)})
    return JsonResponse({"outcome": "booked", "number": hand.number})


def _form_errors(form: Any) -> list[Any]:
    """Every error of a form or a formset, flat."""
    if hasattr(form, "forms"):  # a formset
        return [*form.non_form_errors(), *(e for f in form.forms for e in _form_errors(f))]
    return [e for errors in form.errors.values() for e in errors]


# --------------------------------------------------------------------- hands


@reader
def hand_detail(request: AuthenticatedRequest, pk: int, number: int) -> HttpResponse:
    session = selectors.session_get(room=request.room, pk=pk)
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
    session = selectors.session_get(room=request.room, pk=pk)
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
        except services.AlreadyVoidedError as exc:  # (a ValidationError: before it)
            messages.warning(request, exc.message)  # this request voided nothing
            return redirect(session)
        except services.SessionClosedError as exc:
            form.add_error(None, exc.messages)  # a player's request after the end
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
    session = selectors.session_get(room=request.room, pk=pk, seats=False)
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
    session = selectors.session_get(room=request.room, pk=pk)
    check_read_table(request.user, session)
    hand = selectors.hand_get(session=session, number=number)
    if hand.is_reversal:
        return redirect("play:hand", pk=pk, number=number)
    rows = selectors.hand_compare(hand=hand)
    for row in rows:
        if "error" in row:
            row["error"] = worded(row["error_code"], row["error_params"])
    return render(
        request,
        "play/hand_compare.html",
        {"session": session, "hand": hand, "rows": rows, "names": session.names(), "winds": SEATS},
    )
