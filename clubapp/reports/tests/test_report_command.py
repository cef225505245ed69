"""python manage.py report --month 2026-11 --format xlsx|pdf --out FILE"""

from __future__ import annotations

import io

import pytest
from django.core.management import CommandError, call_command
from openpyxl import load_workbook

from clubapp.reports.tests.pdfs import assert_ships_its_font, pdf_text


def test_it_writes_the_xlsx(november, tmp_path):
    out = tmp_path / "nov.xlsx"
    stdout = io.StringIO()
    call_command("report", month="2026-11", format="xlsx", out=str(out), stdout=stdout)
    assert "166.00" in stdout.getvalue()
    wb = load_workbook(out)
    assert wb.sheetnames[0] == "概要"


def test_it_writes_the_pdf(november, tmp_path):
    out = tmp_path / "nov.pdf"
    call_command("report", month="2026-11", format="pdf", out=str(out), stdout=io.StringIO())
    data = out.read_bytes()
    assert "测试棋牌室" in pdf_text(data)
    assert_ships_its_font(data)


def test_it_refuses_a_month_it_cannot_read(db, tmp_path):
    with pytest.raises(CommandError, match="YYYY-MM"):
        call_command("report", month="Nov", format="xlsx", out=str(tmp_path / "x.xlsx"))
