"""Seat draws and the button draw (TDA 5, 6, 2): pure, deterministic given a seed.

Nothing here imports Django or does I/O: the same inputs and seed always give the same seats, so
anyone can recompute a recorded draw from its revealed seed (the algorithm is written out in the
manual, docs/draws.md, "The verifiable draw"; tests/verifier/verify.py follows it from outside). The steps,
exactly:

Random source. The seed is 32 bytes (shown as 64 hex digits). Block i of the stream is
SHA-256(seed || i), i as 8 bytes big-endian, i = 0, 1, 2, ...; the stream is the blocks one after
another. `below(1)` is 0 and reads nothing; for n >= 2, `below(n)` reads the next 8 bytes as a big-endian
integer x; if x < 2^64 - (2^64 mod n) it returns x mod n, otherwise it reads 8 more bytes (rejection: no
modulo bias). `shuffle(list)` is Fisher-Yates from the end: for i = len-1 down to 1, j = below(i + 1),
swap items i and j.

Inputs, always sorted: the entry numbers (ascending); the open seats of each table (table number
ascending, seats ascending); the players already at each table (reserved seats count as taken); the
special needs (per entry: a fixed table, a fixed table and seat, or an accessible table; and which
tables are accessible).

Placing one entry (late entries, re-entries, special needs): the candidate tables are those with an
open seat (for special needs: the fixed table, or the accessible tables) that already have players;
only when none has, the empty ones (a table opened because the room is full); among them, those with
the fewest players, in ascending table number; pick one with below(count); then its open seats in
ascending order, pick one with below(count) (a fixed seat is taken as it is).

Entries with special needs are placed before the others, most constrained first: fixed seats, then
fixed tables, then accessible tables, each group in ascending entry number (so a random placement
never takes a seat that a fixed-seat entry of the same draw is to have).

Special needs have a random stream of their own, seeded with SHA-256(seed || "special needs"): the
entries with needs are placed with it first, then the others are drawn with the seed's stream exactly as
in a draw without needs, over the seats the needs left. So the public check of a draw (docs/draws.md, step
5) recomputes everyone else from the seed without knowing who had a need or which: it is given the
seats the needs held, never the entries or the needs (those are committed to by a salted hash). Draws made
before this (`separate_needs=False`) placed the needs with the seed's stream itself.

The start draw: (1) entries with special needs, in the order above, are placed one by one as
above; (2) the other entries are shuffled; (3) the tables are shuffled; (4) each table's open seats
are shuffled, tables in ascending number; (5) the shuffled entries are dealt like cards: round after
round, going through the tables in their shuffled order, a table whose player count equals the
round's count (the lowest count first) and that has an open seat takes the next entry into its next
shuffled seat; until every entry is seated. Tables then differ by at most one player (unless special
needs force more).

The button draw: the 52 cards shuffled with the stream, one card to each occupied seat in ascending order; the
highest card wins, equal ranks by suit. The buttons of several tables at once (after a redraw): the tables in
ascending number, each from a new shuffle of the 52 cards by the stream continued (for one table, the same).
"""

from __future__ import annotations

import hashlib
import json
import struct
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field

SEED_BYTES = 32
_TWO_64 = 2**64
_U64 = struct.Struct(">Q").unpack_from
_REFILL_BLOCKS = 64  # 2 KiB of the stream per refill


class DrawError(ValueError):
    """The inputs cannot be drawn (not enough seats, an impossible special need). `code` names why."""

    def __init__(self, code: str, **details) -> None:
        super().__init__(code)
        self.code = code
        self.details = details


class SeedStream:
    """The documented random source: SHA-256 in counter mode over the seed.

    Blocks are computed ahead, _REFILL_BLOCKS at a time, and read through a position into the buffer
    (no copying of the rest at each read): the same bytes in the same order as one block at a time."""

    def __init__(self, seed: bytes) -> None:
        if len(seed) != SEED_BYTES:
            raise ValueError("a seed is 32 bytes")
        self._seed = seed
        self._counter = 0  # the next block to compute
        self._buffer = b""
        self._pos = 0  # bytes of the buffer already read

    def _refill(self, n: int) -> None:
        """Keep the unread bytes and append the next blocks, in counter order, until n bytes are unread."""
        unread = self._buffer[self._pos :]
        count = max(_REFILL_BLOCKS, -(-(n - len(unread)) // 32))
        seed, first = self._seed, self._counter
        blocks = [hashlib.sha256(seed + i.to_bytes(8, "big")).digest() for i in range(first, first + count)]
        self._buffer, self._pos, self._counter = unread + b"".join(blocks), 0, first + count

    def _take(self, n: int) -> bytes:
        if self._pos + n > len(self._buffer):
            self._refill(n)
        start = self._pos
        self._pos = start + n
        return self._buffer[start : start + n]

    def below(self, n: int) -> int:
        if n <= 0:
            raise ValueError("below(n) needs n >= 1")
        if n == 1:  # the only choice, and no bytes read: every draw ever published was made so (docs/draws.md, step 1)
            return 0
        limit = _TWO_64 - (_TWO_64 % n)
        while True:
            if self._pos + 8 > len(self._buffer):
                self._refill(8)
            x = _U64(self._buffer, self._pos)[0]  # the next 8 bytes, big-endian
            self._pos += 8
            if x < limit:
                return x % n

    def shuffle(self, items: list) -> list:
        # below(i + 1) written out inline: the start draw shuffles tens of thousands of times (bench/seating.py).
        buffer, pos = self._buffer, self._pos
        for i in range(len(items) - 1, 0, -1):
            n = i + 1
            limit = _TWO_64 - (_TWO_64 % n)
            while True:
                if pos + 8 > len(buffer):
                    self._pos = pos
                    self._refill(8)
                    buffer, pos = self._buffer, self._pos
                x = _U64(buffer, pos)[0]
                pos += 8
                if x < limit:
                    break
            j = x % n
            items[i], items[j] = items[j], items[i]
        self._pos = pos
        return items


def commitment(seed: bytes) -> str:
    """What the room sees before a draw: the SHA-256 of the seed, in hex."""
    return hashlib.sha256(seed).hexdigest()


@dataclass(frozen=True)
class Need:
    """A special need (TDA 6): a fixed table, a fixed table and seat, or an accessible table."""

    table: int | None = None
    seat: int | None = None
    accessible: bool = False


@dataclass
class Room:
    """Open seats and player counts per table: what a draw may use. Mutated as entries are placed."""

    open_seats: dict[int, list[int]]
    players: dict[int, int]
    accessible: frozenset[int] = field(default_factory=frozenset)

    @classmethod
    def of(cls, open_seats: Mapping[int, Iterable[int]], players: Mapping[int, int] | None = None, accessible: Iterable[int] = ()) -> Room:
        seats = {int(t): sorted(int(s) for s in ss) for t, ss in open_seats.items()}
        counts = {t: int((players or {}).get(t, 0)) for t in seats}
        return cls(open_seats=dict(sorted(seats.items())), players=counts, accessible=frozenset(accessible))

    def take(self, table: int, seat: int) -> None:
        self.open_seats[table].remove(seat)
        self.players[table] += 1


def _candidates(room: Room, need: Need | None) -> list[int]:
    if need is not None and need.table is not None:
        tables = [need.table] if need.table in room.open_seats else []
    elif need is not None and need.accessible:
        tables = [t for t in room.open_seats if t in room.accessible]
    else:
        tables = list(room.open_seats)
    tables = [t for t in tables if room.open_seats[t]]
    playing = [t for t in tables if room.players[t]]
    return playing or tables


def place_one(rng: SeedStream, room: Room, entry: int, need: Need | None = None) -> tuple[int, int]:
    """One entry to a random open seat at a table with the fewest players (among those its need allows)."""
    if need is not None and need.table is not None and need.seat is not None:
        if need.seat not in room.open_seats.get(need.table, []):
            raise DrawError("fixed_seat_taken", entry=entry, table=need.table, seat=need.seat)
        room.take(need.table, need.seat)
        return need.table, need.seat
    tables = _candidates(room, need)
    if not tables:
        if need is not None and (need.table is not None or need.accessible):
            raise DrawError("need_unmet", entry=entry, table=need.table, accessible=need.accessible)
        raise DrawError("no_open_seat", entry=entry)
    fewest = min(room.players[t] for t in tables)
    shortest = sorted(t for t in tables if room.players[t] == fewest)
    table = shortest[rng.below(len(shortest))]
    seats = room.open_seats[table]
    seat = seats[rng.below(len(seats))]
    room.take(table, seat)
    return table, seat


def _check_entries(entries: Sequence[int]) -> list[int]:
    ordered = sorted(int(e) for e in entries)
    if len(set(ordered)) != len(ordered):
        raise DrawError("duplicate_entry")
    return ordered


def _needs_first(ordered: Sequence[int], needs: Mapping[int, Need]) -> list[int]:
    """The entries with special needs, most constrained first: fixed seats, fixed tables, accessible."""

    def rank(entry: int) -> tuple[int, int]:
        need = needs[entry]
        return (0 if need.seat is not None else 1 if need.table is not None else 2), entry

    return sorted((e for e in ordered if e in needs), key=rank)


NEEDS_LABEL = b"special needs"


def needs_seed(seed: bytes) -> bytes:
    """The seed of the special needs' own stream."""
    return hashlib.sha256(seed + NEEDS_LABEL).digest()


def _needs_stream(seed: bytes, rng: SeedStream, separate: bool) -> SeedStream:
    return SeedStream(needs_seed(seed)) if separate else rng


def draw_late(
    seed: bytes, entries: Sequence[int], room: Room, needs: Mapping[int, Need] | None = None, separate_needs: bool = True
) -> dict[int, tuple[int, int]]:
    """Late entries, re-entries and players of a broken table: those with special needs first (as
    above, with their own stream), then the others in ascending entry number, each to a random open seat
    at a table with the fewest players."""
    rng = SeedStream(seed)
    needs = needs or {}
    ordered = _check_entries(entries)
    placing = _needs_stream(seed, rng, separate_needs)
    result = {entry: place_one(placing, room, entry, needs[entry]) for entry in _needs_first(ordered, needs)}
    result.update({entry: place_one(rng, room, entry) for entry in ordered if entry not in needs})
    return dict(sorted(result.items()))


def draw_start(
    seed: bytes, entries: Sequence[int], room: Room, needs: Mapping[int, Need] | None = None, separate_needs: bool = True
) -> dict[int, tuple[int, int]]:
    """The start draw over every table in `room` (the caller chose the fewest tables needed)."""
    rng = SeedStream(seed)
    needs = needs or {}
    ordered = _check_entries(entries)
    if len(ordered) > sum(len(s) for s in room.open_seats.values()):
        raise DrawError("no_open_seat", entries=len(ordered))
    result: dict[int, tuple[int, int]] = {}
    placing = _needs_stream(seed, rng, separate_needs)
    for entry in _needs_first(ordered, needs):
        result[entry] = place_one(placing, room, entry, needs[entry])
    rest = rng.shuffle([e for e in ordered if e not in needs])
    order = rng.shuffle(list(room.open_seats))
    seats = {t: rng.shuffle(list(room.open_seats[t])) for t in room.open_seats}
    next_seat = dict.fromkeys(room.open_seats, 0)
    players, open_seats = room.players, room.open_seats
    i = 0
    while i < len(rest):
        live = [t for t in order if next_seat[t] < len(seats[t])]
        level = min(players[t] for t in live)
        for table in live:
            if i == len(rest):
                break
            if players[table] != level:
                continue
            seat = seats[table][next_seat[table]]
            next_seat[table] += 1
            open_seats[table].remove(seat)  # room.take(table, seat), inline
            players[table] += 1
            result[rest[i]] = (table, seat)
            i += 1
    return dict(sorted(result.items()))


def tables_needed(entries: int, seats_per_table: int) -> int:
    """The fewest tables that seat everyone (TDA 5: as few tables as needed, filled evenly)."""
    return max(1, -(-entries // seats_per_table)) if entries else 0


# --- the button draw (high card; suits rank spades > hearts > diamonds > clubs) -----------------

RANKS = "23456789TJQKA"
SUITS = "cdhs"  # ascending: clubs < diamonds < hearts < spades
DECK = [r + s for r in RANKS for s in SUITS]


def card_value(card: str) -> tuple[int, int]:
    card = card.strip()
    if len(card) != 2 or card[0].upper() not in RANKS or card[1].lower() not in SUITS:
        raise DrawError("bad_card", card=card)
    return RANKS.index(card[0].upper()), SUITS.index(card[1].lower())


def normal_card(card: str) -> str:
    card_value(card)
    return card.strip()[0].upper() + card.strip()[1].lower()


def high_card_winner(cards: Mapping[int, str]) -> int:
    """The seat with the highest card; equal ranks are decided by suit (spades high)."""
    if not cards:
        raise DrawError("no_cards")
    normal = [normal_card(c) for c in cards.values()]
    if len(set(normal)) != len(normal):
        raise DrawError("duplicate_card")
    return max(cards, key=lambda seat: card_value(cards[seat]))


def deal_high_card(seed: bytes, seats: Sequence[int]) -> dict[int, str]:
    """One card from a shuffled deck to each occupied seat, in ascending seat order."""
    return deal_high_cards(seed, {0: seats})[0]


def deal_high_cards(seed: bytes, tables: Mapping[int, Sequence[int]]) -> dict[int, dict[int, str]]:
    """The button draw of several tables at once (the tables of a redraw): one stream; the tables in ascending
    number, each dealt as deal_high_card deals one table, from its own shuffle of the 52 cards by the stream
    continued. For one table it is deal_high_card."""
    rng, dealt = SeedStream(seed), {}
    for table in sorted(tables):
        if not tables[table]:
            raise DrawError("no_cards")
        deck = rng.shuffle(list(DECK))
        dealt[table] = {seat: deck[i] for i, seat in enumerate(sorted(tables[table]))}
    return dealt


def tie_order(seed: bytes, entries: Sequence[int]) -> list[int]:
    """The order in which tied players get the odd minor units of the prizes they share (docs/rules.md: what
    can't be split goes one unit each to tied players chosen by the draw): the sorted entries, shuffled."""
    return SeedStream(seed).shuffle(_check_entries(entries))


def held_room(room: Room, held: Iterable[Sequence[int]]) -> Room:
    """The room as the draw of the others sees it: the seats the special needs took are taken."""
    after = Room.of({t: list(s) for t, s in room.open_seats.items()}, dict(room.players), room.accessible)
    for table, seat in held:
        after.take(table, seat)
    return after


def needs_commitment(salt: bytes, needs_json: Mapping) -> str:
    """SHA-256 of the salt and the needs (canonical JSON): shown instead of the needs, it fixes them without
    telling them; whoever holds the salt and the needs can show they are the ones drawn with."""
    return hashlib.sha256(salt + json.dumps(needs_json, sort_keys=True, separators=(",", ":")).encode()).hexdigest()


def result_rows(result: dict[int, tuple[int, int]]) -> list[list[int]]:
    """A draw's result as it is recorded and published: [entry, table, seat] rows by entry number."""
    return [[entry, table, seat] for entry, (table, seat) in sorted(result.items())]
