"""Bag-and-tag: the rules of the end of a day, plain Python on plain values, no Django. The
services (days/services/bags.py) and the reads (days/selectors/bags.py) call these.

At the end of a day every player still in has his chips counted and sealed in a numbered bag. A bag number is
short text written on the bag: spaces are dropped and letters upper-cased ("a 17" is "A17"), and it holds letters,
digits and '-' only, 1 to 16 of them. A bag holds at least one chip: a player with none is busted, not bagged. A
table's bags are entered at once (every seated player), so a seated player left out is refused, as is a bag number
given twice or already on another player's bag. A bag is made of the chips still in play: after the 25 chips left
play at a color-up, 300,026 cannot be in a bag (`makeable`); such a count is refused, not flagged, because it is
always a miscount or a chip of a removed denomination, which the floor exchanges before the bag is sealed (TDA 21C:
tables/services/color_ups.exchange_found_chips), and the count is entered again at once.

The day closes once every player still in is bagged and the bags add up to the chips in play; otherwise the
director records why (bags missing, a difference), and the close records it.
"""

from __future__ import annotations

import heapq
import math
import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache

from tables.rules.chip_counts import MAX_CHIPS, big_blinds, ranked

BAG_MAX = 16
BAG_PATTERN = re.compile(r"^[A-Z0-9-]+$")

# The problems of a bag number, by code.
BAG_EMPTY = "bag_missing"  # no bag number
BAG_TOO_LONG = "bag_too_long"  # more than BAG_MAX characters
BAG_CHARACTERS = "bag_characters"  # a character other than a letter, a digit or '-'

# The problems of a table's bags, by code: each names a seat.
EMPTY_SEAT = "empty_seat"  # a bag for a seat nobody holds
MISSING = "missing"  # a seated player with no bag: a table's bags are entered at once
NO_CHIPS = "no_chips"  # fewer than one chip: a player with no chips is busted, not bagged
TOO_MANY = "too_many"  # beyond MAX_CHIPS: a typo of a dozen digits
BAG_TWICE = "bag_twice"  # the same bag number on two seats of the batch
BAG_TAKEN = "bag_taken"  # the bag number is on another player's current bag
UNMAKEABLE = "unmakeable"  # no set of the chips still in play makes the count


def normalise(text) -> str:
    """A bag number as it is stored: every space dropped, letters upper-cased."""
    return "".join(str(text or "").split()).upper()


def bag_problem(text) -> str | None:
    """What is wrong with a bag number (normalised first), or None."""
    bag = normalise(text)
    if not bag:
        return BAG_EMPTY
    if len(bag) > BAG_MAX:
        return BAG_TOO_LONG
    if not BAG_PATTERN.match(bag):
        return BAG_CHARACTERS
    return None


@lru_cache(maxsize=64)
def _smallest_by_residue(denominations: tuple[int, ...]) -> tuple[int, ...]:
    """For each remainder r modulo the smallest chip, the smallest total of chips with that remainder (math.inf:
    none): the shortest paths over the remainders (the chips are few, the smallest chip's value is the bound)."""
    smallest = denominations[0]
    best = [math.inf] * smallest
    best[0] = 0
    queue = [(0, 0)]
    while queue:
        total, residue = heapq.heappop(queue)
        if total > best[residue]:
            continue
        for value in denominations[1:]:
            step, nxt = total + value, (residue + value) % smallest
            if step < best[nxt]:
                best[nxt] = step
                heapq.heappush(queue, (step, nxt))
    return tuple(best)


def makeable(chips: int, denominations: Sequence[int]) -> bool:
    """Whether some set of chips of these values (any number of each) adds up to `chips`. No denominations known:
    anything is."""
    values = tuple(sorted({v for v in denominations if v > 0}))
    if not values:
        return True
    if chips % math.gcd(*values):
        return False
    return chips >= _smallest_by_residue(values)[chips % values[0]]


def table_bag_problems(
    seated: Mapping[int, int],
    bags: Mapping[int, tuple[int, str]],
    held: Mapping[str, int],
    *,
    whole: bool = True,
    denominations: Sequence[int] = (),
) -> list[tuple[str, int]]:
    """What is wrong with bags entered for a table, one problem per seat, in seat order; empty when they can be
    recorded. `seated`: seat -> the entry seated there; `bags`: seat -> (chips, bag number as typed); `held`:
    normalised bag number -> the entry whose current bag carries it (any entry's: the number is free for the entry
    that holds it). With `whole`, every seated player must be bagged. `denominations`: the chips still in play
    (none given: any count is made of them)."""
    problems: list[tuple[str, int]] = []
    seen: set[str] = set()
    for seat in sorted(set(seated) | set(bags)):
        if seat not in seated:
            problems.append((EMPTY_SEAT, seat))
            continue
        if seat not in bags:
            if whole:
                problems.append((MISSING, seat))
            continue
        chips, text = bags[seat]
        bag = normalise(text)
        if chips < 1:
            problems.append((NO_CHIPS, seat))
        elif chips > MAX_CHIPS:
            problems.append((TOO_MANY, seat))
        elif (problem := bag_problem(bag)) is not None:
            problems.append((problem, seat))
        elif bag in seen:
            problems.append((BAG_TWICE, seat))
        elif bag in held and held[bag] != seated[seat]:
            problems.append((BAG_TAKEN, seat))
        elif not makeable(chips, denominations):
            problems.append((UNMAKEABLE, seat))
        seen.add(bag)
    return problems


@dataclass(frozen=True)
class CloseCheck:
    """Where the day stands for closing: every player still in, those bagged, the missing (table, seat, entry) in
    table and seat order (a player with no seat: table and seat None, last), the bags' total, the chips in play."""

    players: int
    bagged: int
    missing: tuple[tuple[int | None, int | None, int], ...]
    total: int
    chips_in_play: int

    @property
    def off_by(self) -> int:
        """The bags' total less the chips in play, whoever is bagged."""
        return self.total - self.chips_in_play

    @property
    def difference(self) -> int | None:
        """The bags' total less the chips in play, once every player still in is bagged (else None)."""
        return None if self.missing else self.off_by

    @property
    def needs_reason(self) -> bool:
        """Closing needs the director's reason: bags are missing, or they do not add up."""
        return bool(self.missing) or bool(self.off_by)

    def missing_by_table(self) -> list[tuple[int | None, tuple[int, ...]]]:
        """The seats missing, by table (table None: the entry numbers of players with no seat)."""
        out: dict[int | None, list[int]] = {}
        for table, seat, entry in self.missing:
            out.setdefault(table, []).append(seat if table is not None else entry)
        return [(table, tuple(items)) for table, items in out.items()]


def _missing_order(row: tuple[int | None, int | None, int]) -> tuple:
    table, seat, entry = row
    return (table is None, table or 0, seat or 0, entry)


def close_check(players: Iterable[tuple[int, int | None, int | None]], bags: Mapping[int, int], *, chips_in_play: int) -> CloseCheck:
    """`players`: (entry, table, seat) of every player still in (table and seat None: not seated); `bags`: entry ->
    the chips of his current bag for the day. Bags of entries not in `players` (busted after bagging) are left out."""
    players = list(players)
    bagged = [entry for entry, _table, _seat in players if entry in bags]
    missing = sorted(((table, seat, entry) for entry, table, seat in players if entry not in bags), key=_missing_order)
    return CloseCheck(
        players=len(players),
        bagged=len(bagged),
        missing=tuple(missing),
        total=sum(bags[entry] for entry in bagged),
        chips_in_play=chips_in_play,
    )


def report(stacks: Iterable[tuple[int, int]], big_blind: int) -> list[tuple[int, int, int, float | None]]:
    """The day's report order: (rank, entry, chips, big blinds) for each (entry, chips), the largest stack first,
    ties by entry number; equal stacks share a rank and the next skips (1, 2, 2, 4)."""
    return [(rank, entry, chips, big_blinds(chips, big_blind)) for rank, entry, chips in ranked(stacks)]
