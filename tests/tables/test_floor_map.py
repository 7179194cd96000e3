"""The floor map's read model at festival scale: truthful statuses (an empty table in play is
"empty", never "short"), the level each table plays (the filter "still on the previous level"), and the
A4 seat cards nine to a page."""

from __future__ import annotations

import re

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from tables.models import HouseRules, Seat, Table
from tables.selectors import screens, seat_cards
from tables.services import draws
from tables.services import setup as table_setup
from tests.helpers import logged_in, open_tables, register
from tests.tables.test_views import STATIC_JS

pytestmark = pytest.mark.django_db


def status_of(t, number: int) -> str:
    return next(row for row in screens.floor_map(t)["tables"] if row["table"] == number)["status"]


def test_an_empty_table_in_play_is_empty_not_short(director, cashier, tournament):
    open_tables(director, tournament, [1, 2, 3])
    assert {row["status"] for row in screens.floor_map(tournament)["tables"]} == {"empty"}  # before the draw
    register(cashier, tournament, 14)
    draws.draw_start(tournament, actor=director)
    table_setup.open_table(tournament, actor=director, number=4, seats=9)
    assert status_of(tournament, 4) == "empty"
    # A table with players, 2 fewer than the fullest: short (balancing brings it a player).
    counts = {row["table"]: row["players"] for row in screens.floor_map(tournament)["tables"]}
    fullest = max(counts, key=counts.get)
    other = next(n for n in (1, 2, 3) if n != fullest)
    seats = Seat.objects.filter(table__tournament=tournament, table__number=other, ended_at__isnull=True)
    Seat.objects.filter(pk__in=list(seats.values_list("pk", flat=True))[:2]).update(ended_at=timezone.now())
    assert status_of(tournament, other) == "short" and status_of(tournament, 4) == "empty"
    # The house's threshold decides: with 3, two fewer is not short yet.
    HouseRules.objects.update_or_create(tournament=tournament, defaults={"balance_threshold": 3})
    assert status_of(tournament, other) == "open"


def test_each_table_says_the_level_it_plays_and_whether_it_is_behind_the_clock(director, cashier, tournament):
    open_tables(director, tournament, [1, 2])
    register(cashier, tournament, 10)
    draws.draw_start(tournament, actor=director)
    tournament.current_level = 2
    tournament.save(update_fields=["current_level"])
    Table.objects.filter(tournament=tournament, number=1).update(sends_hand_signals=True, hand_level_index=0)
    rows = {row["table"]: row for row in screens.floor_map(tournament)["tables"]}
    assert (rows[1]["level"], rows[1]["on_old_level"]) == (1, True)
    assert (rows[2]["level"], rows[2]["on_old_level"]) == (2, False)
    assert all(row["level"] == 2 and not row["on_old_level"] for row in screens.tables_overview(tournament) if row["table"] == 2)


def test_the_map_reads_the_levels_in_a_constant_number_of_queries(director, cashier, tournament):
    open_tables(director, tournament, range(1, 13))
    register(cashier, tournament, 40)
    draws.draw_start(tournament, actor=director)
    with CaptureQueriesContext(connection) as few:
        screens.floor_map(tournament)
    Table.objects.filter(tournament=tournament).update(sends_hand_signals=True, hand_level_index=0)
    for n in range(13, 40):
        table_setup.open_table(tournament, actor=director, number=n, seats=9)
    with CaptureQueriesContext(connection) as many:
        screens.floor_map(tournament)
    assert len(few.captured_queries) == len(many.captured_queries) <= 8


def pages(pdf: bytes) -> int:
    return len(re.findall(rb"/Type\s*/Page[^s]", pdf))


def test_a4_seat_cards_put_nine_cards_on_a_page_and_80mm_one(director, cashier, floor, tournament):
    open_tables(director, tournament, [1, 2])
    register(cashier, tournament, 12)
    draws.draw_start(tournament, actor=director)
    rows = seat_cards.seat_cards(tournament, url=lambda n: f"https://example.test/s/{n}/")
    assert len(rows) == 12
    assert pages(seat_cards.seat_cards_pdf(tournament, rows, paper="a4")) == 2
    assert pages(seat_cards.seat_cards_pdf(tournament, rows)) == 12
    assert pages(seat_cards.seat_cards_pdf(tournament, [], paper="a4")) == 1
    answer = logged_in(floor).get(f"/t/{tournament.pk}/seat-cards/?format=pdf&paper=a4")
    assert answer["Content-Type"] == "application/pdf" and pages(answer.content) == 2


def test_the_map_page_carries_the_tools_and_no_card_per_table(director, cashier, floor, tournament):
    open_tables(director, tournament, [1, 2])
    page = logged_in(floor).get(f"/t/{tournament.pk}/map/").content.decode()
    for control in (
        'id="map-section"',
        'id="map-search"',
        'id="map-goto"',
        'value="short"',
        'value="halted"',
        'value="slips"',
        'value="old"',
    ):
        assert control in page, control
    assert 'for="map-section"' in page and 'for="map-search"' in page and 'for="map-goto"' in page
    script = (STATIC_JS / "map" / "words.js").read_text()  # the map's words: gettext, Django's JavaScript catalogue
    assert 'gettext("Draw the button")' in script and "Balancing needs the button of table {n}" in script
    assert 'class="m-table' not in page  # the script draws one section; the HTML does not carry 1,112 cards
