"""The event's cash counted once: an event's Day 1 flights and its Day 2 share one pool and one
cage. Each reconciliation closes its own part (a flight: its takings, its prize part handed to the event's pool, no
prizes owed; Day 2: its own takings, the flights' prize parts in its pool, the prizes paid) and shows the event's
cage apart; the parts' cages add up to it, and it is what the cage really holds."""

from __future__ import annotations

from django.test import Client
from django.urls import reverse

from flights.services import events
from payouts.selectors import structure as payout_selectors
from payouts.selectors.reconciliation import reconciliation
from payouts.services import structure as payout_services
from tables.services import busts, draws
from tables.services import setup as table_setup
from tests.flights.test_flights import BUY_IN, STACK, doc, event_with, play_and_bag
from tests.payouts.test_payments import signature
from tournament.models import Entry, Purchase


def test_each_crown_is_counted_once_and_every_page_says_which_part_it_shows(director, cashier, floor, template, players):
    event, (a, b) = event_with(director, template)
    play_and_bag(director, cashier, floor, a, players[:3], {p.pk: STACK for p in players[:3]})
    play_and_bag(director, cashier, floor, b, players[3:6], {p.pk: STACK for p in players[3:6]})
    events.carry_to_day2(event, actor=director)
    day2 = event.day2
    day2.refresh_from_db()
    table_setup.open_table(day2, actor=director, number=1, seats=9)
    draws.draw_start(day2, actor=director)
    payout_services.set_payout_plan(day2, actor=director, data={"share_paid_bp": 5000, "min_cash_bp": 0})
    in_play = list(Entry.objects.filter(tournament=day2, status=Entry.Status.ACTIVE).order_by("number"))
    for entry in in_play[:4]:
        busts.bust_entry(entry, actor=floor)
    won = payout_selectors.prizes_won(day2)
    third = in_play[3]  # out fourth of six: third place
    assert won[third.number] > 0
    payout_services.pay_prize(third, actor=cashier, document=doc(third.player), signature=signature())

    taken = sum(Purchase.objects.filter(tournament__in=[a, b]).values_list("amount", flat=True)) + sum(
        Purchase.objects.filter(tournament__in=[a, b]).values_list("fee", flat=True)
    )
    real_cage = taken - won[third.number]  # six buy-ins came in, one prize went out
    pages = {t.pk: reconciliation(t) for t in (a, b, day2)}
    # The parts add up to the real cage: each crown once (before: 46 + 46 + 12 against a real 12).
    assert sum(page["cage"] for page in pages.values()) == real_cage
    assert sum(page["cash_in"] for page in pages.values()) == taken
    assert [pages[t.pk]["part"] for t in (a, b, day2)] == ["flight", "flight", "day2"]
    # Every page shows the same event's cage, and it is the real one.
    assert all(page["event"] == pages[a.pk]["event"] for page in pages.values())
    assert pages[a.pk]["event"]["cage"] == real_cage
    assert [(p["tournament"], p["part"]) for p in pages[a.pk]["event"]["parts"]] == [(a.pk, "flight"), (b.pk, "flight"), (day2.pk, "day2")]
    # A flight owes no prizes: its prize part went to the event's pool, which Day 2 owes and pays.
    for flight in (a, b):
        page = pages[flight.pk]
        assert page["cash_in"] == 3 * (BUY_IN + 1500) and page["prizes_owed"] == 0 and page["pool_out"] == 3 * BUY_IN
        assert page["balance"] == 0
    page = pages[day2.pk]
    assert page["cash_in"] == 0 and page["takings_total"]["total"] == 0  # no takings of its own: no cash in
    assert page["pool_in"] == 6 * BUY_IN and page["pool"] == 6 * BUY_IN
    assert page["prizes_paid"] == won[third.number] and page["cage"] == -won[third.number]
    assert page["prizes_owed"] == 6 * BUY_IN - won[third.number] and page["balance"] == 0

    # The pages say which part they show, and show the event's cage apart.
    browser = Client()
    browser.force_login(director)
    for t in (a, day2):
        html = browser.get(reverse("payout-reconciliation", args=[t.pk])).content.decode()
        assert 'id="rec-part"' in html and 'id="rec-event-cage"' in html and "Festival Main Event" in html
    api = browser.get(f"/api/tournaments/{a.pk}/reconciliation/")
    assert api.status_code == 200 and api.json()["part"] == "flight" and api.json()["event"]["cage"] == real_cage
