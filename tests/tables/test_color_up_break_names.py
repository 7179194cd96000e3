"""A break is named as the structure and the clock number the levels around it, "the break after level 2",
never by its row in the structure ("Row 3 of the structure"): on the color-up page, its result sheets,
a race's public draw page, the API's refusals and the event log. The test
structure (tests/conftest.py BASIC_SPEC): level 1, level 2, the break (row 3), level 3, level 4."""

from __future__ import annotations

import re

from tables.models import Table
from tables.services import color_ups
from tests.helpers import client_for as api_client
from tests.helpers import logged_in
from tests.tables.test_color_up_api import counts, the_break
from tournament.models import AuditEvent, Level
from web.event_words import event_line

ROW = re.compile(r"\brows? \d|of the structure", re.IGNORECASE)


def test_the_color_up_page_and_the_sheets_name_the_break_after_its_level(room, director, floor):
    assert the_break(room) == 3
    page = logged_in(director).get(f"/t/{room.pk}/color-up/").content.decode()
    assert "Break after level 2" in page
    assert "Suggestion for the break after level 2: the 25 chips can leave" in page
    assert not ROW.search(page), ROW.search(page)
    color_up = color_ups.confirm_color_up(room, actor=director, level=the_break(room))
    race = color_ups.record_race(Table.objects.get(tournament=room, number=1), actor=floor, color_up=color_up, seats=counts(room, 1))
    page = logged_in(floor).get(f"/t/{room.pk}/color-up/").content.decode()
    assert "Color-up at the break after level 2: the 25 chips leave, the smallest chip is now 100" in page
    assert not ROW.search(page), ROW.search(page)
    sheets = logged_in(floor).get(f"/t/{room.pk}/color-up/sheets/").content.decode()
    assert "Color-up at the break after level 2: the 25 chips leave" in sheets and not ROW.search(sheets)
    draw = logged_in(None).get(f"/s/{room.pk}/draws/{race.draw.number}/").content.decode()
    assert "color-up at the break after level 2" in draw and not ROW.search(draw)


def test_the_api_refuses_a_row_that_is_no_break_in_the_floors_words(room, director):
    level_two = Level.objects.get(structure=room.structure, position=2)
    assert level_two.kind == Level.Kind.LEVEL
    answer = api_client(director).post(f"/api/tournaments/{room.pk}/color-ups/", {"level": 2}, format="json")
    assert answer.status_code == 400 and answer.json()["error"] == "not_a_break"
    assert answer.json()["detail"] == "Level 2 is not a break: color-ups happen at breaks."
    after = api_client(director).post(f"/api/tournaments/{room.pk}/color-ups/", {"level": 4}, format="json").json()
    assert after["detail"] == "Level 3 is not a break: color-ups happen at breaks."  # the row after the break
    missing = api_client(director).post(f"/api/tournaments/{room.pk}/color-ups/", {"level": 99}, format="json").json()
    assert missing["error"] == "not_a_break" and "of the structure" not in missing["detail"]


def test_the_event_log_names_the_break_after_its_level(room, director, floor):
    color_up = color_ups.confirm_color_up(room, actor=director, level=the_break(room))
    race = color_ups.record_race(Table.objects.get(tournament=room, number=1), actor=floor, color_up=color_up, seats=counts(room, 1))
    color_ups.confirm_race(race, actor=floor)
    lines = {
        event.type: event_line(event.type, event.payload, {})
        for event in AuditEvent.objects.filter(tournament=room, type__in=["colorup.confirmed", "race.recorded", "race.confirmed"])
    }
    assert lines["colorup.confirmed"].startswith("Color-up at the break after level 2 confirmed: the 25 chips leave")
    for kind in ("race.recorded", "race.confirmed"):
        assert "(color-up at the break after level 2)" in lines[kind], lines[kind]
    assert not any(ROW.search(line) for line in lines.values()), lines
    # An event written before the payload said which level the break follows still reads.
    old = event_line("colorup.confirmed", {"level": 3, "leaving": [25], "new_chip": 100}, {})
    assert old.startswith("Color-up at the break in row 3 confirmed")
