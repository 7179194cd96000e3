"""A satellite's prizes: seats in a target event, and the cash left over. Pure: no Django.

A seat is worth one entry into the target event: its buy-in and its fee (what the desk would take for it), or
its buy-in alone where the house waives the fee for a ticket (a house setting per satellite). The seats are the
prize pool divided by that, rounded down, and never more than the entries (a seat for a player who is not there
is cash). What is left is cash, by the house setting:
- to the next place (the first place without a seat: the player who busts on the seat bubble);
- or shared by the seat winners (an odd minor unit each to the best places).
With no seat at all (a pool below one seat), the cash goes to the winner either way. Play stops when the
players left equal the seats: every one of them has won a seat, and they rank equal.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

NEXT_PLACE, SEAT_WINNERS = "next_place", "seat_winners"
LEFTOVER = (NEXT_PLACE, SEAT_WINNERS)


@dataclass(frozen=True)
class SatellitePrizes:
    seats: int
    seat_value: int  # minor units: the target's buy-in and fee, or its buy-in alone
    cash: tuple[int, ...]  # by place, 1 first: the cash each place gets besides its seat

    @property
    def leftover(self) -> int:
        return sum(self.cash)

    def prize_of(self, place: int) -> tuple[bool, int]:
        """(a seat?, cash) for a place."""
        return place <= self.seats, self.cash[place - 1] if place <= len(self.cash) else 0


def satellite_prizes(pool: int, seat_value: int, entries: int, leftover: str = NEXT_PLACE) -> SatellitePrizes:
    """The seats and the cash of a satellite with `pool` (minor units) and `entries` entries."""
    if seat_value <= 0:
        raise ValueError("a seat is worth more than nothing: the target event has a buy-in")
    if pool < 0 or entries < 0:
        raise ValueError("a pool and entries are not negative")
    if leftover not in LEFTOVER:
        raise ValueError(f"the cash left over goes to one of {', '.join(LEFTOVER)}")
    seats = min(pool // seat_value, entries)
    rest = pool - seats * seat_value
    if not rest:
        return SatellitePrizes(seats, seat_value, ())
    if leftover == NEXT_PLACE or seats == 0:
        # The next place, when there is one; with a seat for everybody, the leftover goes to the seat winners.
        if seats < entries or seats == 0:
            return SatellitePrizes(seats, seat_value, (0,) * seats + (rest,))
    share, odd = divmod(rest, seats)
    return SatellitePrizes(seats, seat_value, tuple(share + (1 if place < odd else 0) for place in range(seats)))


def play_stops_at(prizes: SatellitePrizes) -> int:
    """How many players are left when play stops: the seats (at least one: a satellite without a seat is played
    to a winner)."""
    return max(prizes.seats, 1)


def seat_winners(
    active: Sequence[int],
    finished: Iterable[tuple[int, int, int]],
    seats: int,
    orders: Mapping[tuple[int, int], Sequence[int]] | None = None,
) -> list[int]:
    """The entries that won a seat, by entry number; none while play goes on (more players left than seats)
    or when there is no seat.

    `active`: the entries still playing; `finished`: (entry, place, place_low) of the entries out. Play stops at
    the seats, so the players left have theirs; the players busted in the hand that stopped play take the places
    below them, and those placed within the seats win one too. Players tied across the last seat (busted in the
    same hand with the same chips, or at different tables in a hand-for-hand hand under the "tie" rule) take the
    seats left in the order of their tie's draw (`orders[(place, place_low)]`, as for the odd units of a prize;
    by entry number without one)."""
    if seats <= 0 or len(active) > seats:
        return []
    winners = sorted(active)
    groups: dict[tuple[int, int], list[int]] = {}
    for entry, place, low in finished:
        if place <= seats:
            groups.setdefault((place, low), []).append(entry)
    for (place, low), entries in sorted(groups.items()):
        room = seats - len(winners)
        if room <= 0:
            break
        order = list((orders or {}).get((place, low), ()))
        if sorted(order) != sorted(entries):
            order = sorted(entries)
        winners += order[:room]
    return sorted(winners)
