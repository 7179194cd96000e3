"""The helpers many test modules share, each defined once here: a service call that must be refused, a free port,
an identity document, tables opened and players registered, the rows a refused file leaves, the API and page clients,
a page's words, what the screen said. The fixtures live in the conftest.py files."""

from __future__ import annotations

import re
import socket
from datetime import date

import pytest
from channels.testing import WebsocketCommunicator
from django.contrib.auth.models import User
from django.test import Client
from rest_framework.test import APIClient

from clock.models import ClockState
from core.errors import ServiceError
from live.consumers import LobbyConsumer
from tables.models import Seat, Table
from tables.selectors import state
from tables.services import setup as table_setup
from tournament.models import AuditEvent, Entry, IdCheck, Player, Tournament
from tournament.services import registration
from venues.services import setup as venue_setup

# --- A service call refused -------------------------------------------------------------------------------------------


def refused(code: str, fn, *args, **kwargs) -> ServiceError:
    """fn(*args, **kwargs) raises core.errors.ServiceError with this code (the test fails otherwise): the error, for
    its status and message."""
    with pytest.raises(ServiceError) as caught:
        fn(*args, **kwargs)
    if caught.value.code != code:
        pytest.fail(f"refused with {caught.value.code!r}, not {code!r}: {caught.value.message}")
    return caught.value


# --- The room: documents, players entered, tables, seats, the clock ---------------------------------------------------


def id_doc(number: str = "EA1234567", document_type: str = "id_card") -> registration.IdDocument:
    return registration.IdDocument(document_type=document_type, number=number)


def register(cashier, tournament, n: int, start: int = 0) -> list[Entry]:
    """n players (P<start>... Test) created and entered, each with an identity document of his own."""
    out = []
    for i in range(start, start + n):
        player = registration.create_player(actor=cashier, first_name=f"P{i}", last_name="Test", date_of_birth=date(1990, 1, 1))
        out.append(registration.register_entry(tournament, actor=cashier, player=player, document=id_doc(f"EA{i:07d}")))
    return out


def open_tables(director, tournament, numbers, seats=9):
    for n in numbers:
        table_setup.open_table(tournament, actor=director, number=n, seats=seats)


def fixed_room(director, numbers, seats=6):
    """The room (the default venue) with these tables of `seats`, its set of tables fixed: its seats limit what plays."""
    venue = venue_setup.default_venue()
    for n in numbers:
        venue_setup.add_table(venue, actor=director, number=n, seats=seats)
    return venue_setup.set_areas(venue, actor=director, areas=[], fixed_tables=True)


def table(t, number: int) -> Table:
    return Table.objects.get(tournament=t, number=number)


def live_seat(entry) -> Seat:
    """The seat the entry sits in now (it must sit somewhere)."""
    return Seat.objects.select_related("table").get(entry=entry, ended_at__isnull=True)


def current_seat(entry) -> Seat | None:
    """The seat the entry sits in now, None if none (tables.selectors.state.seat_of)."""
    return state.seat_of(entry)


def clock_of(t) -> ClockState:
    return ClockState.objects.get(tournament=t)


# --- Clients: the API, the pages, a lobby screen's socket -------------------------------------------------------------


def client_for(user=None, **options) -> APIClient:
    """A REST client, signed in as `user` (none: anonymous); `options` are the client's (headers, raising the
    server's exceptions...)."""
    client = APIClient(**options)
    if user is not None:
        client.force_authenticate(user)
    return client


def url(t, rest: str) -> str:
    """The tournament's API address: /api/tournaments/<id>/<rest>."""
    return f"/api/tournaments/{t.pk}/{rest}"


def api(client: Client, method: str, path: str, body: dict | None = None, key: str = ""):
    """A JSON call to /api/<path>, with an idempotency key when one is given."""
    return getattr(client, method)(f"/api/{path}", body, content_type="application/json", **({"HTTP_IDEMPOTENCY_KEY": key} if key else {}))


def clock_call_answer(client, t, number: int):
    """What the API answers about a table's clock call."""
    return client.get(f"/api/tournaments/{t.pk}/tables/{number}/clock-call/")


def logged_in(user=None) -> Client:
    """A page client (django.test.Client), signed in as `user` (none: anonymous)."""
    client = Client()
    if user is not None:
        client.force_login(user)
    return client


def page_as(user, path: str):
    """A page as `user` (none: anonymous) gets it."""
    return logged_in(user).get(path)


def lobby_communicator(token: str) -> WebsocketCommunicator:
    """A lobby screen's socket (/ws/display/<token>/), not connected yet."""
    communicator = WebsocketCommunicator(LobbyConsumer.as_asgi(), f"/ws/display/{token}/")
    communicator.scope["url_route"] = {"kwargs": {"token": token}}
    return communicator


# --- What a page or a screen says -------------------------------------------------------------------------------------


def text(html: str) -> str:
    """The page's words, tags dropped and spaces folded: what a reader sees."""
    return " ".join(re.sub(r"<[^>]+>", " ", html).split())


def pdf_pages(pdf: bytes) -> int:
    """The pages of a PDF, counted without a PDF library: each page object says "/Type /Page" (the page tree
    "/Type /Pages")."""
    return len(re.findall(rb"/Type\s*/Page(?![s\w])", pdf))


SAID = "(text) => [...document.querySelectorAll('.api-say, [data-api-say]')].some((e) => e.textContent === text)"


def said(page, text: str) -> None:
    """What the screen says after the API answered (static/js/api.js, api.say), on this page or the next."""
    page.wait_for_function(SAID, arg=text)


# --- The rest: a tournament file refused, a free port, a pick ---------------------------------------------------------


def row_counts() -> dict:
    """How many tournaments, players, users, audit events, entries and identity checks there are: what a refused
    tournament file must leave as it was."""
    return {m.__name__: m.objects.count() for m in (Tournament, Player, User, AuditEvent, Entry, IdCheck)}


def free_port() -> int:
    """A port of 127.0.0.1 that nothing listens on: bound, then closed again when the block ends."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def pick(items: list, i: int):
    """The i-th item, round and round (None from an empty list)."""
    return items[i % len(items)] if items else None


def seats_at(t: Tournament, number: int) -> list[Seat]:
    """The live seats of table `number`, by seat, with their entries and players."""
    return list(state.live_seats(t).filter(table__number=number).select_related("entry__player").order_by("seat"))
