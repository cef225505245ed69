"""URLs of the play app."""

from __future__ import annotations

from django.urls import URLPattern, URLResolver

app_name = "play"

urlpatterns: list[URLPattern | URLResolver] = []
