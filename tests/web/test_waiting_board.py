"""A sold-out tournament's waiting list on the players' side: the public board's JSON (/api/public/tournaments/<id>/waiting/)
and page (/t/<id>/waiting/), numbers and never names; the public seat answer of an alternate offered a seat; the lobby
snapshot's `alternates`, which the TV draws; the seat finder's link to the board. Every field of the new answers is one
the manual lists (docs/roles.md, "What the public sees")."""

from __future__ import annotations

import json
from datetime import timedelta

import pytest
from django.conf import settings
from rest_framework.test import APIClient

from live.snapshots import lobby_snapshot
from tables.models import Seat
from tables.selectors.screens import alternates_board
from tables.selectors.state import live_seats
from tables.services import busts, draws
from tests.conftest import page_config
from tests.helpers import register
from tests.tournament.test_waiting_list import fixed_room, join
from tests.web.test_public_fields import check, listed
from tournament.models import Player, WaitingPlace
from tournament.services import registration, waiting_list

POSITIONS = {"big_blind", "small_blind", "button", "wait_for_button", "in_play", "unknown"}


def board_url(t) -> str:
    return f"/api/public/tournaments/{t.pk}/waiting/"


@pytest.fixture
def sold_out(director, cashier, tournament):
    """A fixed room of two tables of six, twelve players seated by the start draw: every seat taken; three players on
    the waiting list (alternates 1, 2 and 3)."""
    fixed_room(director, [1, 2])
    register(cashier, tournament, 12)
    draws.draw_start(tournament, actor=director)
    places = [join(cashier, tournament, i) for i in (1, 2, 3)]
    return tournament, places


def offer_first(t, floor) -> tuple[WaitingPlace, Seat]:
    """A bust: its seat offered to alternate 1 by the late-entry draw."""
    out = live_seats(t).select_related("table").first()
    busts.bust_entry(out.entry, actor=floor)
    first = WaitingPlace.objects.select_related("entry").get(tournament=t, number=1)
    return first, Seat.objects.select_related("table").get(entry=first.entry, ended_at__isnull=True)


def names(t) -> set[str]:
    """Every name a public answer of the tournament must not carry: its players' and its alternates'."""
    return {p.display_name for p in Player.objects.filter(entries__tournament=t)} | {
        p.player.display_name for p in WaitingPlace.objects.filter(tournament=t).select_related("player")
    }


def test_the_board_says_the_calls_and_the_numbers_waiting_and_no_name(floor, sold_out):
    t, _places = sold_out
    client = APIClient()
    before = client.get(board_url(t))
    assert before.status_code == 200
    assert before.json() == {"tournament": {"id": t.pk, "name": t.name}, "sold_out": True, "waiting": [1, 2, 3], "calls": []}
    first, seat = offer_first(t, floor)
    answer = client.get(board_url(t)).json()
    call = answer["calls"][0]
    assert answer["waiting"] == [2, 3] and answer["sold_out"] is True and len(answer["calls"]) == 1
    assert (call["number"], call["table"], call["seat"]) == (1, seat.table.number, seat.seat)
    assert call["position"] in POSITIONS and call["position"] == (first.position or "unknown")
    assert call["sit_by"] == (first.offered_at + timedelta(minutes=t.alternate_minutes)).isoformat()
    text = json.dumps(answer, ensure_ascii=False)
    assert not [name for name in names(t) if name in text]
    check("api-public-waiting", answer, listed())  # every field on the manual's list
    # The same answer the TV's snapshot holds, and the board page hands its script.
    assert {k: answer[k] for k in ("sold_out", "waiting", "calls")} == alternates_board(t)
    page = client.get(f"/t/{t.pk}/waiting/?n=2")
    assert page.status_code == 200
    html = page.content.decode()
    assert page_config(html, "wb-state-data") == answer
    assert page_config(html, "wb-config") | {"version": None} == {
        "json": board_url(t),
        "socket": f"/ws/s/{t.pk}/",
        "time_zone": t.time_zone,
        "version": None,
        # The number typed: "Tell me on this phone" subscribes for alternate 2 (docs/notifications.md).
        "push": {
            "key": settings.WEBPUSH_VAPID_PUBLIC_KEY,
            "worker": "/push-sw.js",
            "subscribe": f"/api/public/tournaments/{t.pk}/waiting/2/push/",
            "stop": f"/api/public/tournaments/{t.pk}/waiting/2/push/stop/",
        },
    }
    assert 'value="2"' in html and not [name for name in names(t) if name in html]


def test_the_board_follows_a_player_joining_the_list_though_no_seat_changed(cashier, sold_out):
    """Joining the list moves no public seat (its event keeps the seats' version): the board is versioned by the
    tournament's event sequence, so its next read shows the new number, and a phone holding the old answer gets it."""
    t, _places = sold_out
    client = APIClient()
    first = client.get(board_url(t))
    assert client.get(board_url(t), HTTP_IF_NONE_MATCH=first["ETag"]).status_code == 304
    join(cashier, t, 4)
    again = client.get(board_url(t), HTTP_IF_NONE_MATCH=first["ETag"])
    assert again.status_code == 200 and again.json()["waiting"] == [1, 2, 3, 4] and again["ETag"] != first["ETag"]


def test_an_unknown_tournament_has_no_board(db):
    client = APIClient()
    answer = client.get("/api/public/tournaments/999999/waiting/")
    assert answer.status_code == 404 and answer.json()["error"] == "not_found"
    assert client.get("/t/999999/waiting/").status_code == 404


def test_a_tournament_without_a_list_has_an_empty_board_and_no_link_from_the_seat_finder(client, cashier, tournament):
    register(cashier, tournament, 2)
    answer = APIClient().get(board_url(tournament)).json()
    assert answer == {"tournament": {"id": tournament.pk, "name": tournament.name}, "sold_out": False, "waiting": [], "calls": []}
    assert alternates_board(tournament) is None and lobby_snapshot(tournament)["alternates"] is None
    assert client.get(f"/t/{tournament.pk}/waiting/").status_code == 200
    assert 'id="waiting-board-link"' not in client.get(f"/s/{tournament.pk}/").content.decode()


def test_the_seat_finder_links_to_the_board_of_a_tournament_with_a_list(client, sold_out):
    t, _places = sold_out
    html = client.get(f"/s/{t.pk}/").content.decode()
    assert 'id="waiting-board-link"' in html and f'href="/t/{t.pk}/waiting/"' in html


def test_the_seat_answer_of_an_alternate_says_his_number_and_time_until_he_sits_down(floor, cashier, sold_out):
    t, _places = sold_out
    client = APIClient()
    first, seat = offer_first(t, floor)
    number = first.entry.number
    answer = client.get(f"/api/public/tournaments/{t.pk}/seats/{number}/").json()
    sit_by = (first.offered_at + timedelta(minutes=t.alternate_minutes)).isoformat()
    called = first.offered_at.isoformat()
    assert answer["alternate"] == {"number": 1, "called_at": called, "sit_by": sit_by, "position": first.position or "unknown"}
    assert (answer["table"], answer["seat"], answer["status"]) == (seat.table.number, seat.seat, "active")  # the seat offered
    check("api-public-seat", answer, listed())
    others = [e for e in live_seats(t).values_list("entry__number", flat=True) if e != number]
    assert client.get(f"/api/public/tournaments/{t.pk}/seats/{others[0]}/").json()["alternate"] is None
    # His seat page: the answer, and the venue's time zone to say the time in; its link to the board.
    html = client.get(f"/s/{t.pk}/{number}/").content.decode()
    config = page_config(html, "seat-config")
    assert config["time_zone"] == t.time_zone and config["waiting_board"] == f"/t/{t.pk}/waiting/"
    assert page_config(html, "seat-state")["alternate"]["number"] == 1
    # He sat down: a player like any other.
    waiting_list.seat(first, actor=cashier)
    assert client.get(f"/api/public/tournaments/{t.pk}/seats/{number}/").json()["alternate"] is None
    assert 1 not in [c["number"] for c in client.get(board_url(t)).json()["calls"]]


def test_the_lobby_snapshot_says_the_list_and_the_calls_with_numbers_only(director, floor, sold_out):
    t, _places = sold_out
    assert lobby_snapshot(t)["alternates"] == {"sold_out": True, "waiting": [1, 2, 3], "calls": []}
    first, seat = offer_first(t, floor)
    snapshot = lobby_snapshot(t)
    alternates = snapshot["alternates"]
    assert alternates["waiting"] == [2, 3] and alternates["sold_out"] is True
    assert [(c["number"], c["table"], c["seat"]) for c in alternates["calls"]] == [(1, seat.table.number, seat.seat)]
    assert snapshot["stats"]["sold_out"] is True and snapshot["stats"]["waiting"] == 2
    text = json.dumps(alternates, ensure_ascii=False)
    assert not [name for name in names(t) if name in text]
    check("seat-socket (snapshot)", snapshot, listed())
    # The TV's page draws it: its words' place, the venue's zone and the house's minutes to tell a new call by.
    display = registration.create_display_token(t, actor=director, label="Lobby TV")
    html = APIClient().get(f"/display/{display.token}/").content.decode()
    assert page_config(html, "lobby-alternates-state") == alternates
    assert f'data-zone="{t.time_zone}"' in html and f'data-minutes="{t.alternate_minutes}"' in html


def test_the_latest_call_comes_first(floor, sold_out):
    t, _places = sold_out
    for _ in range(2):
        busts.bust_entry(live_seats(t).exclude(entry__waiting_place__isnull=False).first().entry, actor=floor)
    assert [c["number"] for c in APIClient().get(board_url(t)).json()["calls"]] == [2, 1]
