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
