"""URLs of the cash book (mounted at /books/)."""

from __future__ import annotations

from django.urls import URLPattern, URLResolver, path

from clubapp.books.views import days, expenses, handover, home, income, plans

app_name = "books"

urlpatterns: list[URLPattern | URLResolver] = [
    path("", home.home, name="home"),
    path("income/", income.income_list, name="income_list"),
    path("income/new/", income.income_create, name="income_create"),
    path("income/<int:pk>/", income.income_detail, name="income_detail"),
    path("income/<int:pk>/reverse/", income.income_reverse, name="income_reverse"),
    path("slips/", handover.slip_list, name="slip_list"),
    path("slips/new/", handover.slip_create, name="slip_create"),
    path("slips/<int:pk>/", handover.slip_detail, name="slip_detail"),
    path("slips/<int:pk>/confirm/", handover.slip_confirm, name="slip_confirm"),
    path("slips/<int:pk>/return/", handover.slip_return, name="slip_return"),
    path("slips/<int:pk>/reverse/", handover.slip_reverse, name="slip_reverse"),
    path("plans/", plans.plan_list, name="plan_list"),
    path("plans/new/", plans.plan_create, name="plan_create"),
    path("plans/<int:pk>/", plans.plan_detail, name="plan_detail"),
    path("plans/<int:pk>/edit/", plans.plan_edit, name="plan_edit"),
    path("plans/<int:pk>/submit/", plans.plan_submit, name="plan_submit"),
    path("plans/<int:pk>/decide/", plans.plan_decide, name="plan_decide"),
    path("plans/<int:pk>/copy/", plans.plan_copy, name="plan_copy"),
    path("plans/<int:pk>/supplement/", plans.plan_supplement, name="plan_supplement"),
    path("plans/<int:pk>/done/", plans.plan_complete, name="plan_complete"),
    path("expenses/", expenses.expense_list, name="expense_list"),
    path("expenses/new/", expenses.expense_create, name="expense_create"),
    path("expenses/<int:pk>/", expenses.expense_detail, name="expense_detail"),
    path("expenses/<int:pk>/confirm/", expenses.expense_confirm, name="expense_confirm"),
    path("expenses/<int:pk>/reverse/", expenses.expense_reverse, name="expense_reverse"),
    path("days/", days.day_list, name="day_list"),
    path("days/<str:day>/", days.day_detail, name="day_detail"),
    path("days/<str:day>/close/", days.day_close, name="day_close"),
    path("months/", days.month_current, name="month_current"),
    path("months/<int:year>/<int:month>/", days.month_detail, name="month_detail"),
]
