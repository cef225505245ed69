"""Form fields shared by the apps."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from django import forms
from django.core.exceptions import ValidationError

#: what a database integer key holds (a bigint)
_KEY_RANGE = range(-(2**63), 2**63)


class ModelMultipleChoiceField(forms.ModelMultipleChoiceField):  # type: ignore[type-arg]
    """Django's, refusing a key no database integer holds (``10**30``) as an invalid
    choice, as it refuses any other unknown key: SQLite raises OverflowError on such a
    key in ``pk__in``, which would be a server error."""

    def _check_values(self, value: Iterable[Any]) -> Any:
        for key in value:
            try:
                number = int(str(key))
            except ValueError:
                continue  # not a number: Django's own check refuses it
            if number not in _KEY_RANGE:
                raise ValidationError(
                    self.error_messages["invalid_choice"],
                    code="invalid_choice",
                    params={"value": key},
                )
        return super()._check_values(value)  # type: ignore[misc]
