from __future__ import annotations

from django.contrib import admin
from django.http import HttpRequest
from django.utils.translation import gettext_lazy as _

from clubapp.core.models import DocumentCounter, Room

admin.site.site_header = _("Card room administration")
admin.site.site_title = _("Card room")
admin.site.index_title = _("Administration")


@admin.register(Room)
class RoomAdmin(admin.ModelAdmin):
    list_display = [
        "name",
        "slug",
        "phone",
        "address",
        "card_fee",
        "renewal_fee",
        "guest_hourly_fee",
    ]

    def has_add_permission(self, request: HttpRequest) -> bool:
        # One room per deployment for now (see clubapp/core/models.py).
        return not Room.objects.exists() and super().has_add_permission(request)

    def has_delete_permission(self, request: HttpRequest, obj: Room | None = None) -> bool:
        return False


@admin.register(DocumentCounter)
class DocumentCounterAdmin(admin.ModelAdmin):
    """Read-only: a counter moved by hand would hand out a number twice."""

    list_display = ["key", "value"]

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(
        self, request: HttpRequest, obj: DocumentCounter | None = None
    ) -> bool:
        return False

    def has_delete_permission(
        self, request: HttpRequest, obj: DocumentCounter | None = None
    ) -> bool:
        return False
