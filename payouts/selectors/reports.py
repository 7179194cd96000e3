"""The results as reports: every finishing place with its entry, name, prize and whether the prize is
paid, as CSV (a spreadsheet, the house's accounts) and as an A4 PDF (to print, sign off and file), with
the totals: prizes, paid, unpaid. The screens call these; bench/payouts.py times both at 10,000 rows."""

from __future__ import annotations

import csv
import io
from collections.abc import Iterable, Iterator
from typing import TextIO

from django.utils import formats, timezone
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from reportlab.lib.units import mm
from reportlab.pdfbase.pdfmetrics import stringWidth

from core.money import format_major
from core.pdf import HEAD_OTHER, MARGIN, PAGE_H, PAGE_W, ROW, SIZE, ListPages, fit, money
from payouts.models import Payment
from payouts.selectors import bounties as bounty_selectors
from payouts.selectors import structure
from tournament.models import Tournament

BOM = "\ufeff"  # Excel reads a CSV as UTF-8 only with it: without it, "Řehoř" opens as "Å˜ehoÅ™"
FORMULA_START = ("=", "+", "-", "@", "\t", "\r")  # a spreadsheet would run a cell starting so as a formula


def paid_receipts(t: Tournament) -> dict[int, int]:
    """Entry number -> the receipt number of its prize's payout (paid, not voided)."""
    return dict(Payment.objects.filter(tournament=t, status=Payment.Status.PAID).values_list("entry__number", "number"))


def results_report(t: Tournament) -> dict:
    """The results (payouts.selectors.structure.results) with each row's payout receipt (`receipt`: None when not
    paid), and the totals of the prizes: all, paid, unpaid, and the prizes of the places still in play. In a bounty
    event (`bounties`) each row also carries its knockouts and the bounties it won (payouts.selectors.bounties)."""
    state = structure.payout_state(t)
    receipts = paid_receipts(t)
    rows = [{**row, "receipt": receipts.get(row["entry"])} for row in structure.results(t, state)]
    report = {"rows": rows, "totals": totals(rows, pool=state["pool"])}
    if bounty_selectors.is_bounty(t):
        won = bounty_selectors.won_by_entry(t)
        for row in rows:
            got = won.get(row["entry"], {})
            row["knockouts"], row["bounties"] = got.get("knockouts", 0), got.get("won", 0)
        report["bounties"] = True
    return report


def totals(rows: Iterable[dict], pool: int | None = None) -> dict[str, int]:
    """The prizes of the rows: all of them, those paid, those still to pay, and how many places of each;
    with the pool, what is left for the places still in play."""
    prizes = paid = places = places_paid = 0
    for row in rows:
        if row["prize"]:
            prizes += row["prize"]
            places += 1
            if row["receipt"] is not None:
                paid += row["prize"]
                places_paid += 1
    return {
        "prizes": prizes,
        "paid": paid,
        "unpaid": prizes - paid,
        "places": places,
        "places_paid": places_paid,
        "places_unpaid": places - places_paid,
        "in_play": 0 if pool is None else pool - prizes,
    }


def place_label(place: int, place_low: int) -> str:
    """'3', or '3–4' for a tie (an en dash: a spreadsheet would read '3-4' as a date)."""
    return str(place) if place == place_low else f"{place}\u2013{place_low}"


def csv_text(text: str) -> str:
    """A name as a spreadsheet shows it, never as a formula it would run ('=1+1' -> "'=1+1")."""
    return "'" + text if text.startswith(FORMULA_START) else text


def csv_header(seats: bool = False, bounties: bool = False) -> list[str]:
    return [
        _("Place"),
        _("Entry number"),
        _("Player"),
        _("Prize"),
        _("Currency"),
        _("Paid"),
        _("Payout receipt"),
        *([_("Seat won")] if seats else []),
        *([_("Knockouts"), _("Bounties won")] if bounties else []),
    ]


def csv_rows(rows: Iterable[dict], currency: str, seats: bool = False, bounties: bool = False) -> Iterator[list]:
    """A row per place: the prize in major units with a dot and its currency; paid yes or no (empty
    without a prize); the payout receipt's number; in a satellite (`seats`), whether it won a seat; in a bounty event
    (`bounties`), its knockouts and the bounties it won, in major units (the currency's column names it)."""
    yes, no = _("yes"), _("no")  # once, not per row
    for row in rows:
        prize, receipt = row["prize"], row["receipt"]
        won = row.get("bounties", 0) if bounties else 0
        yield [
            place_label(row["place"], row["place_low"]),
            row["entry"],
            csv_text(row["name"]),
            format_major(prize, currency, fixed=True) if prize else "",
            currency if prize or won else "",
            "" if not prize else yes if receipt is not None else no,
            "" if receipt is None else receipt,
            *([yes if row.get("seat") else ""] if seats else []),
            *([row.get("knockouts", 0), format_major(won, currency, fixed=True) if won else ""] if bounties else []),
        ]


def write_results_csv(out: TextIO, rows: Iterable[dict], currency: str, bounties: bool = False) -> None:
    """The results as CSV (comma, double quotes where needed, CRLF) into `out`: a byte order mark, the
    header in the active language, a row per finishing place (a satellite's with a column for its seats, a bounty
    event's with its knockouts and bounties won)."""
    rows = list(rows)
    seats = any(row.get("seat") for row in rows)
    out.write(BOM)
    writer = csv.writer(out)
    writer.writerow(csv_header(seats, bounties))
    writer.writerows(csv_rows(rows, currency, seats, bounties))


def results_csv(rows: Iterable[dict], currency: str, bounties: bool = False) -> str:
    """The whole CSV as one text (the download view answers it at once; bench/payouts.py times it)."""
    out = io.StringIO()
    write_results_csv(out, rows, currency, bounties)
    return out.getvalue()


# --- the PDF ---------------------------------------------------------------------------------------


class ResultsPdf(ListPages):
    """The results on A4 pages (core.pdf.ListPages): the title (tournament, venue, date) on the first page, the
    column heads on every page, a row per place (striped), the totals after the last row, page numbers at the foot."""

    head_first = 22 * mm  # the title block of the first page

    def __init__(self, t: Tournament, report: dict):
        self.t, self.report = t, report
        super().__init__(f"{_('Results')} · {t.name}")
        right = PAGE_W - MARGIN
        # x of each column: place, entry, name (left-aligned); prize (right-aligned at its x); paid
        self.x_place, self.x_entry, self.x_name = MARGIN, MARGIN + 22 * mm, MARGIN + 38 * mm
        self.x_prize, self.x_paid = right - 32 * mm, right - 28 * mm
        self.name_width = self.x_prize - 30 * mm - self.x_name
        self.paid_width = right - self.x_paid
        # A bounty event: its knockouts and bounties won (right-aligned at their x) between the name and the prize.
        self.bounties = bool(report.get("bounties"))
        if self.bounties:
            self.x_bounty = self.x_prize - 30 * mm
            self.x_knockouts = self.x_bounty - 30 * mm
            self.name_width = self.x_knockouts - 14 * mm - self.x_name

    def pages(self) -> list[tuple[int, int]]:
        """(first row, past the last row) of each page; the totals go below the last row, on a new page
        when they do not fit."""
        return self.spans(len(self.report["rows"]), tail=7 if self.bounties else 6)

    def row_y(self, page: int, index: int) -> float:
        return self.top(page) - index * ROW

    def build(self) -> bytes:
        spans = self.pages()
        rows = self.report["rows"]
        for number, (start, end) in enumerate(spans, 1):
            self.head(number)
            self.rows(number, rows[start:end], start)
            if number == len(spans):
                self.foot_totals(self.row_y(number, end - start) - ROW)
            self.foot(number, len(spans), self.t.name)
            self.c.showPage()
        return self.finish()

    def head(self, page: int) -> None:
        c, t = self.c, self.t
        y = PAGE_H - MARGIN
        if page == 1:
            c.setFont(self.font, 16)
            c.drawString(MARGIN, y - 16, f"{_('Results')} · {t.name}")
            c.setFont(self.font, 10)
            when = formats.date_format(timezone.localtime(t.start_at), "DATE_FORMAT")
            c.drawString(MARGIN, y - 32, f"{t.venue} · {when}")
            c.setFont(self.font, 8)
            printed = formats.date_format(timezone.localtime(), "DATETIME_FORMAT")
            c.drawString(MARGIN, y - 46, _("Printed %(when)s") % {"when": printed})
            y -= self.head_first
        else:
            c.setFont(self.font, 8)
            c.drawString(MARGIN, y - 8, f"{_('Results')} · {t.name} · {t.venue}")
            y -= HEAD_OTHER
        c.setFont(self.font, SIZE)
        heads_y = y - ROW + 3
        c.drawString(self.x_place, heads_y, fit(_("Place"), self.font, SIZE, self.x_entry - self.x_place - 2))
        c.drawString(self.x_entry, heads_y, "#")
        c.drawString(self.x_name, heads_y, _("Player"))
        c.drawRightString(self.x_prize, heads_y, _("Prize"))
        c.drawString(self.x_paid, heads_y, _("Paid"))
        if self.bounties:
            c.drawRightString(self.x_knockouts, heads_y, fit(_("Knockouts"), self.font, SIZE, 24 * mm))
            c.drawRightString(self.x_bounty, heads_y, fit(_("Bounties won"), self.font, SIZE, 28 * mm))
        self.rule(heads_y - 4)

    def rows(self, page: int, rows: list[dict], start: int) -> None:
        """A page's rows: the stripes first, then the text of every row in one text object (10,000 rows
        print in about a second)."""
        c, currency, font = self.c, self.t.currency, self.font
        self.stripes(page, len(rows), start)
        text = c.beginText()
        text.setFont(font, SIZE)
        not_yet, seat_word = _("not yet"), _("Seat")
        for index, row in enumerate(rows):
            y = self.row_y(page, index)
            cells = [
                (self.x_place, place_label(row["place"], row["place_low"])),
                (self.x_entry, str(row["entry"])),
                (self.x_name, fit(row["name"], font, SIZE, self.name_width)),
            ]
            if row["prize"]:
                prize = money(row["prize"], currency)
                paid = not_yet if row["receipt"] is None else _("receipt %(number)s") % {"number": row["receipt"]}
                cells += [(self.x_prize - stringWidth(prize, font, SIZE), prize), (self.x_paid, fit(paid, font, SIZE, self.paid_width))]
            if row.get("seat"):  # a satellite's seat winner: his prize is the seat (and any cash share before it)
                cells.append((self.x_name + self.name_width + 2 * mm, seat_word))
            if self.bounties:
                knockouts = str(row.get("knockouts", 0))
                cells.append((self.x_knockouts - stringWidth(knockouts, font, SIZE), knockouts))
                if row.get("bounties"):
                    won = money(row["bounties"], currency)
                    cells.append((self.x_bounty - stringWidth(won, font, SIZE), won))
            for x, value in cells:
                text.setTextOrigin(x, y)
                text.textOut(value)
        c.drawText(text)

    def foot_totals(self, y: float) -> None:
        c, sums, currency = self.c, self.report["totals"], self.t.currency
        self.rule(y + ROW - 3)
        lines = [
            (_("Prizes of the places above"), sums["prizes"], sums["places"]),
            (_("Paid"), sums["paid"], sums["places_paid"]),
            (_("Not yet paid"), sums["unpaid"], sums["places_unpaid"]),
        ]
        if sums.get("in_play"):
            lines.append((_("Prizes of the places still in play"), sums["in_play"], None))
        if self.bounties:
            lines.append((_("Bounties won by the entries above"), sum(row.get("bounties", 0) for row in self.report["rows"]), None))
        for label, amount, places in lines:
            c.setFont(self.font, SIZE + 1)
            c.drawString(self.x_name, y, label)
            c.drawRightString(self.x_prize, y, money(amount, currency))
            c.setFont(self.font, SIZE)
            if places is not None:
                c.drawString(self.x_paid, y, fit(_places_text(places), self.font, SIZE, self.paid_width))
            y -= ROW + 2


def _places_text(count: int) -> str:
    return ngettext("%(count)s place", "%(count)s places", count) % {"count": count}


def results_pdf(t: Tournament, report: dict | None = None) -> bytes:
    """The results as an A4 PDF (times in the active time zone, words in the active language)."""
    return ResultsPdf(t, report or results_report(t)).build()
