from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class CoreConfig(AppConfig):
    name = "clubapp.core"
    label = "core"
    verbose_name = _("Room and accounts")

    def ready(self) -> None:
        from django.contrib.auth.signals import user_logged_in, user_login_failed
        from django.db.models.signals import post_migrate

        from clubapp.core import checks  # noqa: F401 - registers the system checks
        from clubapp.core.loginlimit import count_failure
        from clubapp.core.middleware import mark_seen
        from clubapp.core.roomguards import install_row_security
        from clubapp.core.triggers import restore_missing

        user_logged_in.connect(mark_seen, dispatch_uid="club_session_seen")
        # the per-address login limit, when its count is kept in the cache (REDIS_URL)
        user_login_failed.connect(count_failure, dispatch_uid="club_login_failure")
        # SQLite drops a table's triggers when a migration rebuilds it: put back every
        # registered trigger after each migrate (and flush), whoever wrote the migration.
        post_migrate.connect(restore_missing, sender=self, dispatch_uid="club_restore_triggers")
        # PostgreSQL: each room-keyed table shows the app's role only its room's rows.
        post_migrate.connect(install_row_security, sender=self, dispatch_uid="club_row_security")
