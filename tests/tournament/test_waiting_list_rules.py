"""The waiting list's rules (tournament/rules/waiting_list.py), played at random: players join a sold-out tournament's
list, seats open and close, alternates are offered seats in order, sit down, fail to show or leave the list. After
every step: no player holds two places, nobody is seated twice, the places seated and passed over were offered in the
list's order, offers never exceed the seats open or the entries left, and the money adds up (taken = refunded + kept +
entries bought + still held)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, invariant, precondition, rule

from tournament.rules import waiting_list as wl

START = datetime(2026, 12, 5, 18, tzinfo=UTC)
PRICE = 10_000


def test_a_tournament_is_full_at_its_maximum_or_when_its_seats_are_taken():
    rules = wl.Rules(max_entries=100)
    assert not wl.full(rules, entries=99, in_play=80, seats=90)
    assert wl.full(rules, entries=100, in_play=80, seats=90)  # the maximum
    assert wl.full(rules, entries=95, in_play=90, seats=90)  # every seat taken
    assert not wl.full(wl.Rules(), entries=5_000, in_play=89, seats=90)  # no maximum: the seats decide


def test_one_place_per_player_and_the_order_of_joining():
    places = []
    for player in (7, 3, 9):
        places.append(wl.join(places, player=player, paid=PRICE))
    assert [p.number for p in places] == [1, 2, 3]
    with pytest.raises(wl.WaitingListError) as refused:
        wl.join(places, player=3)
    assert refused.value.code == "already_waiting"
    assert [wl.position(places, p.number) for p in places] == [1, 2, 3]
    # A player whose place is done may join again (a re-entry joins the same list, in order).
    places[1] = wl.cancel(places[1])
    again = wl.join(places, player=3, reentry=True)
    assert (again.number, again.reentry, wl.position([*places, again], again.number)) == (4, True, 3)


def test_the_seats_open_go_to_the_first_waiting_in_order_within_the_maximum():
    rules = wl.Rules(max_entries=10)
    places = []
    for player in range(1, 6):
        places.append(wl.join(places, player=player))
    assert [p.player for p in wl.to_offer(places, rules, seats_open=3, entries=8)] == [1, 2]  # two entries left
    places[0] = wl.offer(places[0], START)
    assert [p.player for p in wl.to_offer(places, rules, seats_open=3, entries=9)] == [2]  # #1 holds a seat and counts
    assert wl.to_offer(places, rules, seats_open=0, entries=5) == []


def test_a_no_show_loses_his_turn_after_the_house_s_minutes_and_his_money_goes_as_the_house_says():
    refunded, kept = wl.Rules(sit_minutes=10), wl.Rules(sit_minutes=10, no_show=wl.NO_SHOW_KEPT)
    place = wl.offer(wl.join([], player=1, paid=PRICE), START)
    assert wl.expired([place], refunded, START + timedelta(minutes=9, seconds=59)) == []
    assert wl.expired([place], refunded, START + timedelta(minutes=10)) == [place]
    passed = wl.pass_over(place)
    assert wl.money_of(passed, refunded) == wl.Money(PRICE, PRICE, 0, 0)
    assert wl.money_of(passed, kept) == wl.Money(PRICE, 0, PRICE, 0)
    with pytest.raises(wl.WaitingListError):
        wl.seat(passed, price=PRICE, rules=refunded)


def test_paid_on_seating_takes_the_price_when_he_sits_down():
    rules = wl.Rules(payment=wl.PAY_ON_SEATING)
    place = wl.offer(wl.join([], player=1), START)
    assert wl.money_of(place, rules) == wl.Money(0, 0, 0, 0)
    assert wl.money_of(wl.seat(place, price=PRICE, rules=rules), rules) == wl.Money(PRICE, 0, 0, PRICE)


class WaitingNight(RuleBasedStateMachine):
    """A sold-out evening's list, at random."""

    def __init__(self) -> None:
        super().__init__()
        self.rules = wl.Rules(max_entries=40, sit_minutes=10)
        self.places: list[wl.Place] = []
        self.now = START
        self.seats_open = 0
        self.entries = 30
        self.seated_players: list[int] = []
        self.offered_order: list[int] = []  # place numbers, in the order they were offered

    @rule(player=st.integers(1, 25), pay_now=st.booleans())
    def join(self, player, pay_now):
        try:
            place = wl.join(self.places, player=player, paid=PRICE if pay_now else 0)
        except wl.WaitingListError as e:
            assert e.code == "already_waiting"
            assert any(p.player == player for p in wl.open_places(self.places))
            return
        self.places.append(place)

    @rule(count=st.integers(1, 3))
    def seats_open_up(self, count):  # busts, a table opened
        self.seats_open += count

    @rule()
    def offer_the_seats(self):
        for place in wl.to_offer(self.places, self.rules, seats_open=self.seats_open, entries=self.entries):
            self.places[self.places.index(place)] = wl.offer(place, self.now)
            self.offered_order.append(place.number)
            self.seats_open -= 1  # his seat is drawn and held for him
            self.entries += 1

    @precondition(lambda self: any(p.state == wl.OFFERED for p in self.places))
    @rule(data=st.data())
    def one_sits_down(self, data):
        place = data.draw(st.sampled_from([p for p in self.places if p.state == wl.OFFERED]))
        self.places[self.places.index(place)] = wl.seat(place, price=PRICE, rules=self.rules)
        self.seated_players.append(place.player)

    @rule(minutes=st.integers(1, 12))
    def time_passes(self, minutes):
        self.now += timedelta(minutes=minutes)
        for place in wl.expired(self.places, self.rules, self.now):
            self.places[self.places.index(place)] = wl.pass_over(place)
            self.seats_open += 1  # his seat goes back for the next
            self.entries -= 1

    @precondition(lambda self: any(p.state == wl.WAITING for p in self.places))
    @rule(data=st.data())
    def one_leaves(self, data):
        place = data.draw(st.sampled_from([p for p in self.places if p.state == wl.WAITING]))
        self.places[self.places.index(place)] = wl.cancel(place)

    @invariant()
    def one_place_each_and_nobody_seated_twice(self):
        holders = [p.player for p in wl.open_places(self.places)]
        assert len(holders) == len(set(holders))
        seated = [p.number for p in self.places if p.state == wl.SEATED]
        assert len(seated) == len(set(seated))

    @invariant()
    def offered_in_the_list_s_order(self):
        assert self.offered_order == sorted(self.offered_order)

    @invariant()
    def within_the_seats_and_the_maximum(self):
        assert self.seats_open >= 0 and self.entries <= self.rules.max_entries

    @invariant()
    def the_money_adds_up(self):
        figures = [wl.money_of(p, self.rules) for p in self.places]
        held = sum(p.paid for p in self.places if p.state in wl.OPEN_STATES)
        assert sum(m.taken for m in figures) == sum(m.refund + m.kept + m.entry for m in figures) + held


TestWaitingNight = WaitingNight.TestCase
