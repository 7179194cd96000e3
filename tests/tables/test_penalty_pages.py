"""The floor's penalties page (TDA 51): give rounds through the JSON API the page's forms use and see the
hands left on the page, refusals that record nothing (400 with the field's or the service's message),
cancel, the name looked up by the page (?who=), the roles that may not open it, and the Czech page. The page
itself takes no post (one write path)."""

from __future__ import annotations

import pytest

from tables.models import Penalty, Seat
from tables.services import busts, draws, hands, penalties
from tests.helpers import client_for as api_for
from tests.helpers import live_seat, logged_in, open_tables, register
from tests.tables.test_penalty_names import register_named


@pytest.fixture
def seated(director, cashier, tournament):
    """Two tables of six: every entry seated."""
    open_tables(director, tournament, [1, 2])
    entries = register(cashier, tournament, 12)
    draws.draw_start(tournament, actor=director)
    return entries


def url(t) -> str:
    return f"/t/{t.pk}/penalties/"


def api(t, rest: str = "") -> str:
    return f"/api/tournaments/{t.pk}/penalties/{rest}"


def post(user, t, body: dict, rest: str = ""):
    """What the page's script sends (static/js/penalties.js): JSON to the penalties API."""
    return api_for(user).post(api(t, rest), body, format="json")


def test_the_floor_gives_rounds_and_sees_the_hands_left(tournament, seated, floor):
    entry = seated[0]
    seat = live_seat(entry)
    players = Seat.objects.filter(table=seat.table, ended_at__isnull=True).count()
    client = logged_in(floor)
    page = client.get(url(tournament)).content.decode()
    assert 'id="give-form"' in page and "Nobody sits out a penalty." in page
    assert "one hand for every player at the table now, the offender included, per round" in page
    assert f'data-give="tournaments/{tournament.pk}/penalties/"' in page
    assert 'data-says="penalty-give"' in page  # what is said once the API has given it: static/js/form-words.js
    answer = post(floor, tournament, {"entry": entry.number, "kind": "rounds", "rounds": 2, "reason": "Abusive language"})
    assert answer.status_code == 201, answer.content
    penalty = Penalty.objects.get(tournament=tournament)
    assert (penalty.kind, penalty.rounds, penalty.hands, penalty.given_by) == ("rounds", 2, 2 * players, floor)
    assert answer.json()["hands"] == 2 * players and answer.json()["name"] == entry.player.display_name
    page = client.get(url(tournament)).content.decode()
    assert f"{2 * players} of {2 * players} hands left" in page and entry.player.display_name in page
    assert 'data-status="serving"' in page and f"Seat {seat.seat}" in page and "Abusive language" in page
    hands.start_hand(seat.table, actor=floor)
    page = client.get(url(tournament)).content.decode()
    assert f"{2 * players - 1} of {2 * players} hands left" in page
    # A warning to another player, and the link from the floor's pages.
    assert post(floor, tournament, {"entry": seated[1].number, "kind": "warning", "reason": "Slow play"}).status_code == 201
    warning = Penalty.objects.get(tournament=tournament, number=2)
    assert warning.kind == "warning" and warning.rounds is None and warning.hands == 0
    page = client.get(url(tournament)).content.decode()
    assert page.index('data-status="serving"') < page.index('data-status="warning"')
    assert f'href="{url(tournament)}"' in client.get(f"/t/{tournament.pk}/").content.decode()


@pytest.mark.parametrize(
    ("data", "field", "message"),
    [
        ({"kind": "hand", "reason": ""}, "reason", "Say why: the reason is written on the penalty."),
        ({"kind": "hand", "reason": "   "}, "reason", "Say why: the reason is written on the penalty."),
        ({"kind": "hand", "reason": "x" * 201}, "reason", "The reason is too long: at most 200 characters."),
        ({"kind": "rounds", "reason": "Exposed a card"}, "rounds", "Say how many rounds: one to four."),
        ({"kind": "rounds", "rounds": 5, "reason": "Exposed a card"}, "rounds", "Ensure this value is less than or equal to 4."),
        ({"kind": "", "reason": "Exposed a card"}, "kind", "Choose the penalty: a warning, one hand, rounds, or a disqualification."),
    ],
)
def test_bad_input_is_a_400_with_the_fields_message_and_records_nothing(tournament, seated, floor, data, field, message):
    answer = post(floor, tournament, {"entry": seated[0].number, **data})
    assert answer.status_code == 400, answer.content
    assert answer.json()["error"] == "invalid" and message in answer.json()["fields"][field], answer.json()
    assert not Penalty.objects.exists()


@pytest.mark.parametrize(
    ("data", "status", "message"),
    [
        ({"entry": 999}, 404, "There is no entry #999 in this tournament."),
        ({}, 400, "Say who gets the penalty: the entry number, or the table and the seat (not both)."),
        ({"table": 1}, 400, "Say who gets the penalty: the entry number, or the table and the seat (not both)."),
    ],
)
def test_who_is_refused_by_the_service_and_nothing_is_recorded(tournament, seated, floor, data, status, message):
    answer = post(floor, tournament, {"kind": "hand", "reason": "Exposed a card", **data})
    assert answer.status_code == status and answer.json()["detail"] == message, answer.content
    assert not Penalty.objects.exists()


def test_the_page_takes_no_post(tournament, seated, floor):
    answer = logged_in(floor).post(
        url(tournament), {"action": "give", "who": str(seated[0].number), "kind": "hand", "reason": "Exposed a card"}
    )
    assert answer.status_code == 405 and not Penalty.objects.exists()


def test_a_player_out_of_play_gets_no_penalty(tournament, seated, director, floor):
    busts.bust_entry(seated[4], actor=director)
    answer = post(floor, tournament, {"entry": seated[4].number, "kind": "hand", "reason": "Exposed a card"})
    assert answer.status_code == 409 and answer.json()["error"] == "not_seated"
    assert f"Entry #{seated[4].number} has no seat in play" in answer.json()["detail"] and not Penalty.objects.exists()


def test_the_floor_cancels_a_penalty_with_a_reason(tournament, seated, floor):
    penalties.give_penalty(tournament, actor=floor, entry_number=seated[2].number, kind="rounds", rounds=1, reason="Phone at the table")
    client = logged_in(floor)
    page = client.get(url(tournament)).content.decode()
    assert f'data-api="tournaments/{tournament.pk}/penalties/1/cancel/"' in page
    assert 'data-says="penalty-cancel"' in page
    # No reason: a 400 at the field, nothing cancelled.
    answer = post(floor, tournament, {"reason": ""}, "1/cancel/")
    assert answer.status_code == 400 and answer.json()["fields"]["reason"] == ["Say why: the reason is written on the penalty."]
    assert Penalty.objects.get().cancelled_at is None
    answer = post(floor, tournament, {"reason": "Wrong player"}, "1/cancel/")
    assert answer.status_code == 200 and answer.json()["status"] == "cancelled"
    penalty = Penalty.objects.get()
    assert penalty.cancelled_at is not None and penalty.cancel_reason == "Wrong player" and penalty.cancelled_by == floor
    page = client.get(url(tournament)).content.decode()
    assert 'data-status="cancelled"' in page and "Wrong player" in page
    assert "penalties/1/cancel/" not in page and "Nobody sits out a penalty." in page
    # Twice: refused, with the service's word.
    answer = post(floor, tournament, {"reason": "Again"}, "1/cancel/")
    assert answer.status_code == 409 and answer.json()["detail"] == "Penalty #1 is already cancelled."
    answer = post(floor, tournament, {"reason": "Wrong"}, "7/cancel/")
    assert answer.status_code == 404 and answer.json()["detail"] == "There is no penalty #7."


def test_a_cashier_and_a_dealer_may_not_open_or_post(tournament, seated, cashier, dealer):
    for user in (cashier, dealer):
        client = logged_in(user)
        assert client.get(url(tournament)).status_code == 403
        assert post(user, tournament, {"entry": seated[0].number, "kind": "hand", "reason": "x"}).status_code == 403
    assert not Penalty.objects.exists()
    assert logged_in(None).get(url(tournament)).status_code == 302  # to the login


def test_the_director_may_give_a_penalty(tournament, seated, director):
    answer = post(director, tournament, {"entry": seated[3].number, "kind": "hand", "reason": "Exposed a card"})
    assert answer.status_code == 201 and Penalty.objects.get().hands == 1


def test_the_czech_page_renders(tournament, seated, floor):
    penalties.give_penalty(tournament, actor=floor, entry_number=seated[0].number, kind="rounds", rounds=1, reason="Sprostá slova")
    penalties.give_penalty(tournament, actor=floor, entry_number=seated[1].number, kind="warning", rounds=None, reason="Pomalá hra")
    cancelled = penalties.give_penalty(
        tournament, actor=floor, entry_number=seated[2].number, kind="hand", rounds=None, reason="Ukázaná karta"
    )
    penalties.cancel_penalty(tournament, actor=floor, number=cancelled.number, reason="Omyl")
    answer = logged_in(floor).get(url(tournament), HTTP_ACCEPT_LANGUAGE="cs")
    assert answer.status_code == 200
    page = answer.content.decode()
    assert '<html lang="cs">' in page and "Sprostá slova" in page and "Omyl" in page


# --- who: a name, an entry number, or the table and the seat --------------------------------------------


@pytest.fixture
def named(director, cashier, tournament):
    """Two tables: Jan and Petr Novák, Ondřej Horváth, and nine others; all seated."""
    open_tables(director, tournament, [1, 2])
    entries = register_named(cashier, tournament, [("Jan", "Novák"), ("Petr", "Novák"), ("Ondřej", "Horváth")])
    register(cashier, tournament, 9)
    draws.draw_start(tournament, actor=director)
    return entries


def look_up(client, t, name: str) -> str:
    """The page the script reads to find who a name stands for (static/js/penalties.js)."""
    answer = client.get(url(t), {"who": name})
    assert answer.status_code == 200
    return answer.content.decode()


def test_a_name_that_one_player_in_play_has_is_found(tournament, named, floor):
    horvath = named[2]
    seat = live_seat(horvath)
    page = look_up(logged_in(floor), tournament, "  horvath ")  # no accent, any case: the name as typed
    assert "“horvath” matches 1 player in play" in page
    assert f'name="entry" value="{horvath.number}"' in page and page.count('name="entry"') == 1
    answer = post(floor, tournament, {"entry": horvath.number, "kind": "hand", "reason": "Exposed a card"})
    assert answer.status_code == 201
    penalty = Penalty.objects.get()
    assert (penalty.entry, penalty.table_number, penalty.seat) == (horvath, seat.table.number, seat.seat)
    assert 'data-says="penalty-give"' in page
    assert (answer.json()["name"], answer.json()["table"], answer.json()["seat"]) == ("Ondřej Horváth", seat.table.number, seat.seat)


def test_an_ambiguous_name_lists_the_players_with_table_and_seat(tournament, named, floor):
    jan, petr = named[:2]
    page = look_up(logged_in(floor), tournament, "Novak")
    assert "“Novak” matches 2 players in play: choose one, then give the penalty." in page
    assert 'data-name="Novak"' in page
    for entry in (jan, petr):
        seat = live_seat(entry)
        assert f'name="entry" value="{entry.number}"' in page
        assert f"table {seat.table.number}, seat {seat.seat} · entry #{entry.number}" in page
        assert entry.player.display_name in page
    assert not Penalty.objects.exists()  # never a guess
    answer = post(floor, tournament, {"entry": petr.number, "kind": "rounds", "rounds": 1, "reason": "Exposed a card"})
    assert answer.status_code == 201
    penalty = Penalty.objects.get()
    assert (penalty.entry, penalty.kind, penalty.table_number) == (petr, "rounds", live_seat(petr).table.number)


def test_the_floor_names_the_table_and_the_seat(tournament, named, floor):
    jan = named[0]
    seat = live_seat(jan)
    answer = post(floor, tournament, {"table": seat.table.number, "seat": seat.seat, "kind": "hand", "reason": "Exposed a card"})
    assert answer.status_code == 201
    assert Penalty.objects.get().entry == jan
    empty = next(n for n in range(1, 10) if not Seat.objects.filter(table=seat.table, seat=n, ended_at__isnull=True).exists())
    answer = post(floor, tournament, {"table": seat.table.number, "seat": empty, "kind": "hand", "reason": "Exposed a card"})
    assert answer.status_code == 409 and answer.json()["detail"] == f"Nobody sits at table {seat.table.number} seat {empty}."
    assert Penalty.objects.count() == 1


def test_a_name_nobody_has_says_so_at_the_field(tournament, named, floor):
    page = look_up(logged_in(floor), tournament, "Smith")
    assert 'id="who-nobody"' in page and "Nobody in play here is named “Smith”" in page and 'name="entry"' not in page
    answer = post(floor, tournament, {"entry": named[0].number, "table": 1, "seat": 2, "kind": "hand", "reason": "x"})
    assert answer.status_code == 400 and "not both" in answer.json()["detail"]
    assert not Penalty.objects.exists()
