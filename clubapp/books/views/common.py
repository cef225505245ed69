"""What the cash book's pages share: flashing a refusal, a filtered table."""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib import messages
from django.core.exceptions import ValidationError
from django.db.models import QuerySet
from django.forms import Form
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django_tables2 import RequestConfig, Table

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


def listing(
    request: HttpRequest,
    *,
    template: str,
    queryset: QuerySet[Any],
    filterset_class: Any,
    table_class: type[Table],
    **context: Any,
) -> HttpResponse:
    """A list page: the django-filter form, the filtered django-tables2 table, paged."""
    filterset = filterset_class(request.GET or None, queryset=queryset)
    table = table_class(filterset.qs)
    RequestConfig(request, paginate={"per_page": PER_PAGE}).configure(table)
    return render(request, template, {"filter": filterset, "table": table, **context})
