"""Who pays whom: win shares, 包牌, kong money, penalties, and the 进园子 cap."""

from __future__ import annotations

from typing import NamedTuple

from .record import SEATS, Garden, Hand, Win


class Payment(NamedTuple):
    payer: str
    payee: str
    amount: int
    reason: str


def others(seat: str) -> tuple[str, ...]:
    """The three seats other than ``seat``, in turn order."""
    return _OTHERS[seat]


_OTHERS = {seat: tuple(s for s in SEATS if s != seat) for seat in SEATS}


def win_shares(
    win: Win, value: int, payers: tuple[str, ...], liable_share: int | None = None
) -> list[Payment]:
    """One win's shares of ``value``, one from each of ``payers`` (the discarder, or the
    other three when self-drawn); a liable seat (包牌) pays every share the others would
    have paid, each worth ``liable_share`` when given."""
    if win.liable is not None:
        share = value if liable_share is None else liable_share
        return [Payment(win.liable, win.seat, share * len(payers), "win")]
    return [Payment(payer, win.seat, value, "win") for payer in payers]


def kong_money(hand: Hand, exposed: int, concealed: int, flower: int, factor: int) -> list[Payment]:
    """明杠 from the feeder, 暗杠 and 花杠 from each other seat; a robbed kong earns nothing
    (nor does a kind of kong whose money is 0)."""
    exposed, concealed, flower = exposed * factor, concealed * factor, flower * factor
    out = []
    for kong in hand.kongs:
        if kong.robbed:
            continue
        if kong.type == "flower":
            if flower:
                out += [Payment(p, kong.seat, flower, "flower_kong") for p in _OTHERS[kong.seat]]
        elif kong.type == "concealed":
            if concealed:
                out += [Payment(p, kong.seat, concealed, "kong") for p in _OTHERS[kong.seat]]
        elif exposed:
            assert kong.feeder is not None
            out.append(Payment(kong.feeder, kong.seat, exposed, "kong"))
    return out


def penalties(hand: Hand, amount: int) -> list[Payment]:
    """罚分: the seat at fault pays each other seat."""
    return [
        Payment(pen.seat, other, amount, "penalty")
        for pen in hand.penalties
        for other in others(pen.seat)
        if amount
    ]


def net(payments: list[Payment]) -> dict[str, int]:
    totals = dict.fromkeys(SEATS, 0)
    for payer, payee, amount, _ in payments:
        totals[payer] -= amount
        totals[payee] += amount
    return totals


def garden_cap(payments: list[Payment], garden: Garden) -> list[Payment]:
    """进园子: nobody pays more than they had left before the hand.

    Where a payer owes more than is left, what is left is split in proportion to the
    total owed to each payee, in whole 花, the remainder one 花 at a time to the payees
    in turn order from the payer's right. Each payee's capped amount is then taken
    from that payee's payments in the order they were listed.
    """
    grants: dict[str, dict[str, int]] = {}
    for payer in SEATS:
        owed: dict[str, int] = {}
        for p in payments:
            if p.payer == payer:
                owed[p.payee] = owed.get(p.payee, 0) + p.amount
        total = sum(owed.values())
        left = garden.left[payer]
        if total <= left:
            grants[payer] = owed
            continue
        grant = {payee: left * amount // total for payee, amount in owed.items()}
        rest = left - sum(grant.values())
        for step in (1, 2, 3):
            payee = SEATS[(SEATS.index(payer) + step) % 4]
            if rest and payee in owed:
                grant[payee] += 1
                rest -= 1
        grants[payer] = grant
    out = []
    for p in payments:
        grant = grants[p.payer]
        take = min(p.amount, grant[p.payee])
        grant[p.payee] -= take
        if take:
            out.append(p._replace(amount=take))
    return out


def garden_after(garden: Garden, totals: dict[str, int]) -> tuple[dict[str, int], bool]:
    """Each seat's balance after the hand, and whether the 园子 is now over."""
    left = {seat: garden.left[seat] + totals[seat] for seat in SEATS}
    out = sum(1 for seat in SEATS if left[seat] == 0)
    return left, out >= garden.end_when_out
