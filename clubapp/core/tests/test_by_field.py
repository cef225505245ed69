"""by_field: the "who did it" foreign key written once (created_by, recorded_by, …)."""

from __future__ import annotations

from django.apps import apps
from django.conf import settings
from django.contrib.auth import get_user_model
from django.db import models
from django.utils.translation import gettext_lazy as _

from clubapp.core.models import by_field


def _written_out(*, null: bool) -> models.ForeignKey:
    return models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        null=null,
        blank=null,
        related_name="+",
        verbose_name=_("recorded by"),
    )


def test_it_is_the_foreign_key_the_models_wrote_out():
    # The same deconstruction: the migrations see no change.
    for null in (False, True):
        field = by_field(_("recorded by"), null=null)
        field.set_attributes_from_name("recorded_by")
        expected = _written_out(null=null)
        expected.set_attributes_from_name("recorded_by")
        assert field.deconstruct() == expected.deconstruct()


def test_it_is_required_unless_told_otherwise():
    required, optional = by_field(_("decided by")), by_field(_("admitted by"), null=True)
    assert (required.null, required.blank) == (False, False)
    assert (optional.null, optional.blank) == (True, True)
    assert required.remote_field.on_delete is models.PROTECT
    assert required.remote_field.related_name == "+"
    assert str(required.verbose_name) == str(_("decided by"))


def test_every_who_did_it_field_keeps_its_user_and_adds_no_accessor():
    user_model = get_user_model()
    fields = [
        field
        for model in apps.get_models()
        if model._meta.app_label in ("core", "members", "books", "play", "activities")
        for field in model._meta.get_fields()
        if isinstance(field, models.ForeignKey)
        and field.related_model is user_model
        and (field.name == "by" or field.name.endswith("_by"))
    ]
    assert len(fields) >= 20
    for field in fields:
        assert field.remote_field.on_delete is models.PROTECT, field
        assert field.remote_field.related_name == "+", field
        assert field.null == field.blank, field
