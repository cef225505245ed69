"""显示身份证号: the one page with the full number, for managers, by POST, recorded."""

from __future__ import annotations

import logging

import pytest
from django.core.exceptions import PermissionDenied
from django.db import IntegrityError, connection, transaction
from django.urls import reverse
from django.utils import timezone

from clubapp.core.appendonly import AppendOnlyError
from clubapp.members.models import IdNumberReveal
from clubapp.members.services import id_number_reveal
from clubapp.members.tests.factories import MemberFactory

pytestmark = pytest.mark.django_db


@pytest.fixture
def person(room):
    return MemberFactory(room=room, name="钱大伯")


def url(person) -> str:
    return reverse("members:member_id_number_show", args=[person.pk])


def test_it_shows_the_full_number_to_a_manager_and_records_it(client, manager, person):
    client.force_login(manager)
    response = client.post(url(person))
    assert response.status_code == 200
    body = response.content.decode()
    assert person.id_number in body
    reveal = IdNumberReveal.objects.get()
    assert (reveal.member, reveal.by, reveal.room_id) == (person, manager, person.room_id)
    # Listed on the page it answers with, and the page after it masks the number again.
    assert timezone.localtime(reveal.at).strftime("%Y-%m-%d %H:%M") in body
    again = client.get(person.get_absolute_url()).content.decode()
    assert person.id_number not in again and person.id_number_masked in again


def test_each_showing_is_recorded(client, manager, person):
    client.force_login(manager)
    client.post(url(person))
    client.post(url(person))
    assert IdNumberReveal.objects.filter(member=person, by=manager).count() == 2


def test_a_get_shows_nothing_and_records_nothing(client, manager, person):
    client.force_login(manager)
    response = client.get(url(person))
    assert response.status_code == 405
    assert person.id_number not in response.content.decode()
    assert not IdNumberReveal.objects.exists()


@pytest.mark.parametrize("who", ["accountant", "approver", "member", "outsider"])
def test_other_roles_are_refused_and_nothing_is_recorded(client, request, who, person):
    client.force_login(request.getfixturevalue(who))
    response = client.post(url(person))
    assert response.status_code == 403
    assert person.id_number not in response.content.decode()
    assert not IdNumberReveal.objects.exists()


def test_the_service_refuses_other_roles_too(accountant, person):
    with pytest.raises(PermissionDenied):
        id_number_reveal(member=person, by=accountant)
    assert not IdNumberReveal.objects.exists()


def test_the_show_button_is_a_csrf_protected_post(manager, person):
    from django.test import Client

    client = Client(enforce_csrf_checks=True)
    client.force_login(manager)
    page = client.get(person.get_absolute_url()).content.decode()
    assert f'action="{url(person)}"' in page and "csrfmiddlewaretoken" in page
    assert client.post(url(person)).status_code == 403
    assert not IdNumberReveal.objects.exists()


def test_the_log_names_the_row_never_the_number(client, manager, person, caplog):
    client.force_login(manager)
    with caplog.at_level(logging.DEBUG):
        client.post(url(person))
    assert person.id_number not in caplog.text
    assert f"member {person.pk}" in caplog.text


def test_a_record_is_never_changed_or_deleted(manager, person):
    id_number_reveal(member=person, by=manager)
    reveal = IdNumberReveal.objects.get()
    with pytest.raises(AppendOnlyError):
        reveal.save()
    with pytest.raises(AppendOnlyError):
        reveal.delete()
    with pytest.raises(AppendOnlyError):
        IdNumberReveal.objects.all().delete()
    table = connection.ops.quote_name(IdNumberReveal._meta.db_table)
    with pytest.raises(IntegrityError, match="append-only"), transaction.atomic():
        with connection.cursor() as cursor:
            cursor.execute(f"DELETE FROM {table}")
    assert IdNumberReveal.objects.count() == 1
