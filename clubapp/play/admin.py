"""Admin of the play app, read-only: sessions, seats, rulesets, hands and the ledger
change only through the services (a booked session's seats and rules never: the
database refuses it too); managers open, end and reopen tables on the app's pages."""

from __future__ import annotations

from django.contrib import admin
from django.db.models import Q, QuerySet
from django.http import HttpRequest

from clubapp.core.adminbase import InRoom, ReadOnlyAdmin, ReadOnlyTabularInline
from clubapp.play.models import (
    Hand,
    HandSignoff,
    LedgerLine,
    RulesetVersion,
    Seat,
    Settlement,
    TableSession,
    VoidRequest,
)


@admin.register(RulesetVersion)
class RulesetVersionAdmin(ReadOnlyAdmin):
    """The standard versions (every room's) and the request's room's own."""

    list_display = ["name", "ruleset_id", "version", "room", "created_at"]

    def get_queryset(self, request: HttpRequest) -> QuerySet[RulesetVersion]:
        return (
            super().get_queryset(request).filter(Q(room__isnull=True) | Q(room=request.room))  # type: ignore[attr-defined]
        )


class SeatInline(ReadOnlyTabularInline):
    model = Seat
    extra = 0
    max_num = 4


@admin.register(TableSession)
class TableSessionAdmin(InRoom, ReadOnlyAdmin):
    list_display = ["table", "ruleset", "mode", "started_at", "ended_at"]
    list_filter = ["mode"]
    inlines = [SeatInline]


@admin.register(Seat)
class SeatAdmin(InRoom, ReadOnlyAdmin):
    list_display = ["session", "wind", "name", "user"]


@admin.register(Hand)
class HandAdmin(InRoom, ReadOnlyAdmin):
    list_display = ["session", "number", "voids", "recorded_by", "created_at"]
    list_select_related = ["session", "voids", "recorded_by"]


@admin.register(LedgerLine)
class LedgerLineAdmin(InRoom, ReadOnlyAdmin):
    list_display = ["hand", "seat", "points", "counterparty", "reason"]
    list_select_related = ["hand__session"]


@admin.register(Settlement)
class SettlementAdmin(InRoom, ReadOnlyAdmin):
    list_display = ["session", "number", "first_number", "last_number", "created_at"]
    list_select_related = ["session"]


@admin.register(HandSignoff)
class HandSignoffAdmin(InRoom, ReadOnlyAdmin):
    list_display = ["hand", "seat", "user", "created_at"]
    list_select_related = ["hand__session", "user"]


@admin.register(VoidRequest)
class VoidRequestAdmin(InRoom, ReadOnlyAdmin):
    list_display = ["hand", "seat", "requested_by", "reason", "created_at", "reversal"]
    list_select_related = ["hand__session", "requested_by", "reversal"]
