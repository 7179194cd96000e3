"""Button and blinds (tables/rules/positions.py): the dead-button rule, heads-up, arrivals, written as TDA scenarios."""

from hypothesis import given
from hypothesis import strategies as st

from tables.rules.positions import Positions, arrival, before_first, first_hand, following, next_hand, worst_open_seat


def test_first_hand_after_the_button_draw():
    assert first_hand(9, [1, 3, 4, 7], button=4) == Positions(4, 7, 1)
    assert first_hand(9, [2, 6], button=6) == Positions(6, 6, 2)  # heads-up: the button posts the small blind


def test_a_full_table_moves_each_position_one_seat():
    assert next_hand(9, range(1, 10), Positions(1, 2, 3)) == Positions(2, 3, 4)


def test_big_blind_busts_small_blind_is_dead_next_hand():
    # Seat 3 had the big blind and busted: seat 3 is the (dead) small blind, the big blind moves to seat 4.
    after = next_hand(9, [1, 2, 4, 5, 6, 7, 8, 9], Positions(1, 2, 3))
    assert after == Positions(2, 3, 4)
    # The hand after: the button is dead on seat 3, seat 4 posts the small blind, seat 5 the big blind.
    assert next_hand(9, [1, 2, 4, 5, 6, 7, 8, 9], after) == Positions(3, 4, 5)


def test_small_blind_busts_button_is_dead_next_hand():
    assert next_hand(9, [1, 3, 4, 5, 6, 7, 8, 9], Positions(1, 2, 3)) == Positions(2, 3, 4)


def test_both_blinds_bust_the_button_keeps_the_advantage():
    hand2 = next_hand(9, [1, 4, 5, 6], Positions(1, 2, 3))
    assert hand2 == Positions(2, 3, 4)  # dead button on 2, dead small blind on 3
    hand3 = next_hand(9, [1, 4, 5, 6], hand2)
    assert hand3 == Positions(3, 4, 5)  # the button is dead again: seat 1 acts last a third time


def test_heads_up_start_nobody_takes_the_big_blind_twice():
    # Three players, seat 5 (small blind) busts: seat 9 had the big blind, so seat 1 takes it now.
    assert next_hand(9, [1, 9], Positions(1, 5, 9)) == Positions(9, 9, 1)
    # The big blind busts instead: the big blind still moves forward, to seat 1; seat 5 has the button.
    assert next_hand(9, [1, 5], Positions(1, 5, 9)) == Positions(5, 5, 1)


def test_a_player_arriving_between_the_small_blind_and_the_button_waits():
    last = Positions(4, 5, 6)  # next hand: button 5, small blind 6, big blind next live after 6
    occupied = [1, 3, 4, 5, 6, 7, 8]
    assert arrival(9, occupied, last, 2).role == "in_play"
    # Seat 9 is after seat 8 and before seat 1: two hands before the big blind reaches it.
    assert arrival(9, occupied, Positions(6, 7, 8), 9).role == "big_blind"


def test_the_seat_between_next_button_and_small_blind_waits_for_the_button():
    # Next hand: button 2, small blind 4 (seat 3 empty in between), big blind 5.
    last = Positions(1, 2, 4)
    occupied = [1, 2, 4, 5, 6, 7, 8, 9]
    assert next_hand(9, occupied, last) == Positions(2, 4, 5)
    assert arrival(9, occupied, last, 3).role == "wait_for_button"


def test_the_mover_takes_the_seat_due_the_big_blind_never_the_small_blind():
    last = Positions(1, 2, 3)
    occupied = [1, 2, 5, 6, 7, 9]  # seat 3 (last big blind) and 4 and 8 are open
    seat = worst_open_seat(9, occupied, last, [3, 4, 8])
    assert (seat.seat, seat.role) == (4, "big_blind")
    seat = worst_open_seat(9, occupied, last, [3, 8])
    assert seat.seat == 8 and seat.role == "in_play"


def test_only_seats_between_button_and_small_blind_open_the_player_waits():
    last = Positions(1, 2, 4)
    occupied = [1, 2, 4, 5, 6, 7, 8, 9]
    seat = worst_open_seat(9, occupied, last, [3])
    assert (seat.seat, seat.role) == (3, "wait_for_button")


@given(
    st.integers(min_value=3, max_value=10).flatmap(
        lambda n: st.tuples(st.just(n), st.sets(st.integers(1, n), min_size=3, max_size=n), st.integers(1, 30))
    )
)
def test_the_big_blind_goes_round_every_live_player_once_per_orbit(case):
    seats, occupied, hands = case
    live = sorted(occupied)
    pos = first_hand(seats, live, live[0])
    bigs = [pos.big_blind]
    for _ in range(hands):
        new = next_hand(seats, live, pos)
        assert new.big_blind in live and new.big_blind != pos.big_blind
        assert new.small_blind == pos.big_blind and new.button == pos.small_blind
        pos = new
        bigs.append(pos.big_blind)
    for i in range(len(bigs) - len(live) + 1):
        assert sorted(bigs[i : i + len(live)]) == live


@given(
    st.integers(min_value=2, max_value=10)
    .flatmap(lambda n: st.tuples(st.just(n), st.sets(st.integers(min_value=1, max_value=n), min_size=2)))
    .flatmap(lambda c: st.tuples(st.just(c[0]), st.just(sorted(c[1])), st.sampled_from(sorted(c[1]))))
)
def test_before_first_leads_to_the_first_hand_with_that_button(case):
    seats, live, button = case
    assert next_hand(seats, live, before_first(seats, live, button)) == first_hand(seats, live, button)
    assert following(seats, live, None, button) == first_hand(seats, live, button)


def test_following_knows_nothing_without_a_button_and_moves_a_button_that_left():
    assert following(9, [1, 4, 7], None, None) is None
    assert following(9, [1], Positions(1, 2, 3), None) is None
    # The drawn button's player left before the first hand: the button goes to the next player.
    assert following(9, [1, 4, 7], None, 2) == first_hand(9, [1, 4, 7], 4)
    assert following(9, [1, 4, 7], Positions(1, 4, 7), None) == next_hand(9, [1, 4, 7], Positions(1, 4, 7))
