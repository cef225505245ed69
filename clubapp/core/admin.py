from __future__ import annotations

from typing import Any

from django.contrib import admin
from django.contrib.auth import get_user_model
from django.contrib.auth.admin import UserAdmin
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest, HttpResponse
from django.utils.translation import gettext_lazy as _

from clubapp.core.adminbase import InRoom
from clubapp.core.models import DocumentCounter, Room, UserRoom

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
        "host",
    ]

    def get_queryset(self, request: HttpRequest) -> Any:
        # A room's managers see their room; a superuser every room.
        queryset = super().get_queryset(request)
        return queryset if request.user.is_superuser else queryset.filter(pk=request.room.pk)  # type: ignore[attr-defined]

    def has_add_permission(self, request: HttpRequest) -> bool:
        # New rooms: the deployment's superuser (docs/rooms.md).
        return request.user.is_superuser

    def has_delete_permission(self, request: HttpRequest, obj: Room | None = None) -> bool:
        # A room with rows is kept (its rows PROTECT it); an empty one may go.
        return request.user.is_superuser


@admin.register(UserRoom)
class UserRoomAdmin(admin.ModelAdmin):
    """Who belongs to which room: placed by the deployment's superuser."""

    list_display = ["user", "room"]
    list_filter = ["room"]
    search_fields = ["user__username", "user__first_name"]

    def has_module_permission(self, request: HttpRequest) -> bool:
        return request.user.is_superuser

    def has_view_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return request.user.is_superuser

    def has_add_permission(self, request: HttpRequest) -> bool:
        return request.user.is_superuser

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return request.user.is_superuser

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return request.user.is_superuser


@admin.register(DocumentCounter)
class DocumentCounterAdmin(InRoom, admin.ModelAdmin):
    """Read-only: a counter moved by hand would hand out a number twice."""

    list_display = ["room", "key", "value"]

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


# Fields that decide what an account may do: only a superuser changes them (issue 11).
PRIVILEGE_FIELDS = ("is_staff", "is_superuser", "groups", "user_permissions")


class AccountAdmin(UserAdmin):
    """Django's user admin, with the privilege fields a superuser's alone.

    A manager is staff with ``auth.change_user``: in Django's own admin that permission
    covers ``is_superuser``, so a manager could make themselves superuser. Here a
    non-superuser sees those fields read-only, cannot open a superuser's account,
    cannot add accounts and cannot set anyone's password (managers create logins and
    reset passwords on the accounts page, by a one-time link: docs/members.md).
    """

    def get_queryset(self, request: HttpRequest) -> Any:
        # A room's managers see their room's accounts (docs/rooms.md); the superuser all.
        queryset = super().get_queryset(request)
        if request.user.is_superuser:
            return queryset
        return queryset.filter(room_link__room=request.room)  # type: ignore[attr-defined]

    def get_readonly_fields(self, request: HttpRequest, obj: Any = None) -> Any:
        fields = list(super().get_readonly_fields(request, obj))
        if not request.user.is_superuser:
            fields += [f for f in PRIVILEGE_FIELDS if f not in fields]
            fields += ["last_login", "date_joined"]
        return fields

    def has_add_permission(self, request: HttpRequest) -> bool:
        return request.user.is_superuser

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        if obj is not None and obj.is_superuser and not request.user.is_superuser:
            return False
        return super().has_change_permission(request, obj)

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return request.user.is_superuser

    def user_change_password(
        self, request: HttpRequest, id: str, form_url: str = ""
    ) -> HttpResponse:
        # Nobody learns another person's password: a reset is a one-time link.
        if not request.user.is_superuser:
            raise PermissionDenied
        return super().user_change_password(request, id, form_url)


admin.site.unregister(get_user_model())
admin.site.register(get_user_model(), AccountAdmin)
