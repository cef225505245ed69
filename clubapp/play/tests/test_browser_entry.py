"""A recorder at the table books a normal hand on a phone-sized browser: tap the
winner, tap who dealt in, step the hard flowers, show the result, book it.

Headless Debian Chromium through Playwright (browser fixtures: clubapp/conftest.py).
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from clubapp.play.models import Hand
from clubapp.play.tests.factories import TableSessionFactory

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

#: screenshots of what the tests saw, to look at (not compared)
SHOTS = Path("/tmp")


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


def _preview_a_hand(page, live_server, session):
    page.goto(f"{live_server.url}/play/{session.pk}/hands/new/")
    page.check("input[name=winners][value=S]")
    page.check("input[name=discarder][value=E]")
    page.fill("input[name=S-hard]", "4")
    page.check("input[name=S-features][value=menqing]")
    page.click("button[name=preview]")
    page.wait_for_selector("#preview")


def _in_first_screen(page, selector):
    box = page.locator(selector).bounding_box()
    height = page.viewport_size["height"]
    return box is not None and box["y"] >= 0 and box["y"] + box["height"] <= height


def test_after_a_preview_the_result_and_the_button_are_in_the_first_screen(
    page, live_server, log_in, member
):
    session = TableSessionFactory(seated=member)
    log_in(page, member)
    _preview_a_hand(page, live_server, session)
    assert page.viewport_size["width"] == 390
    assert _in_first_screen(page, "#preview ul.payments")
    assert _in_first_screen(page, "#preview ul.wins")
    assert _in_first_screen(page, "button[name=confirm]")
    assert "48" in page.inner_text("#preview ul.wins")  # 南 小李 · 48 花 (4 hard, 门清)
    page.screenshot(path=str(SHOTS / "entry-preview-390.png"))


def test_one_winners_fields_at_a_time(page, live_server, log_in, member):
    session = TableSessionFactory(seated=member)
    log_in(page, member)
    page.goto(f"{live_server.url}/play/{session.pk}/hands/new/")
    page.check("input[name=winners][value=S]")
    page.check("input[name=winners][value=W]")
    assert page.is_visible("fieldset.winner[data-seat=S]")
    assert not page.is_visible("fieldset.winner[data-seat=W]")
    page.click(".winner-tabs button[data-winner=W]")
    assert page.is_visible("fieldset.winner[data-seat=W]")
    assert not page.is_visible("fieldset.winner[data-seat=S]")
    # the page's one palette goes under the tiles of the winner shown
    page.click("fieldset.winner[data-seat=W] .tabs button[data-way=tiles]")
    assert page.locator(".palette").count() == 1
    assert page.is_visible("fieldset.winner[data-seat=W] .palette button[data-tile='1m']")
    page.click(".palette button[data-tile='1m']")
    assert page.input_value("input[name=W-concealed]") == "1m"
    assert not page.is_visible("fieldset.winner[data-seat=W] .way-quick")


def test_the_winner_is_not_offered_as_the_discarder(page, live_server, log_in, member):
    session = TableSessionFactory(seated=member)
    log_in(page, member)
    page.goto(f"{live_server.url}/play/{session.pk}/hands/new/")
    page.check("input[name=discarder][value=S]")
    page.check("input[name=winners][value=S]")
    assert not page.is_visible("input[name=discarder][value=S] >> xpath=..")
    assert page.is_checked("input[name=discarder][value='']")  # self-drawn, not the winner
    assert page.is_visible("input[name=discarder][value=E] >> xpath=..")
    page.uncheck("input[name=winners][value=S]")
    assert page.is_visible("input[name=discarder][value=S] >> xpath=..")


def test_a_non_winners_kong_shows_in_the_preview_and_pays(page, live_server, log_in, member):
    session = TableSessionFactory(seated=member)
    log_in(page, member)
    page.goto(f"{live_server.url}/play/{session.pk}/hands/new/")
    page.check("input[name=winners][value=S]")
    page.check("input[name=discarder][value=E]")
    page.fill("input[name=S-hard]", "4")
    page.click("details summary")
    page.check("input[name=kong-0-seat][value=W]")
    page.check("input[name=kong-0-kind][value=exposed]")
    page.check("input[name=kong-0-fed_by][value=N]")
    page.click("button[name=preview]")
    preview = page.inner_text("#preview")
    assert "西 阿张 明杠 ← 北 赵姐" in preview
    assert "北 赵姐 → 西 阿张 6" in preview
    page.click("button[name=confirm]")
    page.wait_for_url(f"{live_server.url}/play/{session.pk}/")
    assert Hand.objects.get().result["net"] == {"E": -28, "S": 28, "W": 6, "N": -6}


def test_a_confirm_that_got_no_answer_is_sent_again_and_books_once(
    page, live_server, log_in, member
):
    session = TableSessionFactory(seated=member)
    log_in(page, member)
    _preview_a_hand(page, live_server, session)
    sent = []

    def first_is_lost(route):
        sent.append(re.search(rb'name="key"\r\n\r\n([^\r]+)', route.request.post_data_buffer)[1])
        if len(sent) == 1:
            route.abort("connectionreset")  # the answer never reaches the phone
        else:
            route.continue_()

    page.route("**/hands/book/", first_is_lost)
    page.click("button[name=confirm]")
    page.wait_for_url(f"{live_server.url}/play/{session.pk}/")
    assert len(sent) == 2 and sent[0] == sent[1]  # the same key
    assert Hand.objects.count() == 1
    assert "第 1 把已记账" in page.inner_text("body")


def test_a_booked_confirm_whose_answer_was_lost_is_told_after_a_reload(
    page, live_server, log_in, member, client
):
    session = TableSessionFactory(seated=member)
    log_in(page, member)  # ``client`` carries the member's session too
    _preview_a_hand(page, live_server, session)
    lost = []

    def booked_but_lost(route):
        # the server books the hand (the same request, sent by the test) …
        request = route.request
        answer = client.post(
            request.url.removeprefix(live_server.url),
            data=request.post_data_buffer,
            content_type=request.headers["content-type"],
            headers={"X-Entry-Confirm": "1"},
        )
        lost.append(answer.status_code)
        route.abort("connectionreset")  # … and its answer is lost

    page.route("**/hands/book/", booked_but_lost)
    page.click("button[name=confirm]")
    while not lost:
        page.wait_for_timeout(100)
    page.unroute("**/hands/book/")
    # the recorder gives up waiting and opens the entry page again
    page.evaluate(f"window.location.assign('{live_server.url}/play/{session.pk}/hands/new/')")
    page.wait_for_selector("#already")
    assert "第 1 把已记账" in page.inner_text("#already")
    assert lost[0] == 200 and Hand.objects.count() == 1
    page.screenshot(path=str(SHOTS / "entry-already-390.png"))
