"""A color-up on the dealer tablet, in a real browser: the director confirms the break's color-up, the
table's tablet shows the banner, the dealer types every seat's leaving chips on the tablet's number pad,
races (the cards come from the committed seed), redoes a count, confirms the sheet, and the lobby TV's
chips in play change by exactly the sheet's difference. The panel fits a tablet and a phone, and the
sheet prints alone."""

from __future__ import annotations

import re
from functools import partial

import pytest

from tables.models import ChipRace
from tables.services import color_ups, draws
from tests.browser import sizes
from tests.browser.conftest import login
from tests.browser.sizes import PHONE, TABLET, by_device, shot
from tests.conftest import PASSWORD
from tests.helpers import open_tables, register
from tournament.models import Level
from tournament.selectors.stats import tournament_stats
from tournament.services import registration

pytestmark = pytest.mark.browser

TV = {"width": 1920, "height": 1080}
SHOTS = "color_up"  # /tmp/color_up_<label>.png, shot on every run (not only with SCREEN_SHOTS), to look at by eye
SUITS = {"s": "♠", "h": "♥", "d": "♦", "c": "♣"}

# Every element of the race panel inside the window (the page's own width is not checked); the shots on every run.
fits = partial(sizes.fits, prefix=SHOTS, selector="#race", whole_page=False, wait=200)


def count_shots(name: str, size: dict) -> list[tuple[str, bool]]:
    """The tablet's whole page; the phone's window, and its whole page too."""
    if size == PHONE:
        return [(f"{name}_phone", False), (f"{name}_phone_full", True)]
    return [(f"{name}_tablet", True)]


def chips_shown(page) -> int:
    return int(re.sub(r"\D", "", page.inner_text('[data-stat="chips_in_play"]')))


def type_on_pad(page, count: int) -> None:
    for digit in str(count):
        page.click(f'#race-pad button[data-key="{digit}"]')
    page.click("#race-next")


def test_a_dealer_races_the_color_up_on_the_tablet_and_the_lobby_follows(live_asgi, browser, director, cashier, dealer, tournament):
    base, t = live_asgi, tournament
    open_tables(director, t, [1, 2])
    register(cashier, t, 12)
    draws.draw_start(t, actor=director)
    level = Level.objects.get(structure=t.structure, kind=Level.Kind.BREAK).position
    color_ups.confirm_color_up(t, actor=director, level=level, leaving=[25, 100])
    display = registration.create_display_token(t, actor=director, label="Lobby TV")

    lobby = browser.new_context(viewport=TV).new_page()
    lobby.goto(f"{base}/display/{display.token}/")
    lobby.wait_for_selector("#live.live")
    before = tournament_stats(t)["chips_in_play"]
    lobby.wait_for_function(
        "(n) => document.querySelector('[data-stat=\"chips_in_play\"]').textContent.replace(/\\D/g, '') === String(n)", arg=before
    )

    tablet = browser.new_context(viewport=TABLET).new_page()
    asked = []
    tablet.on("dialog", lambda dialog: (asked.append(dialog.message), dialog.accept()))
    login(tablet, base, dealer.username, PASSWORD)
    tablet.goto(f"{base}/t/{t.pk}/tables/1/dealer/")
    tablet.wait_for_selector("#live.live")
    tablet.wait_for_selector("#race-banner", state="visible")
    assert tablet.inner_text("#race-title") == "Color-up: the 25s and 100s leave"
    assert "500" in tablet.inner_text("#race-new")
    banner = tablet.locator("#race-banner").bounding_box()
    assert banner["y"] < 200, banner  # at the top of the tablet, above the fold

    seats = [int(s) for s in tablet.eval_on_selector_all("#race-rows .r-row", "rows => rows.map(r => r.dataset.seat)")]
    assert len(seats) == 6
    assert tablet.locator("#race-rows .r-field").count() == 12  # one count per seat and leaving chip
    # The pad's keys are big enough for fingers.
    for key in tablet.locator("#race-pad button").all():
        box = key.bounding_box()
        assert box["width"] >= 64 and box["height"] >= 64, box
    quarters, blacks = [3, 0, 7, 1, 12, 2], [4, 2, 0, 0, 9, 3]
    # The first seat's first count is selected: type every count, Next after each.
    for q, b in zip(quarters, blacks, strict=True):
        type_on_pad(tablet, q)
        type_on_pad(tablet, b)
    only = seats[3]  # this player has nothing but one 25: he cannot be raced out
    tablet.click(f'#race-rows .r-only[data-only="{only}"]')
    assert tablet.get_attribute(f'.r-only[data-only="{only}"]', "aria-pressed") == "true"
    shown = tablet.eval_on_selector_all("#race-rows .r-field b", "bs => bs.map(b => b.textContent)")
    assert shown == [str(n) for pair in zip(quarters, blacks, strict=True) for n in pair]
    # A mistake: the third seat's 25s typed again (the first digit replaces the count, ⌫ deletes a digit).
    field = f'#race-rows .r-field[data-seat="{seats[2]}"][data-value="25"]'
    tablet.click(field)
    for k in ("1", "7", "back"):
        tablet.click(f'#race-pad button[data-key="{k}"]')
    assert tablet.inner_text(f"{field} b") == "1"
    tablet.click('#race-pad button[data-key="4"]')
    assert tablet.inner_text(f"{field} b") == "14"
    quarters[2] = 14
    assert fits(tablet, "count", shots=count_shots) == []

    tablet.click("#race-go")
    tablet.wait_for_selector("#race-sheet", state="visible")
    race = ChipRace.objects.get(table__number=1, table__tournament=t)
    assert race.status == ChipRace.Status.RECORDED and race.draw is not None
    assert race.seats[str(seats[0])]["chips"] == {"25": 3, "100": 4} and race.seats[str(only)]["other"] == 0
    assert race.seats[str(seats[2])]["chips"] == {"25": 14, "100": 0}
    assert race.seats[str(seats[1])]["other"] is None
    # The sheet: every seat's cards, with suit symbols (hearts and diamonds red), as the server dealt them.
    result = {row["seat"]: row for row in race.result["seats"]}
    for seat in seats:
        cards = tablet.eval_on_selector_all(
            f'#race-result tr[data-seat="{seat}"] .r-card',
            "cs => cs.map(c => [c.dataset.card, c.textContent, c.classList.contains('red')])",
        )
        assert [c[0] for c in cards] == result[seat]["cards"]
        for code, text, red in cards:
            assert text.endswith(SUITS[code[-1]]) and red == (code[-1] in "hd"), (code, text, red)
        assert tablet.inner_text(f'#race-result tr[data-seat="{seat}"] .r-c-new') == str(result[seat]["new_chips"])
    assert sum(len(row["cards"]) for row in result.values()) > 0
    assert tablet.locator("#race-winners li").count() == len(race.result["winners"])
    assert tablet.get_attribute("#race-difference", "data-difference") == str(race.difference)
    assert tablet.get_attribute("#race-draw-link", "href") == f"/s/{t.pk}/draws/{race.draw.number}/"
    assert tablet.is_hidden("#race-count") and tablet.is_hidden("#race-print")
    shot(tablet, SHOTS, "sheet_tablet", full_page=True)

    # Redo: back to the counts, as typed; one seat counted again, raced again.
    tablet.click("#race-redo")
    tablet.wait_for_selector("#race-count", state="visible")
    assert tablet.inner_text(f'.r-field[data-seat="{seats[0]}"][data-value="100"] b') == "4"
    assert tablet.get_attribute(f'.r-only[data-only="{only}"]', "aria-pressed") == "true"
    tablet.click(f'#race-rows .r-field[data-seat="{seats[5]}"][data-value="25"]')
    type_on_pad(tablet, 6)
    tablet.click("#race-go")
    tablet.wait_for_selector("#race-sheet", state="visible")
    tablet.wait_for_function(
        "(seat) => document.querySelector(`#race-result tr[data-seat='${seat}'] .r-c-counted`).textContent.startsWith('6 × 25')",
        arg=seats[5],
    )
    race = ChipRace.objects.get(table__number=1, table__tournament=t, status=ChipRace.Status.RECORDED)
    assert race.seats[str(seats[5])]["chips"] == {"25": 6, "100": 3}
    assert ChipRace.objects.filter(status=ChipRace.Status.REDONE).count() == 1
    assert tournament_stats(t)["chips_in_play"] == before  # nothing changes before the race is confirmed
    assert chips_shown(lobby) == before

    # Confirm (after the tablet's confirm dialog): the sheet folds to one line ("Race confirmed · show sheet");
    # shown again, it is marked confirmed and can be printed.
    tablet.click("#race-confirm")
    tablet.wait_for_selector("#race-done", state="visible")
    for folded in ("#race-sheet", "#race-banner"):  # the same redraw folds them (a loaded machine may paint it later)
        tablet.wait_for_selector(folded, state="hidden", timeout=10_000)
    assert tablet.is_hidden("#race-sheet") and tablet.is_hidden("#race-banner")
    tablet.click("#race-show")
    tablet.wait_for_selector("#race-stamp", state="visible")
    race.refresh_from_db()
    assert race.status == ChipRace.Status.CONFIRMED and race.confirmed_at is not None
    # Odd values 1,700: three 500s raced (-200). The player with nothing but one 25 races like everyone
    # (the default house rule): if his card wins he keeps that chip, otherwise he gets the protection chip
    # (+500). Which one happens depends on the seed, so the sheet says which and the difference follows.
    protected = race.result["protected"]
    assert protected in ([], [only])
    assert (only in race.result["winners"]) == (not protected)
    expected = -200 + 500 * len(protected)
    assert race.difference == expected and len(asked) == 1
    assert ("+300" if protected else "\u2212200") in asked[0], asked  # Live.signed: a real minus sign
    assert tablet.is_visible("#race-print") and tablet.is_hidden("#race-confirm") and tablet.is_hidden("#race-redo")
    assert tablet.is_visible("#race-banner")
    after = tournament_stats(t)["chips_in_play"]
    assert after == before + race.difference
    lobby.wait_for_function(
        "(n) => document.querySelector('[data-stat=\"chips_in_play\"]').textContent.replace(/\\D/g, '') === String(n)",
        arg=after,
        timeout=10_000,
    )
    assert chips_shown(lobby) - before == int(tablet.get_attribute("#race-difference", "data-difference"))
    shot(tablet, SHOTS, "confirmed_tablet", full_page=True)

    tablet.emulate_media(media="print")
    assert tablet.is_visible("#race-result") and tablet.is_visible("#race-stamp")
    for elsewhere in ("#race-banner", "#shuffle", "header.top", "#race-print", "#table-level", "#race-say"):
        assert not tablet.locator(elsewhere).first.is_visible(), elsewhere
    shot(tablet, SHOTS, "print", full_page=True)
    tablet.emulate_media(media="screen")

    assert fits(tablet, "sheet", (PHONE,), shots=by_device()) == []


def test_a_table_that_deals_its_own_cards_enters_them_on_the_card_pad(live_asgi, browser, director, cashier, dealer, tournament):
    base, t = live_asgi, tournament
    open_tables(director, t, [1, 2])
    register(cashier, t, 12)
    draws.draw_start(t, actor=director)
    color_ups.confirm_color_up(
        t, actor=director, level=Level.objects.get(structure=t.structure, kind=Level.Kind.BREAK).position, leaving=[25]
    )
    tablet = browser.new_context(viewport=TABLET).new_page()
    login(tablet, base, dealer.username, PASSWORD)
    tablet.goto(f"{base}/t/{t.pk}/tables/1/dealer/")
    tablet.wait_for_selector("#race-banner", state="visible")
    seats = [int(s) for s in tablet.eval_on_selector_all("#race-rows .r-row", "rows => rows.map(r => r.dataset.seat)")]
    quarters = [3, 1, 0, 2, 5, 1]  # odd chips 3, 1, 0, 2, 1 (one 100 exchanged), 1: 8 cards, 200 raced (two 100s)
    for q in quarters:
        type_on_pad(tablet, q)

    # The table deals: the big button now asks for the cards, and the server says how many each seat gets.
    assert tablet.get_attribute('#race-modes [data-mode="seed"]', "aria-pressed") == "true"
    tablet.click('#race-modes [data-mode="hand"]')
    assert tablet.get_attribute('#race-modes [data-mode="hand"]', "aria-pressed") == "true"
    assert tablet.inner_text("#race-go").startswith("Enter the cards")
    assert tablet.inner_text("#race-step").endswith("then press Enter the cards.")
    tablet.click("#race-go")
    tablet.wait_for_selector("#race-cards", state="visible")
    assert tablet.is_hidden("#race-count") and not ChipRace.objects.exists()
    per_seat = {seat: tablet.locator(f'#race-hands .r-slot[data-seat="{seat}"]').count() for seat in seats}
    assert per_seat == dict(zip(seats, [3, 1, 0, 2, 1, 1], strict=True))
    assert tablet.inner_text("#race-step") == "Enter the cards as dealt, then press Race with these cards."
    assert tablet.inner_text("#race-card-target") == f"Seat {seats[0]} · card 1 of 3"
    for key in tablet.locator("#race-card-pad button").all():
        box = key.bounding_box()
        assert box["width"] >= 44 and box["height"] >= 52, box

    # Dealt from seat 1, each player all his cards at once: typed in the same order, rank then suit.
    dealt = ["Ad", "7c", "Ts", "Kh", "Ah", "2s", "Qc", "9d"]
    for code in dealt[:-1]:
        tablet.click(f'#race-card-pad [data-rank="{code[0]}"]')
        tablet.click(f'#race-card-pad [data-suit="{code[1]}"]')
    # A card already given cannot be given twice: the ace of diamonds is greyed out once the ace is chosen.
    tablet.click('#race-card-pad [data-rank="A"]')
    assert tablet.is_disabled('#race-card-pad [data-suit="d"]') and tablet.is_enabled('#race-card-pad [data-suit="s"]')
    # One card missing: the race is refused on the tablet and nothing is sent.
    tablet.click("#race-cards-go")
    tablet.wait_for_function(
        "() => document.querySelector('#dealer-feedback, [data-api-say]').textContent.includes('enter every card dealt')"
    )
    assert not ChipRace.objects.exists()
    # A mistake corrected: the second card tapped again, cleared and typed again.
    tablet.click(f'#race-hands .r-slot[data-seat="{seats[0]}"][data-i="1"]')
    tablet.click("#race-card-clear")
    assert tablet.inner_text(f'#race-hands .r-slot[data-seat="{seats[0]}"][data-i="1"]') == "?"
    tablet.click('#race-card-pad [data-rank="7"]')
    tablet.click('#race-card-pad [data-suit="c"]')
    tablet.click('#race-card-pad [data-rank="9"]')
    tablet.click('#race-card-pad [data-suit="d"]')
    shown = tablet.eval_on_selector_all("#race-hands .r-slot", "bs => bs.map(b => b.dataset.card)")
    assert shown == dealt
    assert fits(tablet, "cards", shots=by_device(whole=(TABLET,))) == []

    tablet.click("#race-cards-go")
    tablet.wait_for_selector("#race-sheet", state="visible")
    race = ChipRace.objects.get(table__number=1, table__tournament=t)
    assert race.draw is None and race.status == ChipRace.Status.RECORDED
    by_seat = {row["seat"]: row["cards"] for row in race.result["seats"]}
    assert [c for seat in seats for c in by_seat.get(seat, [])] == dealt
    # The highest cards win, one chip a player: the ace of hearts (seat 3), then the ace of diamonds (seat 1).
    assert race.result["winners"] == [seats[3], seats[0]]
    assert tablet.inner_text("#race-draw") == "Cards entered as dealt at the table"
    assert tablet.locator("#race-winners li").count() == 2

    # Redo keeps the table's way of dealing.
    tablet.click("#race-redo")
    tablet.wait_for_selector("#race-count", state="visible")
    assert tablet.get_attribute('#race-modes [data-mode="hand"]', "aria-pressed") == "true"
    tablet.click("#race-go")
    tablet.wait_for_selector("#race-cards", state="visible")
    tablet.click("#race-cards-back")
    tablet.wait_for_selector("#race-count", state="visible")
    assert ChipRace.objects.count() == 1
