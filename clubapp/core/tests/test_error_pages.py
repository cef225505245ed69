"""Chinese 403 / 404 / 500 pages with a way back; English in English mode; the CSP."""

from __future__ import annotations

import pytest
from django.test import RequestFactory
from django.urls import reverse
from django.utils import translation
from django.views.defaults import server_error

pytestmark = pytest.mark.django_db


def test_it_shows_a_chinese_404_with_a_way_home(client, member):
    client.force_login(member)
    response = client.get("/no-such-page/")
    assert response.status_code == 404
    body = response.content.decode()
    assert "页面不存在" in body and f'href="{reverse("home")}"' in body


def test_it_shows_a_chinese_403_with_a_way_home(client, member):
    client.force_login(member)
    response = client.get(reverse("members:member_list"))
    assert response.status_code == 403
    body = response.content.decode()
    assert "无权访问" in body and "返回首页" in body


def test_it_shows_english_error_pages_in_english_mode(client, member):
    client.force_login(member)
    client.cookies["django_language"] = "en"
    assert "Page not found" in client.get("/no-such-page/").content.decode()
    assert "Not allowed" in client.get(reverse("members:member_list")).content.decode()


def test_it_shows_a_chinese_500_without_the_request_context():
    request = RequestFactory().get("/")
    with translation.override("zh-hans"):
        response = server_error(request)
    assert response.status_code == 500
    body = response.content.decode()
    assert "出错了" in body and f'href="{reverse("home")}"' in body


def test_a_stale_form_gets_a_chinese_csrf_page(member):
    from django.test import Client

    client = Client(enforce_csrf_checks=True)
    client.force_login(member)
    response = client.post(reverse("logout"))
    assert response.status_code == 403
    assert "表单已过期" in response.content.decode()


def test_every_page_sends_a_content_security_policy(client, manager):
    client.force_login(manager)
    policy = client.get(reverse("home"))["Content-Security-Policy"]
    assert "default-src 'self'" in policy
    assert "script-src 'self'" in policy and "unsafe-inline" not in policy
    assert "frame-ancestors 'none'" in policy


def test_no_page_template_has_inline_script_or_style():
    """Every template a browser gets (the CSP refuses inline script and style; issue 26
    found two books pages whose Print button did nothing). The PDF-only templates are
    WeasyPrint's, which no policy binds: the sheet of cards places each card by
    ``style``."""
    from pathlib import Path

    from django.conf import settings

    root = Path(settings.BASE_DIR) / "templates"
    pdf_only = {"reports/card_sheet.html"}
    offenders = []
    for path in sorted(root.rglob("*.html")):
        if str(path.relative_to(root)) in pdf_only:
            continue
        text = path.read_text()
        for needle in ("<script>", "<style", " style=", " onclick=", " onchange=", " onsubmit="):
            if needle in text:
                offenders.append(f"{path.relative_to(root)}: {needle.strip()}")
    assert offenders == []
