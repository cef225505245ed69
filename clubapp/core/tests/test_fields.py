"""Shared form fields: a key no database integer holds is an invalid choice, not a
server error (found by test_form_fuzz.py on the slip, roster and record forms)."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User
from django.core.exceptions import ValidationError

from clubapp.core.fields import ModelMultipleChoiceField

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize("key", [str(10**30), str(-(10**30)), str(2**63)])
def test_a_key_beyond_a_database_integer_is_an_invalid_choice(manager, key: str) -> None:
    field = ModelMultipleChoiceField(queryset=User.objects.all())
    with pytest.raises(ValidationError) as err:
        field.clean([str(manager.pk), key])
    assert err.value.code == "invalid_choice"


def test_known_keys_unicode_digits_and_text_read_as_django_reads_them(manager) -> None:
    field = ModelMultipleChoiceField(queryset=User.objects.all())
    assert list(field.clean([str(manager.pk)])) == [manager]
    for bad in ("x", "١٢٣"):
        with pytest.raises(ValidationError) as err:
            field.clean([bad])
        assert err.value.code in ("invalid_pk_value", "invalid_choice")


def test_the_forms_that_met_a_server_error_use_it() -> None:
    from clubapp.activities.forms.records import RecordForm
    from clubapp.activities.forms_duty import StaffMultiple
    from clubapp.books.forms import ReceiptChoice

    assert issubclass(ReceiptChoice, ModelMultipleChoiceField)
    assert issubclass(StaffMultiple, ModelMultipleChoiceField)
    assert isinstance(RecordForm.base_fields["attendees"], ModelMultipleChoiceField)
