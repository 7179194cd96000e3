"""A league's points per knockout (leagues/rules/points.py): a bounty event's knockouts add points to the places', a pot
split between two winners half a knockout each, and a corrected eliminator moves them."""

from __future__ import annotations

from fractions import Fraction

import pytest

from leagues.models import LeagueResult
from leagues.rules import points as pts
from leagues.services import leagues
from tables.services import eliminations
from tests.helpers import refused
from tests.payouts.test_bounties import bounty_night, bust, entry


def test_a_knockout_adds_its_points_and_a_split_pot_shares_them():
    formula = pts.Formula(pts.LINEAR, knockout=5)
    assert pts.points(formula, field=4, place=1) == 400
    assert pts.points(formula, field=4, place=1, knockouts=2) == 400 + 1_000
    assert pts.points(formula, field=4, place=1, knockouts=Fraction(1, 3)) == 400 + 167
    with pytest.raises(pts.FormulaError):
        pts.Formula(pts.LINEAR, knockout=-1)


def test_a_bounty_nights_league_points_count_the_knockouts_and_follow_a_correction(director, cashier, floor, template):
    t = bounty_night(director, cashier, template, "knockout", players=4)
    refused("formula_knockout", leagues.create_league, actor=director, data={"name": "Bad", "formula": "linear", "knockout_points": -2})
    league = leagues.create_league(actor=director, data={"name": "Bounty season", "formula": "linear", "knockout_points": 5})
    leagues.add_tournament(league, actor=director, tournament=t)
    bust(floor, t, 4, 1, 2)  # split: half a knockout each
    bust(floor, t, 3, 1)
    bust(floor, t, 2, 1)  # #1 wins: 2.5 knockouts
    points = {r.player_id: r.points for r in LeagueResult.objects.filter(tournament=t)}
    assert points[entry(t, 1).player_id] == 400 + 1_250
    assert points[entry(t, 2).player_id] == 300 + 250
    assert points[entry(t, 4).player_id] == 100
    eliminations.correct_eliminators(t, actor=floor, entry_number=3, eliminators=[2], reason="the pot went to seat 2")
    points = {r.player_id: r.points for r in LeagueResult.objects.filter(tournament=t)}
    assert points[entry(t, 1).player_id] == 400 + 750 and points[entry(t, 2).player_id] == 300 + 750
