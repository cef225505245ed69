"""URLs of the play app (mounted at /play/)."""

from __future__ import annotations

from django.urls import URLPattern, URLResolver, path

from clubapp.play import views

app_name = "play"

urlpatterns: list[URLPattern | URLResolver] = [
    path("", views.session_list, name="sessions"),
    path("new/", views.session_create, name="session_create"),
    path("<int:pk>/", views.session_detail, name="session"),
    path("<int:pk>/end/", views.session_end, name="session_end"),
    path("<int:pk>/reopen/", views.session_reopen, name="session_reopen"),
    path("<int:pk>/tip/", views.session_tip, name="session_tip"),
    path("<int:pk>/hands/", views.session_hands, name="session_hands"),
    path("<int:pk>/hands/new/", views.hand_entry, name="hand_entry"),
    path("<int:pk>/hands/preview/", views.hand_preview, name="hand_preview"),
    path("<int:pk>/hands/book/", views.hand_book, name="hand_book"),
    path("<int:pk>/hands/<int:number>/", views.hand_detail, name="hand"),
    path("<int:pk>/hands/<int:number>/confirm/", views.hand_signoff, name="hand_signoff"),
    path("<int:pk>/hands/<int:number>/compare/", views.hand_compare, name="hand_compare"),
    path("<int:pk>/hands/<int:number>/void/", views.hand_void, name="hand_void"),
    path("<int:pk>/settle/", views.settlement_create, name="settlement_create"),
    path("<int:pk>/settlements/<int:number>/", views.settlement_detail, name="settlement"),
    path("me/", views.member_history, name="my_history"),
    path("members/<int:user_id>/", views.member_history, name="member_history"),
    path("member/<int:pk>/", views.member_points, name="member_points"),
    path("rulesets/", views.ruleset_list, name="rulesets"),
    path("rulesets/<int:pk>/edit/", views.ruleset_edit, name="ruleset_edit"),
]
