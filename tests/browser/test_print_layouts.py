"""The desk's papers as the browser prints them (docs/printing.md): a buy-in receipt, the seat cards, the bag slips and a
payout receipt, each laid out for an 80 mm and a 58 mm roll (and A4), in print media. On a roll nothing is wider than
what the printer prints (72 mm of 80, 48 mm of 58: no element's edge past it, no sideways scroll), a line holds 48
characters on 80 mm and 32 on 58 mm at most, the QR code is whole and square inside its card; the PDF chromium makes
of the page is the roll's width, one seat card or bag slip a page."""

from __future__ import annotations

import re

import pytest

from days.services import bags as days_services
from payouts.services import structure as payouts_services
from tests.browser.conftest import session_cookie
from tests.browser.csp import csp_problems, watch_errors
from tests.helpers import id_doc, pdf_pages, said
from tests.payouts.test_payments import finish, signature
from tests.venues.stand_in_printer import StandInPrinter
from tournament.models import AuditEvent, Player
from venues.services import printing as print_services
from venues.services.setup import default_venue

pytestmark = pytest.mark.browser

PX_PER_MM = 96 / 25.4
ROLLS = {"80": (80, 4), "58": (58, 5)}  # the paper's width and its unprinted edge, in mm
A4_INNER = 186  # mm: A4 less the 12 mm margins of venues-paper-a4.css

# Everything shown inside the page's main must lie within the printable band [left, right] (px); the page must not
# scroll sideways; the QR code (if any) must be square, at least 30 mm, and inside its card; a line of `columns`
# characters of the paper's text fits the band and one more does not.
CHECK = """({left, right, columns, mm}) => {
  const out = [], root = document.documentElement;
  if (root.scrollWidth > root.clientWidth + 0.5) out.push("sideways scroll " + root.scrollWidth + " > " + root.clientWidth);
  for (const e of document.querySelectorAll("main *")) {
    const r = e.getBoundingClientRect(), style = getComputedStyle(e);
    if (!r.width || !r.height || style.display === "none" || style.visibility === "hidden") continue;
    if (r.left < left - 0.5 || r.right > right + 0.5) {
      out.push((e.id || e.className.baseVal || e.className || e.tagName) + " " + Math.round(r.left) + ".." + Math.round(r.right));
    }
  }
  for (const qr of document.querySelectorAll("main svg")) {
    const r = qr.getBoundingClientRect(), card = qr.parentElement.getBoundingClientRect();
    if (Math.abs(r.width - r.height) > 0.5 || r.width < 30 * mm) out.push("QR " + r.width + "x" + r.height);
    if (r.left < card.left - 0.5 || r.right > card.right + 0.5 || r.top < card.top - 0.5 || r.bottom > card.bottom + 0.5) {
      out.push("QR outside its card");
    }
  }
  if (columns) {
    const doc = document.querySelector(".print-doc, .seat-card, .bag-slip"), probe = document.createElement("span");
    probe.style.whiteSpace = "pre";
    doc.appendChild(probe);
    probe.textContent = "M".repeat(columns);
    if (probe.getBoundingClientRect().width > right - left + 0.5) out.push(columns + " characters do not fit a line");
    probe.textContent = "M".repeat(columns + 1);
    if (probe.getBoundingClientRect().width <= right - left) out.push((columns + 1) + " characters fit a line");
    probe.remove();
  }
  return out;
}"""


def media_box_width_mm(pdf: bytes) -> float:
    width = float(re.search(rb"/MediaBox\s*\[\s*0\s+0\s+([\d.]+)\s+[\d.]+\s*\]", pdf).group(1))
    return width / 72 * 25.4


@pytest.fixture
def night(director, cashier, floor, tournament):
    """Eight entered, five out, four places paid: place 4 paid at the cage (payout receipt 1); entry 6, with a long
    Czech name, bagged; the three still in seated (seat cards)."""
    entries = finish(director, cashier, floor, tournament)
    player = Player.objects.get(pk=entries[5].player_id)
    player.first_name, player.last_name = "Markéta Ludmila", "Procházková-Dvořáková"
    player.save()
    payouts_services.pay_prize(entries[4], actor=cashier, document=id_doc("EA0000004"), signature=signature())
    days_services.record_bag(entries[5], actor=floor, chips=30000, bag="A-17")
    return tournament


def test_every_paper_fits_the_80_and_the_58_mm_roll_and_a4(live_asgi, browser, director, night):
    t, session = night, session_cookie(live_asgi, director.username)
    pages = {
        "receipt": f"/t/{t.pk}/receipts/1/",
        "payout": f"/t/{t.pk}/payouts/receipts/1/",
        "seat cards": f"/t/{t.pk}/seat-cards/",
        "bag slips": f"/t/{t.pk}/day/slips/",
    }
    problems = []
    for paper, (width, edge) in ROLLS.items():
        for name, path in pages.items():
            context = browser.new_context(viewport={"width": round(width * PX_PER_MM), "height": 900})
            context.add_cookies([session])
            page = context.new_page()
            errors = watch_errors(page)
            assert page.goto(f"{live_asgi}{path}?paper={paper}").ok
            page.emulate_media(media="print")
            page.evaluate("document.fonts.ready")
            assert page.evaluate("document.body.className") == f"staff paper-{paper}"
            band = {"left": edge * PX_PER_MM, "right": (width - edge) * PX_PER_MM, "columns": 48 if paper == "80" else 32, "mm": PX_PER_MM}
            problems += [f"{name} on {paper} mm: {p}" for p in page.evaluate(CHECK, band)]
            pdf = page.pdf(prefer_css_page_size=True, print_background=True)
            assert abs(media_box_width_mm(pdf) - width) < 0.5, (name, paper, media_box_width_mm(pdf))
            if name == "seat cards":
                assert pdf_pages(pdf) == page.locator(".seat-card").count() == 3  # one card a page, the QR whole on it
            if name == "bag slips":
                assert pdf_pages(pdf) == page.locator(".bag-slip").count() == 1
                assert "Procházková-Dvořáková" in page.inner_text(".bag-slip")
            problems += [f"{name} on {paper} mm: {p}" for p in csp_problems(page, errors)]
            context.close()
    for name, path in pages.items():  # A4: inside the sheet's margins
        context = browser.new_context(viewport={"width": round(A4_INNER * PX_PER_MM), "height": 1100})
        context.add_cookies([session])
        page = context.new_page()
        assert page.goto(f"{live_asgi}{path}?paper=a4").ok
        page.emulate_media(media="print")
        problems += [
            f"{name} on A4: {p}" for p in page.evaluate(CHECK, {"left": 0, "right": A4_INNER * PX_PER_MM, "columns": 0, "mm": PX_PER_MM})
        ]
        assert abs(media_box_width_mm(page.pdf(prefer_css_page_size=True)) - 210) < 0.5
        context.close()
    assert not problems, "\n".join(problems)


def test_one_press_prints_the_receipt_on_the_roll_printer_and_a_silent_printer_is_said_in_words(live_asgi, browser, director, night):
    t = night
    printer = StandInPrinter()
    try:
        print_services.set_printing(default_venue(), actor=director, paper="58", printer=printer.address)
        page = browser.new_context(viewport={"width": 1180, "height": 820}).new_page()
        page.context.add_cookies([session_cookie(live_asgi, director.username)])
        errors = watch_errors(page)
        page.goto(f"{live_asgi}/t/{t.pk}/payouts/receipts/1/")
        page.click("#print-roll")
        said(page, f"Printed on the roll printer at {printer.address}.")
        assert b"Payout receipt" in printer.printed() and AuditEvent.objects.filter(tournament=t, type="venue.printed").count() == 1
        assert AuditEvent.objects.get(tournament=t, type="venue.printed").payload["roll"] == "58"  # the house's roll
    finally:
        printer.close()
    page.reload()  # the printer is gone now: refused
    page.click("#print-roll")
    page.wait_for_function("() => [...document.querySelectorAll('[data-api-say]')].some((e) => e.textContent.includes('did not answer'))")
    text = page.inner_text("[data-api-say]")
    assert f"The printer at {printer.address} did not answer" in text and "print it again or on paper" in text
    assert AuditEvent.objects.filter(tournament=t, type="venue.printed").count() == 1  # nothing recorded
    # the 503 itself (and api.js's two retries of the press, answered again from the first): nothing else
    assert [p for p in csp_problems(page, errors) if "status of 503" not in p] == []
