"""A bag is made of the chips still in play: after the 25 chips left play at a color-up, a bag
of 300,025 (or 300,026, never made of these chips) cannot be sealed; it is refused with the chips in play named,
and nothing changes. Only color-ups the director confirmed count: a room that skipped the structure's color-up
still bags its 25s."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from days.models import Bag
from days.rules import bags as br
from days.services import bags as days_services
from tables.services import color_ups
from tests.days.test_bagging import even, state_of
from tests.helpers import refused, table
from tournament.models import Level


def test_makeable_worked_by_hand():
    assert not br.makeable(300_026, [25, 100, 500, 1000])  # not even with the 25s
    assert br.makeable(300_025, [25, 100, 500, 1000])
    assert not br.makeable(300_025, [100, 500, 1000, 5000])
    assert br.makeable(300_000, [100, 500, 1000, 5000])
    assert br.makeable(123, [])  # no chip set known: nothing to refuse
    # Not every chip set divides: with 300s and 500s, 700 cannot be made but 800 and 1100 can.
    assert not br.makeable(700, [300, 500]) and br.makeable(800, [300, 500]) and br.makeable(1100, [300, 500])
    assert not br.makeable(100, [300, 500])


@given(st.lists(st.integers(1, 60), min_size=1, max_size=4, unique=True), st.integers(0, 400))
def test_makeable_is_exactly_a_sum_of_chips(values, chips):
    reachable = {0}
    for total in range(1, chips + 1):
        if any(total - v in reachable for v in values):
            reachable.add(total)
    assert br.makeable(chips, values) == (chips in reachable)


def test_after_the_25s_left_play_a_bag_of_300026_is_refused(t, floor, director):
    bags = even(t, 1)
    first = min(bags)
    bags[first] = (300_026, bags[first][1])
    refused(br.UNMAKEABLE, days_services.record_table_bags, table(t, 1), actor=floor, bags=bags)
    bags[first] = (300_025, bags[first][1])
    level = Level.objects.get(structure=t.structure, kind=Level.Kind.BREAK).position
    color_ups.confirm_color_up(t, actor=director, level=level)
    before = state_of(t)
    refusal = refused(br.UNMAKEABLE, days_services.record_table_bags, table(t, 1), actor=floor, bags=bags)
    assert refusal.status == 400
    assert f"seat {first}" in refusal.message and "300025" in refusal.message and "(100, 500, 1000)" in refusal.message
    entry = next(s.entry for s in table(t, 1).seat_rows.filter(ended_at__isnull=True, seat=first))
    refused(br.UNMAKEABLE, days_services.record_bag, entry, actor=floor, chips=300_025, bag="X1")
    assert state_of(t) == before
    bags[first] = (300_000, bags[first][1])
    days_services.record_table_bags(table(t, 1), actor=floor, bags=bags)
    assert Bag.objects.get(tournament=t, entry=entry, current=True).chips == 300_000


def test_before_any_color_up_the_25s_are_in_the_bag(t, floor):
    bags = even(t, 1)
    first = min(bags)
    bags[first] = (300_025, bags[first][1])
    days_services.record_table_bags(table(t, 1), actor=floor, bags=bags)
    assert Bag.objects.filter(tournament=t, chips=300_025, current=True).count() == 1
