"""A sold-out evening from the player's phone to his seat, in a real browser: the event is sold out before its start; a
player reserves from his phone (told it holds no seat, only a turn on the waiting list), the cashier finds the
reservation, creates the player with his ID checked and claims it (he joins the waiting list), his phone opts in on the
waiting-list board to be told, the event starts, a bust offers him a seat: the push service stand-in decrypts the
message sent to his phone ("Alternate 1: table T seat S"), and his reservation's page leads to his seat page, which says
it too. Headless chromium has no push service: PushManager's subscribe is stood in for with the keys of a browser made
in the test (tests/notify/standin.py), so the stand-in decrypts what the server sent. The screens and the API alone:
tests/web/test_reservations.py."""

from __future__ import annotations

import json
from datetime import timedelta

import pytest
from django.utils import timezone

from notify.models import PushSubscription
from tables.selectors.state import live_seats
from tables.services import busts, draws
from tests.browser.conftest import login
from tests.helpers import register, said
from tests.notify.conftest import push_service  # noqa: F401  (a fixture: the push service stand-in, the server's keys)
from tests.notify.standin import Browser
from tests.tournament.test_waiting_list import fixed_room
from tournament.models import Reservation, Tournament, WaitingPlace
from tournament.services import reservations

pytestmark = pytest.mark.browser

PHONE = {"width": 390, "height": 844}
TABLET = {"width": 1180, "height": 820}
FIRST_NAME, LAST_NAME, BORN = (f'[name="new_player.{name}"]' for name in ("first_name", "last_name", "date_of_birth"))
# PushManager's subscribe, answered with the subscription of a browser made in the test (its endpoint and keys).
STAND_IN = """
((sub) => {
  let current = null;
  PushManager.prototype.getSubscription = async function () { return current; };
  PushManager.prototype.subscribe = async function () {
    current = {endpoint: sub.endpoint, toJSON: () => sub, unsubscribe: async () => { current = null; return true; }};
    return current;
  };
})(%s);
"""


@pytest.fixture
def sold_out_tomorrow(director, cashier, tournament):
    """Tomorrow's event in a fixed room of two tables of six, its twelve seats taken by registrations before the start."""
    fixed_room(director, [1, 2])
    Tournament.objects.filter(pk=tournament.pk).update(start_at=timezone.now() + timedelta(days=1), reservation_cap=10)
    register(cashier, tournament, 12)
    return Tournament.objects.get(pk=tournament.pk)


def test_a_player_reserves_sold_out_is_claimed_onto_the_list_and_his_phone_leads_him_to_the_seat_a_bust_gave_him(
    browser,
    live_asgi,
    director,
    floor,
    cashier,
    sold_out_tomorrow,
    push_service,  # noqa: F811 (the fixture imported above)
):
    t = sold_out_tomorrow
    pocket = Browser()  # the phone's push subscription, as its browser makes it
    push_service.add(pocket)
    context = browser.new_context(viewport=PHONE, locale="en", is_mobile=True, has_touch=True)
    context.grant_permissions(["notifications"], origin=live_asgi)
    context.add_init_script(STAND_IN % json.dumps(pocket.subscription()))
    phone = context.new_page()
    phone.goto(f"{live_asgi}/t/{t.pk}/reserve/")
    assert "a reservation now holds no seat" in phone.inner_text("#reserve-sold-out")
    phone.fill("#rs-name", "Petra Phone")
    phone.fill("#rs-contact", "+420 603 111 222")
    phone.click("#reserve-go")
    phone.wait_for_selector("#reservation-number")
    assert phone.inner_text("#reservation-number") == "R-1"
    assert "puts you on the waiting list" in phone.inner_text("#reservation-sold-out")
    link = phone.url
    reservation = Reservation.objects.get(tournament=t)
    assert reservation.state == "held" and not reservation.holds_place

    # The desk: the reservations page, then the registration page with it chosen, a new player and his ID.
    desk = browser.new_context(viewport=TABLET, locale="en").new_page()
    login(desk, live_asgi, cashier.username)
    desk.goto(f"{live_asgi}/t/{t.pk}/reservations/")
    assert "Petra Phone" in desk.inner_text("#reservation-1") and "+420 603 111 222" in desk.inner_text("#reservation-1")
    # Left open, the list shows another phone's reservation as it is made (the live stream), without a reload.
    desk.wait_for_selector("#live.live")
    desk.evaluate("window.__notReloaded = true")
    reservations.reserve(t, name="Otto Other", contact="otto@example.cz", device="another-phone", address="10.0.0.7")
    desk.wait_for_selector("#reservation-2")
    assert "Otto Other" in desk.inner_text("#reservation-2") and desk.evaluate("window.__notReloaded") is True
    desk.click("#rv-claim-1")
    desk.wait_for_selector("#reservation-chosen")
    assert "made when the tournament was sold out" in desk.inner_text("#reservation-chosen")
    desk.click("#new-player-link")
    desk.wait_for_url("**/players/new/?reservation=1")
    desk.wait_for_load_state()
    assert desk.inner_text("#register-button") == "Claim reservation R-1: put on the waiting list"
    desk.fill(FIRST_NAME, "Petra")
    desk.fill(LAST_NAME, "Phone")
    desk.fill(BORN, "1991-06-07")
    desk.select_option("#id_document_type", "id_card")
    desk.fill("#id_document_number", "RS9100001")
    desk.check("#id_seen")
    desk.click("#register-button")
    desk.wait_for_url(f"{live_asgi}/t/{t.pk}/waiting-list/")
    said(desk, "Reservation R-1 claimed: Petra Phone is on the waiting list, alternate 1.")
    place = WaitingPlace.objects.get(tournament=t)
    assert place.number == 1 and Reservation.objects.get(pk=reservation.pk).waiting_place == place

    # His phone: the reservation's page says where he stands and links the board.
    phone.goto(link)
    assert "you are on the waiting list, alternate 1" in phone.inner_text("#reservation-state")
    assert phone.get_attribute("#reservation-waiting", "href").endswith(f"/t/{t.pk}/waiting/?n=1")
    phone.click("#reservation-waiting")
    phone.wait_for_selector("#push-button", state="visible")
    phone.click("#push-button")
    phone.wait_for_function("document.getElementById('push-button').textContent === 'Stop telling me'")
    assert PushSubscription.objects.get(place=place).endpoint == pocket.endpoint

    # The event starts; a bust offers him the seat by the late-entry draw; his phone leads him to it.
    draws.draw_start(t, actor=director)
    out = live_seats(t).select_related("table").first()
    busts.bust_entry(out.entry, actor=floor)
    place.refresh_from_db()
    assert place.state == "offered"
    told = push_service.received[pocket.endpoint]  # sent by the task after the bust's commit, decrypted by the stand-in
    where = f"table {out.table.number} seat {out.seat}"
    assert len(told) == 1 and where in json.dumps(told[0]), told
    phone.goto(link)
    phone.click("#reservation-seat")
    phone.wait_for_url(f"**/s/{t.pk}/{place.entry.number}/")
    phone.wait_for_selector("#seat-alternate:not([hidden])")
    assert phone.inner_text("#alt-line").startswith(f"Alternate 1: table {out.table.number} seat {out.seat}")
