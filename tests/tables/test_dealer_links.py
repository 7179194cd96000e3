"""Dealer tablets act at their own table only: a table's dealer link (no login, revocable, stored
hashed, shown once) and a Dealer login bound to the table its tablet opened."""

from __future__ import annotations

import pytest
from channels.db import database_sync_to_async
from channels.routing import URLRouter
from channels.testing import WebsocketCommunicator
from django.contrib.auth.models import AnonymousUser
from django.test import Client
from rest_framework.test import APIClient

from core.tokens import hash_secret
from live.routing import websocket_urlpatterns
from tables.models import DealerLink, HandStart, Table
from tables.services import dealer_links, hands
from tables.services import setup as table_setup
from tests.conftest import page_config
from tests.helpers import url
from tournament.models import AuditEvent


def as_user(user) -> APIClient:
    client = APIClient()
    client.force_login(user)
    return client


def dealer_tablet(user, tournament, number: int) -> APIClient:
    """A Dealer login's tablet at one table: its session is bound there by opening the table's tablet page."""
    client = APIClient()
    client.force_login(user)
    assert client.get(f"/t/{tournament.pk}/tables/{number}/dealer/").status_code == 200
    return client


def as_link(secret: str) -> APIClient:
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"DealerLink {secret}")
    return client


def hand_starts(t) -> list:
    return list(HandStart.objects.filter(table__tournament=t).values_list("table__number", "number", "undone_at"))


@pytest.fixture
def tables(director, tournament):
    for n in (1, 2):
        table_setup.open_table(tournament, actor=director, number=n, seats=9)
    return {t.number: t for t in Table.objects.filter(tournament=tournament)}


@pytest.fixture
def link(floor, tables, tournament):
    answer = as_user(floor).post(url(tournament, "tables/1/dealer-links/"), {"label": "tablet 1"}, format="json")
    assert answer.status_code == 201, answer.content
    return answer.json()


def test_the_floor_makes_a_link_shown_once_and_stored_hashed(link, tournament, floor):
    secret = link["token"]
    assert link["url"].endswith(f"/dealer/{secret}/") and link["table"] == 1 and link["label"] == "tablet 1"
    row = DealerLink.objects.get(pk=link["id"])
    assert row.token_hash == hash_secret(secret) and secret not in row.token_hash and row.created_by == floor
    listed = as_user(floor).get(url(tournament, "tables/1/dealer-links/")).json()
    assert [(item["id"], item["token"], item["url"], item["active"]) for item in listed] == [(row.pk, None, None, True)]
    event = AuditEvent.objects.filter(tournament=tournament).latest("seq")
    assert (event.type, event.actor) == ("table.dealer_link_created", floor)
    assert event.payload == {"table": 1, "link": row.pk, "label": "tablet 1"}


@pytest.mark.parametrize("role", ["dealer", "cashier"])
def test_only_the_floor_and_the_director_make_or_revoke_links(request, role, link, tournament):
    user = request.getfixturevalue(role)
    assert as_user(user).post(url(tournament, "tables/1/dealer-links/"), {}, format="json").status_code == 403
    assert as_user(user).post(url(tournament, f"dealer-links/{link['id']}/revoke/")).status_code == 403
    assert DealerLink.objects.count() == 1 and DealerLink.objects.get().revoked_at is None
    with pytest.raises(Exception, match="role"):
        dealer_links.create_dealer_link(Table.objects.get(tournament=tournament, number=2), actor=user)


def test_no_link_for_a_table_out_of_play_and_a_long_label_is_refused(director, floor, tables, tournament):
    table_setup.set_table_in_play(tables[2], actor=director, in_play=False)
    closed = as_user(floor).post(url(tournament, "tables/2/dealer-links/"), {}, format="json")
    assert (closed.status_code, closed.json()["error"]) == (409, "table_closed")
    long = as_user(floor).post(url(tournament, "tables/1/dealer-links/"), {"label": "x" * 81}, format="json")
    assert long.status_code == 400 and "label" in long.json()["fields"]
    assert not DealerLink.objects.exists()


def test_the_link_opens_its_tablet_without_a_login(link, tournament):
    secret = link["token"]
    page = Client().get(f"/dealer/{secret}/")
    assert page.status_code == 200
    html = page.content.decode()
    assert f'<meta name="api-dealer-link" content="{secret}">' in html and "js/api.js" in html
    urls = page_config(html, "dealer-config")
    assert urls["socket"] == f"/ws/dealer/{secret}/" and urls["state"] == f"/api/dealer/{secret}/state/"
    state = Client().get(f"/api/dealer/{secret}/state/").json()
    assert state["table"]["number"] == 1 and "server_time" in state
    assert Client().get("/dealer/wrong-secret/").status_code == 403
    assert Client().get("/api/dealer/wrong-secret/state/").status_code == 403


def test_the_link_acts_at_its_table_only(link, tables, tournament):
    tablet = as_link(link["token"])
    started = tablet.post(url(tournament, "tables/1/hand/"))
    assert started.status_code == 201 and started.json()["hand"] == 1
    hand = HandStart.objects.get(table=tables[1], number=1)
    assert (hand.source, hand.actor) == ("tablet", None)
    event = AuditEvent.objects.filter(tournament=tournament, type="table.hand_started").latest("seq")
    assert event.actor_label == f"dealer link {link['id']} (table 1)" and event.actor is None
    before = hand_starts(tournament)
    elsewhere = tablet.post(url(tournament, "tables/2/hand/"))
    assert elsewhere.status_code == 403 and "own table" in elsewhere.json()["detail"]
    assert tablet.delete(url(tournament, "tables/2/hand/")).status_code == 403
    assert tablet.post(url(tournament, "tables/2/hand-done/")).status_code == 403
    assert hand_starts(tournament) == before
    assert tablet.post(url(tournament, "tables/1/hand-done/")).status_code == 200
    assert tablet.delete(url(tournament, "tables/1/hand/")).status_code == 200
    # Nothing else: the link is no login anywhere else.
    for path in ("", "entries/", "map/", "events/", "tables/"):
        assert tablet.get(url(tournament, path)).status_code == 401, path
    assert tablet.post(url(tournament, "tables/1/dealer-links/"), {}, format="json").status_code == 401


def test_the_service_refuses_a_link_at_another_table(link, tables):
    actor = dealer_links.actor_for(DealerLink.objects.get(pk=link["id"]))
    with pytest.raises(Exception, match="own table"):
        hands.start_hand(tables[2], actor=actor)
    assert hands.start_hand(tables[1], actor=actor).number == 1


def test_a_revoked_link_stops_at_once(link, floor, tournament):
    secret = link["token"]
    revoked = as_user(floor).post(url(tournament, f"dealer-links/{link['id']}/revoke/"))
    assert revoked.status_code == 200 and revoked.json()["active"] is False and revoked.json()["token"] is None
    again = as_user(floor).post(url(tournament, f"dealer-links/{link['id']}/revoke/"))
    assert (again.status_code, again.json()["error"]) == (409, "already_revoked")
    assert Client().get(f"/dealer/{secret}/").status_code == 403
    assert Client().get(f"/api/dealer/{secret}/state/").status_code == 403
    refused = as_link(secret).post(url(tournament, "tables/1/hand/"))
    assert refused.status_code == 401 and not hand_starts(tournament)
    assert AuditEvent.objects.filter(tournament=tournament, type="table.dealer_link_revoked").get().actor == floor


# --- a Dealer login is bound to the table its tablet opened ----------------------------------------------


def test_a_dealer_login_acts_at_the_table_it_opened_only(dealer, tables, tournament):
    tablet = APIClient()
    tablet.force_login(dealer)
    refused = tablet.post(url(tournament, "tables/1/hand/"))  # no table opened yet on this device
    assert refused.status_code == 403 and "dealer tablet" in refused.json()["detail"]
    assert tablet.get(f"/api/tournaments/{tournament.pk}/tables/1/state/").status_code == 403
    assert tablet.get(f"/t/{tournament.pk}/tables/1/dealer/").status_code == 200  # binds this login's session
    assert tablet.post(url(tournament, "tables/1/hand/")).status_code == 201
    assert tablet.get(f"/api/tournaments/{tournament.pk}/tables/1/state/").status_code == 200
    other = tablet.get(f"/t/{tournament.pk}/tables/2/dealer/")
    assert other.status_code == 403 and "bound to table 1" in other.content.decode()
    assert tablet.post(url(tournament, "tables/2/hand/")).status_code == 403
    assert tablet.post(url(tournament, "tables/2/hand-done/")).status_code == 403
    assert tablet.get(f"/api/tournaments/{tournament.pk}/tables/2/state/").status_code == 403
    assert hand_starts(tournament) == [(1, 1, None)]
    choose = tablet.get(f"/t/{tournament.pk}/dealer/").content.decode()
    assert f"/t/{tournament.pk}/tables/1/dealer/" in choose and f"/t/{tournament.pk}/tables/2/dealer/" not in choose
    # A new login (a new session) chooses again.
    tablet.logout()
    tablet.force_login(dealer)
    assert tablet.get(f"/t/{tournament.pk}/tables/2/dealer/").status_code == 200
    assert tablet.post(url(tournament, "tables/2/hand/")).status_code == 201


def test_the_floor_acts_at_any_table(floor, tables, tournament):
    tablet = as_user(floor)
    assert tablet.post(url(tournament, "tables/1/hand/")).status_code == 201
    assert tablet.post(url(tournament, "tables/2/hand/")).status_code == 201


# --- sockets ----------------------------------------------------------------------------------------------


@pytest.mark.django_db(transaction=True)
@pytest.mark.asyncio
async def test_the_link_socket_hears_its_table_and_closes_on_revocation(director, floor, tournament):
    def seed():
        for n in (1, 2):
            table_setup.open_table(tournament, actor=director, number=n, seats=9)
        return dealer_links.create_dealer_link(Table.objects.get(tournament=tournament, number=1), actor=floor)

    link, secret = await database_sync_to_async(seed)()
    communicator = WebsocketCommunicator(URLRouter(websocket_urlpatterns), f"/ws/dealer/{secret}/")
    communicator.scope["user"] = AnonymousUser()
    connected, _ = await communicator.connect()
    assert connected
    snapshot = await communicator.receive_json_from(timeout=3)
    assert snapshot["kind"] == "snapshot"
    tables = await database_sync_to_async(lambda: {t.number: t for t in Table.objects.filter(tournament=tournament)})()
    await database_sync_to_async(hands.start_hand)(tables[2], actor=floor)  # another table: no note here
    await database_sync_to_async(hands.start_hand)(tables[1], actor=floor)
    note = await communicator.receive_json_from(timeout=3)
    assert (note["type"], note["table"]) == ("table.hand_started", 1)
    await database_sync_to_async(dealer_links.revoke_dealer_link)(link, actor=floor)
    note = await communicator.receive_json_from(timeout=3)  # the table hears of it, then the socket closes
    assert note["type"] == "table.dealer_link_revoked"
    closed = await communicator.receive_output(timeout=3)
    assert closed == {"type": "websocket.close", "code": 4003}
    refused = WebsocketCommunicator(URLRouter(websocket_urlpatterns), f"/ws/dealer/{secret}/")
    refused.scope["user"] = AnonymousUser()
    assert await refused.connect() == (False, 4003)
