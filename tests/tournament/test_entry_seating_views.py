"""The entry page's seating actions: seat shown, undo of a bust, special-needs request (TDA 6)."""
import pytest

from tables import busts, draws, selectors
from tables.models import SeatRequest
from tests.tables.test_seating_services import open_tables, register
from tournament.models import AuditEvent, Entry


@pytest.fixture
def seated(director, cashier, tournament):
    open_tables(director, tournament, [1, 2])
    entries = register(cashier, tournament, 6)
    draws.draw_start(director, tournament)
    return entries


def test_the_entry_page_shows_the_seat(client, floor, tournament, seated):
    client.force_login(floor)
    seat = selectors.seat_of(seated[0])
    page = client.get(f"/t/{tournament.pk}/entries/{seated[0].number}/").content.decode()
    assert f"Table {seat.table.number}, seat {seat.seat}" in page


def test_floor_busts_and_undoes_from_the_entry_page(client, floor, tournament, seated):
    client.force_login(floor)
    entry, seat = seated[0], selectors.seat_of(seated[0])
    client.post(f"/t/{tournament.pk}/entries/{entry.number}/bust/")
    entry.refresh_from_db()
    assert entry.status == Entry.Status.BUSTED and entry.finish_place == 6 and selectors.seat_of(entry) is None
    client.post(f"/t/{tournament.pk}/entries/{entry.number}/undo-bust/")
    entry.refresh_from_db()
    back = selectors.seat_of(entry)
    assert entry.status == Entry.Status.ACTIVE and entry.finish_place is None
    assert (back.table_id, back.seat) == (seat.table_id, seat.seat)
    # Undoing again is refused with a message and changes nothing.
    events = AuditEvent.objects.count()
    page = client.post(f"/t/{tournament.pk}/entries/{entry.number}/undo-bust/", follow=True).content.decode()
    assert "is not busted" in page and AuditEvent.objects.count() == events


def test_a_cashier_may_not_undo_a_bust_or_set_special_needs(client, cashier, floor, tournament, seated):
    busts.bust_entry(floor, seated[1])
    client.force_login(cashier)
    assert client.post(f"/t/{tournament.pk}/entries/{seated[1].number}/undo-bust/").status_code == 403
    assert client.post(f"/t/{tournament.pk}/entries/{seated[2].number}/seat-request/", {"accessible": "1"}).status_code == 403
    assert not SeatRequest.objects.exists()


def test_special_needs_request_is_saved_refused_when_wrong_and_cancelled(client, floor, tournament, seated):
    client.force_login(floor)
    url = f"/t/{tournament.pk}/entries/{seated[2].number}/seat-request/"
    page = client.post(url, {"seat": "3"}, follow=True).content.decode()
    assert "A fixed seat needs its table." in page and not SeatRequest.objects.exists()
    page = client.post(url, {"table": "x"}, follow=True).content.decode()
    assert "whole numbers" in page and not SeatRequest.objects.exists()
    client.post(url, {"table": "2", "seat": "5", "note": "left-handed"})
    request = SeatRequest.objects.get(cancelled_at__isnull=True)
    assert (request.table_number, request.seat, request.note) == (2, 5, "left-handed")
    client.post(url, {"cancel": "1"})
    assert not SeatRequest.objects.filter(cancelled_at__isnull=True).exists()
