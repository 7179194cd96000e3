"""The dealer tablet's table state: pending move slips out and in, positions, halt and button flags."""

import json
from pathlib import Path

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from tables.models import Move, Table
from tables.selectors.screens import table_state
from tests.conftest import page_config
from tests.tables.test_moves import bust_at, seated, start

DEALER_JS = Path(__file__).resolve().parents[2] / "static" / "js" / "dealer.js"
DEALER_WORDS = DEALER_JS.parent / "dealer" / "words.js"


def state_of(user, tournament, number) -> dict:
    client = Client()
    client.force_login(user)
    client.get(reverse("dealer", args=[tournament.pk, number]))  # a Dealer login's tablet is bound to its table
    response = client.get(reverse("api-table-state", args=[tournament.pk, number]))
    assert response.status_code == 200
    return response.json()["table"]


@pytest.fixture
def slip(director, cashier, floor, tournament) -> Move:
    start(director, cashier, tournament, 20)  # three tables: 7, 7, 6
    counts = {t: len(s) for t, s in seated(tournament).items()}
    bust_at(floor, tournament, min(counts, key=lambda t: (counts[t], t)))
    (move,) = Move.objects.filter(tournament=tournament, status=Move.Status.PENDING).select_related(
        "entry__player", "from_table", "to_table"
    )
    return move


def test_a_pending_slip_is_out_at_the_donor_and_in_at_the_receiver(slip, dealer, tournament):
    donor = state_of(dealer, tournament, slip.from_table.number)
    receiver = state_of(dealer, tournament, slip.to_table.number)
    assert [s["move"] for s in donor["slips_out"]] == [slip.number] and donor["slips_in"] == []
    assert [s["move"] for s in receiver["slips_in"]] == [slip.number] and receiver["slips_out"] == []
    (out,) = donor["slips_out"]
    assert out["name"] == slip.entry.player.display_name and out["entry"] == slip.entry.number
    assert out["from"] == {"table": slip.from_table.number, "seat": slip.from_seat}
    assert out["to"] == {"table": slip.to_table.number, "seat": slip.to_seat}
    assert out["position"] == slip.position
    other = next(n for n in seated(tournament) if n not in (slip.from_table.number, slip.to_table.number))
    assert state_of(dealer, tournament, other)["slips_out"] == [] == state_of(dealer, tournament, other)["slips_in"]


def test_table_state_queries_do_not_grow_with_slips(slip, tournament):
    table = Table.objects.select_related("tournament").get(pk=slip.from_table_id)
    with CaptureQueriesContext(connection) as with_slip:
        table_state(table)
    Move.objects.filter(pk=slip.pk).update(status=Move.Status.CANCELLED)
    with CaptureQueriesContext(connection) as without:
        table_state(table)
    assert len(with_slip) == len(without)


def test_positions_after_a_button_draw(director, cashier, dealer, tournament):
    start(director, cashier, tournament, 20)
    number = min(seated(tournament))
    table = Table.objects.get(tournament=tournament, number=number)
    state = state_of(dealer, tournament, number)
    assert table.button_seat is not None
    assert state["positions"] == {
        "button": table.button_seat,
        "small_blind": table.small_blind_seat,
        "big_blind": table.big_blind_seat,
        "next": table.positions_next,
    }
    assert state["positions"]["button"] in seated(tournament)[number]


def test_halted_and_needs_button_reflect_the_table(director, cashier, dealer, tournament):
    start(director, cashier, tournament, 20)
    number = min(seated(tournament))
    state = state_of(dealer, tournament, number)
    assert state["halted"] is False and state["needs_button"] is False
    Table.objects.filter(tournament=tournament, number=number).update(halted=True, needs_button=True)
    state = state_of(dealer, tournament, number)
    assert state["halted"] is True and state["needs_button"] is True


def test_the_dealer_page_renders_for_a_dealer(slip, dealer, tournament):
    Table.objects.filter(pk=slip.from_table_id).update(halted=True, needs_button=True)
    client = Client()
    client.force_login(dealer)
    response = client.get(reverse("dealer", args=[tournament.pk, slip.from_table.number]))
    assert response.status_code == 200
    page = response.content.decode()
    assert 'id="slips-out"' in page and f"/ws/t/{tournament.pk}/tables/{slip.from_table.number}/" in page
    assert "HALT: wait for the floor to balance" in page and "The floor needs this table's button seat" in page
    assert 'id="halted" role="alert" hidden' not in page


def test_the_dealer_tablet_presses_go_to_the_api(slip, dealer, tournament):
    """Shuffle, "Hand done" and undo call the documented API (static/js/api.js); the tablet then
    reads its state from the API (tables/<n>/state/). The page brings the translated templates of the messages."""
    client = Client()
    client.force_login(dealer)
    number = slip.from_table.number
    page = client.get(reverse("dealer", args=[tournament.pk, number])).content.decode()
    urls = page_config(page, "dealer-config")
    assert urls["hand"] == f"/api/tournaments/{tournament.pk}/tables/{number}/hand/"
    assert urls["handDone"] == f"/api/tournaments/{tournament.pk}/tables/{number}/hand-done/"
    assert "js/dealer.js" in page and "api.del(handUrl" in DEALER_JS.read_text() and f'action="/t/{tournament.pk}/' not in page
    # The messages' words come from Django's JavaScript catalogue (gettext in dealer/words.js), in the page's language.
    assert 'gettext("Hand {hand} started.")' in DEALER_WORDS.read_text()
    assert 'gettext("Hand {hand} is undone.")' in DEALER_WORDS.read_text()
    assert 'src="/jsi18n/en-gb/"' in page
    assert 'id="dealer-feedback" data-api-say' in page
    czech = client.get(reverse("dealer", args=[tournament.pk, number]), HTTP_ACCEPT_LANGUAGE="cs").content.decode()
    assert 'src="/jsi18n/cs/"' in czech
    assert json.dumps("Handa {hand} začala.") in client.get("/jsi18n/cs/", HTTP_ACCEPT_LANGUAGE="cs").content.decode()
