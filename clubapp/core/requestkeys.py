"""One form sent twice books once: the rows written under a form's ``request_key``.

Every form that books something carries a fresh key (a hidden UUID). Its row stores
the key in a unique column, so the database refuses a second row with it; the
service answers a second request (a double tap, a retry, eight desks' worth of
impatience) with the row the first one booked, never with an error page.
"""

from __future__ import annotations

import functools
import uuid
from collections.abc import Callable
from typing import Any, ParamSpec, TypeVar, cast, overload

from django.core.exceptions import ValidationError
from django.db import IntegrityError, models, transaction

M = TypeVar("M", bound=models.Model)
R = TypeVar("R")
P = ParamSpec("P")


def booked_under(model: type[M], *, request_key: uuid.UUID | None) -> M | None:
    """The row already booked under this key, if any."""
    if request_key is None:
        return None
    return model._default_manager.filter(request_key=request_key).first()


def book_once(
    model: type[M],
    *,
    request_key: uuid.UUID | None,
    book: Callable[[], R],
    answer: Callable[[M], R] | None = None,
) -> R:
    """Run ``book`` (the service's checks and writes) once per ``request_key``.

    A key already booked answers with ``answer(row)`` at once. Otherwise ``book``
    runs in a savepoint; two requests racing with one key both pass that first
    look, and the second then either hits the unique key (IntegrityError) or is
    refused by what the first one changed (a card already issued, a visit already
    out: ValidationError). Either way, when a row under the key now exists the
    savepoint is rolled back — its numbers too, so no receipt number is skipped —
    and the second request gets the first one's row. Any other failure stands.
    The caller is atomic, so on PostgreSQL (READ COMMITTED) the re-read sees the
    row the first transaction committed while this one waited for it.
    """

    def given(row: M) -> R:
        return answer(row) if answer is not None else cast(R, row)

    existing = booked_under(model, request_key=request_key)
    if existing is not None:
        return given(existing)
    if request_key is None:
        return book()
    try:
        with transaction.atomic():
            return book()
    except (IntegrityError, ValidationError):
        existing = booked_under(model, request_key=request_key)
        if existing is None:
            raise
        return given(existing)


@overload
def booked_once(model: type[M]) -> Callable[[Callable[P, M]], Callable[P, M]]: ...
@overload
def booked_once(
    model: type[M], *, answer: Callable[[M], R]
) -> Callable[[Callable[P, R]], Callable[P, R]]: ...
def booked_once(
    model: type[M], *, answer: Callable[[M], Any] | None = None
) -> Callable[[Callable[P, Any]], Callable[P, Any]]:
    """The service below books once per its ``request_key`` keyword: ``book_once``
    around the whole service, the row already booked under the key answered with
    ``answer(row)`` (the row itself without it)."""

    def decorate(service: Callable[P, Any]) -> Callable[P, Any]:
        @functools.wraps(service)
        def once(*args: P.args, **kwargs: P.kwargs) -> Any:
            return book_once(
                model,
                request_key=cast("uuid.UUID | None", kwargs.get("request_key")),
                book=lambda: service(*args, **kwargs),
                answer=answer,
            )

        return once

    return decorate
