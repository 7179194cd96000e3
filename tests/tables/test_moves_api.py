"""The balancing JSON API: the pending move slips, confirm, cancel, balance now, and the button the
floor enters when the software needs it; only the floor (and the director) may use it."""

from __future__ import annotations

import json

import pytest

from core.errors import ServiceError
from tables.models import Move, Table
from tables.selectors import screens, state
from tables.services import draws, moves
from tests.helpers import client_for, open_tables, register, url
from tests.tables.test_moves import bust_at, seated, start


@pytest.fixture
def slip(director, cashier, floor, tournament) -> Move:
    """Three tables (7, 7, 6); a bust at the short one makes one pending balancing slip."""
    start(director, cashier, tournament, 20)
    counts = {t: len(s) for t, s in seated(tournament).items()}
    bust_at(floor, tournament, min(counts, key=lambda t: (counts[t], t)))
    return Move.objects.select_related("entry", "from_table", "to_table").get(tournament=tournament, status=Move.Status.PENDING)


def test_the_floor_lists_the_pending_slips(slip, floor, director, tournament):
    for user in (floor, director):
        response = client_for(user).get(url(tournament, "moves/"))
        assert response.status_code == 200, response.content
        answer = response.json()
        assert answer == json.loads(json.dumps(screens.balancing_status(tournament), default=str))
        (listed,) = answer["moves"]
        assert listed["move"] == slip.number and listed["entry"] == slip.entry.number and listed["status"] == "pending"
        assert listed["from"] == {"table": slip.from_table.number, "seat": slip.from_seat}
        assert listed["to"] == {"table": slip.to_table.number, "seat": slip.to_seat}
        assert set(answer) == {"halted", "need_button", "moves", "rules", "notice"}
        assert answer["notice"] is None  # balancing is not stuck


def test_confirm_moves_the_player_and_a_second_confirm_is_409(slip, floor, tournament):
    response = client_for(floor).post(url(tournament, f"moves/{slip.number}/confirm/"))
    assert response.status_code == 200, response.content
    assert response.json()["move"] == slip.number and response.json()["status"] == "done"
    after = seated(tournament)
    assert after[slip.to_table.number][slip.to_seat] == slip.entry.number
    assert slip.from_seat not in after[slip.from_table.number]
    assert client_for(floor).get(url(tournament, "moves/")).json()["moves"] == []

    again = client_for(floor).post(url(tournament, f"moves/{slip.number}/confirm/"))
    assert again.status_code == 409
    with pytest.raises(ServiceError) as err:
        moves.confirm_move(tournament, actor=floor, number=slip.number)
    assert again.json()["error"] == "move_closed" == err.value.code
    assert again.json()["detail"] == err.value.message


def test_cancel_then_balance_now(slip, floor, director, tournament):
    unknown = client_for(floor).post(url(tournament, "moves/999/cancel/"), {"reason": "x"}, format="json")
    assert unknown.status_code == 404 and unknown.json()["error"] == "no_move"
    too_long = client_for(floor).post(url(tournament, f"moves/{slip.number}/cancel/"), {"reason": "x" * 201}, format="json")
    assert too_long.status_code == 400
    response = client_for(floor).post(url(tournament, f"moves/{slip.number}/cancel/"), {"reason": "player in the restroom"}, format="json")
    assert response.status_code == 200, response.content
    assert response.json()["move"] == slip.number and response.json()["status"] == "cancelled"
    slip.refresh_from_db()
    assert slip.status == Move.Status.CANCELLED and slip.cancel_reason == "player in the restroom"
    assert state.reserved_seats(tournament, [slip.to_table_id]) == []
    again = client_for(floor).post(url(tournament, f"moves/{slip.number}/cancel/"), format="json")
    assert again.status_code == 409 and again.json()["error"] == "move_closed"

    balanced = client_for(director).post(url(tournament, "moves/balance/"))
    assert balanced.status_code == 200, balanced.content
    (created,) = balanced.json()["moves"]
    assert created["entry"] == slip.entry.number and created["move"] == slip.number + 1
    assert created["status"] == "pending"
    nothing = client_for(floor).post(url(tournament, "moves/balance/"))
    assert nothing.status_code == 200 and nothing.json()["moves"] == [] and nothing.json()["message"] is None


def test_the_floor_enters_the_button_a_move_waits_for(director, cashier, floor, tournament):
    open_tables(director, tournament, [1, 2, 3])
    register(cashier, tournament, 20)
    draws.draw_start(tournament, actor=director)  # no button draws: the software knows no positions
    counts = {t: len(s) for t, s in seated(tournament).items()}
    bust_at(floor, tournament, min(counts, key=lambda t: (counts[t], t)))
    assert not Move.objects.filter(tournament=tournament).exists()
    asked = []
    while need := client_for(floor).get(url(tournament, "moves/")).json()["need_button"]:
        number = need[0]
        assert number not in asked
        asked.append(number)
        occupied = sorted(seated(tournament)[number])
        table = Table.objects.get(tournament=tournament, number=number)
        empty = next(s for s in range(1, table.seats + 1) if s not in occupied)
        bad = client_for(floor).post(url(tournament, f"tables/{number}/positions/"), {"button": empty}, format="json")
        assert bad.status_code == 400 and bad.json()["error"] == "bad_seat"
        invalid = client_for(floor).post(url(tournament, f"tables/{number}/positions/"), {}, format="json")
        assert invalid.status_code == 400
        good = client_for(floor).post(url(tournament, f"tables/{number}/positions/"), {"button": occupied[0]}, format="json")
        assert good.status_code == 200, good.content
        assert good.json()["table"] == number and good.json()["positions"]["button"] == occupied[0]
    assert 1 <= len(asked) <= 2
    (listed,) = client_for(floor).get(url(tournament, "moves/")).json()["moves"]
    assert listed["kind"] == "balance"
    assert client_for(floor).post(url(tournament, "tables/99/positions/"), {"button": 1}, format="json").status_code == 404
