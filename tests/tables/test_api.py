"""The seating JSON API: draws (public and verifiable), corrections, undoing a bust, the button, break
order, tables in and out of play, seat requests, the floor map and the public seat lookup."""

from __future__ import annotations

import hashlib
import json
import re
from datetime import date

import pytest
from django.core.cache import cache
from django.test import Client
from django.utils import timezone
from rest_framework.test import APIClient

from tables.models import Draw, Seat, SeatRequest, Table
from tables.selectors import state
from tables.services import draws
from tests.helpers import client_for, current_seat, open_tables, register, url
from tournament.models import Entry
from tournament.services import registration


@pytest.fixture(autouse=True)
def fresh_throttle():
    """The public throttle counts in the cache, which outlives a test."""
    cache.clear()
    yield
    cache.clear()


def public(tournament, rest: str) -> str:
    return f"/api/public/tournaments/{tournament.pk}/{rest}"


@pytest.fixture
def undrawn_entries(director, cashier, tournament):
    """Two open tables of 9 and six entries, not drawn yet."""
    open_tables(director, tournament, [1, 2])
    return register(cashier, tournament, 6)


@pytest.fixture
def drawn(undrawn_entries, director, tournament):
    draws.draw_start(tournament, actor=director)
    return undrawn_entries


def free_seat_at(tournament, number: int) -> int:
    table = Table.objects.get(tournament=tournament, number=number)
    taken = set(state.live_seats(tournament).filter(table=table).values_list("seat", flat=True))
    return next(s for s in range(1, table.seats + 1) if s not in taken)


# --- draws: commitment first, seed revealed with the result, anyone can verify ----------------------


def test_start_draw_reveals_a_seed_that_matches_the_commitment_published_before(undrawn_entries, director, floor, tournament):
    committed = client_for(floor).post(url(tournament, "draws/commit/"))
    assert committed.status_code == 200
    commitment = committed.json()["commitment"]
    listed = APIClient().get(url(tournament, "draws/")).json()
    assert listed == [{"draw": committed.json()["draw"], "commitment": commitment, "revealed": False}]
    assert "seed" not in APIClient().get(url(tournament, f"draws/{committed.json()['draw']}/")).json()

    response = client_for(director).post(url(tournament, "draw/"))
    assert response.status_code == 201, response.content
    answer = response.json()
    assert answer["commitment"] == commitment and answer["kind"] == "start" and answer["revealed"] is True
    assert hashlib.sha256(bytes.fromhex(answer["seed"])).hexdigest() == commitment
    assert sorted(s["entry"] for s in answer["seats"]) == [e.number for e in undrawn_entries]
    assert all(current_seat(e) is not None for e in undrawn_entries)

    listed = APIClient().get(url(tournament, "draws/")).json()
    assert listed[0]["seed"] == answer["seed"]
    assert set(listed[1]) == {"draw", "commitment", "revealed"} and listed[1]["revealed"] is False
    pending = Draw.objects.get(tournament=tournament, drawn_at__isnull=True)
    assert pending.seed not in json.dumps(listed)
    check = APIClient().get(url(tournament, f"draws/{answer['draw']}/")).json()
    assert check["matches"] is True and check["commitment_matches"] is True

    again = client_for(director).post(url(tournament, "draw/"))
    assert again.status_code == 409 and again.json()["error"] == "already_drawn"


def test_draws_of_an_unknown_tournament_or_draw_are_404(tournament):
    assert APIClient().get("/api/tournaments/999999/draws/").status_code == 404
    assert APIClient().get(url(tournament, "draws/77/")).status_code == 404


def test_seat_waiting_entries(undrawn_entries, director, floor, tournament):
    response = client_for(floor).post(url(tournament, "seating/waiting/"))
    assert response.status_code == 409 and response.json()["error"] == "not_drawn"
    draws.draw_start(tournament, actor=director)
    assert client_for(floor).post(url(tournament, "seating/waiting/")).json()["error"] == "nobody_waiting"
    # An entry left without a seat (as after a table broke by hand) waits for the late-entry draw.
    Seat.objects.filter(entry=undrawn_entries[0], ended_at__isnull=True).update(ended_at=timezone.now(), end_reason=Seat.End.CORRECTION)
    response = client_for(floor).post(url(tournament, "seating/waiting/"))
    assert response.status_code == 201, response.content
    seat = current_seat(undrawn_entries[0])
    assert response.json()["kind"] == "late"
    assert response.json()["seats"] == [{"entry": undrawn_entries[0].number, "table": seat.table.number, "seat": seat.seat}]


# --- corrections, busts and their undo --------------------------------------------------------------


def test_correct_seat(drawn, floor, tournament):
    entry = drawn[0]
    before = current_seat(entry)
    target = free_seat_at(tournament, 2)
    for bad in ({}, {"table": 2}, {"table": 2, "seat": 0}, {"table": "two", "seat": 1}, {"table": 2, "seat": 11}):
        response = client_for(floor).post(url(tournament, f"entries/{entry.number}/seat/"), bad, format="json")
        assert response.status_code == 400, bad
        assert current_seat(entry).pk == before.pk
    response = client_for(floor).post(url(tournament, f"entries/{entry.number}/seat/"), {"table": 2, "seat": target}, format="json")
    assert response.status_code == 200, response.content
    assert response.json() == {"entry": entry.number, "table": 2, "seat": target}
    taken = current_seat(drawn[1])
    response = client_for(floor).post(
        url(tournament, f"entries/{entry.number}/seat/"), {"table": taken.table.number, "seat": taken.seat}, format="json"
    )
    assert response.status_code == 409 and response.json()["error"] == "seat_taken"
    assert client_for(floor).post(url(tournament, "entries/99/seat/"), {"table": 2, "seat": 1}, format="json").status_code == 404


def test_double_bust_is_409_and_undo_puts_the_player_back(drawn, floor, director, tournament):
    entry = drawn[2]
    seat = current_seat(entry)
    first = client_for(floor).post(url(tournament, f"entries/{entry.number}/bust/"))
    second = client_for(director).post(url(tournament, f"entries/{entry.number}/bust/"))  # another tablet, same moment
    assert first.status_code == 200 and first.json()["finish_place"] == 6
    assert second.status_code == 409 and second.json()["error"] == "entry_not_active"
    assert Entry.objects.get(pk=entry.pk).finish_place == 6

    response = client_for(floor).post(url(tournament, f"entries/{entry.number}/undo-bust/"))
    assert response.status_code == 200, response.content
    answer = response.json()
    assert answer["status"] == "active" and answer["finish_place"] is None
    assert (answer["table"], answer["seat"]) == (seat.table.number, seat.seat)
    again = client_for(floor).post(url(tournament, f"entries/{entry.number}/undo-bust/"))
    assert again.status_code == 409 and again.json()["error"] == "not_busted"


# --- tables: the button, break order, in play, open accessible ---------------------------------------


def test_button_draw_cards_and_seat(drawn, floor, tournament):
    table = current_seat(drawn[0]).table.number
    occupied = sorted(state.live_seats(tournament).filter(table__number=table).values_list("seat", flat=True))
    button = f"tables/{table}/button/"
    response = client_for(floor).post(url(tournament, button), {}, format="json")
    assert response.status_code == 200, response.content
    drawn_button = response.json()
    assert drawn_button["button"] in occupied and sorted(map(int, drawn_button["cards"])) == occupied
    check = APIClient().get(url(tournament, f"draws/{drawn_button['draw']}/")).json()
    assert check["kind"] == "button" and check["matches"] is True

    deck = ["2c", "3d", "4h", "5s", "6c", "7d", "8h", "9s", "Tc"]
    cards = {str(s): deck[i] for i, s in enumerate(occupied)}
    cards[str(occupied[0])] = "As"
    response = client_for(floor).post(url(tournament, button), {"cards": cards}, format="json")
    assert response.status_code == 200 and response.json()["button"] == occupied[0] and response.json()["draw"] is None

    for bad in (
        {"cards": {str(occupied[0]): "Zz"}},
        {"cards": {"x": "As"}},
        {"cards": {"11": "As"}},
        {"cards": {str(s): "As" for s in occupied}},
        {"cards": cards, "seat": occupied[0]},
        {"seat": 0},
        {"seat": "one"},
        {"cards": {}},
    ):
        response = client_for(floor).post(url(tournament, button), bad, format="json")
        assert response.status_code == 400, (bad, response.content)
        assert Table.objects.get(tournament=tournament, number=table).button_seat == occupied[0]

    response = client_for(floor).post(url(tournament, button), {"seat": occupied[-1]}, format="json")
    assert response.status_code == 200 and response.json()["button"] == occupied[-1]
    assert client_for(floor).post(url(tournament, "tables/2/button/"), {}, format="json").status_code == 409  # empty
    assert client_for(floor).post(url(tournament, "tables/9/button/"), {}, format="json").status_code == 404


def test_break_order(undrawn_entries, director, dealer, tournament):
    for bad in ({}, {"order": []}, {"order": "1,2"}, {"order": [1]}, {"order": [1, 1]}, {"order": [1, 2, 3]}):
        response = client_for(director).put(url(tournament, "tables/break-order/"), bad, format="json")
        assert response.status_code == 400, bad
    assert client_for(dealer).get(url(tournament, "tables/break-order/")).json() == {"order": [2, 1]}
    response = client_for(director).put(url(tournament, "tables/break-order/"), {"order": [1, 2]}, format="json")
    assert response.status_code == 200 and response.json() == {"order": [1, 2]}
    assert client_for(dealer).get(url(tournament, "tables/break-order/")).json() == {"order": [1, 2]}


def test_table_in_play(drawn, director, tournament):
    used = current_seat(drawn[0]).table.number
    empty = 2 if used == 1 else 1
    for bad in ({}, {"in_play": "perhaps"}):
        response = client_for(director).post(url(tournament, f"tables/{empty}/in-play/"), bad, format="json")
        assert response.status_code == 400
    assert Table.objects.get(tournament=tournament, number=empty).in_play is True
    response = client_for(director).post(url(tournament, f"tables/{empty}/in-play/"), {"in_play": False}, format="json")
    assert response.status_code == 200 and response.json() == {"table": empty, "in_play": False}
    response = client_for(director).post(url(tournament, f"tables/{used}/in-play/"), {"in_play": False}, format="json")
    assert response.status_code == 409 and response.json()["error"] == "table_has_players"
    response = client_for(director).post(url(tournament, f"tables/{empty}/in-play/"), {"in_play": True}, format="json")
    assert response.status_code == 200 and response.json()["in_play"] is True


def test_open_an_accessible_table(director, tournament):
    response = client_for(director).post(url(tournament, "tables/"), {"number": 5, "accessible": True}, format="json")
    assert response.status_code == 201
    assert Table.objects.get(tournament=tournament, number=5).accessible is True
    response = client_for(director).post(url(tournament, "tables/"), {"number": 6, "accessible": "maybe"}, format="json")
    assert response.status_code == 400 and not Table.objects.filter(tournament=tournament, number=6).exists()


# --- seat requests (TDA 6) ------------------------------------------------------------------------------


def test_seat_request_set_replace_and_cancel(undrawn_entries, floor, tournament):
    player = undrawn_entries[0].player
    path = url(tournament, f"players/{player.pk}/seat-request/")
    for bad in ({}, {"seat": 3}, {"table": 0}, {"table": 2, "seat": 12}, {"accessible": True, "note": "x" * 201}):
        response = client_for(floor).post(path, bad, format="json")
        assert response.status_code == 400, bad
    assert not SeatRequest.objects.exists()
    response = client_for(floor).post(path, {"table": 9}, format="json")
    assert response.status_code == 404 and not SeatRequest.objects.exists()

    response = client_for(floor).post(path, {"table": 2, "seat": 3, "note": "left-handed"}, format="json")
    assert response.status_code == 200, response.content
    assert response.json() == {
        "player": player.pk,
        "name": player.display_name,
        "table": 2,
        "seat": 3,
        "accessible": False,
        "note": "left-handed",
    }
    response = client_for(floor).post(path, {"accessible": True}, format="json")
    assert response.status_code == 200
    live = SeatRequest.objects.get(cancelled_at__isnull=True)
    assert live.accessible is True and live.table_number is None

    assert client_for(floor).delete(path).status_code == 204
    assert not SeatRequest.objects.filter(cancelled_at__isnull=True).exists()
    assert client_for(floor).delete(path).status_code == 404
    assert client_for(floor).delete(url(tournament, "players/999999/seat-request/")).status_code == 404


def test_the_draw_honours_a_seat_request(undrawn_entries, director, floor, tournament):
    client_for(floor).post(url(tournament, f"players/{undrawn_entries[3].player_id}/seat-request/"), {"table": 2, "seat": 7}, format="json")
    assert client_for(director).post(url(tournament, "draw/")).status_code == 201
    seat = current_seat(undrawn_entries[3])
    assert (seat.table.number, seat.seat) == (2, 7)


# --- the floor map ----------------------------------------------------------------------------------------


def test_floor_map(drawn, cashier, floor, tournament):
    assert client_for(cashier).get(url(tournament, "map/")).status_code == 403  # names: the floor's, not the desk's
    response = client_for(floor).get(url(tournament, "map/"))
    assert response.status_code == 200
    fm = response.json()
    assert fm["players_seated"] == 6 and fm["waiting"] == 0 and fm["start_drawn"] is True
    assert set(fm["next_draw"]) == {"draw", "commitment"}
    assert client_for(floor).get("/api/tournaments/999999/map/").status_code == 404


# --- public: find a seat, nothing personal --------------------------------------------------------------


def test_public_seat_lookup(drawn, tournament):
    entry = drawn[0]
    seat = current_seat(entry)
    anonymous = APIClient()
    response = anonymous.get(public(tournament, f"seats/{entry.number}/"))
    assert response.status_code == 200
    answer = response.json()
    assert (answer["entry"], answer["name"], answer["table"], answer["seat"]) == (
        entry.number,
        entry.player.display_name,
        seat.table.number,
        seat.seat,
    )
    found = anonymous.get(public(tournament, "seats/"), {"q": "P0 Test"}).json()
    assert found == [{"entry": entry.number, "name": "P0 Test", "status": "active"}]
    assert anonymous.get(public(tournament, "seats/"), {"q": f"#{entry.number}"}).json()[0]["entry"] == entry.number
    assert anonymous.get(public(tournament, "seats/"), {"q": "P"}).json() == []
    assert anonymous.get(public(tournament, "seats/99/")).status_code == 404
    assert anonymous.get("/api/public/tournaments/999999/seats/1/").status_code == 404
    assert anonymous.get(public(tournament, "seats/")).status_code == 400  # q is required
    assert anonymous.get(public(tournament, "seats/"), {"q": "x" * 81}).status_code == 400


def test_public_endpoints_show_no_personal_data(cashier, director, tournament, player):
    player.email, player.phone = "jana@example.com", "+420 777 123 456"
    player.save(update_fields=["email", "phone"])
    entry = registration.register_entry(
        tournament, actor=cashier, player=player, document=registration.IdDocument(document_type="id_card", number="EA7654321")
    )
    open_tables(director, tournament, [1])
    draws.draw_start(tournament, actor=director)
    anonymous = APIClient()
    bodies = [
        anonymous.get(public(tournament, f"seats/{entry.number}/")),
        anonymous.get(public(tournament, "seats/"), {"q": "Nov"}),
        anonymous.get(public(tournament, "seats/"), {"q": str(entry.number)}),
        anonymous.get(url(tournament, "draws/")),
        anonymous.get(url(tournament, "draws/1/")),
    ]
    assert all(r.status_code == 200 for r in bodies)
    # The seat's timestamps (seated_at) are wall-clock digits that may contain "17.5" or "05-17" by chance.
    seats = re.sub(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?([+-]\d\d:\d\d|Z)?", "<time>", " ".join(r.content.decode() for r in bodies[:3]))
    assert "<time>" in seats
    draw_pages = " ".join(r.content.decode() for r in bodies[3:])  # hex seeds and hashes: digit runs may occur by chance
    assert "Jana" in seats  # names are public in the room
    for secret in ("1990", "05-17", "17.5", "7654321", "4321"):
        assert secret not in seats, secret
    for secret in ("jana@example.com", "777 123", "EA7654321", "Jana", "date_of_birth", "email", "phone", "document", "id_hmac", "last4"):
        assert secret not in draw_pages, secret
        if secret != "Jana":
            assert secret not in seats, secret
    player.refresh_from_db()
    assert player.id_hmac and player.id_hmac not in seats + draw_pages


def test_public_endpoints_are_throttled(settings, tournament):
    settings.PUBLIC_API_RATE = "3/minute"  # per device: the first answer gives the device its cookie
    anonymous = APIClient()
    codes = [anonymous.get(public(tournament, "seats/1/")).status_code for _ in range(5)]
    assert codes[:4] == [404, 404, 404, 404] and codes[4] == 429


def test_schema_documents_the_seating_endpoints(db):
    schema = APIClient().get("/api/schema/", {"format": "json"}).json()
    for path, method in [
        ("/api/tournaments/{id}/draw/", "post"),
        ("/api/tournaments/{id}/draws/", "get"),
        ("/api/tournaments/{id}/draws/{number}/", "get"),
        ("/api/tournaments/{id}/draws/commit/", "post"),
        ("/api/tournaments/{id}/seating/waiting/", "post"),
        ("/api/tournaments/{id}/entries/{number}/seat/", "post"),
        ("/api/tournaments/{id}/entries/{number}/undo-bust/", "post"),
        ("/api/tournaments/{id}/tables/{number}/button/", "post"),
        ("/api/tournaments/{id}/tables/break-order/", "put"),
        ("/api/tournaments/{id}/tables/{number}/in-play/", "post"),
        ("/api/tournaments/{id}/players/{player_id}/seat-request/", "post"),
        ("/api/tournaments/{id}/players/{player_id}/seat-request/", "delete"),
        ("/api/tournaments/{id}/map/", "get"),
        ("/api/public/tournaments/{id}/seats/", "get"),
        ("/api/public/tournaments/{id}/seats/{number}/", "get"),
    ]:
        operation = schema["paths"][path][method]
        assert operation.get("summary"), path
    for path in ("/api/public/tournaments/{id}/seats/", "/api/tournaments/{id}/draws/"):
        assert schema["paths"][path]["get"].get("security", []) in ([], [{}]), "public: no login"
    assert "accessible" in schema["components"]["schemas"]["OpenTableRequest"]["properties"]


def test_dates_of_birth_stay_out_of_the_floor_map(drawn, floor, tournament):
    text = client_for(floor).get(url(tournament, "map/")).content.decode()
    assert date(1990, 1, 1).isoformat() not in text and "date_of_birth" not in text


def test_the_public_search_ignores_case_and_accents_and_finds_any_part(cashier, director, tournament, player):
    """Players type "novak" or "NOVÁK" on their phones: the seat search folds both sides (core/search.py)."""
    entry = registration.register_entry(
        tournament, actor=cashier, player=player, document=registration.IdDocument(document_type="id_card", number="EA7654321")
    )
    open_tables(director, tournament, [1])
    draws.draw_start(tournament, actor=director)
    anonymous = APIClient()
    assert entry.player.display_name == "Jana Nováková"
    for typed in ("JANA NOVÁKOVÁ", "novakova", "nováková jana", "vakov", "Ňováková"):
        found = anonymous.get(public(tournament, "seats/"), {"q": typed}).json()
        assert [f["entry"] for f in found] == [entry.number], typed
        page = Client().get(f"/s/{tournament.pk}/", {"q": typed}).content.decode()
        assert f"/s/{tournament.pk}/{entry.number}/" in page, typed
    assert anonymous.get(public(tournament, "seats/"), {"q": "nobody"}).json() == []
