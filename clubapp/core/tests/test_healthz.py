from __future__ import annotations

from unittest import mock

import pytest
from django.db import OperationalError

pytestmark = pytest.mark.django_db


def test_it_answers_ok_without_login(client):
    response = client.get("/healthz")
    assert response.status_code == 200
    assert response.content == b"ok"
    assert response["Content-Type"].startswith("text/plain")


def test_it_answers_503_when_the_database_fails(client):
    with mock.patch("clubapp.core.views.connection") as connection:
        connection.cursor.return_value.__enter__.return_value.execute.side_effect = (
            OperationalError("connection refused")
        )
        response = client.get("/healthz")
    assert response.status_code == 503
    assert b"ok" not in response.content


def test_it_is_not_cached(client):
    assert "no-cache" in client.get("/healthz")["Cache-Control"]


def test_it_refuses_post(client):
    assert client.post("/healthz").status_code == 405
