"""The money in the running product: the structure in force follows the pool and the field until late
registration ends, the director's plan and edits are validated and audited, places get their prizes."""

from __future__ import annotations

import pytest

from core.errors import ServiceError
from payouts.models import PayoutPlan
from payouts.rules.house_tables import house_table_to_data
from payouts.selectors import structure as payouts_selectors
from payouts.services import structure as payouts_services
from tables.services import busts, draws
from tests.helpers import open_tables, register
from tournament.models import AuditEvent, Entry
from tournament.services import registration as tournament_services


@pytest.fixture
def field(director, cashier, tournament):
    """Forty entries of 100 EUR (the prize part), no guarantee."""
    tournament.guaranteed_pool = 0
    tournament.save(update_fields=["guaranteed_pool"])
    return register(cashier, tournament, 40)


def test_the_structure_follows_every_entry_and_void_and_adds_up_to_the_pool(cashier, tournament, field):
    state = payouts_selectors.payout_state(tournament)
    assert state["pool"] == 40 * 10000 and state["state"] == payouts_selectors.LIVE
    assert sum(state["prizes"]) == state["pool"] and state["places_paid"] == 6  # 15% of 40
    assert state["prizes"] == sorted(state["prizes"], reverse=True)
    assert min(state["prizes"]) >= 15000  # 1.5x the buy-in's prize part

    more = register(cashier, tournament, 1, start=100)
    grown = payouts_selectors.payout_state(tournament)
    assert grown["pool"] == 41 * 10000 and sum(grown["prizes"]) == grown["pool"]
    assert all(after >= before for after, before in zip(grown["prizes"], state["prizes"], strict=True))
    tournament_services.void_purchase(more[0].purchases.get(), actor=cashier, reason="wrong tournament")
    assert payouts_selectors.payout_state(tournament)["prizes"] == state["prizes"]


def test_a_guarantee_pays_its_overlay(director, cashier, tournament):
    register(cashier, tournament, 10)
    state = payouts_selectors.payout_state(tournament)
    assert state["pool"] == tournament.guaranteed_pool == 500000 and sum(state["prizes"]) == 500000


def test_after_late_registration_the_structure_is_frozen(director, tournament, field):
    tournament_services.set_registration_closed(tournament, actor=director, closed=True)
    tournament.refresh_from_db()
    assert payouts_selectors.payout_state(tournament)["state"] == payouts_selectors.FROZEN


def test_the_director_sets_the_plan_and_bad_settings_change_nothing(director, floor, tournament, field):
    payouts_services.set_payout_plan(tournament, actor=director, data={"share_paid_bp": 2500, "unit": 1000})
    state = payouts_selectors.payout_state(tournament)
    assert state["places_paid"] == 10 and all(prize % 1000 == 0 for prize in state["prizes"][1:])
    assert AuditEvent.objects.filter(tournament=tournament, type="payouts.plan_set").count() == 1
    for bad in (
        {"share_paid_bp": 0},
        {"share_paid_bp": 10001},
        {"unit": 0},
        {"unit": "100"},
        {"colour": 1},
        {"method": "house_table"},
        {"method": "lottery"},
        {"house_table": {"format": "x"}},
    ):
        with pytest.raises(ServiceError):
            payouts_services.set_payout_plan(tournament, actor=director, data=bad)
    assert payouts_selectors.payout_state(tournament)["places_paid"] == 10
    with pytest.raises(ServiceError) as refused:
        payouts_services.set_payout_plan(tournament, actor=floor, data={"unit": 100})
    assert refused.value.status == 403


def test_a_house_table_pays_by_its_band_and_round_trips_as_json(director, tournament, field):
    table = house_table_to_data([(2, 30, [7000, 3000]), (31, 100, [5000, 3000, 2000])])
    payouts_services.set_payout_plan(tournament, actor=director, data={"method": "house_table", "house_table": table})
    state = payouts_selectors.payout_state(tournament)
    assert state["method"] == "house_table" and state["prizes"] == [200000, 120000, 80000]
    assert PayoutPlan.objects.get(tournament=tournament).house_table == table


def test_the_director_edits_the_prizes_which_stand_while_the_pool_does(director, cashier, tournament, field):
    pool = 40 * 10000
    with pytest.raises(ServiceError) as wrong:
        payouts_services.edit_structure(tournament, actor=director, rows=[[1, 1, 200000], [2, 3, 50000]])
    assert wrong.value.code == "wrong_total"
    with pytest.raises(ServiceError) as rising:
        payouts_services.edit_structure(tournament, actor=director, rows=[[1, 1, 100000], [2, 2, 150000], [3, 3, 150000]])
    assert rising.value.code == "prize_order"
    with pytest.raises(ServiceError) as gap:
        payouts_services.edit_structure(tournament, actor=director, rows=[[1, 1, 200000], [3, 4, 100000]])
    assert gap.value.code == "invalid_bands"
    payouts_services.edit_structure(tournament, actor=director, rows=[[1, 1, 200000], [2, 2, 120000], [3, 4, 40000]])
    state = payouts_selectors.payout_state(tournament)
    assert state["state"] == payouts_selectors.EDITED and state["prizes"] == [200000, 120000, 40000, 40000]
    assert sum(state["prizes"]) == pool

    register(cashier, tournament, 1, start=100)  # the pool moved: the edit no longer adds up
    state = payouts_selectors.payout_state(tournament)
    assert state["state"] == payouts_selectors.LIVE and state["edit_stale"] and sum(state["prizes"]) == pool + 10000
    payouts_services.clear_edit(tournament, actor=director)
    assert not payouts_selectors.payout_state(tournament)["edit_stale"]
    assert [e.type for e in AuditEvent.objects.filter(tournament=tournament, type__startswith="payouts.")] == [
        "payouts.structure_edited",
        "payouts.edit_cleared",
    ]


def test_places_get_their_prizes_ties_split_and_an_undone_bust_gives_it_back(director, floor, cashier, tournament):
    tournament.guaranteed_pool = 0
    tournament.save(update_fields=["guaranteed_pool"])
    open_tables(director, tournament, [1])
    entries = register(cashier, tournament, 7)
    draws.draw_start(tournament, actor=director)
    payouts_services.set_payout_plan(tournament, actor=director, data={"share_paid_bp": 5000, "min_cash_bp": 0})  # 4 places paid
    prizes = payouts_selectors.payout_state(tournament)["prizes"]
    assert len(prizes) == 4
    by_number = {e.number: e for e in entries}
    for number in (1, 2, 3):  # places 7, 6, 5: out of the money
        busts.bust_entry(by_number[number], actor=floor)
    busts.bust_entry(by_number[4], actor=floor)  # place 4
    won = payouts_selectors.prizes_won(tournament)
    assert won[1] == won[2] == won[3] == 0 and won[4] == prizes[3]
    busts.undo_bust(Entry.objects.get(pk=by_number[4].pk), actor=floor)
    assert 4 not in payouts_selectors.prizes_won(tournament)
    for number in (4, 5, 6):
        busts.bust_entry(by_number[number], actor=floor)
    won = payouts_selectors.prizes_won(tournament)
    assert won[7] == prizes[0] and won[6] == prizes[1] and won[5] == prizes[2] and won[4] == prizes[3]
    assert sum(won.values()) == sum(prizes)
