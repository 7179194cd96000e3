"""The screens of the events with flights: the events page and an event's page (the floor reads them,
only the director gets their forms; the cashier, the dealer and anyone logged out are refused), each flight's figures,
Day 2, the pool summed over the flights, the carry's lists with their totals; the floor's "this flight ends" line on
the flight's table map and overview and its JSON; a flight's payouts page says its prizes are paid from Day 2."""

from __future__ import annotations

import re
from datetime import date

import pytest

from flights.models import Flight
from flights.services import events
from tables.services import busts, draws
from tables.services import setup as table_setup
from tests.flights.test_flights import event_with, play_and_bag, register
from tests.helpers import page_as, text
from tournament.services import registration as desk


@pytest.mark.django_db
def test_the_events_page_lists_every_event_and_only_the_director_makes_one(director, floor, cashier, dealer, template):
    event, (a, b) = event_with(director, template)
    floor_html = page_as(floor, "/events/").content.decode()
    row = text(floor_html.split(f'id="fl-event-{event.pk}"')[1].split("</tr>")[0])
    assert "Festival Main Event" in row and "Best stack forward" in row and "1A, 1B" in row
    assert "Main Event Day 2" in row and f'href="/events/{event.pk}/"' in floor_html
    assert 'id="event-create"' not in floor_html  # the floor reads; the director makes events
    director_html = page_as(director, "/events/").content.decode()
    assert 'id="event-create"' in director_html and 'data-api="events/"' in director_html
    assert 'data-says="flight-event-create"' in director_html
    assert 'id="flight-events-link"' in page_as(floor, "/").content.decode()
    assert 'id="flight-events-link"' not in page_as(cashier, "/").content.decode()
    for user in (cashier, dealer):
        assert page_as(user, "/events/").status_code == 403
        assert page_as(user, f"/events/{event.pk}/").status_code == 403
    assert page_as(None, "/events/").status_code == 302 and page_as(None, f"/events/{event.pk}/").status_code == 302
    assert page_as(floor, "/events/999999/").status_code == 404
    assert page_as(floor, "/events/").status_code == 200


@pytest.mark.django_db
def test_the_event_page_shows_each_flight_day2_the_pool_and_the_carry(director, cashier, floor, template, players):
    event, (a, b) = event_with(director, template)
    play_and_bag(
        director,
        cashier,
        floor,
        a,
        players[:4],
        {players[0].pk: 30_000, players[1].pk: 25_000, players[2].pk: 12_000, players[3].pk: 13_000},
    )
    register(cashier, b, [players[0], players[4]])
    html = page_as(director, f"/events/{event.pk}/").content.decode()
    first = text(html.split(f'id="fl-flight-{a.pk}"')[1].split("</article>")[0])
    assert "Flight 1A" in first and "Day 1 closed" in first and "Entries 4" in first and "Players left 4" in first
    assert "Bags 4" in first and "Chips in the bags 80,000" in first
    second = text(html.split(f'id="fl-flight-{b.pk}"')[1].split("</article>")[0])
    assert "Entries 2" in second and "Day 1 not closed" in second and "Bags 0" in second and "no rule set" in second
    assert "Day 1 of flight 1B is not closed yet" in text(html)
    pool = text(html.split('id="fl-pool"')[1].split("</dl>")[0])
    assert "Entries 6" in pool and "Players 5" in pool  # one pool: every flight's entries, a player counted once
    # The director's forms: each flight's end, Day 2's late registration, the policy, the carry; Day 2 is set already.
    for form in (f'id="fl-end-{a.pk}"', f'id="fl-end-{b.pk}"', 'id="late-set"', 'id="policy-set"', 'id="carry"', 'id="flight-add"'):
        assert form in html, form
    assert 'id="day2-set"' not in html and 'id="day2-link"' in html
    floor_html = page_as(floor, f"/events/{event.pk}/").content.decode()
    assert "data-api=" not in floor_html and "Flight 1A" in floor_html  # the floor reads, with no form

    events.set_flight_end(Flight.objects.get(tournament=b), actor=director, after_level=4, share_percent=30)
    html = page_as(director, f"/events/{event.pk}/").content.decode()
    assert "after level 4; at 30 % of its field left (1 player)" in text(html)

    play_and_bag(director, cashier, floor, b, [players[5]], {players[0].pk: 10_000, players[4].pk: 20_000, players[5].pk: 5_000})
    events.carry_to_day2(event, actor=director)
    html = page_as(floor, f"/events/{event.pk}/").content.decode()
    carried = text(html.split('id="carried-list"')[1].split("</table>")[0])
    assert "6 bags" in carried and "105,000" in carried  # 30,000 + 25,000 + 12,000 + 13,000 + 20,000 + 5,000
    assert players[0].display_name in carried and players[5].display_name in carried
    forfeited = text(html.split('id="forfeited-list"')[1].split("</table>")[0])
    assert players[0].display_name in forfeited and "1B" in forfeited and "1 bag" in forfeited and "10,000" in forfeited
    assert "Carried to Day 2" in text(html)
    assert 'id="carry"' not in page_as(director, f"/events/{event.pk}/").content.decode()  # carried once


@pytest.mark.django_db
def test_the_floor_sees_that_a_flight_ends_on_its_map_and_overview(director, cashier, floor, dealer, template, players):
    event, (a, b) = event_with(director, template)
    events.set_flight_end(Flight.objects.get(tournament=a), actor=director, share_percent=50)
    table_setup.open_table(a, actor=director, number=1, seats=9)
    entries = register(cashier, a, players[:5])
    draws.draw_start(a, actor=director)
    quiet = page_as(floor, f"/t/{a.pk}/map/").content.decode()
    assert f'data-url="/api/tournaments/{a.pk}/flight-ending/"' in quiet and re.search(r'id="flight-ending"[^>]*\shidden', quiet)
    assert page_as(floor, f"/api/tournaments/{a.pk}/flight-ending/").json() == {"ending": None}
    for entry in entries[:3]:
        busts.bust_entry(entry, actor=floor)
    message = "2 players left: this flight ends at the end of this level."
    answer = page_as(floor, f"/api/tournaments/{a.pk}/flight-ending/").json()["ending"]
    assert answer["message"] == message and answer["players"] == 2 and answer["level"] == 1
    shown = page_as(floor, f"/t/{a.pk}/map/").content.decode()
    assert message in shown and not re.search(r'id="flight-ending"[^>]*\shidden', shown)
    overview = page_as(floor, f"/t/{a.pk}/").content.decode()
    assert message in overview and f'href="/events/{event.pk}/"' in overview
    assert "Day 1 flight 1A of" in text(overview)
    cashier_view = page_as(cashier, f"/t/{a.pk}/").content.decode()  # figures only; the event page is not his
    assert message in cashier_view and f'href="/events/{event.pk}/"' not in cashier_view
    event_html = text(page_as(floor, f"/events/{event.pk}/").content.decode())
    assert message in event_html and "Ends at the end of this level" in event_html
    for user in (cashier, dealer, None):
        assert page_as(user, f"/api/tournaments/{a.pk}/flight-ending/").status_code in (401, 403)
    # A tournament that is no flight: no line, nothing to read.
    plain = page_as(floor, f"/t/{event.day2_id}/map/").content.decode()
    assert "data-url=" not in plain.split('id="flight-ending"')[1].split(">")[0]
    assert page_as(floor, f"/api/tournaments/{event.day2_id}/flight-ending/").json() == {"ending": None}


@pytest.mark.django_db
def test_a_flights_payouts_page_says_its_prizes_are_paid_from_day2(director, cashier, floor, template, players):
    event, (a, _b) = event_with(director, template)
    register(cashier, a, players[:3])
    html = page_as(cashier, f"/t/{a.pk}/payouts/").content.decode()
    said = text(html.split('id="payout-reason"')[1].split("</p>")[0])
    assert "Flight 1A of Festival Main Event pays no places: the prizes are paid from Day 2." in said
    assert f'href="/t/{event.day2_id}/payouts/"' in html.split('id="payout-reason"')[1].split("</p>")[0]
    # Nothing to set or deal in a flight (the server refuses it): no structure, no prizes by hand, no deal panel.
    directors = page_as(director, f"/t/{a.pk}/payouts/").content.decode()
    assert 'id="deal"' not in directors and "payouts/plan/" not in directors and "payouts/structure/" not in directors
    assert "Nobody to pay yet: no entries." not in directors
    day2 = page_as(director, f"/t/{event.day2_id}/payouts/").content.decode()
    assert "payouts/plan/" in day2 and "payouts/structure/" in day2  # Day 2 pays the places


@pytest.mark.django_db
def test_the_event_page_warns_when_day2_pays_more_places_than_the_share_sends_on(director, cashier, floor, template):
    event, (a,) = event_with(director, template, flights=1)
    people = [desk.create_player(actor=cashier, first_name=f"V{i}", last_name="Page", date_of_birth=date(1990, 1, 1)) for i in range(20)]
    register(cashier, a, people)  # 20 entries: Day 2 pays 3 places
    flight = Flight.objects.get(tournament=a)
    quiet = page_as(director, f"/events/{event.pk}/").content.decode()
    assert re.search(r'<p [^>]*id="places-warning"[^>]*\shidden', quiet)  # no share rule: nothing to warn of
    events.set_flight_end(flight, actor=director, share_percent=5)  # 1 player goes on
    message = (
        "Day 2 pays more places than the flights' share rules send players on. Places paid: 3; players sent "
        "on: 1; places unpaid unless more players reach Day 2: 2–3. Raise a flight's share, or pay fewer places."
    )
    for user in (director, floor):
        html = page_as(user, f"/events/{event.pk}/").content.decode()
        notice = re.search(r'<p ([^>]*id="places-warning"[^>]*)>(.*?)</p>', html, re.S)
        assert " hidden" not in notice.group(1) and 'role="status"' in notice.group(1)
        assert text(notice.group(2)) == message.replace("'", "&#x27;")
    events.set_flight_end(Flight.objects.get(pk=flight.pk), actor=director, share_percent=15)  # 3 go on: paid
    raised = page_as(director, f"/events/{event.pk}/").content.decode()
    assert re.search(r'<p [^>]*id="places-warning"[^>]*\shidden', raised) and "Places paid:" not in raised
