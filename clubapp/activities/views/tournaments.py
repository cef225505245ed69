"""Pages of the activities app: tournaments (docs/activities.md)."""

from __future__ import annotations

from django.urls import URLPattern

urlpatterns: list[URLPattern] = []
