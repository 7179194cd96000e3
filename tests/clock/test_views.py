"""Screens of the clock and the tables: the role matrix, the director's buttons, opening a table,
and the dealer tablet's "Shuffle / new hand" button, through the views (the browser tests drive
the same views from real pages)."""
import pytest
from django.urls import reverse

from clock import services as clock_services
from clock.models import ClockState
from tables import hands
from tables import setup as table_setup
from tables.models import HandStart, Table, hash_token
from tournament.models import AuditEvent

ROLES = ["director", "floor", "cashier", "dealer"]

# page -> roles allowed (GET)
PAGES = {
    "director-clock": {"director"},
    "tables": {"director", "floor"},
    "dealer-choose": {"director", "floor", "dealer"},
    "dealer": {"director", "floor", "dealer"},
    "dealer-state": {"director", "floor", "dealer"},
}
POSTS = {
    "clock-action": {"director"},
    "table-open": {"director"},
    "hand-start": {"director", "floor", "dealer"},
    "hand-undo": {"director", "floor", "dealer"},
}


def url_for(name, tournament):
    if name in ("dealer", "dealer-state", "hand-start", "hand-undo"):
        return reverse(name, args=[tournament.pk, 1])
    return reverse(name, args=[tournament.pk])


@pytest.fixture
def table(director, tournament):
    table, _token = table_setup.open_table(director, tournament, 1)
    return table


def clock_of(tournament) -> ClockState:
    return ClockState.objects.get(tournament=tournament)


@pytest.mark.parametrize("role", ROLES)
def test_role_matrix_for_clock_and_table_pages(role, request, client, tournament, table):
    client.force_login(request.getfixturevalue(role))
    for name, allowed in PAGES.items():
        response = client.get(url_for(name, tournament))
        expected = 200 if role in allowed else 403
        assert response.status_code == expected, (role, name, response.status_code)


@pytest.mark.parametrize("role", ROLES)
def test_role_matrix_for_posts(role, request, client, tournament, table):
    """A wrong role gets 403 and changes nothing; a right one is let through to the service."""
    client.force_login(request.getfixturevalue(role))
    before = AuditEvent.objects.count()
    data = {"clock-action": {"action": "start"}, "table-open": {"number": 7}, "hand-start": {}, "hand-undo": {}}
    for name, allowed in POSTS.items():
        response = client.post(url_for(name, tournament), data[name], HTTP_ACCEPT="application/json")
        if role in allowed:
            assert response.status_code in (200, 201, 302, 409), (role, name, response.status_code)
        else:
            assert response.status_code == 403, (role, name, response.status_code)
    if role not in ("director", "floor", "dealer"):
        assert AuditEvent.objects.count() == before


def test_anonymous_is_sent_to_login(client, tournament, table):
    for name in list(PAGES) + list(POSTS):
        url = url_for(name, tournament)
        response = client.post(url) if name in POSTS else client.get(url)
        assert response.status_code == 302 and response["Location"].startswith(reverse("login")), name
    assert not ClockState.objects.filter(tournament=tournament, status=ClockState.Status.RUNNING).exists()
    assert not HandStart.objects.exists()


def test_get_is_refused_for_actions(client, director, tournament, table):
    client.force_login(director)
    assert client.get(url_for("clock-action", tournament)).status_code == 405
    assert client.get(url_for("hand-start", tournament)).status_code == 405


# --- the director's clock page ----------------------------------------------------------------


def post_action(client, tournament, **data):
    response = client.post(reverse("clock-action", args=[tournament.pk]), data, HTTP_ACCEPT="application/json")
    return response, response.json()


def test_director_page_shows_the_countdown_controls_and_the_level_list(client, director, tournament):
    client.force_login(director)
    page = client.get(reverse("director-clock", args=[tournament.pk])).content.decode()
    for element in ('id="clock-time"', 'id="btn-start"', 'id="btn-pause"', 'id="btn-resume"', 'id="btn-plus"',
                    'id="btn-minus"', 'id="btn-next"', 'id="btn-previous"', 'id="btn-jump"', 'id="announce-text"',
                    'id="level-list"', 'data-row-index="4"', "js/clock.js", 'id="clock-state"'):
        assert element in page, element
    assert 'data-confirm="Move every screen to the next level now?"' in page


def test_director_nav_links_to_the_clock_and_tables(client, director, floor, dealer, tournament):
    client.force_login(director)
    page = client.get(reverse("tournament-detail", args=[tournament.pk])).content.decode()
    assert reverse("director-clock", args=[tournament.pk]) in page and reverse("tables", args=[tournament.pk]) in page
    client.force_login(dealer)
    page = client.get(reverse("tournament-detail", args=[tournament.pk])).content.decode()
    assert reverse("director-clock", args=[tournament.pk]) not in page
    assert reverse("dealer-choose", args=[tournament.pk]) in page


def test_each_button_calls_its_clock_service(client, director, tournament):
    client.force_login(director)
    response, answer = post_action(client, tournament, action="start")
    assert response.status_code == 200 and answer["ok"] and answer["clock"]["status"] == "running"
    assert clock_of(tournament).status == ClockState.Status.RUNNING

    _response, answer = post_action(client, tournament, action="pause")
    clock = clock_of(tournament)
    assert clock.status == ClockState.Status.PAUSED and answer["clock"]["status"] == "paused"
    remaining = answer["clock"]["current"]["remaining"]

    _response, answer = post_action(client, tournament, action="adjust", seconds="60")
    assert answer["clock"]["current"]["remaining"] == pytest.approx(remaining + 60)
    _response, answer = post_action(client, tournament, action="adjust", seconds="-120")
    assert answer["clock"]["current"]["remaining"] == pytest.approx(remaining - 60)

    _response, answer = post_action(client, tournament, action="resume")
    assert clock_of(tournament).status == ClockState.Status.RUNNING

    _response, answer = post_action(client, tournament, action="next")
    assert answer["clock"]["current"]["index"] == 1 and clock_of(tournament).index == 1
    _response, answer = post_action(client, tournament, action="previous")
    assert answer["clock"]["current"]["index"] == 0

    _response, answer = post_action(client, tournament, action="jump", level="3")
    assert answer["clock"]["current"]["index"] == 3  # level 3 comes after the break
    tournament.refresh_from_db()
    assert tournament.current_level == 3

    _response, answer = post_action(client, tournament, action="announce", text="Dinner break at level 6")
    assert answer["clock"]["announcement"] == "Dinner break at level 6"
    _response, answer = post_action(client, tournament, action="announce", text="")
    assert answer["clock"]["announcement"] == "" and clock_of(tournament).announcement == ""

    types = list(AuditEvent.objects.filter(tournament=tournament, type__startswith="clock.").values_list("type", flat=True))
    assert types == ["clock.started", "clock.paused", "clock.adjusted", "clock.adjusted", "clock.resumed", "clock.next",
                     "clock.previous", "clock.jumped", "clock.announcement", "clock.announcement"]


def test_refusals_are_shown_clearly_and_change_nothing(client, director, tournament):
    client.force_login(director)
    response, answer = post_action(client, tournament, action="pause")
    assert response.status_code == 409 and not answer["ok"] and answer["error"] == "Start the clock first."
    response, answer = post_action(client, tournament, action="jump", level="99")
    assert response.status_code == 400 and "Level 99 does not exist" in answer["error"]
    response, answer = post_action(client, tournament, action="adjust", seconds="a minute")
    assert response.status_code == 400 and answer["error"]
    response, answer = post_action(client, tournament, action="explode")
    assert response.status_code == 400 and answer["error"] == "Unknown clock action."
    assert not AuditEvent.objects.filter(type__startswith="clock.").exists()


def test_plain_form_post_redirects_with_a_message(client, director, tournament):
    client.force_login(director)
    url = reverse("clock-action", args=[tournament.pk])
    done = client.post(url, {"action": "start"}, follow=True)
    assert done.redirect_chain[-1][0] == reverse("director-clock", args=[tournament.pk])
    assert "The clock is running." in done.content.decode()
    refused = client.post(url, {"action": "start"}, follow=True)
    assert "The clock has already started." in refused.content.decode()


# --- tables ---------------------------------------------------------------------------------


def test_director_opens_a_table_and_sees_its_token_once(client, director, tournament):
    client.force_login(director)
    url = reverse("table-open", args=[tournament.pk])
    response = client.post(url, {"number": "5", "seats": "8", "sends_hand_signals": "on"})
    assert response.status_code == 201 and response["Cache-Control"] == "no-store"
    table = Table.objects.get(tournament=tournament, number=5)
    token = response.context["token"]
    assert table.seats == 8 and table.sends_hand_signals and table.shuffler_token_hash == hash_token(token)
    assert token in response.content.decode()
    # The next look at the page does not show it again.
    assert token not in client.get(reverse("tables", args=[tournament.pk])).content.decode()
    again = client.post(url, {"number": "5"}, follow=True)
    assert "Table 5 is already open." in again.content.decode()
    assert Table.objects.filter(tournament=tournament).count() == 1


def test_table_opened_without_signals_follows_the_clock(client, director, tournament):
    client.force_login(director)
    client.post(reverse("table-open", args=[tournament.pk]), {"number": "2"})
    assert Table.objects.get(number=2).sends_hand_signals is False


def test_tables_page_lists_level_in_play(client, floor, director, dealer, tournament, table):
    clock_services.start_clock(director, tournament)
    hands.start_hand(dealer, table)
    client.force_login(floor)
    response = client.get(reverse("tables", args=[tournament.pk]))
    assert response.status_code == 200
    assert response.context["tables"][0]["level"] == 1 and 'data-table="1"' in response.content.decode()
    assert "Open a table" not in response.content.decode()  # the director's form only


# --- the dealer tablet ------------------------------------------------------------------------


def test_dealer_button_starts_a_hand_at_the_announced_level_and_undo_reverts_it(client, director, dealer, tournament, table):
    clock_services.start_clock(director, tournament)
    client.force_login(dealer)
    page = client.get(reverse("dealer", args=[tournament.pk, 1])).content.decode()
    assert 'id="shuffle"' in page and "Shuffle / new hand" in page and 'id="undo"' in page

    response = client.post(reverse("hand-start", args=[tournament.pk, 1]), HTTP_ACCEPT="application/json")
    answer = response.json()
    assert response.status_code == 200 and answer["ok"] and answer["message"] == "Hand 1 started."
    assert answer["table"]["hand"] == 1 and answer["table"]["hand_level_index"] == 0 and answer["table"]["level"] == 1
    hand = HandStart.objects.get()
    assert hand.table == table and hand.source == HandStart.Source.TABLET and hand.actor == dealer

    clock_services.step_level(director, tournament, 1)
    state = client.get(reverse("dealer-state", args=[tournament.pk, 1])).json()
    assert state["table"]["hand_level_index"] == 0  # the hand in progress stays on level 1
    assert state["clock"]["current"]["level_index"] == 1
    second = client.post(reverse("hand-start", args=[tournament.pk, 1]), HTTP_ACCEPT="application/json").json()
    assert second["table"]["hand"] == 2 and second["table"]["level"] == 2

    undone = client.post(reverse("hand-undo", args=[tournament.pk, 1]), HTTP_ACCEPT="application/json").json()
    assert undone["ok"] and undone["table"]["hand"] == 1 and undone["table"]["hand_level_index"] == 0
    assert HandStart.objects.filter(undone_at__isnull=False).count() == 1


def test_dealer_form_post_without_javascript(client, dealer, tournament, table):
    client.force_login(dealer)
    response = client.post(reverse("hand-start", args=[tournament.pk, 1]), follow=True)
    assert response.redirect_chain[-1][0] == reverse("dealer", args=[tournament.pk, 1])
    assert "Hand 1 started." in response.content.decode()
    assert HandStart.objects.count() == 1


def test_undo_with_nothing_to_undo_is_refused(client, dealer, tournament, table):
    client.force_login(dealer)
    response = client.post(reverse("hand-undo", args=[tournament.pk, 1]), HTTP_ACCEPT="application/json")
    assert response.status_code == 409 and response.json()["error"] == "There is no hand start to undo at this table."


def test_dealer_state_answers_time_pings_and_404_for_unknown_tables(client, dealer, tournament, table):
    import time

    client.force_login(dealer)
    before = time.time()
    ping = client.get(reverse("dealer-state", args=[tournament.pk, 1]) + "?ping=1").json()
    assert set(ping) == {"server_time"} and before <= ping["server_time"] <= time.time()
    assert client.get(reverse("dealer", args=[tournament.pk, 9])).status_code == 404
    assert client.get(reverse("dealer-state", args=[tournament.pk, 9])).status_code == 404
    chooser = client.get(reverse("dealer-choose", args=[tournament.pk])).content.decode()
    assert reverse("dealer", args=[tournament.pk, 1]) in chooser
