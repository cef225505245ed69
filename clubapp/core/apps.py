from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class CoreConfig(AppConfig):
    name = "clubapp.core"
    label = "core"
    verbose_name = _("Room and accounts")

    def ready(self) -> None:
        from django.contrib.auth.signals import user_logged_in

        from clubapp.core import checks  # noqa: F401 - registers the system checks
        from clubapp.core.middleware import mark_seen

        user_logged_in.connect(mark_seen, dispatch_uid="club_session_seen")
