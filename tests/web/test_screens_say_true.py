"""Server-rendered pages that said the wrong thing: an event's Day 2 before play is not "Day 1"
with every carried player's bag missing; a player's results page does not call his carried or forfeited flight entries
"playing"; a finished tournament whose prizes are all paid offers neither the payout structure's edits nor to become a
satellite (the services refuse both)."""

from __future__ import annotations

import pytest
from django.test import Client

from clock.services import clock as clock_services
from days.services import bags as days_services
from flights.services import events as flight_services
from payouts.selectors import satellites
from payouts.selectors import structure as payout_selectors
from payouts.services import structure as payout_services
from tables.selectors.state import live_seats
from tables.services import busts, draws
from tables.services import setup as table_setup
from tests.flights.test_flights import event_with, play_and_bag
from tests.helpers import id_doc, text
from tests.payouts.test_payments import finish, signature
from tournament.models import Entry

pytestmark = pytest.mark.django_db


def page_as(user, path: str) -> str:
    client = Client()
    client.force_login(user)
    answer = client.get(path)
    assert answer.status_code == 200, answer.status_code
    return answer.content.decode()


def carried_event(director, cashier, floor, template, players):
    """Two flights bagged and carried: player 0 played both (best stack forward: his 1B bag is forfeited)."""
    event, (a, b) = event_with(director, template)
    play_and_bag(
        director,
        cashier,
        floor,
        a,
        players[:4],
        {players[0].pk: 30_000, players[1].pk: 25_000, players[2].pk: 12_000, players[3].pk: 13_000},
    )
    play_and_bag(
        director,
        cashier,
        floor,
        b,
        [players[0], players[4], players[5]],
        {players[0].pk: 10_000, players[4].pk: 20_000, players[5].pk: 5_000},
    )
    flight_services.carry_to_day2(event, actor=director)
    event.refresh_from_db()
    return event, a, b


def test_day2s_end_of_day_page_before_play_says_day_2_and_no_bag_missing(director, cashier, floor, template, players):
    event, _a, _b = carried_event(director, cashier, floor, template, players)
    day2 = event.day2
    table_setup.open_table(day2, actor=director, number=1, seats=9)
    draws.draw_start(day2, actor=director)
    page = text(page_as(floor, f"/t/{day2.pk}/day/"))
    heading = page.split("Where the day stands")[0]
    assert "Day 2" in heading and "Day 1" not in heading
    assert "Day 2 · not begun" in page and "Day 2 has not begun" in page
    assert "bag missing" not in page and "bags missing" not in page.replace("Bags missing", "")
    # Play begins: Day 2 is played, its bags taken at its end (every carried player still in, none bagged yet).
    clock_services.start_clock(day2, actor=director)
    page = text(page_as(floor, f"/t/{day2.pk}/day/"))
    assert "Day 2 · playing" in page and "Day 1" not in page.split("Where the day stands")[0]
    assert "6 bags missing" in page  # six players carried (player 0 with his larger bag)
    # The event's Day 2 closes: the next is the event's Day 3, its seating redrawn before play.
    clock_services.pause_clock(day2, actor=director)
    seats = live_seats(day2).filter(table__number=1).select_related("table")
    days_services.record_table_bags(seats.first().table, actor=floor, bags={s.seat: (1_000, f"D2-{s.seat}") for s in seats})
    days_services.close_day(day2, actor=director, reason="Counted by hand")
    page = text(page_as(director, f"/t/{day2.pk}/day/"))
    assert "Day 3 seating" in page and "Redraw Day 3 seating" in page
    closed = page.split("Days closed")[1]
    assert "Day 2" in closed and "Day 1" not in closed


def test_a_players_results_say_his_flight_bags_went_on_or_were_forfeited(director, cashier, floor, template, players):
    event, a, b = carried_event(director, cashier, floor, template, players)
    html = page_as(director, f"/players/{players[0].pk}/")
    row = {t.pk: text(html.split(f'id="pl-t-{t.pk}"')[1].split("</tr>")[0]) for t in (a, b, event.day2)}
    assert "carried to Day 2" in row[a.pk] and "playing" not in row[a.pk]
    assert "bag forfeited" in row[b.pk] and "playing" not in row[b.pk]
    assert "playing" in row[event.day2.pk]  # he plays on in Day 2
    other = text(page_as(director, f"/players/{players[4].pk}/"))
    assert "carried to Day 2" in other


def test_a_finished_fully_paid_tournament_offers_no_edit_of_its_prizes_nor_a_satellite(director, cashier, floor, tournament):
    entries = finish(director, cashier, floor, tournament)
    before = page_as(director, f"/t/{tournament.pk}/payouts/")
    assert 'id="edit-form"' in before and 'id="plan-form"' in before and 'id="satellite-target"' in before
    for entry in entries[5:7]:
        busts.bust_entry(Entry.objects.get(pk=entry.pk), actor=floor)
    for number in [n for n, prize in payout_selectors.prizes_won(tournament).items() if prize]:
        entry = Entry.objects.get(tournament=tournament, number=number)
        payout_services.pay_prize(entry, actor=cashier, document=id_doc(f"EA{number - 1:07d}"), signature=signature())
    html = page_as(director, f"/t/{tournament.pk}/payouts/")
    for form in ('id="edit-form"', 'id="plan-form"', 'id="satellite-target"', 'id="satellite-save"', 'id="satellite-none"'):
        assert form not in html, form
    # What the page no longer offers, the services refuse.
    assert satellites.structure_fixed(tournament).code == "structure_fixed_by_payment"
    assert satellites.satellite_fixed(tournament, satellites.BECOME).code == "satellite_fixed_by_payment"
