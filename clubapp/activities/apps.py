from __future__ import annotations

from typing import TYPE_CHECKING, Any

from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _

if TYPE_CHECKING:
    from clubapp.core.home import Panel


class ActivitiesConfig(AppConfig):
    name = "clubapp.activities"
    label = "activities"
    verbose_name = _("Activities and duties")

    def home_panels(self) -> list[Panel]:
        """What this app offers the home page: the manager's duty today (who is on
        duty, the flags, the sign-on and sign-off buttons), under today's page."""
        from django.utils import timezone

        from clubapp.activities.selectors.duty import today_duty
        from clubapp.core.home import Panel
        from clubapp.core.roles import Role

        def duty(*, room: Any, user: Any) -> Any:
            return today_duty(room=room, day=timezone.localdate(), user=user)

        return [
            Panel(
                role=Role.MANAGER,
                name="duty_today",
                template="activities/_home_duty.html",
                read=duty,
            )
        ]
