from django.contrib import admin
from django.contrib.auth import views as auth_views
from django.urls import include, path

from clubapp.core import views as core_views
from clubapp.play.views import offline as play_offline

urlpatterns = [
    path("", core_views.home, name="home"),
    path("healthz", core_views.healthz, name="healthz"),
    # the table app on the phone (docs/play.md "Offline"): from the root, scope /play/
    path("sw.js", play_offline.service_worker, name="service_worker"),
    path("manifest.webmanifest", play_offline.manifest, name="manifest"),
    path("room/", core_views.room_switch, name="room_switch"),
    path("accounts/login/", core_views.login, name="login"),
    path("accounts/logout/", auth_views.LogoutView.as_view(), name="logout"),
    # Every account changes its own password; a member's forgotten one is replaced
    # through a one-time link a manager issues (docs/members.md "Accounts").
    path("accounts/password/", core_views.password_change, name="password_change"),
    path(
        "accounts/password/done/",
        auth_views.PasswordChangeDoneView.as_view(),
        name="password_change_done",
    ),
    path(
        "accounts/reset/<uidb64>/<token>/",
        core_views.password_reset_confirm,
        name="password_reset_confirm",
    ),
    path(
        "accounts/reset/done/",
        auth_views.PasswordResetCompleteView.as_view(),
        name="password_reset_complete",
    ),
    path("members/", include("clubapp.members.urls")),
    path("books/", include("clubapp.books.urls")),
    path("play/", include("clubapp.play.urls")),
    path("activities/", include("clubapp.activities.urls")),
    path("reports/", include("clubapp.reports.urls")),
    path("i18n/", include("django.conf.urls.i18n")),
    path("admin/", admin.site.urls),
]
