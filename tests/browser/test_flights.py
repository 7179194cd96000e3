"""The events with flights in a real browser: the director makes an event on the events page; on
the event page a flight's end is set, a policy change after entries is refused with the server's words, the carry is
refused while a flight's Day 1 is open, the page follows the flight closing live, and once every flight is closed the
carry (confirmed first) shows the carried and the forfeited lists with their totals. The floor sees "N players left:
this flight ends at the end of this level." appear live on the flight's table map. Under first stack forward the desk
shows the API's refusal of a qualified player. Axe-clean, no CSP or console error, fits a tablet and a phone."""

from __future__ import annotations

from datetime import date
from functools import partial

import pytest

from days.services import bags as days_services
from flights.models import Event, Flight
from flights.services import events
from tables.selectors.state import live_seats
from tables.services import draws
from tables.services import setup as table_setup
from tests.browser import accessibility, sizes
from tests.browser.conftest import login
from tests.browser.csp import csp_problems, watch_errors
from tests.browser.sizes import TABLET
from tests.flights.test_flights import event_with, play_and_bag, register
from tests.helpers import client_for, url
from tournament.models import Entry
from tournament.services import registration as desk

pytestmark = pytest.mark.browser

# Fits a tablet and a phone; with SCREEN_SHOTS set each is shot to /tmp/flights_<name>_<width>.png.
fits = partial(sizes.fits, prefix="flights")

# How far below the first element each other one starts (px, rounded).
TOPS = """(selectors) => {
  const tops = selectors.map((s) => document.querySelector(s).getBoundingClientRect().top);
  return tops.slice(1).map((top) => Math.round(top - tops[0]));
}"""


def said(page) -> str:
    page.wait_for_selector("[data-api-say]:not([hidden])")
    return page.inner_text("[data-api-say]")


def test_the_director_builds_an_event_and_carries_the_bags_to_day2(
    live_asgi,
    browser,
    director,
    cashier,
    floor,  # noqa: PLR0915
    template,
    players,
):
    base = live_asgi
    page = browser.new_context(viewport=TABLET).new_page()
    errors = watch_errors(page)
    questions = []
    page.on("dialog", lambda dialog: (questions.append(dialog.message), dialog.accept()))
    login(page, base, director.username)
    page.click("#flight-events-link")
    page.wait_for_url(f"{base}/events/")
    page.wait_for_load_state()  # the page's scripts have run: the form below is sent through the API
    page.wait_for_selector("#event-create")
    assert accessibility.problems(page) == []
    assert fits(page, "events_empty") == []
    # The name and the policy start on one line, though the policy's radios make its column the taller.
    assert page.evaluate(TOPS, ["#event-create .fl-field:has(#event-name)", "#event-create fieldset"]) == [0]
    assert page.evaluate(TOPS, ["label[for=event-name]", "#event-create legend"]) == [0]

    # A new event through the form: the JSON API, then its page.
    page.fill("#event-name", "Autumn Festival")
    page.check("#event-create input[value=first]")
    page.click("#event-create-go")
    page.wait_for_url(f"{base}/events/*/")
    made = Event.objects.get(name="Autumn Festival")
    assert made.policy == "first" and said(page) == "Event Autumn Festival created."
    assert page.inner_text("#fl-no-flights") == "No flight yet."

    # The event the rest plays with: two flights and Day 2, best stack forward.
    event, (a, b) = event_with(director, template)
    play_and_bag(
        director,
        cashier,
        floor,
        a,
        players[:4],
        {players[0].pk: 30_000, players[1].pk: 25_000, players[2].pk: 12_000, players[3].pk: 13_000},
    )
    table_setup.open_table(b, actor=director, number=1, seats=9)
    register(cashier, b, [players[0], players[4], players[5]])
    draws.draw_start(b, actor=director)
    page.goto(f"{base}/events/{event.pk}/")
    page.wait_for_selector("#live.live")
    assert "Day 1 of flight 1B is not closed yet" in page.inner_text("#carry-open")

    # Flight 1B ends after level 3: saved through the API, said, and shown after the reload.
    page.fill(f"#fl-level-{b.pk}", "3")
    page.click(f"#fl-end-go-{b.pk}")
    page.wait_for_function("() => (document.querySelector('[data-api-say].ok') || {}).textContent === 'Flight 1B: its end is saved.'")
    assert "after level 3" in page.inner_text(f"#fl-flight-{b.pk} [data-field=rules]")
    assert Flight.objects.get(tournament=b).end_after_level == 3

    # The policy cannot change once the flights have entries: the server's words, nothing changed.
    page.check("#policy-set input[value=first]")
    page.click("#policy-set-go")
    page.wait_for_selector("[data-api-say].refused")
    assert "have entries: the stack policy was announced to them and no longer changes" in said(page)
    assert Event.objects.get(pk=event.pk).policy == "best"

    # The carry while 1B is open: asked first, then refused with the server's message; nothing carried.
    page.click("#carry-go")
    page.wait_for_function(
        "() => (document.querySelector('[data-api-say]') || {}).className.includes('refused')"
        " && document.querySelector('[data-api-say]').textContent.includes('1B is not closed')"
    )
    assert "Carry the bags of every flight to Day 2 now?" in questions[-1]
    assert "Day 1 of flight 1B is not closed: the bags go on once every flight is bagged and closed." in said(page)
    assert not Flight.objects.filter(event=event, carried_at__isnull=False).exists()

    # 1B is bagged and closed on the floor: the page follows live (its figures, then a reload for the forms).
    page.evaluate("window.__notReloaded = true")
    seats = live_seats(b).filter(table__number=1).select_related("table", "entry")
    chips = {players[0].pk: 10_000, players[4].pk: 20_000, players[5].pk: 5_000}
    days_services.record_table_bags(
        seats.first().table, actor=floor, bags={s.seat: (chips[s.entry.player_id], f"B-{s.seat}") for s in seats}
    )
    page.wait_for_function(f"() => document.querySelector('#fl-flight-{b.pk} [data-field=bags]').textContent === '3'")
    assert page.evaluate("window.__notReloaded") is True  # figures in place, no reload
    days_services.close_day(b, actor=director, reason="Browser test")
    page.wait_for_function("() => !window.__notReloaded && !document.getElementById('carry-open')")
    page.wait_for_load_state()  # the reloaded page has loaded and its scripts have run: the carry's form is sent through the API
    assert page.inner_text(f"#fl-flight-{b.pk} [data-field=day1]") == "closed"
    assert accessibility.problems(page) == []
    assert fits(page, "event_before_carry") == []

    # The carry: confirmed, said, and the lists with their totals.
    page.click("#carry-go")
    page.wait_for_selector("#carried-list")
    assert said(page) == "6 bags went on to Day 2, 1 forfeited."
    carried = page.inner_text("#carried-list")
    assert all(p.display_name in carried for p in players) and page.inner_text("#carried-total") == "105,000"
    forfeited = page.inner_text("#forfeited-list")
    assert players[0].display_name in forfeited and "1B" in forfeited and page.inner_text("#forfeited-total") == "10,000"
    assert Entry.objects.filter(tournament=event.day2).count() == 6
    assert not page.query_selector("#carry-go") and not page.query_selector(f"#fl-end-{a.pk}")
    assert accessibility.problems(page) == []
    assert fits(page, "event_carried") == []
    page.goto(f"{base}/events/")
    assert "1A, 1B" in page.inner_text(f"#fl-event-{event.pk}")
    assert accessibility.problems(page) == []
    assert fits(page, "events") == []
    # The refusals above are the browser's console lines for their 409 answers; anything else is a fault.
    assert [p for p in csp_problems(page, errors) if "status of 409" not in p] == []


def test_the_floor_sees_live_on_the_map_that_the_flight_ends(live_asgi, browser, director, cashier, floor, template, players):
    base = live_asgi
    event, (a, _b) = event_with(director, template)
    events.set_flight_end(Flight.objects.get(tournament=a), actor=director, share_percent=50)
    table_setup.open_table(a, actor=director, number=1, seats=9)
    entries = register(cashier, a, players[:5])
    draws.draw_start(a, actor=director)
    page = browser.new_context(viewport=TABLET).new_page()
    errors = watch_errors(page)
    login(page, base, floor.username)
    page.goto(f"{base}/t/{a.pk}/map/")
    page.wait_for_selector("#live.live")
    assert not page.is_visible("#flight-ending")
    api = client_for(floor)
    for entry in entries[:3]:  # 5 entries, 50 %: the line shows at 2 left
        assert api.post(url(a, f"entries/{entry.number}/bust/"), {}, format="json").status_code == 200
    page.wait_for_selector("#flight-ending:not([hidden])")
    assert page.inner_text("#flight-ending") == "2 players left: this flight ends at the end of this level."
    assert api.post(url(a, f"entries/{entries[3].number}/bust/"), {}, format="json").status_code == 200
    page.wait_for_function("() => document.getElementById('flight-ending').textContent.trim().startsWith('1 player left')")
    assert accessibility.problems(page) == []
    page.goto(f"{base}/t/{a.pk}/")
    assert page.inner_text("#flight-ending").startswith("1 player left") and page.is_visible("#flight-of-event")
    page.click("#flight-of-event a")
    page.wait_for_url(f"{base}/events/{event.pk}/")
    page.wait_for_load_state()
    page.wait_for_selector(f"#fl-flight-{a.pk}")
    assert page.inner_text(f"#fl-flight-{a.pk} [data-field=ending]").startswith("1 player left")
    assert not page.query_selector("form[data-api]")  # the floor reads the event; the director changes it
    assert accessibility.problems(page) == []
    assert csp_problems(page, errors) == []


def test_the_desk_shows_the_first_stack_forward_refusal(live_asgi, browser, director, cashier, floor, template, players):
    base = live_asgi
    event, (a, b) = event_with(director, template, policy="first")
    play_and_bag(director, cashier, floor, a, players[:3], {p.pk: 20_000 for p in players[:3]})
    qualified = players[0]
    page = browser.new_context(viewport=TABLET).new_page()
    login(page, base, cashier.username)
    page.goto(f"{base}/t/{b.pk}/register/?player={qualified.pk}")
    page.select_option("#id_document_type", "id_card")
    page.fill("#id_document_number", f"EB{qualified.pk:07d}")
    page.check("#id_seen")
    entries_api = f"{base}/api/tournaments/{b.pk}/entries/"
    with page.expect_response(lambda r: r.request.method == "POST" and r.url == entries_api) as refused:
        page.click("#register-button")
    assert refused.value.status == 409 and refused.value.json()["error"] == "qualified_already"
    detail = refused.value.json()["detail"]
    assert detail.startswith(f"{qualified.display_name} qualified in flight 1A with bag ")
    assert "under first stack forward he cannot play another flight" in detail
    page.wait_for_function("(answer) => (document.querySelector('.api-say') || {}).textContent === answer", arg=detail)
    assert not Entry.objects.filter(tournament=b).exists()
    assert accessibility.problems(page) == []


def test_the_director_sees_at_once_that_day2_pays_more_places_than_a_share_sends_on(live_asgi, browser, director, cashier, template):
    base = live_asgi
    event, (a,) = event_with(director, template, flights=1)
    register(
        cashier,
        a,
        [desk.create_player(actor=cashier, first_name=f"B{i}", last_name="Share", date_of_birth=date(1990, 1, 1)) for i in range(20)],
    )  # Day 2 pays 3
    page = browser.new_context(viewport=TABLET).new_page()
    errors = watch_errors(page)
    login(page, base, director.username)
    page.goto(f"{base}/events/{event.pk}/")
    page.wait_for_selector("#live.live")
    assert not page.is_visible("#places-warning")
    assert page.evaluate(TOPS, ["#flight-tournament", "#flight-label"]) == [0]  # the label's help below, not above
    page.fill(f"#fl-share-{a.pk}", "5")  # 1 player of 20 goes on
    with page.expect_navigation():  # the page reloads (the live read may show the warning on the page being left)
        page.click(f"#fl-end-go-{a.pk}")
    page.wait_for_selector("#places-warning:not([hidden])")
    assert page.inner_text("#places-warning") == (
        "Day 2 pays more places than the flights' share rules send players on. Places paid: 3; players sent on: 1; "
        "places unpaid unless more players reach Day 2: 2–3. Raise a flight's share, or pay fewer places."
    )
    assert accessibility.problems(page) == []
    assert fits(page, "event_places_warning") == []
    page.fill(f"#fl-share-{a.pk}", "15")  # 3 go on: every place can be paid
    with page.expect_navigation():
        page.click(f"#fl-end-go-{a.pk}")
    page.wait_for_selector("#places-warning[hidden]", state="attached")
    assert Flight.objects.get(tournament=a).end_share_percent == 15
    assert csp_problems(page, errors) == []
