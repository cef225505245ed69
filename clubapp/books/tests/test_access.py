"""Who sees and does what (docs/books.md, Roles): every page and every action, by role.

Members and accounts without a role see nothing of the books; the anonymous are sent
to log in. Managers record, approvers approve, the accountant checks and closes.
"""

from __future__ import annotations

import pytest
from django.urls import reverse

from clubapp.books.models import (
    DayClosing,
    ExpenseConfirmation,
    PlanDecision,
    PlanSubmission,
    PurchasePlan,
    Reversal,
    SlipDecision,
)

pytestmark = pytest.mark.django_db

READ = [
    ("books:home", None),
    ("books:income_list", None),
    ("books:income_detail", "donation"),
    ("books:slip_list", None),
    ("books:slip_detail", "slip"),
    ("books:plan_list", None),
    ("books:plan_detail", "plan"),
    ("books:expense_list", None),
    ("books:expense_detail", "expense"),
    ("books:day_list", None),
]
RECORD = [
    ("books:income_create", None),
    ("books:slip_create", None),
    ("books:plan_create", None),
    ("books:plan_edit", "draft"),
    ("books:expense_create", None),
]


def _url(name, key, books):
    return reverse(name, args=[books[key].pk]) if key else reverse(name)


def _get(client, name, key, books):
    return client.get(_url(name, key, books)).status_code


@pytest.mark.parametrize("who", ["manager", "accountant", "approver"])
def test_the_three_roles_read_the_books(client, request, books, who):
    client.force_login(request.getfixturevalue(who))
    for name, key in READ:
        assert _get(client, name, key, books) == 200, name
    assert client.get(reverse("books:day_detail", args=["2026-11-03"])).status_code == 200
    assert client.get(reverse("books:month_detail", args=[2026, 11])).status_code == 200


@pytest.mark.parametrize("who", ["member", "outsider"])
def test_members_and_others_see_nothing(client, request, books, who):
    client.force_login(request.getfixturevalue(who))
    for name, key in READ + RECORD:
        assert _get(client, name, key, books) == 403, name
    assert client.get(reverse("books:month_detail", args=[2026, 11])).status_code == 403


def test_the_anonymous_are_sent_to_log_in(client, books):
    response = client.get(reverse("books:home"))
    assert response.status_code == 302 and "/accounts/login/" in response["Location"]


def test_the_manager_opens_the_forms(client, manager, books):
    client.force_login(manager)
    for name, key in RECORD:
        assert _get(client, name, key, books) == 200, name


@pytest.mark.parametrize("who", ["accountant", "approver"])
def test_only_managers_open_the_forms(client, request, books, who):
    client.force_login(request.getfixturevalue(who))
    for name, key in RECORD:
        assert _get(client, name, key, books) == 403, name


def _counts():
    return [
        m.objects.count()
        for m in (
            PurchasePlan,
            PlanSubmission,
            PlanDecision,
            SlipDecision,
            ExpenseConfirmation,
            DayClosing,
            Reversal,
        )
    ]


@pytest.mark.parametrize(
    ("name", "key", "data", "allowed"),
    [
        ("books:slip_confirm", "slip", {}, "accountant"),
        ("books:slip_return", "slip", {"reason": "少"}, "accountant"),
        ("books:slip_reverse", "slip", {"reason": "误"}, "accountant"),
        ("books:income_reverse", "donation", {"reason": "误"}, "accountant"),
        ("books:expense_confirm", "expense", {}, "accountant"),
        ("books:plan_submit", "draft", {}, "manager"),
        ("books:plan_decide", "waiting", {"outcome": "approved"}, "approver"),
        ("books:plan_copy", "rejected", {}, "manager"),
        ("books:plan_supplement", "plan", {}, "manager"),
        ("books:plan_complete", "plan", {}, "manager"),
    ],
)
@pytest.mark.parametrize("who", ["manager", "accountant", "approver", "member", "outsider"])
def test_each_action_is_refused_to_the_wrong_role(
    client, request, books, name, key, data, allowed, who
):
    if who == allowed:
        return
    client.force_login(request.getfixturevalue(who))
    before = _counts()
    assert client.post(reverse(name, args=[books[key].pk]), data).status_code == 403
    assert _counts() == before


@pytest.mark.parametrize("who", ["manager", "approver", "member"])
def test_only_the_accountant_closes_a_day(client, request, books, who):
    client.force_login(request.getfixturevalue(who))
    response = client.post(reverse("books:day_close", args=["2026-11-02"]))
    assert response.status_code == 403
    assert DayClosing.objects.count() == 0


@pytest.mark.parametrize("who", ["approver", "member", "outsider"])
def test_only_managers_and_the_accountant_reverse_an_expense(client, request, books, who):
    client.force_login(request.getfixturevalue(who))
    url = reverse("books:expense_reverse", args=[books["expense"].pk])
    assert client.post(url, {"reason": "误"}).status_code == 403
    assert Reversal.objects.count() == 0
