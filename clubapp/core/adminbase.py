"""The admin's one read-only base: rows written by services only (the books, the ledger,
receipts, members, table sessions and their seats) are shown in the admin, never added,
changed or deleted there. The room's everyday work has pages of its own."""

from __future__ import annotations

from typing import Any

from django.contrib import admin
from django.http import HttpRequest


class ReadOnly:
    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


class ReadOnlyAdmin(ReadOnly, admin.ModelAdmin):
    pass


class ReadOnlyTabularInline(ReadOnly, admin.TabularInline):
    pass


class InRoom:
    """The admin of a room-keyed model shows the rows of the request's room only (a
    row of another room is not found); a superuser switches room to see another's."""

    def get_queryset(self, request: HttpRequest) -> Any:
        queryset = super().get_queryset(request)  # type: ignore[misc]
        return queryset.filter(room=request.room)  # type: ignore[attr-defined]
