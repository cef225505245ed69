"""Demo data of the cash book: a month of books in every state.

Called by ``manage.py demo`` after the members app's demo (whose fees are already
booked), inside its transaction; silent; does nothing if the room has plans. Every
row is written by the services, at moments of the last month, in an order the
services accept: the days up to eight days ago are closed (a closed week and more);
a receipt of nine days ago is booked afterwards as a late entry (补记) and is still
at the desk, so the desk page flags it late. Slips confirmed, one sent back and
handed over again, one reversed after its confirmation, one waiting; plans in every
state; expenses confirmed, waiting, reversed, one reimbursed to a person; an income
entry reversed.
"""

from __future__ import annotations

import datetime as dt
from decimal import Decimal
from typing import Any

from django.utils import timezone

from clubapp.books import selectors, services
from clubapp.books.models import (
    ExpenseCategory,
    IncomeCategory,
    IncomeEntry,
    PaidBy,
    PlanLine,
    PlanOutcome,
    PurchasePlan,
)
from clubapp.core.models import Room
from clubapp.members import selectors as members_selectors
from clubapp.members import services as members_services

L = services.LineIn


def seed(*, room: Room, users: dict[str, Any]) -> None:
    if PurchasePlan.objects.filter(room=room).exists():
        return
    Demo(room=room, users=users).run()


class Demo:
    def __init__(self, *, room: Room, users: dict[str, Any]) -> None:
        self.room = room
        self.manager = users["manager"]
        self.accountant = users["accountant"]
        self.approver = users["approver"]
        self.today = timezone.localdate()

    def at(self, days_ago: int, hour: int, minute: int = 0) -> dt.datetime:
        day = self.today - dt.timedelta(days=days_ago)
        return timezone.make_aware(dt.datetime.combine(day, dt.time(hour, minute)))

    def day(self, days_ago: int) -> dt.date:
        return self.today - dt.timedelta(days=days_ago)

    # ------------------------------------------------------------- writers

    def income(
        self,
        days_ago: int,
        amount: str,
        category: IncomeCategory,
        payer: str,
        what: str,
        *,
        recorded: dt.datetime | None = None,
        late: bool = False,
    ) -> IncomeEntry:
        received = self.at(days_ago, 10)
        return services.income_other_record(
            room=self.room,
            category=category,
            amount=Decimal(amount),
            received_at=received,
            payer=payer,
            description=what,
            by=self.manager,
            late=late,
            now=recorded or received,
        )

    def guest(self, days_ago: int, name: str, minutes: int, *, hour: int = 14) -> None:
        """A non-member's visit through the members app (its fee is the fund's)."""
        moment = self.at(days_ago, hour)
        if not members_selectors.room_is_open(room=self.room, at=moment):
            return  # a closed day (Wednesdays): no visit
        visit = members_services.visit_check_in(
            room=self.room, guest_name=name, by=self.manager, now=moment
        )
        members_services.visit_check_out(
            visit=visit, by=self.manager, now=moment + dt.timedelta(minutes=minutes)
        )

    def guests(self, first: int, last: int) -> None:
        """Two or three non-members a day from ``first`` to ``last`` days ago."""
        names = ("散客老刘", "散客小陈", "散客老赵", "散客小周", "散客阿芳")
        for days_ago in range(first, last - 1, -1):
            for n in range(2 + days_ago % 2):
                minutes = 50 + ((days_ago * 7 + n * 45) % 200)
                self.guest(days_ago, names[(days_ago + n) % len(names)], minutes, hour=9 + 5 * n)

    def slip(self, moment: dt.datetime, *, leave: tuple[IncomeEntry, ...] = ()) -> Any:
        receipts = [
            e
            for e in selectors.receipts_to_hand_over(room=self.room)
            if e.received_at <= moment and e not in leave
        ]
        return services.slip_create(
            room=self.room,
            incomes=receipts,
            amount=sum((e.amount for e in receipts), Decimal("0.00")),
            by=self.manager,
            now=moment,
        )

    def plan(self, days_ago: int, title: str, purpose: str, *lines: services.LineIn) -> Any:
        return services.plan_create(
            room=self.room,
            title=title,
            purpose=purpose,
            lines=list(lines),
            by=self.manager,
            now=self.at(days_ago, 9),
        )

    def submit(self, plan: Any, days_ago: int) -> None:
        services.plan_submit(plan=plan, by=self.manager, now=self.at(days_ago, 9, 30))

    def decide(self, plan: Any, days_ago: int, outcome: PlanOutcome, comment: str) -> None:
        services.plan_decide(
            plan=plan,
            outcome=outcome,
            comment=comment,
            by=self.approver,
            now=self.at(days_ago, 11),
            fund_negative_ok=True,  # the demo's fund goes below zero, as a room's may
        )

    def spend(
        self,
        plan: Any,
        position: int,
        days_ago: int,
        amount: str,
        supplier: str,
        invoice: str,
        *,
        reimburse: str = "",
        confirm: bool = True,
    ) -> Any:
        line = PlanLine.objects.get(submission__plan=plan, position=position)
        expense = services.expense_record(
            room=self.room,
            line=line,
            amount=Decimal(amount),
            supplier=supplier,
            invoice_number=invoice,
            purchased_on=self.day(days_ago),
            paid_by=PaidBy.REIMBURSEMENT if reimburse else PaidBy.FINANCE,
            reimbursed_to=reimburse,
            by=self.manager,
            now=self.at(days_ago, 16),
            fund_negative_ok=True,
        )
        if confirm:
            services.expense_confirm(expense=expense, by=self.accountant, now=self.at(days_ago, 17))
        return expense

    # ---------------------------------------------------------------- month

    def run(self) -> None:
        a = self.accountant
        # Weeks 1-3: income, hand-overs, the first plans. Everything here is closed later.
        self.income(28, "240.00", IncomeCategory.TOURNAMENT, "市象棋协会", "象棋比赛报名费 24人")
        self.guests(29, 27)
        services.slip_confirm(slip=self.slip(self.at(27, 17)), by=a, now=self.at(26, 10))

        self.equipment_bought()
        self.guests(26, 20)
        self.donation_and_slip_returned()
        water = self.water_bought()
        repair = self.repair_rejected()
        self.guests(19, 11)
        self.tournament_slip_reversed()
        self.days_closed()
        self.week_four(water=water, repair=repair)

    def equipment_bought(self) -> None:
        """A plan approved, its three lines bought and confirmed, the plan done."""
        equipment = self.plan(
            29,
            "十一月器材更换",
            "麻将牌、扑克和象棋损耗严重，按计划更换。",
            L(
                ExpenseCategory.MAHJONG,
                "自动麻将机专用牌",
                Decimal("2"),
                "副",
                Decimal("180.00"),
                "旧牌缺损",
            ),
            L(ExpenseCategory.CARDS, "扑克牌", Decimal("20"), "副", Decimal("5.00"), "日常消耗"),
            L(
                ExpenseCategory.CHESS,
                "象棋（大号）",
                Decimal("4"),
                "副",
                Decimal("35.00"),
                "比赛用",
            ),
        )
        self.submit(equipment, 29)
        self.decide(equipment, 28, PlanOutcome.APPROVED, "同意，按计划采购。")
        self.spend(equipment, 1, 25, "350.00", "新街口文体商店", "No.04512345")
        self.spend(equipment, 2, 24, "96.00", "苏果超市", "No.32011877")
        self.spend(equipment, 3, 23, "140.00", "新街口文体商店", "No.04512399")
        services.plan_complete(
            plan=equipment, by=self.manager, note="三项均已购齐入库", now=self.at(22, 17)
        )

    def donation_and_slip_returned(self) -> None:
        """A donation, an entry booked twice and reversed, a slip sent back and given again."""
        donation = self.income(20, "500.00", IncomeCategory.DONATION, "玄武区老年协会", "捐赠")
        wrong = self.income(20, "50.00", IncomeCategory.OTHER, "玄武区老年协会", "捐赠（重复登记）")
        services.income_reverse(
            entry=wrong, reason="重复登记，已另开收据", by=self.accountant, now=self.at(20, 17)
        )
        first = self.slip(self.at(19, 17))
        services.slip_return(
            slip=first,
            reason="现金比缴款单少10元，请核对后重交",
            by=self.accountant,
            now=self.at(18, 9, 30),
        )
        services.slip_confirm(
            slip=self.slip(self.at(18, 10)), by=self.accountant, now=self.at(18, 15)
        )
        assert donation.pk

    def water_bought(self) -> PurchasePlan:
        """A plan approved; an expense booked wrong and reversed, one reimbursed to a person."""
        water = self.plan(
            21,
            "纯净水及茶杯",
            "活动室饮用水和一次性纸杯。",
            L(ExpenseCategory.CONSUMABLES, "桶装纯净水", Decimal("10"), "桶", Decimal("18.00"), ""),
            L(ExpenseCategory.CONSUMABLES, "一次性纸杯", Decimal("5"), "包", Decimal("12.00"), ""),
        )
        self.submit(water, 21)
        self.decide(water, 20, PlanOutcome.APPROVED, "同意。")
        mistake = self.spend(water, 1, 17, "95.00", "娃哈哈水站", "No.10086001", confirm=False)
        services.expense_reverse(
            expense=mistake, reason="金额录错，应为90元", by=self.accountant, now=self.at(17, 17)
        )
        self.spend(water, 1, 16, "90.00", "娃哈哈水站", "No.10086001", reimburse="王经理")
        return water

    def repair_rejected(self) -> PurchasePlan:
        """A plan sent back by the approver (copied and resubmitted in week 4)."""
        repair = self.plan(
            15,
            "空调维修",
            "活动室两台空调制冷不足。",
            L(
                ExpenseCategory.FACILITIES,
                "空调检修加氟",
                Decimal("2"),
                "台",
                Decimal("300.00"),
                "夏季前",
            ),
        )
        self.submit(repair, 15)
        self.decide(repair, 14, PlanOutcome.REJECTED, "请先询价三家，附报价单后重报。")
        return repair

    def tournament_slip_reversed(self) -> None:
        """A tournament's fees; a slip confirmed too early, reversed, handed over again."""
        self.income(12, "160.00", IncomeCategory.TOURNAMENT, "棋牌爱好者", "掼蛋比赛报名费 16人")
        mistaken = self.slip(self.at(11, 17))
        services.slip_confirm(slip=mistaken, by=self.accountant, now=self.at(10, 10))
        # confirmed before the finance office had counted it: reversed, handed over again
        services.slip_reverse(
            slip=mistaken,
            reason="财务未清点即确认，撤销后重交",
            by=self.accountant,
            now=self.at(10, 11),
        )
        services.slip_confirm(
            slip=self.slip(self.at(10, 15)), by=self.accountant, now=self.at(10, 16)
        )

    def days_closed(self) -> None:
        """The accountant closes every day with entries, in order, through 8 days ago."""
        for day in [*selectors.days_with_entries(room=self.room, before=self.day(8)), self.day(8)]:
            services.day_close(
                room=self.room,
                day=day,
                by=self.accountant,
                note="已核对",
                now=self.at(max((self.today - day).days - 1, 7), 18),
            )

    def week_four(self, *, water: PurchasePlan, repair: PurchasePlan) -> None:
        """A late entry for a closed day, a plan copied and resubmitted, one waiting."""
        self.income(
            9,
            "30.00",
            IncomeCategory.OTHER,
            "废品回收站",
            "旧桌布回收",
            recorded=self.at(6, 10),
            late=True,
        )
        copy = services.plan_copy(plan=repair, by=self.manager, now=self.at(7, 9))
        self.submit(copy, 6)
        services.plan_supplement(plan=water, by=self.manager, now=self.at(5, 9))
        self.spend(water, 2, 4, "58.00", "苏果超市", "No.32019002", confirm=False)
        self.guests(6, 2)
        self.income(3, "120.00", IncomeCategory.TOURNAMENT, "市象棋协会", "象棋友谊赛报名费 12人")
        late_one = IncomeEntry.objects.get(room=self.room, late_for__isnull=False)
        self.slip(self.at(2, 17), leave=(late_one,))  # waiting for the accountant

        prizes = self.plan(
            3,
            "象棋比赛奖品",
            "十二月象棋比赛奖品。",
            L(ExpenseCategory.OTHER, "奖杯", Decimal("3"), "个", Decimal("40.00"), ""),
        )
        self.submit(prizes, 2)
        self.decide(prizes, 1, PlanOutcome.APPROVED, "同意。")
        self.plan(
            0,
            "一月扑克补充",
            "",
            L(ExpenseCategory.CARDS, "扑克牌", Decimal("10"), "副", Decimal("5.00"), ""),
        )
