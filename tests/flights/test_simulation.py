"""The festival simulation of bench/flights.py at a small scale: three flights played down to
their end by the share rule, bagged, closed, carried into one Day 2 and drawn there. The bags add up, each player goes
on once with his largest bag, the pool and the entries are summed over the flights, and Day 2's draw seats exactly
the carried players, its public recompute matching. bench/flights.py runs it at 1,000 entries a flight."""

from __future__ import annotations

import pytest

from bench.flights import simulate


@pytest.mark.deep
@pytest.mark.django_db
def test_three_flights_bag_carry_and_draw_day2():
    lines: list[str] = []
    figures = simulate(entries=40, flights=3, seed=7, report=lines.append)
    assert figures["carried"] + figures["forfeited"] == figures["bags"]
    assert figures["carried"] == figures["players"] - (figures["players"] - figures["carried"])
    assert figures["forfeited"] > 0  # replayed players held two bags: one went on
    assert any(line.startswith("day 2 draw ms") for line in lines)
