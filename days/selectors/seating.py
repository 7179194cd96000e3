"""Reads of the seating of a day after the first (the redraw is days/services/redraw.py): the stack each
player still in brings to the day (his bag of the day before, or his last count when the day closed without his
bag), whether the day's seating may be redrawn, and the stacks the seat cards and the players' seat page show.
Plain values, each read in a constant number of queries whatever the size of the field."""

from __future__ import annotations

from typing import NamedTuple

from days.models import Bag, Day
from days.selectors.bags import current_day, day_row, day_under_way, next_day_elsewhere
from tables.models import ChipCount, Draw
from tables.selectors.state import live_seats
from tournament.models import Entry, Tournament

# Where a player's stack for the day comes from: his bag of the day before; his last count (the day closed with
# his bag missing, and the director's reason); nothing known (never counted, never bagged).
FROM_BAG, FROM_COUNT, UNKNOWN = "bag", "count", "none"


class Held(NamedTuple):
    """An entry as stacks_at_start reads it."""

    pk: int
    number: int


def stacks_at_start(t: Tournament, *, day: int, entries) -> dict[int, dict]:
    """The stack each entry (rows with `pk` and `number`) brings to `day`, by entry number: {chips, bag, source}
    (source FROM_BAG with the bag number; FROM_COUNT, bag None: the last count; UNKNOWN: chips and bag None)."""
    bags = {
        pk: (chips, number)
        for pk, chips, number in Bag.objects.filter(tournament=t, day=day - 1, current=True).values_list("entry_id", "chips", "bag_number")
    }
    counts = dict(ChipCount.objects.filter(tournament=t, current=True).values_list("entry_id", "chips"))
    out = {}
    for entry in entries:
        if entry.pk in bags:
            chips, bag = bags[entry.pk]
            out[entry.number] = {"chips": chips, "bag": bag, "source": FROM_BAG}
        elif entry.pk in counts:
            out[entry.number] = {"chips": counts[entry.pk], "bag": None, "source": FROM_COUNT}
        else:
            out[entry.number] = {"chips": None, "bag": None, "source": UNKNOWN}
    return out


def redraw_of(t: Tournament, day: int) -> Draw | None:
    """The revealed draw that seated `day` (days.services.redraw.redraw_day), None while it has none."""
    return Draw.objects.filter(tournament=t, kind=Draw.Kind.REDRAW, drawn_at__isnull=False, inputs__day=day).order_by("number").first()


def redraw_state(t: Tournament) -> dict:
    """Whether the current day's seating may be redrawn, for the day page: day, possible (the day before is closed,
    play has not begun, no redraw yet, the players not carried to another tournament's next day), why not (`reason`:
    "first_day", "elsewhere" (a flight: its players go on to the event's Day 2), "under_way", "drawn"; None when
    possible),
    draw (the redraw's number once made, else None), players (still in)."""
    day = current_day(t)
    drawn = redraw_of(t, day) if day > 1 else None
    before = day_row(t, day - 1) if day > 1 else None
    if day == 1 or before is None or before.status != Day.Status.CLOSED:
        reason = "first_day"
    elif next_day_elsewhere(t) is not None:
        reason = "elsewhere"
    elif drawn is not None:
        reason = "drawn"
    elif day_under_way(t, day):
        reason = "under_way"
    else:
        reason = None
    return {
        "day": day,
        "possible": reason is None,
        "reason": reason,
        "draw": drawn.number if drawn else None,
        "players": Entry.objects.filter(tournament=t, status=Entry.Status.ACTIVE).count(),
    }


def day_stacks(t: Tournament, *, offset: int = 0) -> dict[int, dict]:
    """The stack each player sits down with on a day after the first, for the seat cards and the seat page: entry
    number -> {day, chips, bag, source} (as stacks_at_start; `day` is the day's number plus `offset`, for a Day 2
    tournament of an event with flights). Only players still in whose seat was taken after the day before closed
    (the day's redraw, or a seat of the day): none on the first day, none while the players still sit where the
    day before left them. The stacks the day's redraw recorded when there is one."""
    day = current_day(t)
    before = day_row(t, day - 1) if day > 1 else None
    if before is None or before.closed_at is None:
        return {}
    seated = list(
        live_seats(t)
        .filter(seated_at__gt=before.closed_at, entry__status=Entry.Status.ACTIVE)
        .values_list("entry_id", "entry__number", named=True)
    )
    if not seated:
        return {}
    drawn = redraw_of(t, day)
    recorded = ((drawn.inputs or {}).get("stacks") or {}) if drawn is not None else {}
    missing = [Held(pk, number) for pk, number in seated if str(number) not in recorded]
    computed = stacks_at_start(t, day=day, entries=missing) if missing else {}
    stacks = {number: recorded[str(number)] if str(number) in recorded else computed[number] for _pk, number in seated}
    return {
        number: {"day": day + offset, "chips": s.get("chips"), "bag": s.get("bag"), "source": s.get("source")}
        for number, s in stacks.items()
    }
