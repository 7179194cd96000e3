"""A satellite through the screens, in a real browser: the director makes a tournament a satellite of the
Main Event on its payouts page, the floor busts the seat bubble on an entry's page and play stops at the seats (a
further bust is refused, with the reason), the tickets show, and the desk registers a seat winner into the Main Event
with his ID checked and no payment: the receipt says "satellite ticket" and the Main Event's pool counts it."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from payouts.models import Satellite, Ticket
from payouts.services import tickets
from tests.browser.conftest import login
from tests.helpers import id_doc
from tests.payouts.conftest import bust_down_to, make_main_event, make_satellite
from tournament.models import Entry, Player, Purchase
from tournament.selectors.stats import tournament_stats
from tournament.services import registration as tournament_services

pytestmark = pytest.mark.browser


def test_a_satellite_plays_down_to_its_seats_and_its_winners_register_into_the_target(
    live_asgi, browser, director, floor, cashier, template
):
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


# A TV that draws no frame yet (a kiosk's browser still in the background, a screenshot taken at once): no animation
# frame and no resize observer ever comes. What the lobby shows must already fit.
NO_FRAMES = "window.requestAnimationFrame = () => 0; window.ResizeObserver = undefined;"
FITS = """(el) => el.scrollHeight <= el.clientHeight + 1 && el.scrollWidth <= el.clientWidth + 1
  && el.getBoundingClientRect().bottom <= el.closest('.l-box').getBoundingClientRect().bottom"""


def test_the_lobby_says_play_has_stopped_and_the_seat_winners_names_fit_at_once_and_after_a_resize(
    live_asgi, browser, director, floor, cashier, template
):
    main_event = make_main_event(director, template)
    satellite = make_satellite(director, cashier, template, main_event)
    bust_down_to(floor, satellite, 2)
    winners = Entry.objects.filter(tournament=satellite, status=Entry.Status.ACTIVE).order_by("number")
    for entry, (first, last) in zip(winners, [("Zuzana", "Kováčová-Procházková"), ("Michal", "Kučera-Lobkowicz")], strict=True):
        player = Player.objects.get(pk=entry.player_id)
        player.first_name, player.last_name = first, last
        player.save()
    token = tournament_services.create_display_token(satellite, actor=director, label="Lobby TV").token

    context = browser.new_context(viewport={"width": 1920, "height": 1080}, locale="en")
    context.add_init_script(NO_FRAMES)
    tv = context.new_page()
    tv.goto(f"{live_asgi}/display/{token}/")
    expect(tv.locator("#lobby-winner")).to_contain_text("Kučera-Lobkowicz")
    # The stopped state is said where the TV shows it (the figures' seat line is not shown at the end).
    expect(tv.locator("#lobby-winner-label")).to_have_text("PLAY HAS STOPPED\u00a0· 2 seats won")
    expect(tv.locator("#lobby-winner-label")).to_be_visible()
    assert tv.locator("#lobby-winner").evaluate(FITS), "the names are cut before the TV draws a frame"
    assert tv.locator("#lobby-winner-label").evaluate(FITS)
    context.close()

    # Another TV size after the names were fitted (the clock's box is hidden at the end): fitted again.
    tv = browser.new_context(viewport={"width": 1920, "height": 1080}, locale="en").new_page()
    tv.goto(f"{live_asgi}/display/{token}/")
    expect(tv.locator("#lobby-winner")).to_contain_text("Kučera-Lobkowicz")
    for size in ({"width": 1366, "height": 768}, {"width": 1080, "height": 1920}, {"width": 1920, "height": 1080}):
        tv.set_viewport_size(size)
        tv.wait_for_function(f"(el) => ({FITS})(el)", arg=tv.locator("#lobby-winner").element_handle(), polling=100)
        assert tv.locator("#lobby-winner-label").evaluate(FITS), size
    tv.context.close()


def test_the_seat_bubble_line_is_read_from_five_metres(live_asgi, browser, director, floor, cashier, template):
    main_event = make_main_event(director, template)
    satellite = make_satellite(director, cashier, template, main_event)
    bust_down_to(floor, satellite, 3)
    token = tournament_services.create_display_token(satellite, actor=director, label="Lobby TV").token
    for size in ({"width": 1920, "height": 1080}, {"width": 1366, "height": 768}, {"width": 1080, "height": 1920}):
        tv = browser.new_context(viewport=size, locale="en").new_page()
        tv.goto(f"{live_asgi}/display/{token}/")
        jump = tv.locator("#lobby-jump")
        expect(jump).to_have_text("SEAT BUBBLE · 2 seats: play stops at 2 players")
        tv.wait_for_selector("#live.live")
        # At least 2 % of the screen's height (portrait: width), as the label above it, not the 1.2 % it was shrunk to.
        assert jump.evaluate("(el) => parseFloat(getComputedStyle(el).fontSize) >= 0.02 * Math.min(innerWidth, innerHeight)"), (
            size,
            jump.evaluate("(el) => getComputedStyle(el).fontSize"),
        )
        assert jump.evaluate(FITS), size
        tv.context.close()


def test_the_targets_registration_keeps_the_used_tickets_listed_with_their_entries(live_asgi, browser, director, floor, cashier, template):
    main_event = make_main_event(director, template)
    satellite = make_satellite(director, cashier, template, main_event)
    bust_down_to(floor, satellite, 2)
    used, unused = Ticket.objects.order_by("number")
    entry = tickets.register_with_ticket(used, actor=cashier, document=id_doc(f"EA{used.won_by.number - 1:07d}"))
    page = browser.new_context(viewport={"width": 390, "height": 844}).new_page()
    login(page, live_asgi, cashier.username)
    page.goto(f"{live_asgi}/t/{main_event.pk}/register/")
    rows = page.locator("#ticket-list tbody tr")
    assert rows.count() == 2
    assert rows.nth(0).locator(f"#ticket-choose-{unused.pk}").is_visible()  # to register first, the used one below
    assert f"used: entry #{entry.number}" in rows.nth(1).inner_text() and used.holder.display_name in rows.nth(1).inner_text()
    assert rows.nth(1).get_attribute("id") == f"ticket-used-{used.pk}"
    assert rows.nth(1).locator("a").get_attribute("href") == f"/t/{main_event.pk}/entries/{entry.number}/"
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    page.context.close()
