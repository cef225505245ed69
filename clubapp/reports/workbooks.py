"""The xlsx of the monthly report and of a settlement sheet: a sheet per section,
frozen headers, widths fitted to Chinese, 元 and 花 formats, SUM formulas in the
total rows (so the accountant can audit them), each formula with its value from the
books (so a preview that computes nothing still shows the figure)."""

from __future__ import annotations

from typing import Any

from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import pgettext
from openpyxl.utils import get_column_letter

from clubapp.books.models import IncomeCategory
from clubapp.reports import selectors
from clubapp.reports.xlsx import Column, Formula, table_sheet, workbook, workbook_bytes


def _heading(report: selectors.MonthlyReport, title: str) -> list[str]:
    made = timezone.localtime(report.made_at).strftime("%Y-%m-%d %H:%M")
    return [f"{report.room.name} · {report.month.label} · {title}", _("Made %(at)s") % {"at": made}]


def monthly_workbook(report: selectors.MonthlyReport) -> bytes:
    wb = workbook()
    _summary(wb, report)
    _income(wb, report)
    _cash_book(wb, report)
    _fund(wb, report)
    _members(wb, report)
    _visits(wb, report)
    _play(wb, report)
    _life(wb, report)
    return workbook_bytes(wb)


def _summary(wb: Any, report: selectors.MonthlyReport) -> None:
    income, members, visits, play = report.income, report.members, report.visits, report.play
    book = report.cash_book
    rows: list[tuple[str, Any, Any]] = [
        (_("Opening balance"), None, book.opening_balance),
        (_("Income of the month"), income.count, income.total),
        (_("Expenses of the month"), None, book.expense_total),
        (_("Closing balance"), None, book.closing_balance),
        (_("Handed over"), None, book.handed_over),
        (_("Cash on hand at the month's end"), None, book.cash_closing),
        (_("Receipts of the month"), None, income.receipts_total),
        (_("Equipment fund: collected this month"), None, report.equipment_fund.collected_month),
        (_("Equipment fund: balance at the month's end"), None, report.equipment_fund.balance),
        (_("New members"), members.new_members, None),
        (_("Valid cards at the month's end"), members.active_at_end, None),
        (_("Member visits"), visits.member_visits, None),
        (_("Non-member visits"), visits.guest_visits, None),
        (_("Table sessions"), play.sessions, None),
        (_("Hands played"), play.hands, None),
    ]
    title = _("Summary")
    table_sheet(
        wb,
        title,
        [
            Column(pgettext("report line", "Item"), "label", 30),
            Column(_("Count"), "int", 8),
            Column(_("Yuan"), "yuan", 12),
        ],
        rows,
        heading=_heading(report, title),
    )


def _income(wb: Any, report: selectors.MonthlyReport) -> None:
    income = report.income
    title = _("Income by category")
    table_sheet(
        wb,
        title,
        [
            Column(_("Category"), "label", 16),
            Column(_("Entries"), "int", 6, total=True),
            Column(_("Amount (yuan)"), "yuan", 12, total=True),
        ],
        income.by_category,
        heading=_heading(report, title),
        total_label=_("Total"),
    )
    title = _("Income by day")
    heading = _heading(report, title)
    first_row = len(heading) + 2  # the heading lines, the header row, then the days
    columns = [Column(_("Day"), "date", 10)]
    columns += [Column(label, "yuan", 10, total=True) for label in income.categories]
    columns.append(Column(_("Total"), "yuan", 12, total=True))
    last_letter = get_column_letter(len(income.categories) + 1)
    rows = [
        [day, *amounts, Formula(f"=SUM(B{first_row + i}:{last_letter}{first_row + i})", total)]
        for i, (day, amounts, total) in enumerate(income.by_day)
    ]
    table_sheet(wb, title, columns, rows, heading=heading, total_label=_("Total"))
    _income_entries(wb, report)
    _income_reversed(wb, report)


def _income_entries(wb: Any, report: selectors.MonthlyReport) -> None:
    """Every 收 entry of the month, a row each (streamed: a month may hold many)."""
    title = _("Income entries")
    labels = dict(IncomeCategory.choices)
    entries = selectors.income_entries_of_month(room=report.room, month=report.month)
    table_sheet(
        wb,
        title,
        [
            Column(_("Received at"), "datetime", 16),
            Column(_("Receipt"), "text", 12),
            Column(_("Category"), "label", 16),
            Column(_("Amount (yuan)"), "yuan", 10, total=True),
            Column(_("Description"), "text", 28),
            Column(_("Recorded by"), "text", 8),
        ],
        (
            (
                e.received_at,
                e.reference,
                str(labels.get(e.category, e.category)),
                e.amount,
                e.description,
                e.recorded_by.get_full_name() or e.recorded_by.get_username(),
            )
            for e in entries.iterator(chunk_size=2000)
        ),
        heading=_heading(report, title),
        total_label=_("Total"),
    )


def _income_reversed(wb: Any, report: selectors.MonthlyReport) -> None:
    """The month's reversed 收 entries, when there are any."""
    reversals = list(selectors.income_reversals_of_month(room=report.room, month=report.month))
    if reversals:
        title = _("Income reversed")
        table_sheet(
            wb,
            title,
            [
                Column(_("Reversed at"), "datetime", 16),
                Column(_("Reversal"), "text", 12),
                Column(_("Receipt"), "text", 12),
                Column(_("Amount (yuan)"), "yuan", 10, total=True),
                Column(_("Reason"), "text", 28),
                Column(_("Reversed by"), "text", 8),
            ],
            (
                (
                    r.reversed_at,
                    r.number,
                    r.income.reference if r.income else "",
                    r.amount,
                    r.reason,
                    r.reversed_by.get_full_name() or r.reversed_by.get_username(),
                )
                for r in reversals
            ),
            heading=_heading(report, title),
            total_label=_("Total"),
        )


def _cash_book(wb: Any, report: selectors.MonthlyReport) -> None:
    """The balance and the cash on hand, each closing figure a formula over the
    lines above it; the expenses by category and by plan with SUM totals."""
    book = report.cash_book
    title = _("Cash book")
    heading = _heading(report, title)
    first = len(heading) + 2  # the heading lines, the header row, then the lines

    def b(n: int) -> str:
        return f"B{first + n}"

    table_sheet(
        wb,
        title,
        [Column(pgettext("report line", "Item"), "label", 34), Column(_("Yuan"), "yuan", 12)],
        [
            (_("Opening balance (income less expenses before the month)"), book.opening_balance),
            (_("Income of the month"), book.income_total),
            (_("Expenses of the month"), book.expense_total),
            (_("Closing balance"), Formula(f"={b(0)}+{b(1)}-{b(2)}", book.closing_balance)),
            (_("Cash on hand at the month's start"), book.cash_opening),
            (_("Income of the month"), book.income_total),
            (_("Handed over to the unit's finance"), book.handed_over),
            (
                _("Cash on hand at the month's end"),
                Formula(f"={b(4)}+{b(5)}-{b(6)}", book.cash_closing),
            ),
        ],
        heading=heading,
    )
    title = _("Expenses by category")
    table_sheet(
        wb,
        title,
        [Column(_("Category"), "label", 16), Column(_("Amount (yuan)"), "yuan", 12, total=True)],
        book.expenses_by_category,
        heading=_heading(report, title),
        total_label=_("Total"),
    )
    title = _("Expenses by purchase plan")
    table_sheet(
        wb,
        title,
        [
            Column(_("Purchase plan"), "text", 30),
            Column(_("Amount (yuan)"), "yuan", 12, total=True),
        ],
        book.expenses_by_plan,
        heading=_heading(report, title),
        total_label=_("Total"),
    )


def _fund(wb: Any, report: selectors.MonthlyReport) -> None:
    fund = report.equipment_fund
    title = _("Equipment fund")
    heading = _heading(report, title)
    first = len(heading) + 2
    table_sheet(
        wb,
        title,
        [Column(pgettext("report line", "Item"), "label", 30), Column(_("Yuan"), "yuan", 12)],
        [
            (_("Balance at the month's start"), fund.opening),
            (_("Collected this month"), fund.collected_month),
            (_("Spent this month"), fund.spent_month),
            (
                _("Balance at the month's end"),
                Formula(f"=B{first}+B{first + 1}-B{first + 2}", fund.balance),
            ),
            (_("Collected up to the month's end"), fund.collected_to_date),
            (_("Spent up to the month's end"), fund.spent_to_date),
        ],
        heading=heading,
    )


def _members(wb: Any, report: selectors.MonthlyReport) -> None:
    m = report.members
    title = _("Members and cards")
    table_sheet(
        wb,
        title,
        [Column(pgettext("report line", "Item"), "label", 34), Column(_("Count"), "int", 8)],
        [
            (_("New members registered"), m.new_members),
            (_("Cards issued"), m.cards_issued),
            (_("Cards reissued (lost)"), m.cards_reissued),
            (_("Yearly reviews, by receipt"), m.renewals),
            (_("Cards that expired this month and are not renewed"), m.expired),
            (_("Cards suspended this month"), m.suspended),
            (_("Cards revoked this month"), m.revoked),
            (_("Valid cards at the month's end"), m.active_at_end),
        ],
        heading=_heading(report, title),
    )
    title = _("Card fees")
    table_sheet(
        wb,
        title,
        [
            Column(_("Fee"), "label", 16),
            Column(_("Receipts"), "int", 8, total=True),
            Column(_("Amount (yuan)"), "yuan", 12, total=True),
        ],
        m.fees,
        heading=_heading(report, title),
        total_label=_("Total"),
    )
    title = _("New members")
    table_sheet(
        wb,
        title,
        [
            Column(_("Name"), "text", 10),
            Column(_("Registered"), "date", 10),
            Column(_("Card number"), "text", 10),
        ],
        m.new_member_rows,
        heading=_heading(report, title),
    )


def _visits(wb: Any, report: selectors.MonthlyReport) -> None:
    v = report.visits
    title = _("Visits")
    table_sheet(
        wb,
        title,
        [Column(pgettext("report line", "Item"), "label", 30), Column(_("Value"), "number", 10)],
        [
            (_("Member visits"), v.member_visits),
            (_("Members who came"), v.members_distinct),
            (_("Members' hours in the room"), v.member_hours),
            (_("Non-member visits"), v.guest_visits),
            (_("Non-members' billed hours"), v.guest_hours_billed),
            (_("Non-member equipment fees (yuan)"), v.guest_fees),
            (_("Days with visits"), v.days_with_visits),
            (_("Visits not checked out yet"), v.still_open),
        ],
        heading=_heading(report, title),
    )
    title = _("Busiest hours")
    table_sheet(
        wb,
        title,
        [Column(_("Weekday"), "label", 6), *(Column(f"{h}:00", "hours", 5) for h in v.hours)],
        [[day, *row] for day, row in v.busiest_rows],
        heading=[
            *_heading(report, title),
            _("The average number of people in the room in each hour of each weekday."),
        ],
    )


def _play(wb: Any, report: selectors.MonthlyReport) -> None:
    p = report.play
    title = _("Table play")
    table_sheet(
        wb,
        title,
        [
            Column(_("Ruleset"), "label", 16),
            Column(_("Sessions"), "int", 8, total=True),
            Column(_("Hands played"), "int", 8, total=True),
        ],
        p.by_ruleset,
        heading=_heading(report, title),
        total_label=_("Total"),
    )
    title = _("Big hands")
    table_sheet(
        wb,
        title,
        [
            Column(_("When"), "datetime", 16),
            Column(_("Table"), "int", 5),
            Column(_("Hand"), "int", 5),
            Column(_("Winner"), "text", 12),
            Column(_("Features"), "label", 24),
            Column(_("Value (points)"), "int", 8),
        ],
        [
            (b.played_at, b.table, b.number, b.winner, "、".join(b.features), b.value)
            for b in p.big_hands
        ],
        heading=_heading(report, title),
    )
    title = _("Members' points")
    table_sheet(
        wb,
        title,
        [
            Column(_("Member"), "text", 10),
            Column(_("Card number"), "text", 10),
            Column(_("Sessions"), "int", 8),
            Column(_("Points scored"), "int", 10, total=True),
        ],
        [*p.member_points, (_("Non-members"), "", p.guest_seats, p.guest_points)],
        heading=[*_heading(report, title), _("Points only: never money.")],
        total_label=_("Total"),
    )


def _life(wb: Any, report: selectors.MonthlyReport) -> None:
    """The room's life (issue 23.6): activities, tournaments, duty, checks, damage."""
    _life_held(wb, report)
    _life_tournaments(wb, report)
    _life_duty(wb, report)
    _life_damage(wb, report)


def _life_held(wb: Any, report: selectors.MonthlyReport) -> None:
    life = report.life.life
    title = _("Activities held")
    table_sheet(
        wb,
        title,
        [
            Column(_("Date"), "date", 10),
            Column(_("Activity"), "text", 24),
            Column(_("Kind"), "label", 8),
            Column(_("Game"), "label", 8),
            Column(_("Planned"), "label", 6),
            Column(_("Members"), "int", 6, total=True),
            Column(_("Others"), "int", 6, total=True),
            Column(_("Attendance"), "int", 6, total=True),
        ],
        [
            (
                h.date,
                h.title,
                h.kind,
                h.game,
                _("yes") if h.planned else "",
                h.members,
                h.others,
                h.attendance,
            )
            for h in life.held
        ],  # fmt: skip
        heading=_heading(report, title),
        total_label=_("Total"),
    )


def _life_tournaments(wb: Any, report: selectors.MonthlyReport) -> None:
    life = report.life.life
    title = _("Tournaments")
    table_sheet(
        wb,
        title,
        [
            Column(_("Tournament"), "text", 20),
            Column(_("Game"), "label", 8),
            Column(_("Starts"), "date", 10),
            Column(_("Ends"), "date", 10),
            Column(_("Entrants"), "int", 6),
            Column(pgettext("tournament", "Closed"), "label", 6),
            Column(_("Winner or leader"), "text", 12),
        ],
        [
            (t.name, t.game, t.starts, t.ends, t.entrants, _("yes") if t.closed else "", t.leader)
            for t in life.tournaments
        ],
        heading=_heading(report, title),
    )


def _life_duty(wb: Any, report: selectors.MonthlyReport) -> None:
    life = report.life.life
    duty, checks = life.duty, life.checks
    title = _("Duty and checks")
    table_sheet(
        wb,
        title,
        [Column(pgettext("report line", "Item"), "label", 30), Column(_("Value"), "number", 10)],
        [
            (_("Planned activities"), life.planned),
            (_("Planned activities held"), life.planned_held),
            (_("Days open"), duty.days_open),
            (_("Days covered"), duty.covered),
            (_("Days open with nobody on duty"), duty.uncovered),
            (_("Late sign-ons"), duty.late),
            (_("Early sign-offs"), duty.early),
            (_("Days of leave taken"), duty.leave_days),
            (_("Open days with every check ticked"), checks.days_complete),
            (_("Checks missed"), checks.missed_count),
            (_("Open days with no check items set"), checks.days_without_items),
            (_("Compensation for damage (yuan)"), life.compensation),
            *((_("Violations: %(kind)s") % {"kind": kind}, n) for kind, n in life.violations),
        ],
        heading=_heading(report, title),
    )


def _life_damage(wb: Any, report: selectors.MonthlyReport) -> None:
    life = report.life.life
    title = _("Damage and compensation")
    table_sheet(
        wb,
        title,
        [
            Column(_("Date"), "date", 10),
            Column(_("Equipment"), "text", 20),
            Column(_("Caused by"), "text", 10),
            Column(_("Compensation (yuan)"), "yuan", 10, total=True),
            Column(_("Receipt"), "text", 12),
        ],
        [(d.date, d.equipment, d.member, d.compensation, d.receipt) for d in life.damage],
        heading=_heading(report, title),
        total_label=_("Total"),
    )


def settlement_workbook(sheet: selectors.SettlementSheet, *, title: str) -> bytes:
    """The session's hands (one row each, the seats' points, who confirmed) and its
    statements (one row per transfer), with SUM totals of the points."""
    wb = workbook()
    seats = [label for _wind, label in sheet.seats]
    heading = [title, sheet.session.ruleset.name]
    rows = []
    for e in sheet.entries:
        breakdown = "；".join(
            f"{who}：" + " + ".join(f"{label} {points}" for label, points in lines)
            for who, lines in e.wins
        )
        state = ""
        if e.voided_by is not None:
            state = _("Voided by entry #%(n)s") % {"n": e.voided_by}
        rows.append(
            [
                e.number,
                e.booked_at,
                e.description,
                breakdown,
                *e.points,
                "、".join(e.signed_by),
                state,
            ]
        )
    table_sheet(
        wb,
        _("Hands"),
        [
            Column("#", "int", 4),
            Column(_("Booked at"), "datetime", 16),
            Column(_("Hand"), "text", 24),
            Column(_("Breakdown"), "label", 36),
            *(
                Column(_("%(wind)s (points)") % {"wind": label}, "int", 8, total=True)
                for label in seats
            ),
            Column(pgettext("signed-off hands", "Confirmed"), "text", 16),
            Column(_("Voided"), "label", 12),
        ],
        rows,
        heading=heading,
        total_label=_("Total"),
    )
    statement_rows = []
    for st in sheet.statements:
        for payer, payee, amount in st.transfers or [("", "", 0)]:
            statement_rows.append(
                [st.number, f"#{st.first_number}–#{st.last_number}", *st.net, payer, payee, amount]
            )
    table_sheet(
        wb,
        _("Statements"),
        [
            Column(_("Statement"), "int", 6),
            Column(_("Hands"), "label", 10),
            *(Column(_("%(wind)s (points)") % {"wind": label}, "int", 8) for label in seats),
            Column(_("Pays"), "text", 10),
            Column(_("To"), "text", 10),
            Column(_("Points scored"), "int", 8),
        ],
        statement_rows,
        heading=heading,
    )
    return workbook_bytes(wb)
