"""URLs of the books app."""

from __future__ import annotations

from django.urls import URLPattern, URLResolver

app_name = "books"

urlpatterns: list[URLPattern | URLResolver] = []
