"""The pure rules of bag-and-tag (days/rules/bags.py): a bag number normalised and checked, a table's bags checked
seat by seat, the close check (players still in without a bag, the bags against the chips in play, whether closing
needs a reason) and the day's report order, with property tests."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from days.rules import bags as br
from tables.rules.chip_counts import MAX_CHIPS

BAGS = st.text(alphabet="AB12-", min_size=1, max_size=4)


def test_a_bag_number_drops_its_spaces_and_is_upper_cased():
    assert br.normalise(" a 17 ") == "A17" and br.normalise("b-\t2") == "B-2" and br.normalise(None) == ""
    assert br.bag_problem("a-17") is None and br.bag_problem("  ") == br.BAG_EMPTY
    assert br.bag_problem("X" * 16) is None and br.bag_problem("X" * 17) == br.BAG_TOO_LONG
    assert br.bag_problem("A/17") == br.BAG_CHARACTERS and br.bag_problem("č1") == br.BAG_CHARACTERS
    assert br.bag_problem("A_1") == br.BAG_CHARACTERS


@given(st.text(max_size=30))
def test_a_valid_bag_number_is_one_to_sixteen_letters_digits_or_dashes_and_normalising_is_idempotent(text):
    bag = br.normalise(text)
    assert br.normalise(bag) == bag and not any(ch.isspace() for ch in bag)
    valid = 1 <= len(bag) <= 16 and all(ch in "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-" for ch in bag)
    assert (br.bag_problem(text) is None) == valid


def test_a_tables_bags_name_each_problem_by_seat():
    seated = {1: 11, 3: 13, 5: 15, 7: 17}
    fine = {1: (100, "a1"), 3: (200, "A2"), 5: (1, "a 3"), 7: (5, "A4")}
    assert br.table_bag_problems(seated, fine, {}) == []
    assert br.table_bag_problems(seated, {1: (100, "A1"), 2: (5, "A9"), 3: (0, "A2"), 5: (9, "A1")}, {}) == [
        (br.EMPTY_SEAT, 2),
        (br.NO_CHIPS, 3),
        (br.BAG_TWICE, 5),
        (br.MISSING, 7),
    ]
    assert br.table_bag_problems(seated, {**fine, 3: (-4, "A2"), 5: (MAX_CHIPS + 1, "A3"), 7: (5, "")}, {}) == [
        (br.NO_CHIPS, 3),
        (br.TOO_MANY, 5),
        (br.BAG_EMPTY, 7),
    ]
    # A bag number on another player's current bag is taken; on this player's own (a correction) it is free.
    assert br.table_bag_problems(seated, fine, {"A2": 99, "A1": 11}) == [(br.BAG_TAKEN, 3)]
    assert br.table_bag_problems(seated, {3: (10, "A/2")}, {}, whole=False) == [(br.BAG_CHARACTERS, 3)]
    assert br.table_bag_problems(seated, {3: (10, "A2")}, {}, whole=False) == []


@given(
    st.dictionaries(st.integers(1, 10), st.integers(1, 999), max_size=10),
    st.dictionaries(st.integers(1, 10), st.tuples(st.integers(-10, 10**6), BAGS), max_size=10),
    st.dictionaries(BAGS, st.integers(1, 999), max_size=4),
)
def test_bags_are_taken_only_when_every_seated_player_has_one_chip_or_more_in_a_bag_of_his_own(seated, bags, held):
    problems = br.table_bag_problems(seated, bags, held)
    numbers = [br.normalise(bag) for _chips, bag in bags.values()]
    fine = (
        set(bags) == set(seated)
        and all(chips >= 1 for chips, _bag in bags.values())
        and len(set(numbers)) == len(numbers)
        and all(held.get(br.normalise(bag), seated[seat]) == seated[seat] for seat, (_c, bag) in bags.items())
    )
    assert (problems == []) == fine
    seats = [seat for _code, seat in problems]
    assert seats == sorted(set(seats))  # one problem per seat, in seat order


def test_the_close_check_lists_the_missing_by_table_and_needs_a_reason_for_them_or_a_difference():
    players = [(1, 2, 5), (2, 1, 3), (3, 1, 1), (4, None, None), (5, 2, 1)]
    check = br.close_check(players, {1: 500, 5: 700, 99: 10_000}, chips_in_play=2_000)  # 99: busted after his bag
    assert (check.players, check.bagged, check.total, check.difference, check.off_by) == (5, 2, 1_200, None, -800)
    assert check.missing == ((1, 1, 3), (1, 3, 2), (None, None, 4)) and check.needs_reason
    assert check.missing_by_table() == [(1, (1, 3)), (None, (4,))]
    even = br.close_check(players[:1], {1: 2_000}, chips_in_play=2_000)
    assert (even.difference, even.needs_reason, even.missing_by_table()) == (0, False, [])
    off = br.close_check(players[:1], {1: 1_900}, chips_in_play=2_000)
    assert (off.difference, off.needs_reason) == (-100, True)


@given(
    st.lists(
        st.tuples(st.integers(1, 500), st.one_of(st.none(), st.integers(1, 5)), st.integers(1, 10)), unique_by=lambda p: p[0], max_size=30
    ),
    st.dictionaries(st.integers(1, 600), st.integers(1, 10**6), max_size=30),
    st.integers(0, 10**7),
)
def test_closing_needs_no_reason_exactly_when_everyone_still_in_is_bagged_and_the_bags_add_up(players, bags, chips):
    players = [(entry, table, seat if table else None) for entry, table, seat in players]
    check = br.close_check(players, bags, chips_in_play=chips)
    still_in = {entry for entry, _t, _s in players}
    total = sum(c for entry, c in bags.items() if entry in still_in)
    assert check.total == total and check.bagged + len(check.missing) == check.players == len(players)
    everyone = still_in <= set(bags)
    assert (check.difference is None) == (not everyone)
    assert check.needs_reason == (not everyone or total != chips)
    assert sum(len(items) for _table, items in check.missing_by_table()) == len(check.missing)
    tables = [table for table, _seat, _entry in check.missing]
    assert tables == sorted(tables, key=lambda t: (t is None, t or 0))  # by table, the unseated last


def test_the_report_is_by_stack_ties_by_entry_with_shared_ranks_and_big_blinds():
    assert br.report([(7, 30_000), (2, 52_000), (5, 30_000), (9, 1_000)], 1_000) == [
        (1, 2, 52_000, 52.0),
        (2, 5, 30_000, 30.0),
        (2, 7, 30_000, 30.0),
        (4, 9, 1_000, 1.0),
    ]
    assert br.report([(1, 500)], 0) == [(1, 1, 500, None)]


@given(st.lists(st.tuples(st.integers(1, 10_000), st.integers(1, 10**9)), unique_by=lambda s: s[0], max_size=40), st.integers(0, 10**6))
def test_the_report_keeps_every_bag_largest_first(stacks, big_blind):
    rows = br.report(stacks, big_blind)
    assert sorted((entry, chips) for _r, entry, chips, _bb in rows) == sorted(stacks)
    for (rank_a, entry_a, chips_a, _a), (rank_b, entry_b, chips_b, _b) in zip(rows, rows[1:], strict=False):
        assert (chips_a, -entry_a) > (chips_b, -entry_b) and rank_a <= rank_b
        assert (rank_a == rank_b) == (chips_a == chips_b)
    assert all((bb is None) == (big_blind == 0) for *_x, bb in rows)
