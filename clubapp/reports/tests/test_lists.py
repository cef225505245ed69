"""Every list filters (django-filter) and exports its filtered rows to xlsx and CSV,
with the same escaping, under the page's permissions."""

from __future__ import annotations

import csv
import io
from decimal import Decimal

import pytest
from django.db.models import Sum
from openpyxl import load_workbook

from clubapp.books.models import IncomeEntry

LISTS = ["members", "visits", "income", "sessions", "hands", "ledger"]


def _xlsx_rows(response):
    wb = load_workbook(io.BytesIO(b"".join(response.streaming_content)))
    return list(wb.active.iter_rows(values_only=True)), wb.active


def _csv_rows(response):
    text = b"".join(response.streaming_content).decode("utf-8")
    assert text.startswith("\ufeff")
    return list(csv.reader(io.StringIO(text[1:])))


@pytest.mark.parametrize("slug", LISTS)
def test_it_shows_and_exports_every_list_to_the_manager(client, manager, november, slug):
    client.force_login(manager)
    assert client.get(f"/reports/lists/{slug}/").status_code == 200
    response = client.get(f"/reports/lists/{slug}.xlsx")
    assert response.status_code == 200
    assert response.streaming
    rows, _ws = _xlsx_rows(response)
    assert len(rows) >= 2
    response = client.get(f"/reports/lists/{slug}.csv")
    assert response.status_code == 200
    assert len(_csv_rows(response)) >= 2


@pytest.mark.parametrize("slug", LISTS)
def test_it_refuses_a_member_every_list_and_its_exports(client, member, november, slug):
    client.force_login(member)
    for url in (
        f"/reports/lists/{slug}/",
        f"/reports/lists/{slug}.xlsx",
        f"/reports/lists/{slug}.csv",
    ):
        assert client.get(url).status_code == 403


@pytest.mark.parametrize("slug", LISTS)
def test_it_sends_anonymous_visitors_to_the_login_page(client, db, slug):
    # db: the room of the request is read from the database, even for a visitor
    response = client.get(f"/reports/lists/{slug}.xlsx")
    assert response.status_code == 302
    assert "/accounts/login/" in response["Location"]


def test_it_lets_the_approver_read_the_income_but_not_the_members(client, approver, november):
    client.force_login(approver)
    assert client.get("/reports/lists/income.xlsx").status_code == 200
    assert client.get("/reports/lists/members.xlsx").status_code == 403


def test_it_exports_only_the_filtered_income_under_a_month_name(client, accountant, november):
    client.force_login(accountant)
    response = client.get(
        "/reports/lists/income.xlsx?day_after=2026-11-01&day_before=2026-11-30&category=guest_fee"
    )
    assert (
        "filename*=utf-8''2026%E5%B9%B411%E6%9C%88%E6%94%B6%E6%94%AF.xlsx"
        in (response["Content-Disposition"])
    )
    rows, ws = _xlsx_rows(response)
    lines = rows[1:-1]
    assert [r[2] for r in lines] == ["非会员器材损耗费", "非会员器材损耗费"]
    assert sum(Decimal(str(r[3])) for r in lines) == Decimal("6.00")
    assert rows[-1][0] == "合计" and rows[-1][3] == "=SUM(D2:D3)"
    assert ws["D2"].number_format == "#,##0.00"
    assert ws.freeze_panes == "A2"


def test_it_escapes_formulas_in_xlsx_and_csv(client, manager, november):
    client.force_login(manager)
    rows, _ws = _xlsx_rows(client.get("/reports/lists/members.xlsx?q=HYPERLINK"))
    assert rows[1][0] == '\'=HYPERLINK("http://x")'
    rows = _csv_rows(client.get("/reports/lists/members.csv?q=HYPERLINK"))
    assert rows[1][0] == '\'=HYPERLINK("http://x")'
    rows = _csv_rows(client.get("/reports/lists/visits.csv?q=1%2B1"))
    assert rows[1][2] == "'-1+1"


def test_it_never_exports_an_id_number(client, manager, november):
    client.force_login(manager)
    text = b"".join(client.get("/reports/lists/members.csv").streaming_content).decode()
    assert november.chen.id_number not in text
    assert november.chen.id_number[-4:] not in text


def test_it_filters_the_hands_of_one_session(client, manager, november):
    client.force_login(manager)
    rows = _csv_rows(client.get(f"/reports/lists/hands.csv?session={november.session.pk}"))
    assert len(rows) == 1 + 5  # four hands and a reversal
    assert any("清一色" in r[5] for r in rows[1:])
    first = next(r for r in rows[1:] if r[3] == "1")
    assert "5" in first[-1]  # voided by entry 5, its reversal
    assert sum(int(r[6]) + int(r[7]) + int(r[8]) + int(r[9]) for r in rows[1:]) == 0


def test_it_sums_the_ledger_lines_to_zero(client, manager, november):
    client.force_login(manager)
    rows = _csv_rows(client.get(f"/reports/lists/ledger.csv?session={november.session.pk}"))
    assert sum(int(r[6]) for r in rows[1:]) == 0
    assert any("陈喆" in r[4] for r in rows[1:])


def test_it_names_the_ledger_reasons_as_the_table_pages_do(client, manager, november):
    client.force_login(manager)
    rows = _csv_rows(client.get(f"/reports/lists/ledger.csv?session={november.session.pk}"))
    reasons = {r[7] for r in rows[1:]}
    # hand 5 voids hand 1: its lines take back the win, with the room's word for a void
    assert reasons == {"胡牌", "作废 胡牌"}


BOOKS_LISTS = ["income", "slips", "expenses", "plans"]


@pytest.mark.parametrize("slug", BOOKS_LISTS)
@pytest.mark.parametrize("who", ["manager", "accountant", "approver"])
def test_it_exports_every_list_of_the_books_to_its_readers(
    client, request, november_books, slug, who
):
    client.force_login(request.getfixturevalue(who))
    assert client.get(f"/reports/lists/{slug}/").status_code == 200
    rows, _ws = _xlsx_rows(client.get(f"/reports/lists/{slug}.xlsx"))
    assert len(rows) >= 3  # the header, a row at least, the total
    assert len(_csv_rows(client.get(f"/reports/lists/{slug}.csv"))) >= 2


@pytest.mark.parametrize("slug", BOOKS_LISTS)
def test_it_shows_a_member_nothing_of_the_books(client, member, november_books, slug):
    client.force_login(member)
    for suffix in ("/", ".xlsx", ".csv"):
        assert client.get(f"/reports/lists/{slug}{suffix}").status_code == 403


def test_it_exports_the_slips_the_books_page_filters(client, accountant, november_books):
    client.force_login(accountant)
    query = "book_date_after=2026-11-01&book_date_before=2026-11-30&state=confirmed"
    response = client.get(f"/reports/lists/slips.xlsx?{query}")
    # 2026年11月缴款单.xlsx
    assert (
        "filename*=utf-8''2026%E5%B9%B411%E6%9C%88%E7%BC%B4%E6%AC%BE%E5%8D%95.xlsx"
        in (response["Content-Disposition"])
    )
    rows, ws = _xlsx_rows(response)
    assert [(r[3], r[4], r[5]) for r in rows[1:-1]] == [(150, 3, "已入账")]
    assert rows[-1][3] == "=SUM(D2:D2)" and ws["D2"].number_format == "#,##0.00"
    returned = _csv_rows(client.get("/reports/lists/slips.csv?state=returned"))
    assert [(r[3], r[9]) for r in returned[1:]] == [("500.00", "缺少捐赠协议")]


def test_it_exports_the_expenses_by_category_with_their_text_escaped(
    client, manager, november_books
):
    client.force_login(manager)
    rows = _csv_rows(client.get("/reports/lists/expenses.csv"))
    header = rows[0]
    supplier = header.index("供应商")
    assert sorted(r[supplier] for r in rows[1:]) == ["'+纯净水站", "新街口文体商店"]
    rows, _ws = _xlsx_rows(client.get("/reports/lists/expenses.xlsx?category=mahjong"))
    assert [(r[4], Decimal(str(r[6]))) for r in rows[1:-1]] == [("麻将", Decimal("280.00"))]


def test_it_exports_the_income_the_books_page_filters(client, approver, november_books):
    client.force_login(approver)
    rows = _csv_rows(client.get("/reports/lists/income.csv?state=handed_over"))
    assert [(r[2], r[3]) for r in rows[1:]] == [("会员证工本费", "50.00")] * 3


def test_it_exports_the_plans_with_their_totals(client, accountant, november_books):
    client.force_login(accountant)
    rows, _ws = _xlsx_rows(client.get("/reports/lists/plans.xlsx?state=in_progress"))
    assert [(r[2], Decimal(str(r[3]))) for r in rows[1:-1]] == [("执行中", Decimal("480.00"))]


def test_it_stores_the_exported_income_total_with_its_value(client, accountant, november_books):
    client.force_login(accountant)
    response = client.get("/reports/lists/income.xlsx")
    ws = load_workbook(io.BytesIO(b"".join(response.streaming_content)), data_only=True).active
    rows = list(ws.iter_rows(values_only=True))
    amount = rows[0].index("金额（元）")
    assert rows[-1][0] == "合计"
    books = IncomeEntry.objects.aggregate(t=Sum("amount"))["t"]
    assert Decimal(str(rows[-1][amount])) == books
    assert books > 0
