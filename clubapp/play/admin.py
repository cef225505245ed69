"""Admin of the play app, read-only: sessions, seats, rulesets, hands and the ledger
change only through the services (a booked session's seats and rules never: the
database refuses it too); managers open, end and reopen tables on the app's pages."""

from __future__ import annotations

from django.contrib import admin

from clubapp.core.adminbase import ReadOnlyAdmin, ReadOnlyTabularInline
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
    list_display = ["name", "ruleset_id", "version", "created_at"]


class SeatInline(ReadOnlyTabularInline):
    model = Seat
    extra = 0
    max_num = 4


@admin.register(TableSession)
class TableSessionAdmin(ReadOnlyAdmin):
    list_display = ["table", "ruleset", "mode", "started_at", "ended_at"]
    list_filter = ["mode", "ruleset"]
    inlines = [SeatInline]


@admin.register(Seat)
class SeatAdmin(ReadOnlyAdmin):
    list_display = ["session", "wind", "name", "user"]


@admin.register(Hand)
class HandAdmin(ReadOnlyAdmin):
    list_display = ["session", "number", "voids", "recorded_by", "created_at"]
    list_select_related = ["session", "voids", "recorded_by"]


@admin.register(LedgerLine)
class LedgerLineAdmin(ReadOnlyAdmin):
    list_display = ["hand", "seat", "points", "counterparty", "reason"]
    list_select_related = ["hand__session"]


@admin.register(Settlement)
class SettlementAdmin(ReadOnlyAdmin):
    list_display = ["session", "number", "first_number", "last_number", "created_at"]
    list_select_related = ["session"]


@admin.register(HandSignoff)
class HandSignoffAdmin(ReadOnlyAdmin):
    list_display = ["hand", "seat", "user", "created_at"]
    list_select_related = ["hand__session", "user"]


@admin.register(VoidRequest)
class VoidRequestAdmin(ReadOnlyAdmin):
    list_display = ["hand", "seat", "requested_by", "reason", "created_at", "reversal"]
    list_select_related = ["hand__session", "requested_by", "reversal"]
