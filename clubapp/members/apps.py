from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class MembersConfig(AppConfig):
    name = "clubapp.members"
    label = "members"
    verbose_name = _("Members and cards")

    def ready(self) -> None:
        from clubapp.members import checks  # noqa: F401 - registers the system checks
