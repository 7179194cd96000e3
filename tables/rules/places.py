"""Finishing places of players busted in the same hand (docs/rules.md, "Deals and payouts"; WSOP R126,
TDA24 RP-8). Pure: no Django.

- At one table, the player who started the hand with more chips finishes higher; equal stacks tie.
- In a hand-for-hand hand, players busted at different tables tie (house setting "tie"), or are
  ordered by their starting stacks as if they had been at one table (house setting "stack").

With the "tie" setting and several busts at one table, each table's busts are ranked from the
bottom by their starting stacks (the smallest stack: depth 0; equal stacks share a depth). The
lowest places go to every table's depth 0 together (a tie), the next ones to depth 1, and so on:
nobody finishes above a player who had more chips at the same table, and players at different
tables who were as deep in their own table's order share their places.

A tie of k players over places p..p+k-1 is given as (p, p+k-1): the payouts add up the prizes of
those places and split them equally.
"""

from __future__ import annotations

from dataclasses import dataclass

TIE = "tie"
STACK = "stack"


@dataclass(frozen=True)
class Bust:
    key: int  # the caller's id of the player
    table: int
    stack: int  # chips at the start of the hand


def rank(busts: list[Bust], best_place: int, across_tables: str = TIE) -> dict[int, tuple[int, int]]:
    """Places for the busts of one hand, which take places best_place .. best_place + len - 1.
    Returns key -> (highest place, lowest place); the two differ for a tie."""
    if across_tables not in (TIE, STACK):
        raise ValueError(f"unknown tie rule {across_tables!r}")
    if len({b.key for b in busts}) != len(busts):
        raise ValueError("a player busts once")
    if any(b.stack < 0 for b in busts):
        raise ValueError("a starting stack is never negative")

    def group_of(b: Bust):
        return b.table if across_tables == TIE else None

    depth: dict[int, int] = {}
    for group in {group_of(b) for b in busts}:
        stacks = sorted({b.stack for b in busts if group_of(b) == group})
        for b in busts:
            if group_of(b) == group:
                depth[b.key] = stacks.index(b.stack)
    places: dict[int, tuple[int, int]] = {}
    lowest = best_place + len(busts) - 1
    for d in sorted(set(depth.values())):
        members = [b.key for b in busts if depth[b.key] == d]
        high = lowest - len(members) + 1
        for key in members:
            places[key] = (high, lowest)
        lowest = high - 1
    return places
