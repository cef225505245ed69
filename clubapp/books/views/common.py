"""What the cash book's pages share: flashing a refusal, a filtered table, 冲正's steps."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django import forms
from django.contrib import messages
from django.core.exceptions import ValidationError
from django.db.models import QuerySet
from django.forms import Form
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django_tables2 import RequestConfig, Table

from clubapp.books.forms import ReasonForm
from clubapp.core.http import RoomRequest

PER_PAGE = 30


def flash(request: HttpRequest, exc: ValidationError) -> None:
    for message in exc.messages:
        messages.error(request, message)


def form_errors(form: Form, exc: ValidationError) -> None:
    for message in exc.messages:
        form.add_error(None, message)


def ask_fund_negative(form: Form, exc: ValidationError) -> None:
    """The service warned that the equipment fund goes below zero: show the box."""
    if any(error.code == "fund_negative" for error in exc.error_list):
        form.fields["fund_negative_ok"].widget = forms.CheckboxInput()


def reversal_step(
    request: HttpRequest,
    *,
    book: Callable[[str], Any],
    booked: Callable[[Any], str],
    back: Any,
) -> HttpResponse | ReasonForm:
    """冲正 in two steps, like 散场: with ``confirm=yes`` and a reason, ``book(reason)``
    reverses, ``booked(reversal)`` is said, and the answer goes back to ``back``; else
    the reason's form for the confirm page, with the reason already typed."""
    form = ReasonForm(request.POST or None)
    if request.POST.get("confirm") == "yes" and form.is_valid():
        try:
            reversal = book(form.cleaned_data["reason"])
        except ValidationError as exc:
            flash(request, exc)
        else:
            messages.success(request, booked(reversal))
        return redirect(back)
    if request.POST.get("confirm") != "yes":
        form = ReasonForm(initial={"reason": request.POST.get("reason", "")})
    return form


def listing(
    request: RoomRequest,
    *,
    template: str,
    queryset: QuerySet[Any],
    filterset_class: Any,
    table_class: type[Table],
    **context: Any,
) -> HttpResponse:
    """A list page: the django-filter form (in the request's room), the filtered
    django-tables2 table, paged."""
    filterset = filterset_class(request.GET or None, queryset=queryset, room=request.room)
    table = table_class(filterset.qs)
    RequestConfig(request, paginate={"per_page": PER_PAGE}).configure(table)
    return render(request, template, {"filter": filterset, "table": table, **context})
