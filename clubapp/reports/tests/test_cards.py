"""会员证 at ID-1 size with a QR code of the card number, ten to an A4 sheet; 收据."""

from __future__ import annotations

import io
import shutil
import subprocess

import pytest
import zxingcpp
from PIL import Image
from pypdf import PdfReader

from clubapp.members import services as members
from clubapp.members.models import Card, Receipt
from clubapp.members.tests.factories import image_bytes
from clubapp.reports.cards import amount_in_words, crop_marks, sheet_slots
from clubapp.reports.tests.pdfs import (
    assert_ships_its_font,
    pdf_page_size_mm,
    pdf_pages,
    pdf_text,
)


def _pdf(response) -> bytes:
    assert response.status_code == 200, response
    assert response["Content-Type"] == "application/pdf"
    return b"".join(response.streaming_content)


def _with_photo(member, manager):
    members.member_update(
        member=member,
        name=member.name,
        phone=member.phone,
        photo=io.BytesIO(image_bytes()),
        user=member.user,
        by=manager,
    )


def test_it_prints_a_card_at_id1_size_with_photo_and_qr(client, manager, november, tmp_path):
    _with_photo(november.chen, manager)
    card = Card.objects.get(member=november.chen)
    client.force_login(manager)
    data = _pdf(client.get(f"/reports/cards/{card.pk}.pdf"))
    (tmp_path / "card.pdf").write_bytes(data)
    assert pdf_page_size_mm(data) == (85.6, 54.0)
    text = pdf_text(data)
    assert "测试棋牌室" in text and "陈喆" in text and card.number in text
    assert "年审" in text
    assert_ships_its_font(data)
    images = PdfReader(io.BytesIO(data)).pages[0].images
    assert len(images) >= 1  # the photo (the QR code is vector)


@pytest.mark.skipif(shutil.which("pdftoppm") is None, reason="needs poppler-utils (pdftoppm)")
def test_it_puts_exactly_the_card_number_in_the_qr_code(client, manager, november, tmp_path):
    card = Card.objects.get(member=november.wang)
    client.force_login(manager)
    (tmp_path / "card.pdf").write_bytes(_pdf(client.get(f"/reports/cards/{card.pk}.pdf")))
    subprocess.run(
        ["pdftoppm", "-png", "-r", "300", str(tmp_path / "card.pdf"), str(tmp_path / "card")],
        check=True,
    )
    image = Image.open(next(tmp_path.glob("card*.png")))
    codes = zxingcpp.read_barcodes(image)
    assert [c.text for c in codes] == [card.number]
    assert codes[0].format == zxingcpp.BarcodeFormat.QRCode


def test_it_lets_a_member_print_their_own_card_only(client, november):
    own = Card.objects.get(member=november.chen)
    other = Card.objects.get(member=november.wang)
    client.force_login(november.chen.user)
    assert client.get(f"/reports/cards/{own.pk}.pdf").status_code == 200
    assert client.get(f"/reports/cards/{other.pk}.pdf").status_code == 403


def test_it_prints_ten_cards_to_an_a4_sheet(client, manager, november, tmp_path):
    client.force_login(manager)
    numbers = " ".join(Card.objects.values_list("number", flat=True))
    data = _pdf(client.get("/reports/cards/sheet.pdf", {"numbers": numbers}))
    (tmp_path / "sheet.pdf").write_bytes(data)
    assert pdf_page_size_mm(data) == (210.0, 297.0)
    assert pdf_pages(data) == 1
    text = pdf_text(data)
    for number in Card.objects.values_list("number", flat=True):
        assert number in text
    assert_ships_its_font(data)


def test_it_lays_out_ten_cards_a_page_inside_a4_with_marks_inside_the_page():
    pages = sheet_slots([object()] * 23)  # type: ignore[list-item]
    assert [len(p) for p in pages] == [10, 10, 3]
    for slot in pages[0]:
        assert 0 < slot.x and slot.x + 85.6 < 210
        assert 0 < slot.y and slot.y + 54 < 297
        for mark in crop_marks(slot):
            assert 0 <= mark.x and mark.x + mark.w <= 210
            assert 0 <= mark.y and mark.y + mark.h <= 297
    first, second = pages[0][0], pages[0][1]
    assert second.x - first.x > 85.6  # a gap for the marks


def test_it_refuses_the_batch_to_an_accountant(client, accountant, november):
    client.force_login(accountant)
    assert client.get("/reports/cards/").status_code == 403
    assert client.get("/reports/cards/sheet.pdf?numbers=2026-0001").status_code == 403


def test_it_prints_a_receipt_with_the_amount_in_capitals(client, accountant, november, tmp_path):
    receipt = Receipt.objects.filter(member=november.chen).first()
    client.force_login(accountant)
    data = _pdf(client.get(f"/reports/receipts/{receipt.number}.pdf"))
    (tmp_path / "receipt.pdf").write_bytes(data)
    text = pdf_text(data)
    assert receipt.number in text and "陈喆" in text
    assert "伍拾元整" in text and "50.00" in text
    assert_ships_its_font(data)


def test_it_writes_amounts_in_chinese_capitals():
    from decimal import Decimal

    assert amount_in_words(Decimal("50.00")) == "伍拾元整"
    assert amount_in_words(Decimal("1234.56")) == "壹仟贰佰叁拾肆元伍角陆分"
    assert amount_in_words(Decimal("100.05")) == "壹佰元零伍分"


def test_it_refuses_a_receipt_to_a_member(client, member, november):
    receipt = Receipt.objects.first()
    client.force_login(member)
    assert client.get(f"/reports/receipts/{receipt.number}.pdf").status_code == 403
