"""The end of a day's pages: the day page (where the day stands: the clock, the players still
in, the bags missing by table and seat, the bags against the chips in play; the director closes the day there
through the JSON API, web/days/api.py), the day's report sorted by stack (page, CSV, PDF) and the bag slips (PDF,
80 mm or A4). The pages only read (days/selectors/bags.py); the few reads of their own are here: the clock's line for
the day, the missing bags grouped by table, and the report's default day."""

from __future__ import annotations

import csv
import io
from datetime import datetime

from django.http import Http404, HttpResponse, HttpResponseBadRequest
from django.shortcuts import render
from django.utils import formats, timezone
from django.utils.translation import gettext as _

from clock.models import ClockState
from clock.selectors.clock import clock_snapshot
from core import access
from days.selectors import bags
from days.selectors.seating import redraw_state
from tournament.models import Tournament
from web.access import page
from web.tournament.views import in_venue_time
from web.venues import printing

from . import pdf

PAPERS = ("80mm", "a4")
# Czech and Slovak Excel split a CSV opened by a double click at the system's list separator, ";" (their decimal
# separator is the comma); a byte order mark makes it read UTF-8 (without it "Řehoř" opens as "Å˜ehoÅ™").
CSV_DELIMITER = ";"
BOM = "\ufeff"
FORMULA_START = ("=", "+", "-", "@", "\t", "\r")  # a spreadsheet would run a cell starting so as a formula


class BadQuery(Exception):
    """A query parameter that is not what the page takes: answered 400 with the message."""


def _bad(message: str) -> HttpResponseBadRequest:
    return HttpResponseBadRequest(message, content_type="text/plain; charset=utf-8")


def _number(request, name: str) -> int | None:
    """A whole number of the query (?table=3), None when left out; BadQuery when it is not one."""
    value = request.GET.get(name, "").strip()
    if not value:
        return None
    if not value.isdigit() or not 1 <= int(value) <= 100_000:
        raise BadQuery(_("“%(name)s” must be a whole number from 1, not “%(value)s”.") % {"name": name, "value": value[:20]})
    return int(value)


def clock_line(t: Tournament) -> dict:
    """The clock as the day page says it: its status (words), the level or break in force, the level after which
    the day ends (set by the director), the level it stopped after, and when it resumes by itself."""
    snap = clock_snapshot(t)
    rows, current = snap.get("rows") or [], snap.get("current")
    level = on_break = None
    if current and rows:
        on_break = rows[current["index"]]["kind"] != "level"
        level = rows[current["level_index"]]["number"] if current["level_index"] is not None else None
    resume = datetime.fromisoformat(snap["resume_at"]) if snap.get("resume_at") else None
    return {
        "status": snap["status"],
        "status_label": ClockState.Status(snap["status"]).label,
        "running": snap["status"] == ClockState.Status.RUNNING,
        "level": level,
        "on_break": bool(on_break),
        "day_end_after": snap.get("day_end_after_level"),
        "day_ended": snap.get("day_ended_level"),
        "resume_at": resume,
    }


def missing_by_table(missing: list[dict]) -> list[dict]:
    """The players still in with no bag, grouped by table ({table, players}), the unseated (table None) last."""
    groups: dict = {}
    for player in missing:
        groups.setdefault(player["table"], []).append(player)
    return [{"table": table, "players": groups[table]} for table in sorted(groups, key=lambda n: (n is None, n or 0))]


def bags_by_table(rows: list[dict]) -> list[dict]:
    """The day's bags by table ({table, bags, total}), for the slips' links."""
    tables: dict[int, dict] = {}
    for row in rows:
        at = tables.setdefault(row["table"], {"table": row["table"], "bags": 0, "total": 0})
        at["bags"] += 1
        at["total"] += row["chips"]
    return [tables[n] for n in sorted(tables)]


@page("day")
@in_venue_time
def day_page(request, tournament: Tournament):
    state = bags.day_state(tournament)
    # Until the next day's play begins, the bags and slips shown are the closed day's (a flight's, for good: its
    # players go on to the event's Day 2).
    # An event's Day 2 before its play: its first day, not begun (no day before it here: its bags came carried).
    shown = state["day"] if (state["begun"] or state["day"] == 1) and not state["elsewhere"] else state["day"] - 1
    report = bags.day_report(tournament, shown) or {"rows": []}
    return render(
        request,
        "days/day.html",
        {
            "t": tournament,
            "state": state,
            "shown_day": shown,
            "clock": clock_line(tournament),
            "shown_as": shown + state["offset"],
            "day_as": state["day"] + state["offset"],
            "missing": missing_by_table(state["missing"]),
            "tables": bags_by_table(report["rows"]),
            "may_close": access.may(request.user, "api-day-close:POST", tournament.pk),
            "redraw": redraw_state(tournament),
            "may_redraw": access.may(request.user, "api-day-redraw:POST", tournament.pk),
        },
    )


def report_of(t: Tournament, request) -> dict:
    """The report of ?day=N; without it the current day's, or the day closed last while the current one has no bag
    yet (the morning after a close, the report wanted is the night's). BadQuery, Http404 for a day not played."""
    day = _number(request, "day")
    if day is None:
        report = bags.day_report(t)
        if not report["rows"] and report["day"] > 1:
            report = bags.day_report(t, report["day"] - 1)
        return report
    report = bags.day_report(t, day)
    if report is None:
        raise Http404(_("Day %(day)s has not been played yet.") % {"day": day})
    return report


@page("day-report")
@in_venue_time
def day_report_page(request, tournament: Tournament):
    try:
        report = report_of(tournament, request)
    except BadQuery as problem:
        return _bad(str(problem))
    return render(request, "days/report.html", {"t": tournament, "report": report, "days": range(1, bags.current_day(tournament) + 1)})


def csv_text(value) -> str:
    """A cell as a spreadsheet shows it, never as a formula it would run ('=1+1' -> "'=1+1")."""
    text = str(value)
    return "'" + text if text.startswith(FORMULA_START) else text


def report_csv(report: dict) -> str:
    """The report as CSV for Czech and Slovak Excel: a byte order mark, ";" between cells, the header in the active
    language, a row per bag (largest first); big blinds with the language's decimal separator, chips as plain
    digits, times as "2026-11-25 23:40" in the venue's zone (each read as a number or a time by Excel)."""
    out = io.StringIO()
    out.write(BOM)
    writer = csv.writer(out, delimiter=CSV_DELIMITER)
    writer.writerow(
        [
            _("Rank"),
            _("Player"),
            _("Entry number"),
            _("Table"),
            _("Seat"),
            _("Bag"),
            _("Chips"),
            _("Big blinds"),
            _("Bagged at"),
            _("Bagged by"),
        ]
    )
    point = formats.get_format("DECIMAL_SEPARATOR")
    for row in report["rows"]:
        bb = row["big_blinds"]
        writer.writerow(
            [
                row["rank"],
                csv_text(row["name"]),
                row["entry"],
                row["table"],
                row["seat"],
                csv_text(row["bag"]),
                row["chips"],
                "" if bb is None else f"{bb:.1f}".replace(".", point),
                timezone.localtime(row["bagged_at"]).strftime("%Y-%m-%d %H:%M"),
                csv_text(row["bagged_by"]),
            ]
        )
    return out.getvalue()


@page("day-report-csv")
@in_venue_time
def day_report_csv(request, tournament: Tournament):
    try:
        report = report_of(tournament, request)
    except BadQuery as problem:
        return _bad(str(problem))
    response = HttpResponse(report_csv(report), content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="day-{report["day"]}-report-{tournament.pk}.csv"'
    return response


@page("day-report-pdf")
@in_venue_time
def day_report_pdf(request, tournament: Tournament):
    try:
        report = report_of(tournament, request)
    except BadQuery as problem:
        return _bad(str(problem))
    response = HttpResponse(pdf.report_pdf(tournament, report), content_type="application/pdf")
    response["Content-Disposition"] = f'inline; filename="day-{report["day"]}-report-{tournament.pk}.pdf"'
    return response


@page("bag-slips")
@in_venue_time
def bag_slips(request, tournament: Tournament):
    """?paper=80mm (one slip a page, the default) or a4 (six a page); ?table=N, ?entry=N: that table's or that
    player's; ?day=N: a day's (the current one by default)."""
    paper = request.GET.get("paper", "80mm").strip().lower() or "80mm"
    if paper not in PAPERS:
        return _bad(_("The paper is “80mm” or “a4”, not “%(paper)s”.") % {"paper": paper[:20]})
    try:
        table, entry, day = _number(request, "table"), _number(request, "entry"), _number(request, "day")
    except BadQuery as problem:
        return _bad(str(problem))
    if day is not None and day > bags.current_day(tournament):
        raise Http404(_("Day %(day)s has not been played yet.") % {"day": day})
    rows = bags.bags_for_slips(tournament, table=table, entry=entry, day=day)
    if entry is not None and not rows:
        raise Http404(_("Entry #%(number)s has no bag this day.") % {"number": entry})
    day = day or bags.current_day(tournament)
    name = "-".join(
        ["bag-slips", str(tournament.pk), f"day{day}"] + ([f"table{table}"] if table else []) + ([f"entry{entry}"] if entry else [])
    )
    response = HttpResponse(pdf.bag_slips_pdf(tournament, rows, paper=paper, day=day, table=table), content_type="application/pdf")
    response["Content-Disposition"] = f'inline; filename="{name}.pdf"'
    return response


@page("bag-slip-sheets")
@in_venue_time
def bag_slip_sheets(request, tournament: Tournament):
    """The bag slips for the browser's print, laid out for the house's paper (or ?paper=80|58|a4): one a page on a
    roll, six a page on A4; ?table=N, ?entry=N, ?day=N as the PDF's. Each slip has the roll printer's button where the
    room has one."""
    try:
        paper = printing.paper_of(request, tournament)
        table, entry, day = _number(request, "table"), _number(request, "entry"), _number(request, "day")
    except printing.BadPaper as problem:
        return printing.bad_paper(problem)
    except BadQuery as problem:
        return _bad(str(problem))
    if day is not None and day > bags.current_day(tournament):
        raise Http404(_("Day %(day)s has not been played yet.") % {"day": day})
    rows = bags.bags_for_slips(tournament, table=table, entry=entry, day=day)
    for row in rows:
        row["where"], row["bagged"] = printing.slip_where(row), printing.bagged_line(row)
    day = day or bags.current_day(tournament)
    query = request.GET.copy()
    query.pop("paper", None)
    return render(
        request,
        "days/slips.html",
        {
            "t": tournament,
            "slips": rows,
            "day": day,
            "slip_day": day,
            "query": query.urlencode(),
            "table": table,
            "print_base": f"tournaments/{tournament.pk}/entries/",
            **printing.print_view(request, tournament, paper=paper, api="", who="api-bag-slip-print:POST"),
        },
    )
