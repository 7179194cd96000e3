"""A satellite on the screens: the payouts page says its seats and where play stops and lists its tickets,
the director sets it up and passes a ticket on, the target's registration page lists the tickets to register, the
receipt says "satellite ticket", the cashier's reconciliation counts tickets apart from cash, the lobby says
"N seats: play stops at N players"."""

from __future__ import annotations

import csv
import io
import re

from live.snapshots import lobby_snapshot
from payouts.models import Ticket
from payouts.services import tickets
from tests.helpers import id_doc
from tests.payouts.conftest import SEAT, bust_down_to
from tournament.models import Entry
from tournament.services import registration as tournament_services
from web.templatetags.money import money


def text(response) -> str:
    assert response.status_code == 200, response.status_code
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", response.content.decode()))


def test_the_payouts_page_says_the_seats_and_the_director_sets_the_satellite(client, director, dealer, tournament, main_event, satellite):
    client.force_login(director)
    page = client.get(f"/t/{tournament.pk}/payouts/").content.decode()
    assert 'id="satellite-form"' in page and f'value="{main_event.pk}"' in page and 'id="satellite-none"' in page
    words = text(client.get(f"/t/{satellite.pk}/payouts/"))
    assert "2 seats in Main Event, worth" in words and "play stops at 2 players" in words
    assert "left over goes to place 3, the first without a seat" in words
    assert "No ticket yet" in words and 'id="plan-form"' not in client.get(f"/t/{satellite.pk}/payouts/").content.decode()
    # A seat worth the Main Event's buy-in alone: said, and chosen in the form.
    tickets.set_satellite(satellite, actor=director, data={"seat": "buy_in"})
    page = client.get(f"/t/{satellite.pk}/payouts/").content.decode()
    assert '<option value="buy_in" selected>' in page and "3 seats in Main Event" in text(client.get(f"/t/{satellite.pk}/payouts/"))
    assert "the house waives the fee for a ticket." in page.split('id="satellite-seat"', 1)[1].split("</p>", 1)[0]
    client.force_login(dealer)
    page = client.get(f"/t/{satellite.pk}/payouts/").content.decode()
    assert 'id="satellite-state"' in page and 'id="satellite-form"' not in page and 'id="satellite-tickets"' not in page
    client.force_login(dealer)
    assert 'id="satellite"' not in client.get(f"/t/{tournament.pk}/payouts/").content.decode()  # not one: nothing said


def test_the_tickets_are_listed_and_the_director_finds_the_player_to_pass_one_to(client, director, cashier, floor, satellite, player):
    bust_down_to(floor, satellite, 2)
    client.force_login(cashier)
    page = client.get(f"/t/{satellite.pk}/payouts/").content.decode()
    assert 'id="ticket-1"' in page and 'id="ticket-2"' in page and 'id="transfer-1"' not in page
    assert "Play has stopped: the seats are won" in text(client.get(f"/t/{satellite.pk}/payouts/"))
    tickets.set_satellite(satellite, actor=director, data={"transferable": True})
    client.force_login(director)
    page = client.get(f"/t/{satellite.pk}/payouts/?transfer=1&q={player.last_name}").content.decode()
    assert 'id="transfer-1"' in page and 'id="transfer-panel"' in page and f'id="transfer-to-{player.pk}"' in page
    assert f'data-api="tournaments/{satellite.pk}/tickets/1/transfer/"' in page


def test_the_target_registers_a_ticket_and_its_receipt_and_books_say_so(client, cashier, floor, satellite, main_event):
    bust_down_to(floor, satellite, 2)
    ticket = Ticket.objects.get(number=1)
    client.force_login(cashier)
    page = client.get(f"/t/{main_event.pk}/register/").content.decode()
    assert 'id="ticket-list"' in page and ticket.holder.display_name in page and 'id="ticket-form"' not in page
    page = client.get(f"/t/{main_event.pk}/register/?ticket={ticket.pk}").content.decode()
    assert f'data-api="tournaments/{satellite.pk}/tickets/1/register/"' in page and 'id="ticket-seen"' in page
    entry = tickets.register_with_ticket(ticket, actor=cashier, document=id_doc(f"EA{ticket.won_by.number - 1:07d}"))
    receipt = entry.purchases.get()
    assert "Satellite ticket" in text(client.get(f"/t/{main_event.pk}/receipts/{receipt.number}/"))
    assert f'id="ticket-choose-{ticket.pk}"' not in client.get(f"/t/{main_event.pk}/register/").content.decode()  # used
    books = client.get(f"/t/{main_event.pk}/payouts/reconciliation/").content.decode()
    assert 'id="rec-tickets-in"' in books
    assert 'id="rec-seats-out"' in client.get(f"/t/{satellite.pk}/payouts/reconciliation/").content.decode()


def test_the_lobby_says_the_seats_and_where_play_stops(floor, director, satellite):
    bust_down_to(floor, satellite, 3)
    snapshot = lobby_snapshot(satellite)
    assert snapshot["payouts"]["satellite"] == {"seats": 2, "stops_at": 2, "seat_value": 11_500, "cash": 7_000}
    assert snapshot["final"] is None
    bust_down_to(floor, satellite, 2)
    final = lobby_snapshot(satellite)["final"]
    assert final["seats_in"] == "Main Event" and [row["seat"] for row in final["results"]] == [True, True, False]
    tournament_services.set_registration_closed(satellite, actor=director, closed=True)


def test_a_seat_winners_phone_says_the_seat_he_won(client, floor, satellite):
    bust_down_to(floor, satellite, 3)
    third = Entry.objects.filter(tournament=satellite, status=Entry.Status.ACTIVE).order_by("number").first()
    assert client.get(f"/api/public/tournaments/{satellite.pk}/seats/{third.number}/").json()["seat_won"] is None  # play goes on
    bust_down_to(floor, satellite, 2)
    winner = Entry.objects.filter(tournament=satellite, status=Entry.Status.ACTIVE).order_by("number").first()
    assert client.get(f"/api/public/tournaments/{satellite.pk}/seats/{winner.number}/").json()["seat_won"] == "Main Event"
    out = client.get(f"/api/public/tournaments/{satellite.pk}/seats/{third.number}/").json()
    assert (out["seat_won"], out["place"], out["prize"]) == (None, 3, 7_000)
    assert 'id="seat-won"' in client.get(f"/s/{satellite.pk}/{winner.number}/").content.decode()


def test_the_results_csv_and_pdf_say_who_won_a_seat(client, cashier, floor, satellite):
    bust_down_to(floor, satellite, 2)
    client.force_login(cashier)
    rows = list(csv.reader(io.StringIO(client.get(f"/t/{satellite.pk}/payouts/results/csv/").content.decode("utf-8-sig"))))
    assert rows[0][-1] == "Seat won" and [row[-1] for row in rows[1:4]] == ["yes", "yes", ""]
    assert rows[3][3] == "70.00" and rows[1][3] == ""  # third place's cash; the seat winners' prize is the seat
    pdf = client.get(f"/t/{satellite.pk}/payouts/results/pdf/")
    assert pdf.status_code == 200 and pdf.content.startswith(b"%PDF")
    words = text(client.get(f"/t/{satellite.pk}/payouts/"))
    assert "a seat in Main Event" in words


def cells(html: str, row: str) -> list[str]:
    """The text of a table row's cells, by the row's id."""
    found = re.search(rf'<tr id="{row}">(.*?)</tr>', html, re.S)
    assert found, row
    return [
        re.sub(r"\s+", " ", re.sub(r"<[^>]+>", "", cell)).strip() for cell in re.findall(r"<t[dh][^>]*>(.*?)</t[dh]>", found.group(1), re.S)
    ]


def shown(amount: int, currency: str) -> str:
    """An amount as the page's text reads (spaces made plain, as text() does)."""
    return re.sub(r"\s+", " ", money(amount, currency))


def test_the_targets_books_say_the_cash_taken_and_the_tickets_apart(client, cashier, floor, satellite, main_event):
    bust_down_to(floor, satellite, 2)
    for ticket in Ticket.objects.order_by("number"):
        tickets.register_with_ticket(ticket, actor=cashier, document=id_doc(f"EA{ticket.won_by.number - 1:07d}"))
    client.force_login(cashier)
    html = client.get(f"/t/{main_event.pk}/payouts/reconciliation/").content.decode()
    cur = main_event.currency
    # Takings: two buy-ins paid with tickets; no cash taken, and the tickets on their own line.
    assert cells(html, "rec-buy_in")[:5] == ["Buy-in", "2", shown(20_000, cur), shown(3_000, cur), shown(0, cur)]
    assert cells(html, "rec-tickets")[:5] == [
        "Of which paid with satellite tickets (no cash)",
        "2",
        shown(20_000, cur),
        shown(3_000, cur),
        "–",
    ]
    assert re.search(r'id="rec-cash-in">([^<]*)<', html).group(1) == money(0, cur)  # the closing says the same
    # The prize pool: the tickets' prize part under the buy-ins' prize part.
    words = text(client.get(f"/t/{main_event.pk}/payouts/reconciliation/"))
    assert f"Of which paid with satellite tickets (2 buy-ins) {shown(20_000, cur)}" in words
    assert f"From the buy-ins (prize part of the receipts paid) {shown(20_000, cur)}" in words


def test_the_satellites_books_say_its_seat_winners_won_seats_once_play_stopped(client, cashier, floor, satellite):
    client.force_login(cashier)
    bust_down_to(floor, satellite, 3)
    assert "Still in play (3 players left)" in text(client.get(f"/t/{satellite.pk}/payouts/reconciliation/"))
    bust_down_to(floor, satellite, 2)
    words = text(client.get(f"/t/{satellite.pk}/payouts/reconciliation/"))
    assert "Still in play" not in words
    assert "In play: nobody. Play has stopped: 2 players won seats, as tickets." in words
    assert f"Seats won, as tickets (2 seats) {shown(2 * SEAT, satellite.currency)}" in words
