"""Settling up (结账), as pure functions: when a table settles, and who pays whom.

The deal's passes are counted over the night (``night.State.passes``): a 圈 is four
passes, a 将 four 圈. A hand "closes" the window since the last statement when the
table's settlement option says the table settles after it.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from .record import SEATS

#: the settlement options a table may choose (结账): after every hand, every 圈, every
#: 将, at the end of the session only, the worksite timing, or when a 园子 closes
OPTIONS = ("hand", "quan", "jiang", "session", "worksite", "garden")


def settles_after(option: str, passes_before: int, passes_after: int, garden_over: bool) -> bool:
    """Whether a table settling by ``option`` settles after a hand during which the
    deal's pass count went from ``passes_before`` to ``passes_after``.

    - ``hand``: every hand; ``session``: none (the statement is made at the end);
    - ``quan`` / ``jiang``: the hand after which a new 圈 / 将 begins;
    - ``worksite`` (江苏工地麻将): the first 圈 settles together when it ends; after
      that every hand settles, except that while a dealer stays on, settlement waits
      until the deal passes;
    - ``garden``: the hand that closed a 园子.
    """
    if option == "hand":
        return True
    if option == "quan":
        return passes_after // 4 > passes_before // 4
    if option == "jiang":
        return passes_after // 16 > passes_before // 16
    if option == "worksite":
        return passes_after >= 4 if passes_before < 4 else passes_after > passes_before
    if option == "garden":
        return garden_over
    return False


def fewest_transfers(net: Mapping[str, int]) -> list[dict[str, Any]]:
    """Who pays whom how much to settle ``net`` (seat → points, summing to zero).

    Seats whose amounts cancel exactly are paired first; then the largest debtor pays
    the largest creditor, again and again. That needs at most n − 1 transfers, and for
    the four seats of a table it is the fewest possible: four seats settle in two
    transfers only when they split into two pairs that cancel, and those pairs are
    found first. Ties go in seat order E S W N.
    """
    debit = {seat: -points for seat, points in net.items() if points < 0}
    credit = {seat: points for seat, points in net.items() if points > 0}
    out: list[dict[str, Any]] = []
    for debtor in sorted(debit, key=SEATS.index):
        for creditor in sorted(credit, key=SEATS.index):
            if debit[debtor] and debit[debtor] == credit[creditor]:
                out.append({"from": debtor, "to": creditor, "amount": debit[debtor]})
                debit[debtor] = credit[creditor] = 0
                break
    while any(debit.values()):
        debtor = max(debit, key=lambda s: (debit[s], -SEATS.index(s)))
        creditor = max(credit, key=lambda s: (credit[s], -SEATS.index(s)))
        amount = min(debit[debtor], credit[creditor])
        out.append({"from": debtor, "to": creditor, "amount": amount})
        debit[debtor] -= amount
        credit[creditor] -= amount
    return out
