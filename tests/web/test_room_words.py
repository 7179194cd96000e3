"""Words a room notices, on the server's pages: the event page shows a flight's start in its
venue's zone (a 12:00 Prague start is not 11:00), and the event log writes a disqualified player's chips with the
language's thousands separator (25,000; 25 000 in Czech)."""

from __future__ import annotations

import re
from datetime import UTC, datetime

import pytest
from django.test import Client

from tests.flights.test_flights import event_with, new_tournament
from tests.tables.test_disqualification import dq
from tests.tables.test_penalty_api import at_table
from tournament.models import Tournament


def page(user, path: str, lang: str = "en-gb") -> str:
    browser = Client()
    browser.force_login(user)
    return browser.get(path, HTTP_ACCEPT_LANGUAGE=lang).content.decode()


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("lang", "shown", "not_shown"), [("en-gb", "20/11/2026 12:00", "20/11/2026 11:00"), ("cs", "20. 11. 2026 12:00", "20. 11. 2026 11:00")]
)
def test_the_event_page_shows_start_times_in_the_venues_zone(director, template, lang, shown, not_shown):
    event, _flights = event_with(director, template, day2=False)
    chosen = new_tournament(director, template, "Main Event Day 1C")
    Tournament.objects.filter(pk=chosen.pk).update(
        start_at=datetime(2026, 11, 20, 11, 0, tzinfo=UTC), time_zone="Europe/Prague"
    )  # 12:00 in Prague
    html = page(director, f"/events/{event.pk}/", lang)
    assert f"Main Event Day 1C · {shown}" in html and not_shown not in html
    # A tournament of another venue shows its own zone's time.
    Tournament.objects.filter(pk=chosen.pk).update(time_zone="Europe/London")
    assert f"Main Event Day 1C · {not_shown}" in page(director, f"/events/{event.pk}/", lang)


@pytest.mark.django_db
@pytest.mark.parametrize(("lang", "chips"), [("en-gb", "25,000 chips"), ("cs", "25\xa0000 žetonů")])
def test_the_disqualification_line_groups_the_thousands(room, floor, lang, chips):
    offender = at_table(room, 1)[0]
    assert dq(floor, room, {"entry": offender.number, "chips": 25_000}).status_code == 201
    log = page(floor, f"/t/{room.pk}/events/?kind=penalties", lang)
    (line,) = [line for line in re.findall(r'<span class="line">([^<]*)</span>', log) if "Collusion" in line]
    assert chips in line and "25000" not in line, line
