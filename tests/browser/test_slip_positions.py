"""A move slip names the position waiting at the new table in the floor's words:
"big blind", "button", "waits for the button", "dealt in, no blind"; nothing when the software does not
know it. Never "in play" or "unknown". The same on the dealer tablet of the table the player goes to and
on the floor's map."""

from __future__ import annotations

import pytest

from tables.models import Move
from tests.browser.conftest import login
from tests.browser.test_seating import TABLET
from tests.conftest import PASSWORD
from tests.tables.test_moves import bust_at, seated, start

pytestmark = pytest.mark.browser

SAID = [
    ("big_blind", " · big blind"),
    ("small_blind", " · small blind"),
    ("button", " · button"),
    ("wait_for_button", " · waits for the button"),
    ("in_play", " · dealt in, no blind"),
    ("unknown", ""),
]


def test_a_slip_says_the_position_in_the_floors_words(live_asgi, browser, director, cashier, floor, tournament):
    base, t = live_asgi, tournament
    start(director, cashier, t, 20)  # three tables: 7, 7, 6
    counts = {n: len(s) for n, s in seated(t).items()}
    bust_at(floor, t, min(counts, key=lambda n: (counts[n], n)))
    move = Move.objects.select_related("entry__player", "from_table", "to_table").get(tournament=t, status=Move.Status.PENDING)
    context = browser.new_context(viewport=TABLET)
    tablet, floor_map = context.new_page(), context.new_page()
    login(tablet, base, floor.username, PASSWORD)
    start_of_slip = f"Seat {move.to_seat} reserved: {move.entry.player.display_name} from table {move.from_table.number}"
    for code, said in SAID:
        Move.objects.filter(pk=move.pk).update(position=code)
        tablet.goto(f"{base}/t/{t.pk}/tables/{move.to_table.number}/dealer/")
        tablet.wait_for_function(
            "(start) => { const li = document.querySelector('#slips-in li'); return !!li && li.textContent.indexOf(start) === 0; }",
            arg=start_of_slip,
        )
        assert tablet.inner_text("#slips-in li") == start_of_slip + said, code
        floor_map.goto(f"{base}/t/{t.pk}/map/")
        line = floor_map.locator(f'#move-list li[data-move="{move.number}"] .slip')
        line.wait_for()
        text = line.inner_text()
        assert text.endswith(f"seat {move.to_seat}{said}"), (code, text)
        for wrong in ("in play", "unknown", "_"):  # "_": a raw code (in_play, wait_for_button)
            assert wrong not in text and wrong not in tablet.inner_text("#slips-in"), (code, wrong)
    context.close()
