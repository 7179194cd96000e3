"""The venue's pure rules: the house's order of its tables, how many a draw takes, and a room file read."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from venues.rules import room as rules
from venues.rules.room import Free


def test_tables_reserved_for_the_tournament_come_first_then_the_areas_in_the_house_order_then_numbers():
    tables = [Free(1, "Side room", 9), Free(2, "Main hall", 9), Free(3, "", 9), Free(4, "Bar", 9), Free(5, "Side room", 9, mine=True)]
    order = rules.house_order(tables, ["Main hall", "Side room"])
    assert [t.number for t in order] == [5, 2, 1, 3, 4]  # areas the house does not list come after, by name


@given(
    st.lists(st.tuples(st.integers(6, 10), st.sampled_from(["A", "B", ""])), max_size=30),
    st.integers(1, 200),
    st.integers(2, 10),
)
def test_a_draw_takes_the_fewest_tables_in_the_house_order_that_seat_everyone(specs, needed, per_table):
    tables = [Free(n, area, seats) for n, (seats, area) in enumerate(specs, start=1)]
    chosen = rules.to_take(tables, ["B", "A"], needed, per_table)
    ordered = rules.house_order(tables, ["B", "A"])
    capacity = [min(t.seats, per_table) for t in ordered]
    if sum(capacity) < needed:
        assert chosen is None
        return
    assert chosen == ordered[: len(chosen)]  # a prefix of the house order
    assert sum(capacity[: len(chosen)]) >= needed > sum(capacity[: len(chosen) - 1])  # and no table more than needed


def test_a_room_file_is_read_with_its_states():
    rows = rules.read_room(
        "\ufeffNumber,Area,Seats,State\n1,Main hall,9,\n2,Main hall,10,open\n\n3,Side room,8,cash\n4,Bar,6,out_of_service\n"
    )
    assert rows == [
        rules.Row(1, "Main hall", 9),
        rules.Row(2, "Main hall", 10),
        rules.Row(3, "Side room", 8, "cash"),
        rules.Row(4, "Bar", 6, "out_of_service"),
    ]


@pytest.mark.parametrize(
    "text, problems",
    [
        ("table,seats\n1,9\n", [(1, "header")]),
        ("number,area,seats\n", [(1, "empty")]),
        (
            "number,area,seats\nx,A,9\n1,A,11\n1000,A,9\n2,A,9\n2,B,9\n3,A,9,broken\n",
            [(2, "not_a_number"), (3, "seats"), (4, "number"), (6, "twice")],
        ),
        ("number,area,seats,state\n3,A,9,broken\n", [(2, "state")]),
    ],
)
def test_every_problem_of_a_room_file_is_reported_with_its_line(text, problems):
    with pytest.raises(rules.RoomFileError) as exc:
        rules.read_room(text)
    assert [(line, code) for line, code, _details in exc.value.problems] == problems
