"""Pages of statements (结账)."""

from __future__ import annotations

from django.contrib import messages
from django.core.exceptions import ValidationError
from django.http import HttpResponse
from django.shortcuts import redirect, render
from django.views.decorators.http import require_POST

from clubapp.core.http import AuthenticatedRequest
from clubapp.play import selectors, services
from clubapp.play.models import SEATS
from clubapp.play.permissions import (
    check_read_table,
    reader,
    recorder,
    table_actor,
)


@recorder
@require_POST
@table_actor
def settlement_create(request: AuthenticatedRequest, pk: int) -> HttpResponse:
    session = selectors.session_get(room=request.room, pk=pk, seats=False)
    try:
        settlement = services.settlement_make(session=session, by=request.user)
    except (ValidationError, services.PlayError) as exc:  # nothing to settle; ended
        messages.error(request, " ".join(exc.messages))
        return redirect(session)
    return redirect(settlement)


@reader
def settlement_detail(request: AuthenticatedRequest, pk: int, number: int) -> HttpResponse:
    session = selectors.session_get(room=request.room, pk=pk)
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
