"""Button and blinds per table (TDA 29, 31; the dead-button rule of the club rules): pure.

Seats are numbered 1..n clockwise. A hand's positions are the button, small blind and big blind
seats; the button or the small blind may be a seat with nobody in it ("dead"), the big blind never.

From one hand to the next (dead-button rule): the big blind moves forward to the next live player
after the seat that had it; the small blind goes to the seat that had the big blind; the button to
the seat that had the small blind. Nobody skips the big blind, nobody has it twice in a row.

Heads-up (two players): the button posts the small blind. When heads-up starts, the big blind
still moves forward to the next live player after the seat that had it, and the other player has
the button and the small blind, so nobody takes the big blind twice in a row.

A player who arrives at a seat strictly between the next hand's button and small blind (clockwise)
is not dealt in until the button has passed (TDA 7, club blinds rule 6).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

# The fields of a table (tables.models.Table) that hold its button and blinds, saved together.
POSITION_FIELDS = ["button_seat", "small_blind_seat", "big_blind_seat", "positions_next", "needs_button"]


@dataclass(frozen=True)
class Positions:
    button: int
    small_blind: int | None  # None: heads-up has no separate small blind seat (the button posts it)
    big_blind: int

    def as_dict(self) -> dict:
        return {"button": self.button, "small_blind": self.small_blind, "big_blind": self.big_blind}


def clockwise(seats: int, start: int, inclusive: bool = False) -> list[int]:
    """Seat numbers clockwise from `start` (excluded unless inclusive), once around the table."""
    first = 0 if inclusive else 1
    return [(start - 1 + k) % seats + 1 for k in range(first, seats + (1 if not inclusive else 0))]


def next_live(seats: int, occupied: Iterable[int], after: int) -> int:
    live = set(occupied)
    for seat in clockwise(seats, after):
        if seat in live:
            return seat
    raise ValueError("nobody is seated")


def first_hand(seats: int, occupied: Iterable[int], button: int) -> Positions:
    """Positions of the first hand after the button draw (or when the floor enters the button)."""
    live = sorted(set(occupied))
    if len(live) < 2:
        raise ValueError("a hand needs two players")
    if button not in live:
        raise ValueError("the button goes to a seated player")
    if len(live) == 2:
        return Positions(button=button, small_blind=button, big_blind=next_live(seats, live, button))
    small = next_live(seats, live, button)
    return Positions(button=button, small_blind=small, big_blind=next_live(seats, live, small))


def next_hand(seats: int, occupied: Iterable[int], previous: Positions) -> Positions:
    """The positions of the next hand, from the last hand's and who is seated now."""
    live = sorted(set(occupied))
    if len(live) < 2:
        raise ValueError("a hand needs two players")
    big = next_live(seats, live, previous.big_blind)
    if len(live) == 2:
        other = next(s for s in live if s != big)
        return Positions(button=other, small_blind=other, big_blind=big)
    small = previous.big_blind
    button = previous.small_blind if previous.small_blind is not None else previous.button
    return Positions(button=button, small_blind=small, big_blind=big)


def before_first(seats: int, occupied: Iterable[int], button: int) -> Positions:
    """Positions standing for "the hand before the first one", so that next_hand of them gives
    first_hand with this button: used when the button is known for the next hand only (a button
    draw, or the floor entering it) and a rule needs the previous hand's positions."""
    live = sorted(set(occupied))
    if len(live) < 2:
        raise ValueError("a hand needs two players")
    if button not in live:
        raise ValueError("the button goes to a seated player")
    if len(live) == 2:
        other = next(s for s in live if s != button)
        return Positions(button=other, small_blind=other, big_blind=button)
    return Positions(button=button, small_blind=button, big_blind=next_live(seats, live, button))


def following(seats: int, occupied: Iterable[int], last: Positions | None, button_next: int | None) -> Positions | None:
    """The positions of the next hand: from the last hand's, or from a button known for the next
    hand; None when neither is known (the floor enters the button)."""
    live = sorted(set(occupied))
    if len(live) < 2:
        return None
    if last is not None:
        return next_hand(seats, live, last)
    if button_next is not None:
        button = button_next if button_next in live else next_live(seats, live, button_next)
        return first_hand(seats, live, button)
    return None


def between_button_and_small_blind(seats: int, positions: Positions) -> list[int]:
    """Seats strictly between the button and the small blind, clockwise: a player arriving there
    waits for the button to pass."""
    if positions.small_blind is None or positions.small_blind == positions.button:
        return []
    out = []
    for seat in clockwise(seats, positions.button):
        if seat == positions.small_blind:
            return out
        out.append(seat)
    return out


@dataclass(frozen=True)
class SeatPosition:
    """What a slip tells the player who sits down at `seat`."""

    seat: int
    role: str  # "big_blind", "small_blind", "button", "wait_for_button" or "in_play"
    hands_to_big_blind: int


def arrival(seats: int, occupied: Iterable[int], last: Positions, seat: int) -> SeatPosition:
    """The position a player arriving at an open `seat` has in the next hand at this table."""
    live = set(occupied)
    if seat in live:
        raise ValueError("the seat is taken")
    with_player = sorted(live | {seat})
    if len(with_player) < 2:
        return SeatPosition(seat, "in_play", 0)
    upcoming = next_hand(seats, with_player, last)
    if seat == upcoming.big_blind:
        return SeatPosition(seat, "big_blind", 0)
    waits = seat in between_button_and_small_blind(seats, upcoming)
    # Hands until the big blind reaches this seat: count the live players from the next big blind.
    order = [s for s in clockwise(seats, upcoming.big_blind, inclusive=True) if s in with_player]
    hands = order.index(seat)
    if waits:
        return SeatPosition(seat, "wait_for_button", hands)
    if seat == upcoming.small_blind:
        return SeatPosition(seat, "small_blind", hands)
    if seat == upcoming.button:
        return SeatPosition(seat, "button", hands)
    return SeatPosition(seat, "in_play", hands)


def worst_open_seat(seats: int, occupied: Iterable[int], last: Positions, open_seats: Iterable[int]) -> SeatPosition:
    """TDA 8A: the open seat a player moving in takes: the one that takes the big blind soonest,
    never the small blind; a seat between the button and the small blind only when no other is
    open (the player then waits for the button)."""
    candidates = [arrival(seats, occupied, last, s) for s in sorted(set(open_seats))]
    if not candidates:
        raise ValueError("no open seat")  # callers pass at least one (balancing.pair picks tables that have one)
    playing = [c for c in candidates if c.role not in ("small_blind", "wait_for_button")]
    pool = playing or [c for c in candidates if c.role == "wait_for_button"] or candidates
    # Ties: the seat first clockwise after the last big blind (that seat itself, if open, comes last).
    return min(pool, key=lambda c: (c.hands_to_big_blind, (c.seat - last.big_blind - 1) % seats))
