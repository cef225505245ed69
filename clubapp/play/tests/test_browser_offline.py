"""The table app without a connection, on a phone-sized browser (docs/play.md
"Offline"): hands recorded offline are kept on the phone, survive a reload, and are
booked once each, in order, when the network is back — even when one is sent twice;
a hand whose table changed meanwhile is held for review, never booked blindly."""

from __future__ import annotations

from pathlib import Path

import pytest
from playwright.sync_api import expect

from clubapp.play.models import Hand
from clubapp.play.tests.factories import TableSessionFactory, book, discard_win

#: screenshots of what the tests saw, to look at (not compared)
SHOTS = Path("/tmp")

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


#: resolves once the service worker controls the page (evaluate, not wait_for_function:
#: the page's CSP refuses the latter's eval)
CONTROLLED = """() => new Promise((done) => {
  const sw = navigator.serviceWorker;
  if (sw.controller) done(true); else sw.addEventListener("controllerchange", () => done(true));
})"""


def _open_offline(page, context, live_server, session):
    """The entry page, kept by the service worker, then the network cut."""
    entry = f"{live_server.url}/play/{session.pk}/hands/new/"
    page.goto(entry)
    page.evaluate(CONTROLLED)
    page.reload()  # now through the worker: the page is kept
    context.set_offline(True)


def _record(page, seat, hard="4"):
    page.check(f"input[name=winners][value={seat}]")
    page.check("input[name=discarder][value=E]")
    page.fill(f"input[name={seat}-hard]", hard)
    page.click("button[name=preview]")


def test_hands_kept_offline_are_booked_once_each_in_order(
    page, context, live_server, log_in, member
):
    session = TableSessionFactory(seated=member)
    log_in(page, member)
    _open_offline(page, context, live_server, session)
    for n, seat in enumerate(["S", "W", "N"], start=1):
        _record(page, seat)
        expect(page.locator("#queue li.waiting")).to_have_count(n)
    page.reload()  # offline: the kept page, and the queue is still there
    waiting = page.locator("#queue li.waiting")
    expect(waiting).to_have_count(3)
    page.screenshot(path=SHOTS / "offline-queue.png")
    assert waiting.nth(0).inner_text().startswith("待提交 第 1 把")
    assert "第 3 把" in waiting.nth(2).inner_text()
    assert not Hand.objects.exists()
    # the first one reaches the server but its answer is lost: it is sent again
    lost = []

    def lose_the_first_answer(route):
        if lost:
            route.continue_()
        else:
            lost.append(route.fetch())
            route.abort()

    page.route("**/hands/book/", lose_the_first_answer)
    with page.expect_event("requestfailed"):
        context.set_offline(False)  # the online event sends the queue
    expect(page.locator("#queue .queue-send")).to_be_enabled()
    assert Hand.objects.count() == 1
    page.click("#queue .queue-send")
    expect(page.locator("#queue li.queued")).to_have_count(0)
    hands = list(Hand.objects.order_by("number"))
    assert [h.record["wins"][0]["seat"] for h in hands] == ["S", "W", "N"]
    assert len({h.idempotency_key for h in hands}) == 3
    # the office pages are never under the worker
    assert page.evaluate("navigator.serviceWorker.getRegistration('/books/')") is None


def test_a_hand_kept_while_another_phone_booked_is_held(page, context, live_server, log_in, member):
    session = TableSessionFactory(seated=member)
    log_in(page, member)
    _open_offline(page, context, live_server, session)
    _record(page, "S")
    expect(page.locator("#queue li.waiting")).to_have_count(1)
    book(session, discard_win("W"))  # another phone, meanwhile
    context.set_offline(False)
    held = page.locator("#queue li.held")
    expect(held).to_have_count(1)
    page.screenshot(path=SHOTS / "offline-held.png")
    assert Hand.objects.count() == 1
    held.locator("button", has_text="核对").click()  # its fresh preview, on the table as it is
    expect(page.locator("#preview")).to_be_visible()
    page.click("button[name=confirm]")
    page.wait_for_url(f"{live_server.url}/play/{session.pk}/")
    page.goto(f"{live_server.url}/play/{session.pk}/hands/new/")
    expect(page.locator("#queue li.queued")).to_have_count(0)  # booked: dropped
    assert [h.record["wins"][0]["seat"] for h in Hand.objects.order_by("number")] == ["W", "S"]
