"""Pages of the activities app: checks (docs/activities.md)."""

from __future__ import annotations

from django.urls import URLPattern

urlpatterns: list[URLPattern] = []
