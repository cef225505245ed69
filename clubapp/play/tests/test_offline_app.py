"""The installable table app (docs/play.md "Offline"): the manifest, the service
worker from the site root controlling /play/ only, and the offline page."""

from __future__ import annotations

import json

from django.conf import settings
from django.contrib.staticfiles import finders
from django.templatetags.static import static
from django.urls import reverse

from clubapp.play.views.offline import OFFLINE_STATIC


def test_the_manifest_opens_standalone_on_the_members_tables(client, db):
    response = client.get("/manifest.webmanifest")
    assert response["Content-Type"] == "application/manifest+json"
    manifest = json.loads(response.content)
    assert manifest["name"] == "棋牌室记分"
    assert manifest["display"] == "standalone"
    assert manifest["start_url"] == "/play/" and manifest["scope"] == "/play/"
    assert {icon["sizes"] for icon in manifest["icons"]} == {"192x192", "512x512"}
    for icon in manifest["icons"]:  # made in the repository (scripts/make_icons.py)
        assert finders.find(icon["src"].removeprefix(settings.STATIC_URL))


def test_the_worker_comes_from_the_root_fresh_and_keeps_the_static_names(client, db):
    response = client.get("/sw.js")
    assert response.status_code == 200
    assert response["Content-Type"].startswith("text/javascript")
    assert "no-cache" in response["Cache-Control"]
    body = response.content.decode()
    for name in OFFLINE_STATIC:
        assert json.dumps(static(name)) in body  # the names as served (hashed in production)
    assert '"/play/offline/"' in body
    assert "&quot;" not in body and "&#x27;" not in body  # not HTML-escaped


def test_the_offline_page_says_what_still_works_and_holds_no_ones_data(client, member):
    client.force_login(member)
    response = client.get("/play/offline/")
    html = response.content.decode()
    assert "没有网络" in html and "仍然可以" in html and "待提交" in html
    assert member.username not in html  # the same page for everyone: the worker keeps it


def test_the_office_pages_are_never_under_the_worker(client, manager, accountant):
    """Books, reports and the desk stay fresh: outside the worker's scope, and none of
    them loads the script that registers it."""
    assert client.get("/manifest.webmanifest").json()["scope"] == "/play/"
    for user, path in (
        (accountant, reverse("books:home")),
        (accountant, reverse("reports:monthly")),
        (manager, reverse("members:member_list")),
        (manager, reverse("home")),
    ):
        client.force_login(user)
        response = client.get(path)
        assert response.status_code == 200, path
        assert not path.startswith("/play/")
        html = response.content.decode()
        assert "play/offline.js" not in html and "serviceWorker" not in html, path
