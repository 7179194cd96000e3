"""The desk's hint for a returning player: choosing on the registration page a player who already
holds a current bag from another flight of the event says so (flight, bag, chips) and what the stack policy makes of
it, before anything is sent; a player with no bag, or one of a tournament outside any event, gets no hint."""

from __future__ import annotations

import re

import pytest
from django.test import Client

from days.models import Bag
from tests.flights.test_flights import event_with, play_and_bag


def desk_page(cashier, t, player, lang: str = "en-gb") -> str:
    browser = Client()
    browser.force_login(cashier)
    return browser.get(f"/t/{t.pk}/register/?player={player.pk}", HTTP_ACCEPT_LANGUAGE=lang).content.decode()


def hint(html: str) -> str | None:
    found = re.search(r'<p class="msg warning" id="held-bag" role="status">([^<]*)</p>', html)
    return found.group(1).replace("&#x27;", "'") if found else None


@pytest.mark.django_db
def test_a_returning_player_with_a_bag_from_another_flight_is_hinted(director, cashier, floor, template, players):
    _event, (a, b) = event_with(director, template, policy="best")
    play_and_bag(
        director, cashier, floor, a, players[:4], {p.pk: 45_000 + i * 1_000 for i, p in enumerate(players[:4])}, bust=(players[3],)
    )
    bag = Bag.objects.get(tournament=a, entry__player=players[0], current=True)
    said = hint(desk_page(cashier, b, players[0]))
    assert said == (
        f"{players[0].display_name} already holds bag {bag.bag_number} (45,000 chips) from flight 1A: "
        "under best stack forward only his largest bag goes on to Day 2."
    )
    assert "45\xa0000" in hint(desk_page(cashier, b, players[0], "cs"))  # the chips as Czech writes them
    assert hint(desk_page(cashier, b, players[3])) is None  # busted in flight 1a: no bag
    assert hint(desk_page(cashier, b, players[5])) is None  # never played
    assert hint(desk_page(cashier, a, players[0])) is None  # his own flight's bag is no other flight's


@pytest.mark.django_db
def test_under_first_stack_forward_the_hint_says_he_cannot_play_another_flight(director, cashier, floor, template, players):
    _event, (a, b) = event_with(director, template, policy="first")
    play_and_bag(director, cashier, floor, a, players[:3], {p.pk: 30_000 for p in players[:3]})
    bag = Bag.objects.get(tournament=a, entry__player=players[1], current=True)
    assert hint(desk_page(cashier, b, players[1])) == (
        f"{players[1].display_name} qualified in flight 1A with bag {bag.bag_number}: under first stack forward he cannot "
        "play another flight."
    )
