"""Balancing and breaking (tables/balancing.py) as TDA scenarios."""
from tables.balancing import (
    DONOR_BREAK_ORDER,
    Move,
    NeedButton,
    Settings,
    TableState,
    balance_move,
    halted,
    table_to_break,
)
from tables.positions import Positions


def table(number, occupied, last=None, seats=9, break_order=None, **kw):
    return TableState(number, seats, frozenset(occupied), -number if break_order is None else break_order, last, **kw)


def test_balanced_tables_need_no_move():
    tables = [table(1, range(1, 9), Positions(1, 2, 3)), table(2, range(1, 8), Positions(1, 2, 3))]
    assert balance_move(tables) is None


def test_the_donors_next_big_blind_moves_to_the_seat_due_the_big_blind():
    donor = table(1, range(1, 10), Positions(4, 5, 6))  # next hand's big blind: seat 7
    short = table(2, [1, 2, 3, 5, 6, 7, 9], Positions(1, 2, 3))  # seat 4 open right after the big blind
    assert balance_move([donor, short]) == Move(1, 7, 2, 4, "big_blind")


def test_the_mover_never_takes_the_small_blind():
    donor = table(1, range(1, 10), Positions(1, 2, 3))
    # Seat 3 had the big blind and busted: it is the next small blind. Seat 8 is the only other open seat.
    short = table(2, [1, 2, 4, 5, 6, 7, 9], Positions(1, 2, 3))
    move = balance_move([donor, short])
    assert (move.to_seat, move.position) == (8, "in_play")


def test_only_a_seat_between_button_and_small_blind_open_the_mover_waits_for_the_button():
    donor = table(1, range(1, 10), Positions(1, 2, 3))
    # Next hand at table 2: button 2, small blind 4, big blind 5; seat 3 (between them) is the only
    # open seat, seat 8 is held for a player already on the way.
    short = table(2, [1, 2, 4, 5, 6, 7, 9], Positions(1, 2, 4), reserved=frozenset({8}))
    move = balance_move([donor, short], Settings(threshold=1))
    assert (move.to_table, move.to_seat, move.position) == (2, 3, "wait_for_button")


def test_unknown_positions_ask_the_floor_for_the_button():
    assert balance_move([table(1, range(1, 10)), table(2, range(1, 7), Positions(1, 2, 3))]) == NeedButton(1)
    assert balance_move([table(1, range(1, 10), Positions(1, 2, 3)), table(2, range(1, 7))]) == NeedButton(2)


def test_donor_by_break_order_and_the_house_procedure():
    a = table(1, range(1, 10), Positions(1, 2, 3), break_order=2)
    b = table(2, range(1, 10), Positions(1, 2, 3), break_order=1)
    short = table(3, range(1, 8), Positions(1, 2, 3), break_order=3)
    assert balance_move([a, b, short]).from_table == 2  # default: ties go to the table that breaks first
    assert balance_move([a, b, short], Settings(donor=DONOR_BREAK_ORDER)).from_table == 1


def test_halt_three_short_of_the_fullest():
    tables = [table(1, range(1, 10)), table(2, range(1, 7)), table(3, range(1, 8))]
    assert halted(tables) == [2]
    assert halted(tables, Settings(halt_short_by=2)) == [2, 3]


def test_a_table_breaks_when_everyone_fits_at_one_table_fewer():
    tables = [table(1, range(1, 9), break_order=1), table(2, range(1, 9), break_order=2), table(3, range(1, 3), break_order=3)]
    assert table_to_break(tables) == 1  # 18 players fit at two tables of nine: the first in break order breaks
    tables[2] = table(3, range(1, 4), break_order=3)
    assert table_to_break(tables) is None  # 19 players do not


# --- property: any sequence of busts, hand starts and confirmed moves ------------------------------

from hypothesis import given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

from tables import positions as pos  # noqa: E402
from tables import seating  # noqa: E402
from tables.balancing import next_big_blind  # noqa: E402


def _state(number, room_tables):
    t = room_tables[number]
    return TableState(number, t["seats"], frozenset(t["occupied"]), t["break_order"], t["last"])


def _settle(room_tables, rules, seed, log):
    """Apply the rules until they ask for nothing: breaks (everyone moves by the draw) and single
    moves, each confirmed at once. Checks every decision against the rule it follows."""
    for _ in range(200):
        live = {n for n, t in room_tables.items() if t["occupied"]}
        for n in set(room_tables) - live:
            del room_tables[n]
        if len(room_tables) < 2:
            return
        states = [_state(n, room_tables) for n in sorted(room_tables)]
        breaking = table_to_break(states)
        if breaking is not None:
            movers = sorted(room_tables[breaking]["occupied"].values())
            others = {n: t for n, t in room_tables.items() if n != breaking}
            plan = seating.Room.of({n: [s for s in range(1, t["seats"] + 1) if s not in t["occupied"]] for n, t in others.items()},
                                   {n: len(t["occupied"]) for n, t in others.items()})
            result = seating.draw_late(seed[:-1] + bytes([len(log) % 256]), movers, plan)
            for entry, (number, seat) in result.items():
                assert seat not in room_tables[number]["occupied"], "a seat given twice"
                room_tables[number]["occupied"][seat] = entry
            del room_tables[breaking]
            log.append(("break", breaking))
            continue
        decision = balance_move(states, rules)
        if decision is None:
            return
        assert isinstance(decision, Move)
        donor = _state(decision.from_table, room_tables)
        assert decision.from_seat == next_big_blind(donor), "the mover is the donor's next big blind"
        receiver = room_tables[decision.to_table]
        assert decision.to_seat not in receiver["occupied"], "a seat double-booked"
        assert decision.position != "small_blind"
        fullest = max(len(t["occupied"]) for t in room_tables.values())
        shortest = min(len(t["occupied"]) for t in room_tables.values())
        assert len(room_tables[decision.from_table]["occupied"]) == fullest
        assert len(receiver["occupied"]) == shortest
        entry = room_tables[decision.from_table]["occupied"].pop(decision.from_seat)
        receiver["occupied"][decision.to_seat] = entry
        log.append(("move", entry))
    raise AssertionError("the rules never settle")


@settings(max_examples=60, deadline=None)
@given(st.integers(min_value=12, max_value=60), st.integers(min_value=6, max_value=10), st.integers(min_value=2, max_value=3),
       st.integers(min_value=0, max_value=2**32), st.binary(min_size=32, max_size=32))
def test_after_any_busts_and_confirmed_moves_no_seat_is_double_booked_and_tables_stay_balanced(
        players, seats, threshold, steps, seed):
    import random

    rnd = random.Random(steps)  # the sequence of hand starts and busts
    rules = Settings(threshold=threshold)
    count = seating.tables_needed(players, seats)
    plan = seating.Room.of({n: list(range(1, seats + 1)) for n in range(1, count + 1)})
    drawn = seating.draw_start(seed, list(range(1, players + 1)), plan)
    room_tables = {n: {"seats": seats, "occupied": {}, "break_order": -n, "last": None} for n in range(1, count + 1)}
    for entry, (number, seat) in drawn.items():
        room_tables[number]["occupied"][seat] = entry
    for t in room_tables.values():
        if len(t["occupied"]) >= 2:
            t["last"] = pos.before_first(seats, sorted(t["occupied"]), min(t["occupied"]))
    log: list = []
    alive = players
    while alive > 1 and len(room_tables) > 1:
        if rnd.random() < 0.3:  # a hand starts somewhere: positions move on
            number = rnd.choice(sorted(room_tables))
            t = room_tables[number]
            if len(t["occupied"]) >= 2:
                t["last"] = pos.next_hand(seats, sorted(t["occupied"]), t["last"])
            continue
        number = rnd.choice(sorted(room_tables))
        t = room_tables[number]
        t["occupied"].pop(rnd.choice(sorted(t["occupied"])))
        alive -= 1
        _settle(room_tables, rules, seed, log)
        everyone = [e for t in room_tables.values() for e in t["occupied"].values()]
        assert len(everyone) == len(set(everyone)) == alive, "every player exactly once"
        if len(room_tables) > 1:
            counts = [len(t["occupied"]) for t in room_tables.values()]
            assert max(counts) - min(counts) < threshold, "balanced within the house threshold"
    if count > 1:
        assert ("break", max(n for n in range(1, count + 1) if n not in room_tables)) in log  # tables broke on the way
