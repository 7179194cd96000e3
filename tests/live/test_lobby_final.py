"""The lobby's snapshot at the end of a tournament: once play is over (the last bust, or a deal that
stops play) it carries the final results, top places with prizes, and no names (the players' public seat socket
shares it); the display link's own reads add the names; an undone last bust takes the results away again."""

from __future__ import annotations

import pytest

from live import snapshots
from live.snapshots import lobby_snapshot
from payouts.selectors import structure as payouts_selectors
from payouts.services import structure as payouts_services
from tables.services import busts, draws
from tests.helpers import open_tables, register
from tests.payouts.test_deal_services import chips
from tests.payouts.test_payments import finish
from tournament.services import registration as tournament_services


@pytest.fixture
def three_left(director, cashier, floor, tournament):
    """Eight entries, four paid, places 8 to 4 out: three play on."""
    return finish(director, cashier, floor, tournament)


def test_the_last_bust_ends_play_and_its_undo_brings_it_back(client, director, floor, tournament, three_left):
    third, second, winner = three_left[5:]
    busts.bust_entry(third, actor=floor)
    assert lobby_snapshot(tournament)["final"] is None  # two play on: no winner yet
    busts.bust_entry(second, actor=floor)

    snapshot = lobby_snapshot(tournament)
    won = payouts_selectors.prizes_won(tournament)
    assert snapshot["final"] == {
        "results": [
            {"entry": e.number, "place": place, "place_low": place, "prize": won[e.number], "seat": False}
            for place, e in ((1, winner), (2, second), (3, third), (4, three_left[4]))
        ],
        "more": 0,
        "seats_in": None,
    }
    assert [row["prize"] > 0 for row in snapshot["final"]["results"]] == [True] * 4  # four places paid
    assert not any(e.player.display_name in str(snapshot) for e in three_left)  # the socket's snapshot: no names

    display = tournament_services.create_display_token(tournament, actor=director, label="TV")
    read = client.get(f"/api/public/display/{display.token}/snapshot/").json()
    assert read["final"]["names"] == {str(e.number): e.player.display_name for e in (winner, second, third, three_left[4])}
    page = client.get(f"/display/{display.token}/").content.decode()
    assert 'class="lobby is-final"' in page and winner.player.display_name in page

    busts.undo_bust(second, actor=floor)
    assert lobby_snapshot(tournament)["final"] is None
    assert snapshots.lobby_names(tournament, lobby_snapshot(tournament))["final"] is None
    assert 'class="lobby"' in client.get(f"/display/{display.token}/").content.decode()


def test_a_deal_that_stops_play_ends_it_with_the_deal_s_places(director, floor, tournament, three_left):
    players = three_left[5:]
    deal = payouts_services.propose_deal(
        tournament, actor=floor, data={"kind": "icm", "mode": "stop", "stacks": chips(players, 20_000, 50_000, 30_000)}
    )
    assert lobby_snapshot(tournament)["final"] is None  # proposed, not approved: play goes on
    payouts_services.approve_deal(deal, actor=director)
    final = lobby_snapshot(tournament)["final"]
    assert [(row["entry"], row["place"]) for row in final["results"][:3]] == [
        (players[1].number, 1),
        (players[2].number, 2),
        (players[0].number, 3),
    ]
    assert [row["prize"] for row in final["results"][:3]] == sorted(deal.amounts, reverse=True)


def test_the_lobby_shows_the_top_places_and_counts_the_others(director, cashier, floor, tournament):
    open_tables(director, tournament, [1, 2])
    entries = register(cashier, tournament, 13)
    draws.draw_start(tournament, actor=director)
    pool = payouts_selectors.payout_state(tournament)["pool"]  # twelve places paid: the director's own prizes
    payouts_services.edit_structure(tournament, actor=director, rows=[[1, 1, pool - 11 * (pool // 12)], [2, 12, pool // 12]])
    for entry in entries[:-1]:
        busts.bust_entry(entry, actor=floor)
    final = lobby_snapshot(tournament)["final"]
    assert [row["place"] for row in final["results"]] == list(range(1, snapshots.LOBBY_FINAL_PLACES + 1))
    assert final["more"] == 12 - snapshots.LOBBY_FINAL_PLACES  # place 13 is not paid
