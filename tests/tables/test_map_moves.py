"""Move slips on the floor's table map: the map lists them, the floor confirms or cancels them,
balances on demand and enters a button the rules ask for (JSON answers, plain-form fallbacks)."""
import pytest

from tables import draws
from tables.models import Move, Seat, Table
from tests.tables.test_moves import bust_at, seated, start
from tests.tables.test_seating_services import open_tables, register
from tests.tables.test_views import client_for, live_seat

JSON = {"HTTP_ACCEPT": "application/json"}


@pytest.fixture
def slip(director, cashier, floor, tournament) -> Move:
    """Three tables (7, 7, 6); a bust at the short table leaves it two short: one pending slip."""
    start(director, cashier, tournament, 20)
    counts = {t: len(s) for t, s in seated(tournament).items()}
    bust_at(floor, tournament, min(counts, key=lambda t: (counts[t], t)))
    (move,) = Move.objects.filter(tournament=tournament, status=Move.Status.PENDING).select_related(
        "entry", "from_table", "to_table")
    return move


def url(tournament, rest: str) -> str:
    return f"/t/{tournament.pk}/map/{rest}"


def test_map_json_lists_the_pending_slip_and_the_page_has_the_panel(slip, floor, tournament):
    data = client_for(floor).get(f"/t/{tournament.pk}/map.json").json()
    (shown,) = data["moves"]["moves"]
    assert shown["move"] == slip.number and shown["entry"] == slip.entry.number
    assert shown["from"] == {"table": slip.from_table.number, "seat": slip.from_seat}
    assert shown["to"] == {"table": slip.to_table.number, "seat": slip.to_seat}
    assert set(data["moves"]) >= {"halted", "need_button", "moves", "rules"} and data["tables"]
    page = client_for(floor).get(url(tournament, "")).content.decode()
    assert "Move slips" in page and "Balance now" in page and f"/t/{tournament.pk}/map/moves/balance/" in page


def test_confirm_from_the_map_moves_the_seat(slip, floor, tournament):
    answer = client_for(floor).post(url(tournament, f"moves/{slip.number}/confirm/"), **JSON)
    assert answer.status_code == 200 and answer.json()["ok"] is True
    assert f"#{slip.number}" in answer.json()["message"]
    seat = live_seat(slip.entry)
    assert (seat.table_id, seat.seat) == (slip.to_table_id, slip.to_seat)
    slip.refresh_from_db()
    assert slip.status == Move.Status.DONE
    assert client_for(floor).get(f"/t/{tournament.pk}/map.json").json()["moves"]["moves"] == []


def test_cancel_from_the_map_with_a_plain_form_and_balance_now(slip, floor, tournament):
    before = live_seat(slip.entry)
    response = client_for(floor).post(url(tournament, f"moves/{slip.number}/cancel/"), {"reason": "player on break"},
                                      follow=True)
    assert response.redirect_chain[-1][0] == url(tournament, "")
    assert "is cancelled" in response.content.decode()
    slip.refresh_from_db()
    assert slip.status == Move.Status.CANCELLED and slip.cancel_reason == "player on break"
    assert live_seat(slip.entry).pk == before.pk
    # The room is still out of balance: "Balance now" writes a new slip.
    answer = client_for(floor).post(url(tournament, "moves/balance/"), **JSON).json()
    assert answer["ok"] is True
    assert Move.objects.filter(tournament=tournament, status=Move.Status.PENDING).count() == 1


def test_a_bad_move_number_gives_the_services_error(slip, floor, tournament):
    answer = client_for(floor).post(url(tournament, "moves/999/confirm/"), **JSON)
    assert answer.status_code == 404 and answer.json() == {
        "ok": False, "error": "There is no move slip 999.", "code": "no_move"}
    client_for(floor).post(url(tournament, f"moves/{slip.number}/confirm/"), **JSON)
    again = client_for(floor).post(url(tournament, f"moves/{slip.number}/cancel/"), **JSON)
    assert again.status_code == 409 and again.json()["code"] == "move_closed" and again.json()["ok"] is False


@pytest.mark.parametrize("who", ["cashier", "dealer"])
def test_a_cashier_and_a_dealer_may_not_confirm_cancel_balance_or_enter_a_button(request, slip, tournament, who):
    c = client_for(request.getfixturevalue(who))
    for rest in (f"moves/{slip.number}/confirm/", f"moves/{slip.number}/cancel/", "moves/balance/",
                 f"tables/{slip.from_table.number}/positions/"):
        assert c.post(url(tournament, rest), {"seat": 1}, **JSON).status_code == 403
    slip.refresh_from_db()
    assert slip.status == Move.Status.PENDING


def test_the_floor_enters_the_button_the_rules_ask_for(director, cashier, floor, tournament):
    open_tables(director, tournament, [1, 2, 3])
    register(cashier, tournament, 20)
    draws.draw_start(director, tournament)  # no button draws: the software knows no positions
    counts = {t: len(s) for t, s in seated(tournament).items()}
    bust_at(floor, tournament, min(counts, key=lambda t: (counts[t], t)))
    c = client_for(floor)
    (number, *_rest) = c.get(f"/t/{tournament.pk}/map.json").json()["moves"]["need_button"]
    # A seat nobody sits at is refused with the service's message (JSON, and on the page after a plain post).
    bad = c.post(url(tournament, f"tables/{number}/positions/"), {"seat": 99}, **JSON)
    assert bad.status_code == 400 and bad.json()["ok"] is False and bad.json()["code"] == "bad_seat"
    page = c.post(url(tournament, f"tables/{number}/positions/"), {"seat": 99}, follow=True).content.decode()
    assert "The button goes to an occupied seat" in page
    table = Table.objects.get(tournament=tournament, number=number)
    assert table.needs_button and table.button_seat is None
    seat = min(seated(tournament)[number])
    answer = c.post(url(tournament, f"tables/{number}/positions/"), {"seat": seat}, **JSON).json()
    assert answer["ok"] is True
    table.refresh_from_db()
    assert table.button_seat == seat and not table.needs_button
    assert number not in c.get(f"/t/{tournament.pk}/map.json").json()["moves"]["need_button"]
    assert Seat.objects.filter(tournament=tournament, ended_at__isnull=True).count() == 19


def test_the_movers_seat_page_shows_the_slip_until_it_is_confirmed(slip, floor, tournament):
    from django.test import Client

    public = Client()
    seat = public.get(f"/s/{tournament.pk}/{slip.entry.number}.json").json()
    assert seat["table"] == slip.from_table.number and seat["seat"] == slip.from_seat
    assert seat["move"]["table"] == slip.to_table.number and seat["move"]["seat"] == slip.to_seat
    assert seat["move"]["position"] == slip.position
    api = public.get(f"/api/public/tournaments/{tournament.pk}/seats/{slip.entry.number}/").json()
    assert api["move"] == seat["move"]
    page = public.get(f"/s/{tournament.pk}/{slip.entry.number}/").content.decode()
    assert 'id="go"' in page and "Move to table" in page
    client_for(floor).post(url(tournament, f"moves/{slip.number}/confirm/"), **JSON)
    seat = public.get(f"/s/{tournament.pk}/{slip.entry.number}.json").json()
    assert seat["move"] is None and (seat["table"], seat["seat"]) == (slip.to_table.number, slip.to_seat)
