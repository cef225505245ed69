"""Admin of the play app: sessions and seats editable; rulesets, hands and the
ledger read-only (they change only through services, and the ledger never)."""

from __future__ import annotations

from typing import Any

from django.contrib import admin
from django.http import HttpRequest

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


class ReadOnlyAdmin(admin.ModelAdmin):
    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


@admin.register(RulesetVersion)
class RulesetVersionAdmin(ReadOnlyAdmin):
    list_display = ["name", "ruleset_id", "version", "created_at"]


class SeatInline(admin.TabularInline):
    model = Seat
    extra = 0
    max_num = 4


@admin.register(TableSession)
class TableSessionAdmin(admin.ModelAdmin):
    list_display = ["table", "ruleset", "mode", "started_at", "ended_at"]
    list_filter = ["mode", "ruleset"]
    inlines = [SeatInline]


@admin.register(Seat)
class SeatAdmin(admin.ModelAdmin):
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
