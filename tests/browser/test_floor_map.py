"""The floor map at a size where it has sections, in a real browser: 200 tables, 1,780 players.
The page shows one section of 50 tables; a section switch, a player search (folded: "novak" finds
"Novák"), "go to table" and the filters (short, halted, with slips, on the previous level) work; names
read on two lines; the undo bar never lies over the counters; nothing overflows sideways on a tablet;
the button draw says what it does and a button balancing asks for says why. The player's seat page
labels the seat held now while a move is pending."""

from __future__ import annotations

import re

import pytest
from django.utils import timezone

from bench.common import paid_field
from tables.models import Move, Seat, Table
from tables.services import draws, moves, seats
from tests.browser.conftest import login
from tests.browser.test_seating import PHONE, TABLET, staff_page
from tests.conftest import PASSWORD
from tests.helpers import pdf_pages
from tests.tables.test_moves import bust_at, start

pytestmark = pytest.mark.browser

TABLES, PLAYERS = 200, 1780
NAMES = {7: ("Jiří", "Novák", ""), 8: ("Jiří", "Procházka-Dvořáková", "Big Stack"), 9: ("Jana", "Nováková", "")}


def big_room(director, cashier, t, tables: int = TABLES, players: int = PLAYERS) -> None:
    """`tables` 9-seat tables and `players` paid entries, in bulk (bench/common.paid_field, as bench/seating.populate), then the start
    draw. A few players carry real names (NAMES, by entry number); the others "P<i> Bench"."""
    paid_field(t, cashier, players, NAMES)
    Table.objects.bulk_create([Table(tournament=t, number=k, seats=9, break_order=-k) for k in range(1, tables + 1)])
    draws.draw_start(t, actor=director)


def numbers(page) -> list[int]:
    return page.eval_on_selector_all("#map .m-table", "cs => cs.map(c => Number(c.dataset.table))")


def boxes_overlap(page, a: str, b: str) -> bool:
    return page.evaluate(
        """([a, b]) => {
        const x = document.querySelector(a).getBoundingClientRect(), y = document.querySelector(b).getBoundingClientRect();
        return x.left < y.right && y.left < x.right && x.top < y.bottom && y.top < x.bottom; }""",
        [a, b],
    )


def test_sections_search_jump_and_filters_at_200_tables(live_asgi, browser, director, cashier, floor, tournament):
    big_room(director, cashier, tournament)
    # What the filters find: one table halted, one short, one still on level 1 while the clock is on level 2.
    Table.objects.filter(tournament=tournament, number=150).update(halted=True)
    short = Seat.objects.filter(table__tournament=tournament, table__number=120, ended_at__isnull=True)
    Seat.objects.filter(pk__in=list(short.values_list("pk", flat=True))[:5]).update(ended_at=timezone.now())
    tournament.current_level = 2
    tournament.save(update_fields=["current_level"])
    Table.objects.filter(tournament=tournament).update(sends_hand_signals=False)
    Table.objects.filter(tournament=tournament, number=30).update(sends_hand_signals=True, hand_level_index=0)
    novak = Seat.objects.select_related("table").get(entry__tournament=tournament, entry__number=7, ended_at__isnull=True)

    page = staff_page(browser, live_asgi, floor.username, f"/t/{tournament.pk}/map/")
    page.wait_for_selector("#map .m-table")
    options = page.eval_on_selector_all("#map-section option", "os => os.map(o => o.textContent)")
    assert options == ["Tables 1–50 (50)", "Tables 51–100 (50)", "Tables 101–150 (50)", "Tables 151–200 (50)"]
    assert numbers(page) == list(range(1, 51))
    # Every control says what it does.
    for control in ("#map-section", "#map-search", "#map-goto"):
        assert page.inner_text(f'label[for="{control[1:]}"]').strip()
    assert "Draw the button" in page.inner_text('.m-table[data-table="1"] .button-draw')
    assert page.inner_text('.m-table[data-table="1"] .button-draw') != "D?"

    # A section switch shows the next 50 tables, and only them.
    page.select_option("#map-section", "1")
    assert numbers(page) == list(range(51, 101))

    # "novak" finds "Jiří Novák" and "Jana Nováková" (any part of a name, accents and case ignored), as you type;
    # "jiri novak" finds one, and Enter jumps to the seat.
    page.evaluate("() => window.floorMap.refetch()")  # the map drawn from a read after its socket's first snapshot
    page.fill("#map-search", "novak")
    page.wait_for_function("document.querySelectorAll('#map-found button').length === 2")
    assert sorted(page.eval_on_selector_all("#map-found button", "bs => bs.map(b => b.dataset.entry)")) == ["7", "9"]
    page.fill("#map-search", "jiri NOVAK")
    page.press("#map-search", "Enter")
    found = f'.m-table[data-table="{novak.table.number}"] .m-seat[data-seat="{novak.seat}"].found'
    page.wait_for_selector(found)
    assert "Jiří Novák" in page.inner_text("#map-found")
    assert page.get_attribute(found, "aria-label") == f"Table {novak.table.number} seat {novak.seat}: Jiří Novák, entry #7"
    # The seat is on screen, below the sticky tools (not under them).
    top, tools = page.evaluate(f"""() => [document.querySelector('{found}').getBoundingClientRect().top,
                                         document.getElementById('map-tools').getBoundingClientRect().bottom]""")
    assert tools <= top < 820
    page.fill("#map-search", "JANA NOVÁKOVÁ")
    page.press("#map-search", "Enter")
    page.wait_for_selector('.m-seat.found[data-entry="9"]')

    # A long name wraps onto as many lines as it needs and is never cut; the full name is the tile's title too.
    tile = '.m-seat[data-entry="8"]'
    page.fill("#map-search", "#8")
    page.press("#map-search", "Enter")
    page.wait_for_selector(tile + ".found")
    lines = page.eval_on_selector(
        tile + " .who b", "b => Math.round(b.getBoundingClientRect().height / parseFloat(getComputedStyle(b).lineHeight))"
    )
    shown = page.eval_on_selector(tile + " .who b", "b => b.innerText.replace(/\\s+/g, ' ').trim()")
    assert lines >= 2 and shown == "Jiří Procházka-Dvořáková (Big Stack)"
    assert page.eval_on_selector(tile, "t => t.scrollWidth <= t.clientWidth && t.scrollHeight <= t.clientHeight")
    title = page.get_attribute(tile, "title")
    assert title.startswith("Table ") and "Jiří Procházka-Dvořáková (Big Stack)" in title

    # Go to table 187: its section, scrolled to.
    page.fill("#map-goto", "187")
    page.press("#map-goto", "Enter")
    page.wait_for_function("document.getElementById('map-section').value === '3'")
    assert 187 in numbers(page)
    top = page.evaluate("document.querySelector('.m-table[data-table=\"187\"]').getBoundingClientRect().top")
    assert 0 <= top < 820
    page.fill("#map-goto", "999")
    page.press("#map-goto", "Enter")
    assert page.inner_text("#map-search-note") == "There is no table 999."

    # The filters: folded until opened (their summary says which are on); any ticked; counts beside them.
    page.click("#map-filterbox > summary")
    page.check('#map-filters input[value="halted"]')
    assert numbers(page) == [150]
    page.check('#map-filters input[value="short"]')
    assert numbers(page) == [120, 150]
    assert page.inner_text("#map-filterbox > summary") == "Filters: short, halted"
    assert page.inner_text('#map-filters [data-count="short"]') == "(1)"
    assert page.inner_text('.m-table[data-table="120"] .m-status') == "short"
    page.uncheck('#map-filters input[value="halted"]')
    page.uncheck('#map-filters input[value="short"]')
    page.check('#map-filters input[value="old"]')
    assert numbers(page) == [30]
    assert "still level 1" in page.inner_text('.m-table[data-table="30"]')
    page.uncheck('#map-filters input[value="old"]')
    assert len(numbers(page)) == 50

    # No sideways scrolling on the tablet.
    assert page.evaluate("document.documentElement.scrollWidth <= document.documentElement.clientWidth")

    # Balancing: table 120 is short by 5, and no button is drawn: balancing asks for the buttons of the donors and
    # the receiver of the coming moves, all at once, and says why.
    moves.balance_now(tournament, actor=director)
    needs = list(Table.objects.filter(tournament=tournament, needs_button=True).order_by("number").values_list("number", flat=True))
    assert 120 in needs and len(needs) >= 2
    need = next(n for n in needs if n != 120)
    page.evaluate("window.floorMap.refetch()")
    page.fill("#map-goto", str(need))
    page.press("#map-goto", "Enter")
    why = page.inner_text(f'.m-table[data-table="{need}"] .m-need .why')
    assert f"Balancing needs the button of table {need} to pick the player who moves" in why
    assert "the player who would be big blind next" in why
    seat = Seat.objects.filter(table__tournament=tournament, table__number=need, ended_at__isnull=True).order_by("seat").first()
    page.fill(f"#need-button-{need}", str(seat.seat))
    page.click(f'.m-table[data-table="{need}"] .m-need button')
    page.wait_for_selector(f'.m-table[data-table="{need}"] .m-need', state="detached")
    for _ in range(10):  # the other buttons asked: entered here, as the floor would
        waiting = Table.objects.filter(tournament=tournament, needs_button=True).first()
        if waiting is None:
            break
        first = Seat.objects.filter(table=waiting, ended_at__isnull=True).order_by("seat").first()
        seats.enter_button(waiting, actor=floor, seat=first.seat)
    page.evaluate("window.floorMap.refetch()")
    pending = list(Move.objects.filter(tournament=tournament, status=Move.Status.PENDING).select_related("from_table", "to_table"))
    assert pending
    involved = sorted({m.from_table.number for m in pending} | {m.to_table.number for m in pending})
    page.check('#map-filters input[value="slips"]')
    page.wait_for_function(f"document.querySelectorAll('#map .m-table').length === {len(involved)}")
    assert numbers(page) == involved
    assert "move slips:" in page.inner_text(f'.m-table[data-table="{involved[0]}"] .m-head')
    page.uncheck('#map-filters input[value="slips"]')
    page.context.close()


def test_the_undo_bar_never_covers_the_counters(live_asgi, browser, director, cashier, floor, tournament):
    start(director, cashier, tournament, 30)
    page = staff_page(browser, live_asgi, floor.username, f"/t/{tournament.pk}/map/")
    page.on("dialog", lambda dialog: dialog.accept())
    victim = page.get_attribute(".m-seat[data-entry]", "data-entry")
    page.click(f'.m-seat[data-entry="{victim}"]')
    page.click("#bust-ask")
    page.click("#bust-go")
    page.wait_for_selector("#undo-bar:not([hidden])")
    page.wait_for_function("document.getElementById('count-seated').textContent === '29'")
    for y in (0, 150, 400):
        page.evaluate(f"window.scrollTo(0, {y})")
        if page.evaluate("document.getElementById('count-seated').getBoundingClientRect().bottom > 0"):
            assert not boxes_overlap(page, "#undo-bar", "#count-seated"), y
            assert not boxes_overlap(page, "#undo-bar", "#count-waiting"), y
    assert page.evaluate("document.documentElement.scrollWidth <= document.documentElement.clientWidth")
    page.context.close()


def test_the_seat_page_labels_the_seat_held_now_while_a_move_is_pending(live_asgi, browser, director, cashier, floor, tournament):
    start(director, cashier, tournament, 20)  # 7, 7, 6: a bust at the short table makes a slip
    counts = {}
    for n in Seat.objects.filter(tournament=tournament, ended_at__isnull=True).values_list("table__number", flat=True):
        counts[n] = counts.get(n, 0) + 1
    bust_at(floor, tournament, min(counts, key=lambda t: (counts[t], t)))
    move = Move.objects.select_related("entry", "from_table", "to_table").get(tournament=tournament, status=Move.Status.PENDING)
    phone = browser.new_context(viewport=PHONE).new_page()
    phone.goto(f"{live_asgi}/s/{tournament.pk}/{move.entry.number}/")
    phone.wait_for_selector("#go", state="visible")
    assert phone.inner_text("#go .go-label").upper() == "YOUR NEW SEAT"
    assert f"table {move.to_table.number} seat {move.to_seat}" in phone.inner_text("#go-where")
    assert phone.is_visible("#seat-now") and "Your seat now" in phone.text_content("#seat-now")
    assert phone.get_attribute("#seat-boxes", "class").split() == ["p-seat", "leaving"]
    assert phone.inner_text("#seat-table") == str(move.from_table.number)
    # The new seat is the bigger one on the screen.
    sizes = phone.evaluate("""() => [parseFloat(getComputedStyle(document.getElementById('go-where')).fontSize),
                                     parseFloat(getComputedStyle(document.getElementById('seat-table')).fontSize)]""")
    assert sizes[0] > sizes[1]  # the current seat drawn smaller, grey and dashed
    assert phone.evaluate("getComputedStyle(document.querySelector('#seat-boxes .box')).borderStyle") == "dashed"
    # No move pending: no "now" label.
    moves.cancel_move(tournament, actor=floor, number=move.number)
    phone.wait_for_selector("#go", state="hidden")
    assert not phone.is_visible("#seat-now")
    assert "leaving" not in phone.get_attribute("#seat-boxes", "class")
    phone.context.close()


def test_a4_seat_cards_print_nine_to_a_page(live_asgi, browser, director, cashier, floor, tournament):
    start(director, cashier, tournament, 20)
    page = browser.new_context(viewport=TABLET).new_page()
    login(page, live_asgi, floor.username, PASSWORD)
    # Laid out for A4 (?paper=a4, or the room's paper setting): nine to a page; for the 80 mm roll (the default), one.
    page.goto(f"{live_asgi}/t/{tournament.pk}/seat-cards/?paper=a4")
    assert page.locator(".seat-card").count() == 20
    assert pdf_pages(page.pdf(format="A4")) == 3  # 9 + 9 + 2
    page.goto(f"{live_asgi}/t/{tournament.pk}/seat-cards/")
    assert pdf_pages(page.pdf(width="80mm", height="150mm")) == 20
    page.context.close()


def test_on_a_tablet_the_map_opens_on_its_tables(live_asgi, browser, director, cashier, floor, tournament):
    """At 1180×820 the first table, its heading and first seats, is on the screen without scrolling,
    for the director (who sees the most: hand-for-hand, opening a table) and for the floor. The other pages, the
    draw's commitment and the filters are a press away, by keyboard too, and say their state in words."""
    from tables.selectors.state import pending_commitment

    start(director, cashier, tournament, 30)
    commitment = pending_commitment(tournament)["commitment"]
    for who in (director, floor):
        page = staff_page(browser, live_asgi, who.username, f"/t/{tournament.pk}/map/")
        page.wait_for_selector("#map .m-table")
        assert page.evaluate("scrollY") == 0
        first = page.locator("#map .m-table").first
        tile, seat = first.bounding_box(), first.locator(".m-seat").nth(1).bounding_box()
        assert tile["y"] >= 0 and seat["y"] + seat["height"] <= TABLET["height"], (who.username, tile, seat)

        # The counts and the draw, in words on their closed summary; Enter opens it: the whole commitment.
        summary = page.locator("#map-draw > summary")
        assert re.search(r"Seated\s+30\b.*Waiting for a seat\s+0\b", summary.inner_text(), re.S)
        assert commitment[:8] in summary.inner_text() and not page.is_visible("#next-commitment")
        summary.focus()
        page.keyboard.press("Enter")
        assert page.inner_text("#next-commitment") == commitment

        # The filters say which are on; opened and ticked by keyboard.
        filters = page.locator("#map-filterbox > summary")
        assert "Filters: none" in filters.inner_text() and not page.is_visible('#map-filters input[value="short"]')
        filters.focus()
        page.keyboard.press("Enter")
        page.focus('#map-filters input[value="short"]')
        page.keyboard.press("Space")
        assert page.is_checked('#map-filters input[value="short"]') and "Filters: short" in filters.inner_text()

        # The other pages.
        pages = page.locator("#map-pages > summary")
        assert not page.is_visible(f'#map-pages a[href="/t/{tournament.pk}/entries/"]')
        pages.focus()
        page.keyboard.press("Enter")
        assert page.is_visible(f'#map-pages a[href="/t/{tournament.pk}/entries/"]')
        assert page.evaluate("document.documentElement.scrollWidth <= document.documentElement.clientWidth")
        page.context.close()
