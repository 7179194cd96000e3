"""Deals paid in the house's rounding unit (docs/rules.md "Payout rounding"): an ICM deal or a
chip chop pays amounts the cashier can hand over in cash (1 CZK = 100 minor units by default), the largest one
taking what is shared below a unit, the total exact, and a larger stack never gets less (club 28)."""

from __future__ import annotations

from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from core.errors import ServiceError
from payouts.rules.deals import (
    CHIP_CHOP,
    CUSTOM,
    ICM,
    OFF_UNIT,
    DealRefused,
    check_deal,
    chip_chop,
    icm_deal,
    lowest_prize,
    make_deal,
    stop_here,
)
from payouts.rules.icm import icm_equities
from payouts.selectors import structure as payouts_selectors
from payouts.services import structure as payouts_services
from tests.payouts.test_deal_services import chips, three_left  # noqa: F401 (a fixture)

CROWN = 100


def test_an_icm_deal_in_crowns_worked_by_hand():
    """50 / 30 / 20 of the chips, prizes 5000 / 3000 / 2000 CZK (in hellers): equities 3839.2857 / 3275 /
    2885.7143 CZK. Above the lowest prize, in crowns: 1839.29 / 1275 / 885.71, rounded down 3999 of the 4000
    crowns; the crown left goes to the largest fraction (.71)."""
    assert icm_deal([5000, 3000, 2000], [500_000, 300_000, 200_000], unit=CROWN) == [383_900, 327_500, 288_600]


def test_the_part_below_a_crown_goes_to_the_chip_leader_and_the_total_stays_exact():
    """The plan's first prize carries the pool's hellers (payout_structure rule 3); the deal's largest amount
    carries them on. Nobody else is paid hellers."""
    prizes = [2_500_037, 1_900_000, 1_320_400]  # CZK 57,204.37 to share
    amounts = icm_deal([40_000, 35_000, 25_000], prizes, unit=CROWN)
    assert sum(amounts) == sum(prizes)
    assert amounts[0] % CROWN == 37 and all(a % CROWN == 0 for a in amounts[1:])
    assert amounts == sorted(amounts, reverse=True)
    chop = chip_chop([40_000, 35_000, 25_000], prizes, unit=CROWN)
    assert sum(chop) == sum(prizes) and chop[0] % CROWN == 37 and all(a % CROWN == 0 for a in chop[1:])


def test_a_custom_deal_with_hellers_is_refused():
    prizes = [500_000, 300_000, 200_000]
    with pytest.raises(DealRefused) as refused:
        make_deal(CUSTOM, [3, 2, 1], prizes, amounts=[400_000, 350_050, 249_950], unit=CROWN)
    assert refused.value.code == OFF_UNIT and refused.value.player == 1
    # Whole crowns (and the hellers on the largest amount) are a deal.
    make_deal(CUSTOM, [3, 2, 1], [500_050, 300_000, 200_000], amounts=[400_050, 350_000, 250_000], unit=CROWN)


# ---------------------------------------------------------------- properties


@st.composite
def plan_tables(draw):
    """A final table and the prizes a plan pays: whole units below first, first with up to a unit more."""
    players = draw(st.integers(2, 9))
    unit = draw(st.sampled_from([1, 10, 100, 1000, 10_000]))
    stacks = draw(st.lists(st.one_of(st.integers(1, 100), st.integers(1, 10**7)), min_size=players, max_size=players))
    count = draw(st.integers(1, players))
    units = sorted(draw(st.lists(st.integers(0, 10**5), min_size=count, max_size=count)), reverse=True)
    prizes = [u * unit for u in units]
    prizes[0] += draw(st.integers(0, unit - 1))
    return stacks, prizes, unit


def assert_payable(amounts: list[int], stacks: list[int], shared: int, lowest: int, unit: int) -> None:
    assert all(type(a) is int for a in amounts)
    assert sum(amounts) == shared
    leader = max(range(len(stacks)), key=lambda i: (stacks[i], -i))
    assert all((a - lowest) % unit == 0 for i, a in enumerate(amounts) if i != leader)
    assert amounts[leader] == max(amounts)
    stop_here(amounts, stacks)  # a larger stack never gets less: club 28 holds when play stops here


@settings(max_examples=150, deadline=None)
@given(plan_tables(), st.data())
def test_icm_deals_are_payable_in_the_unit_and_pass_the_check(table, data):
    stacks, prizes, unit = table
    second = prizes[1] if len(prizes) > 1 else 0
    to_play_for = data.draw(st.one_of(st.just(0), st.integers(0, (prizes[0] - second) // unit).map(lambda u: u * unit)))
    amounts = icm_deal(stacks, prizes, to_play_for, unit)
    lowest = lowest_prize(prizes, len(stacks))
    assert_payable(amounts, stacks, sum(prizes) - to_play_for, lowest, unit)
    check_deal(amounts, prizes, to_play_for, unit)
    assert make_deal(ICM, stacks, prizes, to_play_for, unit=unit).amounts == tuple(amounts)
    reduced = [prizes[0] - to_play_for, *prizes[1:]]
    for amount, equity in zip(amounts, icm_equities(stacks, reduced), strict=True):
        # Each is rounded to a unit (less than one off); the leader's hellers and the stack order can add up to one more.
        assert abs(amount - equity) < 2 * unit + 1e-6 * max(1, equity)


@settings(max_examples=150, deadline=None)
@given(plan_tables())
def test_chip_chops_are_payable_in_the_unit(table):
    stacks, prizes, unit = table
    amounts = chip_chop(stacks, prizes, unit=unit)
    players, lowest = len(stacks), lowest_prize(prizes, len(stacks))
    assert_payable(amounts, stacks, sum(prizes), lowest, unit)
    for amount, stack in zip(amounts, stacks, strict=True):
        exact = lowest + Fraction((sum(prizes) - players * lowest) * stack, sum(stacks))
        assert abs(amount - exact) < 2 * unit  # as for ICM
    if max(amounts) <= prizes[0]:
        make_deal(CHIP_CHOP, stacks, prizes, unit=unit)


# ---------------------------------------------------------------- the service: the plan's unit


def test_a_proposed_deal_is_paid_in_the_plans_unit(floor, tournament, three_left):  # noqa: F811
    state = payouts_selectors.payout_state(tournament)
    assert state["unit"] == CROWN  # the house default: one crown
    prizes_left = state["prizes"][:3]
    deal = payouts_services.propose_deal(tournament, actor=floor, data={"kind": "icm", "stacks": chips(three_left, 51_234, 33_333, 15_433)})
    assert sum(deal.amounts) == sum(prizes_left)
    assert all((a - prizes_left[-1]) % CROWN == 0 for a in deal.amounts[1:])
    figures = payouts_selectors.deal_figures([51_234, 33_333, 15_433], prizes_left, 0, CROWN)
    assert figures["icm"]["amounts"] == deal.amounts
    payouts_services.reject_deal(deal, actor=floor)
    with pytest.raises(ServiceError) as refused:
        payouts_services.propose_deal(
            tournament,
            actor=floor,
            data={
                "kind": "custom",
                "stacks": chips(three_left, 3, 2, 1),
                "amounts": chips(three_left, prizes_left[0] - 1, prizes_left[1] + 1, prizes_left[2]),
            },
        )
    assert refused.value.code == "deal_off_unit" and f"#{three_left[1].number}" in refused.value.message
