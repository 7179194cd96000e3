"""The stacks a day after the first seats its players with, for the seat cards and the players'
seat page, whatever the tournament: an event's Day 2 seats the bags carried from its flights (flights/services/events.py,
carry_to_day2; its normal start draw seats them), a tournament played over several days the bags of the day before
(days/selectors/seating.py). Nothing on a first day, nor in a flight (its players go on in Day 2). One read, a constant
number of queries."""

from __future__ import annotations

from days.selectors.bags import current_day
from days.selectors.seating import FROM_BAG
from days.selectors.seating import day_stacks as days_stacks
from flights.models import CarriedBag
from flights.selectors.events import event_of_day2, flight_of
from tournament.models import Entry, Tournament


def day_stacks(t: Tournament) -> dict[int, dict]:
    """Entry number -> {day, chips, bag, source} for each player who sits down today with a stack brought from a
    day before (days.selectors.seating.day_stacks); in an event's Day 2, on its first day, each carried player's bag
    (day 2), and on its later days the bags of the day before, numbered as the event's days (Day 3...)."""
    if flight_of(t) is not None:
        return {}
    event = event_of_day2(t)
    if event is None:
        return days_stacks(t)
    if current_day(t) > 1:
        return days_stacks(t, offset=1)
    rows = CarriedBag.objects.filter(
        event=event, forfeited=False, day2_entry__tournament=t, day2_entry__status=Entry.Status.ACTIVE
    ).values_list("day2_entry__number", "chips", "bag__bag_number")
    return {number: {"day": 2, "chips": chips, "bag": bag, "source": FROM_BAG} for number, chips, bag in rows}
