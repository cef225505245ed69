"""收据: a numbered receipt for a fee paid, and its 收 entry in the cash book."""

from __future__ import annotations

import datetime as dt
import uuid
from decimal import Decimal

from django.contrib.auth.models import User
from django.utils import timezone

from clubapp.books.models import IncomeCategory
from clubapp.books.services import income_record
from clubapp.core.models import Room
from clubapp.core.services import next_number
from clubapp.members.models import Card, Member, Receipt, ReceiptKind, Visit

_INCOME_CATEGORY = {
    ReceiptKind.CARD: IncomeCategory.CARD_FEE,
    ReceiptKind.REISSUE: IncomeCategory.CARD_FEE,
    ReceiptKind.RENEWAL: IncomeCategory.RENEWAL_FEE,
    ReceiptKind.GUEST: IncomeCategory.GUEST_FEE,
}


def receipt_issue(
    *,
    room: Room,
    kind: ReceiptKind,
    amount: Decimal,
    payer: str,
    by: User,
    now: dt.datetime,
    member: Member | None = None,
    card: Card | None = None,
    visit: Visit | None = None,
    request_key: uuid.UUID | None = None,
) -> Receipt | None:
    """A numbered receipt and its 收 entry; nothing for a fee of zero (nothing was paid)."""
    if amount <= 0:
        return None
    year = timezone.localtime(now).year
    number = f"R{year}-{next_number(room=room, key=f'receipt-{year}'):05d}"
    receipt = Receipt.objects.create(
        room=room,
        number=number,
        kind=kind,
        amount=amount,
        payer=payer,
        member=member,
        card=card,
        visit=visit,
        paid_at=now,
        received_by=by,
        request_key=request_key,
    )
    income_record(
        room=room,
        category=_INCOME_CATEGORY[ReceiptKind(kind)],
        amount=amount,
        received_at=now,
        reference=number,
        recorded_by=by,
        description=f"{ReceiptKind(kind).label} · {payer}",
    )
    return receipt
