"""/healthz: 200 when the database answers and, where configured, Redis; 503 naming what is down."""

from __future__ import annotations

import pytest
from django.db import OperationalError
from django.test import Client

from tests.helpers import free_port
from web.tournament import views


@pytest.mark.django_db
def test_healthy_with_what_is_configured():
    answer = Client().get("/healthz")
    assert (answer.status_code, answer.content) == (200, b"ok")
    assert "no-cache" in answer["Cache-Control"]


@pytest.mark.django_db
def test_redis_down_is_a_503(settings):
    settings.REDIS_URL = f"redis://127.0.0.1:{free_port()}/0"  # nothing listens there
    answer = Client().get("/healthz")
    assert (answer.status_code, answer.content) == (503, b"down: redis")


@pytest.mark.django_db
def test_the_database_down_is_a_503(monkeypatch):
    def refuse():
        raise OperationalError("connection refused")

    monkeypatch.setattr(views, "database_answers", lambda: False)
    answer = Client().get("/healthz")
    assert (answer.status_code, answer.content) == (503, b"down: database")
    monkeypatch.undo()
    monkeypatch.setattr(views.connection, "cursor", refuse)
    assert views.database_answers() is False
