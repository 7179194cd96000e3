"""Hand-for-hand, "hand done" and the house rules on the screens (floor map, dealer tablet, house
rules page) and in the JSON API."""

from pathlib import Path

import pytest

from clock.models import ClockState
from clock.services import clock
from core import broadcast
from live.snapshots import lobby_snapshot
from tables.models import HouseRules
from tests.conftest import page_config
from tests.helpers import logged_in
from tests.tables import test_api
from tests.tables.test_dealer_links import dealer_tablet
from tests.tables.test_moves import entry, seated, start
from tournament.models import AuditEvent
from tournament.services import registration

MAP_JS = Path(__file__).resolve().parents[2] / "static" / "js" / "map" / "words.js"


@pytest.fixture
def four_tables_running(director, cashier, floor, tournament):
    start(director, cashier, tournament, 30)  # four tables
    clock.start_clock(tournament, actor=director)
    return tournament


def api(tournament, rest):
    return test_api.url(tournament, rest)


def test_the_director_runs_hand_for_hand_from_the_map_and_the_tablets_follow(four_tables_running, director, dealer, floor):
    """What the map and the dealer tablets do, through the API endpoints their buttons call."""
    t = four_tables_running
    seq = AuditEvent.objects.filter(tournament=t).count()
    refused = test_api.client_for(floor).post(api(t, "hand-for-hand/"), {"on": True}, format="json")
    assert refused.status_code == 403 and refused.json()["error"] == "permission_denied"  # the director's call
    assert AuditEvent.objects.filter(tournament=t).count() == seq
    answer = test_api.client_for(director).post(api(t, "hand-for-hand/"), {"on": True}, format="json")
    assert answer.status_code == 200 and answer.json()["on"] is True, answer.content  # "Hand-for-hand is on."
    data = logged_in(floor).get(f"/api/tournaments/{t.pk}/map/").json()["h4h"]
    assert data["on"] and data["called"] and data["hand"] == 1 and data["waiting_for"] == [1, 2, 3, 4]
    page = logged_in(director).get(f"/t/{t.pk}/map/").content.decode()
    assert "Hand-for-hand" in page and 'id="h4h-toggle"' in page and "js/floor-map.js" in page
    # The toggle's words are the map script's, from Django's JavaScript catalogue.
    assert 'gettext("End hand-for-hand")' in MAP_JS.read_text()
    assert page_config(page, "map-urls")["handForHand"] == f"/api/tournaments/{t.pk}/hand-for-hand/"

    state = dealer_tablet(dealer, t, 1).get(f"/api/tournaments/{t.pk}/tables/1/state/").json()["table"]
    assert state["h4h"] == {"hand": 1, "step": "deal", "waiting_for": [1, 2, 3, 4]}
    started = dealer_tablet(dealer, t, 1).post(api(t, "tables/1/hand/"))
    assert started.status_code == 201 and started.json()["hand"] == 1
    again = dealer_tablet(dealer, t, 1).post(api(t, "tables/1/hand/"))
    assert again.status_code == 409 and again.json()["error"] == "h4h_wait" and again.json()["detail"]
    done = dealer_tablet(dealer, t, 1).post(api(t, "tables/1/hand-done/"))
    assert done.status_code == 200 and done.json()["on"] is True  # "Hand done: this table waits for the next hand."
    state = dealer_tablet(dealer, t, 1).get(f"/api/tournaments/{t.pk}/tables/1/state/").json()["table"]
    assert state["h4h"]["step"] == "done"
    # Its start can no longer be undone: the tablet shows the API's refusal.
    undo = dealer_tablet(dealer, t, 1).delete(api(t, "tables/1/hand/"))
    assert undo.status_code == 409 and undo.json()["error"] == "h4h_reported"
    # The floor reports for the other tables from the map.
    for n in (2, 3, 4):
        assert test_api.client_for(floor).post(api(t, f"tables/{n}/hand-done/")).status_code == 200
    data = logged_in(floor).get(f"/api/tournaments/{t.pk}/map/").json()["h4h"]
    assert data["hand"] == 2 and data["called"] and data["seconds_taken"] == 120
    page = dealer_tablet(dealer, t, 2).get(f"/t/{t.pk}/tables/2/dealer/").content.decode()
    assert "Hand done" in page and f'"/api/tournaments/{t.pk}/tables/2/hand-done/"' in page
    assert f"/t/{t.pk}/tables/2/hand/done/" not in page

    # A bust in hand-for-hand needs the starting stack; the map sends it.
    n = min(seated(t)[3].values())
    refused = test_api.client_for(floor).post(api(t, f"entries/{n}/bust/"), {"stack": None}, format="json")
    assert refused.status_code == 400 and refused.json()["error"] == "stack_required"
    ok = test_api.client_for(floor).post(api(t, f"entries/{n}/bust/"), {"stack": 12500}, format="json")
    assert ok.status_code == 200 and entry(t, n).bust_stack == 12500

    off = test_api.client_for(director).post(api(t, "hand-for-hand/"), {"on": False}, format="json")
    assert off.status_code == 200 and off.json()["on"] is False  # "Hand-for-hand is over."
    assert ClockState.objects.get(tournament=t).status == ClockState.Status.RUNNING


def test_hand_for_hand_in_the_api(four_tables_running, director, dealer, floor, cashier):
    t = four_tables_running
    assert test_api.client_for(cashier).post(api(t, "hand-for-hand/"), {"on": True}, format="json").status_code == 403
    bad = test_api.client_for(director).post(api(t, "hand-for-hand/"), {"on": "maybe"}, format="json")
    assert bad.status_code == 400
    answer = test_api.client_for(director).post(api(t, "hand-for-hand/"), {"on": True}, format="json")
    assert answer.status_code == 200 and answer.json()["on"] and answer.json()["called"]
    assert test_api.client_for(director).post(api(t, "hand-for-hand/"), {"on": True}, format="json").status_code == 409
    assert dealer_tablet(dealer, t, 1).post(api(t, "tables/1/hand/")).status_code == 201
    done = dealer_tablet(dealer, t, 1).post(api(t, "tables/1/hand-done/"))
    assert done.status_code == 200 and done.json()["reported"] == [1]
    assert dealer_tablet(dealer, t, 1).post(api(t, "tables/1/hand-done/")).status_code == 409
    n = min(seated(t)[2].values())
    assert test_api.client_for(floor).post(api(t, f"entries/{n}/bust/"), {}, format="json").status_code == 400
    assert test_api.client_for(floor).post(api(t, f"entries/{n}/bust/"), {"stack": -1}, format="json").status_code == 400
    busted = test_api.client_for(floor).post(api(t, f"entries/{n}/bust/"), {"stack": 8000}, format="json")
    assert busted.status_code == 200 and busted.json()["bust_stack"] == 8000 and busted.json()["finish_place"] == 30
    status = test_api.client_for(floor).get(api(t, "hand-for-hand/")).json()
    assert status["waiting_for"] == [2, 3, 4]
    off = test_api.client_for(director).post(api(t, "hand-for-hand/"), {"on": False}, format="json")
    assert off.status_code == 200 and not off.json()["on"]


def test_house_rules_in_the_api(tournament, director, floor):
    got = test_api.client_for(floor).get(api(tournament, "house-rules/")).json()
    assert got == {
        "balance_threshold": 2,
        "halt_short_by": 3,
        "donor": "fullest",
        "redraw_at_three": False,
        "redraw_at_two": False,
        "hand_for_hand_seconds": 120,
        "hand_for_hand_ties": "tie",
        "race_rounding": "half_up",
        "race_protection": "added",
        "race_protected_first": False,
        "public_chip_counts": True,
        "clock_call_seconds": 60,
        "disqualified_place": "last",
        "dealer_busts": "floor_confirms",
    }
    assert not HouseRules.objects.filter(tournament=tournament).exists()  # reading stores nothing
    assert test_api.client_for(floor).patch(api(tournament, "house-rules/"), {"redraw_at_two": True}, format="json").status_code == 403
    for bad in ({"balance_threshold": 0}, {"hand_for_hand_ties": "coin"}, {"colour": "red"}, {"halt_short_by": 1}):
        answer = test_api.client_for(director).patch(api(tournament, "house-rules/"), bad, format="json")
        assert answer.status_code == 400, (bad, answer.content)
    assert not HouseRules.objects.filter(tournament=tournament).exists()  # refused: nothing changed
    ok = test_api.client_for(director).patch(
        api(tournament, "house-rules/"), {"hand_for_hand_seconds": 0, "redraw_at_three": True}, format="json"
    )
    assert ok.status_code == 200 and ok.json()["hand_for_hand_seconds"] == 0 and "places_paid" not in ok.json()
    rules = HouseRules.objects.get(tournament=tournament)
    assert rules.redraw_at_three and rules.balance_threshold == 2
    event = AuditEvent.objects.get(tournament=tournament, type="house_rules.changed")
    assert event.payload["changed"]["hand_for_hand_seconds"] == {"from": 120, "to": 0}
    assert (
        test_api.client_for(director).patch(api(tournament, "house-rules/"), {"places_paid": 27}, format="json").status_code == 400
    )  # the payout structure says it


def test_the_house_rules_screen(tournament, director, floor):
    assert logged_in(floor).get(f"/t/{tournament.pk}/house-rules/").status_code in (302, 403)
    page = logged_in(director).get(f"/t/{tournament.pk}/house-rules/").content.decode()
    assert "House rules" in page and "nothing is stored until you save" in page and 'name="places_paid"' not in page
    assert "No place is paid yet" in page
    assert f'data-api="tournaments/{tournament.pk}/house-rules/" data-method="patch"' in page  # saved through the API
    # What the page's form sends (static/js/api-forms.js: checkboxes as true or false, numbers as numbers).
    form = {
        "balance_threshold": 2,
        "halt_short_by": 1,
        "donor": "fullest",
        "redraw_at_three": False,
        "redraw_at_two": False,
        "hand_for_hand_seconds": 60,
        "hand_for_hand_ties": "stack",
        "race_rounding": "up",
        "race_protection": "from_raced",
        "race_protected_first": True,
    }
    assert logged_in(director).post(f"/t/{tournament.pk}/house-rules/", form).status_code == 405
    refused = test_api.client_for(director).patch(api(tournament, "house-rules/"), form, format="json")
    assert refused.status_code == 400 and "at least the balance threshold" in str(refused.json()["fields"]["halt_short_by"])
    assert not HouseRules.objects.filter(tournament=tournament).exists()
    answer = test_api.client_for(director).patch(
        api(tournament, "house-rules/"), {**form, "halt_short_by": 3, "redraw_at_two": True}, format="json"
    )
    assert answer.status_code == 200
    rules = HouseRules.objects.get(tournament=tournament)
    assert (rules.hand_for_hand_seconds, rules.hand_for_hand_ties, rules.redraw_at_two) == (60, "stack", True)
    assert (rules.race_rounding, rules.race_protection, rules.race_protected_first) == ("up", "from_raced", True)
    assert AuditEvent.objects.filter(tournament=tournament, type="house_rules.changed").exists()


def test_the_lobby_shows_hand_for_hand(four_tables_running, director, dealer):
    from unittest import mock

    t = four_tables_running
    assert lobby_snapshot(t)["h4h"] == {"on": False, "hand": None}
    sent = []
    with (
        mock.patch.object(broadcast, "send", lambda group, data: sent.append((group, data))),
        mock.patch("django.db.transaction.on_commit", lambda fn: fn()),
    ):
        test_api.client_for(director).post(api(t, "hand-for-hand/"), {"on": True}, format="json")
    lobby = [data for group, data in sent if group == f"t{t.pk}.lobby"]
    assert {"on": True, "hand": 1} in [m.get("h4h") for m in lobby]
    assert all("name" not in str(m.get("h4h")) for m in lobby)
    assert lobby_snapshot(t)["h4h"] == {"on": True, "hand": 1}
    from django.test import Client

    token = registration.create_display_token(t, actor=director, label="TV 1").token
    page = Client().get(f"/display/{token}/").content.decode()
    assert 'id="h4h-banner"' in page and "HAND-FOR-HAND" in page
