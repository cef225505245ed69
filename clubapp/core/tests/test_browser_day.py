"""A room's day in a real browser (issue 26 item 4): one test that tells the day in
order, every step done on the pages by the person who does it, each on their own
phone (headless Debian Chromium at 390 px, Chinese; fixtures: clubapp/conftest.py).

Monday 30 November 2026, the clock frozen and moved on as the day goes:

- 09:00 the manager logs in, adds table 3, registers 钱大伯 with a photo, issues his
  card (50.00 元, receipt R2026-00001) and prints it (the card's PDF);
- 09:20 the desk checks in 陈喆 and 李娜 (members since October), 钱大伯 and a
  non-member, 过路客;
- 09:30 陈喆 opens table 3 on his phone and books 8 hands — quick and tiles entry
  (the palette and the text fields), a kong of another seat, a concealed kong and a
  flower kong, a penalty; the 圈 ends with hand 5, he settles (结账) and downloads
  the settlement sheet; 李娜 confirms hand 1 on her phone; he ends the table;
- 11:35 the non-member checks out and pays 6.00 元 (three started hours, a receipt),
  the members leave before the lunch break;
- 14:00 the manager drafts and submits a purchase plan, the approver approves it,
  the manager books the expense against its line, the accountant confirms it;
- 17:30 the manager hands the cash over on a slip, the accountant confirms the slip
  and closes the day, then downloads November's report as Excel and PDF, whose
  totals the test checks against the books, computed here from the database.

**On failure** each phone's screenshot and Playwright trace are kept in
``test-results/<the test's id>/`` (pytest-playwright's ``--output`` folder,
gitignored, emptied when a run starts): ``<phone>.png`` and ``<phone>-trace.zip``
(Playwright's trace viewer: ``playwright show-trace FILE`` where Playwright's own
browsers are installed, or trace.playwright.dev). Set ``DAY_SHOTS=/some/folder`` to
keep a screenshot of every step, the workbook and the PDF of a passing run too.
"""

from __future__ import annotations

import datetime as dt
import io
import os
import re
from collections import defaultdict
from decimal import Decimal
from pathlib import Path
from zoneinfo import ZoneInfo

import pytest
from django.db.models import Sum
from django.test import Client
from openpyxl import load_workbook
from PIL import Image
from playwright.sync_api import Error as PlaywrightError
from playwright.sync_api import expect
from pypdf import PdfReader

from clubapp.books.models import Expense, HandOverSlip, IncomeEntry, PlanDecision
from clubapp.core.roles import Role
from clubapp.core.tests.factories import PASSWORD, UserFactory
from clubapp.members import services as members
from clubapp.members.models import Card, Member, Receipt, Visit
from clubapp.members.tests.factories import CardFactory, TableFactory, make_id_number
from clubapp.play.models import Hand, HandSignoff, LedgerLine, Seat, Settlement, TableSession
from clubapp.play.tests.factories import shipped

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SHANGHAI = ZoneInfo("Asia/Shanghai")
#: the day told: a Monday, open 9:00–12:00 and 13:00–18:00 (the regulations' week)
DAY = dt.date(2026, 11, 30)


#: how long a page may take to show what a step waits for (ms): the machine is shared
WAIT = 20_000
#: how long a download may take to come (ms): a PDF is rendered in a child process,
#: which may take its time on a loaded machine (pdf.render_pdf gives it 120 s)
DOWNLOAD = 120_000


def at(hour: int, minute: int = 0, *, day: dt.date = DAY) -> dt.datetime:
    return dt.datetime(day.year, day.month, day.day, hour, minute, tzinfo=SHANGHAI)


# ----------------------------------------------------------------------------- fixtures


@pytest.fixture
def clock(monkeypatch):
    """django.utils.timezone.now frozen; ``clock.set(moment)`` moves it (the live
    server runs in this process, so its pages see the same clock)."""

    class Clock:
        now = at(9)

        def set(self, moment: dt.datetime) -> None:
            self.now = moment

    c = Clock()
    monkeypatch.setattr("django.utils.timezone.now", lambda: c.now)
    return c


@pytest.fixture
def phones(new_context, live_server, output_path, request):
    """``phone(name, user=None)``: a phone of its own (a browser context: its own
    cookies), logged in as ``user`` when given. Every phone records a trace; on
    failure its screenshot and trace are kept in ``output_path``
    (``test-results/<test>/``). A phone logged in opens at the home page.
    Content-Security-Policy refusals are collected in ``phone.refused``."""
    opened: list[tuple[str, object, object]] = []
    refused: list[str] = []

    def phone(name: str, user=None):
        context = new_context()
        context.tracing.start(screenshots=True, snapshots=True)
        page = context.new_page()
        page.on(
            "console",
            lambda msg: (
                refused.append(f"{name} {page.url}: {msg.text}")
                if "Content Security Policy" in msg.text
                else None
            ),
        )
        if user is not None:
            # a client of its own: conftest's log_in shares one, and a second user's
            # login there ends the first one's session
            client = Client()
            client.force_login(user)
            cookie = client.cookies["sessionid"].value
            context.add_cookies([{"name": "sessionid", "value": cookie, "url": live_server.url}])
            page.goto(f"{live_server.url}/")
        opened.append((name, context, page))
        return page

    phone.refused = refused
    yield phone
    report = getattr(request.node, "rep_call", None)
    failed = report is None or report.failed
    if failed:
        os.makedirs(output_path, exist_ok=True)
    for name, context, page in opened:
        try:
            if failed:
                page.screenshot(path=os.path.join(output_path, f"{name}.png"), full_page=True)
                context.tracing.stop(path=os.path.join(output_path, f"{name}-trace.zip"))
            else:
                context.tracing.stop()
        except PlaywrightError:  # a page that crashed: keep what can be kept
            pass


def _shot(page, name: str) -> None:
    """A screenshot of a step, for a person to look at (DAY_SHOTS=folder); not compared."""
    folder = os.environ.get("DAY_SHOTS")
    if folder:
        page.screenshot(path=os.path.join(folder, f"day-{name}.png"), full_page=True)


def download(page, link: str) -> tuple[bytes, str]:
    """Tap ``link`` and wait for its whole file: (its bytes, its file name)."""
    with page.expect_download(timeout=DOWNLOAD) as started:
        page.click(f"text={link}", timeout=DOWNLOAD)
    data = Path(started.value.path()).read_bytes()  # waits until the file is complete
    name = started.value.suggested_filename
    _keep(data, name)
    return data, name


def _keep(data: bytes, name: str) -> None:
    """A downloaded file, for a person to look at (DAY_SHOTS=folder)."""
    folder = os.environ.get("DAY_SHOTS")
    if folder:
        Path(folder, f"day-{name}").write_bytes(data)


def said(page, text: str) -> None:
    """The page that answered the last action says ``text`` in its messages (waited
    for: a form posted to the page it came from answers at the same address)."""
    expect(page.locator(".messages")).to_contain_text(text, timeout=WAIT)


def _fits_the_phone(page) -> bool:
    return page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")


# ----------------------------------------------------------------- before the day


@pytest.fixture
def cast(room, manager, accountant, approver, clock):
    """What the room has before the day: two tables, the desk's second manager, the
    standard 南京 ruleset, and two members registered in October with their cards and
    logins (no fee in the books: their cards were paid in another month)."""
    clock.set(at(10, day=dt.date(2026, 10, 15)))
    for number in (1, 2):
        TableFactory(room=room, number=number)
    shipped("nanjing")
    desk = UserFactory(username="desk", first_name="小孙", roles=[Role.MANAGER])
    players = {}
    for n, (login, name) in enumerate((("chen", "陈喆"), ("lina", "李娜")), start=1):
        account = UserFactory(username=login, first_name=name, roles=[Role.MEMBER])
        person = members.member_create(
            room=room,
            name=name,
            phone=f"1390000000{n}",
            id_number=make_id_number(100 + n),
            user=account,
            by=manager,
        )
        players[login] = (account, CardFactory(member=person, room=room))
    clock.set(at(9))
    return {"desk": desk, **players}


# ---------------------------------------------------------------------------- steps


def manager_logs_in(page, url: str) -> None:
    page.goto(f"{url}/accounts/login/")
    page.fill("#id_username", "manager")
    page.fill("#id_password", PASSWORD)
    page.click("button.primary")
    page.wait_for_url(f"{url}/")
    assert page.get_by_role("heading", name="欢迎，王经理").is_visible()


def menu(page, entry: str) -> None:
    """The main menu, folded behind ☰ on a phone."""
    page.click("label.menu-button")
    page.click(f"nav.nav >> text={entry}")


def manager_adds_a_table(page, url: str) -> None:
    menu(page, "前台")
    page.wait_for_url(f"{url}/members/visits/")
    page.click("nav.subnav >> text=牌桌")
    page.wait_for_url(f"{url}/members/tables/")
    page.fill("#id_number", "3")
    page.fill("#id_name", "靠窗")
    page.click("button:has-text('添加')")
    expect(page.locator("li.table-tile", has_text="3 号桌 靠窗")).to_contain_text("空闲")
    assert _fits_the_phone(page)
    _shot(page, "01-tables")


def manager_registers_a_member(page, url: str, photo: Path) -> Member:
    page.click("nav.subnav >> text=会员")
    page.wait_for_url(f"{url}/members/")
    page.click("text=登记会员")
    page.wait_for_url(f"{url}/members/new/")
    page.fill("#id_name", "钱大伯")
    page.fill("#id_phone", "13800000002")
    page.fill("#id_id_number", make_id_number(7))
    page.set_input_files("#id_photo", str(photo))
    _shot(page, "02-register")
    page.click("button:has-text('保存')")
    page.wait_for_url(re.compile(r"/members/\d+/$"))
    person = Member.objects.get(name="钱大伯")
    assert page.url == f"{url}/members/{person.pk}/"
    # the photo went through the upload: the page shows it, cut to 2 inches
    photo_shown = page.locator("img.photo")
    assert photo_shown.evaluate("img => img.decode().then(() => img.naturalWidth)") == 413
    assert _fits_the_phone(page)
    return person


def manager_issues_and_prints_the_card(page, url: str, person: Member) -> Card:
    page.click("button:has-text('办理会员证')")
    said(page, "会员证 2026-0001 已发放")
    card = Card.objects.get(member=person)
    assert card.number == "2026-0001"
    assert "R2026-00001 会员证工本费 50.00 元" in page.locator("main").inner_text()
    _shot(page, "03-card")
    data, name = download(page, "打印会员证（PDF）")
    assert data.startswith(b"%PDF")
    assert name == "会员证_2026-0001.pdf"
    text = _pdf_text(data)
    assert "2026-0001" in text and "钱大伯" in text
    return card


def desk_checks_in_a_member(page, url: str, card_number: str, name: str) -> None:
    page.fill("#id_q", card_number)
    page.press("#id_q", "Enter")
    page.wait_for_url(f"{url}/members/visits/check-in/")
    page.click(f"button:has-text('{name}入场')")
    page.wait_for_url(f"{url}/members/visits/")
    said(page, f"{name} 已入场。")


def desk_checks_in_four_players(page, url: str, cards: list[tuple[str, str]]) -> None:
    menu(page, "前台")
    page.wait_for_url(f"{url}/members/visits/")
    for number, name in cards:
        desk_checks_in_a_member(page, url, number, name)
    page.fill("#id_guest_name", "过路客")
    page.click("button:has-text('入场登记')")
    said(page, "过路客 已入场。")
    visits = page.locator("li.visit.open")
    assert visits.count() == 4
    assert _fits_the_phone(page)
    _shot(page, "04-desk")


def recorder_opens_the_table(page, url: str) -> TableSession:
    menu(page, "牌桌")
    page.wait_for_url(f"{url}/play/")
    page.click("text=开新牌局")
    page.wait_for_url(f"{url}/play/new/")
    page.select_option("select[name=table]", label="3 号桌 靠窗")
    page.select_option("select[name=ruleset]", label="南京麻将")
    page.select_option("select[name=settle_every]", label="每圈")
    for wind, label in zip("ESWN", ("陈喆", "李娜", "钱大伯", "过路客 (非会员)"), strict=True):
        page.select_option(f"select[name=visit_{wind}]", label=label)
    _shot(page, "05-open")
    page.click("button:has-text('开桌')")
    page.wait_for_url(re.compile(r"/play/\d+/$"))
    session = TableSession.objects.get()
    assert page.url == f"{url}/play/{session.pk}/"
    return session


class Hands:
    """The recorder's phone at the entry page of one table (a hand takes 8 minutes)."""

    def __init__(self, page, url: str, session: TableSession, clock) -> None:
        self.page, self.url, self.session, self.clock = page, url, session, clock
        self.table = f"{url}/play/{session.pk}/"

    def start(self) -> None:
        self.clock.set(self.clock.now + dt.timedelta(minutes=8))
        self.page.click("text=记一把")
        self.page.wait_for_url(f"{self.table}hands/new/")

    def win(self, seat: str, discarder: str = "") -> None:
        self.page.check(f"input[name=winners][value={seat}]")
        self.page.check(f"input[name=discarder][value='{discarder}']")

    def hard_flowers_by_stepper(self, seat: str, n: int) -> None:
        plus = f"fieldset.winner[data-seat={seat}] .stepper button[data-step='1'] >> nth=0"
        for _ in range(n):
            self.page.click(plus)

    def tap(self, seat: str, *tiles: str) -> None:
        block = f"fieldset.winner[data-seat={seat}]"
        for tile in tiles:
            self.page.click(f"{block} .palette .suits button[data-suit='{tile[1]}']")
            self.page.click(f"{block} .palette button[data-tile='{tile}']")

    def tiles_way(self, seat: str) -> None:
        self.page.click(f"fieldset.winner[data-seat={seat}] .tabs button[data-way=tiles]")

    def others(self) -> None:
        """Open the kongs and penalties of the other seats."""
        self.page.click("details summary")

    def chip(self, name: str, value: str) -> None:
        self.page.click(f"label:has(input[name={name}][value={value}])")

    def book(self, number: int, shot: str = "") -> Hand:
        self.page.click("button[name=preview]")
        expect(self.page.locator("#preview")).to_be_visible(timeout=WAIT)
        if shot:
            _shot(self.page, shot)
        self.page.click("button[name=confirm]")
        self.page.wait_for_url(self.table)
        said(self.page, f"第 {number} 把已记账")
        return Hand.objects.get(session=self.session, number=number)


def recorder_books_five_hands(page, url: str, session: TableSession, clock) -> list[Hand]:
    """E 陈喆 deals first. The 圈 ends with hand 5 (the fourth pass of the deal: hand 4's
    penalty keeps the dealer), so the table is due to settle after it."""
    h = Hands(page, url, session, clock)
    booked = []

    # 1. quick: 南 李娜 wins on 东 陈喆's tile, four hard flowers by the stepper
    h.start()
    h.win("S", "E")
    h.hard_flowers_by_stepper("S", 4)
    booked.append(h.book(1, "06-entry-quick"))

    # 2. tiles by the palette: 西 钱大伯, a concealed hand (门清) won on 北's tile
    h.start()
    h.win("W", "N")
    h.tiles_way("W")
    h.tap("W", "1p", "2p", "3p", "4s", "5s", "6s", "7m", "8m", "9m", "1z", "1z", "1z", "9s", "9s")
    h.tap("W", "1f", "2f")  # flowers always go to the flowers
    assert page.input_value("input[name=W-concealed]") == "1p2p3p4s5s6s7m8m9m1z1z1z9s9s"
    assert page.input_value("input[name=W-flowers]") == "1f2f"
    booked.append(h.book(2, "07-entry-tiles"))

    # 3. quick with another seat's kong: 北 wins on 西's tile; 东 陈喆's exposed kong fed by 南
    h.start()
    h.win("N", "W")
    page.fill("input[name=N-hard]", "5")
    h.others()
    h.chip("kong-0-seat", "E")
    h.chip("kong-0-kind", "exposed")
    h.chip("kong-0-fed_by", "S")
    booked.append(h.book(3, "08-entry-kong"))

    # 4. quick with a penalty: 东 wins on 北's tile; 西 跟打 pays each other seat
    h.start()
    h.win("E", "N")
    page.fill("input[name=E-hard]", "4")
    h.others()
    h.chip("penalty-0-kind", "follow")
    h.chip("penalty-0-seat", "W")
    booked.append(h.book(4))
    assert page.locator("#settle .badge").count() == 0  # the penalty kept the dealer

    # 5. quick, doubled after the penalty: 南 wins on 东's tile, 门清 — the 圈 ends
    h.start()
    h.win("S", "E")
    page.fill("input[name=S-hard]", "6")
    page.check("input[name=S-features][value=menqing]")
    booked.append(h.book(5))
    return booked


def recorder_settles_the_round(page, url: str, session: TableSession) -> Settlement:
    settle = page.locator("#settle")
    assert "该结账了" in settle.locator(".badge").inner_text()  # the 圈 is over
    _shot(page, "09-due")
    settle.locator("button:has-text('现在结账')").click()
    page.wait_for_url(re.compile(r"/settlements/1/$"))
    statement = Settlement.objects.get(session=session)
    assert (statement.first_number, statement.last_number) == (1, 5)
    _shot(page, "10-statement")
    data, name = download(page, "结账单（PDF）")
    assert data.startswith(b"%PDF") and name == "结账单_2026-11-30_3号桌.pdf"
    pages = _pdf_pages(data)
    assert "3 号桌" in pages[0] and "过路客" in pages[0]
    # the statement's nets and its transfers print on one page
    (statement_page,) = (p for p in pages if "结账单 1：第 1–5 把" in p)
    assert "东 陈喆 → 南 李娜 92 花" in statement_page
    page.click("text=返回牌桌")
    page.wait_for_url(f"{url}/play/{session.pk}/")
    return statement


def recorder_books_three_more(page, url: str, session: TableSession, clock) -> list[Hand]:
    h = Hands(page, url, session, clock)
    booked = []
    # 6. tiles by the palette with a concealed kong: 南 self-drawn, a 暗杠 of 七万
    h.start()
    h.win("S")
    h.tiles_way("S")
    h.tap("S", "2p", "3p", "4p", "5s", "6s", "7s", "3m", "4m", "5m", "8p", "8p")
    page.click("fieldset.winner[data-seat=S] .meld-kind button[data-meld=A]")
    h.tap("S", "7m")
    assert page.input_value("input[name=S-melds]") == "K7m"
    h.tap("S", "5f")
    booked.append(h.book(6, "11-entry-concealed-kong"))

    # 7. quick: 西 wins on 南's tile
    h.start()
    h.win("W", "S")
    page.fill("input[name=W-hard]", "4")
    booked.append(h.book(7))

    # 8. tiles typed into the text fields: 北 wins on 东's tile, a pong of 三饼 fed by 东,
    # and the four seasons: a flower kong
    h.start()
    h.win("N", "E")
    h.tiles_way("N")
    page.fill("input[name=N-concealed]", "1s2s3s4s5s6s7s8s9s5p5p")
    page.fill("input[name=N-melds]", "P3pE")
    page.fill("input[name=N-winning_tile]", "5p")
    page.fill("input[name=N-flowers]", "1f2f3f4f")
    booked.append(h.book(8, "12-entry-typed"))
    return booked


def second_player_confirms_hand_one(page, url: str, session: TableSession) -> None:
    page.goto(f"{url}/")
    menu(page, "牌桌")
    page.wait_for_url(f"{url}/play/")
    page.click(f"a[href='/play/{session.pk}/']")
    page.wait_for_url(f"{url}/play/{session.pk}/")
    page.click("text=8 把待你确认")
    page.wait_for_url(re.compile(r"/play/me/"))
    page.click("#awaiting >> text=第 1 把")
    page.wait_for_url(f"{url}/play/{session.pk}/hands/1/")
    page.click("button:has-text('以 南 李娜 身份确认')")
    said(page, "第 1 把已确认")
    expect(page.locator("ul.signoffs")).to_contain_text("✓ 南 李娜")
    _shot(page, "13-signoff")


def recorder_ends_the_table(page, url: str, session: TableSession) -> None:
    page.click(".end-session button")
    page.click("text=确认散场")
    page.wait_for_url(f"{url}/play/{session.pk}/")
    session.refresh_from_db()
    assert not session.is_open


def desk_checks_the_non_member_out(page, url: str) -> Receipt:
    page.goto(f"{url}/members/visits/")
    row = page.locator("li.visit.open", has_text="过路客")
    assert "目前6.00元" in row.inner_text()  # 09:20–11:35: three started hours
    row.locator("text=离场").click()
    page.wait_for_url(re.compile(r"/members/visits/\d+/check-out/$"))
    assert "6.00" in page.locator("dd.fee").inner_text()
    _shot(page, "14-checkout")
    page.click("button:has-text('已收现金6.00元')")
    page.wait_for_url(f"{url}/members/visits/")
    said(page, "R2026-00002")
    return Receipt.objects.get(number="R2026-00002")


def desk_checks_the_members_out(page, url: str) -> None:
    for name in ("陈喆", "李娜", "钱大伯"):
        page.locator("li.visit.open", has_text=name).locator("text=离场").click()
        page.wait_for_url(re.compile(r"/members/visits/\d+/check-out/$"))
        assert page.locator("dd.fee").count() == 0  # members pay nothing
        page.click("button.primary")
        page.wait_for_url(f"{url}/members/visits/")
    expect(page.locator("li.visit.open")).to_have_count(0)


def manager_drafts_a_plan(page, url: str) -> str:
    menu(page, "收支账")
    page.wait_for_url(f"{url}/books/")
    page.click(".actions >> text=编制购置计划")
    page.wait_for_url(f"{url}/books/plans/new/")
    page.fill("#id_title", "十二月麻将牌")
    page.fill("#id_purpose", "旧牌缺损，换两副")
    page.select_option("#id_lines-0-category", label="麻将")
    page.fill("#id_lines-0-item", "麻将牌")
    page.fill("#id_lines-0-quantity", "2")
    page.fill("#id_lines-0-unit", "副")
    page.fill("#id_lines-0-unit_price", "180.00")
    page.fill("#id_lines-0-reason", "旧牌缺损")
    page.click("button:has-text('保存草稿')")
    page.wait_for_url(re.compile(r"/books/plans/\d+/$"))
    plan_url = page.url
    page.click("button:has-text('提交审批')")
    said(page, "待审批")
    _shot(page, "15-plan")
    return plan_url


def approver_approves(page, plan_url: str) -> None:
    page.goto(plan_url)
    assert page.is_visible(".fund-warning")  # the fund holds 6.00 元: it goes below zero
    page.check("input[name=outcome][value=approved]")
    page.fill("#id_comment", "同意")
    page.check("#id_fund_negative_ok")
    _shot(page, "16-approve")
    page.click("button:has-text('保存审批意见')")
    said(page, "已批准")


def manager_books_the_expense(page, url: str, plan_url: str) -> str:
    page.goto(plan_url)
    page.click("text=登记支出")
    page.wait_for_url(re.compile(r"/books/expenses/new/"))
    page.fill("#id_amount", "350.00")
    page.fill("#id_supplier", "文体商店")
    page.fill("#id_invoice_number", "No.04512345")
    page.click("button:has-text('登记支出')")
    # 350.00 from a fund of 6.00: the form asks to tick 基金为负 first
    expect(page.locator(".errorlist")).to_contain_text("将降至 -344.00 元", timeout=WAIT)
    page.check("#id_fund_negative_ok")
    page.click("button:has-text('登记支出')")
    page.wait_for_url(re.compile(r"/books/expenses/\d+/$"))
    _shot(page, "17-expense")
    return page.url


def accountant_confirms_the_expense(page, expense_url: str) -> None:
    page.goto(expense_url)
    page.click("button:has-text('已核对发票：确认')")
    expect(page.locator("dl.facts")).to_contain_text("已确认 李会计", timeout=WAIT)


def manager_hands_the_cash_over(page, url: str) -> str:
    # the slip is printed: count the calls of the browser's print (no dialog here)
    page.add_init_script("window.print = () => { window.printed = (window.printed || 0) + 1; };")
    menu(page, "收支账")
    page.wait_for_url(f"{url}/books/")
    assert "56.00" in page.locator(".tiles").inner_text()
    page.click(".actions >> text=缴款")
    page.wait_for_url(f"{url}/books/slips/new/")
    assert page.locator("input[name=receipts]:checked").count() == 2
    page.fill("#id_amount", "56.00")
    page.click("button:has-text('缴款')")
    page.wait_for_url(re.compile(r"/books/slips/\d+/$"))
    _shot(page, "18-slip")
    page.click("button:has-text('打印')")
    assert page.evaluate("window.printed") == 1
    return page.url


def accountant_confirms_the_slip_and_closes_the_day(page, url: str, slip_url: str) -> None:
    page.goto(f"{url}/books/")
    page.click(f"a[href='{slip_url.removeprefix(url)}']")
    page.wait_for_url(slip_url)
    page.click("button:has-text('现金已收到：确认入账')")
    said(page, "已入账")
    page.goto(f"{url}/books/")
    page.click(f"a[href='/books/days/{DAY.isoformat()}/']")
    page.wait_for_url(f"{url}/books/days/{DAY.isoformat()}/")
    page.fill("#id_note", "已核对")
    page.click("button:has-text('结账')")
    said(page, "2026-11-30 已结账")
    _shot(page, "19-day-closed")


def accountant_downloads_the_month(page, url: str) -> tuple[bytes, bytes]:
    menu(page, "报表")
    page.wait_for_url(re.compile(r"/reports/monthly/"))
    _shot(page, "20-monthly")
    # the balance's figures are in sight on the phone, not off in their table's box
    closing = page.locator("#cash-book table.statement tfoot td.num").first.bounding_box()
    assert closing["x"] + closing["width"] <= page.viewport_size["width"]
    # one after the other: the workbook whole before the PDF is asked for
    xlsx, name = download(page, "下载 Excel")
    assert name == "2026年11月月报.xlsx"
    pdf, name = download(page, "下载 PDF")
    assert name == "2026年11月月报.pdf"
    return xlsx, pdf


# ------------------------------------------------------------------- the books, here


def _pdf_pages(data: bytes) -> list[str]:
    return [page.extract_text() or "" for page in PdfReader(io.BytesIO(data)).pages]


def _pdf_text(data: bytes) -> str:
    return "\n".join(_pdf_pages(data))


def _books_of_the_month(room) -> dict:
    """November's figures summed from the rows themselves (not through a selector)."""
    november = {"room": room, "book_date__year": 2026, "book_date__month": 11}
    income = _yuan(IncomeEntry.objects.filter(**november).aggregate(s=Sum("amount"))["s"])
    spent = _yuan(Expense.objects.filter(**november).aggregate(s=Sum("amount"))["s"])
    slips = HandOverSlip.objects.filter(**november, decision__outcome="confirmed")
    handed = _yuan(slips.aggregate(s=Sum("amount"))["s"])
    points: dict[str, int] = defaultdict(int)
    seats = {
        (seat.session_id, seat.wind): seat
        for seat in Seat.objects.filter(room=room).select_related("visit__member")
    }
    for line in LedgerLine.objects.filter(room=room).select_related("hand"):
        seat = seats[line.hand.session_id, line.seat]
        who = seat.visit.member.name if seat.visit and seat.visit.member else "非会员"
        points[who] += line.points
    visits = Visit.objects.filter(room=room, checked_in_at__month=11)
    member_minutes = sum(
        (v.checked_out_at - v.checked_in_at).total_seconds() / 60
        for v in visits.exclude(member=None)
    )
    return {
        "income": income,
        "expenses": spent,
        "closing_balance": income - spent,  # the books began this month
        "handed_over": handed,
        "cash_on_hand": income - handed,
        "member_visits": visits.exclude(member=None).count(),
        "member_hours": round(member_minutes / 60, 1),
        "guest_visits": visits.filter(member=None).count(),
        "points": dict(points),
        "hands": Hand.objects.filter(room=room, voids=None).count(),
    }


def _rows(wb, title: str) -> list[tuple]:
    return list(wb[title].iter_rows(values_only=True))


def _yuan(value) -> Decimal:
    return Decimal(str(value)).quantize(Decimal("0.01"))


# --------------------------------------------------------------------------- the day


def test_a_rooms_day_on_the_phones(
    phones, live_server, clock, cast, room, approver, accountant, tmp_path
):
    url = live_server.url
    chen, chen_card = cast["chen"]
    lina, lina_card = cast["lina"]
    photo = tmp_path / "qian.jpg"
    Image.new("RGB", (800, 1000), "#c9a27e").save(photo, format="JPEG")

    # 09:00 the manager
    office = phones("manager")
    manager_logs_in(office, url)
    manager_adds_a_table(office, url)
    qian = manager_registers_a_member(office, url, photo)
    qian_card = manager_issues_and_prints_the_card(office, url, qian)

    # 09:20 the desk
    clock.set(at(9, 20))
    desk = phones("desk", cast["desk"])
    desk_checks_in_four_players(
        desk,
        url,
        [(chen_card.number, "陈喆"), (lina_card.number, "李娜"), (qian_card.number, "钱大伯")],
    )

    # 09:30 the table
    clock.set(at(9, 30))
    recorder = phones("recorder", chen)
    session = recorder_opens_the_table(recorder, url)
    hands = recorder_books_five_hands(recorder, url, session, clock)
    clock.set(at(10, 40))
    recorder_settles_the_round(recorder, url, session)
    hands += recorder_books_three_more(recorder, url, session, clock)
    clock.set(at(11, 10))
    player = phones("player", lina)
    second_player_confirms_hand_one(player, url, session)
    recorder_ends_the_table(recorder, url, session)

    # 11:35 the non-member leaves and pays; the members leave before the lunch break
    clock.set(at(11, 35))
    receipt = desk_checks_the_non_member_out(desk, url)
    clock.set(at(11, 40))
    desk_checks_the_members_out(desk, url)

    # 14:00 the purchase plan and its expense
    clock.set(at(14))
    plan_url = manager_drafts_a_plan(office, url)
    clock.set(at(14, 30))
    approver = phones("approver", approver)
    approver_approves(approver, plan_url)
    clock.set(at(15))
    expense_url = manager_books_the_expense(office, url, plan_url)
    clock.set(at(15, 30))
    accountant = phones("accountant", accountant)
    accountant_confirms_the_expense(accountant, expense_url)

    # 17:30 the hand-over and the day's closing
    clock.set(at(17, 30))
    slip_url = manager_hands_the_cash_over(office, url)
    clock.set(at(17, 45))
    accountant_confirms_the_slip_and_closes_the_day(accountant, url, slip_url)
    clock.set(at(17, 50))
    xlsx, pdf = accountant_downloads_the_month(accountant, url)

    # ------------------------------------------------------ what the day left behind
    assert [h.number for h in hands] == list(range(1, 9))
    records = [h.record for h in hands]
    assert "concealed" not in records[0]["wins"][0]  # quick
    assert "concealed" in records[1]["wins"][0] and "concealed" in records[7]["wins"][0]
    kinds = {k["type"] for r in records for k in r.get("kongs", [])}
    assert kinds == {"exposed", "concealed", "flower"}
    assert any(r.get("penalties") for r in records)
    assert HandSignoff.objects.get().hand.number == 1
    assert receipt.amount == Decimal("6.00")
    assert PlanDecision.objects.get().outcome == "approved"
    assert Visit.objects.filter(member=None).get().fee == Decimal("6.00")

    books = _books_of_the_month(room)
    # what the steps booked: the card fee and the guest's fee, one expense, one slip
    assert books["income"] == Decimal("56.00")
    assert books["expenses"] == Decimal("350.00")
    assert books["handed_over"] == Decimal("56.00")
    assert (books["member_visits"], books["guest_visits"], books["member_hours"]) == (3, 1, 7.0)
    assert books["hands"] == 8
    assert set(books["points"]) == {"陈喆", "李娜", "钱大伯", "非会员"}
    assert sum(books["points"].values()) == 0

    # the month's workbook, as the accountant downloaded it, against the books
    wb = load_workbook(io.BytesIO(xlsx), data_only=True)
    summary = {row[0]: row[1:] for row in _rows(wb, "概要")[3:]}
    assert _yuan(summary["本月收入"][1]) == books["income"]
    assert _yuan(summary["本月支出"][1]) == books["expenses"]
    assert _yuan(summary["期末结余"][1]) == books["closing_balance"]
    assert _yuan(summary["已缴款"][1]) == books["handed_over"]
    assert _yuan(summary["月末库存现金"][1]) == books["cash_on_hand"]
    assert summary["会员来访人次"][0] == books["member_visits"]
    assert summary["非会员来访人次"][0] == books["guest_visits"]
    assert summary["把数"][0] == books["hands"]
    visits = {row[0]: row[1] for row in _rows(wb, "来访记录")[3:]}
    assert visits["会员在场小时数"] == books["member_hours"]
    member_points = {row[0]: row[3] for row in _rows(wb, "会员积分")[4:-1]}
    assert member_points == books["points"]

    # and its PDF
    text = _pdf_text(pdf)
    for label, figure in (
        ("本月收入", books["income"]),
        ("本月支出", books["expenses"]),
        ("期末结余", books["closing_balance"]),
        ("缴交单位财务", books["handed_over"]),
        ("月末库存现金", books["cash_on_hand"]),
    ):
        assert re.search(rf"{label} {figure}\n", text), (label, figure)
    assert f"南京麻将 1 {books['hands']}" in text
    for name, points in books["points"].items():
        signed = re.escape(f"{points:+d}")
        assert re.search(rf"{name}\S* .*{signed}\n", text), (name, points)

    assert _fits_the_phone(accountant)
    assert not phones.refused, phones.refused
