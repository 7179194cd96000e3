"""The public draw check ties no special need to an entry, and anyone can still recompute it.

Special needs are placed with a stream of their own (tables/rules/seating.py), so the draw of everyone else is an
ordinary draw over the room with the held seats taken: the public check lists those seats without their
entries, shows the needs as a count and a salted commitment, and recomputes the rest. Before, the public
JSON carried `{"<entry>": {"accessible": true}}`, and the seat search named the entry."""

from __future__ import annotations

import json
from datetime import date

from hypothesis import given, settings
from hypothesis import strategies as st
from rest_framework.test import APIClient

from tables.models import Draw, Seat
from tables.rules import seating
from tables.rules.seating import Need, Room
from tables.services import draws, seats
from tables.services import setup as table_setup
from tests.helpers import id_doc, open_tables, register
from tournament.services import registration


def rows_of(result: dict) -> list[list[int]]:
    return seating.result_rows(result)


@st.composite
def draws_with_needs(draw):
    tables = draw(st.integers(2, 8))
    size = draw(st.integers(4, 10))
    open_seats = {t: list(range(1, size + 1)) for t in range(1, tables + 1)}
    accessible = draw(st.lists(st.sampled_from(range(1, tables + 1)), min_size=1, max_size=2, unique=True))
    count = draw(st.integers(2, tables * size))
    entries = list(range(1, count + 1))
    chosen = draw(st.lists(st.sampled_from(entries), max_size=4, unique=True))
    needs = {}
    for i, entry in enumerate(chosen):
        kind = draw(st.sampled_from(["accessible", "table", "seat"]))
        needs[entry] = (
            Need(accessible=True)
            if kind == "accessible"
            else Need(table=1 + i % tables)
            if kind == "table"
            else Need(table=1 + i % tables, seat=1 + i)
        )
    return open_seats, accessible, entries, needs, draw(st.binary(min_size=32, max_size=32)), draw(st.booleans())


@settings(max_examples=150, deadline=None)
@given(draws_with_needs())
def test_the_others_recompute_from_the_seed_and_the_held_seats_alone(case):
    open_seats, accessible, entries, needs, seed, start = case

    def room():
        counts = dict.fromkeys(open_seats, 0) if start else {t: 1 for t in open_seats}
        return Room.of({t: list(s) for t, s in open_seats.items()}, counts, accessible)

    fn = seating.draw_start if start else seating.draw_late
    try:
        result = fn(seed, entries, room(), needs)
    except seating.DrawError:
        return  # an impossible need (two fixed to one seat, no room): refused, nothing to check
    held = sorted([table, seat] for entry, (table, seat) in result.items() if entry in needs)
    others = [e for e in entries if e not in needs]
    public = fn(seed, others, seating.held_room(room(), held))  # no needs, no entries of theirs
    assert public == {e: place for e, place in result.items() if e not in needs}


def test_the_public_check_names_no_need_and_still_recomputes(director, floor, cashier, tournament):
    open_tables(director, tournament, [1, 2, 3])
    table_setup.open_table(tournament, actor=director, number=4, seats=9, accessible=True)
    entries = register(cashier, tournament, 14)
    wheelchair, fixed = entries[0], entries[5]
    seats.set_seat_request(tournament, actor=floor, player=wheelchair.player, accessible=True)
    seats.set_seat_request(tournament, actor=floor, player=fixed.player, table_number=2, seat=3)
    draw = draws.draw_start(tournament, actor=director)
    answer = APIClient().get(f"/api/tournaments/{tournament.pk}/draws/{draw.number}/")
    assert answer.status_code == 200
    check = answer.json()
    text = json.dumps(check)
    assert "accessible" not in text  # neither a need nor which tables have access
    assert wheelchair.number not in check["inputs"]["entries"] and fixed.number not in check["inputs"]["entries"]
    assert all(row[0] not in (wheelchair.number, fixed.number) for row in check["result"] + check["written"])
    seat_of = {
        e: (s.table.number, s.seat) for e, s in ((x.number, Seat.objects.get(entry=x, ended_at__isnull=True)) for x in (wheelchair, fixed))
    }
    assert check["inputs"]["held"] == sorted([list(seat_of[wheelchair.number]), list(seat_of[fixed.number])])
    assert check["inputs"]["needs"]["count"] == 2 and len(check["inputs"]["needs"]["commitment"]) == 64
    assert check["matches"] is True and check["recomputed"] == check["result"] and len(check["result"]) == 12
    # anyone recomputes it with the documented algorithm from what is public only
    room = Room.of(
        {int(t): s for t, s in check["inputs"]["open_seats"].items()}, {int(t): n for t, n in check["inputs"]["players"].items()}
    )
    assert rows_of(seating.draw_start(bytes.fromhex(check["seed"]), check["inputs"]["entries"], room)) == check["result"]
    # the commitment opens with the salt and the needs the room keeps
    draw.refresh_from_db()
    salt = bytes.fromhex(draw.inputs["needs_salt"])
    assert seating.needs_commitment(salt, draw.inputs["needs"]) == check["inputs"]["needs"]["commitment"]
    page = APIClient().get(f"/s/{tournament.pk}/draws/{draw.number}/").content.decode()
    assert "2 seats held for special needs" in page and f"#{wheelchair.number}<" not in page


def test_a_late_entry_with_a_need_stays_out_of_the_public_check(director, floor, cashier, tournament):
    open_tables(director, tournament, [1, 2])
    table_setup.open_table(tournament, actor=director, number=3, seats=9, accessible=True)
    register(cashier, tournament, 8)
    draws.draw_start(tournament, actor=director)
    player = registration.create_player(actor=cashier, first_name="Wheel", last_name="Chair", date_of_birth=date(1980, 1, 1))
    seats.set_seat_request(tournament, actor=floor, player=player, accessible=True)
    entry = registration.register_entry(tournament, actor=cashier, player=player, document=id_doc("WC0000001"))
    draw = Draw.objects.filter(tournament=tournament, kind=Draw.Kind.LATE).latest("number")
    check = APIClient().get(f"/api/tournaments/{tournament.pk}/draws/{draw.number}/").json()
    assert check["matches"] is True and check["inputs"]["entries"] == [] and check["result"] == []
    assert len(check["inputs"]["held"]) == 1 and entry.number not in check["inputs"]["entries"]
    assert "accessible" not in json.dumps(check)
