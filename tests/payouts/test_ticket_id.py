"""A ticket is used only against its holder's own ID (payouts/services/tickets.py, club 32): the seat winner shows the document
he played the satellite with, as a prize is paid; a player the ticket passed to shows one his record knows."""

from __future__ import annotations

from payouts.models import Ticket
from payouts.services import tickets
from tests.helpers import id_doc, refused
from tests.payouts.conftest import bust_down_to
from tournament.models import Entry, IdCheck


def nothing_registered(main_event, tk):
    tk.refresh_from_db()
    assert tk.status == Ticket.Status.ISSUED and tk.used_entry is None
    assert not Entry.objects.filter(tournament=main_event).exists()


def test_the_seat_winner_uses_his_ticket_only_with_the_id_he_played_the_satellite_with(satellite, main_event, floor, cashier):
    bust_down_to(floor, satellite, 2)
    tk = Ticket.objects.order_by("number").first()
    checks = IdCheck.objects.count()
    mismatch = refused("id_mismatch", tickets.register_with_ticket, tk, actor=cashier, document=id_doc("XY1234567"))
    assert tk.won_by.id_check.number_last4 in str(mismatch) and tk.holder.display_name in str(mismatch)
    nothing_registered(main_event, tk)
    assert IdCheck.objects.count() == checks  # the refused check leaves no record
    entry = tickets.register_with_ticket(tk, actor=cashier, document=id_doc(f"EA{tk.won_by.number - 1:07d}"))
    assert entry.id_hmac == tk.won_by.id_hmac


def test_a_ticket_passed_on_is_used_with_a_document_its_holder_has_shown_before(satellite, main_event, floor, cashier, director):
    bust_down_to(floor, satellite, 2)
    tickets.set_satellite(satellite, actor=director, data={"transferable": True})
    tk = Ticket.objects.order_by("number").first()
    third = Entry.objects.get(tournament=satellite, finish_place=3)  # out on the seat bubble: the ticket passes to him
    tickets.transfer_ticket(tk, actor=director, player=third.player, reason="Bought it from the winner")
    tk.refresh_from_db()
    for wrong in (f"EA{tk.won_by.number - 1:07d}", "XY1234567"):  # the winner's document, an unknown one
        refused("id_mismatch", tickets.register_with_ticket, tk, actor=cashier, document=id_doc(wrong))
        nothing_registered(main_event, tk)
    entry = tickets.register_with_ticket(tk, actor=cashier, document=id_doc(f"EA{third.number - 1:07d}"))
    assert (entry.player, entry.id_hmac) == (third.player, third.id_hmac)
