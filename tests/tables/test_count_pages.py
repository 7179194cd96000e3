"""The chip counts' pages: the floor's page (the room's difference, each table's check with the seats not
counted and what the last table must hold, every stack with who counted it), only for the floor and the director; the
players' public page, searchable, gone while the house rule hides counts."""

from __future__ import annotations

from zoneinfo import ZoneInfo

import pytest

from tables.models import ChipCount, Table
from tables.services import counting, house_rules
from tests.helpers import page_as
from tests.tables.test_counting import even
from tests.tables.test_penalty_api import at_table


@pytest.mark.django_db
def test_the_floor_sees_the_difference_and_the_table_left_to_count(room, floor, cashier, dealer):
    t = room
    counts = even(t, 1)
    counts[min(counts)] = 20_500
    counting.record_table_counts(Table.objects.get(tournament=t, number=1), actor=floor, counts=counts)
    answer = page_as(floor, f"/t/{t.pk}/counts/")
    assert answer.status_code == 200
    html = answer.content.decode()
    assert "6 players not counted yet" in html and 'id="cc-table-2" class="cc-flagged"' in html
    assert "must hold 119,500; counted so far: 0" in html  # 240,000 in play less table 1's 120,500
    assert html.count("20,500") >= 1 and floor.username in html
    counting.record_table_counts(Table.objects.get(tournament=t, number=2), actor=floor, counts=even(t, 2))
    html = page_as(floor, f"/t/{t.pk}/counts/").content.decode()
    assert "500 more than in play: recount" in html and "cc-flagged" not in html
    assert "−500" not in html
    for user in (cashier, dealer, None):
        assert page_as(user, f"/t/{t.pk}/counts/").status_code in (302, 403)


@pytest.mark.django_db
def test_the_players_page_lists_and_finds_every_count_while_the_house_allows(room, floor, director):
    t = room
    counting.record_table_counts(Table.objects.get(tournament=t, number=1), actor=floor, counts=even(t, 1))
    empty = page_as(None, f"/s/{t.pk}/counts/")
    assert empty.status_code == 200 and empty.content.decode().count("<tr>") == 7  # the head and six stacks
    counted = ChipCount.objects.filter(tournament=t).first().counted_at.astimezone(ZoneInfo(t.time_zone))
    assert f"counted {counted:%H:%M}" in empty.content.decode()  # in the venue's time
    # A name that no other counted name starts with: the search finds by the start of each word, so "P1 Test" finds
    # "P12 Test" too (CI failed twice on a draw that seated both at table 1).
    seated = [e.player for e in at_table(t, 1)]
    name = next(p.display_name for p in seated if not any(o is not p and o.first_name.startswith(p.first_name) for o in seated))
    found = page_as(None, f"/s/{t.pk}/counts/?q={name}").content.decode()
    assert name in found and found.count("<tr>") == 2
    assert 'id="not-found"' in page_as(None, f"/s/{t.pk}/counts/?q=nobody").content.decode()
    assert 'id="chip-counts-link"' in page_as(None, f"/s/{t.pk}/").content.decode()  # from the seat finder
    house_rules.set_house_rules(t, actor=director, data={"public_chip_counts": False})
    assert page_as(None, f"/s/{t.pk}/counts/").status_code == 404
    assert 'id="chip-counts-link"' not in page_as(None, f"/s/{t.pk}/").content.decode()
