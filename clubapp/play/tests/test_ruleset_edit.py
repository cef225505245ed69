"""Rulesets as stored versions: shipped by migration, edited as a copy into a new version."""

from __future__ import annotations

import pytest
from django.urls import reverse

from clubapp.play import services
from clubapp.play.models import RulesetVersion
from clubapp.play.tests.factories import shipped

pytestmark = pytest.mark.django_db

SEATS = [services.SeatIn(wind=w, name=n) for w, n in zip("ESWN", "甲乙丙丁", strict=True)]


def test_it_stores_every_shipped_ruleset_by_migration():
    import scoring.rulesets

    for ident in scoring.rulesets.available():
        row = shipped(ident)
        assert row.version == scoring.rulesets.get(ident).version
        assert row.as_ruleset().id == ident


def test_editing_a_ruleset_makes_a_new_version_and_keeps_the_old():
    old = shipped()
    params = {**old.params, "penalty": {"amount": 10}}
    new = services.ruleset_version_save(params=params)
    assert new.pk != old.pk and new.version != old.version
    assert RulesetVersion.objects.get(pk=old.pk).params["penalty"] == {"amount": 6}
    assert services.ruleset_version_save(params=params).pk == new.pk


def test_it_syncs_shipped_rulesets_without_duplicates():
    before = RulesetVersion.objects.count()
    services.ruleset_versions_sync()
    assert RulesetVersion.objects.count() == before


def test_a_manager_saves_an_edited_ruleset_as_a_new_version(client, manager):
    old = shipped()
    params = {**old.params, "id": "nanjing-room", "name": "南京麻将·本室"}
    client.force_login(manager)
    import json

    response = client.post(
        reverse("play:ruleset_edit", args=[old.pk]), {"params": json.dumps(params)}
    )
    assert response.status_code == 302
    assert RulesetVersion.objects.filter(ruleset_id="nanjing-room").exists()


def test_a_bad_ruleset_is_refused_in_chinese(client, manager):
    old = shipped()
    params = {**old.params, "penalty": {"amount": -1}}
    client.force_login(manager)
    import json

    response = client.post(
        reverse("play:ruleset_edit", args=[old.pk]), {"params": json.dumps(params)}
    )
    assert response.status_code == 200
    assert "规则" in response.content.decode()


def test_members_cannot_edit_rulesets(client, member):
    client.force_login(member)
    assert client.get(reverse("play:ruleset_edit", args=[shipped().pk])).status_code == 403
