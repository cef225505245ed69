"""A table session's settlement sheet (结账单) as PDF and xlsx."""

from __future__ import annotations

import io

from django.db.models import Sum
from openpyxl import load_workbook

from clubapp.play.models import LedgerLine
from clubapp.reports.tests.pdfs import assert_ships_its_font, pdf_text


def test_it_prints_every_hand_its_breakdown_and_the_statements(client, manager, november, tmp_path):
    client.force_login(manager)
    response = client.get(f"/reports/sessions/{november.session.pk}/sheet.pdf")
    assert response.status_code == 200
    data = b"".join(response.streaming_content)
    (tmp_path / "sheet.pdf").write_bytes(data)
    text = pdf_text(data)
    assert "测试棋牌室" in text
    assert "东 陈喆" in text and "北 散客老周" in text
    assert "清一色" in text  # hand 2's breakdown
    assert "✓ 东 陈喆" in text  # 陈喆 confirmed hand 2
    assert "结账" in text
    assert_ships_its_font(data)


def test_it_writes_the_hands_with_points_that_sum_to_zero(client, accountant, november):
    client.force_login(accountant)
    response = client.get(f"/reports/sessions/{november.session.pk}/sheet.xlsx")
    assert response.status_code == 200
    wb = load_workbook(io.BytesIO(b"".join(response.streaming_content)))
    hands = list(wb.worksheets[0].iter_rows(values_only=True))
    header = hands[2]
    assert header[4:8] == ("东 陈喆（花）", "南 王堃（花）", "西 李昇（花）", "北 散客老周（花）")
    lines = hands[3:-1]
    assert len(lines) == 5
    assert sum(sum(r[4:8]) for r in lines) == 0
    assert hands[-1][4] == "=SUM(E4:E8)"
    confirmed = header.index("确认")
    assert "东 陈喆" in lines[1][confirmed]
    statements = list(wb.worksheets[1].iter_rows(values_only=True))
    assert len(statements) > 3


def test_it_lets_a_seated_member_print_their_table_only(client, november):
    client.force_login(november.chen.user)  # seated at east; a member account without a role
    assert client.get(f"/reports/sessions/{november.session.pk}/sheet/").status_code == 200


def test_it_refuses_a_member_who_did_not_sit_there(client, member, november):
    client.force_login(member)
    for suffix in ("sheet/", "sheet.pdf", "sheet.xlsx"):
        assert client.get(f"/reports/sessions/{november.session.pk}/{suffix}").status_code == 403


def test_it_stores_each_seats_total_with_its_value_from_the_ledger(client, accountant, november):
    client.force_login(accountant)
    response = client.get(f"/reports/sessions/{november.session.pk}/sheet.xlsx")
    values = load_workbook(io.BytesIO(b"".join(response.streaming_content)), data_only=True)
    total = list(values.worksheets[0].iter_rows(values_only=True))[-1]
    assert total[0] == "合计"
    lines = LedgerLine.objects.filter(hand__session=november.session)
    ledger = [lines.filter(seat=w).aggregate(p=Sum("points"))["p"] or 0 for w in "ESWN"]
    assert list(total[4:8]) == ledger
    assert any(ledger)  # not a table of zeros
