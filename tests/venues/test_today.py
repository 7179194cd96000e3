"""The players' page of the day (/today/): today's events with their state, and one seat search over every
tournament running now; no login, names, tables and seats only."""

from __future__ import annotations

from datetime import datetime, time, timedelta
from zoneinfo import ZoneInfo

from django.test import Client
from django.utils import timezone

from tables.selectors.state import live_seats
from tables.services import busts, draws
from tests.conftest import tournament_data
from tests.helpers import open_tables, register, text
from tournament.services import setup


def test_today_lists_the_days_events_and_finds_a_seat_in_any_running_one(director, cashier, floor, template):
    zone = ZoneInfo("Europe/Bratislava")  # the events' time zone (tournament_data)
    today = timezone.now().astimezone(zone).date()

    def at(hour: int, days: int = 0) -> datetime:
        return datetime.combine(today + timedelta(days=days), time(hour), tzinfo=zone)

    def event(name: str, start: datetime):
        return setup.create_tournament(tournament_data(name=name, start_at=start), actor=director, template=template)

    main, side, later = event("Main Event", at(10)), event("Side Event", at(12)), event("Evening Turbo", at(23))
    event("Last Week", at(10, days=-7))
    open_tables(director, main, [1])
    register(cashier, main, 6)
    draws.draw_start(main, actor=director)
    open_tables(director, side, [2])
    register(cashier, side, 4, start=6)  # P6 ... P9
    draws.draw_start(side, actor=director)
    busts.bust_entry(live_seats(side).first().entry, actor=floor)
    client = Client()  # a player's phone: no login
    page = client.get("/today/")
    assert page.status_code == 200
    words = text(page.content.decode())
    assert "Main Event" in words and "Side Event" in words and "Evening Turbo" in words and "Last Week" not in words
    assert "Level 1 · 6 players left" in words and "Level 1 · 3 players left" in words and "Not started yet" in words
    assert words.index("Main Event") < words.index("Side Event") < words.index("Evening Turbo")  # by start time
    found = text(client.get("/today/", {"q": "p7"}).content.decode())
    assert "Side Event · #2 · P7 Test" in found
    everywhere = client.get("/today/", {"q": "test"}).content.decode()
    assert everywhere.count(f"/s/{main.pk}/") >= 6 and f"/s/{side.pk}/" in everywhere  # both running events searched
    assert f"/s/{later.pk}/" in everywhere  # the event not started yet: its seat search, from its line
    nobody = text(client.get("/today/", {"q": "zz"}).content.decode())
    assert "Nobody found in the events running now" in nobody
