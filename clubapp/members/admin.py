"""Admin of the members app, in Chinese through the verbose names.

Fees, receipts and visits are written by the services only: read-only here.
The ID number is masked here, always; the full number is shown only by the recorded
"show" action of the member page, and those viewings are listed here read-only.
Every list is the request's room's (``InRoom``); a row added here is the room's.
"""

from __future__ import annotations

from typing import Any

from django.contrib import admin
from django.http import HttpRequest
from django.utils.translation import gettext_lazy as _

from clubapp.core.adminbase import InRoom, ReadOnlyAdmin
from clubapp.members.models import (
    Card,
    IdNumberReveal,
    Member,
    OpeningException,
    OpeningPeriod,
    Receipt,
    Table,
    Visit,
)


class AddedInRoom(InRoom):
    """An editable admin of a room-keyed model: the room is not a choice (another
    room's would be offered): a row added is the request's room's."""

    exclude: Any = ["room"]

    def save_model(self, request: HttpRequest, obj: Any, form: Any, change: bool) -> None:
        if not change:
            obj.room = request.room  # type: ignore[attr-defined]
        super().save_model(request, obj, form, change)  # type: ignore[misc]


@admin.register(Member)
class MemberAdmin(InRoom, ReadOnlyAdmin):
    list_display = ["name", "phone", "masked_id_number", "created_at"]
    search_fields = ["name", "phone", "cards__number"]
    exclude = ["room", "id_number_encrypted", "id_number_hash"]
    readonly_fields = ["masked_id_number"]

    @admin.display(description=_("ID card number"))
    def masked_id_number(self, obj: Member) -> str:
        return obj.id_number_masked


@admin.register(IdNumberReveal)
class IdNumberRevealAdmin(InRoom, ReadOnlyAdmin):
    list_display = ["at", "member", "by"]
    date_hierarchy = "at"


@admin.register(Card)
class CardAdmin(InRoom, ReadOnlyAdmin):
    list_display = ["number", "member", "status", "issued_on", "valid_until"]
    list_filter = ["status"]
    search_fields = ["number", "member__name"]


@admin.register(Visit)
class VisitAdmin(InRoom, ReadOnlyAdmin):
    list_display = ["checked_in_at", "checked_out_at", "member", "guest_name", "fee"]
    date_hierarchy = "checked_in_at"


@admin.register(Receipt)
class ReceiptAdmin(InRoom, ReadOnlyAdmin):
    list_display = ["number", "kind", "amount", "payer", "paid_at"]
    list_filter = ["kind"]
    search_fields = ["number", "payer"]


@admin.register(Table)
class TableAdmin(AddedInRoom, admin.ModelAdmin):
    list_display = ["number", "active", "occupied"]
    list_editable = ["active"]


@admin.register(OpeningPeriod)
class OpeningPeriodAdmin(InRoom, ReadOnlyAdmin):
    """Read-only: the whole week is saved at once on the room settings page, so that
    editing one period never silently drops the default schedule of the others."""

    list_display = ["weekday", "opens", "closes"]
    list_filter = ["weekday"]


@admin.register(OpeningException)
class OpeningExceptionAdmin(AddedInRoom, admin.ModelAdmin):
    list_display = ["date", "kind", "opens", "closes", "note"]
