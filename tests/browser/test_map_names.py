"""The floor map's seat tiles never break a player's name inside a word (before, the seat with
the button chip read "Benešov / á"): the name wraps between words and after a hyphen; a single word wider
than the tile ends in "…", and the tile's title and aria-label say the whole name. On a tablet and a phone."""

from __future__ import annotations

import pytest

from tables.models import Seat, Table
from tables.services import draws
from tests.browser.conftest import login
from tests.browser.test_seating import PHONE, TABLET
from tests.conftest import PASSWORD
from tests.helpers import open_tables
from tests.tables.test_penalty_names import register_named

pytestmark = pytest.mark.browser

NAMES = [
    ("Katarína", "Benešová"),
    ("Jana", "Nováková"),
    ("Bohumil", "Procházková-Dvořáková"),
    ("Maximilián", "Hohenzollernsigmaringenová"),
    ("Zuzana", "Kováčová"),
    ("Veronika", "Veselá"),
    ("Monika", "Urbanová"),
    ("Alena", "Marková"),
    ("Petra", "Svobodová"),
    ("Eva", "Procházková"),
    ("Simona", "Černá"),
    ("Ondřej", "Hudec"),
    ("Radek", "Sedlák"),
    ("Lucia", "Krejčí"),
    ("Michal", "Kučera"),
    ("Filip", "Šimek"),
]

# Each run of letters of a tile's name: the lines it is drawn on (more than one: broken inside the word).
BROKEN_WORDS = """(tile) => {
  const out = [], b = tile.querySelector('.who b'), walker = document.createTreeWalker(b, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    for (const m of node.textContent.matchAll(/\\p{L}+/gu)) {
      const range = document.createRange();
      range.setStart(node, m.index);
      range.setEnd(node, m.index + m[0].length);
      const tops = new Set(Array.from(range.getClientRects()).map((r) => Math.round(r.top)));
      if (tops.size > 1) out.push(m[0]);
    }
  }
  return out;
}"""


def test_no_name_on_the_map_breaks_inside_a_word(live_asgi, browser, director, cashier, floor, tournament):
    t = tournament
    open_tables(director, t, [1, 2])
    register_named(cashier, t, NAMES)
    draws.draw_start(t, actor=director)
    for table in Table.objects.filter(tournament=t, in_play=True):  # the button at the longest name
        seats = Seat.objects.filter(table=table, ended_at__isnull=True).select_related("entry__player")
        longest = max(seats, key=lambda s: len(s.entry.player.last_name))
        draws.draw_button(table, actor=director, seat=longest.seat)
    page = browser.new_context(viewport=TABLET).new_page()
    login(page, live_asgi, floor.username, PASSWORD)
    page.goto(f"{live_asgi}/t/{t.pk}/map/")
    page.wait_for_selector(".m-seat .dealer-btn")
    for size in (TABLET, PHONE):
        page.set_viewport_size(size)
        page.wait_for_timeout(200)
        tiles = page.locator(".m-seat[data-entry]")
        assert tiles.count() == len(NAMES)
        for i in range(tiles.count()):
            tile = tiles.nth(i)
            assert tile.evaluate(BROKEN_WORDS) == [], (size, tile.get_attribute("title"))
            assert tile.evaluate("t => t.scrollWidth <= t.clientWidth"), (size, tile.get_attribute("title"))
        for chip in page.locator(".m-seat .dealer-btn").all():  # the chip says what it is
            assert chip.get_attribute("title") == "The button (dealer) is at this seat"
        with_button = page.locator(".m-seat:has(.dealer-btn)").first
        assert "The button (dealer) is at this seat" in with_button.get_attribute("aria-label")
        # A word wider than the tile ends in an ellipsis; the whole name is the tile's title and label.
        long = page.locator(".m-seat[data-entry]", has_text="Maximilián")
        word = long.locator(".w", has_text="Hohenzollern")
        assert word.evaluate("w => getComputedStyle(w).textOverflow") == "ellipsis"
        if size == PHONE:
            assert word.evaluate("w => w.scrollWidth > w.clientWidth")  # cut, with "…", on a phone
        assert "Maximilián Hohenzollernsigmaringenová" in long.get_attribute("title")
        assert "Maximilián Hohenzollernsigmaringenová" in long.get_attribute("aria-label")
        hyphen = page.locator(".m-seat[data-entry]", has_text="Bohumil").locator(".who b")
        assert hyphen.evaluate("b => b.innerText.replace(/\\s+/g, ' ').trim()") == "Bohumil Procházková-Dvořáková"
        page.locator("#map").screenshot(path=f"/tmp/map_names_{size['width']}.png")
