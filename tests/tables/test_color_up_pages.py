"""The floor's color-up screens: the color-up page (breaks, the suggestion, the director's confirm, every
table's race), the printable result sheets with the players' names, and the floor map's race badges."""

from __future__ import annotations

import pytest

from tables.models import Table
from tables.selectors.color_ups import table_race
from tables.services import color_ups
from tests.helpers import logged_in
from tests.tables.test_color_up_api import counts, the_break


@pytest.fixture
def raced(room, director, floor):
    color_up = color_ups.confirm_color_up(room, actor=director, level=the_break(room))
    race = color_ups.record_race(Table.objects.get(tournament=room, number=1), actor=floor, color_up=color_up, seats=counts(room, 1))
    return race


def test_the_color_up_page_offers_the_director_the_confirm_and_the_suggestion(room, director, floor):
    page = logged_in(director).get(f"/t/{room.pk}/color-up/").content.decode()
    assert 'class="cu-confirm"' in page and "Confirm color-up" in page and 'id="cu-suggestion"' in page
    assert "the 25 chips can leave" in page
    page = logged_in(floor).get(f"/t/{room.pk}/color-up/").content.decode()
    assert 'class="cu-confirm"' not in page and "the director confirms it" in page


def test_the_page_and_the_sheets_show_each_tables_race(room, raced, floor):
    page = logged_in(floor).get(f"/t/{room.pk}/color-up/").content.decode()
    assert "the 25 chips leave, the smallest chip is now 100" in page and '"status": "recorded"' in page
    sheets = logged_in(floor).get(f"/t/{room.pk}/color-up/sheets/").content.decode()
    assert 'data-table="1"' in sheets and "recorded, to confirm" in sheets and "Cards dealt by the software" in sheets
    names = [player["name"] for player in table_race(raced.table)["players"]]
    assert names and all(name in sheets for name in names)
    for seat in raced.result["seats"]:
        for card in seat["cards"]:
            assert ("10" if card[0] == "T" else card[0]) in sheets
    assert 'data-table="1"' not in logged_in(floor).get(f"/t/{room.pk}/color-up/sheets/?table=2").content.decode()


def test_the_floor_map_shows_which_tables_have_raced(room, raced, floor):
    data = logged_in(floor).get(f"/api/tournaments/{room.pk}/map/").json()
    assert data["color_up"] == {"level": the_break(room), "leaving": [25], "new_chip": 100, "finished": 0, "total": 2, "difference": 0}
    races = {t["table"]: t["race"] for t in data["tables"] if t["in_play"]}
    assert races == {1: {"status": "recorded", "difference": raced.difference}, 2: {"status": "waiting", "difference": None}}
    color_ups.confirm_race(raced, actor=floor)
    data = logged_in(floor).get(f"/api/tournaments/{room.pk}/map/").json()
    assert data["color_up"]["finished"] == 1 and data["color_up"]["difference"] == raced.difference


def test_without_a_color_up_the_map_says_nothing_of_races(room, floor):
    data = logged_in(floor).get(f"/api/tournaments/{room.pk}/map/").json()
    assert data["color_up"] is None and all("race" not in t for t in data["tables"])
