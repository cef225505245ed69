"""The monthly report as PDF: A4, the room's Chinese name, the shipped font."""

from __future__ import annotations

from clubapp.reports.tests.pdfs import assert_ships_its_font, pdf_page_size_mm, pdf_text


def test_it_renders_the_month_for_the_accountant(client, accountant, november, tmp_path):
    client.force_login(accountant)
    response = client.get("/reports/monthly.pdf?month=2026-11")
    assert response.status_code == 200
    assert response["Content-Type"] == "application/pdf"
    assert "filename*=utf-8''2026%E5%B9%B411%E6%9C%88" in response["Content-Disposition"]
    data = b"".join(response.streaming_content)
    (tmp_path / "monthly.pdf").write_bytes(data)
    text = pdf_text(data)
    assert "测试棋牌室" in text
    assert "2026年11月" in text
    assert "166.00" in text
    assert "陈喆" in text and "王堃" in text
    assert "第 1 页 / 共" in text
    assert pdf_page_size_mm(data) == (210.0, 297.0)
    assert_ships_its_font(data)


def test_the_busiest_hours_chart_is_an_image_the_page_may_show(client, accountant, november):
    # The CSP allows no inline <style>; pygal's SVG carries one, so it goes in an <img>.
    import base64
    import re

    client.force_login(accountant)
    body = client.get("/reports/monthly/?month=2026-11").content.decode()
    assert "<svg" not in body and "<style" not in body
    found = re.search(r'<img src="data:image/svg\+xml;base64,([^"]+)"', body)
    assert found is not None
    svg = base64.b64decode(found.group(1)).decode()
    assert "<svg" in svg and "周一" in svg
    assert (
        "img-src 'self' data:" in client.get("/reports/monthly/").headers["Content-Security-Policy"]
    )
