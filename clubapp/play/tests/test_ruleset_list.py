"""The rulesets page: every stored version; managers may edit a copy."""

from __future__ import annotations

import pytest
from django.urls import reverse

from clubapp.play.tests.factories import shipped

pytestmark = pytest.mark.django_db


def test_readers_see_every_version_and_managers_an_edit_link(client, accountant, manager):
    version = shipped()
    client.force_login(accountant)
    body = client.get(reverse("play:rulesets")).content.decode()
    assert version.name in body and reverse("play:ruleset_edit", args=[version.pk]) not in body
    client.force_login(manager)
    body = client.get(reverse("play:rulesets")).content.decode()
    assert reverse("play:ruleset_edit", args=[version.pk]) in body
