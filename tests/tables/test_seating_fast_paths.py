"""The fast paths of the start draw and the floor map give exactly what the plain versions gave: the
seed stream read ahead in blocks, the inlined shuffle, the table choice with running totals, the floor
map built from rows with names put together by the database."""

from __future__ import annotations

import gc
import hashlib
import json
from datetime import date

import pytest

from core import errors
from tables.models import Table
from tables.rules import seating
from tables.rules.seating import Need, Room
from tables.selectors import screens
from tables.services import draws
from tables.services import setup as table_setup
from tests.helpers import id_doc
from tournament.services import registration

SEED = bytes(range(32))


def reference_stream(seed: bytes, n: int) -> bytes:
    """The documented stream: SHA-256(seed || i), i as 8 bytes big-endian, one block after another."""
    blocks = -(-n // 32)
    return b"".join(hashlib.sha256(seed + i.to_bytes(8, "big")).digest() for i in range(blocks))[:n]


class ReferenceRng:
    """below() and shuffle() written out from docs/draws.md over the reference stream."""

    def __init__(self, seed: bytes) -> None:
        self.data, self.pos = reference_stream(seed, 1 << 20), 0

    def below(self, n: int) -> int:
        if n == 1:
            return 0
        limit = 2**64 - (2**64 % n)
        while True:
            x = int.from_bytes(self.data[self.pos : self.pos + 8], "big")
            self.pos += 8
            if x < limit:
                return x % n

    def shuffle(self, items: list) -> list:
        for i in range(len(items) - 1, 0, -1):
            j = self.below(i + 1)
            items[i], items[j] = items[j], items[i]
        return items


def test_the_seed_stream_reads_the_blocks_in_order_across_refills():
    stream = seating.SeedStream(SEED)
    sizes = [1, 8, 3, 32, 64, 100, 7, 2048, 5]
    read = b"".join(stream._take(sizes[i % len(sizes)]) for i in range(200))
    assert read == reference_stream(SEED, len(read))


@pytest.mark.parametrize("n", [2, 3, 52, 1000, 10_007, 2**63 + 1, 2**64 - 1])  # 2**63 + 1 rejects about half
def test_below_and_shuffle_match_the_written_out_algorithm(n):
    fast, slow = seating.SeedStream(SEED), ReferenceRng(SEED)
    assert [fast.below(n) for _ in range(600)] == [slow.below(n) for _ in range(600)]  # past several refills
    assert fast.shuffle(list(range(5000))) == slow.shuffle(list(range(5000)))
    assert [fast.below(n) for _ in range(10)] == [slow.below(n) for _ in range(10)]  # and in step afterwards


def digest(result: dict) -> str:
    return hashlib.sha256(json.dumps(sorted(result.items())).encode()).hexdigest()


def test_draws_are_bit_identical_to_the_implementation_before_the_speed_up():
    """Hashes recorded with tables/rules/seating.py as it was before the fast paths (commit 8e589b2): draws with needs as
    they were drawn then, with the needs on the seed's own stream (separate_needs=False: how draws recorded
    before the needs had a stream of their own are recomputed)."""
    room = Room.of({t: range(1, 10 if t % 3 else 8) for t in range(1, 41)}, {}, accessible=[5, 17])
    needs = {7: Need(table=3, seat=4), 100: Need(table=12), 250: Need(accessible=True), 11: Need(table=3)}
    start = seating.draw_start(SEED, list(range(1, 301)), room, needs, separate_needs=False)
    assert digest(start) == "c2623f4fadd9f16f086cf0addaaf78522064fae94b466f968cb67b724ee63f53"
    assert room.players[3] == sum(1 for table, _seat in start.values() if table == 3)  # the room is still updated
    assert all(seat not in room.open_seats[table] for table, seat in start.values())
    room = Room.of({t: [x for x in range(1, 10) if (x + t) % 4] for t in range(1, 41)}, {t: t % 5 for t in range(1, 41)}, accessible=[5])
    late = seating.draw_late(SEED, list(range(500, 560)), room, {501: Need(accessible=True), 520: Need(table=9)}, separate_needs=False)
    assert digest(late) == "9960f5df570702852a16e5978235bc7b54275789524d76d7b67a8db8787913c8"
    shuffled = seating.SeedStream(SEED).shuffle(list(range(5000)))
    assert hashlib.sha256(json.dumps(shuffled).encode()).hexdigest() == "ea00102c80a92258e6b905ee32d64325dfd021af892ca236875ad92ed2c19aaa"


def choose_one_at_a_time(rows, count: int, needs: dict[int, Need]) -> list[int]:
    """_choose_tables as first written (re-summing after each table added)."""
    required = {need.table for need in needs.values() if need.table is not None}
    chosen = [row for row in rows if row.number in required]
    if any(need.accessible for need in needs.values()) and not any(row.accessible for row in chosen):
        chosen += [row for row in rows if row.accessible][:1]
    rest = [row for row in rows if row not in chosen]
    while True:
        capacity = sum(row.seats for row in chosen)
        if (chosen and capacity >= count and -(-count // len(chosen)) <= min(row.seats for row in chosen)) or not rest:
            break
        chosen.append(rest.pop(0))
    return sorted(row.number for row in chosen)


@pytest.mark.django_db
@pytest.mark.parametrize(
    "needs", [{}, {1: Need(table=6)}, {1: Need(accessible=True)}, {1: Need(table=2, seat=3), 2: Need(accessible=True)}]
)
def test_the_table_choice_is_the_one_table_at_a_time_choice(director, tournament, needs):
    for number, seats, accessible in [
        (1, 9, False),
        (2, 6, False),
        (3, 10, False),
        (4, 9, True),
        (5, 2, False),
        (6, 8, False),
        (7, 9, False),
        (8, 4, True),
    ]:
        table_setup.open_table(tournament, actor=director, number=number, seats=seats, accessible=accessible)
    table_setup.set_break_order(tournament, actor=director, numbers=[3, 7, 1, 8, 5, 2, 6, 4])
    models = list(Table.objects.filter(tournament=tournament, in_play=True).order_by("-break_order", "number"))
    for count in range(1, 58):
        chosen = draws.choose_tables(tournament, count=count, needs=needs)
        assert [row.number for row in chosen] == choose_one_at_a_time(models, count, needs), count
        assert all(
            (row.pk, row.seats, row.accessible) == (m.pk, m.seats, m.accessible) for row in chosen for m in models if m.number == row.number
        )
    with pytest.raises(errors.ServiceError) as exc:
        draws.choose_tables(tournament, count=58, needs=needs)
    assert exc.value.code == "venue_full"  # every table of the venue is in play: the answer says what is missing


@pytest.mark.django_db
def test_the_floor_map_puts_nicknames_in_brackets_and_counts_the_waiting(director, cashier, tournament):
    table_setup.open_table(tournament, actor=director, number=1, seats=9)
    table_setup.open_table(tournament, actor=director, number=2, seats=9)
    people = [("Jana", "Nováková", ""), ("Petr", "Černý", "Pete"), ("Eva", "O'Neil", "Ace (real)")]
    entries = []
    for i, (first, last, nick) in enumerate(people):
        player = registration.create_player(actor=cashier, first_name=first, last_name=last, date_of_birth=date(1985, 1, 1), nickname=nick)
        entries.append(registration.register_entry(tournament, actor=cashier, player=player, document=id_doc(f"NK{i:07d}")))
    before = screens.floor_map(tournament)
    assert before["waiting"] == 3 and before["players_seated"] == 0 and before["start_drawn"] is False
    assert before["next_draw"] is None or set(before["next_draw"]) == {"draw", "commitment"}
    draws.draw_start(tournament, actor=director)
    fm = screens.floor_map(tournament)
    names = {seat["entry"]: seat["name"] for t in fm["tables"] for seat in t["seat_list"] if seat["entry"]}
    assert names == {
        entries[0].number: "Jana Nováková",
        entries[1].number: "Petr Černý (Pete)",
        entries[2].number: "Eva O'Neil (Ace (real))",
    }
    assert names[entries[1].number] == entries[1].player.display_name
    assert fm["waiting"] == 0 and fm["players_seated"] == 3 and fm["start_drawn"] is True
    assert [list(t) for t in fm["tables"]][0] == [
        "table",
        "seats",
        "in_play",
        "accessible",
        "button",
        "break_position",
        "players",
        "status",
        "seat_list",
        "level",
        "on_old_level",
    ]


@pytest.mark.django_db
def test_the_collector_runs_again_after_a_draw_or_a_map_even_a_refused_draw(director, tournament):
    assert gc.isenabled()
    with pytest.raises(errors.ServiceError) as exc:
        draws.draw_start(tournament, actor=director)  # nobody registered: refused inside the paused stretch
    assert exc.value.code == "no_entries" and gc.isenabled()
    screens.floor_map(tournament)
    assert gc.isenabled()
    gc.disable()
    try:
        screens.floor_map(tournament)
        assert not gc.isenabled()  # left off when it was off
    finally:
        gc.enable()
