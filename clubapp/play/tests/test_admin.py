"""Issue 11 item 2: the admin shows the table play rows read-only, even to a superuser
(sessions and seats included: a booked session's seats are frozen, and managers open,
end and reopen tables on the app's own pages)."""

from __future__ import annotations

import pytest

from clubapp.play.models import Seat
from clubapp.play.tests.factories import TableSessionFactory, book, discard_win

pytestmark = pytest.mark.django_db

MODELS = ["tablesession", "seat", "hand", "ledgerline", "settlement", "handsignoff"]


@pytest.mark.parametrize("model", MODELS)
def test_a_superuser_reads_table_play_in_the_admin_and_changes_nothing(
    client, django_user_model, model
):
    session = TableSessionFactory()
    book(session, discard_win("S", "E"))
    boss = django_user_model.objects.create_superuser("boss", password="x")
    client.force_login(boss)
    assert client.get(f"/admin/play/{model}/").status_code == 200
    assert client.get(f"/admin/play/{model}/add/").status_code == 403


def test_a_booked_seat_cannot_be_renamed_or_deleted_in_the_admin(client, django_user_model):
    session = TableSessionFactory()
    book(session, discard_win("S", "E"))
    seat = session.seats.get(wind="W")
    boss = django_user_model.objects.create_superuser("boss", password="x")
    client.force_login(boss)
    page = client.get(f"/admin/play/seat/{seat.pk}/change/")
    assert page.status_code == 200 and 'name="name"' not in page.content.decode()
    client.post(f"/admin/play/seat/{seat.pk}/change/", {"name": "换人", "wind": "W"})
    assert client.post(f"/admin/play/seat/{seat.pk}/delete/", {"post": "yes"}).status_code == 403
    assert Seat.objects.get(pk=seat.pk).name == seat.name
    session_page = client.get(f"/admin/play/tablesession/{session.pk}/change/").content.decode()
    assert 'name="seats-0-name"' not in session_page
