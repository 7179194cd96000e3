"""The entry page's seating actions: seat shown, bust and its undo, special-needs request (TDA 6), through
the JSON API the page calls (entries/<n>/bust/, undo-bust/, players/<id>/seat-request/)."""

import json

import pytest

from tables.models import SeatRequest
from tables.selectors import state
from tables.services import busts, draws
from tests.helpers import open_tables, register
from tournament.models import AuditEvent, Entry


@pytest.fixture
def seated(director, cashier, tournament):
    open_tables(director, tournament, [1, 2])
    entries = register(cashier, tournament, 6)
    draws.draw_start(tournament, actor=director)
    return entries


def test_the_entry_page_shows_the_seat(client, floor, tournament, seated):
    client.force_login(floor)
    seat = state.seat_of(seated[0])
    page = client.get(f"/t/{tournament.pk}/entries/{seated[0].number}/").content.decode()
    assert f"Table {seat.table.number}, seat {seat.seat}" in page


def api(client, path, body=None, method="POST"):
    return client.generic(method, f"/api/{path}", "" if body is None else json.dumps(body), content_type="application/json")


def test_the_entry_page_calls_the_api(client, floor, cashier, tournament, seated):
    entry = seated[0]
    client.force_login(floor)
    page = client.get(f"/t/{tournament.pk}/entries/{entry.number}/").content.decode()
    for path in (
        f"tournaments/{tournament.pk}/entries/{entry.number}/bust/",
        f"tournaments/{tournament.pk}/players/{entry.player_id}/seat-request/",
    ):
        assert f'data-api="{path}"' in page, path
    assert "action=" not in page.split("<main>", 1)[1]  # no form of the page posts anywhere but the API
    client.force_login(cashier)
    page = client.get(f"/t/{tournament.pk}/entries/{entry.number}/").content.decode()
    assert "/bust/" not in page and "seat-request" not in page


def test_floor_busts_and_undoes_from_the_entry_page(client, floor, tournament, seated):
    client.force_login(floor)
    entry, seat = seated[0], state.seat_of(seated[0])
    base = f"tournaments/{tournament.pk}/entries/{entry.number}"
    busted = api(client, f"{base}/bust/")
    entry.refresh_from_db()
    assert busted.status_code == 200 and busted.json()["finish_place"] == 6
    assert entry.status == Entry.Status.BUSTED and entry.finish_place == 6 and state.seat_of(entry) is None
    page = client.get(f"/t/{tournament.pk}/entries/{entry.number}/").content.decode()
    assert f'data-api="{base}/undo-bust/"' in page
    assert api(client, f"{base}/undo-bust/").status_code == 200
    entry.refresh_from_db()
    back = state.seat_of(entry)
    assert entry.status == Entry.Status.ACTIVE and entry.finish_place is None
    assert (back.table_id, back.seat) == (seat.table_id, seat.seat)
    assert list(AuditEvent.objects.filter(type__in=["entry.busted", "entry.bust_undone"]).values_list("type", flat=True)) == [
        "entry.busted",
        "entry.bust_undone",
    ]
    # Undoing again is refused with a message and changes nothing.
    events = AuditEvent.objects.count()
    again = api(client, f"{base}/undo-bust/")
    assert again.status_code == 409 and "is not busted" in again.json()["detail"] and AuditEvent.objects.count() == events


def test_a_cashier_may_not_undo_a_bust_or_set_special_needs(client, cashier, floor, tournament, seated):
    busts.bust_entry(seated[1], actor=floor)
    client.force_login(cashier)
    events = AuditEvent.objects.count()
    assert api(client, f"tournaments/{tournament.pk}/entries/{seated[1].number}/undo-bust/").status_code == 403
    assert api(client, f"tournaments/{tournament.pk}/entries/{seated[2].number}/bust/").status_code == 403
    request_path = f"tournaments/{tournament.pk}/players/{seated[2].player_id}/seat-request/"
    assert api(client, request_path, {"accessible": True}).status_code == 403
    assert not SeatRequest.objects.exists() and AuditEvent.objects.count() == events


def test_special_needs_request_is_saved_refused_when_wrong_and_cancelled(client, floor, tournament, seated):
    client.force_login(floor)
    path = f"tournaments/{tournament.pk}/players/{seated[2].player_id}/seat-request/"
    refused = api(client, path, {"seat": 3})
    assert refused.status_code == 400 and refused.json()["fields"] == {"table": ["A fixed seat needs its table."]}
    assert not SeatRequest.objects.exists()
    refused = api(client, path, {"table": "x"})
    assert refused.status_code == 400 and "table" in refused.json()["fields"] and not SeatRequest.objects.exists()
    assert api(client, path, {"table": 2, "seat": 5, "note": "left-handed"}).status_code == 200
    request = SeatRequest.objects.get(cancelled_at__isnull=True)
    assert (request.table_number, request.seat, request.note) == (2, 5, "left-handed")
    page = client.get(f"/t/{tournament.pk}/entries/{seated[2].number}/").content.decode()
    assert "left-handed" in page and 'data-method="delete"' in page
    assert api(client, path, method="DELETE").status_code == 204
    assert not SeatRequest.objects.filter(cancelled_at__isnull=True).exists()
