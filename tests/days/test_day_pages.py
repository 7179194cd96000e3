"""The end of a day's pages (web/days/views.py): the day page (where the day stands, the bags missing by table and
seat with names, the bags against the chips in play, the clock's line for the day; the close form for the director
only; a closed day's record), the day's report sorted by stack as a page, CSV (for Czech Excel: BOM, ";") and PDF,
and the bag slips (80 mm: one slip a page; A4: six). Only the floor and the director reach them; bad query
parameters are a 400 with a message, a day not played a 404."""

from __future__ import annotations

import csv
import io
import re
from zoneinfo import ZoneInfo

import pytest

from clock.services import clock as clock_services
from days.models import Bag
from days.services import bags as days_services
from tables.models import Table
from tests.days.test_bagging import STACK, even
from tests.helpers import page_as, pdf_pages
from tests.tables.test_penalty_api import at_table
from tournament.models import Player

PAGES = ("day/", "day/report/", "day/report.csv", "day/report.pdf", "day/slips.pdf")


def bag(t, actor, number: int, chips: int = STACK, prefix: str | None = None):
    return days_services.record_table_bags(Table.objects.get(tournament=t, number=number), actor=actor, bags=even(t, number, chips, prefix))


def named(t, number: int, first: str, last: str) -> None:
    """Give the first player at a table a Czech name (the report and the slips must carry its letters)."""
    player = Player.objects.get(pk=at_table(t, number)[0].player_id)
    player.first_name, player.last_name = first, last
    player.save()


@pytest.mark.django_db
def test_only_the_floor_and_the_director_reach_the_pages(t, floor, director, cashier, dealer):
    bag(t, floor, 1)
    for path in PAGES:
        for user in (cashier, dealer, None):
            assert page_as(user, f"/t/{t.pk}/{path}").status_code in (302, 403), (path, user)
        for user in (floor, director):
            assert page_as(user, f"/t/{t.pk}/{path}").status_code == 200, (path, user)
    assert f'href="/t/{t.pk}/day/"' in page_as(floor, f"/t/{t.pk}/").content.decode()  # the nav's link
    assert f'href="/t/{t.pk}/day/"' not in page_as(cashier, f"/t/{t.pk}/").content.decode()


@pytest.mark.django_db
def test_the_day_page_shows_the_bags_missing_by_table_and_seat_and_the_totals(t, floor, director):
    bag(t, floor, 1)
    html = page_as(floor, f"/t/{t.pk}/day/").content.decode()
    assert "Day 1" in html and "6 of 12" in html and "120,000" in html and "240,000" in html
    assert "6 bags missing" in html  # the difference waits for every bag
    missing = html[html.index('id="day-missing"') : html.index('id="day-tables"')]
    assert "Table 2" in missing and "Table 1" not in missing
    for entry in at_table(t, 2):
        assert entry.player.display_name in missing and f"#{entry.number}" in missing
    assert 'id="close-form"' not in html  # the floor sees where the day stands; the director closes it
    assert f"/t/{t.pk}/day/slips.pdf?paper=80mm&amp;day=1&amp;table=1" in html  # table 1's slips
    assert "table=2" not in html  # no bag at table 2 yet: no slips to print

    director_html = page_as(director, f"/t/{t.pk}/day/").content.decode()
    assert 'id="close-form"' in director_html and 'aria-required="true"' in director_html
    assert "Bags are missing: closing now needs the reason." in director_html

    bag(t, floor, 2, chips=STACK + 100)
    html = page_as(director, f"/t/{t.pk}/day/").content.decode()
    assert "600 more than in play: recount" in html and "Every player still in is bagged." in html
    assert "The bags do not add up to the chips in play: closing now needs the reason." in html
    bag(t, floor, 2, prefix="U2-")  # recounted
    html = page_as(director, f"/t/{t.pk}/day/").content.decode()
    assert "none: the bags add up" in html and 'aria-required="true"' not in html
    assert "the day can close" in html


@pytest.mark.django_db
def test_the_clock_line_says_after_which_level_the_day_ends(t, floor, director):
    clock = page_as(floor, f"/t/{t.pk}/day/").content.decode()
    assert "No end of the day is set on the clock." in clock and "Not started" in clock
    clock_services.start_clock(t, actor=director)
    clock_services.set_day_end(t, actor=director, level=4)
    html = page_as(floor, f"/t/{t.pk}/day/").content.decode()
    assert "Day ends after level 4." in html and "Running" in html and "level 1" in html


@pytest.mark.django_db
def test_a_closed_day_shows_its_record_and_the_report_defaults_to_it(t, floor, director):
    bag(t, floor, 1)
    days_services.close_day(t, actor=director, reason="Table 2 bagged on paper: the tablet was down")
    html = page_as(floor, f"/t/{t.pk}/day/").content.decode()
    assert "Day 2" in html  # the next day plays
    record = html[html.index('id="dy-record-1"') :]
    assert "Table 2 bagged on paper" in record and director.username in record
    assert all(f"#{e.number}" in record for e in at_table(t, 2))  # the missing, by entry
    assert f"/t/{t.pk}/day/report/?day=1" in record
    report = page_as(floor, f"/t/{t.pk}/day/report/").content.decode()  # day 2 has no bag: the night's report
    assert "Day 1 report" in report and "Table 2 bagged on paper" in report
    when = Bag.objects.filter(tournament=t).first().bagged_at.astimezone(ZoneInfo(t.time_zone))
    assert f"{when:%H:%M}" in report  # in the venue's time
    assert page_as(floor, f"/t/{t.pk}/day/report/?day=2").content.decode().count("No bag yet.") == 1
    assert page_as(floor, f"/t/{t.pk}/day/report/?day=3").status_code == 404
    assert page_as(floor, f"/t/{t.pk}/day/report/?day=x").status_code == 400


@pytest.mark.django_db
def test_the_report_is_sorted_by_stack_and_its_csv_opens_in_czech_excel(t, floor):
    named(t, 1, "Řehoř", "Žluťoučký")
    bags = even(t, 1)
    seats = sorted(bags)
    bags[seats[0]] = (55_000, "-17")  # a bag number a spreadsheet would take for a number, or a formula
    bags[seats[1]] = (5_000, "B2")
    days_services.record_table_bags(Table.objects.get(tournament=t, number=1), actor=floor, bags=bags)
    html = page_as(floor, f"/t/{t.pk}/day/report/").content.decode()
    rows = re.findall(r'<tr data-entry="(\d+)">', html)
    first, second = at_table(t, 1)[:2]
    assert rows[0] == str(first.number) and rows[-1] == str(second.number) and len(rows) == 6
    assert "Řehoř Žluťoučký" in html and "55,000" in html and "140,000" in html  # the total
    assert f"/t/{t.pk}/day/slips.pdf?paper=80mm&amp;day=1&amp;entry={first.number}" in html

    answer = page_as(floor, f"/t/{t.pk}/day/report.csv")
    assert answer["Content-Type"] == "text/csv; charset=utf-8" and "attachment" in answer["Content-Disposition"]
    raw = answer.content
    assert raw.startswith("\ufeff".encode())  # the BOM: Excel reads UTF-8
    table = list(csv.reader(io.StringIO(raw.decode("utf-8-sig")), delimiter=";"))
    assert table[0][:3] == ["Rank", "Player", "Entry number"] and len(table) == 7
    assert table[1][:3] == ["1", "Řehoř Žluťoučký", str(first.number)] and table[1][5] == "'-17"
    assert table[1][6] == "55000" and table[-1][6] == "5000"
    assert re.fullmatch(r"\d{4}-\d\d-\d\d \d\d:\d\d", table[1][8]) and table[1][9] == floor.username


@pytest.mark.django_db
def test_the_report_pdf_and_the_bag_slips(t, floor):
    named(t, 1, "Řehoř", "Žluťoučký")
    bag(t, floor, 1)
    bag(t, floor, 2)
    report = page_as(floor, f"/t/{t.pk}/day/report.pdf")
    assert report["Content-Type"] == "application/pdf" and report.content.startswith(b"%PDF")
    assert pdf_pages(report.content) == 1

    room_80 = page_as(floor, f"/t/{t.pk}/day/slips.pdf?paper=80mm")
    assert room_80.content.startswith(b"%PDF") and pdf_pages(room_80.content) == 12  # one slip a page
    assert pdf_pages(page_as(floor, f"/t/{t.pk}/day/slips.pdf").content) == 12  # 80 mm by default
    assert pdf_pages(page_as(floor, f"/t/{t.pk}/day/slips.pdf?paper=a4").content) == 2  # six a page
    assert pdf_pages(page_as(floor, f"/t/{t.pk}/day/slips.pdf?paper=80mm&table=2").content) == 6
    one = page_as(floor, f"/t/{t.pk}/day/slips.pdf?entry={at_table(t, 1)[0].number}")
    assert one.status_code == 200 and pdf_pages(one.content) == 1
    assert b"DejaVu" in one.content  # the font with every Czech and Slovak letter, embedded

    assert page_as(floor, f"/t/{t.pk}/day/slips.pdf?paper=a5").status_code == 400
    assert "80mm" in page_as(floor, f"/t/{t.pk}/day/slips.pdf?paper=a5").content.decode()
    assert page_as(floor, f"/t/{t.pk}/day/slips.pdf?table=two").status_code == 400
    assert page_as(floor, f"/t/{t.pk}/day/slips.pdf?entry=999").status_code == 404
    assert page_as(floor, f"/t/{t.pk}/day/slips.pdf?day=5").status_code == 404
    empty = page_as(floor, f"/t/{t.pk}/day/slips.pdf?table=9")  # no bag there: one page that says so
    assert empty.status_code == 200 and pdf_pages(empty.content) == 1
