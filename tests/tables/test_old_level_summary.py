"""The tables page counts the tables still on the old level, in words and with their numbers
("1 table still plays the old level: 1."), not "Tables still on the old level: 1." (a table number?)."""

from __future__ import annotations

from django.test import Client

from clock.services import clock
from tables.services import hands
from tables.services import setup as table_setup
from tests.tables.test_views import STATIC_JS


def page_for(user, lang: str = "en-gb") -> str:
    c = Client(HTTP_ACCEPT_LANGUAGE=lang)
    c.force_login(user)
    return c.get(f"/t/{user.tournament_pk}/tables/").content.decode()


def test_the_summary_counts_the_tables_on_the_old_level_and_names_them(director, floor, dealer, tournament):
    tables = {n: table_setup.open_table(tournament, actor=director, number=n)[0] for n in (1, 2, 3, 4)}
    clock.start_clock(tournament, actor=director)
    for n in (1, 3):
        hands.start_hand(tables[n], actor=dealer)
    floor.tournament_pk = tournament.pk
    assert "every table plays the announced level" in page_for(floor)

    clock.step_level(tournament, actor=director, step=1)  # tables 1 and 3 are mid-hand at level 1
    page = page_for(floor)
    assert "2 tables still play the old level: 1, 3. Each changes at its next shuffle." in page
    assert "Tables still on the old level" not in page

    hands.start_hand(tables[3], actor=dealer)
    page = page_for(floor)
    assert "1 table still plays the old level: 1. It changes at its next shuffle." in page
    # the live script has the sentence for every count (ngettext, Django's JavaScript catalogue in the page's language)
    assert (
        'ngettext("{n} table still plays the old level: {tables}. It changes at its next shuffle.",'
        in (STATIC_JS / "tables.js").read_text()
    )
