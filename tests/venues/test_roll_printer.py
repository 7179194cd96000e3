"""The desk's roll printer (docs/printing.md): the venue's paper and printer set by the director, each paper printed
with one press on a stand-in network printer and its bytes read back; a printer that refuses, never answers or is
offline answers 503 in words and changes nothing; no printer is a 409; bad input a 4xx."""

from __future__ import annotations

from datetime import date

import pytest

from core import roll_printer
from core.pdf import money
from days.services import bags as days_services
from payouts.models import Payment
from payouts.services import structure as payouts_services
from tests.conftest import tournament_data
from tests.helpers import client_for, free_port, id_doc, live_seat, page_as, register
from tests.payouts.test_payments import finish, signature
from tests.venues.stand_in_printer import StandInPrinter
from tournament.models import AuditEvent, Purchase
from tournament.services import registration
from tournament.services import setup as tournament_setup
from venues.services import setup as venue_setup

CUT = b"\x1dV"  # GS V: cut the paper
QR = b"\x1d(k"  # GS ( k: the printer's own QR code
PC852 = b"\x1bt\x12"  # ESC t 18: code page PC852 (Latin 2)


@pytest.fixture
def printer():
    stand_in = StandInPrinter()
    yield stand_in
    stand_in.close()


def set_printer(director, address: str, paper: str = "80"):
    venue = venue_setup.default_venue()
    return client_for(director).patch(f"/api/venues/{venue.pk}/printing/", {"paper": paper, "printer": address}, format="json")


@pytest.fixture
def desk(director, cashier, tournament):
    """A tournament with a Czech name at the desk: Řehoř Žluťoučký's buy-in, receipt 1."""
    player = registration.create_player(actor=cashier, first_name="Řehoř", last_name="Žluťoučký", date_of_birth=date(1980, 5, 1))
    registration.register_entry(tournament, actor=cashier, player=player, document=id_doc("EA7654321"))
    return tournament


def snapshot(t) -> tuple:
    purchases = list(Purchase.objects.filter(tournament=t).order_by("pk").values())
    return purchases, AuditEvent.objects.filter(tournament=t).count(), list(Payment.objects.filter(tournament=t).values("number", "status"))


def test_a_buy_in_receipt_prints_on_the_roll_with_its_number_name_and_amount_then_a_cut(director, cashier, desk, printer):
    assert set_printer(director, printer.address).json() == {"paper": "80", "printer": printer.address}
    answer = client_for(cashier).post(f"/api/tournaments/{desk.pk}/receipts/1/print/", {}, format="json")
    assert answer.status_code == 200, answer.json()
    assert answer.json()["printer"] == printer.address and answer.json()["roll"] == "80"
    data = printer.printed()
    assert data.startswith(b"\x1b@" + PC852) and CUT in data[-8:]
    text = data.decode("cp852", errors="replace")
    assert "Buy-in receipt" in text and "Řehoř Žluťoučký" in text
    assert "Receipt:" in text and text.split("Receipt:")[1].split("\n")[0].strip() == "1"
    purchase = Purchase.objects.get(tournament=desk, number=1)
    total = roll_printer.printable(money(purchase.total, desk.currency))
    assert f"Total:{total.rjust(48 - len('Total:'))}" in text  # the total, as the page says it, at the line's right
    event = AuditEvent.objects.get(tournament=desk, type="venue.printed")
    assert event.payload == {"paper": "receipt", "number": 1, "printer": printer.address, "roll": "80"}


def test_a_seat_ticket_has_the_printers_qr_code_of_the_seat_page_on_a_58_mm_roll(director, cashier, room, printer):
    set_printer(director, printer.address, paper="58")
    entry = register(cashier, room, 1, start=40)[0]
    seat = live_seat(entry)
    answer = client_for(cashier).post(f"/api/tournaments/{room.pk}/entries/{entry.number}/seat-ticket/print/", {}, format="json")
    assert answer.status_code == 200, answer.json()
    assert answer.json()["roll"] == "58"
    data = printer.printed()
    qr = data.index(QR)
    assert f"/s/{room.pk}/{entry.number}/".encode() in data[qr:]  # the QR code's payload: his seat page
    text = data.decode("cp852", errors="replace")
    assert f"Table {seat.table.number}" in text and f"Seat {seat.seat}" in text and f"Entry #{entry.number}" in text
    assert CUT in data[-8:]
    cards = page_as(cashier, f"/t/{room.pk}/seat-cards/").content.decode()  # each card has its button, for the house's roll
    assert f'data-api="tournaments/{room.pk}/entries/{entry.number}/seat-ticket/print/"' in cards
    assert cards.count('name="roll" value="58"') == 13 and 'class="staff paper-58"' in cards


def test_a_bag_slip_and_a_payout_receipt_print_their_words(director, cashier, floor, tournament, printer):
    entries = finish(director, cashier, floor, tournament)
    set_printer(director, printer.address)
    still_in = entries[5]
    days_services.record_bag(still_in, actor=floor, chips=30000, bag="A-17")
    answer = client_for(floor).post(f"/api/tournaments/{tournament.pk}/entries/{still_in.number}/bag-slip/print/", {}, format="json")
    assert answer.status_code == 200, answer.json()
    text = printer.printed().decode("cp852", errors="replace")
    assert "A-17" in text and "30,000" in text and "Floor's signature" in text and "Bag" in text
    slips = page_as(floor, f"/t/{tournament.pk}/day/slips/").content.decode()
    assert f'data-api="tournaments/{tournament.pk}/entries/{still_in.number}/bag-slip/print/"' in slips
    assert '<input type="hidden" name="day" value="1">' in slips and "A-17" in slips
    payment = payouts_services.pay_prize(entries[4], actor=cashier, document=id_doc("EA0000004"), signature=signature())
    answer = client_for(cashier).post(f"/api/tournaments/{tournament.pk}/payments/{payment.number}/print/", {"roll": "58"}, format="json")
    assert answer.status_code == 200, answer.json()
    data = printer.printed(jobs=2)
    assert b"Payout receipt" in data and b"\x1dv0" in data and CUT in data[-8:]  # the signature as raster dots


@pytest.mark.parametrize("kind", ["refused", "silent", "offline"])
def test_a_printer_that_refuses_never_answers_or_is_offline_is_a_503_in_words_and_nothing_changes(
    director, cashier, desk, monkeypatch, kind
):
    monkeypatch.setattr(roll_printer, "TIMEOUT", 0.5)
    stand_in = None if kind == "refused" else StandInPrinter(kind)
    address = f"127.0.0.1:{free_port()}" if stand_in is None else stand_in.address
    set_printer(director, address)
    before = snapshot(desk)
    try:
        answer = client_for(cashier).post(f"/api/tournaments/{desk.pk}/receipts/1/print/", {}, format="json")
        assert answer.status_code == 503
        detail = answer.json()["detail"]
        assert detail.startswith(f"The printer at {address} did not answer: ")
        assert {"refused": "refused the connection", "silent": "no answer within 0.5 seconds", "offline": "offline"}[kind] in detail
        assert detail.endswith("; nothing was lost, print it again or on paper.")
        assert snapshot(desk) == before  # no event, the receipt as it was
        if stand_in is not None:
            assert PC852 not in stand_in.printed()  # asked its status, sent nothing
    finally:
        if stand_in is not None:
            stand_in.close()
    again = StandInPrinter()
    try:
        set_printer(director, again.address)
        assert client_for(cashier).post(f"/api/tournaments/{desk.pk}/receipts/1/print/", {}, format="json").status_code == 200
        assert b"Buy-in receipt" in again.printed()  # printed again once the printer answers
    finally:
        again.close()


def test_a_room_with_no_printer_shows_no_button_and_the_api_answers_409(director, cashier, desk):
    answer = client_for(cashier).post(f"/api/tournaments/{desk.pk}/receipts/1/print/", {}, format="json")
    assert answer.status_code == 409 and answer.json()["error"] == "no_printer" and "no roll printer" in answer.json()["detail"]
    page = page_as(cashier, f"/t/{desk.pk}/receipts/1/")
    assert page.status_code == 200 and 'id="print-roll"' not in page.content.decode()
    set_printer(director, "10.0.0.5")
    assert 'id="print-roll"' in page_as(cashier, f"/t/{desk.pk}/receipts/1/").content.decode()


def test_bad_input_is_a_4xx_and_prints_nothing(director, cashier, dealer, desk, template, printer):
    set_printer(director, printer.address)
    other = tournament_setup.create_tournament(tournament_data(name="Other"), actor=director, template=template)
    register(cashier, other, 2)
    api = client_for(cashier)
    assert api.post(f"/api/tournaments/{desk.pk}/receipts/99/print/", {}, format="json").status_code == 404
    assert api.post(f"/api/tournaments/{desk.pk}/receipts/2/print/", {}, format="json").status_code == 404  # the other's receipt 2
    assert api.post(f"/api/tournaments/{desk.pk}/receipts/1/print/", {"roll": "a4"}, format="json").status_code == 400
    assert api.post(f"/api/tournaments/{desk.pk}/receipts/1/print/", {"roll": "12"}, format="json").status_code == 400
    assert api.post(f"/api/tournaments/{desk.pk}/entries/1/seat-ticket/print/", {}, format="json").status_code == 404  # no seat
    assert api.post(f"/api/tournaments/{desk.pk}/entries/1/bag-slip/print/", {}, format="json").status_code == 403  # the floor's
    assert client_for(dealer).post(f"/api/tournaments/{desk.pk}/receipts/1/print/", {}, format="json").status_code == 403
    assert printer.jobs == [] and not AuditEvent.objects.filter(type="venue.printed").exists()


def test_the_director_sets_the_paper_and_the_printer_and_a_bad_one_changes_nothing(director, cashier):
    venue = venue_setup.default_venue()
    api = client_for(director)
    for body in ({"printer": "10.0.0.5:99999"}, {"printer": "not a host"}, {"paper": "a5"}, {"printr": "10.0.0.5"}):
        answer = api.patch(f"/api/venues/{venue.pk}/printing/", body, format="json")
        assert answer.status_code == 400, body
    venue.refresh_from_db()
    assert (venue.paper, venue.printer) == ("80", "")
    assert api.patch(f"/api/venues/{venue.pk}/printing/", {"printer": "printer.local"}, format="json").json() == {
        "paper": "80",
        "printer": "printer.local:9100",
    }
    assert api.patch(f"/api/venues/{venue.pk}/printing/", {"paper": "58"}, format="json").json()["printer"] == "printer.local:9100"
    assert api.patch(f"/api/venues/{venue.pk}/printing/", {"printer": ""}, format="json").json() == {"paper": "58", "printer": ""}
    assert client_for(cashier).patch(f"/api/venues/{venue.pk}/printing/", {"paper": "a4"}, format="json").status_code == 403
    assert AuditEvent.objects.filter(type="venue.printing", tournament=None).count() == 3


def test_the_print_views_take_the_house_paper_or_the_one_asked(director, cashier, desk):
    set_printer(director, "", paper="58")
    page = page_as(cashier, f"/t/{desk.pk}/receipts/1/").content.decode()
    assert 'class="staff paper-58"' in page and "venues-paper-58" in page
    page = page_as(cashier, f"/t/{desk.pk}/receipts/1/?paper=a4").content.decode()
    assert 'class="staff paper-a4"' in page and "venues-paper-a4" in page
    answer = page_as(cashier, f"/t/{desk.pk}/receipts/1/?paper=letter")
    assert answer.status_code == 400 and "letter" in answer.content.decode()


def test_the_roll_holds_48_characters_a_line_on_80_mm_and_32_on_58_and_letters_it_cannot_print_lose_their_accent():
    blocks = [("line", "Player", "Procházková-Dvořáková Markéta Ludmila"), ("text", "x " * 40), ("big", "Table 12")]
    for roll, width in (("80", 48), ("58", 32)):
        rows = roll_printer.line_pair("Player", "Procházková-Dvořáková Markéta Ludmila", width)
        assert all(len(row) <= width for row in rows) and "".join(rows).replace(" ", "").endswith("Ludmila")
        assert roll_printer.render(blocks, roll).count(b"\n") >= 3
    assert roll_printer.printable("Łódź · 1 100 Kč") == "Łódź - 1 100 Kč"
    assert roll_printer.printable("Muñoz Bergære €") == "Munoz Berg?re EUR"
    assert roll_printer.parse_address("10.0.0.5") == ("10.0.0.5", 9100)
    assert roll_printer.parse_address("[fd00::5]:9101") == ("fd00::5", 9101)
    for bad in ("", "10.0.0.5:0", "10.0.0.5:x", "a b", "http://10.0.0.5", "[zz]:1"):
        with pytest.raises(ValueError):
            roll_printer.parse_address(bad)
