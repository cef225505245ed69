from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class CoreConfig(AppConfig):
    name = "clubapp.core"
    label = "core"
    verbose_name = _("Room and accounts")

    def ready(self) -> None:
        from clubapp.core import checks  # noqa: F401 - registers the system checks
