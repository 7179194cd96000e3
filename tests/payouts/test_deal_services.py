"""Deals at the final table as the floor and the director make them (docs/rules.md, club 28 and 32): proposed
with the chip counts, checked, approved before they take effect, audited; play on for the places or stop."""

from __future__ import annotations

import pytest

from core.errors import ServiceError
from payouts.models import Deal
from payouts.rules import deals as dl
from payouts.selectors import structure as payouts_selectors
from payouts.services import structure as payouts_services
from tables.services import busts
from tests.helpers import id_doc
from tests.payouts.test_payments import finish, signature
from tournament.models import AuditEvent


@pytest.fixture
def three_left(director, cashier, floor, tournament):
    """Eight entries, four paid, three players left (the first five out)."""
    entries = finish(director, cashier, floor, tournament)
    return entries[5:]


def chips(entries, *counts) -> dict[str, int]:
    return {str(e.number): c for e, c in zip(entries, counts, strict=True)}


def test_an_icm_deal_waits_for_the_director_then_its_table_pays_the_places(director, floor, tournament, three_left):
    before = payouts_selectors.payout_state(tournament)
    prizes_left = before["prizes"][:3]
    deal = payouts_services.propose_deal(tournament, actor=floor, data={"kind": "icm", "stacks": chips(three_left, 50_000, 30_000, 20_000)})
    assert deal.status == Deal.Status.PROPOSED and deal.prizes_left == prizes_left
    assert deal.amounts == dl.icm_deal([50_000, 30_000, 20_000], prizes_left, unit=100)  # the plan's unit, 1 CZK
    assert payouts_selectors.payout_state(tournament)["prizes"] == before["prizes"]  # the old structure stands until approval

    payouts_services.approve_deal(deal, actor=director)
    state = payouts_selectors.payout_state(tournament)
    assert state["prizes"][:3] == sorted(deal.amounts, reverse=True) and state["prizes"][3:] == before["prizes"][3:]
    assert sum(state["prizes"]) == state["pool"] and state["deal"] == {"number": 1, "mode": "play_on", "players": 3}
    assert [b["first"] for b in state["bands"]][:3] == [1, 2, 3]

    # Play goes on for the places: the one who busts next gets third's amount, whatever their chips were.
    busts.bust_entry(three_left[0], actor=floor)
    assert payouts_selectors.prizes_won(tournament)[three_left[0].number] == min(deal.amounts)
    kinds = list(AuditEvent.objects.filter(tournament=tournament, type__startswith="deal.").values_list("type", flat=True))
    assert kinds == ["deal.proposed", "deal.approved"]


def test_a_deal_that_breaks_a_rule_is_not_saved(floor, tournament, three_left):
    prizes_left = payouts_selectors.payout_state(tournament)["prizes"][:3]
    shared = sum(prizes_left)
    # A chip leader with nearly everything: a chip chop would pay more than first.
    with pytest.raises(ServiceError) as refused:
        payouts_services.propose_deal(tournament, actor=floor, data={"kind": "chip_chop", "stacks": chips(three_left, 10**6, 1, 1)})
    assert refused.value.code == "deal_above_first" and f"#{three_left[0].number}" in refused.value.message
    # Amounts that don't add up, one below the lowest prize left.
    with pytest.raises(ServiceError) as refused:
        payouts_services.propose_deal(
            tournament,
            actor=floor,
            data={"kind": "custom", "stacks": chips(three_left, 3, 2, 1), "amounts": chips(three_left, shared, 0, 1)},
        )
    assert refused.value.code == "deal_wrong_sum"
    # Club 28 when play stops: fewer chips, finishing lower, may not get more.
    first, second, third = prizes_left
    assert second > third
    amounts = chips(three_left, third, first, second)  # 50 chips (second place) would get less than 10 chips (third)
    with pytest.raises(ServiceError) as refused:
        payouts_services.propose_deal(
            tournament, actor=floor, data={"kind": "custom", "mode": "stop", "stacks": chips(three_left, 50, 60, 10), "amounts": amounts}
        )
    assert refused.value.code == "deal_club_28" and "Club 28" in refused.value.message
    # The wrong players, a bad chip count.
    with pytest.raises(ServiceError) as refused:
        payouts_services.propose_deal(tournament, actor=floor, data={"kind": "icm", "stacks": chips(three_left[:2], 5, 5)})
    assert refused.value.code == "wrong_players"
    with pytest.raises(ServiceError):
        payouts_services.propose_deal(tournament, actor=floor, data={"kind": "icm", "stacks": chips(three_left, 5, 0, 5)})
    assert not Deal.objects.exists() and not AuditEvent.objects.filter(type__startswith="deal.").exists()


def test_stopping_play_places_the_players_by_their_chips_and_pays_the_amounts(director, floor, cashier, tournament, three_left):
    prizes_left = payouts_selectors.payout_state(tournament)["prizes"][:3]
    stacks = chips(three_left, 20_000, 50_000, 30_000)
    deal = payouts_services.propose_deal(tournament, actor=floor, data={"kind": "icm", "mode": "stop", "stacks": stacks})
    payouts_services.approve_deal(deal, actor=director)
    results = {r["entry"]: r for r in payouts_selectors.results(tournament)}
    assert [results[e.number]["place"] for e in three_left] == [3, 1, 2]
    assert [results[e.number]["prize"] for e in three_left] == deal.amounts
    assert sum(deal.amounts) == sum(prizes_left)
    # Nothing is left to deal once play stopped; the winner by chips is paid the agreed amount.
    assert payouts_selectors.deal_basis(tournament)["players"] == []
    payment = payouts_services.pay_prize(three_left[1], actor=cashier, document=id_doc("EA0000006"), signature=signature())
    assert payment.amount == deal.amounts[1] and payment.place == 1


def test_roles_one_proposal_at_a_time_and_a_stale_deal_is_not_approved(director, floor, cashier, tournament, three_left):
    stacks = chips(three_left, 50_000, 30_000, 20_000)
    with pytest.raises(ServiceError) as refused:
        payouts_services.propose_deal(tournament, actor=cashier, data={"kind": "icm", "stacks": stacks})
    assert refused.value.status == 403
    deal = payouts_services.propose_deal(tournament, actor=floor, data={"kind": "chip_chop", "stacks": stacks})
    with pytest.raises(ServiceError) as refused:
        payouts_services.propose_deal(tournament, actor=floor, data={"kind": "icm", "stacks": stacks})
    assert refused.value.code == "deal_pending"
    with pytest.raises(ServiceError) as refused:
        payouts_services.approve_deal(deal, actor=floor)
    assert refused.value.status == 403
    busts.bust_entry(three_left[2], actor=floor)  # the field changed since the proposal
    with pytest.raises(ServiceError) as refused:
        payouts_services.approve_deal(deal, actor=director)
    assert refused.value.code == "deal_stale"
    payouts_services.reject_deal(deal, actor=floor, reason="a player busted")
    deal.refresh_from_db()
    assert deal.status == Deal.Status.REJECTED and deal.reason == "a player busted"
    with pytest.raises(ServiceError) as refused:
        payouts_services.approve_deal(deal, actor=director)
    assert refused.value.code == "deal_decided"
    assert payouts_selectors.payout_state(tournament)["deal"] is None


def test_the_api_calculates_proposes_and_approves(client, director, floor, cashier, tournament, three_left):
    base = f"/api/tournaments/{tournament.pk}/deals/"
    stacks = chips(three_left, 50_000, 30_000, 20_000)
    client.force_login(cashier)
    assert client.post(f"{base}calculate/", {"stacks": stacks}, content_type="application/json").status_code == 403
    assert client.get(base).status_code == 200
    client.force_login(floor)
    calc = client.post(f"{base}calculate/", {"stacks": stacks, "to_play_for": 0}, content_type="application/json")
    assert calc.status_code == 200
    figures = calc.json()
    prizes_left = figures["prizes_left"]
    assert figures["icm"]["amounts"] == dl.icm_deal([50_000, 30_000, 20_000], prizes_left, unit=100)
    assert figures["chip_chop"]["amounts"] == dl.chip_chop([50_000, 30_000, 20_000], prizes_left, unit=100)
    bad = client.post(f"{base}calculate/", {"stacks": {"x": 5}}, content_type="application/json")
    assert bad.status_code == 400
    made = client.post(base, {"kind": "icm", "stacks": stacks}, content_type="application/json")
    assert made.status_code == 201 and made.json()["status"] == "proposed"
    assert client.post(f"{base}1/approve/").status_code == 403
    client.force_login(director)
    approved = client.post(f"{base}1/approve/")
    assert approved.status_code == 200 and approved.json()["status"] == "approved"
    assert client.get(f"/api/tournaments/{tournament.pk}/payouts/").json()["deal"]["number"] == 1
    assert client.post(f"{base}1/reject/", {}, content_type="application/json").status_code == 409


def test_the_floor_calculates_on_the_payouts_screen_and_the_director_sees_the_proposal(client, director, floor, tournament, three_left):
    client.force_login(floor)
    query = "&".join(f"chips_{e.number}={c}" for e, c in zip(three_left, (50_000, 30_000, 20_000), strict=True))
    page = client.get(f"/t/{tournament.pk}/payouts/?deal=1&{query}")
    assert b'id="deal-figures"' in page.content and b'id="deal-propose"' in page.content
    wrong = client.get(f"/t/{tournament.pk}/payouts/?deal=1&chips_{three_left[0].number}=lots")
    assert b'id="deal-error"' in wrong.content and b'id="deal-figures"' not in wrong.content
    payouts_services.propose_deal(tournament, actor=floor, data={"kind": "icm", "stacks": chips(three_left, 50_000, 30_000, 20_000)})
    client.force_login(director)
    page = client.get(f"/t/{tournament.pk}/payouts/")
    assert b'id="deal-pending"' in page.content and b'id="deal-approve"' in page.content
