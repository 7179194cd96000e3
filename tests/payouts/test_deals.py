"""Deals at a final table (payouts/rules/deals.py): chip chop and ICM deals, the checks every deal
passes, and club 28 ("in a deal no player may receive more than a player who finishes higher")."""

from __future__ import annotations

from fractions import Fraction

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from payouts.rules.deals import (
    ABOVE_FIRST,
    BELOW_LOWEST,
    CHIP_CHOP,
    CLUB_28,
    CUSTOM,
    ICM,
    NOT_WHOLE,
    TOO_FEW_PLAYERS,
    WRONG_SUM,
    Deal,
    DealRefused,
    Finish,
    check_deal,
    chip_chop,
    deal_table,
    icm_deal,
    lowest_prize,
    make_deal,
    stop_here,
)
from payouts.rules.icm import icm_amounts, icm_equities

# ---------------------------------------------------------------- chip chop, worked examples


def test_chip_chop_worked_by_hand():
    """Stacks 5000 / 3000 / 1000 (9000 chips), prizes left 1000 / 600 / 400, nothing to play for.
    Everyone gets the lowest prize, 400; the rest, 2000 - 3 x 400 = 800, goes by chips:
        800 x 5/9 = 444.44  -> 844.44
        800 x 3/9 = 266.67  -> 666.67
        800 x 1/9 =  88.89  -> 488.89
    Rounded down: 844 + 666 + 488 = 1998; the 2 units left go to the largest fractions,
    .89 (third player) and .67 (second): 844 / 667 / 489, adding up to 2000."""
    assert chip_chop([5000, 3000, 1000], [1000, 600, 400]) == [844, 667, 489]


def test_chip_chop_with_an_amount_left_to_play_for():
    """The same table with 200 left to play for: 1800 is shared; 1800 - 3 x 400 = 600 by chips:
    333.33 / 200 / 66.67 -> 733.33 / 600 / 466.67 -> rounded down 733 + 600 + 466 = 1799, the unit left
    to the largest fraction (.67, third player): 733 / 600 / 467. The leader can end with
    733 + 200 = 933, below first place (1000)."""
    amounts = chip_chop([5000, 3000, 1000], [1000, 600, 400], to_play_for=200)
    assert amounts == [733, 600, 467]
    check_deal(amounts, [1000, 600, 400], to_play_for=200)
    assert deal_table(amounts, 200) == (933, 600, 467)


def test_chip_chop_published_example_betmgm():
    """BetMGM poker help, "How are the chip count payout amounts calculated?": NP + (R - n x NP) x c / TC
    with R = $570, n = 5, NP = $57, TC = 43,500 chips: $155.28, $135.63, $122.52, $96.32, $60.28.
    The page rounds every share up (they add up to $570.03); in cents by largest remainder ours add
    up to exactly 57,000 and each is within a cent of the published figure. The page gives only the
    pool and the next payout; the prize table here (36/25/17/12/10 %) has that sum and lowest prize."""
    stacks = [15_000, 12_000, 10_000, 6_000, 500]
    prizes = [20_520, 14_250, 9_690, 6_840, 5_700]
    published = [15_528, 13_563, 12_252, 9_632, 6_028]
    amounts = chip_chop(stacks, prizes)
    assert sum(amounts) == 57_000
    assert all(abs(a - p) <= 1 for a, p in zip(amounts, published, strict=True))
    assert amounts == [15_528, 13_562, 12_252, 9_631, 6_027]


def test_chip_chop_published_example_parksweb():
    """parksweb.us "Tournament Chop Calculation", the correct method z3 + (z1 + z2 - 2 x z3) x chip share:
    prizes $500 / $300 / $200, players with 50 %, 33.3 % and 16.7 % of 60,000 chips: $400, $333, $267."""
    assert chip_chop([30_000, 20_000, 10_000], [50_000, 30_000, 20_000]) == [40_000, 33_333, 26_667]


def test_chip_chop_ties_go_to_the_larger_stack_then_the_lower_index():
    # 600 / 100 / 300 chips, 305 left, lowest 100: 5 more by chips = 3, 0.5, 1.5. One unit is left
    # after rounding down and the two .5 fractions tie: the larger stack (300) gets it.
    assert chip_chop([600, 100, 300], [105, 100, 100]) == [103, 100, 102]
    # Equal stacks, 400 more to share by thirds: 133.33 each, the unit to the lowest index.
    assert chip_chop([1000, 1000, 1000], [500, 300, 200]) == [334, 333, 333]


def test_chip_chop_can_give_the_leader_more_than_first_and_the_check_refuses_it():
    """90 / 5 / 5 chips, prizes 500 / 300 / 200: 200 + 400 x 0.9 = 560 for the leader, more than the
    500 first place pays. The formula says so; the deal is refused."""
    amounts = chip_chop([90, 5, 5], [500, 300, 200])
    assert amounts == [560, 220, 220]
    with pytest.raises(DealRefused, match="more than first place pays") as refused:
        check_deal(amounts, [500, 300, 200])
    assert refused.value.code == ABOVE_FIRST and refused.value.player == 0
    with pytest.raises(DealRefused):
        make_deal(CHIP_CHOP, [90, 5, 5], [500, 300, 200])


def test_chip_chop_with_fewer_prizes_than_players_is_a_plain_share_by_chips():
    # The lowest place pays nothing: 300 x 2/3 and 300 x 1/3.
    assert chip_chop([2000, 1000], [300]) == [200, 100]


def test_chip_chop_refuses_to_play_for_more_than_leaves_everyone_the_lowest_prize():
    with pytest.raises(ValueError, match="less than the lowest prize left"):
        chip_chop([5000, 3000, 1000], [1000, 600, 400], to_play_for=801)
    assert sum(chip_chop([5000, 3000, 1000], [1000, 600, 400], to_play_for=800)) == 1200


# ---------------------------------------------------------------- ICM deals


def test_icm_deal_is_the_icm_equity_in_minor_units():
    """50 / 30 / 20 of the chips, prizes 5000 / 3000 / 2000: equities 3839.29 / 3275 / 2885.71
    (test_icm's worked example, in cents); rounded down 3839 + 3275 + 2885 = 9999, the unit to .71."""
    assert icm_deal([5000, 3000, 2000], [5000, 3000, 2000]) == [3839, 3275, 2886]


def test_icm_deal_takes_the_amount_to_play_for_off_first_place():
    """1000 to play for: ICM on 4000 / 3000 / 2000 shares 9000, and the winner of the play on gets the
    1000 on top. Nobody can end with more than first pays (the leader's 3339 + 1000 <= 5000)."""
    amounts = icm_deal([5000, 3000, 2000], [5000, 3000, 2000], to_play_for=1000)
    assert amounts == icm_amounts([5000, 3000, 2000], [4000, 3000, 2000])
    assert sum(amounts) == 9000
    deal = make_deal(ICM, [5000, 3000, 2000], [5000, 3000, 2000], to_play_for=1000)
    assert deal == Deal(kind=ICM, amounts=tuple(amounts), to_play_for=1000, table=(amounts[0] + 1000, amounts[1], amounts[2]))
    assert sum(deal.table) == 10_000


def test_icm_deal_refuses_to_play_for_more_than_first_pays_over_second():
    with pytest.raises(ValueError, match="more than first place pays over second"):
        icm_deal([5000, 3000, 2000], [5000, 3000, 2000], to_play_for=2001)
    assert sum(icm_deal([5000, 3000, 2000], [5000, 3000, 2000], to_play_for=2000)) == 8000
    # One prize left: all of it may be played for.
    assert icm_deal([3000, 1000], [1000], to_play_for=1000) == [0, 0]


def test_an_icm_deal_at_twenty_players_and_not_beyond():
    stacks = [1000 + 37 * k for k in range(20)]
    prizes = [50_000 - 2_000 * k for k in range(20)]
    amounts = icm_deal(stacks, prizes)
    check_deal(amounts, prizes)
    assert amounts == sorted(amounts)  # stacks grow along the list
    with pytest.raises(ValueError, match="at most 20 players"):
        icm_deal([*stacks, 5000], prizes)


# ---------------------------------------------------------------- check_deal


@pytest.mark.parametrize(
    ("amounts", "prizes", "to_play_for", "code", "player", "message"),
    [
        ([1000, 600, 399], [1000, 600, 400], 0, WRONG_SUM, None, "hands out 1999, but 2000 is to be shared"),
        ([1000, 600, 400], [1000, 600, 400], 100, WRONG_SUM, None, r"1900 is to be shared \(2000 left less 100 to play for\)"),
        ([1001, 700, 299], [1000, 600, 400], 0, BELOW_LOWEST, 2, "player 2 would get 299, less than the lowest prize left"),
        ([1001, 600, 399], [1000, 600, 400], 0, BELOW_LOWEST, 2, "less than the lowest prize left"),
        ([1001, 599, 400], [1000, 600, 400], 0, ABOVE_FIRST, 0, r"player 0 would get 1001, more than first place pays \(1000\)"),
        ([901, 500, 499], [1000, 600, 400], 100, ABOVE_FIRST, 0, "could win 100 more playing on: 1001, more than first"),
        ([1000, 600.0, 400], [1000, 600, 400], 0, NOT_WHOLE, 1, "whole minor units"),
        ([1000, True, 999], [1000, 600, 400], 0, NOT_WHOLE, 1, "whole minor units"),
        ([2000], [1000], 0, TOO_FEW_PLAYERS, None, "at least two players"),
    ],
)
def test_check_deal_refuses(amounts, prizes, to_play_for, code, player, message):
    with pytest.raises(DealRefused, match=message) as refused:
        check_deal(amounts, prizes, to_play_for)
    assert isinstance(refused.value, ValueError)
    assert refused.value.code == code
    assert refused.value.player == player


def test_check_deal_accepts_the_bounds_themselves():
    check_deal([1000, 600, 400], [1000, 600, 400])  # the prizes by place are a deal
    check_deal([400, 1000, 600], [1000, 600, 400])  # in any order of players
    check_deal([900, 600, 400], [1000, 600, 400], to_play_for=100)  # 900 + 100 = first
    check_deal([700, 0], [700])  # one prize for two players: the lowest prize left is 0


def test_check_deal_refuses_a_bad_prize_table_with_a_plain_value_error():
    with pytest.raises(ValueError, match="never rise down the list"):
        check_deal([500, 500], [400, 600])
    with pytest.raises(ValueError, match="more prizes than players"):
        check_deal([500, 500], [400, 300, 300])
    with pytest.raises(ValueError, match="to play for"):
        check_deal([500, 500], [600, 400], to_play_for=-1)


# ---------------------------------------------------------------- club 28


def test_deal_table_pays_the_largest_amount_first_and_play_goes_on_for_the_places():
    assert deal_table([489, 844, 667]) == (844, 667, 489)
    assert deal_table([433, 300, 467], to_play_for=800) == (1267, 433, 300)
    with pytest.raises(ValueError, match="non-negative whole number"):
        deal_table([500, -1])


def test_stop_here_places_by_chips_and_pays_the_agreed_amounts():
    finishes = stop_here([667, 844, 489], [3000, 5000, 1000])
    assert finishes == (
        Finish(player=1, places=(1, 1), amount=844),
        Finish(player=0, places=(2, 2), amount=667),
        Finish(player=2, places=(3, 3), amount=489),
    )


def test_stop_here_refuses_a_short_stack_paid_more_than_the_chip_leader():
    """A custom deal in which the short stack (1000 chips) would get 900 and the chip leader
    (5000 chips) 600: stopping here the short stack finishes third, below the leader."""
    amounts, stacks, prizes = [600, 500, 900], [5000, 3000, 1000], [1000, 600, 400]
    check_deal(amounts, prizes)  # the sum and the bounds are fine; club 28 is not
    with pytest.raises(DealRefused, match="club 28: player 2 has 1000 chips and finishes below player 1") as refused:
        stop_here(amounts, stacks)
    assert refused.value.code == CLUB_28
    assert (refused.value.player, refused.value.other) == (2, 1)  # compared with the least paid above
    # Played on instead, the same amounts become a prize table by place, and club 28 holds.
    assert deal_table(amounts) == (900, 600, 500)


def test_stop_here_ties_equal_stacks_and_puts_no_order_between_them():
    finishes = stop_here([350, 300, 100], [500, 500, 100])
    assert [f.places for f in finishes] == [(1, 2), (1, 2), (3, 3)]
    with pytest.raises(DealRefused, match="club 28") as refused:
        stop_here([350, 300, 301], [500, 500, 100])  # third place paid more than one of the tied pair
    assert (refused.value.player, refused.value.other) == (2, 1)


def test_stop_here_refuses_bad_input():
    with pytest.raises(ValueError, match="2 amounts for 3 players"):
        stop_here([1, 2], [3, 2, 1])
    with pytest.raises(ValueError, match="positive whole number of chips"):
        stop_here([1, 2], [3, 0])
    with pytest.raises(DealRefused, match="whole minor units"):
        stop_here([1.5, 2], [3, 2])


# ---------------------------------------------------------------- make_deal


def test_make_deal_custom_and_refusals():
    deal = make_deal(CUSTOM, [5000, 3000, 1000], [1000, 600, 400], amounts=[800, 700, 500])
    assert deal == Deal(kind=CUSTOM, amounts=(800, 700, 500), to_play_for=0, table=(800, 700, 500))
    with pytest.raises(DealRefused, match="less than the lowest prize"):
        make_deal(CUSTOM, [5000, 3000, 1000], [1000, 600, 400], amounts=[900, 750, 350])
    with pytest.raises(ValueError, match="needs the agreed amounts"):
        make_deal(CUSTOM, [5000, 3000, 1000], [1000, 600, 400])
    with pytest.raises(ValueError, match="are computed, not given"):
        make_deal(ICM, [5000, 3000, 1000], [1000, 600, 400], amounts=[800, 700, 500])
    with pytest.raises(ValueError, match="unknown kind of deal"):
        make_deal("even", [5000, 3000, 1000], [1000, 600, 400])
    with pytest.raises(ValueError, match="3 amounts for 2 players"):
        make_deal(CUSTOM, [5000, 3000], [1000, 600], amounts=[800, 700, 100])
    with pytest.raises(ValueError, match="at least two players"):
        chip_chop([5000], [1000])


# ---------------------------------------------------------------- properties (2 to 10 players)


@st.composite
def final_tables(draw, max_players: int = 10):
    players = draw(st.integers(2, max_players))
    stacks = draw(st.lists(st.one_of(st.integers(1, 100), st.integers(1, 10**7)), min_size=players, max_size=players))
    count = draw(st.integers(1, players))
    prizes = sorted(draw(st.lists(st.integers(0, 10**7), min_size=count, max_size=count)), reverse=True)
    return stacks, prizes


@settings(max_examples=150, deadline=None)
@given(final_tables(), st.data())
def test_icm_deals_always_pass_the_check_and_club_28(table, data):
    stacks, prizes = table
    second = prizes[1] if len(prizes) > 1 else 0
    to_play_for = data.draw(st.one_of(st.just(0), st.integers(0, prizes[0] - second)))
    amounts = icm_deal(stacks, prizes, to_play_for)
    assert all(type(a) is int for a in amounts)
    assert sum(amounts) == sum(prizes) - to_play_for
    check_deal(amounts, prizes, to_play_for)
    deal = make_deal(ICM, stacks, prizes, to_play_for)
    assert deal.amounts == tuple(amounts)
    assert_a_prize_table(deal.table, prizes, len(stacks))
    finishes = stop_here(amounts, stacks)  # never a club 28 refusal: a larger stack never gets less
    assert sorted(f.player for f in finishes) == list(range(len(stacks)))
    # Within a unit of the exact equities on the reduced table.
    reduced = [prizes[0] - to_play_for, *prizes[1:]]
    for amount, equity in zip(amounts, icm_equities(stacks, reduced), strict=True):
        assert abs(amount - equity) < 1 + 1e-6


@settings(max_examples=200, deadline=None)
@given(final_tables(), st.data())
def test_chip_chops_pass_the_check_unless_the_leader_would_get_more_than_first(table, data):
    stacks, prizes = table
    players = len(stacks)
    lowest = lowest_prize(prizes, players)
    room = sum(prizes) - players * lowest  # what can be played for and still leave everyone the lowest prize
    to_play_for = data.draw(st.one_of(st.just(0), st.integers(0, room)))
    amounts = chip_chop(stacks, prizes, to_play_for)
    pool = sum(prizes) - to_play_for
    assert all(type(a) is int for a in amounts)
    assert sum(amounts) == pool
    chips = sum(stacks)
    for amount, stack in zip(amounts, stacks, strict=True):
        exact = lowest + Fraction((pool - players * lowest) * stack, chips)
        assert abs(amount - exact) < 1
        assert amount >= lowest
    stop_here(amounts, stacks)  # a chip chop follows the chips: club 28 always holds
    leader_takes_more_than_first = max(amounts) + to_play_for > prizes[0]
    if leader_takes_more_than_first:
        with pytest.raises(DealRefused) as refused:
            check_deal(amounts, prizes, to_play_for)
        assert refused.value.code == ABOVE_FIRST
        assert amounts[refused.value.player] + to_play_for > prizes[0]
    else:
        check_deal(amounts, prizes, to_play_for)
        assert_a_prize_table(make_deal(CHIP_CHOP, stacks, prizes, to_play_for).table, prizes, players)


@settings(max_examples=100, deadline=None)
@given(final_tables(max_players=6), st.data())
def test_a_unit_moved_between_players_is_checked_like_any_deal(table, data):
    stacks, prizes = table
    amounts = icm_deal(stacks, prizes)
    giver = data.draw(st.integers(0, len(amounts) - 1))
    taker = data.draw(st.integers(0, len(amounts) - 1))
    assume(giver != taker)
    amounts[giver] -= 1
    amounts[taker] += 1
    lowest = lowest_prize(prizes, len(stacks))
    if amounts[giver] < lowest:
        with pytest.raises(DealRefused, match="less than the lowest prize"):
            check_deal(amounts, prizes)
    elif amounts[taker] > prizes[0]:
        with pytest.raises(DealRefused, match="more than first place pays"):
            check_deal(amounts, prizes)
    else:
        check_deal(amounts, prizes)
        table = deal_table(amounts)
        assert_a_prize_table(table, prizes, len(stacks))


def assert_a_prize_table(table: tuple[int, ...], prizes: list[int], players: int) -> None:
    """A club 28 table: one prize per place left, never rising down the list, adding up to the prizes
    left, inside the lowest prize left and first place."""
    assert len(table) == players
    assert list(table) == sorted(table, reverse=True)
    assert sum(table) == sum(prizes)
    assert table[0] <= prizes[0]
    assert table[-1] >= lowest_prize(prizes, players)
