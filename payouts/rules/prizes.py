"""Finishing places to prizes (docs/rules.md "Deals and payouts"). Pure: no Django.

Every place in the money gets its prize. Players tied on a place range (busted in the same hand with
equal stacks, or at different tables in one hand-for-hand hand: place..place_low) add up the prizes of
their places and split the sum equally. What cannot be split to the minor unit goes one unit each to
the first of them in the tie's `order` (the verifiable draw made when the tie was recorded), or by
entry number when no order is given.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass


@dataclass(frozen=True)
class Finisher:
    entry: int  # the entry's number
    place: int  # the highest place of its range (1 = the winner)
    place_low: int  # the lowest place of its range (= place when nobody tied)


def prize_of_places(prizes: Sequence[int], place: int, place_low: int) -> int:
    """The sum of the prizes of places place..place_low (0 for places outside the money)."""
    if not 1 <= place <= place_low:
        raise ValueError(f"a place range runs from a place to a lower one, got {place}-{place_low}")
    return sum(prizes[place - 1 : place_low])


def split(
    prizes: Sequence[int], finishers: Sequence[Finisher], orders: Mapping[tuple[int, int], Sequence[int]] | None = None
) -> dict[int, int]:
    """Each finisher's prize (entry number -> minor units; 0 outside the money). Finishers sharing a
    place range split its prizes; `orders[(place, place_low)]`: the tied entries in the order the odd
    units go (missing or not naming exactly the tied entries: by entry number)."""
    groups: dict[tuple[int, int], list[int]] = {}
    for finisher in finishers:
        groups.setdefault((finisher.place, finisher.place_low), []).append(finisher.entry)
    won: dict[int, int] = {}
    for (place, low), entries in groups.items():
        total = prize_of_places(prizes, place, low)
        share, odd = divmod(total, len(entries))
        order = list((orders or {}).get((place, low), ()))
        if sorted(order) != sorted(entries):
            order = sorted(entries)
        for rank, entry in enumerate(order):
            won[entry] = share + (1 if rank < odd else 0)
    return won


def next_pay_jump(prizes: Sequence[int], players_left: int) -> tuple[int, int] | None:
    """(place, prize) the next bust moves the players left up to, when it pays more than where they
    stand now: the bubble (the first place paid, while nobody is in the money yet) or a pay jump.
    None when every place left pays the same as the next one, or nobody is left to bust."""
    if players_left < 2:
        return None
    now = prizes[players_left - 1] if players_left <= len(prizes) else 0
    for place in range(min(players_left - 1, len(prizes)), 0, -1):
        if prizes[place - 1] > now:
            return place, prizes[place - 1]
    return None
