"""The event log on a floor tablet: lines in words, no sideways scrolling at 1180×820 or
1440×900 with long names and long payloads, details on demand, and a new event arriving live in words."""

from __future__ import annotations

from datetime import date

import pytest
from django.db import transaction

from tests.browser.conftest import login
from tests.conftest import PASSWORD
from tests.helpers import id_doc
from tournament.services import registration
from tournament.services.audit import lock_tournament, record_event

pytestmark = pytest.mark.browser

LONG = "Anna-Marie Ďurďovičová-Šťastná-Přibyslavská"


def add(tournament, type_, payload):
    with transaction.atomic():
        record_event(lock_tournament(tournament.pk), actor="floor", type_=type_, payload=payload, stats=False)


@pytest.fixture
def varied(tournament, cashier):
    long_player = registration.create_player(
        actor=cashier, first_name="Anna-Marie", last_name="Ďurďovičová-Šťastná-Přibyslavská", date_of_birth=date(1980, 2, 2)
    )
    entry = registration.register_entry(tournament, actor=cashier, player=long_player, document=id_doc("EA3333333"))
    add(
        tournament,
        "entry.busted",
        {"entry": entry.number, "name": LONG, "place": 57, "place_low": 57, "entries": [entry.number], "table": 12, "seat": 4},
    )
    add(
        tournament,
        "move.created",
        {
            "kind": "balance",
            "entries": [entry.number],
            "tables": [3, 12],
            "moves": [
                {
                    "entry": entry.number,
                    "name": LONG,
                    "from": {"table": 3, "seat": 2},
                    "to": {"table": 12, "seat": 9},
                    "created_at": "2026-11-25T13:05:00+00:00",
                    "status": "pending",
                }
            ],
        },
    )
    add(tournament, "draw.committed", {"draw": 1, "commitment": "f" * 64})
    add(
        tournament,
        "seating.drawn",
        {
            "draw": 1,
            "kind": "start",
            "commitment": "a" * 64,
            "seed": "b" * 64,
            "seated": 180,
            "entries": list(range(1, 181)),
            "seats": [{"entry": n, "table": n // 9 + 1, "seat": n % 9 + 1} for n in range(1, 181)],
        },
    )
    add(tournament, "table.positions", {"table": 12, "positions": {"button": 3, "small_blind": 4, "big_blind": 5}})
    return entry


def overflow(page) -> int:
    return page.evaluate("document.documentElement.scrollWidth - window.innerWidth")


@pytest.mark.parametrize("width, height", [(1180, 820), (1440, 900)])
def test_the_log_fits_the_screen_and_reads_in_words(live_asgi, browser, floor, tournament, varied, width, height):
    ctx = browser.new_context(viewport={"width": width, "height": height})
    page = ctx.new_page()
    login(page, live_asgi, floor.username, PASSWORD)
    page.goto(f"{live_asgi}/t/{tournament.pk}/events/")
    page.wait_for_selector("#events li[data-seq]")
    text = page.inner_text("#events")
    assert f"Table 12 seat 4: {LONG} (#{varied.number}) busted, 57th" in text
    assert "Table 12: button seat 3, blinds seats 4 and 5" in text
    assert '{"' not in text
    assert overflow(page) <= 0
    for summary in page.query_selector_all("#events summary"):  # every detail open: still no sideways scroll
        summary.click()
    assert page.is_visible("#events dl.event-details")
    assert overflow(page) <= 0, f"{overflow(page)} px too wide with the details open"
    ctx.close()


def test_a_new_event_arrives_live_in_words(live_asgi, browser, floor, cashier, tournament, varied):
    ctx = browser.new_context(viewport={"width": 1180, "height": 820})
    page = ctx.new_page()
    login(page, live_asgi, floor.username, PASSWORD)
    page.goto(f"{live_asgi}/t/{tournament.pk}/events/")
    page.wait_for_function("document.getElementById('live').textContent.trim() === 'live'")
    newcomer = registration.create_player(actor=cashier, first_name="Tomáš", last_name="Dvořák", date_of_birth=date(1991, 1, 1))
    entry = registration.register_entry(tournament, actor=cashier, player=newcomer, document=id_doc("EA4444444"))
    page.wait_for_selector(f"#events li.new >> text=Tomáš Dvořák (#{entry.number}) registered")
    assert overflow(page) <= 0
    ctx.close()
