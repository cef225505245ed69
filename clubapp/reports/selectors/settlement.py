"""A table session's settlement sheet (结账单): seats, every entry with its breakdown
and payments, who confirmed it, the statements and their transfers, the totals."""

from __future__ import annotations

import datetime as dt
from collections import defaultdict
from dataclasses import dataclass

from django.utils.translation import gettext as _

from clubapp.play import selectors as play
from clubapp.play.models import SEATS, TableSession
from clubapp.play.reasons import reason_name
from clubapp.reports.selectors.common import describe_hand, seat_label


@dataclass
class SheetEntry:
    number: int
    booked_at: dt.datetime
    description: str
    #: (seat label with name, breakdown labels with points) per win
    wins: list[tuple[str, list[tuple[str, int]]]]
    #: (payer, payee, amount, reason label)
    payments: list[tuple[str, str, int, str]]
    points: list[int]
    signed_by: list[str]
    reversal_of: int | None
    voided_by: int | None

    @property
    def stands(self) -> bool:
        return self.reversal_of is None and self.voided_by is None


@dataclass
class SheetStatement:
    number: int
    first_number: int
    last_number: int
    made_at: dt.datetime
    net: list[int]
    transfers: list[tuple[str, str, int]]


@dataclass
class SettlementSheet:
    """A table session on paper: seats, every entry with its breakdown and payments,
    who confirmed it, the statements and their transfers, and the totals."""

    session: TableSession
    seats: list[tuple[str, str]]
    entries: list[SheetEntry]
    statements: list[SheetStatement]
    totals: list[int]

    @property
    def standing(self) -> int:
        return sum(1 for e in self.entries if e.stands)


def settlement_sheet(*, session: TableSession) -> SettlementSheet:
    """Read-only: the session's seats, hands, sign-offs, statements and ledger sums."""
    names = play.seat_names(session=session)
    signoffs: dict[int, list[str]] = defaultdict(list)
    for hand_id, wind in play.signoff_seats(session=session):
        signoffs[hand_id].append(seat_label(wind, names))
    rows = play.hands_as_booked(session=session)
    voided_by = {r["voids__number"]: r["number"] for r in rows if r["voids__number"] is not None}
    entries = []
    for row in rows:
        record, result = row["record"] or {}, row["result"] or {}
        net = result.get("net") or {}
        reversal_of = row["voids__number"]
        if reversal_of is not None:
            description = _("Reverses hand #%(n)s") % {"n": reversal_of}
            wins: list[tuple[str, list[tuple[str, int]]]] = []
        else:
            description, _features = describe_hand(record, result, names)
            wins = [
                (
                    seat_label(win["seat"], names),
                    [(b["label"], b["points"]) for b in win.get("breakdown", [])],
                )
                for win in result.get("wins") or []
            ]
        entries.append(
            SheetEntry(
                number=row["number"],
                booked_at=row["created_at"],
                description=description,
                wins=wins,
                payments=[
                    (
                        seat_label(p["from"], names),
                        seat_label(p["to"], names),
                        p["amount"],
                        reason_name(p["reason"]),
                    )
                    for p in result.get("payments") or []
                ],
                points=[net.get(w, 0) for w in SEATS],
                signed_by=sorted(signoffs.get(row["id"], [])),
                reversal_of=reversal_of,
                voided_by=voided_by.get(row["number"]),
            )
        )
    statements = []
    # ``statements`` lists the newest first; the sheet, in order
    for s in list(play.statements(session=session))[::-1]:
        frozen = s.statement.get("names") or names
        statements.append(
            SheetStatement(
                number=s.number,
                first_number=s.first_number,
                last_number=s.last_number,
                made_at=s.created_at,
                net=[s.statement.get("net", {}).get(w, 0) for w in SEATS],
                transfers=[
                    (seat_label(t["from"], frozen), seat_label(t["to"], frozen), t["amount"])
                    for t in s.statement.get("transfers", [])
                ],
            )
        )
    sums = play.seat_totals(session=session)
    return SettlementSheet(
        session=session,
        seats=[(w, seat_label(w, names)) for w in SEATS],
        entries=entries,
        statements=statements,
        totals=[sums.get(w, 0) for w in SEATS],
    )
