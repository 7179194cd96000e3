"""Screens of the clock and the tables: the pages' role matrix, and every action through the one door
the screens use, the JSON API (POST /api/tournaments/<id>/clock/, .../tables/, .../tables/<n>/hand/),
with the pages' session login. The browser tests drive the same API from the real pages."""

import json
from pathlib import Path

import pytest
from django.urls import reverse
from django.utils import translation
from django.utils.translation.trans_real import DjangoTranslation

from clock.models import ClockState
from clock.services import clock as clock_services
from core.tokens import hash_secret
from tables.models import HandStart, Table
from tables.services import hands
from tables.services import setup as table_setup
from tests.helpers import clock_of
from tournament.models import AuditEvent

ROLES = ["director", "floor", "cashier", "dealer"]

# page -> roles allowed (GET)
PAGES = {
    "director-clock": {"director"},
    "tables": {"director", "floor"},
    "dealer-choose": {"director", "floor", "dealer"},
    "dealer": {"director", "floor", "dealer"},
}
# what the screens' buttons call: name -> (method, path, body, roles allowed)
ACTIONS = {
    "clock": ("POST", "/api/tournaments/{t}/clock/", {"action": "start"}, {"director"}),
    "table-open": ("POST", "/api/tournaments/{t}/tables/", {"number": 7}, {"director"}),
    "hand-start": ("POST", "/api/tournaments/{t}/tables/1/hand/", None, {"director", "floor", "dealer"}),
    "hand-undo": ("DELETE", "/api/tournaments/{t}/tables/1/hand/", None, {"director", "floor", "dealer"}),
    "dealer-state": ("GET", "/api/tournaments/{t}/tables/1/state/", None, {"director", "floor", "dealer"}),  # the tablet's read
}

DIRECTOR_JS = Path(__file__).resolve().parents[2] / "static" / "js" / "director-clock.js"


def url_for(name, tournament):
    if name == "dealer":
        return reverse(name, args=[tournament.pk, 1])
    return reverse(name, args=[tournament.pk])


def call(client, tournament, name, body=None):
    method, path, default, _allowed = ACTIONS[name]
    data = default if body is None else body
    return client.generic(
        method,
        path.format(t=tournament.pk),
        "" if data is None else json.dumps(data),
        content_type="application/json",
        HTTP_ACCEPT="application/json",
    )


@pytest.fixture
def table(director, tournament):
    table, _token = table_setup.open_table(tournament, actor=director, number=1)
    return table


@pytest.mark.parametrize("role", ROLES)
def test_role_matrix_for_clock_and_table_pages(role, request, client, tournament, table):
    client.force_login(request.getfixturevalue(role))
    for name, allowed in PAGES.items():
        response = client.get(url_for(name, tournament))
        expected = 200 if role in allowed else 403
        assert response.status_code == expected, (role, name, response.status_code)


@pytest.mark.parametrize("role", ROLES)
def test_role_matrix_for_the_actions(role, request, client, tournament, table):
    """A wrong role gets 403 in the API's one error shape and changes nothing; a right one reaches the service."""
    client.force_login(request.getfixturevalue(role))
    client.get(reverse("dealer", args=[tournament.pk, 1]))  # a Dealer login acts at the table its tablet opened
    for name, (_method, _path, _body, allowed) in ACTIONS.items():
        before = AuditEvent.objects.count()
        response = call(client, tournament, name)
        if role in allowed:
            assert response.status_code in (200, 201, 409), (role, name, response.status_code)
        else:
            assert response.status_code == 403, (role, name, response.status_code)
            assert response.json()["error"] == "permission_denied" and response.json()["detail"]
            assert AuditEvent.objects.count() == before, (role, name)


def test_anonymous_is_sent_to_login_and_refused_by_the_api(client, tournament, table):
    for name in PAGES:
        response = client.get(url_for(name, tournament))
        assert response.status_code == 302 and response["Location"].startswith(reverse("login")), name
    for name in ACTIONS:
        assert call(client, tournament, name).status_code == 401, name
    assert not ClockState.objects.filter(tournament=tournament, status=ClockState.Status.RUNNING).exists()
    assert not HandStart.objects.exists()


def test_the_old_clock_action_url_is_gone(client, director, tournament):
    client.force_login(director)
    url = f"/t/{tournament.pk}/clock/action/"
    assert client.post(url, {"action": "start"}).status_code == 404
    assert client.get(url).status_code == 404
    assert not AuditEvent.objects.filter(type__startswith="clock.").exists()


# --- the director's clock page ----------------------------------------------------------------


def act(client, tournament, **data):
    response = call(client, tournament, "clock", data)
    return response, response.json()


def test_director_page_shows_the_controls_wired_to_the_api(client, director, tournament):
    client.force_login(director)
    page = client.get(reverse("director-clock", args=[tournament.pk])).content.decode()
    for element in (
        'id="clock-time"',
        'id="btn-start"',
        'id="btn-pause"',
        'id="btn-resume"',
        'id="btn-plus"',
        'id="btn-minus"',
        'id="btn-next"',
        'id="btn-previous"',
        'id="btn-jump"',
        'id="announce-text"',
        'id="level-list"',
        'data-row-index="4"',
        "js/clock.js",
        'id="clock-state"',
        "data-api-say",
    ):
        assert element in page, element
    assert 'data-says="clock-next"' in page  # "Move every screen to the next level now?" (static/js/form-words.js)
    # The buttons call the API; the page itself takes no action.
    assert f'data-api="tournaments/{tournament.pk}/clock/"' in page and "js/director-clock.js" in page and "clock/action" not in page
    # The director's messages are the script's words, from Django's JavaScript catalogue.
    script = DIRECTOR_JS.read_text()
    for said in (
        'gettext("The clock is running.")',
        'gettext("{minutes} min added.")',
        'gettext("Level {level} is now in play.")',
        'gettext("The announcement is cleared.")',
    ):
        assert said in script, said


def test_the_page_carries_its_messages_in_the_directors_language(client, director, tournament):
    """The page loads the JavaScript catalogue of the director's language, which has the script's words in it."""
    client.force_login(director)
    english = client.get(reverse("director-clock", args=[tournament.pk]), HTTP_ACCEPT_LANGUAGE="en").content.decode()
    czech = client.get(reverse("director-clock", args=[tournament.pk]), HTTP_ACCEPT_LANGUAGE="cs").content.decode()
    assert 'src="/jsi18n/cs/"' in czech and 'src="/jsi18n/en-gb/"' in english
    script_words = DjangoTranslation("cs", domain="djangojs").gettext
    running, added = script_words("The clock is running."), script_words("{minutes} min added.")
    assert running != "The clock is running." and added.endswith(".") and "{minutes}" in added
    catalogue = client.get("/jsi18n/cs/").content.decode()
    assert json.dumps(running) in catalogue and json.dumps(added) in catalogue


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
    response, clock = act(client, tournament, action="start")
    assert response.status_code == 200 and clock["status"] == "running"
    assert clock_of(tournament).status == ClockState.Status.RUNNING

    _response, clock = act(client, tournament, action="pause")
    assert clock_of(tournament).status == ClockState.Status.PAUSED and clock["status"] == "paused"
    remaining = clock["current"]["remaining"]

    _response, clock = act(client, tournament, action="adjust", seconds=60)
    assert clock["current"]["remaining"] == pytest.approx(remaining + 60)
    _response, clock = act(client, tournament, action="adjust", seconds=-120)
    assert clock["current"]["remaining"] == pytest.approx(remaining - 60)

    _response, clock = act(client, tournament, action="resume")
    assert clock_of(tournament).status == ClockState.Status.RUNNING

    _response, clock = act(client, tournament, action="next")
    assert clock["current"]["index"] == 1 and clock_of(tournament).index == 1
    _response, clock = act(client, tournament, action="previous")
    assert clock["current"]["index"] == 0

    _response, clock = act(client, tournament, action="jump", level=3)
    assert clock["current"]["index"] == 3  # level 3 comes after the break
    tournament.refresh_from_db()
    assert tournament.current_level == 3

    _response, clock = act(client, tournament, action="announce", text="Dinner break at level 6")
    assert clock["announcement"] == "Dinner break at level 6"
    _response, clock = act(client, tournament, action="announce", text="")
    assert clock["announcement"] == "" and clock_of(tournament).announcement == ""

    types = list(AuditEvent.objects.filter(tournament=tournament, type__startswith="clock.").values_list("type", flat=True))
    assert types == [
        "clock.started",
        "clock.paused",
        "clock.adjusted",
        "clock.adjusted",
        "clock.resumed",
        "clock.next",
        "clock.previous",
        "clock.jumped",
        "clock.announcement",
        "clock.announcement",
    ]


def test_refusals_come_in_the_one_shape_and_change_nothing(client, director, tournament):
    client.force_login(director)
    response, answer = act(client, tournament, action="pause")
    assert response.status_code == 409 and answer["detail"] == "Start the clock first." and answer["error"]
    response, answer = act(client, tournament, action="jump", level=99)
    assert response.status_code == 400 and "Level 99 does not exist" in answer["detail"]
    response, answer = act(client, tournament, action="adjust", seconds="a minute")
    assert response.status_code == 400 and answer["fields"] == {"seconds": ["Give a number of seconds to add or remove."]}
    response, answer = act(client, tournament, action="adjust")
    assert response.status_code == 400 and answer["fields"] == {"seconds": ["Give a number of seconds to add or remove."]}
    for level in (0, "three", None):
        response, answer = act(client, tournament, action="jump", level=level)
        assert response.status_code == 400 and answer["fields"] == {"level": ["Enter a level number of 1 or more."]}, level
    response, answer = act(client, tournament, action="announce")
    assert response.status_code == 400 and answer["fields"] == {"text": ["Give the announcement text (empty clears it)."]}
    response, answer = act(client, tournament, action="explode")
    assert response.status_code == 400 and answer["error"] == "invalid"
    assert answer["fields"] == {"action": ["Unknown clock action."]}
    assert not AuditEvent.objects.filter(type__startswith="clock.").exists()


@pytest.mark.parametrize("lang", ["cs", "sk"])
def test_the_clock_apis_refusals_are_translated(client, director, tournament, lang):
    client.force_login(director)
    response = client.post(
        f"/api/tournaments/{tournament.pk}/clock/",
        {"action": "jump", "level": 0},
        content_type="application/json",
        HTTP_ACCEPT_LANGUAGE=lang,
    )
    with translation.override(lang):
        expected = translation.gettext("Enter a level number of 1 or more.")
        unknown = translation.gettext("Unknown clock action.")
    assert expected != "Enter a level number of 1 or more."
    assert response.json()["fields"] == {"level": [expected]} and expected in response.json()["detail"]
    response = client.post(
        f"/api/tournaments/{tournament.pk}/clock/", {"action": "explode"}, content_type="application/json", HTTP_ACCEPT_LANGUAGE=lang
    )
    assert response.json()["fields"] == {"action": [unknown]}


# --- tables ---------------------------------------------------------------------------------


def test_director_opens_a_table_and_sees_its_token_once(client, director, tournament):
    client.force_login(director)
    response = call(client, tournament, "table-open", {"number": 5, "seats": 8, "sends_hand_signals": True})
    assert response.status_code == 201
    table = Table.objects.get(tournament=tournament, number=5)
    token = response.json()["shuffler_token"]
    assert table.seats == 8 and table.sends_hand_signals and table.shuffler_token_hash == hash_secret(token)
    # The next look at the page or the list does not show it again.
    assert token not in client.get(reverse("tables", args=[tournament.pk])).content.decode()
    assert token not in client.get(f"/api/tournaments/{tournament.pk}/tables/").content.decode()
    again = call(client, tournament, "table-open", {"number": 5})
    assert again.status_code == 409 and again.json()["detail"] == "Table 5 is already open."
    assert Table.objects.filter(tournament=tournament).count() == 1


def test_table_opened_without_signals_follows_the_clock(client, director, tournament):
    client.force_login(director)
    call(client, tournament, "table-open", {"number": 2, "sends_hand_signals": False})
    assert Table.objects.get(number=2).sends_hand_signals is False


def test_tables_page_lists_level_in_play(client, floor, director, dealer, tournament, table):
    clock_services.start_clock(tournament, actor=director)
    hands.start_hand(table, actor=dealer)
    client.force_login(floor)
    response = client.get(reverse("tables", args=[tournament.pk]))
    assert response.status_code == 200
    assert response.context["tables"][0]["level"] == 1 and 'data-table="1"' in response.content.decode()


# --- the dealer tablet ------------------------------------------------------------------------


def test_dealer_button_starts_a_hand_at_the_announced_level_and_undo_reverts_it(client, director, dealer, tournament, table):
    clock_services.start_clock(tournament, actor=director)
    client.force_login(dealer)
    page = client.get(reverse("dealer", args=[tournament.pk, 1])).content.decode()
    assert 'id="shuffle"' in page and "Shuffle / new hand" in page and 'id="undo"' in page

    response = call(client, tournament, "hand-start")
    assert response.status_code == 201 and response.json() == {"table": 1, "hand": 1, "level": 1}
    hand = HandStart.objects.get()
    assert hand.table == table and hand.source == HandStart.Source.TABLET and hand.actor == dealer and hand.level_index == 0

    clock_services.step_level(tournament, actor=director, step=1)
    state = client.get(reverse("api-table-state", args=[tournament.pk, 1])).json()
    assert state["table"]["hand_level_index"] == 0  # the hand in progress stays on level 1
    assert state["clock"]["current"]["level_index"] == 1
    second = call(client, tournament, "hand-start").json()
    assert second["hand"] == 2 and second["level"] == 2

    undone = call(client, tournament, "hand-undo")
    assert undone.status_code == 200 and undone.json()["hand"] == 2  # the answer names the start it undid
    state = client.get(reverse("api-table-state", args=[tournament.pk, 1])).json()
    assert state["table"]["hand"] == 1 and state["table"]["hand_level_index"] == 0
    assert HandStart.objects.filter(undone_at__isnull=False).count() == 1


def test_undo_with_nothing_to_undo_is_refused(client, dealer, tournament, table):
    client.force_login(dealer)
    client.get(reverse("dealer", args=[tournament.pk, 1]))  # the tablet opens table 1: the login is bound there
    response = call(client, tournament, "hand-undo")
    assert response.status_code == 409 and response.json()["detail"] == "There is no hand start to undo at this table."


def test_dealer_state_answers_time_pings_and_404_for_unknown_tables(client, dealer, tournament, table):
    import time

    client.force_login(dealer)
    client.get(reverse("dealer", args=[tournament.pk, 1]))  # the tablet opens table 1: the login is bound there
    before = time.time()
    ping = client.get(reverse("api-table-state", args=[tournament.pk, 1]) + "?ping=1").json()
    assert set(ping) == {"server_time"} and before <= ping["server_time"] <= time.time()
    assert client.get(reverse("dealer", args=[tournament.pk, 9])).status_code == 404
    assert client.get(reverse("api-table-state", args=[tournament.pk, 9])).status_code == 404
    chooser = client.get(reverse("dealer-choose", args=[tournament.pk])).content.decode()
    assert reverse("dealer", args=[tournament.pk, 1]) in chooser
