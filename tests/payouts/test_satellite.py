"""A satellite's seats and cash (payouts/rules/satellite.py): seats × the seat's value + the cash = the pool."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from payouts.rules.satellite import NEXT_PLACE, SEAT_WINNERS, play_stops_at, satellite_prizes, seat_winners


def test_the_pool_over_the_targets_entry_price_gives_the_seats_and_the_rest_goes_to_the_next_place():
    prizes = satellite_prizes(pool=1_030_000, seat_value=230_000, entries=50)
    assert (prizes.seats, prizes.cash) == (4, (0, 0, 0, 0, 110_000))
    assert prizes.prize_of(4) == (True, 0) and prizes.prize_of(5) == (False, 110_000) and prizes.prize_of(6) == (False, 0)
    assert play_stops_at(prizes) == 4


def test_or_the_seat_winners_share_the_rest_the_odd_units_to_the_best_places():
    prizes = satellite_prizes(pool=1_030_002, seat_value=230_000, entries=50, leftover=SEAT_WINNERS)
    assert (prizes.seats, prizes.cash) == (4, (27_501, 27_501, 27_500, 27_500))


def test_a_pool_below_one_seat_is_cash_for_the_winner_and_play_goes_to_a_winner():
    for leftover in (NEXT_PLACE, SEAT_WINNERS):
        prizes = satellite_prizes(pool=100_000, seat_value=230_000, entries=5, leftover=leftover)
        assert (prizes.seats, prizes.cash, play_stops_at(prizes)) == (0, (100_000,), 1)


def test_never_more_seats_than_entries_and_with_a_seat_for_everyone_the_rest_is_theirs():
    prizes = satellite_prizes(pool=1_000_000, seat_value=230_000, entries=3)
    assert (prizes.seats, prizes.cash) == (3, (103_334, 103_333, 103_333))


def test_a_target_without_a_price_or_an_unknown_setting_is_refused():
    with pytest.raises(ValueError):
        satellite_prizes(pool=100, seat_value=0, entries=3)
    with pytest.raises(ValueError):
        satellite_prizes(pool=100, seat_value=10, entries=3, leftover="the house")


@given(st.integers(0, 10**9), st.integers(1, 10**7), st.integers(0, 5000), st.sampled_from([NEXT_PLACE, SEAT_WINNERS]))
def test_seats_times_the_seats_value_and_the_cash_add_up_to_the_pool(pool, value, entries, leftover):
    prizes = satellite_prizes(pool=pool, seat_value=value, entries=entries, leftover=leftover)
    assert prizes.seats * value + prizes.leftover == pool
    assert 0 <= prizes.seats <= entries and prizes.seats <= pool // value
    assert all(c >= 0 for c in prizes.cash)
    if prizes.seats and prizes.leftover and (leftover == SEAT_WINNERS or prizes.seats == entries):
        assert len(prizes.cash) == prizes.seats and max(prizes.cash) - min(prizes.cash) <= 1
        assert list(prizes.cash) == sorted(prizes.cash, reverse=True)  # the odd units to the best places
    elif prizes.leftover:
        assert prizes.cash[:-1] == (0,) * (len(prizes.cash) - 1) and len(prizes.cash) in (prizes.seats, prizes.seats + 1)
    if prizes.seats < entries:
        assert prizes.seats == pool // value  # a seat short only when the pool is


def test_no_seat_winner_while_more_players_are_left_than_seats_or_without_a_seat():
    assert seat_winners([1, 2, 3, 4], [(5, 5, 5)], seats=3) == []
    assert seat_winners([1], [(5, 2, 2)], seats=0) == []


def test_the_players_left_at_the_seats_win_them():
    assert seat_winners([4, 1, 2], [(5, 4, 4), (6, 5, 5)], seats=3) == [1, 2, 4]


def test_a_player_busted_in_the_hand_that_stopped_play_and_placed_within_the_seats_wins_one():
    # Two of four busted in one hand at one table: the bigger stack took 3rd and a seat, the other 4th.
    assert seat_winners([1, 2], [(7, 3, 3), (8, 4, 4), (9, 5, 5)], seats=3) == [1, 2, 7]


def test_players_tied_across_the_last_seat_take_it_in_their_draws_order():
    finished = [(7, 3, 4), (8, 3, 4), (9, 5, 5)]
    assert seat_winners([1, 2], finished, seats=3, orders={(3, 4): [8, 7]}) == [1, 2, 8]
    assert seat_winners([1, 2], finished, seats=3) == [1, 2, 7]  # no draw on record: by entry number
    assert seat_winners([1], finished, seats=3, orders={(3, 4): [8, 7]}) == [1, 7, 8]  # room for both


@given(st.integers(1, 12), st.data())
def test_play_stopped_gives_exactly_the_seats_to_the_best_places(seats, data):
    left = data.draw(st.integers(1, seats))
    out = data.draw(st.integers(seats - left, seats - left + 6))
    # the players out take the places below those left, some tied in pairs
    finished, place, entry = [], left + 1, 100
    while len(finished) < out:
        width = min(data.draw(st.integers(1, 2)), out - len(finished))
        finished += [(entry + k, place, place + width - 1) for k in range(width)]
        entry, place = entry + width, place + width
    won = seat_winners(list(range(1, left + 1)), finished, seats)
    assert len(won) == seats and set(range(1, left + 1)) <= set(won)
    places = {e: p for e, p, _low in finished}
    assert all(places[e] <= seats for e in won if e >= 100)
    assert all(e in won for e, p, low in finished if low <= seats)  # every place wholly within the seats wins
