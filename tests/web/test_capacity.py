"""Past capacity, or with the database down, a request gets 503 with Retry-After, never a 500; robots.txt
(the trivial view). The real outage, a PostgreSQL cluster stopped under a production server, is
tests/resilience/test_database_lost.py."""

from __future__ import annotations

import psycopg
import pytest
from django.contrib.sessions.backends.db import SessionStore
from django.db import InterfaceError, OperationalError
from psycopg_pool import PoolTimeout

from web.tables import views as table_views

UNAVAILABLE = "The database is unavailable: try again in a moment."


@pytest.fixture
def unhandled(client, settings):
    settings.DEBUG = False
    client.raise_request_exception = False  # as the server answers: through handler500
    return client


def test_a_database_that_cannot_give_a_connection_answers_503_with_retry_after(unhandled, tournament, monkeypatch):
    def full(*args, **kwargs):
        raise OperationalError("couldn't get a connection after 10.00 sec")

    monkeypatch.setattr(table_views, "room_seats", full)
    response = unhandled.get(f"/s/{tournament.pk}/1/")
    assert response.status_code == 503
    assert int(response["Retry-After"]) > 0
    assert response["Content-Type"].startswith("text/plain") and response.content.decode() == UNAVAILABLE


def test_the_api_answers_database_unavailable_in_its_error_shape(unhandled, tournament, monkeypatch):
    def full(*args, **kwargs):
        raise OperationalError("sorry, too many clients already")

    monkeypatch.setattr("web.caching.state_version", full)
    response = unhandled.get(f"/api/public/tournaments/{tournament.pk}/seats/1/")
    assert response.status_code == 503
    assert response["Retry-After"]
    assert response.json() == {"error": "database_unavailable", "detail": UNAVAILABLE, "problems": [UNAVAILABLE]}


@pytest.mark.parametrize(
    "error",
    [
        PoolTimeout("couldn't get a connection after 10.00 sec"),  # the pool's own, as psycopg_pool raises it
        psycopg.OperationalError("connection failed: Connection refused"),  # the server down
        psycopg.errors.AdminShutdown("terminating connection due to administrator command"),  # stopped mid-request
        psycopg.InterfaceError("the connection is closed"),
        InterfaceError("connection already closed"),
        RuntimeError("raised while handling a lost connection"),  # its __context__: the lost connection
    ],
)
def test_a_database_that_is_down_answers_503_to_the_api_and_the_screens(unhandled, director, tournament, monkeypatch, error):
    """The driver's and the pool's errors too, where Django did not wrap them (a press's first query: its
    Idempotency-Key claim; a screen's: its session): 503 with the same words, never a 500."""
    unhandled.force_login(director)
    token = unhandled.post(
        "/api/auth/token/", {"username": "dir", "password": "correct-horse-battery-staple"}, content_type="application/json"
    ).json()["token"]

    def down(*args, **kwargs):
        if isinstance(error, RuntimeError):
            try:
                raise psycopg.OperationalError("server closed the connection unexpectedly")
            except psycopg.OperationalError:
                raise error from None  # no __cause__, only the __context__
        raise error

    monkeypatch.setattr("web.idempotency.claim", down)
    monkeypatch.setattr(SessionStore, "load", down)
    api = unhandled.post(
        f"/api/tournaments/{tournament.pk}/clock/",
        {"action": "start"},
        content_type="application/json",
        HTTP_AUTHORIZATION=f"Token {token}",
        HTTP_IDEMPOTENCY_KEY="a-press",
    )
    assert (api.status_code, api.json()["error"], api.json()["detail"]) == (503, "database_unavailable", UNAVAILABLE)
    page = unhandled.get(f"/t/{tournament.pk}/")
    assert (page.status_code, page.content.decode()) == (503, UNAVAILABLE)
    assert int(api["Retry-After"]) > 0 and int(page["Retry-After"]) > 0


def test_any_other_error_stays_a_500(unhandled, tournament, monkeypatch):
    def broken(*args, **kwargs):
        raise RuntimeError("a bug")

    monkeypatch.setattr(table_views, "room_seats", broken)
    response = unhandled.get(f"/s/{tournament.pk}/1/")
    assert response.status_code == 500
    assert "Retry-After" not in response


def test_robots_keep_search_engines_out(client, db):
    response = client.get("/robots.txt")
    assert response.status_code == 200
    assert response.content == b"User-agent: *\nDisallow: /\n"


@pytest.mark.asyncio
async def test_past_the_pending_limit_a_request_gets_503_with_retry_after_at_once():
    import asyncio

    from web.server import Admission

    release = asyncio.Event()
    answered: list[dict] = []

    async def slow_app(scope, receive, send):
        await release.wait()
        await send({"type": "http.response.start", "status": 200, "headers": []})
        await send({"type": "http.response.body", "body": b"ok"})

    app = Admission(slow_app, limit=2)

    async def request(path: str) -> list[dict]:
        sent: list[dict] = []

        async def send(message):
            sent.append(message)

        await app({"type": "http", "path": path}, None, send)
        return sent

    first = [asyncio.create_task(request("/s/1/1/")) for _ in range(2)]
    await asyncio.sleep(0)
    refused = await request("/api/public/tournaments/1/seats/1/")
    assert refused[0]["status"] == 503
    assert (b"retry-after", b"2") in refused[0]["headers"]
    assert b'"error": "busy"' in refused[1]["body"]
    # The phones filled the public side: the staff's requests count apart and still get in.
    staff = [asyncio.create_task(request("/api/tournaments/1/entries/7/bust/")) for _ in range(2)]
    await asyncio.sleep(0)
    assert app.pending == 4
    assert (await request("/t/1/map/"))[0]["status"] == 503  # the staff's own limit is the same
    release.set()
    answered = await asyncio.gather(*first, *staff)
    assert [sent[0]["status"] for sent in answered] == [200, 200, 200, 200]
    assert app.pending == 0
    assert (await request("/robots.txt"))[0]["status"] == 200  # room again


@pytest.mark.asyncio
async def test_public_reads_take_turns_and_the_floor_never_waits_for_them():
    import asyncio

    from web.server import Admission

    release = asyncio.Event()
    running: list[str] = []

    async def app(scope, receive, send):
        running.append(scope["path"])
        if scope["path"].startswith("/s/"):
            await release.wait()
        await send({"type": "http.response.start", "status": 200, "headers": []})
        await send({"type": "http.response.body", "body": b"ok"})

    gate = Admission(app, limit=100, public_limit=2)

    async def request(path: str) -> int:
        sent: list[dict] = []

        async def send(message):
            sent.append(message)

        await gate({"type": "http", "path": path}, None, send)
        return sent[0]["status"]

    phones = [asyncio.create_task(request(f"/s/1/{n}/")) for n in range(5)]
    await asyncio.sleep(0.01)
    assert len(running) == 2  # two at a time; three wait at the gate, holding no thread
    assert await asyncio.wait_for(request("/api/tournaments/1/entries/7/bust/"), 1) == 200  # staff pass by
    release.set()
    assert await asyncio.gather(*phones) == [200] * 5
    assert len(running) == 6 and gate.pending == 0


@pytest.mark.asyncio
async def test_no_public_read_starts_while_a_staff_request_runs_and_none_waits_long(monkeypatch):
    import asyncio

    from web import server

    floor_done, running = asyncio.Event(), []

    async def app(scope, receive, send):
        running.append(scope["path"])
        if scope["path"].startswith("/api/tournaments/"):
            await floor_done.wait()
        await send({"type": "http.response.start", "status": 200, "headers": []})
        await send({"type": "http.response.body", "body": b"ok"})

    gate = server.Admission(app, limit=100, public_limit=4)

    async def request(path: str) -> int:
        sent: list[dict] = []

        async def send(message):
            sent.append(message)

        await gate({"type": "http", "path": path}, None, send)
        return sent[0]["status"]

    bust = asyncio.create_task(request("/api/tournaments/1/entries/7/bust/"))
    await asyncio.sleep(0.01)
    phones = [asyncio.create_task(request(f"/s/1/{n}/")) for n in range(3)]
    await asyncio.sleep(0.05)
    assert running == ["/api/tournaments/1/entries/7/bust/"]  # the phones wait for the floor
    floor_done.set()
    assert await bust == 200 and await asyncio.gather(*phones) == [200] * 3
    assert len(running) == 4 and gate.staff_idle.is_set()
    await request("/static/js/live.js")
    assert gate.staff_idle.is_set()  # a screen's scripts are no floor action

    monkeypatch.setattr(server, "STAFF_FIRST_SECONDS", 0.05)  # a floor request that never ends
    floor_done.clear()
    stuck = asyncio.create_task(request("/api/tournaments/1/entries/8/bust/"))
    await asyncio.sleep(0.01)
    assert await asyncio.wait_for(request("/s/1/9/"), 1) == 200  # waited its bounded while, then ran
    floor_done.set()
    assert await stuck == 200
