"""会员证 and 收据 as documents: what their templates need, read-only.

A card is printed at ID-1 size (85.6 × 54 mm, the size of a bank card), alone or
ten to an A4 sheet (two columns, five rows, 4 mm apart) with crop marks. Its QR
code holds exactly the card number as printed (``2026-0001``), so the desk's
scanner types what a person would.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from decimal import Decimal

import cn2an
import segno
from django.conf import settings
from django.db.models import QuerySet

from clubapp.members.models import Card, CardState, Receipt

CARD_W, CARD_H = 85.6, 54.0  # mm, ISO/IEC 7810 ID-1
SHEET_W, SHEET_H = 210.0, 297.0  # A4
COLUMNS, ROWS = 2, 5
GAP = 4.0  # mm between cards: room for the crop marks
PER_SHEET = COLUMNS * ROWS
MARK = 3.0  # mm, the length of a crop mark
MARK_OFFSET = 1.0  # mm between the card's edge and its mark


def qr_data_uri(text: str) -> str:
    """The QR code of ``text`` as an SVG data URI (error correction M, quiet zone 2)."""
    return segno.make(text, error="m", micro=False).svg_data_uri(scale=4, border=2)


@dataclass(frozen=True)
class CardDoc:
    number: str
    name: str
    valid_until: dt.date
    issued_on: dt.date
    state: str
    photo_url: str
    qr: str


def card_doc(card: Card) -> CardDoc:
    member = card.member
    photo = f"{settings.MEDIA_URL}{member.photo.name}" if member.photo else ""
    return CardDoc(
        number=card.number,
        name=member.name,
        valid_until=card.valid_until,
        issued_on=card.issued_on,
        state=str(CardState(card.state).label),
        photo_url=photo,
        qr=qr_data_uri(card.number),
    )


@dataclass(frozen=True)
class Slot:
    """Where a card sits on the A4 sheet (mm from the page's top left)."""

    x: float
    y: float
    card: CardDoc


@dataclass(frozen=True)
class Mark:
    x: float
    y: float
    w: float
    h: float


def sheet_slots(cards: list[CardDoc]) -> list[list[Slot]]:
    """The cards ten to a page, centred on A4."""
    left = (SHEET_W - COLUMNS * CARD_W - (COLUMNS - 1) * GAP) / 2
    top = (SHEET_H - ROWS * CARD_H - (ROWS - 1) * GAP) / 2
    pages = []
    for start in range(0, len(cards), PER_SHEET):
        page = []
        for index, card in enumerate(cards[start : start + PER_SHEET]):
            row, column = divmod(index, COLUMNS)
            x = left + column * (CARD_W + GAP)
            y = top + row * (CARD_H + GAP)
            page.append(Slot(round(x, 2), round(y, 2), card))
        pages.append(page)
    return pages


def crop_marks(slot: Slot) -> list[Mark]:
    """Eight short lines outside the card's corners, in line with its edges."""
    x0, y0, x1, y1 = slot.x, slot.y, slot.x + CARD_W, slot.y + CARD_H
    o, m, t = MARK_OFFSET, MARK, 0.15
    return [
        # horizontal marks, left and right of each corner
        Mark(x0 - o - m, y0, m, t), Mark(x1 + o, y0, m, t),
        Mark(x0 - o - m, y1, m, t), Mark(x1 + o, y1, m, t),
        # vertical marks, above and below each corner
        Mark(x0, y0 - o - m, t, m), Mark(x1, y0 - o - m, t, m),
        Mark(x0, y1 + o, t, m), Mark(x1, y1 + o, t, m),
    ]  # fmt: skip


def cards_for_print(qs: QuerySet[Card]) -> list[CardDoc]:
    return [card_doc(c) for c in qs.select_related("member").order_by("number")]


@dataclass(frozen=True)
class ReceiptDoc:
    receipt: Receipt
    amount_in_words: str
    description: str


def amount_in_words(amount: Decimal) -> str:
    """人民币大写: 50.00 → 伍拾元整, 1234.56 → 壹仟贰佰叁拾肆元伍角陆分."""
    return str(cn2an.an2cn(f"{amount:.2f}", "rmb"))


def receipt_doc(receipt: Receipt) -> ReceiptDoc:
    parts = [str(receipt.get_kind_display())]
    if receipt.card is not None:
        parts.append(receipt.card.number)
    if receipt.visit is not None and receipt.visit.hours_billed:
        parts.append(f"{receipt.visit.hours_billed} 小时")
    return ReceiptDoc(
        receipt=receipt,
        amount_in_words=amount_in_words(receipt.amount),
        description=" · ".join(parts),
    )
