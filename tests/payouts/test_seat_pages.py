"""A satellite's seats on the staff's pages (as a play-through found them): a seat winner's results page says the seat
he won where a cash prize would be ("Seat: <target>", not "—"); the target's registration keeps a used ticket listed,
below the ones to register, with the entry it registered; the payouts page says its state on a line of its own."""

from __future__ import annotations

import re

from leagues.selectors.player_results import player_results
from payouts.models import Ticket
from payouts.services import tickets
from tests.helpers import id_doc
from tests.payouts.conftest import bust_down_to
from tournament.models import Entry


def test_a_seat_winners_results_say_the_seat_he_won_in_the_prize_column(client, cashier, floor, satellite, main_event):
    bust_down_to(floor, satellite, 2)
    winner = Ticket.objects.get(number=1).won_by
    third = Entry.objects.get(tournament=satellite, finish_place=3)
    row = next(r for r in player_results(winner.player)["tournaments"] if r["tournament"] == satellite.pk)
    assert row["seats"] == [{"target": main_event.pk, "target_name": "Main Event"}] and row["prize"] == 0
    assert next(r for r in player_results(third.player)["tournaments"] if r["tournament"] == satellite.pk)["seats"] == []
    client.force_login(cashier)
    page = client.get(f"/players/{winner.player_id}/").content.decode()
    prize = page.split(f'id="pl-t-{satellite.pk}"', 1)[1].split('data-label="Prize">', 1)[1].split("</td>", 1)[0]
    assert "Seat: Main Event" in prize and "—" not in prize
    assert client.get(f"/api/players/{winner.player_id}/results/").json()["tournaments"][0]["seats"][0]["target"] == main_event.pk
    page = client.get(f"/players/{third.player_id}/").content.decode()
    assert "Seat: " not in page.split(f'id="pl-t-{satellite.pk}"', 1)[1].split("</tr>", 1)[0]


def test_the_targets_registration_lists_a_used_ticket_below_the_ones_to_register(client, cashier, floor, satellite, main_event):
    bust_down_to(floor, satellite, 2)
    used, unused = Ticket.objects.order_by("number")
    entry = tickets.register_with_ticket(used, actor=cashier, document=id_doc(f"EA{used.won_by.number - 1:07d}"))
    client.force_login(cashier)
    page = client.get(f"/t/{main_event.pk}/register/").content.decode()
    assert f'id="ticket-choose-{unused.pk}"' in page and f'id="ticket-choose-{used.pk}"' not in page
    assert page.index(f'id="ticket-choose-{unused.pk}"') < page.index(f'id="ticket-used-{used.pk}"')
    row = page.split(f'id="ticket-used-{used.pk}"', 1)[1].split("</tr>", 1)[0]
    assert used.holder.display_name in row and f"used: entry #{entry.number}" in row
    assert f'href="/t/{main_event.pk}/entries/{entry.number}/"' in row
    # Every ticket used: the list stays, with nothing left to choose.
    tickets.register_with_ticket(unused, actor=cashier, document=id_doc(f"EA{unused.won_by.number - 1:07d}"))
    page = client.get(f"/t/{main_event.pk}/register/").content.decode()
    assert 'id="ticket-list"' in page and "ticket-choose-" not in page and page.count('class="ticket-used"') == 2


def test_the_payouts_page_says_its_state_on_a_line_of_its_own(client, cashier, floor, satellite):
    bust_down_to(floor, satellite, 2)
    client.force_login(cashier)
    page = client.get(f"/t/{satellite.pk}/payouts/").content.decode()
    state = page.split('id="payout-state"', 1)[1].split("</p>", 1)[0]
    assert "badge" not in state and not re.sub(r"\s+", " ", state).rstrip().endswith("·")  # no "·" left at a line's end
    badges = page.split('id="payout-mode"', 1)[1].split("</p>", 1)[0]
    assert badges.count('class="badge') == 2 and 'id="in-the-money"' in badges
