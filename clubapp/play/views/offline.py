"""The table app installed on the phone (docs/play.md "Offline"): its manifest, its
service worker (served from the site root, controlling /play/ only) and the page it
shows when a play page cannot be reached."""

from __future__ import annotations

import hashlib
import json

from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import render
from django.templatetags.static import static
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_safe

#: the static files a phone keeps (their hashed names under WhiteNoise's manifest
#: storage): what the entry page and the offline page need
OFFLINE_STATIC = (
    "css/app.css",
    "js/app.js",
    "img/favicon.svg",
    "img/icon-192.png",
    "img/icon-512.png",
    "play/play.css",
    "play/entry.js",
    "play/table.js",
    "play/queue.js",
    "play/offline.js",
)
#: the scope of the service worker: the table pages; the office pages (books,
#: reports, members, …) are never controlled, so they are always fetched fresh
SCOPE = "/play/"


@require_safe
def manifest(request: HttpRequest) -> JsonResponse:
    """The web app manifest: Chinese name, the icons, standalone, opens on the tables."""
    data = {
        "name": "棋牌室记分",
        "short_name": "记分",
        "lang": "zh-CN",
        "start_url": reverse("play:sessions"),
        "scope": SCOPE,
        "display": "standalone",
        "background_color": "#ffffff",
        "theme_color": "#1f6f4a",
        "icons": [
            {"src": static("img/icon-192.png"), "sizes": "192x192", "type": "image/png"},
            {"src": static("img/icon-512.png"), "sizes": "512x512", "type": "image/png"},
            {
                "src": static("img/icon-512.png"),
                "sizes": "512x512",
                "type": "image/png",
                "purpose": "maskable",
            },
        ],
    }
    response = JsonResponse(data, json_dumps_params={"ensure_ascii": False})
    response["Content-Type"] = "application/manifest+json"
    return response


@never_cache
@require_safe
def service_worker(request: HttpRequest) -> HttpResponse:
    """The service worker, from the site root (its scope, /play/, is below it). Its
    version is the hash of the static names it keeps: a new deployment's hashed files
    make a new worker, which drops the old cache."""
    files = [static(name) for name in OFFLINE_STATIC]
    version = hashlib.sha256("\n".join(files).encode()).hexdigest()[:12]
    response = render(
        request,
        "play/sw.js",
        {"files": json.dumps(files), "version": version, "offline": reverse("play:offline")},
        content_type="text/javascript; charset=utf-8",
    )
    return response


@require_safe
def offline(request: HttpRequest) -> HttpResponse:
    """What a phone shows when a table page cannot be reached: what still works. The
    same page for everyone (no login, no one's data): the service worker keeps it."""
    return render(request, "play/offline.html", {"title": _("No connection")})
