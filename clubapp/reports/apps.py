from __future__ import annotations

from typing import TYPE_CHECKING, Any

from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _

if TYPE_CHECKING:
    from clubapp.core.home import Panel


class ReportsConfig(AppConfig):
    name = "clubapp.reports"
    label = "reports"
    verbose_name = _("Reports")

    def home_panels(self) -> list[Panel]:
        """What this app offers the home page (core asks; it imports no report):
        today's page, for the manager."""
        from clubapp.core.home import Panel
        from clubapp.core.roles import Role
        from clubapp.reports.selectors import today_desk

        def desk(*, room: Any, user: Any) -> Any:
            return today_desk(room=room)  # the room's desk, whoever reads it

        return [Panel(role=Role.MANAGER, name="today", template="reports/_today.html", read=desk)]
