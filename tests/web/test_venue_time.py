"""Times in the venue's time zone on every page, dates and times in the format of
the visitor's language (24-hour clock; Czech and Slovak "25. 11. 2026 19:00")."""

from __future__ import annotations

from datetime import UTC, datetime
from zoneinfo import ZoneInfo

import pytest
from django.test import Client
from django.utils import formats, translation

from tables.models import Draw
from tables.services import draws
from tables.services import setup as table_setup
from tests.conftest import tournament_data
from tests.helpers import id_doc
from tournament.models import Structure
from tournament.services import registration, setup

PRAGUE = ZoneInfo("Europe/Prague")
SEVEN_PM_PRAGUE = datetime(2026, 11, 25, 19, 0, tzinfo=PRAGUE)  # 18:00 UTC


def page_client(user, lang: str) -> Client:
    """A page client, logged in as `user`, asking for `lang`."""
    c = Client(HTTP_ACCEPT_LANGUAGE=lang)
    c.force_login(user)
    return c


@pytest.fixture
def prague(director, template):
    return setup.create_tournament(
        tournament_data(name="Prague Friday", time_zone="Europe/Prague", start_at=SEVEN_PM_PRAGUE), actor=director, template=template
    )


@pytest.mark.parametrize(
    ("lang", "short", "long"),
    [
        ("cs", "25. 11. 2026 19:00", "25. listopadu 2026 19:00"),
        ("sk", "25. 11. 2026 19:00", "25. novembra 2026 19:00"),  # the month in the genitive (locale/sk)
        ("en-gb", "25/11/2026 19:00", "25 Nov 2026, 19:00"),
    ],
)
def test_the_formats_of_each_language_use_the_24_hour_clock(lang, short, long):
    at = datetime(2026, 11, 25, 19, 0)
    with translation.override(lang):
        assert formats.date_format(at, "SHORT_DATETIME_FORMAT") == short
        assert formats.date_format(at, "DATETIME_FORMAT") == long


@pytest.mark.parametrize(
    ("lang", "long", "month_day"),
    [("cs", "1. května 2026", "1. května"), ("sk", "1. mája 2026", "1. mája"), ("en-gb", "1 May 2026", "1 May")],
)
def test_a_long_date_puts_the_month_as_a_date_is_written(lang, long, month_day):
    with translation.override(lang):
        assert formats.date_format(datetime(2026, 5, 1, 19, 0)) == long
        assert formats.date_format(datetime(2026, 5, 1, 19, 0), "MONTH_DAY_FORMAT") == month_day


@pytest.mark.parametrize(("lang", "shown"), [("cs", "25. listopadu 2026 19:00"), ("en-gb", "25 Nov 2026, 19:00")])
def test_the_home_list_shows_each_start_in_its_own_venue_zone(director, template, prague, lang, shown):
    # A list may mix zones: the other tournament starts at 18:00 UTC too, 19:00 in Bratislava as in Prague,
    # and a third at 18:00 UTC in London (18:00 there).
    setup.create_tournament(
        tournament_data(name="London", time_zone="Europe/London", start_at=datetime(2026, 11, 25, 18, 0, tzinfo=UTC)),
        actor=director,
        template=template,
    )
    page = page_client(director, lang).get("/").content.decode()
    assert shown in page
    assert "18:00 (Europe/London)" in page
    assert "p.m." not in page and "6 odp." not in page


def test_the_structures_list_shows_the_default_venue_zone_in_czech(director, template, settings):
    settings.VENUE_TIME_ZONE = "Europe/Prague"
    Structure.objects.filter(pk=template.pk).update(updated_at=datetime(2026, 11, 25, 18, 0, tzinfo=UTC))
    page = page_client(director, "cs").get("/setup/structures/").content.decode()
    assert "25. 11. 2026 19:00" in page
    english = page_client(director, "en-gb").get("/setup/structures/").content.decode()
    assert "25/11/2026 19:00" in english


@pytest.fixture
def drawn_in_prague(director, cashier, prague):
    table_setup.open_table(prague, actor=director, number=1, seats=9)
    for i in range(3):
        player = registration.create_player(actor=cashier, first_name=f"P{i}", last_name="Test", date_of_birth=datetime(1990, 1, 1).date())
        registration.register_entry(prague, actor=cashier, player=player, document=id_doc(f"EA{i:07d}"))
    draw = draws.draw_start(prague, actor=director)
    Draw.objects.filter(pk=draw.pk).update(drawn_at=datetime(2026, 11, 25, 18, 5, tzinfo=UTC))  # 19:05 in Prague
    return draw


@pytest.mark.parametrize(
    ("lang", "short", "long"),
    [("cs", "25. 11. 2026 19:05", "25. listopadu 2026 19:05"), ("en-gb", "25/11/2026 19:05", "25 Nov 2026, 19:05")],
)
def test_the_public_draw_pages_show_the_venue_time(prague, drawn_in_prague, lang, short, long):
    visitor = Client(HTTP_ACCEPT_LANGUAGE=lang)
    listed = visitor.get(f"/s/{prague.pk}/draws/").content.decode()
    assert short in listed
    detail = visitor.get(f"/s/{prague.pk}/draws/{drawn_in_prague.number}/").content.decode()
    assert long in detail
