"""A satellite through the screens, in a real browser (issue 27): the director makes a tournament a satellite of the
Main Event on its payouts page, the floor busts the seat bubble on an entry's page and play stops at the seats (a
further bust is refused, with the reason), the tickets show, and the desk registers a seat winner into the Main Event
with his ID checked and no payment: the receipt says "satellite ticket" and the Main Event's pool counts it."""
from __future__ import annotations

import pytest

from payouts.models import Satellite, Ticket
from tests.browser.conftest import login
from tests.payouts.conftest import bust_down_to, make_main_event, make_satellite
from tournament.models import Entry, Purchase
from tournament.stats import tournament_stats

pytestmark = pytest.mark.browser


def test_a_satellite_plays_down_to_its_seats_and_its_winners_register_into_the_target(live_asgi, browser, director, floor,
                                                                                      cashier, template):
    main_event = make_main_event(director, template)
    satellite = make_satellite(director, cashier, template, main_event)
    Satellite.objects.filter(tournament=satellite).delete()  # made again below, on the screen
    base = live_asgi
    page = browser.new_context(viewport={"width": 1280, "height": 900}).new_page()
    page.on("dialog", lambda dialog: dialog.accept())

    # The director: a satellite of the Main Event, the cash left over to the seat winners.
    login(page, base, director.username)
    page.goto(f"{base}/t/{satellite.pk}/payouts/")
    page.select_option("#satellite-target", str(main_event.pk))
    page.select_option("#satellite-leftover", "seat_winners")
    page.click("#satellite-save")
    page.wait_for_selector("#satellite-state")
    assert "2 seats in Main Event" in page.inner_text("#satellite-state")
    assert "play stops at 2 players" in page.inner_text("#satellite-state")
    assert "shared by the seat winners" in page.inner_text("#satellite-cash")

    # The floor: down to the bubble, then the bust that stops play, on the entry's page.
    bust_down_to(floor, satellite, 3)
    login(page, base, floor.username)
    bubble = Entry.objects.filter(tournament=satellite, status=Entry.Status.ACTIVE).order_by("number").first()
    page.goto(f"{base}/t/{satellite.pk}/entries/{bubble.number}/")
    page.click("#bust")
    page.wait_for_selector(".api-say")
    page.wait_for_function("() => !document.getElementById('bust')")
    winners = list(Entry.objects.filter(tournament=satellite, status=Entry.Status.ACTIVE).order_by("number"))
    assert sorted(Ticket.objects.values_list("won_by__number", flat=True)) == [e.number for e in winners]
    page.goto(f"{base}/t/{satellite.pk}/entries/{winners[0].number}/")
    page.click("#bust")
    page.wait_for_selector(".api-say.refused")
    assert "Play has stopped" in page.inner_text(".api-say")
    assert Entry.objects.get(pk=winners[0].pk).status == Entry.Status.ACTIVE
    page.goto(f"{base}/t/{satellite.pk}/payouts/")
    assert "Play has stopped: the seats are won" in page.inner_text("#satellite")
    assert page.locator("#satellite-tickets tbody tr").count() == 2

    # The desk: the Main Event's registration lists the tickets; one is registered with the holder's ID, no money.
    login(page, base, cashier.username)
    ticket = Ticket.objects.get(won_by=winners[0])
    page.goto(f"{base}/t/{main_event.pk}/register/")
    page.click(f"#ticket-choose-{ticket.pk}")
    page.wait_for_url(f"{base}/t/{main_event.pk}/register/?ticket={ticket.pk}#tickets")
    page.wait_for_load_state()  # the page's scripts have run: the ticket's form is sent through the API
    page.wait_for_selector("#ticket-form")
    assert page.inner_text("#ticket-holder") == winners[0].player.display_name
    page.select_option("#ticket-document-type", "id_card")
    page.fill("#ticket-document-number", f"EA{winners[0].number - 1:07d}")
    page.click("#ticket-register")  # not seen in person: refused, nothing registered
    page.wait_for_selector(".api-say.refused")
    assert not Entry.objects.filter(tournament=main_event).exists()
    page.check("#ticket-seen")
    page.click("#ticket-register")
    page.wait_for_url(f"{base}/t/{main_event.pk}/receipts/*/")
    assert "Satellite ticket" in page.inner_text("body")
    entry = Entry.objects.get(tournament=main_event)
    assert entry.player_id == winners[0].player_id and entry.purchases.get().paid_with == Purchase.PaidWith.TICKET
    assert tournament_stats(main_event)["prize_pool"] == main_event.buy_in
    ticket.refresh_from_db()
    assert (ticket.status, ticket.used_entry_id) == (Ticket.Status.USED, entry.pk)
