"""The rules of an event with Day 1 flights, plain Python on plain values: which bags go on to Day 2
under the event's stack policy, and when a flight ends by the share of its field left.

Stack policy (a house setting):
- "best" (best stack forward): a player may play several flights; only his largest bag goes on (ties: the earliest
  flight, then the lower entry id), his other bags are forfeited;
- "first" (first stack forward): a player with a bag cannot register for a later flight (the desk refuses), so he has
  one bag; should he hold several all the same (bagged before the policy was chosen), the earliest flight's goes on.

End by share: a flight ends once the players left are at most `percent` % of its entries, compared exactly in whole
numbers (left × 100 ≤ entries × percent): the threshold shown is entries × percent / 100 rounded down, and at least 1
(a share that rounds to nobody ends the flight with its last player).

Players sent on by the share rules: places are paid from Day 2 only, so a Day 2 payout structure that pays more places
than the players the flights send on leaves its last places unpaid. The flights' share rules send on about the sum of
their thresholds (a flight ends at the end of the level in which its share is reached: some of those players may
still bust in that level, so the sum is what the rules aim at, not a floor). The sum is known only when every flight
of the event has a share rule: a flight ending after level N alone, or with no rule, sends on a number nobody can
tell beforehand, and a warning counted without it could be wrong both ways, so then there is none. A flight with both
rules counts its share: its level may stop it earlier with more players left, so there the warning errs towards
warning."""

from __future__ import annotations

from dataclasses import dataclass

BEST = "best"
FIRST = "first"
POLICIES = (BEST, FIRST)
MIN_PERCENT, MAX_PERCENT = 1, 99


@dataclass(frozen=True)
class Bagged:
    """A player's current bag at the end of a flight: `order` is the flight's place in the event (earliest first)."""

    player: int
    order: int
    entry: int
    chips: int


def _rank(bag: Bagged, policy: str) -> tuple:
    """The bag that goes on sorts first: best, the largest (ties: earliest flight, lower entry); first, the earliest."""
    if policy == BEST:
        return (-bag.chips, bag.order, bag.entry)
    return (bag.order, bag.entry)


def going_on(bags: list[Bagged], policy: str) -> tuple[list[Bagged], list[Bagged]]:
    """(carried, forfeited): for each player, the one bag that goes on to Day 2 by the policy, and every other bag.
    Each is sorted by (order, entry). Raises ValueError for an unknown policy."""
    if policy not in POLICIES:
        raise ValueError(f"unknown stack policy {policy!r}")
    chosen: dict[int, Bagged] = {}
    for bag in bags:
        held = chosen.get(bag.player)
        if held is None or _rank(bag, policy) < _rank(held, policy):
            chosen[bag.player] = bag
    kept = set(map(id, chosen.values()))
    carried = sorted(chosen.values(), key=lambda b: (b.order, b.entry))
    forfeited = sorted((b for b in bags if id(b) not in kept), key=lambda b: (b.order, b.entry))
    return carried, forfeited


def share_threshold(entries: int, percent: int) -> int:
    """The players left at which a flight ends: entries × percent / 100 rounded down, at least 1."""
    return max(1, entries * percent // 100)


def share_reached(entries: int, left: int, percent: int) -> bool:
    """Are the players left at most the share of the flight's entries? (Nobody left: the flight is over anyway.)"""
    return 0 < left <= share_threshold(entries, percent)


def players_sent_on(flights: list[tuple[int, int | None]]) -> int | None:
    """The players the flights' share rules send on to Day 2: the sum of each flight's share_threshold, given each
    flight's (entries, share percent or None). None (unknown) when there is no flight or a flight has no share rule."""
    if not flights or any(not percent for _entries, percent in flights):
        return None
    return sum(share_threshold(entries, percent) for entries, percent in flights)


def pays_beyond_sent_on(places_paid: int | None, sent_on: int | None) -> bool:
    """Does Day 2 pay more places than the players the share rules send on? False whenever either is unknown."""
    return places_paid is not None and sent_on is not None and places_paid > sent_on


def valid_percent(percent) -> bool:
    return isinstance(percent, int) and not isinstance(percent, bool) and MIN_PERCENT <= percent <= MAX_PERCENT
