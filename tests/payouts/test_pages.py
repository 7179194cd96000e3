"""The payouts screen and the API of the money, as the staff use them."""

from __future__ import annotations

import pytest
from django.utils import translation

from core.money import format_money
from payouts.services import structure as payouts_services
from tables.services import busts, draws
from tests.helpers import open_tables, register
from web.templatetags.money import money


@pytest.fixture
def played(director, cashier, floor, tournament):
    tournament.guaranteed_pool = 0
    tournament.save(update_fields=["guaranteed_pool"])
    open_tables(director, tournament, [1])
    entries = register(cashier, tournament, 8)
    draws.draw_start(tournament, actor=director)
    payouts_services.set_payout_plan(tournament, actor=director, data={"share_paid_bp": 5000, "min_cash_bp": 0})
    for entry in entries[:5]:
        busts.bust_entry(entry, actor=floor)
    return entries


def test_money_reads_in_major_units_the_way_the_language_writes_them():
    with translation.override("cs"):
        assert money(110000, "CZK") == "1\xa0100\xa0Kč"
        assert money(1050, "EUR") == "10,50\xa0€"
    with translation.override("en"):
        assert money(110000, "CZK") == "CZK\xa01,100"
        assert money(-250, "EUR") == "\u2212EUR\xa02.50"  # the minus sign: no line breaks after it


def test_everyone_on_the_staff_sees_the_prizes_and_only_the_desk_and_floor_the_names(client, director, cashier, dealer, tournament, played):
    client.force_login(dealer)
    page = client.get(f"/t/{tournament.pk}/payouts/")
    assert page.status_code == 200 and b'id="payout-table"' in page.content and b'id="results"' not in page.content
    assert b"plan-form" not in page.content
    client.force_login(cashier)
    page = client.get(f"/t/{tournament.pk}/payouts/")
    assert b'id="results"' in page.content and played[4].player.display_name.encode() in page.content
    client.force_login(director)
    page = client.get(f"/t/{tournament.pk}/payouts/")
    assert b"plan-form" in page.content and b"edit-form" in page.content


def test_the_api_gives_the_structure_the_plan_and_the_results(client, director, cashier, dealer, tournament, played):
    client.force_login(dealer)
    state = client.get(f"/api/tournaments/{tournament.pk}/payouts/").json()
    assert state["places_paid"] == 4 and sum(b["prize"] * (b["last"] - b["first"] + 1) for b in state["bands"]) == state["pool"]
    assert state["in_the_money"] and "prizes" not in state
    assert client.get(f"/api/tournaments/{tournament.pk}/results/").status_code == 403
    client.force_login(cashier)
    results = client.get(f"/api/tournaments/{tournament.pk}/results/").json()
    assert [r["place"] for r in results] == [4, 5, 6, 7, 8] and results[0]["prize"] > 0 and results[-1]["prize"] == 0
    assert [r["prize_display"] for r in results] == [format_money(r["prize"], tournament.currency, "en") for r in results]

    client.force_login(director)
    plan = client.patch(f"/api/tournaments/{tournament.pk}/payouts/plan/", {"unit": 1000}, content_type="application/json")
    assert plan.status_code == 200 and plan.json()["unit"] == 1000
    bad = client.patch(f"/api/tournaments/{tournament.pk}/payouts/plan/", {"unit": 0, "colour": 2}, content_type="application/json")
    assert bad.status_code == 400
    pool = state["pool"]
    edit = client.put(
        f"/api/tournaments/{tournament.pk}/payouts/structure/",
        {"bands": [{"first": 1, "last": 1, "prize": pool - 2000}, {"first": 2, "last": 3, "prize": 1000}]},
        content_type="application/json",
    )
    assert edit.status_code == 200 and edit.json()["state"] == "edited"
    wrong = client.put(f"/api/tournaments/{tournament.pk}/payouts/structure/", {"bands": [[1, 1, 5]]}, content_type="application/json")
    assert wrong.status_code == 400 and "prize pool" in wrong.json()["detail"]
    assert client.delete(f"/api/tournaments/{tournament.pk}/payouts/structure/").json()["state"] == "live"
    assert client.delete(f"/api/tournaments/{tournament.pk}/payouts/structure/").status_code == 409


def test_the_player_s_phone_shows_the_place_and_the_prize(client, tournament, played):
    from payouts.selectors import structure as payouts_selectors

    won = payouts_selectors.prizes_won(tournament)
    in_the_money = played[4]  # place 4 of 8, four paid
    seat = client.get(f"/api/public/tournaments/{tournament.pk}/seats/{in_the_money.number}/").json()
    assert seat["place"] == 4 and seat["prize"] == won[in_the_money.number] > 0
    assert client.get(f"/api/public/tournaments/{tournament.pk}/seats/{in_the_money.number}/").json()["prize"] == seat["prize"]
    assert client.get(f"/api/public/tournaments/{tournament.pk}/seats/{played[0].number}/").json()["prize"] is None  # out of the money
    assert client.get(f"/api/public/tournaments/{tournament.pk}/seats/{played[7].number}/").json()["prize"] is None  # still playing
    page = client.get(f"/s/{tournament.pk}/{in_the_money.number}/")
    assert b'id="seat-prize"' in page.content and b"currency" in page.content


def test_the_lobby_shows_the_places_paid_and_its_snapshot_carries_the_prizes(client, director, tournament, played):
    from tournament.services import registration as tournament_services

    display = tournament_services.create_display_token(tournament, actor=director, label="TV")
    snapshot = client.get(f"/api/public/display/{display.token}/snapshot/").json()
    paid = snapshot["payouts"]
    assert paid["places_paid"] == 4 and paid["pool"] == snapshot["stats"]["prize_pool"]
    assert sum((last - first + 1) * prize for first, last, prize in paid["bands"]) == paid["pool"]
    page = client.get(f"/display/{display.token}/")
    assert b'id="lobby-paid"' in page.content and b'"places_paid": 4' in page.content
