"""The buy-in receipt tells the player where to sit: the table and seat the entry holds, on the
page printed on 80 mm or A4 and in the PDF; before the start draw it says the seat is drawn at the start,
and an entry out of play gets no seat line at all."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse
from django.utils import translation

from tables.selectors.state import seat_of
from tables.services import busts, draws
from tests.helpers import open_tables, register
from tournament.models import Purchase
from tournament.selectors.receipts import receipt_lines, receipt_pdf


def lines_of(entry) -> dict[str, str]:
    with translation.override("en"):
        return {str(label): value for label, value in receipt_lines(entry.purchases.get(kind=Purchase.Kind.BUY_IN))}


def receipt_page(client, tournament, entry) -> str:
    number = entry.purchases.get(kind=Purchase.Kind.BUY_IN).number
    return client.get(reverse("receipt", args=[tournament.pk, number]), HTTP_ACCEPT_LANGUAGE="en").content.decode()


def pdf_height_mm(pdf: bytes) -> float:
    """The height of an 80 mm receipt's page: it grows by 6 mm a printed line."""
    return float(re.search(rb"/MediaBox \[\s*0 0 [\d.]+ ([\d.]+)", pdf).group(1)) / 72 * 25.4


def test_the_receipt_shows_the_table_and_seat_drawn_at_registration(client, director, cashier, floor, tournament):
    open_tables(director, tournament, [1, 2])
    early = register(cashier, tournament, 6)
    draws.draw_start(tournament, actor=director)
    late = register(cashier, tournament, 1, start=6)[0]  # after the start draw: seated at once
    for entry in (early[0], late):
        seat = seat_of(entry)
        lines = lines_of(entry)
        assert (lines["Table"], lines["Seat"]) == (str(seat.table.number), str(seat.seat))
        client.force_login(cashier)
        page = receipt_page(client, tournament, entry)
        assert f"<dt>Table</dt><dd>{seat.table.number}</dd><dt>Seat</dt><dd>{seat.seat}</dd>" in page
    with translation.override("en"):
        purchase = late.purchases.get()
        pdf = receipt_pdf(purchase)
        assert pdf_height_mm(pdf) == pytest.approx(30 + 6 * len(receipt_lines(purchase)), abs=0.1)


def test_before_the_start_draw_the_receipt_says_the_seat_is_drawn_at_the_start(client, cashier, tournament):
    entry = register(cashier, tournament, 1)[0]
    lines = lines_of(entry)
    assert lines["Seat"] == "drawn at the start" and "Table" not in lines
    client.force_login(cashier)
    assert "<dt>Seat</dt><dd>drawn at the start</dd>" in receipt_page(client, tournament, entry)
    with translation.override("cs"):
        assert ("Místo", "vylosováno na začátku") in [(str(k), v) for k, v in receipt_lines(entry.purchases.get())]


def test_an_entry_out_of_play_gets_no_seat_on_its_receipt(director, cashier, floor, tournament):
    open_tables(director, tournament, [1])
    entries = register(cashier, tournament, 3)
    draws.draw_start(tournament, actor=director)
    busts.bust_entry(entries[0], actor=floor)
    entries[0].refresh_from_db()
    lines = lines_of(entries[0])
    assert "Table" not in lines and "Seat" not in lines
