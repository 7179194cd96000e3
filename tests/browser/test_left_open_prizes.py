"""Players' seat pages left open through what moves their prizes: the push that gives the winner his (the last bust
finishes the tournament) and a deal at the final table reach every placed entry's page, not only the entries the
event names (live/fanout.py, EVERY_SEAT_PAGE). Found by the festival played through the screens: the winner's phone
never showed his prize, a fresh load did."""

from __future__ import annotations

import pytest

from clock.services import clock as clock_services
from payouts.selectors.structure import prizes_won
from tables.services import busts
from tests.browser.left_open import left_open
from tests.browser.sizes import PHONE
from tests.conftest import pay_places
from tests.payouts.conftest import bust_down_to
from tests.tables.test_hand_for_hand import confirm_all
from tournament.models import Entry, Tournament
from web.templatetags.money import money

pytestmark = pytest.mark.browser


def test_the_winners_seat_page_left_open_shows_his_prize_when_the_last_bust_finishes_the_tournament(
    live_asgi, browser, room, director, floor
):
    t = room
    clock_services.start_clock(t, actor=director)
    pay_places(director, t, 3)
    bust_down_to(floor, t, 2)
    winner, runner_up = sorted(Entry.objects.filter(tournament=t, status=Entry.Status.ACTIVE), key=lambda e: e.number, reverse=True)

    def last_bust(_page):
        busts.bust_entry(runner_up, actor=floor)
        confirm_all(floor, t)

    seen = left_open(browser, live_asgi, f"/s/{t.pk}/{winner.number}/", last_bust, size=PHONE, selector="main")
    assert Tournament.objects.get(pk=t.pk).status == Tournament.Status.FINISHED
    prize = money(prizes_won(t)[winner.number], t.currency)
    assert prize not in seen.before and prize in seen.now
    assert seen.now == seen.fresh_now
