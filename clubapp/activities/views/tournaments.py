"""Pages of the activities app: tournaments (docs/activities.md, Tournaments).

Anyone with a role reads the list, a tournament's standings (page and PDF) and their
own results; a manager creates, enters, pairs or draws, records results, opens the
麻将 tables' sessions and closes.
"""

from __future__ import annotations

from django.contrib import messages
from django.core.exceptions import ValidationError
from django.http import HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import URLPattern, path
from django.utils.http import content_disposition_header
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST, require_safe

from clubapp.activities.forms_tournaments import (
    DrawForm,
    EntrantForm,
    ResultForm,
    RoundSetForm,
    TableOpenForm,
    TournamentForm,
)
from clubapp.activities.models import Format, Pairing, RoundTable, Tournament
from clubapp.activities.permissions import can_manage, manager_required, public_required
from clubapp.activities.selectors import tournaments as selectors
from clubapp.activities.services import tournaments as services
from clubapp.core.http import AuthenticatedRequest
from clubapp.reports.pdf import render_template_pdf


def _flash(request: AuthenticatedRequest, exc: ValidationError) -> None:
    for message in exc.messages:
        messages.error(request, message)


def _get(request: AuthenticatedRequest, pk: int) -> Tournament:
    return selectors.tournament_get(room=request.room, pk=pk)


@public_required
@require_safe
def tournament_list(request: AuthenticatedRequest) -> HttpResponse:
    return render(
        request,
        "activities/tournament_list.html",
        {
            "tournaments": selectors.tournament_list(room=request.room),
            "can_manage": can_manage(request.user),
        },
    )


@manager_required
def tournament_create(request: AuthenticatedRequest) -> HttpResponse:
    room = request.room
    form = TournamentForm(request.POST or None, room=room)
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        try:
            tournament = services.tournament_create(
                room=room,
                name=data["name"],
                game=data["game"],
                format=data["format"],
                starts=data["starts"],
                ends=data["ends"],
                rounds_planned=data["rounds_planned"],
                entry_fee=data["entry_fee"],
                ruleset=data["ruleset"],
                rank_by=data["rank_by"],
                placings=data["placings"],
                planned=data["planned"],
                by=request.user,
            )
        except ValidationError as exc:
            for message in exc.messages:
                form.add_error(None, message)
        else:
            messages.success(request, _("Tournament created: now enter its players."))
            return redirect("activities:tournament_detail", pk=tournament.pk)
    return render(request, "activities/tournament_form.html", {"form": form})


def _standings_context(request: AuthenticatedRequest, tournament: Tournament) -> dict[str, object]:
    return {
        "tournament": tournament,
        "standings": selectors.tournament_standings(tournament=tournament),
        "pairing_game": selectors.is_pairing_game(tournament),
        "room": request.room,
    }


@public_required
@require_safe
def tournament_detail(request: AuthenticatedRequest, pk: int) -> HttpResponse:
    tournament = _get(request, pk)
    manage = can_manage(request.user) and not tournament.is_closed
    entrant = selectors.entrant_for_user(tournament=tournament, user=request.user)
    rounds = selectors.rounds_view(tournament=tournament)
    context = {
        **_standings_context(request, tournament),
        "rounds": rounds,
        "entrants": selectors.entrant_list(tournament=tournament),
        "mine": entrant,
        "own": selectors.own_results(tournament=tournament, entrant=entrant) if entrant else [],
        "manage": manage,
        "can_manage": can_manage(request.user),
    }
    if manage:
        room = request.room
        context.update(
            entrant_form=EntrantForm(room=room) if not rounds else None,
            draw_form=DrawForm() if tournament.format == Format.TABLES else None,
            result_form=ResultForm(),
            open_form=TableOpenForm(room=room),
        )
    return render(request, "activities/tournament_detail.html", context)


@public_required
@require_safe
def tournament_pdf(request: AuthenticatedRequest, pk: int) -> HttpResponse:
    tournament = _get(request, pk)
    data = render_template_pdf(
        "activities/tournament_standings.html",
        {**_standings_context(request, tournament), "layout": "reports/document.html"},
    )
    response = HttpResponse(data, content_type="application/pdf")
    # a Chinese file name (Django writes filename*=utf-8''…), as the reports' downloads
    response["Content-Disposition"] = (
        content_disposition_header(True, f"赛事成绩_{tournament.name}.pdf") or "attachment"
    )
    response["Cache-Control"] = "private, no-store"
    return response


@require_POST
@manager_required
def entrant_add(request: AuthenticatedRequest, pk: int) -> HttpResponse:
    tournament = _get(request, pk)
    form = EntrantForm(request.POST, room=tournament.room)
    if not form.is_valid():
        messages.error(request, _("Choose the member to enter."))
        return redirect("activities:tournament_detail", pk=pk)
    try:
        entrant = services.entrant_add(
            tournament=tournament,
            member=form.cleaned_data["member"],
            late=form.cleaned_data["late"],
            request_key=form.cleaned_data["request_key"],
            by=request.user,
        )
    except ValidationError as exc:
        _flash(request, exc)
    else:
        message = _("%(name)s entered (no. %(number)s).") % {
            "name": entrant.member.name,
            "number": entrant.number,
        }
        if entrant.fee is not None:
            message += " " + _("Receipt %(receipt)s: %(amount)s yuan booked.") % {
                "receipt": entrant.fee.reference,
                "amount": entrant.fee.amount,
            }
        messages.success(request, message)
    return redirect("activities:tournament_detail", pk=pk)


@require_POST
@manager_required
def round_next(request: AuthenticatedRequest, pk: int) -> HttpResponse:
    """Pair the next round (pairing games) or draw its seats (麻将)."""
    tournament = _get(request, pk)
    try:
        if tournament.format == Format.TABLES:
            form = DrawForm(request.POST)
            if not form.is_valid():
                raise ValidationError(
                    _("A seed is a whole number below %(limit)s.") % {"limit": services.SEED_LIMIT}
                )
            round_ = services.round_draw(
                tournament=tournament, seed=form.cleaned_data["seed"], by=request.user
            )
            messages.success(
                request,
                _("Round %(number)s drawn with seed %(seed)s.")
                % {"number": round_.number, "seed": round_.seed},
            )
        else:
            round_ = services.round_pair(tournament=tournament, by=request.user)
            messages.success(request, _("Round %(number)s paired.") % {"number": round_.number})
    except ValidationError as exc:
        _flash(request, exc)
    return redirect("activities:tournament_detail", pk=pk)


@manager_required
def round_set(request: AuthenticatedRequest, pk: int) -> HttpResponse:
    tournament = _get(request, pk)
    entrants = list(selectors.entrant_list(tournament=tournament))
    form = RoundSetForm(request.POST or None, entrants=entrants)
    if request.method == "POST" and form.is_valid():
        try:
            round_ = services.round_set(
                tournament=tournament, tables=form.tables(), by=request.user
            )
        except ValidationError as exc:
            for message in exc.messages:
                form.add_error(None, message)
        else:
            messages.success(request, _("Round %(number)s seated.") % {"number": round_.number})
            return redirect("activities:tournament_detail", pk=pk)
    return render(
        request, "activities/tournament_round_form.html", {"form": form, "tournament": tournament}
    )


@require_POST
@manager_required
def result_record(request: AuthenticatedRequest, pk: int, pairing: int) -> HttpResponse:
    tournament = _get(request, pk)
    # any pairing of the room: the service says when it is not this tournament's
    the_pairing = get_object_or_404(Pairing, pk=pairing, room=request.room)
    form = ResultForm(request.POST)
    try:
        if not form.is_valid():
            raise ValidationError(_("Choose the result."))
        first, second = form.scores()
        services.result_record(
            tournament=tournament,
            pairing=the_pairing,
            first_score=first,
            second_score=second,
            by=request.user,
        )
    except ValidationError as exc:
        _flash(request, exc)
    else:
        messages.success(request, _("Result entered: %(a)s–%(b)s.") % {"a": first, "b": second})
    return redirect("activities:tournament_detail", pk=pk)


@require_POST
@manager_required
def table_open(request: AuthenticatedRequest, pk: int, table: int) -> HttpResponse:
    tournament = _get(request, pk)
    round_table = get_object_or_404(
        RoundTable, pk=table, room=request.room, round__tournament=tournament
    )
    form = TableOpenForm(request.POST, room=tournament.room)
    try:
        if not form.is_valid():
            raise ValidationError(_("Choose a free table of the room."))
        session = services.round_table_open(
            table=round_table, board=form.cleaned_data["board"], by=request.user
        )
    except ValidationError as exc:
        _flash(request, exc)
        return redirect("activities:tournament_detail", pk=pk)
    messages.success(request, _("The table's session is open: book its hands there."))
    return redirect(session)


@require_POST
@manager_required
def tournament_close(request: AuthenticatedRequest, pk: int) -> HttpResponse:
    tournament = _get(request, pk)
    if request.POST.get("confirm") != "yes":
        messages.error(request, _("Tick the box to confirm: the standings become final."))
        return redirect("activities:tournament_detail", pk=pk)
    try:
        services.tournament_close(tournament=tournament, by=request.user)
    except ValidationError as exc:
        _flash(request, exc)
    else:
        messages.success(request, _("The tournament is closed: its standings are final."))
    return redirect("activities:tournament_detail", pk=pk)


urlpatterns: list[URLPattern] = [
    path("tournaments/", tournament_list, name="tournament_list"),
    path("tournaments/new/", tournament_create, name="tournament_create"),
    path("tournaments/<int:pk>/", tournament_detail, name="tournament_detail"),
    path("tournaments/<int:pk>/standings.pdf", tournament_pdf, name="tournament_pdf"),
    path("tournaments/<int:pk>/entrants/", entrant_add, name="tournament_entrant_add"),
    path("tournaments/<int:pk>/rounds/", round_next, name="tournament_round_next"),
    path("tournaments/<int:pk>/rounds/set/", round_set, name="tournament_round_set"),
    path(
        "tournaments/<int:pk>/pairings/<int:pairing>/result/",
        result_record,
        name="tournament_result",
    ),
    path("tournaments/<int:pk>/tables/<int:table>/open/", table_open, name="tournament_table_open"),
    path("tournaments/<int:pk>/close/", tournament_close, name="tournament_close"),
]
