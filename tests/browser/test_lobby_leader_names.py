"""The TV's chip leaders' names: readable beside their figures (not shrunk to half their size)
and never cut mid-word: a long name takes a second line, and one too long for two ends with an ellipsis after a whole
word, on a TV and on a portrait screen."""

from __future__ import annotations

import os

import pytest

from tables.models import Table
from tables.services import counting
from tests.browser.test_lobby import TV, open_lobby
from tests.browser.test_lobby_leaders import inside_and_clear
from tests.tables.test_counting import even
from tests.tables.test_penalty_api import at_table
from tournament.models import Player

pytestmark = pytest.mark.browser

NAMES = [
    ("Emil", "Horáček-Novotný"),
    ("Maximilián", "Vondráček-Šťastný"),
    ("Jo", "Li"),
    ("Anna-Marie", "Dvořáková Procházková"),
    ("Bartoloměj", "Kociánovský z Ledče nad Sázavou"),
]
# Per name cell: its text and font size against its row's figures, whether anything of it is clipped, the lines it
# takes.
MEASURE = """() => [...document.querySelectorAll('#lobby-leader-list li')].map((li) => {
  const nm = li.querySelector('.nm'), pz = li.querySelector('.pz'), css = getComputedStyle(nm);
  const line = parseFloat(css.lineHeight);
  return {name: nm.textContent, size: parseFloat(css.fontSize), figures: parseFloat(getComputedStyle(pz).fontSize),
          clipped: nm.scrollWidth > nm.clientWidth + 1, hidden: nm.scrollHeight > nm.clientHeight + 1,
          lines: Math.round(nm.getBoundingClientRect().height / line)};
})"""


@pytest.mark.parametrize("size", [TV, {"width": 1080, "height": 1920}], ids=["tv", "portrait"])
def test_the_leaders_names_are_readable_beside_their_figures_and_never_cut_mid_word(live_asgi, browser, room, display, floor, size):
    t = room
    entries = at_table(t, 1) + at_table(t, 2)
    for entry, (first, last) in zip(entries, NAMES, strict=False):
        player = Player.objects.get(pk=entry.player_id)
        player.first_name, player.last_name = first, last
        player.save()
    for number in (1, 2):  # the long names at the top: 90,000 down to 80,000; the others 20,000
        counts = even(t, number)
        for seat in counts:
            entry = next(
                e
                for e in entries
                if e.seats.get(ended_at__isnull=True).seat == seat and e.seats.get(ended_at__isnull=True).table.number == number
            )
            rank = entries.index(entry)
            counts[seat] = 90_000 - rank * 2_000 if rank < len(NAMES) else 20_000
        counting.record_table_counts(Table.objects.get(tournament=t, number=number), actor=floor, counts=counts)
    page = open_lobby(browser, live_asgi, display.token, "?leaders=1")
    page.set_viewport_size(size)
    page.wait_for_selector("#lobby-leaders:not([hidden])")
    page.wait_for_timeout(300)  # the names fitted to the new size
    rows = page.evaluate(MEASURE)
    if os.environ.get("SCREEN_SHOTS"):  # to look at by eye
        page.screenshot(path=f"/tmp/leader_names_{size['width']}.png")
    full = [f"{first} {last}" for first, last in NAMES]
    shown = [r["name"] for r in rows[: len(NAMES)]]
    for name, said in zip(full, shown, strict=True):
        # The whole name, or its first words and an ellipsis: never "Emil Ho".
        assert said == name or (said.endswith("\u2026") and (name + " ").startswith(said[:-1] + " ")), (name, said)
    assert shown[2] == "Jo Li" and shown[0].startswith("Emil Hor") and shown[1].startswith("Maximilián V")
    for r in rows:
        assert r["size"] >= 0.8 * r["figures"] - 0.5, r  # readable beside the figures, not 18-22 px beside 36 px
        assert not r["clipped"] and not r["hidden"], r  # nothing cut at the side or below
        assert r["lines"] <= 2, r
    inside_and_clear(page, size)
    page.context.close()
