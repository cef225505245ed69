"""The app's URLs and, at ``/bench/bare/``, the yardstick of the load scenario: a view
that needs a login and renders the site's base template, with no work of its own, so
it pays what every page pays (the whole middleware stack: session, user, room, CSRF,
messages, the menu) and nothing else (as in ``bench/play_bench.py``)."""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.template import engines
from django.urls import include, path

# compiled once, as the cached template loader keeps the app's own templates
PAGE = engines["django"].from_string('{% extends "base.html" %}{% block content %}ok{% endblock %}')


@login_required
def bare(request: HttpRequest) -> HttpResponse:
    return HttpResponse(PAGE.render({}, request))


urlpatterns = [path("bench/bare/", bare), path("", include("clubapp.urls"))]
