"""Admin of the cash book: entries can be read, never added, changed or deleted here."""

from __future__ import annotations

from django.contrib import admin
from django.http import HttpRequest

from clubapp.books.models import IncomeEntry


@admin.register(IncomeEntry)
class IncomeEntryAdmin(admin.ModelAdmin):
    list_display = ["received_at", "category", "amount", "reference", "recorded_by"]
    list_filter = ["category"]
    search_fields = ["reference", "description"]

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: IncomeEntry | None = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: IncomeEntry | None = None) -> bool:
        return False
