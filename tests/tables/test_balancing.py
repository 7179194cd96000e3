"""Balancing and breaking (tables/rules/balancing.py) as TDA scenarios."""

from tables.rules.balancing import (
    DONOR_BREAK_ORDER,
    DONOR_FULLEST,
    NO_MOVER,
    NO_OPEN_SEAT,
    Move,
    NeedButton,
    NoMove,
    Settings,
    TableState,
    balance_move,
    break_fits,
    buttons_needed,
    due,
    halted,
    table_to_break,
)
from tables.rules.positions import Positions


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
    donor = table(1, range(1, 11), Positions(1, 2, 3), seats=10)
    # Next hand at table 2: button 2, small blind 4, big blind 5; seat 3 (between them) is the only
    # open seat, seat 8 is held for a player already on the way.
    short = table(2, [1, 2, 4, 5, 6, 7, 9], Positions(1, 2, 4), reserved=frozenset({8}))
    move = balance_move([donor, short])
    assert (move.to_table, move.to_seat, move.position) == (2, 3, "wait_for_button")


def test_tables_one_apart_are_as_balanced_as_they_can_be_even_at_threshold_one():
    """A move between tables one player apart only swaps which is short: threshold 1 balances as 2 does."""
    nine = table(1, range(1, 10), Positions(1, 2, 3))
    eight = table(2, range(1, 9), Positions(1, 2, 3))
    assert balance_move([nine, eight], Settings(threshold=1)) is None
    seven = table(2, range(1, 8), Positions(1, 2, 3))
    assert isinstance(balance_move([nine, seven], Settings(threshold=1)), Move)


def test_the_shortest_table_with_no_open_seat_is_no_move_not_an_error():
    """The case that used to be an error: table 1 gave a player (slip pending) and is short by count, but all
    its seats are still taken. Nothing can move there; the floor is told why."""
    giving = table(1, range(1, 10), Positions(1, 2, 3), leaving=frozenset({4, 5}))  # 7 players, 0 open seats
    full = table(2, range(1, 10), Positions(1, 2, 3))  # 9 players
    assert balance_move([giving, full], Settings(threshold=1)) == NoMove(NO_OPEN_SEAT, 2, 1)
    # Another table short enough with an open seat takes the player instead.
    other = table(3, range(1, 8), Positions(1, 2, 3), break_order=-10)
    move = balance_move([giving, full, other])
    assert (move.from_table, move.to_table) == (2, 3)


def test_a_smaller_full_table_cannot_receive():
    six_max = table(1, range(1, 7), Positions(1, 2, 3), seats=6)  # full at six
    nine = table(2, range(1, 10), Positions(1, 2, 3))
    assert balance_move([six_max, nine]) == NoMove(NO_OPEN_SEAT, 2, 1)


def test_no_mover_when_every_player_of_the_fullest_table_is_moving_out_already():
    arriving = table(1, [1], Positions(1, 2, 3), leaving=frozenset({1}), reserved=frozenset(range(2, 10)))
    short = table(2, [1, 2, 3, 4, 5, 6], Positions(1, 2, 3))  # 8 players (all on their way) against 6
    assert balance_move([arriving, short]) == NoMove(NO_MOVER, 1, 2)


def test_the_open_seat_of_the_last_big_blind_can_be_the_only_one():
    """The big blind busted at a table whose other players fill it: that seat (the next small blind)
    is the only one open and the mover takes it."""
    donor = table(1, range(1, 10), Positions(1, 2, 3))
    short = table(2, [1, 2, 4, 5, 6, 7, 8, 9], Positions(1, 2, 3), leaving=frozenset({8, 9}))
    move = balance_move([donor, short])
    assert (move.to_table, move.to_seat, move.position) == (2, 3, "small_blind")


def test_unknown_positions_ask_the_floor_for_the_button():
    assert balance_move([table(1, range(1, 10)), table(2, range(1, 7), Positions(1, 2, 3))]) == NeedButton(1)
    assert balance_move([table(1, range(1, 10), Positions(1, 2, 3)), table(2, range(1, 7))]) == NeedButton(2)


def test_a_table_with_one_player_and_others_on_their_way_needs_no_button():
    """Found playing a night through the screens: one player alone at table 4 (a wheelchair seat), a slip
    already bringing a second: the next move asked for table 4's button, which the floor cannot give while
    one player sits there ("The button goes to an occupied seat"), and the slips waited for it. Players on
    their way do not play there yet: any seat plays at once, as at a table of one."""
    donor = table(1, range(1, 10), Positions(1, 2, 3))
    alone = table(4, [6], reserved=frozenset({1}))
    assert balance_move([donor, alone]) == Move(1, 4, 4, 2, "in_play")
    assert buttons_needed([donor, alone, table(2, range(1, 10), Positions(1, 2, 3))]) == []
    two = table(4, [6, 7], reserved=frozenset({1}))  # two seated: their game has a button to know
    assert balance_move([donor, two]) == NeedButton(4)


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

from tables.rules import positions as pos  # noqa: E402
from tables.rules import seating  # noqa: E402
from tables.rules.balancing import next_big_blind  # noqa: E402


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
            plan = seating.Room.of(
                {n: [s for s in range(1, t["seats"] + 1) if s not in t["occupied"]] for n, t in others.items()},
                {n: len(t["occupied"]) for n, t in others.items()},
            )
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
@given(
    st.integers(min_value=12, max_value=60),
    st.integers(min_value=6, max_value=10),
    st.integers(min_value=1, max_value=5),
    st.integers(min_value=0, max_value=2**32),
    st.binary(min_size=32, max_size=32),
)
def test_after_any_busts_and_confirmed_moves_no_seat_is_double_booked_and_tables_stay_balanced(players, seats, threshold, steps, seed):
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
            assert max(counts) - min(counts) < max(threshold, 2), "balanced within the house threshold"
    if count > 1:
        assert ("break", max(n for n in range(1, count + 1) if n not in room_tables)) in log  # tables broke on the way


# --- property: any room the database can hold, any house setting: an answer, never an exception ----


@st.composite
def rooms(draw):
    """Tables of any size with players seated, some moving out (leaving) and seats held for players on
    their way (reserved), with known or unknown positions, and a house setting."""
    count = draw(st.integers(min_value=2, max_value=5))
    tables = []
    for number in range(1, count + 1):
        seats = draw(st.integers(min_value=2, max_value=10))
        states = draw(st.lists(st.sampled_from(["open", "seated", "leaving", "reserved"]), min_size=seats, max_size=seats))
        occupied = frozenset(s for s, x in enumerate(states, start=1) if x in ("seated", "leaving"))
        leaving = frozenset(s for s, x in enumerate(states, start=1) if x == "leaving")
        reserved = frozenset(s for s, x in enumerate(states, start=1) if x == "reserved")
        live = sorted(occupied | reserved)
        last = None
        if len(live) >= 2 and draw(st.booleans()):
            last = pos.before_first(seats, live, draw(st.sampled_from(live)))
            for _ in range(draw(st.integers(min_value=0, max_value=3))):
                last = pos.next_hand(seats, live, last)
        tables.append(
            TableState(number, seats, occupied, draw(st.integers(min_value=-3, max_value=3)), last, reserved=reserved, leaving=leaving)
        )
    rules = Settings(
        threshold=draw(st.integers(min_value=1, max_value=5)),
        halt_short_by=draw(st.integers(1, 9)),
        donor=draw(st.sampled_from([DONOR_FULLEST, DONOR_BREAK_ORDER])),
    )
    return [t for t in tables if t.players > 0], rules


@settings(max_examples=400, deadline=None)
@given(rooms())
def test_the_planner_answers_every_room_with_a_legal_move_or_says_why_not(room):
    tables, rules = room
    decision = balance_move(tables, rules)  # any exception fails the test
    by_number = {t.number: t for t in tables}
    if decision is None:
        assert len(tables) < 2 or max(t.players for t in tables) - min(t.players for t in tables) < max(rules.threshold, 2)
    elif isinstance(decision, NoMove):
        assert decision.reason in (NO_OPEN_SEAT, NO_MOVER)
        need = max(rules.threshold, 2)
        assert not any(
            d.occupied - d.leaving and r.open_seats and d.players - r.players >= need for d in tables for r in tables if d is not r
        ), "a legal move was there"
    elif isinstance(decision, NeedButton):
        assert by_number[decision.table].last is None
    else:
        donor, receiver = by_number[decision.from_table], by_number[decision.to_table]
        assert donor is not receiver
        assert decision.from_seat in donor.occupied - donor.leaving, "the mover is seated and not moving already"
        assert decision.to_seat in receiver.open_seats, "the seat is open: not taken, not held"
        assert donor.players - receiver.players >= max(rules.threshold, 2), "the move makes the room more even"
        assert decision.position in ("big_blind", "small_blind", "button", "wait_for_button", "in_play")
    halted(tables, rules)  # never raises either
    if len(tables) >= 2:
        breaking = table_to_break(tables)
        if breaking is not None:
            break_fits(tables, breaking)


def test_a_break_waits_while_seats_at_the_other_tables_are_still_taken_by_players_moving_out():
    # Table 1 breaks (3 players); table 2 has 2 open seats, but one of its players holds a third seat
    # until the slip that moves him is confirmed.
    breaking = table(1, [1, 2, 3], break_order=1)
    other = table(2, range(1, 8), break_order=2, leaving=frozenset({7}))
    third = table(3, range(1, 9), break_order=3, reserved=frozenset({9}))
    assert table_to_break([breaking, other, third]) == 1
    assert not break_fits([breaking, other, third], 1)
    assert break_fits([breaking, table(2, range(1, 7), break_order=2), third], 1)


@settings(max_examples=300, deadline=None)
@given(rooms())
def test_every_button_the_coming_moves_need_is_named_at_once_and_only_those(room):
    """buttons_needed plays the moves out on the counts: the tables it names have unknown positions, and when
    the planner asks for a button its table is among them; with every button known it names none."""
    tables, rules = room
    needed = buttons_needed(tables, rules)
    by_number = {t.number: t for t in tables}
    assert len(needed) == len(set(needed)) and all(by_number[n].last is None for n in needed)
    decision = balance_move(tables, rules)
    if isinstance(decision, NeedButton):
        assert decision.table in needed
    assert due(tables, rules, final_table_size=99) or (decision is None and table_to_break(tables) is None)
    known = [
        TableState(
            t.number,
            t.seats,
            t.occupied,
            t.break_order,
            t.last or pos.before_first(t.seats, sorted(t.occupied | t.reserved), min(t.occupied | t.reserved))
            if len(t.occupied | t.reserved) >= 2
            else t.last,
            reserved=t.reserved,
            leaving=t.leaving,
        )
        for t in tables
    ]
    assert all(len(t.occupied | t.reserved) < 2 for t in known if t.number in buttons_needed(known, rules))
