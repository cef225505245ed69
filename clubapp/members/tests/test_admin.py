from __future__ import annotations

from io import StringIO

import pytest
from django.core.management import call_command

from clubapp.members.models import Member

pytestmark = pytest.mark.django_db

PAGES = [
    "member",
    "card",
    "visit",
    "receipt",
    "table",
    "openingperiod",
    "openingexception",
    "idnumberreveal",
]


@pytest.mark.parametrize("model", PAGES)
def test_every_model_has_an_admin_page_in_chinese(client, django_user_model, model):
    call_command("demo", stdout=StringIO())
    boss = django_user_model.objects.create_superuser("boss", password="x")
    client.force_login(boss)
    response = client.get(f"/admin/members/{model}/")
    assert response.status_code == 200


def test_the_admin_never_shows_a_full_id_number(client, django_user_model):
    call_command("demo", stdout=StringIO())
    boss = django_user_model.objects.create_superuser("boss", password="x")
    client.force_login(boss)
    member = Member.objects.first()
    pages = (
        "/admin/members/member/",
        f"/admin/members/member/{member.pk}/change/",
        "/admin/members/idnumberreveal/",
    )
    for url in pages:
        body = client.get(url).content.decode()
        assert member.id_number not in body
        if "/member/" in url:
            assert member.id_number_masked in body
