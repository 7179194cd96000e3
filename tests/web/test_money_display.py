"""The API keeps amounts as integers in minor units and adds `*_display` strings beside them on the main
read endpoints (stats, payouts, receipts, payments), in the request's language: "1 100 Kč", "CZK 1,100"."""

import pytest

from tests.conftest import tournament_data
from tests.helpers import client_for, id_doc
from tournament.services import registration, setup

NB = "\u00a0"


@pytest.fixture
def crowns(director, template, cashier, player):
    t = setup.create_tournament(
        tournament_data(currency="CZK", buy_in=100000, fee=10000, guaranteed_pool=0), actor=director, template=template
    )
    registration.register_entry(t, actor=cashier, player=player, document=id_doc())
    return t


@pytest.mark.parametrize(
    ("language", "buy_in", "fee", "total"),
    [
        ("cs", f"1{NB}000{NB}Kč", f"100{NB}Kč", f"1{NB}100{NB}Kč"),
        ("sk", f"1{NB}000{NB}Kč", f"100{NB}Kč", f"1{NB}100{NB}Kč"),
        ("en", f"CZK{NB}1,000", f"CZK{NB}100", f"CZK{NB}1,100"),
    ],
)
def test_receipts_and_stats_carry_display_strings_in_the_request_language(director, crowns, language, buy_in, fee, total):
    api = client_for(director, HTTP_ACCEPT_LANGUAGE=language)
    receipt = api.get(f"/api/tournaments/{crowns.pk}/receipts/1/").json()
    assert (receipt["amount"], receipt["fee"], receipt["total"], receipt["currency"]) == (100000, 10000, 110000, "CZK")
    assert (receipt["amount_display"], receipt["fee_display"], receipt["total_display"]) == (buy_in, fee, total)
    listed = api.get(f"/api/tournaments/{crowns.pk}/receipts/").json()
    assert [r["total_display"] for r in listed] == [total]
    stats = api.get(f"/api/tournaments/{crowns.pk}/stats/").json()
    assert stats["prize_pool"] == 100000 and stats["prize_pool_display"] == buy_in
    assert stats["fees"] == 10000 and stats["fees_display"] == fee and stats["collected"] == 100000 and stats["collected_display"] == buy_in


def test_payouts_carry_display_strings(director, crowns):
    state = client_for(director, HTTP_ACCEPT_LANGUAGE="cs").get(f"/api/tournaments/{crowns.pk}/payouts/").json()
    assert state["pool"] == 100000 and state["pool_display"] == f"1{NB}000{NB}Kč"
    for band in state["bands"]:
        assert band["prize_display"] == f"{band['prize'] // 100:,}".replace(",", NB) + f"{NB}Kč"
    english = client_for(director, HTTP_ACCEPT_LANGUAGE="en").get(f"/api/tournaments/{crowns.pk}/payouts/").json()
    assert english["pool_display"] == f"CZK{NB}1,000" and english["min_cash_display"].startswith("CZK")


@pytest.mark.parametrize(("zone", "currency"), [("Europe/Prague", "CZK"), ("Europe/Bratislava", "EUR"), ("UTC", "CZK")])
def test_a_new_tournament_without_a_currency_takes_its_rooms(director, template, zone, currency):
    body = {**tournament_data(time_zone=zone, name=f"Default {zone}"), "template": template.pk}
    body["start_at"] = body["start_at"].isoformat()
    del body["currency"]
    response = client_for(director, HTTP_ACCEPT_LANGUAGE="en").post("/api/tournaments/", body, format="json")
    assert response.status_code == 201, response.json()
    assert response.json()["currency"] == currency
