"""URLs of the play app (mounted at /play/)."""

from __future__ import annotations

from django.urls import URLPattern, URLResolver, path

from clubapp.play.views import hands, offline, people, rulesets, sessions, settlements

app_name = "play"

urlpatterns: list[URLPattern | URLResolver] = [
    path("", sessions.session_list, name="sessions"),
    path("offline/", offline.offline, name="offline"),
    path("new/", sessions.session_create, name="session_create"),
    path("<int:pk>/", sessions.session_detail, name="session"),
    path("<int:pk>/end/", sessions.session_end, name="session_end"),
    path("<int:pk>/reopen/", sessions.session_reopen, name="session_reopen"),
    path("<int:pk>/tip/", sessions.session_tip, name="session_tip"),
    path("<int:pk>/hands/", sessions.session_hands, name="session_hands"),
    path("<int:pk>/hands/new/", hands.hand_entry, name="hand_entry"),
    path("<int:pk>/hands/preview/", hands.hand_preview, name="hand_preview"),
    path("<int:pk>/hands/book/", hands.hand_book, name="hand_book"),
    path("<int:pk>/hands/<int:number>/", hands.hand_detail, name="hand"),
    path("<int:pk>/hands/<int:number>/confirm/", hands.hand_signoff, name="hand_signoff"),
    path("<int:pk>/hands/<int:number>/compare/", hands.hand_compare, name="hand_compare"),
    path("<int:pk>/hands/<int:number>/void/", hands.hand_void, name="hand_void"),
    path("<int:pk>/settle/", settlements.settlement_create, name="settlement_create"),
    path("<int:pk>/settlements/<int:number>/", settlements.settlement_detail, name="settlement"),
    path("me/", people.member_history, name="my_history"),
    path("members/<int:user_id>/", people.member_history, name="member_history"),
    path("member/<int:pk>/", people.member_points, name="member_points"),
    path("rulesets/", rulesets.ruleset_list, name="rulesets"),
    path("rulesets/<int:pk>/edit/", rulesets.ruleset_edit, name="ruleset_edit"),
]
