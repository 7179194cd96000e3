"""The floor's penalties page (TDA 51): give rounds and see the hands left, refusals that record nothing
(with the service's or the form's message), cancel, the roles that may not open it, and the Czech page."""
from __future__ import annotations

import pytest

from tables import busts, draws, hands, penalties
from tables.models import Penalty, Seat
from tests.tables.test_penalty_names import register_named
from tests.tables.test_seating_services import open_tables, register
from tests.tables.test_views import client_for


@pytest.fixture
def seated(director, cashier, tournament):
    """Two tables of six: every entry seated."""
    open_tables(director, tournament, [1, 2])
    entries = register(cashier, tournament, 12)
    draws.draw_start(director, tournament)
    return entries


def url(t) -> str:
    return f"/t/{t.pk}/penalties/"


def seat_of(entry) -> Seat:
    return Seat.objects.select_related("table").get(entry=entry, ended_at__isnull=True)


def test_the_floor_gives_rounds_and_sees_the_hands_left(tournament, seated, floor):
    entry = seated[0]
    seat = seat_of(entry)
    players = Seat.objects.filter(table=seat.table, ended_at__isnull=True).count()
    client = client_for(floor)
    page = client.get(url(tournament)).content.decode()
    assert 'id="give-form"' in page and "Nobody sits out a penalty." in page
    assert "one hand for every player at the table now, the offender included, per round" in page
    answer = client.post(url(tournament), {"action": "give", "who": f"#{entry.number}", "kind": "rounds",
                                           "rounds": "2", "reason": "Abusive language"})
    assert answer.status_code == 302 and answer["Location"] == url(tournament)
    penalty = Penalty.objects.get(tournament=tournament)
    assert (penalty.kind, penalty.rounds, penalty.hands, penalty.given_by) == ("rounds", 2, 2 * players, floor)
    page = client.get(url(tournament)).content.decode()
    assert f"sits out {2 * players} hands" in page  # the message after the redirect
    assert f"{2 * players} of {2 * players} hands left" in page and entry.player.display_name in page
    assert 'data-status="serving"' in page and f"Seat {seat.seat}" in page and "Abusive language" in page
    hands.start_hand(floor, seat.table)
    page = client.get(url(tournament)).content.decode()
    assert f"{2 * players - 1} of {2 * players} hands left" in page
    # A warning to another player, and the link from the floor's pages.
    assert client.post(url(tournament), {"action": "give", "who": str(seated[1].number), "kind": "warning",
                                         "rounds": "3", "reason": "Slow play"}).status_code == 302
    warning = Penalty.objects.get(tournament=tournament, number=2)
    assert warning.kind == "warning" and warning.rounds is None and warning.hands == 0
    page = client.get(url(tournament)).content.decode()
    assert page.index('data-status="serving"') < page.index('data-status="warning"')
    assert f'href="{url(tournament)}"' in client.get(f"/t/{tournament.pk}/").content.decode()


@pytest.mark.parametrize(("data", "message"), [
    ({"kind": "hand", "reason": ""}, "Say why: the reason is written on the penalty."),
    ({"kind": "hand", "reason": "   "}, "Say why: the reason is written on the penalty."),
    ({"kind": "hand", "reason": "x" * 201}, "The reason is too long: at most 200 characters."),
    ({"kind": "hand", "who": "999", "reason": "Exposed a card"}, "There is no entry #999 in this tournament."),
    ({"kind": "hand", "who": "twelve", "reason": "Exposed a card"}, "Nobody in play here is named “twelve”"),
    ({"kind": "hand", "who": "", "reason": "Exposed a card"}, "Say who: a name, an entry number, or a table and a seat."),
    ({"kind": "rounds", "reason": "Exposed a card"}, "Choose how many rounds: 1 to 4."),
    ({"kind": "rounds", "rounds": "5", "reason": "Exposed a card"}, "Select a valid choice."),
    ({"kind": "", "reason": "Exposed a card"}, "This field is required."),
])
def test_bad_input_shows_the_message_and_records_nothing(tournament, seated, floor, data, message):
    post = {"action": "give", "who": str(seated[0].number), **data}
    answer = client_for(floor).post(url(tournament), post)
    assert answer.status_code == 200
    page = answer.content.decode()
    assert message in page, page
    assert not Penalty.objects.exists()
    if data.get("reason", "").strip():
        assert f'value="{data["reason"]}"' in page  # what was typed stays in the form


def test_a_player_out_of_play_gets_no_penalty(tournament, seated, director, floor):
    busts.bust_entry(director, seated[4])
    page = client_for(floor).post(url(tournament), {"action": "give", "who": str(seated[4].number), "kind": "hand",
                                                    "reason": "Exposed a card"}).content.decode()
    assert f"Entry #{seated[4].number} has no seat in play" in page and not Penalty.objects.exists()


def test_the_floor_cancels_a_penalty_with_a_reason(tournament, seated, floor):
    penalties.give_penalty(floor, tournament, seated[2].number, "rounds", 1, "Phone at the table")
    client = client_for(floor)
    page = client.get(url(tournament)).content.decode()
    assert 'name="cancel-number" value="1"' in page
    # No reason: the service's message, the cancel form kept open, nothing cancelled.
    page = client.post(url(tournament), {"action": "cancel", "cancel-number": "1", "cancel-reason": ""}).content.decode()
    assert "Say why: the reason is written on the penalty." in page and "<details class=\"pn-cancel\" open>" in page
    assert Penalty.objects.get().cancelled_at is None
    answer = client.post(url(tournament), {"action": "cancel", "cancel-number": "1",
                                           "cancel-reason": "Wrong player"})
    assert answer.status_code == 302
    penalty = Penalty.objects.get()
    assert penalty.cancelled_at is not None and penalty.cancel_reason == "Wrong player" and penalty.cancelled_by == floor
    page = client.get(url(tournament)).content.decode()
    assert "Penalty #1 is cancelled." in page and 'data-status="cancelled"' in page and "Wrong player" in page
    assert 'name="cancel-number" value="1"' not in page and "Nobody sits out a penalty." in page
    # Twice: refused, with the service's word.
    page = client.post(url(tournament), {"action": "cancel", "cancel-number": "1",
                                         "cancel-reason": "Again"}).content.decode()
    assert "Penalty #1 is already cancelled." in page
    page = client.post(url(tournament), {"action": "cancel", "cancel-number": "7",
                                         "cancel-reason": "Wrong"}).content.decode()
    assert "There is no penalty #7." in page


def test_a_cashier_and_a_dealer_may_not_open_or_post(tournament, seated, cashier, dealer):
    for user in (cashier, dealer):
        client = client_for(user)
        assert client.get(url(tournament)).status_code == 403
        assert client.post(url(tournament), {"action": "give", "who": str(seated[0].number), "kind": "hand",
                                             "reason": "x"}).status_code == 403
    assert not Penalty.objects.exists()
    assert client_for(None).get(url(tournament)).status_code == 302  # to the login


def test_the_director_may_give_a_penalty(tournament, seated, director):
    answer = client_for(director).post(url(tournament), {"action": "give", "who": str(seated[3].number),
                                                         "kind": "hand", "reason": "Exposed a card"})
    assert answer.status_code == 302 and Penalty.objects.get().hands == 1


def test_the_czech_page_renders(tournament, seated, floor):
    penalties.give_penalty(floor, tournament, seated[0].number, "rounds", 1, "Sprostá slova")
    penalties.give_penalty(floor, tournament, seated[1].number, "warning", None, "Pomalá hra")
    cancelled = penalties.give_penalty(floor, tournament, seated[2].number, "hand", None, "Ukázaná karta")
    penalties.cancel_penalty(floor, tournament, cancelled.number, "Omyl")
    answer = client_for(floor).get(url(tournament), HTTP_ACCEPT_LANGUAGE="cs")
    assert answer.status_code == 200
    page = answer.content.decode()
    assert '<html lang="cs">' in page and "Sprostá slova" in page and "Omyl" in page


# --- who: a name, an entry number, or the table and the seat (issue 22, finding 9) ----------------------

@pytest.fixture
def named(director, cashier, tournament):
    """Two tables: Jan and Petr Novák, Ondřej Horváth, and nine others; all seated."""
    open_tables(director, tournament, [1, 2])
    entries = register_named(cashier, tournament, [("Jan", "Novák"), ("Petr", "Novák"), ("Ondřej", "Horváth")])
    register(cashier, tournament, 9)
    draws.draw_start(director, tournament)
    return entries


def give(client, t, **fields):
    return client.post(url(t), {"action": "give", "kind": "hand", "reason": "Exposed a card", **fields})


def test_a_name_that_one_player_in_play_has_gets_the_penalty(tournament, named, floor):
    horvath = named[2]
    seat = seat_of(horvath)
    client = client_for(floor)
    answer = give(client, tournament, who="  horvath ")  # no accent, any case: the name as typed
    assert answer.status_code == 302, answer.content.decode()
    penalty = Penalty.objects.get()
    assert (penalty.entry, penalty.table_number, penalty.seat) == (horvath, seat.table.number, seat.seat)
    page = client.get(url(tournament)).content.decode()
    assert f"Ondřej Horváth (entry #{horvath.number}, table {seat.table.number} seat {seat.seat})" in page


def test_an_ambiguous_name_lists_the_players_with_table_and_seat_and_gives_nothing_until_one_is_chosen(tournament, named,
                                                                                                     floor):
    jan, petr = named[:2]
    client = client_for(floor)
    answer = give(client, tournament, who="Novak", kind="rounds", rounds="1")
    assert answer.status_code == 200 and not Penalty.objects.exists()  # never a guess
    page = answer.content.decode()
    assert "“Novak” matches 2 players in play: choose one, then give the penalty." in page
    for entry in (jan, petr):
        seat = seat_of(entry)
        assert f'name="entry" value="{entry.number}"' in page
        assert f"table {seat.table.number}, seat {seat.seat} · entry #{entry.number}" in page
        assert entry.player.display_name in page
    assert 'value="Exposed a card"' in page and 'value="Novak"' in page  # what was typed stays
    # A choice that is not among the players the name matches lists them again.
    assert give(client, tournament, who="Novak", entry=named[2].number, kind="rounds", rounds="1").status_code == 200
    assert not Penalty.objects.exists()
    answer = give(client, tournament, who="Novak", entry=petr.number, kind="rounds", rounds="1")
    assert answer.status_code == 302
    penalty = Penalty.objects.get()
    assert (penalty.entry, penalty.kind, penalty.table_number) == (petr, "rounds", seat_of(petr).table.number)


def test_the_floor_names_the_table_and_the_seat(tournament, named, floor):
    jan = named[0]
    seat = seat_of(jan)
    answer = give(client_for(floor), tournament, table=str(seat.table.number), seat=str(seat.seat))
    assert answer.status_code == 302
    assert Penalty.objects.get().entry == jan
    empty = next(n for n in range(1, 10) if not Seat.objects.filter(table=seat.table, seat=n, ended_at__isnull=True).exists())
    page = give(client_for(floor), tournament, table=str(seat.table.number), seat=str(empty)).content.decode()
    assert f"Nobody sits at table {seat.table.number} seat {empty}." in page and Penalty.objects.count() == 1


@pytest.mark.parametrize(("fields", "message"), [
    ({"who": "Smith"}, "Nobody in play here is named “Smith”"),
    ({"who": "Novák", "table": "1", "seat": "2"}, "Say who one way: a name or an entry number, or a table and a seat."),
    ({"table": "1"}, "Give both the table and the seat."),
    ({"seat": "3"}, "Give both the table and the seat."),
])
def test_who_is_refused_when_nobody_or_two_ways(tournament, named, floor, fields, message):
    page = give(client_for(floor), tournament, **fields).content.decode()
    assert message in page, page
    assert not Penalty.objects.exists()
