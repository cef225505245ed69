"""Pages of the activities app: plans (docs/activities.md)."""

from __future__ import annotations

from django.urls import URLPattern

urlpatterns: list[URLPattern] = []
