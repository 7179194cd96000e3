"""Per-table level in play (club 26, TDA 20): a new level applies from each table's next first
shuffle. Services, the dealer-tablet API and the shuffler API with its per-table token."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from clock.models import ClockState
from clock.services import clock
from core.errors import ServiceError
from tables.models import HandStart, Table
from tables.selectors import screens
from tables.services import hands
from tables.services import setup as table_setup
from tests.helpers import client_for as api
from tests.tables.test_dealer_links import dealer_tablet
from tournament.models import AuditEvent, Tournament

SHUFFLER_URL = "/api/shuffler/hand-started/"


def hand_url(t: Tournament, number: int) -> str:
    return f"/api/tournaments/{t.pk}/tables/{number}/hand/"


def overview(t: Tournament) -> dict[int, dict]:
    return {row["table"]: row for row in screens.tables_overview(t)}


def table_state(t: Tournament) -> tuple:
    """What a refused hand signal must leave alone."""
    return (
        list(
            Table.objects.filter(tournament=t)
            .order_by("number")
            .values_list("number", "hand_number", "hand_started_at", "hand_level_index")
        ),
        list(HandStart.objects.filter(table__tournament=t).values_list("pk", "undone_at")),
        Tournament.objects.get(pk=t.pk).event_seq,
    )


@pytest.fixture
def opened(director, tournament):
    """Tables 1 and 2 report their hands; table 3 does not. Returns the tables and their shuffler tokens."""
    tables, tokens = {}, {}
    for number, signals in ((1, True), (2, True), (3, False)):
        tables[number], tokens[number] = table_setup.open_table(tournament, actor=director, number=number, sends_hand_signals=signals)
    return tables, tokens


# --- the rule --------------------------------------------------------------------------------


def test_a_table_that_shuffled_before_the_level_change_plays_the_old_level(director, dealer, tournament, opened, fake_now):
    tables, _tokens = opened
    clock.start_clock(tournament, actor=director)
    fake_now.at(1190)
    early = hands.start_hand(tables[1], actor=dealer)  # ten seconds before level 2
    assert (early.number, early.level_index, early.at, early.source, early.actor) == (1, 0, fake_now.offset(1190), "tablet", dealer)
    assert clock.tick(fake_now.at(1200)) == 1  # level 2 announced
    fake_now.at(1210)
    late = hands.start_hand(tables[2], actor=dealer)  # ten seconds after
    assert late.level_index == 1

    rows = overview(tournament)
    assert (rows[1]["level"], rows[1]["on_old_level"], rows[1]["hand"]) == (1, True, 1)
    assert (rows[2]["level"], rows[2]["on_old_level"], rows[2]["hand"]) == (2, False, 1)
    assert (rows[3]["level"], rows[3]["on_old_level"], rows[3]["hand"]) == (2, False, 0)  # no signal: follows the clock

    # table 1's next hand is at level 2: nobody is on the old level any more
    fake_now.at(1300)
    second = hands.start_hand(tables[1], actor=dealer)
    assert (second.number, second.level_index, second.previous_level_index) == (2, 1, 0)
    assert not any(row["on_old_level"] for row in screens.tables_overview(tournament))
    event = AuditEvent.objects.filter(tournament=tournament, type="table.hand_started").order_by("-seq").first()
    assert (event.payload["table"], event.payload["hand"], event.payload["level"], event.payload["level_changed"]) == (1, 2, 2, True)


def test_the_clock_time_decides_even_before_the_tick_has_announced(director, floor, tournament, opened, fake_now):
    tables, _tokens = opened
    clock.start_clock(tournament, actor=director)
    fake_now.at(1200.2)  # the level ran out; the worker has not ticked yet
    hand = hands.start_hand(tables[1], actor=floor)
    assert (hand.level_index, hand.source) == (1, "floor")


def test_a_table_that_has_not_shuffled_yet_follows_the_clock(director, tournament, opened, fake_now):
    clock.start_clock(tournament, actor=director)
    fake_now.at(1500)
    rows = overview(tournament)
    assert [(rows[n]["level"], rows[n]["on_old_level"]) for n in (1, 2, 3)] == [(2, False)] * 3


def test_a_hand_started_during_the_break_plays_the_level_after_it(director, dealer, tournament, opened, fake_now):
    tables, _tokens = opened
    clock.start_clock(tournament, actor=director)
    fake_now.at(2500)
    assert hands.start_hand(tables[1], actor=dealer).level_index == 3
    assert overview(tournament)[1]["level"] == 3


def test_before_the_clock_starts_hands_play_the_tournament_level(director, dealer, tournament, opened, fake_now):
    tables, _tokens = opened
    assert hands.start_hand(tables[1], actor=dealer).level_index == 0
    clock.jump_to_level(tournament, actor=director, level=2)  # set before the start: paused at level 2
    assert hands.start_hand(tables[2], actor=dealer).level_index == 1


def test_a_table_without_signals_ignores_a_stray_press(director, dealer, tournament, opened, fake_now):
    tables, _tokens = opened
    clock.start_clock(tournament, actor=director)
    fake_now.at(1000)
    hands.start_hand(tables[3], actor=dealer)
    fake_now.at(1300)
    assert overview(tournament)[3]["level"] == 2  # still follows the clock


# --- undo ------------------------------------------------------------------------------------


def test_undo_of_a_mistaken_press_restores_the_previous_hand_and_level(director, dealer, tournament, opened, fake_now):
    tables, _tokens = opened
    clock.start_clock(tournament, actor=director)
    fake_now.at(1190)
    hands.start_hand(tables[1], actor=dealer)
    fake_now.at(1210)
    mistaken = hands.start_hand(tables[1], actor=dealer)
    assert overview(tournament)[1]["level"] == 2

    undone = hands.undo_hand_start(tables[1], actor=dealer)
    assert undone.pk == mistaken.pk
    table = Table.objects.get(pk=tables[1].pk)
    assert (table.hand_number, table.hand_started_at, table.hand_level_index) == (1, fake_now.offset(1190), 0)
    row = overview(tournament)[1]
    assert (row["hand"], row["level"], row["on_old_level"]) == (1, 1, True)
    mistaken.refresh_from_db()
    assert mistaken.undone_at == fake_now.offset(1210)  # kept, marked undone: never deleted
    assert HandStart.objects.filter(table=tables[1]).count() == 2
    event = AuditEvent.objects.filter(tournament=tournament).order_by("-seq").first()
    assert (event.type, event.payload, event.actor) == ("table.hand_start_undone", {"table": 1, "hand": 2}, dealer)

    # the real next hand
    fake_now.at(1300)
    nxt = hands.start_hand(tables[1], actor=dealer)
    assert (nxt.number, nxt.level_index, nxt.previous_level_index) == (3, 1, 0)
    assert Table.objects.get(pk=tables[1].pk).hand_number == 3


def test_undo_all_the_way_back_follows_the_clock_and_then_refuses(director, dealer, tournament, opened, fake_now):
    tables, _tokens = opened
    clock.start_clock(tournament, actor=director)
    fake_now.at(100)
    hands.start_hand(tables[1], actor=dealer)
    hands.undo_hand_start(tables[1], actor=dealer)
    table = Table.objects.get(pk=tables[1].pk)
    assert (table.hand_number, table.hand_started_at, table.hand_level_index) == (0, None, None)
    before = table_state(tournament)
    with pytest.raises(ServiceError) as err:
        hands.undo_hand_start(tables[1], actor=dealer)
    assert err.value.code == "nothing_to_undo"
    assert table_state(tournament) == before


def test_a_cashier_cannot_start_or_undo_a_hand(dealer, cashier, director, tournament, opened, fake_now):
    tables, _tokens = opened
    hands.start_hand(tables[1], actor=dealer)
    before = table_state(tournament)
    for action in (hands.start_hand, hands.undo_hand_start):
        with pytest.raises(ServiceError) as err:
            action(tables[1], actor=cashier)
        assert err.value.code == "forbidden"
    assert table_state(tournament) == before


def test_a_closed_table_takes_no_hand(dealer, tournament, opened, fake_now):
    tables, _tokens = opened
    Table.objects.filter(pk=tables[2].pk).update(in_play=False)
    before = table_state(tournament)
    with pytest.raises(ServiceError) as err:
        hands.start_hand(Table.objects.get(pk=tables[2].pk), actor=dealer)
    assert err.value.code == "table_closed"
    assert table_state(tournament) == before


# --- opening tables ---------------------------------------------------------------------------


def test_opening_a_table_twice_is_refused(director, floor, tournament, opened):
    before = (Table.objects.count(), Tournament.objects.get(pk=tournament.pk).event_seq)
    with pytest.raises(ServiceError) as err:
        table_setup.open_table(tournament, actor=director, number=1)
    assert (err.value.code, err.value.status) == ("table_exists", 409)
    with pytest.raises(ServiceError) as err:
        table_setup.open_table(tournament, actor=floor, number=9)
    assert err.value.code == "forbidden"
    assert (Table.objects.count(), Tournament.objects.get(pk=tournament.pk).event_seq) == before


def test_open_table_through_the_api(director, floor, tournament):
    url = f"/api/tournaments/{tournament.pk}/tables/"
    first = api(director).post(url, {"number": 5, "seats": 8}, format="json")
    assert first.status_code == 201
    token = first.json()["shuffler_token"]
    assert len(token) >= 24 and Table.objects.get(number=5).shuffler_token_hash != token  # stored hashed
    again = api(director).post(url, {"number": 5}, format="json")
    assert (again.status_code, again.json()["error"]) == (409, "table_exists")
    assert api(floor).post(url, {"number": 6}, format="json").status_code == 403
    assert Table.objects.filter(tournament=tournament).count() == 1
    listed = api(floor).get(url)
    assert listed.status_code == 200 and [row["table"] for row in listed.json()] == [5]
    # the token works at once
    assert api().post(SHUFFLER_URL, HTTP_AUTHORIZATION=f"Table {token}").status_code == 201


def test_tokens_are_per_table_and_renewal_revokes_the_old_one(director, tournament, opened):
    tables, tokens = opened
    assert tokens[1] != tokens[2]
    assert hands.table_for_token(tokens[2]).pk == tables[2].pk
    fresh = table_setup.renew_shuffler_token(tables[1], actor=director)
    assert hands.table_for_token(tokens[1]) is None
    assert hands.table_for_token(fresh).pk == tables[1].pk
    assert hands.table_for_token("") is None


# --- the shuffler API -------------------------------------------------------------------------------


def test_the_shuffler_api_starts_a_hand_with_the_table_token(director, tournament, opened, fake_now):
    tables, tokens = opened
    clock.start_clock(tournament, actor=director)
    fake_now.at(1250)
    response = api().post(SHUFFLER_URL, HTTP_AUTHORIZATION=f"Table {tokens[2]}")
    assert response.status_code == 201
    assert response.json() == {"table": 2, "hand": 1, "level": 2}
    hand = HandStart.objects.get(table=tables[2])
    assert (hand.source, hand.actor, hand.at, hand.level_index) == ("shuffler", None, fake_now.offset(1250), 1)
    event = AuditEvent.objects.filter(tournament=tournament).order_by("-seq").first()
    assert (event.type, event.actor_label, event.payload["source"]) == ("table.hand_started", "shuffler:table 2", "shuffler")
    assert not HandStart.objects.filter(table=tables[1]).exists()


@pytest.mark.parametrize(
    "header",
    [
        "Table not-the-token",
        "Table ",
        "",
        "Bearer {token}",
        "Token {token}",
        "table {token}",
        "Table {token}x",
    ],
)
def test_the_shuffler_api_refuses_a_wrong_token_and_changes_nothing(director, tournament, opened, fake_now, header):
    _tables, tokens = opened
    clock.start_clock(tournament, actor=director)
    before = table_state(tournament)
    headers = {"HTTP_AUTHORIZATION": header.format(token=tokens[1])} if header else {}
    response = api().post(SHUFFLER_URL, **headers)
    if header:
        assert response.status_code == 403
        assert response.json()["error"] == "bad_token"
    else:  # no credentials at all: 401 with the challenge, as on every endpoint
        assert response.status_code == 401
        assert response["WWW-Authenticate"] == "Table"
    assert table_state(tournament) == before


def test_the_shuffler_api_refuses_a_renewed_or_closed_tables_token(director, tournament, opened, fake_now):
    tables, tokens = opened
    table_setup.renew_shuffler_token(tables[1], actor=director)
    Table.objects.filter(pk=tables[2].pk).update(in_play=False)
    before = table_state(tournament)
    for token in (tokens[1], tokens[2]):
        assert api().post(SHUFFLER_URL, HTTP_AUTHORIZATION=f"Table {token}").status_code == 403
    assert table_state(tournament) == before


def test_a_staff_login_is_not_a_shuffler_token(director, dealer, tournament, opened, fake_now):
    before = table_state(tournament)
    assert api(dealer).post(SHUFFLER_URL).status_code == 401  # a login carries no table token
    assert table_state(tournament) == before


# --- the dealer-tablet API ----------------------------------------------------------------------------


@pytest.mark.parametrize("role", ["dealer", "floor", "director"])
def test_the_dealer_tablet_api_starts_and_undoes_a_hand(request, director, tournament, opened, fake_now, role):
    tables, _tokens = opened
    user = request.getfixturevalue(role)
    tablet = dealer_tablet(user, tournament, 1)  # a Dealer login acts at the table its tablet opened
    clock.start_clock(tournament, actor=director)
    fake_now.at(1190)
    first = tablet.post(hand_url(tournament, 1))
    assert first.status_code == 201 and first.json() == {"table": 1, "hand": 1, "level": 1}
    fake_now.at(1210)
    second = tablet.post(hand_url(tournament, 1))
    assert second.status_code == 201 and second.json() == {"table": 1, "hand": 2, "level": 2}
    undo = tablet.delete(hand_url(tournament, 1))
    assert undo.status_code == 200 and undo.json() == {"table": 1, "hand": 2, "level": 2}  # the hand that was undone
    row = overview(tournament)[1]
    assert (row["hand"], row["level"], row["on_old_level"]) == (1, 1, True)
    assert HandStart.objects.get(table=tables[1], number=1).actor == user


def test_the_dealer_tablet_api_refuses_a_cashier_and_strangers(cashier, dealer, tournament, opened, fake_now):
    before = table_state(tournament)
    assert api(cashier).post(hand_url(tournament, 1)).status_code == 403
    assert api(cashier).delete(hand_url(tournament, 1)).status_code == 403
    assert api().post(hand_url(tournament, 1)).status_code == 401
    assert table_state(tournament) == before
    assert dealer_tablet(dealer, tournament, 1).post(hand_url(tournament, 42)).status_code == 404
    nothing = dealer_tablet(dealer, tournament, 1).delete(hand_url(tournament, 1))
    assert (nothing.status_code, nothing.json()["error"]) == (409, "nothing_to_undo")
    assert table_state(tournament) == before


def test_a_hand_answer_at_a_time_with_no_fake_clock(director, dealer, tournament, opened):
    """Real time: the clock anchor set back in the database instead of faking `now`."""
    tables, _tokens = opened
    clock.start_clock(tournament, actor=director)
    hands.start_hand(tables[1], actor=dealer)  # level 1, now
    ClockState.objects.filter(tournament=tournament).update(started_at=timezone.now() - timedelta(minutes=21))
    assert dealer_tablet(dealer, tournament, 2).post(hand_url(tournament, 2)).json()["level"] == 2
    rows = overview(tournament)
    assert (rows[1]["level"], rows[1]["on_old_level"], rows[2]["level"]) == (1, True, 2)


def test_the_dealer_tablet_presses_through_the_api_then_reads_its_state(director, dealer, tournament, opened, fake_now):
    """The tablet's "Shuffle / new hand" and undo are the API's POST and DELETE of tables/<n>/hand/;
    after each press it reads its state (the API's tables/<n>/state/), which shows the change."""
    clock.start_clock(tournament, actor=director)
    tablet = dealer_tablet(dealer, tournament, 1)
    state_url = f"/api/tournaments/{tournament.pk}/tables/1/state/"
    pressed = tablet.post(hand_url(tournament, 1), HTTP_IDEMPOTENCY_KEY="press-1")
    assert pressed.status_code == 201 and pressed.json()["hand"] == 1  # "Hand 1 started."
    state = tablet.get(state_url).json()["table"]
    assert (state["hand"], state["hand_level_index"], state["level"]) == (1, 0, 1)
    assert HandStart.objects.get(table__number=1).actor == dealer
    undone = tablet.delete(hand_url(tournament, 1), HTTP_IDEMPOTENCY_KEY="press-2")
    assert undone.status_code == 200 and undone.json()["hand"] == 1  # "Hand 1 is undone."
    assert tablet.get(state_url).json()["table"]["hand"] == 0
    before = table_state(tournament)
    refused = tablet.delete(hand_url(tournament, 1))
    assert refused.status_code == 409 and refused.json()["detail"] == "There is no hand start to undo at this table."
    assert table_state(tournament) == before


def test_no_new_hand_once_play_has_stopped_for_the_day_until_the_clock_runs_again(director, dealer, tournament, opened, fake_now):
    tables, tokens = opened
    clock.start_clock(tournament, actor=director)
    hands.start_hand(tables[1], actor=dealer)  # the hand in play when the day ends is finished, as TDA says
    clock.set_day_end(tournament, actor=director, level=1)
    clock.tick(fake_now.at(1200))
    assert ClockState.objects.get(tournament=tournament).day_ended_level == 1
    before = table_state(tournament)
    for press in (lambda: hands.start_hand(tables[2], actor=dealer), lambda: hands.start_hand_by_shuffler(tokens[1])):
        with pytest.raises(ServiceError) as refused:
            press()
        assert (refused.value.code, refused.value.status) == ("day_ended", 409)
        assert "Play has stopped for the day after level 1" in refused.value.message
    answer = api(director).post(hand_url(tournament, 2), {}, format="json")
    assert answer.status_code == 409 and "Play has stopped for the day" in answer.json()["detail"]
    assert table_state(tournament) == before  # nothing written, no event
    clock.resume_clock(tournament, actor=director)  # the next day's play: the tables deal again
    assert hands.start_hand(tables[2], actor=dealer).number == 1
