"""Issue 15 on a phone (headless Chromium, 390 px; fixtures: clubapp/conftest.py):
another phone's hand announced or refreshed, tile entry with a kong, English mode,
and the pages readable at 360 px."""

from __future__ import annotations

import pytest

from clubapp.play.models import Hand
from clubapp.play.tests.factories import TableSessionFactory, book, discard_win

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_the_table_page_follows_a_hand_booked_on_another_phone(page, live_server, log_in, manager):
    session = TableSessionFactory()
    log_in(page, manager)
    page.goto(f"{live_server.url}/play/{session.pk}/")
    assert "+28" not in page.inner_text(".seats")
    book(session, discard_win("S", "E"), by=manager)  # the other phone
    page.wait_for_selector(".seats .pts >> text=+28", timeout=20000)  # reloaded by itself


def test_a_phone_entering_a_hand_is_told_and_keeps_its_entry(page, live_server, log_in, manager):
    session = TableSessionFactory()
    log_in(page, manager)
    page.goto(f"{live_server.url}/play/{session.pk}/hands/new/")
    page.check("input[name=winners][value=W]")
    book(session, discard_win("S", "E"), by=manager)  # the other phone
    page.wait_for_selector("#tip:not([hidden])", timeout=20000)
    assert "第 1 把 南 小李 ← 东 老王 28" in page.inner_text("#tip")
    assert page.is_checked("input[name=winners][value=W]")  # nothing lost


def test_a_confirm_after_another_phone_asks_whether_it_is_the_same_hand(
    page, live_server, log_in, manager
):
    session = TableSessionFactory()
    log_in(page, manager)
    page.goto(f"{live_server.url}/play/{session.pk}/hands/new/")
    page.check("input[name=winners][value=S]")
    page.check("input[name=discarder][value=E]")
    page.fill("input[name=S-hard]", "4")
    page.click("button[name=preview]")
    book(session, discard_win("S", "E"), by=manager)  # the other phone, meanwhile
    page.click("button[name=confirm]")
    assert "第 1 把 南 小李 ← 东 老王 28" in page.inner_text("#booked")
    page.click("#booked >> text=是同一把：不再记")
    page.wait_for_url(f"{live_server.url}/play/{session.pk}/")
    assert Hand.objects.count() == 1


def test_a_tile_entry_hand_with_kongs_by_the_palette_and_chips(page, live_server, log_in, member):
    session = TableSessionFactory(seated=member)
    log_in(page, member)
    page.goto(f"{live_server.url}/play/{session.pk}/hands/new/")
    page.check("input[name=winners][value=S]")
    page.check("input[name=discarder][value=E]")
    block = "fieldset.winner[data-seat=S]"
    page.click(f"{block} .tabs button[data-way=tiles]")

    def tap(*tiles):
        for tile in tiles:
            if tile != "back":
                page.click(f"{block} .palette .suits button[data-suit='{tile[1]}']")
            page.click(f"{block} .palette button[data-tile='{tile}']")

    tap("1p", "2p", "3p", "4s", "5s", "6s", "9s", "9s")
    # a concealed kong of 7万, then an exposed kong of 东 fed by 西 阿张, by the palette
    page.click(f"{block} .meld-kind button[data-meld=A]")
    tap("7m")
    page.click(f"{block} .meld-kind button[data-meld=K]")
    page.click(f"{block} .meld-from button[data-from=W]")
    tap("1z")
    assert page.input_value("input[name=S-melds]") == "K7m K1zW"
    melds = page.inner_text(f"{block} [data-shows=melds]")
    assert "暗杠 七万" in melds and "杠 东 ← 西 阿张" in melds  # names, not codes
    page.click(f"{block} [data-shows=winning]")
    tap("9s")
    assert page.input_value("input[name=S-winning_tile]") == "9s"
    assert "九条" in page.inner_text(f"{block} [data-shows=winning]")
    page.click(f"{block} [data-shows=concealed]")
    tap("9s", "back")  # ⌫ deletes from the active field: the hand, not the melds
    assert page.input_value("input[name=S-concealed]") == "1p2p3p4s5s6s9s9s"
    assert page.input_value("input[name=S-melds]") == "K7m K1zW"
    box = page.locator(f"{block} .palette button[data-tile='9s']").bounding_box()
    assert box["width"] >= 44 and box["height"] >= 44
    # another seat's kong by chips: 北 赵姐's exposed kong, fed by 东 老王
    page.click("details summary")
    page.click("label:has(input[name=kong-0-seat][value=N])")
    page.click("label:has(input[name=kong-0-kind][value=exposed])")
    page.click("label:has(input[name=kong-0-fed_by][value=E])")
    assert page.is_visible("input[name=kong-1-seat][value=W]")  # the next row shows
    page.click("button[name=preview]")
    assert page.is_visible("#preview"), page.inner_text("#entry")
    page.click("button[name=confirm]")
    page.wait_for_url(f"{live_server.url}/play/{session.pk}/")
    kongs = Hand.objects.get().record["kongs"]
    assert {"seat": "S", "type": "concealed", "from": None} in kongs
    assert {"seat": "S", "type": "exposed", "from": "W"} in kongs
    assert {"seat": "N", "type": "exposed", "from": "E"} in kongs


def test_english_mode_reads_english_beside_the_rule_names(page, live_server, log_in, member):
    session = TableSessionFactory(seated=member)
    hand = book(session, discard_win("S", "E"))
    log_in(page, member)
    page.context.add_cookies([{"name": "django_language", "value": "en", "url": live_server.url}])
    page.goto(f"{live_server.url}/play/{session.pk}/hands/{hand.number}/")
    text = page.inner_text("main")
    assert "East 老王 pays South 小李 28" in text
    assert "跑20 (the base of every win)" in text
    assert "win · South 小李" in text and "胡牌" not in text
    page.goto(f"{live_server.url}/play/{session.pk}/hands/new/")
    page.check("input[name=winners][value=S]")
    assert "门清 concealed hand" in page.inner_text("fieldset.winner[data-seat=S]")
    assert page.inner_text("#language option:checked") == "English"


@pytest.mark.parametrize("width", [360, 390])
def test_the_lists_fit_a_phone_and_the_menu_folds(page, live_server, log_in, manager, width):
    session = TableSessionFactory()
    hand = book(session, discard_win("S", "E"))
    book(session, discard_win("W", "N"))
    log_in(page, manager)
    page.set_viewport_size({"width": width, "height": 800})
    for url in (
        f"/play/{session.pk}/",
        f"/play/{session.pk}/hands/",
        f"/play/{session.pk}/hands/{hand.number}/compare/",
        "/members/",
        "/play/",
    ):
        page.goto(live_server.url + url)
        assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth"), url
        # the menu is one line: folded behind its button until tapped
        assert page.locator("header.topbar").bounding_box()["height"] < 80, url
        assert not page.is_visible("nav.nav")
    page.click("label.menu-button")
    assert page.is_visible("nav.nav >> text=会员")
    # a seat's name never stands one character a line: each column is wider than a name
    page.goto(f"{live_server.url}/play/{session.pk}/hands/")
    cell = page.locator("table.hands td.num").first.bounding_box()
    assert cell["width"] >= 60
