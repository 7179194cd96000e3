""" "Balance now" says what it waits for, and the floor is asked for every button the moves need at once
(before, at 9/9/9/3 it answered "balanced" while the map asked for table 3's button, and four
tables without a button needed four button entries, one after another, before any slip appeared)."""

from tables.models import Move, Seat, Table
from tables.selectors import screens
from tables.services import draws, seats
from tests.helpers import client_for, open_tables, register
from tests.tables.test_hand_for_hand import confirm_all
from tests.tables.test_moves import bust_at, check_invariants, seated


def test_every_button_the_moves_need_is_asked_at_once_and_balance_now_says_so(director, cashier, floor, tournament):
    open_tables(director, tournament, [1, 2, 3, 4])
    register(cashier, tournament, 32)  # 8/8/8/8, no button drawn anywhere
    draws.draw_start(tournament, actor=director)
    bust_at(floor, tournament, 4, count=5)  # 8/8/8/3
    need = screens.balancing_status(tournament)["need_button"]
    assert sorted(need) == [1, 2, 3, 4]  # the three donors of the coming moves and the receiver, all at once
    answer = client_for(floor).post(f"/api/tournaments/{tournament.pk}/moves/balance/", format="json")
    body = answer.json()
    assert answer.status_code == 200 and body["moves"] == [] and sorted(body["need_button"]) == [1, 2, 3, 4]
    assert "wait for the buttons at tables" in body["message"] and "balanced" not in body["message"]
    for number in need:
        table = Table.objects.get(tournament=tournament, number=number)
        occupied = sorted(Seat.objects.filter(table=table, ended_at__isnull=True).values_list("seat", flat=True))
        seats.enter_button(table, actor=floor, seat=occupied[0])
    assert screens.balancing_status(tournament)["need_button"] == []
    assert Move.objects.filter(tournament=tournament, status=Move.Status.PENDING).exists()
    confirm_all(floor, tournament)
    counts = sorted(len(s) for s in seated(tournament).values())
    assert counts[-1] - counts[0] <= 1, counts
    answer = client_for(floor).post(f"/api/tournaments/{tournament.pk}/moves/balance/", format="json").json()
    assert answer["moves"] == [] and answer["message"] is None and answer["need_button"] == []
    check_invariants(tournament)
