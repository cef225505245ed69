"""A recorder at the table books a normal hand on a phone-sized browser: tap the
winner, tap who dealt in, step the hard flowers, show the result, book it.

Headless Debian Chromium through Playwright (browser fixtures: clubapp/conftest.py).
"""

from __future__ import annotations

import pytest

from clubapp.play.models import Hand
from clubapp.play.tests.factories import TableSessionFactory

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_it_books_a_normal_hand_in_a_few_taps(page, live_server, log_in, member):
    session = TableSessionFactory(seated=member)
    log_in(page, member)
    page.goto(f"{live_server.url}/play/{session.pk}/")
    page.click("text=记一把")
    page.check("input[name=winners][value=S]")
    assert page.is_visible("fieldset.winner[data-seat=S]")
    assert not page.is_visible("fieldset.winner[data-seat=N]")
    page.check("input[name=discarder][value=E]")
    for _ in range(4):
        page.click("fieldset.winner[data-seat=S] .stepper button[data-step='1'] >> nth=0")
    page.click("button[name=preview]")
    assert "跑20" in page.inner_text("#preview")
    page.click("button[name=confirm]")
    page.wait_for_url(f"{live_server.url}/play/{session.pk}/")
    assert Hand.objects.get().result["net"]["S"] == 28
    assert "+28" in page.inner_text(".seats")


def test_clashing_feature_ticks_grey_out(page, live_server, log_in, member):
    session = TableSessionFactory(seated=member)
    log_in(page, member)
    page.goto(f"{live_server.url}/play/{session.pk}/hands/new/")
    page.check("input[name=winners][value=E]")
    page.check("input[name=E-features][value=qidui]")
    assert page.is_disabled("input[name=E-features][value=menqing]")
    assert page.is_disabled("input[name=E-features][value=haohua_qidui]")
    assert not page.is_disabled("input[name=E-features][value=qingyise]")
    page.uncheck("input[name=E-features][value=qidui]")
    page.fill("input[name=E-hard]", "2")
    assert page.is_disabled("input[name=E-features][value=wuhuaguo]")  # 无花果: no hard flower


def test_the_palette_types_tiles_and_flowers(page, live_server, log_in, member):
    session = TableSessionFactory(seated=member)
    log_in(page, member)
    page.goto(f"{live_server.url}/play/{session.pk}/hands/new/")
    page.check("input[name=winners][value=S]")
    block = "fieldset.winner[data-seat=S]"
    page.click(f"{block} .tabs button[data-way=tiles]")
    for tile in ("1m", "2m", "3m", "7z", "1f"):
        page.click(f"{block} .palette .suits button[data-suit='{tile[1]}']")  # the suit's keys
        page.click(f"{block} .palette button[data-tile='{tile}']")
    assert page.input_value("input[name=S-concealed]") == "1m2m3m"
    assert page.input_value("input[name=S-flowers]") == "7z1f"
    page.click(f"{block} .palette button[data-tile=back]")
    assert page.input_value("input[name=S-concealed]") == "1m2m"
    assert page.is_visible("input[name=S-others_ponged]")
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
