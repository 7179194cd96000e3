"""A penalty in a real browser (TDA 51): the floor gives one round on the penalties page; the table's dealer
tablet, already open, shows the seat and the hands left at once (it refetches on the table's event); each
shuffle lowers the count there and on the floor's page, which follows live. The tablet's panel fits a
tablet and a phone, and the page fits a tablet."""

from __future__ import annotations

from functools import partial

import pytest

from tables.models import Penalty, Seat
from tables.services import draws
from tests.browser import sizes
from tests.browser.conftest import login
from tests.browser.sizes import OVERFLOW, PHONE, TABLET, by_device  # noqa: F401  (OVERFLOW: test_bagging_tablet takes it from here)
from tests.conftest import PASSWORD
from tests.helpers import open_tables, register
from tests.tables.test_penalty_names import register_named

pytestmark = pytest.mark.browser

SHOTS = "penalties"  # /tmp/penalties_<label>.png, shot on every run (not only with SCREEN_SHOTS), to look at by eye

# The page and every element of main (or of another selector) inside the window; <name>_tablet and <name>_phone shot
# whole, on every run.
fits = partial(sizes.fits, prefix=SHOTS, wait=200, shots=by_device())


def test_the_floor_gives_a_round_and_the_dealer_tablet_counts_it_down(live_asgi, browser, director, cashier, floor, dealer, tournament):
    base, t = live_asgi, tournament
    open_tables(director, t, [1, 2])
    register(cashier, t, 12)
    draws.draw_start(t, actor=director)
    seat = (
        Seat.objects.filter(table__tournament=t, table__number=1, ended_at__isnull=True)
        .select_related("entry__player")
        .order_by("seat")
        .last()
    )
    players = Seat.objects.filter(table=seat.table, ended_at__isnull=True).count()
    name = seat.entry.player.display_name

    tablet = browser.new_context(viewport=TABLET).new_page()
    login(tablet, base, dealer.username, PASSWORD)
    tablet.goto(f"{base}/t/{t.pk}/tables/1/dealer/")
    tablet.wait_for_selector("#live.live")
    assert tablet.is_hidden("#penalties")

    desk = browser.new_context(viewport=TABLET).new_page()
    login(desk, base, floor.username, PASSWORD)
    desk.goto(f"{base}/t/{t.pk}/")
    desk.click(f"nav.tabs a[href='/t/{t.pk}/penalties/']")
    desk.wait_for_selector("#give-form")
    desk.wait_for_load_state()  # the page's scripts have run: the kind's radios are followed
    assert desk.is_disabled("#id_rounds_0") is False  # no kind chosen yet: the rounds are open
    desk.fill("#id_who", f"#{seat.entry.number}")
    desk.click("label[for=id_kind_0]")  # Warning: the rounds grey out
    assert desk.is_disabled("#id_rounds_0")
    desk.click("label[for=id_kind_2]")  # Rounds
    desk.fill("#id_reason", "Abusive language at the table")
    desk.click("#give-go")  # no number of rounds: refused at the field, nothing given
    refused = desk.locator('#give-form .errorlist[data-api-field="rounds"]')
    refused.wait_for()
    assert refused.inner_text() == "Say how many rounds: one to four." and not Penalty.objects.exists()
    desk.click("label[for=id_rounds_0]")  # 1
    desk.fill("#id_reason", "Abusive language at the table")
    desk.click("#give-go")
    desk.wait_for_selector("[data-api-say].ok")
    assert f"sits out {players} hands" in desk.inner_text("[data-api-say]")
    row = desk.locator('li.pn-row[data-status="serving"]')
    assert row.count() == 1 and f"{players} of {players} hands left" in row.inner_text()
    assert name in row.inner_text() and f"Seat {seat.seat}" in row.inner_text()
    penalty = Penalty.objects.get(tournament=t)
    assert (penalty.kind, penalty.rounds, penalty.hands) == ("rounds", 1, players)
    assert fits(desk, "page", (TABLET,)) == []

    # The tablet, open all along, shows it without a reload.
    tablet.wait_for_selector("#penalties", state="visible")
    item = tablet.locator(f'#penalties-list li[data-seat="{seat.seat}"]')
    item.wait_for()
    text = item.inner_text()
    assert f"Seat {seat.seat}" in text and name in text, text
    assert f"{players} of {players} hands left" in text and "Deal in, take the blinds." in text, text
    big = tablet.locator(f'#penalties-list li[data-seat="{seat.seat}"] .p-seat').bounding_box()
    assert big["height"] >= 30, big  # the seat is big
    assert fits(tablet, "dealer", (TABLET,), selector="#penalties") == []

    # A new hand: one hand served.
    tablet.click("#shuffle")
    tablet.wait_for_function(
        "(n) => { const li = document.querySelector('#penalties-list li'); return li && li.dataset.left === String(n); }", arg=players - 1
    )
    assert f"{players - 1} of {players} hands left" in item.inner_text()
    # The floor's page, open all along, follows too: the hands left change without a reload.
    desk.wait_for_selector("#live.live")
    desk.wait_for_function(
        "(n) => { const p = document.querySelector('li.pn-row[data-status=\"serving\"] .pn-left'); "
        "return p && p.dataset.left === String(n); }",
        arg=players - 1,
    )

    assert fits(tablet, "dealer", (PHONE,), selector="#penalties") == []  # the tablet stays a phone

    # The floor cancels it: the tablet's panel goes.
    desk.click('li.pn-row[data-status="serving"] .pn-cancel summary')
    desk.fill(f"#cancel-reason-{penalty.number}", "Wrong player")
    desk.click(f'li.pn-row[data-penalty="{penalty.number}"] .pn-cancel button')
    desk.wait_for_function(
        "(text) => (document.querySelector('[data-api-say].ok') || {}).textContent === text", arg=f"Penalty #{penalty.number} is cancelled."
    )  # said after the page reloaded
    assert desk.locator('li.pn-row[data-status="cancelled"]').count() == 1
    tablet.wait_for_selector("#penalties", state="hidden")


def test_the_floor_finds_the_player_by_name_and_chooses_among_namesakes(live_asgi, browser, director, cashier, floor, tournament):
    """The floor types the name as he hears it; two players named alike are listed with
    their table and seat, big enough for a finger, and the one chosen gets the penalty."""
    base, t = live_asgi, tournament
    open_tables(director, t, [1, 2])
    jan, petr = register_named(cashier, t, [("Jan", "Benešová"), ("Petr", "Beneš")])
    register(cashier, t, 8)
    draws.draw_start(t, actor=director)
    desk = browser.new_context(viewport=TABLET).new_page()
    login(desk, base, floor.username, PASSWORD)
    desk.goto(f"{base}/t/{t.pk}/penalties/")
    desk.fill("#id_who", "benes")
    desk.click("label[for=id_kind_1]")  # one hand
    desk.fill("#id_reason", "Exposed a card")
    desk.click("#give-go")
    desk.wait_for_selector("#candidates")
    assert not Penalty.objects.exists()
    picks = desk.locator("#candidates label.pn-pick")
    assert picks.count() == 2
    where = Seat.objects.select_related("table").get(entry=petr, ended_at__isnull=True)
    label = desk.locator(f"label[for=pick-{petr.number}]")
    assert f"table {where.table.number}, seat {where.seat}" in label.inner_text() and "Petr Beneš" in label.inner_text()
    assert label.bounding_box()["height"] >= 48
    assert desk.input_value("#id_reason") == "Exposed a card" and desk.is_checked("#id_kind_1")
    assert fits(desk, "candidates", (TABLET,)) == []
    label.click()
    desk.click("#give-go")
    desk.wait_for_selector("[data-api-say].ok")
    assert "Petr Beneš" in desk.inner_text("[data-api-say]")
    assert Penalty.objects.get().entry == petr
