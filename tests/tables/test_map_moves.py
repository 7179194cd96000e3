"""Move slips on the floor's table map: the map lists them (the API's map/), and the floor confirms or
cancels them, balances on demand and enters a button the rules ask for through the JSON API, the
map's one door for each action (static/js/floor-map.js builds its messages from these answers)."""

import pytest

from tables.models import Move, Seat, Table
from tables.services import draws
from tests.helpers import client_for as api_client
from tests.helpers import live_seat, logged_in, open_tables, register
from tests.helpers import url as api_url
from tests.tables.test_moves import bust_at, seated, start
from tests.tables.test_views import STATIC_JS
from tournament.models import AuditEvent


@pytest.fixture
def slip(director, cashier, floor, tournament) -> Move:
    """Three tables (7, 7, 6); a bust at the short table leaves it two short: one pending slip."""
    start(director, cashier, tournament, 20)
    counts = {t: len(s) for t, s in seated(tournament).items()}
    bust_at(floor, tournament, min(counts, key=lambda t: (counts[t], t)))
    (move,) = Move.objects.filter(tournament=tournament, status=Move.Status.PENDING).select_related("entry", "from_table", "to_table")
    return move


def url(tournament, rest: str) -> str:
    return f"/t/{tournament.pk}/map/{rest}"


def test_map_json_lists_the_pending_slip_and_the_page_has_the_panel(slip, floor, tournament):
    data = logged_in(floor).get(f"/api/tournaments/{tournament.pk}/map/").json()
    (shown,) = data["moves"]["moves"]
    assert shown["move"] == slip.number and shown["entry"] == slip.entry.number
    assert shown["from"] == {"table": slip.from_table.number, "seat": slip.from_seat}
    assert shown["to"] == {"table": slip.to_table.number, "seat": slip.to_seat}
    assert set(data["moves"]) >= {"halted", "need_button", "moves", "rules"} and data["tables"]
    page = logged_in(floor).get(url(tournament, "")).content.decode()
    assert "Move slips" in page and "Balance now" in page and 'id="balance-now"' in page
    assert f'"/api/tournaments/{tournament.pk}/moves/balance/"' in page
    assert f'"/api/tournaments/{tournament.pk}/moves/999999/confirm/"' in page


def test_confirm_from_the_map_moves_the_seat(slip, floor, tournament):
    answer = api_client(floor).post(api_url(tournament, f"moves/{slip.number}/confirm/"), {}, format="json")
    assert answer.status_code == 200
    # What the map's message needs: "Move slip #m: entry #e sits at table t seat s."
    body = answer.json()
    assert (body["move"], body["entry"], body["to"], body["status"]) == (
        slip.number,
        slip.entry.number,
        {"table": slip.to_table.number, "seat": slip.to_seat},
        "done",
    )
    seat = live_seat(slip.entry)
    assert (seat.table_id, seat.seat) == (slip.to_table_id, slip.to_seat)
    slip.refresh_from_db()
    assert slip.status == Move.Status.DONE
    assert AuditEvent.objects.filter(tournament=tournament, type="move.done").get().actor == floor
    assert logged_in(floor).get(f"/api/tournaments/{tournament.pk}/map/").json()["moves"]["moves"] == []


def test_cancel_from_the_map_and_balance_now(slip, floor, tournament):
    before = live_seat(slip.entry)
    answer = api_client(floor).post(api_url(tournament, f"moves/{slip.number}/cancel/"), {"reason": "player on break"}, format="json")
    assert answer.status_code == 200 and answer.json()["move"] == slip.number and answer.json()["status"] == "cancelled"
    slip.refresh_from_db()
    assert slip.status == Move.Status.CANCELLED and slip.cancel_reason == "player on break"
    assert live_seat(slip.entry).pk == before.pk
    # The room is still out of balance: "Balance now" writes a new slip (the map lists its numbers).
    answer = api_client(floor).post(api_url(tournament, "moves/balance/"), {}, format="json")
    assert answer.status_code == 200
    pending = Move.objects.get(tournament=tournament, status=Move.Status.PENDING)
    assert [m["move"] for m in answer.json()["moves"]] == [pending.number]
    # Balanced: no slip, and the map says "The tables are balanced: no move is needed."
    api_client(floor).post(api_url(tournament, f"moves/{pending.number}/confirm/"), {}, format="json")
    answer = api_client(floor).post(api_url(tournament, "moves/balance/"), {}, format="json").json()
    assert answer["moves"] == [] and answer["message"] is None  # balanced: nothing waits


def test_a_bad_move_number_gives_the_services_error(slip, floor, tournament):
    answer = api_client(floor).post(api_url(tournament, "moves/999/confirm/"), {}, format="json")
    assert answer.status_code == 404 and answer.json() == {
        "error": "no_move",
        "detail": "There is no move slip 999.",
        "problems": ["There is no move slip 999."],
    }
    api_client(floor).post(api_url(tournament, f"moves/{slip.number}/confirm/"), {}, format="json")
    seq = AuditEvent.objects.filter(tournament=tournament).count()
    again = api_client(floor).post(api_url(tournament, f"moves/{slip.number}/cancel/"), {}, format="json")
    assert again.status_code == 409 and again.json()["error"] == "move_closed" and again.json()["detail"]
    assert AuditEvent.objects.filter(tournament=tournament).count() == seq


@pytest.mark.parametrize("who", ["cashier", "dealer"])
def test_a_cashier_and_a_dealer_may_not_confirm_cancel_balance_or_enter_a_button(request, slip, tournament, who):
    c = api_client(request.getfixturevalue(who))
    seq = AuditEvent.objects.filter(tournament=tournament).count()
    for rest, body in (
        (f"moves/{slip.number}/confirm/", {}),
        (f"moves/{slip.number}/cancel/", {}),
        ("moves/balance/", {}),
        (f"tables/{slip.from_table.number}/positions/", {"button": 1}),
    ):
        response = c.post(api_url(tournament, rest), body, format="json")
        assert response.status_code == 403 and response.json()["error"] == "permission_denied"
    slip.refresh_from_db()
    assert slip.status == Move.Status.PENDING
    assert AuditEvent.objects.filter(tournament=tournament).count() == seq


def test_the_floor_enters_the_button_the_rules_ask_for(director, cashier, floor, tournament):
    open_tables(director, tournament, [1, 2, 3])
    register(cashier, tournament, 20)
    draws.draw_start(tournament, actor=director)  # no button draws: the software knows no positions
    counts = {t: len(s) for t, s in seated(tournament).items()}
    bust_at(floor, tournament, min(counts, key=lambda t: (counts[t], t)))
    c = api_client(floor)
    (number, *_rest) = logged_in(floor).get(f"/api/tournaments/{tournament.pk}/map/").json()["moves"]["need_button"]
    # A seat nobody sits at is refused with the service's message, in the API's one shape.
    table = Table.objects.get(tournament=tournament, number=number)
    empty = next(s for s in range(1, table.seats + 1) if s not in seated(tournament)[number])
    bad = c.post(api_url(tournament, f"tables/{number}/positions/"), {"button": empty}, format="json")
    assert bad.status_code == 400 and bad.json()["error"] == "bad_seat"
    assert "The button goes to an occupied seat" in bad.json()["detail"]
    table.refresh_from_db()
    assert table.needs_button and table.button_seat is None
    seat = min(seated(tournament)[number])
    answer = c.post(api_url(tournament, f"tables/{number}/positions/"), {"button": seat}, format="json")
    assert answer.status_code == 200 and answer.json()["table"] == number and answer.json()["positions"]["button"] == seat
    table.refresh_from_db()
    assert table.button_seat == seat and not table.needs_button
    assert number not in logged_in(floor).get(f"/api/tournaments/{tournament.pk}/map/").json()["moves"]["need_button"]
    assert Seat.objects.filter(tournament=tournament, ended_at__isnull=True).count() == 19


def test_the_movers_seat_page_shows_the_slip_until_it_is_confirmed(slip, floor, tournament):
    from django.test import Client

    public = Client()
    seat = public.get(f"/api/public/tournaments/{tournament.pk}/seats/{slip.entry.number}/").json()
    assert seat["table"] == slip.from_table.number and seat["seat"] == slip.from_seat
    assert seat["move"]["table"] == slip.to_table.number and seat["move"]["seat"] == slip.to_seat
    assert seat["move"]["position"] == slip.position
    api = public.get(f"/api/public/tournaments/{tournament.pk}/seats/{slip.entry.number}/").json()
    assert api["move"] == seat["move"]
    page = public.get(f"/s/{tournament.pk}/{slip.entry.number}/").content.decode()
    assert 'id="go"' in page and 'gettext("Move to table {table} seat {seat}")' in (STATIC_JS / "seat-page.js").read_text()
    assert api_client(floor).post(api_url(tournament, f"moves/{slip.number}/confirm/"), {}, format="json").status_code == 200
    seat = public.get(f"/api/public/tournaments/{tournament.pk}/seats/{slip.entry.number}/").json()
    assert seat["move"] is None and (seat["table"], seat["seat"]) == (slip.to_table.number, slip.to_seat)
