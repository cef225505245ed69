"""URLs of the members app (mounted at /members/)."""

from __future__ import annotations

from django.urls import URLPattern, URLResolver, path

from clubapp.members import views

app_name = "members"

urlpatterns: list[URLPattern | URLResolver] = [
    path("", views.member_list, name="member_list"),
    path("new/", views.member_create, name="member_create"),
    path("me/", views.my_card, name="my_card"),
    path("<int:pk>/", views.member_detail, name="member_detail"),
    path("<int:pk>/id-number/", views.member_id_number_show, name="member_id_number_show"),
    path("<int:pk>/edit/", views.member_edit, name="member_edit"),
    path("<int:pk>/photo/", views.member_photo, name="member_photo"),
    path("<int:pk>/account/", views.member_account, name="member_account"),
    path("<int:pk>/account/reset/", views.member_account_reset, name="member_account_reset"),
    path("<int:pk>/account/active/", views.member_account_active, name="member_account_active"),
    path("<int:pk>/card/issue/", views.card_issue, name="card_issue"),
    path("cards/<int:pk>/renew/", views.card_renew, name="card_renew"),
    path("cards/<int:pk>/reissue/", views.card_reissue, name="card_reissue"),
    path("cards/<int:pk>/revoke/", views.card_revoke, name="card_revoke"),
    path("cards/<int:pk>/suspend/", views.card_suspend, name="card_suspend"),
    path("cards/<int:pk>/resume/", views.card_resume, name="card_resume"),
    path("receipts/<str:number>/", views.receipt_detail, name="receipt_detail"),
    path("visits/", views.visit_list, name="visit_list"),
    path("visits/<int:pk>/", views.visit_detail, name="visit_detail"),
    path("visits/check-in/", views.visit_check_in, name="visit_check_in"),
    path("visits/guest/", views.visit_guest_check_in, name="visit_guest_check_in"),
    path("visits/<int:pk>/check-out/", views.visit_check_out, name="visit_check_out"),
    path("tables/", views.table_list, name="table_list"),
    path("tables/<int:pk>/toggle/", views.table_toggle, name="table_toggle"),
    path("tables/<int:pk>/edit/", views.table_edit, name="table_edit"),
    path("tables/<int:pk>/active/", views.table_active, name="table_active"),
    path("settings/", views.room_settings, name="room_settings"),
    path("settings/hours/", views.opening_hours_update, name="hours_update"),
    path("settings/exceptions/", views.opening_exception_create, name="exception_create"),
    path(
        "settings/exceptions/<int:pk>/delete/",
        views.opening_exception_delete,
        name="exception_delete",
    ),
]
