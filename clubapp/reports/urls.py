"""URLs of the reports app (mounted at /reports/)."""

from __future__ import annotations

from django.urls import URLPattern, URLResolver, path

from clubapp.reports import views

app_name = "reports"

urlpatterns: list[URLPattern | URLResolver] = [
    path("today/", views.today, name="today"),
    path("monthly/", views.monthly, name="monthly"),
    path("monthly.xlsx", views.monthly_xlsx, name="monthly_xlsx"),
    path("monthly.pdf", views.monthly_pdf, name="monthly_pdf"),
    path("lists/<slug:slug>/", views.list_page, name="list"),
    path("lists/<slug:slug>.xlsx", views.list_export, {"fmt": "xlsx"}, name="list_xlsx"),
    path("lists/<slug:slug>.csv", views.list_export, {"fmt": "csv"}, name="list_csv"),
    path("sessions/<int:pk>/sheet/", views.sheet_page, name="sheet"),
    path("sessions/<int:pk>/sheet.pdf", views.sheet_pdf, name="sheet_pdf"),
    path("sessions/<int:pk>/sheet.xlsx", views.sheet_xlsx, name="sheet_xlsx"),
    path("cards/", views.card_batch, name="cards"),
    path("cards/sheet.pdf", views.card_sheet_pdf, name="card_sheet_pdf"),
    path("cards/<int:pk>.pdf", views.card_pdf, name="card_pdf"),
    path("receipts/<str:number>.pdf", views.receipt_pdf, name="receipt_pdf"),
    # Every room's totals side by side (a district reader has no room: docs/rooms.md).
    path("district/", views.district, name="district"),
    path("district.xlsx", views.district_xlsx, name="district_xlsx"),
]
