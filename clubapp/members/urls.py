"""URLs of the members app."""

from __future__ import annotations

from django.urls import URLPattern, URLResolver

app_name = "members"

urlpatterns: list[URLPattern | URLResolver] = []
