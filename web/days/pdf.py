"""The end of a day on paper, as tables/selectors/seat_cards.py prints seat cards: the bag slips (one slip
per bag: the tournament, the day, the player and his entry, the bag number and the chips large, the table and seat,
when and by whom it was bagged, the player's and the floor's signature lines), one a page on 80 mm receipt paper
or six a page on A4 (core.pdf.sheet_pdf); and the day's report on A4 (every bag, largest stack first, with the totals;
core.pdf.ListPages). DejaVu Sans (core.pdf.pdf_font) prints every Czech and Slovak letter. Times in the active time
zone (the views set the venue's), words in the active language."""

from __future__ import annotations

from django.utils import formats, timezone
from django.utils.translation import gettext as _
from reportlab.lib.units import mm
from reportlab.lib.utils import simpleSplit
from reportlab.pdfgen import canvas

from core.pdf import HEAD_OTHER, MARGIN, PAGE_H, PAGE_W, ROW, SIZE, ListPages, fit, pdf_font, sheet_pdf, when
from tournament.models import Tournament
from web.templatetags.money import grouped

# --- bag slips ---------------------------------------------------------------------------------------


def bag_slips_pdf(tournament: Tournament, rows: list[dict], paper: str = "80mm", day: int = 1, table: int | None = None) -> bytes:
    """80 mm receipt paper: one slip a page (the printer cuts after each). A4: six a page, two by three, with dashed
    lines to cut along. No bag: one page that says so."""
    font, margin = pdf_font(), (5 * mm if paper == "a4" else 4 * mm)

    def draw(c: canvas.Canvas, row: dict | None, x: float, y: float, width: float, height: float) -> None:
        if row is None:
            _empty(c, tournament, font, x, y, width, height, margin, day, table)
        else:
            _slip(c, row, font, x, y, width, height, margin)

    return sheet_pdf(
        f"{_('Bag slips')} · {tournament.name}", rows, paper, roll_height=125 * mm, columns=2, lines=3, draw=draw, initial_font=True
    )


def _empty(
    c: canvas.Canvas,
    tournament: Tournament,
    font: str,
    x: float,
    y: float,
    width: float,
    height: float,
    margin: float,
    day: int,
    table: int | None,
) -> None:
    top = y + height - margin - 11
    c.setFont(font, 11)
    c.drawString(x + margin, top, fit(tournament.name, font, 11, width - 2 * margin))
    c.drawString(x + margin, top - 16, _("Day %(day)s") % {"day": day})
    text = (_("No bag at table %(table)s yet.") % {"table": table}) if table else _("No bag yet.")
    c.drawString(x + margin, top - 40, fit(text, font, 11, width - 2 * margin))


def _slip(c: canvas.Canvas, row: dict, font: str, x: float, y: float, width: float, height: float, margin: float) -> None:
    """One slip in the box (x, y, width, height) of the page, y at its bottom."""
    inner, left, size = width - 2 * margin, x + margin, 10
    top = y + height - margin - size
    c.setFont(font, size)
    c.drawString(left, top, fit(row["tournament"], font, size, inner))
    top -= size * 1.4
    c.drawString(
        left,
        top,
        fit(
            _("Day %(day)s · table %(table)s, seat %(seat)s") % {"day": row["day"], "table": row["table"], "seat": row["seat"]},
            font,
            size,
            inner,
        ),
    )
    big = 26
    for label, value in ((_("Bag"), row["bag"]), (_("Chips"), grouped(row["chips"]))):
        top -= size * 2
        c.setFont(font, size * 0.8)
        c.drawString(left, top, label)
        top -= big * 1.05
        c.setFont(font, big)
        c.drawString(left, top, fit(value, font, big, inner))
    top -= size * 2.2
    c.setFont(font, size * 1.2)
    for line in simpleSplit(row["name"], font, size * 1.2, inner)[:2]:  # a long name on two lines
        c.drawString(left, top, line)
        top -= size * 1.4
    c.setFont(font, size)
    c.drawString(left, top, _("Entry #%(number)s") % {"number": row["entry"]})
    top -= size * 1.4
    c.setFont(font, size * 0.8)
    bagged = _("Bagged %(when)s by %(who)s") % {"when": when(row["bagged_at"]), "who": row["bagged_by"] or "—"}
    for line in simpleSplit(bagged, font, size * 0.8, inner)[:2]:
        c.drawString(left, top, line)
        top -= size
    _signatures(c, font, left, y + margin, inner)


def _signatures(c: canvas.Canvas, font: str, left: float, bottom: float, width: float) -> None:
    """The player's and the floor's signature lines, side by side at the foot of the slip."""
    gap = 5 * mm
    each = (width - gap) / 2
    c.setLineWidth(0.6)
    c.setFont(font, 7)
    for i, label in enumerate((_("Player's signature"), _("Floor's signature"))):
        x = left + i * (each + gap)
        c.line(x, bottom + 9, x + each, bottom + 9)
        c.drawString(x, bottom, fit(label, font, 7, each))


# --- the day's report (A4) ---------------------------------------------------------------------------


class ReportPdf(ListPages):
    """The report on A4: the title (tournament, day, status) on the first page, the column heads on every page, a
    row per bag (striped), the totals after the last row, page numbers at the foot."""

    def __init__(self, t: Tournament, report: dict):
        self.t, self.report = t, report
        self.title = _("Day %(day)s report") % {"day": report["day"]}
        super().__init__(f"{self.title} · {t.name}")
        right = PAGE_W - MARGIN
        # x of each column: rank, name, entry, table/seat, bag (left-aligned); chips, big blinds (right-aligned)
        self.x_rank, self.x_name, self.x_entry = MARGIN, MARGIN + 12 * mm, MARGIN + 78 * mm
        self.x_where, self.x_bag = MARGIN + 94 * mm, MARGIN + 116 * mm
        self.x_chips, self.x_bb = right - 22 * mm, right

    def build(self) -> bytes:
        rows = self.report["rows"]
        spans = self.spans(len(rows), tail=14)  # the totals and the close: on a page of their own when they do not fit
        for number, (start, end) in enumerate(spans, 1):
            self.head(number)
            self.rows(number, rows[start:end], start)
            if number == len(spans):
                self.totals(self.top(number) - (end - start + 1) * ROW)
            self.foot(number, len(spans), fit(f"{self.title} · {self.t.name}", self.font, 8, PAGE_W / 2))
            self.c.showPage()
        return self.finish()

    def status(self) -> str:
        closed = self.report["closed"]
        if closed:
            return _("Closed %(when)s by %(who)s") % {"when": when(closed["closed_at"]), "who": closed["closed_by"] or "—"}
        return _("Still playing: the bags so far")

    def head(self, page: int) -> None:
        c, t, y = self.c, self.t, PAGE_H - MARGIN
        if page == 1:
            c.setFont(self.font, 16)
            c.drawString(MARGIN, y - 16, fit(f"{self.title} · {t.name}", self.font, 16, PAGE_W - 2 * MARGIN))
            c.setFont(self.font, 10)
            c.drawString(MARGIN, y - 32, fit(f"{t.venue} · {self.status()}", self.font, 10, PAGE_W - 2 * MARGIN))
            c.setFont(self.font, 8)
            c.drawString(MARGIN, y - 46, _("Printed %(when)s") % {"when": when(timezone.now())})
            y -= self.head_first
        else:
            c.setFont(self.font, 8)
            c.drawString(MARGIN, y - 8, fit(f"{self.title} · {t.name} · {t.venue}", self.font, 8, PAGE_W - 2 * MARGIN))
            y -= HEAD_OTHER
        c.setFont(self.font, SIZE)
        heads_y = y - ROW + 3
        c.drawString(self.x_rank, heads_y, "#")
        c.drawString(self.x_name, heads_y, _("Player"))
        c.drawString(self.x_entry, heads_y, _("Entry"))
        c.drawString(self.x_where, heads_y, fit(_("Table, seat"), self.font, SIZE, self.x_bag - self.x_where - 2))
        c.drawString(self.x_bag, heads_y, _("Bag"))
        c.drawRightString(self.x_chips, heads_y, _("Chips"))
        c.drawRightString(self.x_bb, heads_y, fit(_("Big blinds"), self.font, SIZE, 20 * mm))
        self.rule(heads_y - 4)

    def rows(self, page: int, rows: list[dict], start: int) -> None:
        c, font = self.c, self.font
        self.stripes(page, len(rows), start)
        c.setFont(font, SIZE)
        name_w, bag_w = self.x_entry - self.x_name - 3, self.x_chips - 24 * mm - self.x_bag
        for index, row in enumerate(rows):
            y = self.top(page) - index * ROW
            c.drawString(self.x_rank, y, f"{row['rank']}.")
            c.drawString(self.x_name, y, fit(row["name"], font, SIZE, name_w))
            c.drawString(self.x_entry, y, f"#{row['entry']}")
            c.drawString(self.x_where, y, f"{row['table']} / {row['seat']}")
            c.drawString(self.x_bag, y, fit(row["bag"], font, SIZE, bag_w))
            c.drawRightString(self.x_chips, y, grouped(row["chips"]))
            bb = row["big_blinds"]
            c.drawRightString(self.x_bb, y, "" if bb is None else formats.number_format(bb, decimal_pos=1))

    def totals(self, y: float) -> None:
        c, r = self.c, self.report
        self.rule(y + ROW - 3)
        difference = r["difference"]
        lines = [
            (_("Players bagged"), grouped(r["players"])),
            (_("Bags' total"), grouped(r["total"])),
            (_("Chips in play"), grouped(r["chips_in_play"])),
            (
                _("Difference"),
                _("not every player is bagged")
                if difference is None
                else (f"+{grouped(difference)}" if difference > 0 else grouped(difference)),
            ),
        ]
        for label, value in lines:
            c.setFont(self.font, SIZE + 1)
            c.drawString(self.x_name, y, label)
            c.drawString(self.x_where, y, fit(value, self.font, SIZE + 1, PAGE_W - MARGIN - self.x_where))
            y -= ROW + 2
        closed = r["closed"] or {}
        wrapped = [
            (_("Bags missing at the close"), ", ".join(f"#{n}" for n in closed.get("missing") or [])),
            (_("Reason for closing"), closed.get("reason") or ""),
        ]
        for label, value in wrapped:  # up to four lines each (the page keeps room for them)
            if not value:
                continue
            c.setFont(self.font, SIZE + 1)
            c.drawString(self.x_name, y, label)
            for line in simpleSplit(value, self.font, SIZE + 1, PAGE_W - MARGIN - self.x_where)[:4]:
                c.drawString(self.x_where, y, line)
                y -= ROW


def report_pdf(t: Tournament, report: dict) -> bytes:
    """The day's report as an A4 PDF."""
    return ReportPdf(t, report).build()
