"""Every screen fits its device: each screen of SCREENS is opened in a real browser at each of its
sizes, with realistic data (a long Czech name, big-blind antes up to 25,000 / 50,000, an
announcement, a five-digit prize pool, a draw), and the page is checked for horizontal overflow,
clipped text and overlapping text (CHECK below). A screen added later is one more line in SCREENS.
At its first size each screen is also checked by axe-core (serious and critical violations fail it) and for
anything with a pointer cursor that a keyboard cannot reach (tests/browser/accessibility.py).

The screens shown in the same state (SCREENS' setup) are one test: the room is built once for them and the
director's session made once (a room and a login per screen were half the walk's time); each
size still opens a new browser context and loads the screen afresh. A finding names its screen and size.

With SCREEN_SHOTS=1 every case is also shot to /tmp/screen_<name>_<w>x<h>.png, to look at by eye: the checker
finds what breaks, not what is ugly."""

from __future__ import annotations

import os
from collections.abc import Callable
from dataclasses import dataclass
from datetime import date, timedelta

import pytest
from django.utils import timezone

from clock.services import clock as clock_services
from days.services import bags as day_bags
from leagues.models import League
from leagues.services import leagues
from payouts.models import Ticket
from payouts.services import structure as payout_services
from payouts.services import tickets
from tables.models import Draw
from tables.services import busts, draws, handforhand
from tables.services import setup as table_setup
from tests.browser import accessibility
from tests.browser.conftest import session_cookie
from tests.browser.csp import csp_problems, watch_errors
from tests.conftest import tournament_data
from tests.days.test_bagging import even
from tests.helpers import id_doc, table
from tournament.models import Entry, Tournament, WaitingPlace
from tournament.rules.structure import LevelSpec, StructureSpec
from tournament.services import registration, setup
from venues.services import displays
from venues.services import setup as venue_setup

pytestmark = pytest.mark.browser

TV_SIZES = ((1920, 1080), (1366, 768), (3840, 2160), (1080, 1920))
PHONE_SIZES = ((390, 844),)
STAFF_SIZES = ((1440, 900), (1180, 820))  # laptop, 10" tablet
CLOCK_SIZES = (*STAFF_SIZES, (390, 844))  # the director's clock and the dealer tablet also on a phone
SHOTS = "/tmp/screen_{}_{}x{}.png" if os.environ.get("SCREEN_SHOTS") else ""

NAME = "Velká cena Prahy – Main Event, Den 1A: Jiří Procházka Memorial"
VENUE = "Casino Atrium Praha, Rozvadov Ballroom"
ANNOUNCEMENT = "Registrace do Dne 1B je otevřená u pokladny do 21:30. Final table se hraje v neděli od 14:00 na feature stole."
ENTRIES = 30
BUY_IN = 50_000  # 500.00 EUR: thirty entries make a pool of 15,000 EUR

SPEC = StructureSpec(
    name="Main Event 30k",
    denominations=((25, "zelená"), (100, "černá"), (500, "fialová"), (1000, "žlutá"), (5000, "oranžová"), (25000, "světle modrá")),
    levels=(
        LevelSpec("level", 40, 75, 150, 150, "bba"),
        LevelSpec("level", 40, 100, 200, 200, "bba"),
        LevelSpec("break", 15),
        LevelSpec("level", 40, 150, 300, 300, "bba"),
        LevelSpec("level", 40, 200, 400, 400, "bba"),
        LevelSpec("level", 40, 300, 600, 600, "bba"),
        LevelSpec("level", 40, 500, 1000, 1000, "bba"),
        LevelSpec("level", 40, 1000, 2000, 2000, "bba"),
        LevelSpec("level", 40, 2000, 4000, 4000, "bba"),
        LevelSpec("level", 60, 5000, 10000, 10000, "bba"),
        LevelSpec("level", 60, 10000, 20000, 20000, "bba"),
        LevelSpec("level", 60, 15000, 30000, 30000, "bba"),
        LevelSpec("break", 20, color_up=(100, 500, 1000)),
        LevelSpec("level", 90, 20000, 40000, 40000, "bba"),
        LevelSpec("level", 90, 25000, 50000, 50000, "bba"),
    ),
)
LATE_LEVEL = 12  # 20,000 / 40,000, next 25,000 / 50,000: the widest figures

# The checker, evaluated in the page. It looks at every visible text (text nodes, and what inputs
# and buttons show) and returns one line per finding:
#   overflow  the document is wider than the window (it scrolls sideways);
#   clipped   a text is cut: its element has more content than room on an axis it clips (overflow
#             hidden/clip/auto/scroll, or text-overflow: ellipsis sideways): scrollWidth > clientWidth + 1
#             or scrollHeight > clientHeight + 1; or the text runs out of an ancestor that clips, or out
#             of the window (sideways always; downwards too when the screen must not scroll, as a TV);
#   overlap   the boxes of two visible texts intersect (leaf texts: elements with text of their own,
#             neither inside the other; an element marked data-overlap-ok, or inside one, is skipped);
#   broken    a figure runs over two lines ("CZK 100," above "000"): a number with its groups and
#             decimals, its sign and its currency (NUMBER) whose boxes (Range.getClientRects) lie on more
#             than one line.
# A text's box is the union of the boxes of its own text nodes (Range.getClientRects), less the
# band above and below the letters (12 % of the line height each) that a tight line-height lets
# touch the next line without any letter touching.
CHECK = r"""(opts) => {
  const W = window.innerWidth, H = window.innerHeight, out = [], TOL = 1;
  const label = (el) => {
    let s = el.tagName.toLowerCase() + (el.id ? "#" + el.id : "")
      + (typeof el.className === "string" && el.className.trim() ? "." + el.className.trim().split(/\s+/).join(".") : "");
    const text = (el.innerText || el.value || el.textContent || "").replace(/\s+/g, " ").trim();
    return s + ' "' + (text.length > 60 ? text.slice(0, 60) + "…" : text) + '"';
  };
  const visible = (el) => {
    if (!el.getClientRects().length) return false;
    // Not shown: inside a closed <details> (content-visibility), or hidden, or transparent.
    const shown = {contentVisibilityAuto: true, opacityProperty: true, visibilityProperty: true};
    if (el.checkVisibility && !el.checkVisibility(shown)) return false;
    const cs = getComputedStyle(el);
    if (cs.visibility !== "visible" || parseFloat(cs.opacity) === 0) return false;
    const r = el.getBoundingClientRect();
    return r.width > 1 && r.height > 1;  // not a screen-reader-only text
  };
  const CLIP = ["hidden", "clip", "scroll", "auto"];
  const clips = (cs) => CLIP.includes(cs.overflowX) || CLIP.includes(cs.overflowY);
  const ownTextRect = (el) => {  // the union of the boxes of the element's own texts, and each line's box
    let box = null;
    const lines = [];
    const pad = (r) => Object.assign(r, {pad: (r.bottom - r.top) * 0.12});
    for (const n of el.childNodes) {
      if (n.nodeType !== 3 || !n.textContent.trim()) continue;
      const range = document.createRange();
      range.selectNodeContents(n);
      for (const r of range.getClientRects()) {
        if (r.width < 1 || r.height < 1) continue;
        lines.push(pad({left: r.left, top: r.top, right: r.right, bottom: r.bottom}));
        box = box ? {left: Math.min(box.left, r.left), top: Math.min(box.top, r.top),
                     right: Math.max(box.right, r.right), bottom: Math.max(box.bottom, r.bottom)}
                  : {left: r.left, top: r.top, right: r.right, bottom: r.bottom};
      }
    }
    if (!box && (el.matches("input:not([type=hidden]), button, select, textarea")) && (el.value || el.textContent).trim()) {
      const r = el.getBoundingClientRect();
      box = {left: r.left, top: r.top, right: r.right, bottom: r.bottom};
      lines.push(pad({...box}));
    }
    // The box of a line is taller than its letters (the font's ascent and descent): the band above
    // and below the glyphs, 12 % of the line each, may touch the next line or an edge.
    if (box) pad(box).lines = lines;
    return box;
  };

  // A figure as the screens write it: an optional sign, an optional ISO code before, digits grouped by
  // commas, dots, colons or no-break spaces, an optional currency after ("-CZK 31,000", "1 100 Kč", 19:30).
  const NUMBER = new RegExp("(?<![\\p{L}\\p{N}])[-\\u2212+\\u00b1]?(?:\\p{Lu}{3}[\\u00a0\\u202f])?"
    + "\\p{Nd}+(?:[.,:\\u00a0\\u202f\\u2009]\\p{Nd}+)*(?:[\\u00a0\\u202f](?:Kč|€|\\p{Lu}{3}))?", "gu");
  const brokenNumbers = (el) => {
    for (const n of el.childNodes) {
      if (n.nodeType !== 3 || !/\p{Nd}/u.test(n.textContent)) continue;
      for (const m of n.textContent.matchAll(NUMBER)) {
        const range = document.createRange();
        range.setStart(n, m.index);
        range.setEnd(n, m.index + m[0].length);
        const rects = [...range.getClientRects()].filter((r) => r.width >= 1 && r.height >= 1);
        // Another line: a box that starts below the middle of the first one.
        if (rects.some((r) => r.top > (rects[0].top + rects[0].bottom) / 2)) {
          out.push(`broken: ${label(el)} writes "${m[0]}" over ${rects.length} lines`);
        }
      }
    }
  };

  const doc = document.documentElement;
  if (doc.scrollWidth > W + TOL) out.push(`overflow: the page is ${doc.scrollWidth}px wide in a ${W}px window`);
  if (opts.noScroll && doc.scrollHeight > H + TOL) out.push(`overflow: the page is ${doc.scrollHeight}px high in a ${H}px window`);

  const leaves = [];
  for (const el of document.body.querySelectorAll("*")) {
    if (["SCRIPT", "STYLE", "TEMPLATE", "NOSCRIPT", "svg"].includes(el.tagName) || !visible(el)) continue;
    const box = ownTextRect(el);
    if (!box) continue;
    leaves.push({el, box});
    brokenNumbers(el);
    const cs = getComputedStyle(el);
    if (!el.matches("input, textarea, select")) {
      if ((CLIP.includes(cs.overflowX) || cs.textOverflow === "ellipsis") && el.scrollWidth > el.clientWidth + TOL) {
        out.push(`clipped: ${label(el)} is ${el.scrollWidth}px wide in ${el.clientWidth}px`);
      } else if (CLIP.includes(cs.overflowY) && el.scrollHeight > el.clientHeight + TOL) {
        out.push(`clipped: ${label(el)} is ${el.scrollHeight}px high in ${el.clientHeight}px`);
      }
    }
    const span = (a, b, of) => `(${Math.round(a)}..${Math.round(b)} of ${of})`;
    if (box.right > W + TOL || box.left < -TOL) {
      out.push(`clipped: ${label(el)} runs out of the window sideways ${span(box.left, box.right, W)}`);
    } else if (opts.noScroll && (box.bottom - box.pad > H + TOL || box.top + box.pad < -TOL)) {
      out.push(`clipped: ${label(el)} runs out of the window ${span(box.top, box.bottom, H)}`);
    } else {
      for (let a = el.parentElement; a && a !== document.body; a = a.parentElement) {
        const acs = getComputedStyle(a);
        if (!clips(acs)) continue;
        const r = a.getBoundingClientRect();
        const inner = {left: r.left + a.clientLeft, top: r.top + a.clientTop};
        inner.right = inner.left + a.clientWidth; inner.bottom = inner.top + a.clientHeight;
        const x = CLIP.includes(acs.overflowX) && (box.left < inner.left - TOL || box.right > inner.right + TOL);
        const y = CLIP.includes(acs.overflowY) && (box.top + box.pad < inner.top - TOL || box.bottom - box.pad > inner.bottom + TOL);
        if (x || y) {
          out.push(`clipped: ${label(el)} runs out of ${label(a)}`);
          break;
        }
      }
    }
  }
  const ok = (el) => !!el.closest("[data-overlap-ok]");
  for (let i = 0; i < leaves.length; i++) {
    for (let j = i + 1; j < leaves.length; j++) {
      const a = leaves[i], b = leaves[j];
      if (ok(a.el) || ok(b.el) || a.el.contains(b.el) || b.el.contains(a.el)) continue;
      // Line by line: a text wrapped over two lines is not one rectangle.
      found: for (const p of a.box.lines) {
        for (const q of b.box.lines) {
          const w = Math.min(p.right, q.right) - Math.max(p.left, q.left);
          const h = Math.min(p.bottom - p.pad, q.bottom - q.pad) - Math.max(p.top + p.pad, q.top + q.pad);
          if (w > TOL && h > TOL) {
            out.push(`overlap: ${label(a.el)} and ${label(b.el)} (${Math.round(w)}×${Math.round(h)}px)`);
            break found;
          }
        }
      }
    }
  }
  return out;
}"""


@dataclass
class Room:
    """The realistic tournament every screen is shown with."""

    director: object
    tournament: object
    display: object
    draw: object


def as_drawn(room: Room) -> None:
    """The room as the fixture leaves it: thirty entries seated by the start draw, the clock not started."""


@dataclass(frozen=True)
class Screen:
    name: str
    url: Callable[[Room], str]  # the path of the page
    sizes: tuple[tuple[int, int], ...]
    setup: Callable[[Room], None] = as_drawn  # the state the screen is shown in
    ready: str = "body"  # a selector the page shows once it is filled
    script: str = ""  # run in the page once it is ready (a state a test cannot reach from the server)
    no_scroll: bool = False  # a TV: nothing may run out of the window downwards either
    staff: bool = False  # a staff page: the director logs in first
    locale: str = "cs-CZ"  # the browser's language (Czech texts are the longest)
    touch: bool = False  # a touch screen (matchMedia("(pointer: coarse)")), not a TV


# A screen has settled when two frames have passed since it was ready: the text fitted to its box
# (clock.js's fit runs on a frame and on a resize) is what a viewer sees.
SETTLED = "() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done)))"


def lobby_url(room: Room) -> str:
    return f"/display/{room.display.token}/"


def room_tv_url(room: Room) -> str:
    """The room TV of the venue the tournament plays in (its link made once per room)."""
    if getattr(room, "room_tv", None) is None:
        room.room_tv = displays.create_display(venue_setup.default_venue(), actor=room.director, label="Room TV")
    return f"/display/room/{room.room_tv.token}/"


# The TV has not been touched yet, so it may not play sound; it has no touch, so its hint to touch the screen
# is hidden (that it stays hidden, look after look, is tests/browser/test_lobby.py's: here, the layout).
SOUND_OFF = """async () => {
  Object.defineProperty((await import("/static/js/clock.js")).sounds, "available", {get: () => false});
  if (!document.getElementById("sound-off").hidden) throw new Error("a TV asks to be touched");
}"""
# A lobby on a touch screen whose link asks for sound (?sound=1), not touched yet: its hint shows (within two
# seconds), and must fit with the rest.
SOUND_ASKS = """async () => new Promise(async (done) => {
  Object.defineProperty((await import("/static/js/clock.js")).sounds, "available", {get: () => false});
  const hint = document.getElementById("sound-off"), wait = () => hint.hidden ? setTimeout(wait, 100) : done();
  wait();
})"""


def first_level(room: Room) -> None:
    clock_services.start_clock(room.tournament, actor=room.director)
    clock_services.adjust_clock(room.tournament, actor=room.director, seconds=-11)  # 39:4x left
    clock_services.set_announcement(room.tournament, actor=room.director, text=ANNOUNCEMENT)


def late_level(room: Room) -> None:
    clock_services.start_clock(room.tournament, actor=room.director)
    clock_services.jump_to_level(room.tournament, actor=room.director, level=LATE_LEVEL)
    clock_services.adjust_clock(room.tournament, actor=room.director, seconds=-11)  # 1:29:4x left
    clock_services.set_announcement(room.tournament, actor=room.director, text=ANNOUNCEMENT)


def break_with_color_up(room: Room) -> None:
    clock_services.start_clock(room.tournament, actor=room.director)
    clock_services.jump_to_level(room.tournament, actor=room.director, level=LATE_LEVEL - 1)
    clock_services.step_level(room.tournament, actor=room.director, step=1)  # the break before the last levels
    clock_services.set_announcement(room.tournament, actor=room.director, text=ANNOUNCEMENT)


def hand_for_hand(room: Room) -> None:
    late_level(room)
    handforhand.start_hand_for_hand(room.tournament, actor=room.director)  # pauses the clock


def in_the_money(room: Room) -> None:
    """Half the field paid (15 places), seventeen out (places 30 to 14): place 15 (entry 16) is paid, its
    receipt printed; place 14 (entry 17) waits at the cashier."""
    from payouts.services import structure as payouts
    from tables.services import busts
    from tests.payouts.test_payments import signature
    from tournament.models import Entry

    payouts.set_payout_plan(room.tournament, actor=room.director, data={"share_paid_bp": 5000, "min_cash_bp": 0})
    registration.set_registration_closed(room.tournament, actor=room.director, closed=True)
    for entry in Entry.objects.filter(tournament=room.tournament).order_by("number")[:17]:
        busts.bust_entry(entry, actor=room.director)
    paid = Entry.objects.get(tournament=room.tournament, number=16)
    payouts.pay_prize(paid, actor=room.director, document=id_doc(f"EA{paid.number - 1:07d}"), signature=signature())


def overlay_in_the_money(room: Room) -> None:
    """In the money, with a guarantee above the pool: the house adds an overlay and its result is negative."""
    room.tournament.guaranteed_pool = 2_000_000
    room.tournament.save(update_fields=["guaranteed_pool"])
    in_the_money(room)


def color_up_confirmed(room: Room) -> None:
    """The break of the color-up, confirmed: the chips in play and the tables to race show."""
    from tables.services import color_ups
    from tournament.models import Level

    break_with_color_up(room)
    row = Level.objects.filter(structure=room.tournament.structure, kind=Level.Kind.BREAK).order_by("position").last()
    color_ups.confirm_color_up(room.tournament, actor=room.director, level=row.position, leaving=[25, 100, 500, 1000])


def penalties_given(room: Room) -> None:
    """Penalties at table 1 (TDA 51): two rounds (one hand served), one hand, a warning, and one cancelled."""
    from tables.models import Seat, Table
    from tables.services import hands, penalties

    table = Table.objects.get(tournament=room.tournament, number=1)
    at_one = list(Seat.objects.filter(table=table, ended_at__isnull=True).order_by("seat").values_list("entry__number", flat=True))
    t, who = room.tournament, room.director
    penalties.give_penalty(
        t, actor=who, entry_number=at_one[0], kind="rounds", rounds=2, reason="Urážlivé výrazy vůči krupiérovi a soupeřům u stolu"
    )
    penalties.give_penalty(t, actor=who, entry_number=at_one[-1], kind="hand", rounds=None, reason="Odhalená karta během rozdávání")
    penalties.give_penalty(t, actor=who, entry_number=at_one[1], kind="warning", rounds=None, reason="Pomalá hra")
    cancelled = penalties.give_penalty(
        t, actor=who, entry_number=at_one[2], kind="rounds", rounds=1, reason="Telefon u stolu během rozdávání"
    )
    penalties.cancel_penalty(t, actor=who, number=cancelled.number, reason="Omyl: hráč nebyl v rozdání")
    hands.start_hand(table, actor=who)


def winner(room: Room) -> None:
    """Play is over: half the field paid (15 places), everyone out but the winner; the TV shows the
    winner and the top ten places, and how many more are paid."""
    from payouts.services import structure as payouts
    from tables.services import busts
    from tournament.models import Entry

    payouts.set_payout_plan(room.tournament, actor=room.director, data={"share_paid_bp": 5000, "min_cash_bp": 0})
    registration.set_registration_closed(room.tournament, actor=room.director, closed=True)
    for entry in Entry.objects.filter(tournament=room.tournament).order_by("number")[: ENTRIES - 1]:
        busts.bust_entry(entry, actor=room.director)


def break_in_a_league(room: Room) -> None:
    """The break of break_with_color_up, the tournament in a league whose earlier tournament of twelve of the
    same players is over: the TV shows the league's first ten during the break."""
    break_with_color_up(room)
    league = leagues.create_league(
        actor=room.director, data={"name": "Pražská podzimní liga 2026 – Deepstack série", "formula": "square_root", "participation": 1}
    )
    earlier = setup.create_tournament(
        tournament_data(name="Deepstack #1", guaranteed_pool=0),
        actor=room.director,
        template=setup.save_structure_template(SPEC, actor=room.director),
    )
    entries = [
        registration.register_entry(earlier, actor=room.director, player=entry.player, document=id_doc(f"EA{i:07d}"))
        for i, entry in enumerate(Entry.objects.filter(tournament=room.tournament).order_by("number")[:12])
    ]
    for entry in entries[1:]:
        busts.bust_entry(entry, actor=room.director)
    leagues.add_tournament(league, actor=room.director, tournament=earlier)
    leagues.add_tournament(league, actor=room.director, tournament=room.tournament)


def satellite_bubble(room: Room) -> None:
    """The tournament a satellite of a Main Event at 4,750 EUR a seat: thirty entries are three seats and
    750 EUR for fourth place; twenty-six out, the next bust stops play (the seat bubble)."""
    target = setup.create_tournament(
        tournament_data(
            name="Velká cena Prahy 2026 – Main Event, Den 1: Hlavní turnaj", buy_in=9 * BUY_IN, fee=BUY_IN // 2, guaranteed_pool=0
        ),
        actor=room.director,
        template=setup.save_structure_template(SPEC, actor=room.director),
    )
    tickets.set_satellite(room.tournament, actor=room.director, data={"target": target.pk, "transferable": True})
    registration.set_registration_closed(room.tournament, actor=room.director, closed=True)
    for entry in Entry.objects.filter(tournament=room.tournament).order_by("number")[: ENTRIES - 4]:
        busts.bust_entry(entry, actor=room.director)


def satellite_stopped(room: Room) -> None:
    """The seat bubble burst: three seat winners hold tickets, fourth place has the cash."""
    satellite_bubble(room)
    busts.bust_entry(
        Entry.objects.filter(tournament=room.tournament, status=Entry.Status.ACTIVE).order_by("number").first(), actor=room.director
    )


BOUNTY_NAME = "Velká cena Prahy 2026 – PKO Bounty Hunter, Den 1: Lov na hlavy"
MYSTERY_NAME = "Velká cena Prahy 2026 – Mystery Bounty, Den 1: Obálky"


def bounty_event(room: Room, name: str, fmt: str, tables: list[int], players: int, **rules):
    """A bounty event beside the room's tournament, at tables of its own: `players` entries with long Czech names at
    500 EUR to the pool, a 500 EUR head and a 50 EUR fee, drawn and their buttons drawn."""
    from payouts.services import bounties
    from tables.models import Table

    t = setup.create_tournament(
        tournament_data(
            name=name, venue=VENUE, buy_in=BUY_IN, fee=5000, bounty_format=fmt, bounty=BUY_IN, guaranteed_pool=0, late_reg_until_level=2
        ),
        actor=room.director,
        template=setup.save_structure_template(SPEC, actor=room.director),
    )
    if rules:
        bounties.set_bounty_rules(t, actor=room.director, data=rules)
    for n in tables:
        table_setup.open_table(t, actor=room.director, number=n, seats=9)
    for i in range(players):
        player = registration.create_player(
            actor=room.director,
            first_name=["Jiří", "Markéta", "Bohumil", "Ludmila"][i % 4],
            last_name=["Procházková-Dvořáková", "Šťastný", "Lobkowicz-Příhodová", "Řezníček"][i % 4],
            date_of_birth=date(1981, 2, 1 + i % 28),
        )
        registration.register_entry(t, actor=room.director, player=player, document=id_doc(f"BK{i:07d}"))
    draws.draw_start(t, actor=room.director)
    for n in tables:
        draws.draw_button(Table.objects.get(tournament=t, number=n), actor=room.director)
    return t


def pko_paid(room: Room) -> None:
    """A PKO event of nine at one table beside the room's tournament: five knockouts (#9 to #1, #8 to #1, #7 to #2,
    #6 to #3, #1 to #2: a grown head), #3's bounty paid at the cage (bounty receipt 1), #2 still owed his."""
    from payouts.services import bounty_cage
    from tests.payouts.test_payments import signature

    t = bounty_event(room, BOUNTY_NAME, "progressive", [5], 9, increment=2_500)
    by = {n: Entry.objects.get(tournament=t, number=n) for n in range(1, 10)}
    for busted, winner in ((9, 1), (8, 1), (7, 2), (6, 3), (1, 2)):
        busts.bust_entry(by[busted], actor=room.director, eliminators=[winner])
    bounty_cage.pay_bounties(by[3], actor=room.director, document=id_doc("BK0000002"), signature=signature())


def mystery_open(room: Room) -> None:
    """A mystery bounty event of nine, registration closed, its envelopes not committed yet: the director's settings and
    the envelope list's form."""
    t = bounty_event(room, MYSTERY_NAME, "mystery", [5], 9, mystery_level=3)
    registration.set_registration_closed(t, actor=room.director, closed=True)


def bounty_url(name: str, path: str) -> Callable[[Room], str]:
    def url(room: Room) -> str:
        return f"/t/{Tournament.objects.get(name=name).pk}/{path}"

    return url


def bounty_nights(room: Room) -> None:
    """Two bounty events beside the room's, on tables of their own: a mystery bounty event of nine whose envelopes are
    committed in four values, one of them drawn (the box one fewer, the last envelope with its winner's name), and a
    progressive knockout of eighteen, six knocked out (its biggest heads, long Czech names among them; its last
    eliminator's seat page)."""
    from payouts.services import bounties
    from tables.models import Seat, Table

    template = setup.save_structure_template(SPEC, actor=room.director)
    surnames = ["Procházková-Dvořáková", "Šťastný", "Koťátková", "Žďárský", "Lobkowicz-Příhodová", "Řezníček"]
    room.bounty = {}
    for fmt, tables, players, knockouts in (("mystery", (7,), 9, 1), ("progressive", (5, 6), 18, 6)):
        t = setup.create_tournament(
            tournament_data(
                name=f"{NAME} – {fmt}", venue=VENUE, buy_in=BUY_IN, fee=5000, bounty_format=fmt, bounty=25_000, guaranteed_pool=0
            ),
            actor=room.director,
            template=template,
        )
        if fmt == "mystery":
            bounties.set_bounty_rules(t, actor=room.director, data={"mystery_level": 1})
        for n in tables:
            table_setup.open_table(t, actor=room.director, number=n, seats=9)
        for i in range(players):
            player = registration.create_player(
                actor=room.director,
                first_name=["Maximilián", "Markéta", "Bohumil", "Ludmila"][i % 4],
                last_name=surnames[i % len(surnames)],
                date_of_birth=date(1975, 1 + i % 12, 1 + i % 28),
            )
            registration.register_entry(t, actor=room.director, player=player, document=id_doc(f"EB{fmt[0]}{i:06d}"))
        draws.draw_start(t, actor=room.director)
        for n in tables:
            draws.draw_button(Table.objects.get(tournament=t, number=n), actor=room.director)
        if fmt == "mystery":
            registration.set_registration_closed(t, actor=room.director, closed=True)
            bounties.commit_envelopes(t, actor=room.director, envelopes=[[100_000, 1], [40_000, 1], [25_000, 1], [10_000, 6]])
        for k in range(knockouts):  # the last seated at a table out, to one of its first two: the heads grow apart
            at = list(
                Seat.objects.filter(table__tournament=t, table__number=tables[k % len(tables)], ended_at__isnull=True).order_by(
                    "entry__number"
                )
            )
            busts.bust_entry(at[-1].entry, actor=room.director, eliminators=[at[k % 2].entry.number])
            room.bounty_winner = at[k % 2].entry.number  # a PKO winner's page: his head and his knockouts
        room.bounty[fmt] = (t, registration.create_display_token(t, actor=room.director, label="Lobby TV"))


def bounty_lobby_url(fmt: str) -> Callable[[Room], str]:
    """A bounty event's TV, its bounty panel all the time (?bounties=1)."""
    return lambda room: f"/display/{room.bounty[fmt][1].token}/?bounties=1"


def mystery_draw_url(room: Room) -> str:
    t = room.bounty["mystery"][0]
    return f"/s/{t.pk}/draws/{Draw.objects.get(tournament=t, kind=Draw.Kind.ENVELOPE).number}/"


def ticket_register_url(room: Room) -> str:
    ticket = Ticket.objects.order_by("number").first()
    return f"/t/{ticket.satellite.target_id}/register/?ticket={ticket.pk}"


def league_url(room: Room, path: str) -> str:
    return path.format(League.objects.get().pk)


def bags_taken(room: Room) -> None:
    """Table 1 bagged at the end of the day: its bag slips to print (the house's 80 mm roll)."""
    day_bags.record_table_bags(table(room.tournament, 1), actor=room.director, bags=even(room.tournament, 1, chips=30000))


def sold_out_with_calls(room: Room) -> None:
    """Sold out: the room's four tables of nine made the venue's fixed set and filled (six more entries), six players
    on the waiting list; four busts offer their seats to alternates 1 to 4 (the TV shows the latest three and says one
    more); the clock at the late level with the announcement, the figures at their widest."""
    from tournament.services import waiting_list

    def newcomer(i: int):
        return registration.create_player(
            actor=room.director, first_name="Markéta", last_name=f"Lobkowicz-Příhodová {i}", date_of_birth=date(1985, 3, 1 + i % 28)
        )

    for i in range(ENTRIES, ENTRIES + 6):
        registration.register_entry(room.tournament, actor=room.director, player=newcomer(i), document=id_doc(f"EA{i:07d}"))
    venue_setup.set_areas(venue_setup.default_venue(), actor=room.director, areas=[], fixed_tables=True)
    for i in range(6):
        waiting_list.join(room.tournament, actor=room.director, player=newcomer(100 + i), document=id_doc(f"WL{i:07d}"))
    for entry in Entry.objects.filter(tournament=room.tournament).order_by("number")[:4]:
        busts.bust_entry(entry, actor=room.director)
    room.alternate_entry = WaitingPlace.objects.get(tournament=room.tournament, number=4).entry.number
    late_level(room)


def reservations_taken(room: Room) -> None:
    """Tomorrow's event beside the room's tournament, taking reservations from phones: four made with long Czech names and
    contacts, one claimed at the desk, one cancelled, the others held (the last one's link kept for its page)."""
    from tournament.services import reservations

    t = setup.create_tournament(
        tournament_data(name="Zítřejší Deepstack s velmi dlouhým názvem", venue=VENUE, start_at=timezone.now() + timedelta(days=1)),
        actor=room.director,
        template=setup.save_structure_template(SPEC, actor=room.director),
    )
    Tournament.objects.filter(pk=t.pk).update(reservation_cap=120)
    names = ["Markéta Lobkowicz-Příhodová", "Jiří Procházka-Dvořák", "Ludmila Řezníčková-Šťastná", "Bohumil Šťastný-Vondráček"]
    made = [
        reservations.reserve(t, name=name, contact=f"markéta.lobkowicz-příhodová{i}@seznam-a-další.cz", device=f"d{i}", address="10.0.0.9")
        for i, name in enumerate(names)
    ]
    player = registration.create_player(
        actor=room.director, first_name="Markéta", last_name="Lobkowicz-Příhodová", date_of_birth=date(1985, 3, 1)
    )
    reservations.claim(made[0][0], actor=room.director, player=player, document=id_doc("RS0000001"))
    reservations.cancel(made[1][0], actor=room.director, reason="Zavolala, že nepřijde: kamarádka ji nahradí zítra ráno")
    room.reservation = (t.pk, made[-1][1])


def draw_url(room: Room) -> str:
    return f"/s/{room.tournament.pk}/draws/{room.draw.number}/"


SCREENS = [
    Screen("lobby_level1", lobby_url, TV_SIZES, first_level, "#live.live", SOUND_OFF, no_scroll=True),
    Screen("room_tv", room_tv_url, TV_SIZES, first_level, "#live.live", no_scroll=True),
    Screen("room_map", lambda room: "/room/", (*STAFF_SIZES, *PHONE_SIZES), first_level, "#live.live", staff=True),
    Screen("today", lambda room: "/today/", (*PHONE_SIZES, *STAFF_SIZES), first_level, "#events"),
    Screen("lobby_late", lobby_url, TV_SIZES, late_level, "#live.live", SOUND_OFF, no_scroll=True),
    Screen("lobby_break", lobby_url, TV_SIZES, break_with_color_up, "#live.live", SOUND_OFF, no_scroll=True),
    Screen("lobby_h4h", lobby_url, TV_SIZES, hand_for_hand, "#live.live", SOUND_OFF, no_scroll=True),
    Screen(
        "lobby_break_league",
        lobby_url,
        TV_SIZES,
        break_in_a_league,
        "body.is-break #lobby-league:not([hidden]) li",
        SOUND_OFF,
        no_scroll=True,
    ),
    Screen("leagues", lambda room: "/leagues/", STAFF_SIZES, break_in_a_league, staff=True),
    Screen("league", lambda room: league_url(room, "/leagues/{}/"), STAFF_SIZES, break_in_a_league, "#live.live", staff=True),
    Screen("league_public", lambda room: league_url(room, "/l/{}/"), PHONE_SIZES, break_in_a_league, "#live.live"),
    Screen("lobby_late_en", lobby_url, TV_SIZES, late_level, "#live.live", SOUND_OFF, no_scroll=True, locale="en"),
    Screen(
        "lobby_touch_sound",
        lambda room: lobby_url(room) + "?sound=1",
        TV_SIZES,
        first_level,
        "#live.live",
        SOUND_ASKS,
        no_scroll=True,
        touch=True,
    ),
    # Ready once the socket's snapshot came (it draws the results again, and fits the names a frame later).
    Screen("lobby_winner", lobby_url, TV_SIZES, winner, "body:has(#live.live) #lobby-results li", no_scroll=True),
    Screen("draws", lambda room: f"/s/{room.tournament.pk}/draws/", PHONE_SIZES),
    Screen("draw", draw_url, PHONE_SIZES),
    Screen("seat_search", lambda room: f"/s/{room.tournament.pk}/", PHONE_SIZES),
    Screen("director_clock", lambda room: f"/t/{room.tournament.pk}/clock/", CLOCK_SIZES, late_level, "#live.live", staff=True),
    # The staff screens, on a laptop and a 10" tablet.
    Screen("home", lambda room: "/", STAFF_SIZES, staff=True),
    Screen("overview", lambda room: f"/t/{room.tournament.pk}/", STAFF_SIZES, late_level, staff=True),
    Screen("register", lambda room: f"/t/{room.tournament.pk}/register/?q=proch", STAFF_SIZES, staff=True),
    Screen("entries", lambda room: f"/t/{room.tournament.pk}/entries/", STAFF_SIZES, staff=True),
    Screen("entry", lambda room: f"/t/{room.tournament.pk}/entries/1/", STAFF_SIZES, staff=True),
    Screen("tables", lambda room: f"/t/{room.tournament.pk}/tables/", STAFF_SIZES, late_level, staff=True),
    Screen("map", lambda room: f"/t/{room.tournament.pk}/map/", STAFF_SIZES, ready="#live.live", staff=True),
    Screen("color_up", lambda room: f"/t/{room.tournament.pk}/color-up/", STAFF_SIZES, staff=True),
    Screen("events", lambda room: f"/t/{room.tournament.pk}/events/", STAFF_SIZES, staff=True),
    Screen("payouts", lambda room: f"/t/{room.tournament.pk}/payouts/", STAFF_SIZES, staff=True),
    Screen("house_rules", lambda room: f"/t/{room.tournament.pk}/house-rules/", STAFF_SIZES, staff=True),
    Screen("dealer", lambda room: f"/t/{room.tournament.pk}/tables/1/dealer/", CLOCK_SIZES, late_level, staff=True),
    Screen("seat_page", lambda room: f"/s/{room.tournament.pk}/1/", PHONE_SIZES, ready="#push-button"),  # with "Tell me on this phone"
    Screen("color_up_sheets", lambda room: f"/t/{room.tournament.pk}/color-up/sheets/", STAFF_SIZES, staff=True),
    Screen("reconciliation", lambda room: f"/t/{room.tournament.pk}/payouts/reconciliation/", STAFF_SIZES, staff=True),
    Screen("receipt", lambda room: f"/t/{room.tournament.pk}/receipts/1/", STAFF_SIZES, staff=True),
    Screen("seat_cards", lambda room: f"/t/{room.tournament.pk}/seat-cards/", STAFF_SIZES, staff=True),
    Screen("bag_slips", lambda room: f"/t/{room.tournament.pk}/day/slips/", STAFF_SIZES, bags_taken, staff=True),
    Screen("displays", lambda room: f"/t/{room.tournament.pk}/displays/", STAFF_SIZES, staff=True),
    Screen("settings", lambda room: f"/setup/tournaments/{room.tournament.pk}/", STAFF_SIZES, staff=True),
    Screen("structures", lambda room: "/setup/structures/", STAFF_SIZES, staff=True),
    Screen("tokens", lambda room: "/tokens/", STAFF_SIZES, staff=True),
    Screen("login", lambda room: "/accounts/login/", CLOCK_SIZES),
    Screen("preferences", lambda room: "/preferences/", STAFF_SIZES, staff=True),
    Screen("player_create", lambda room: f"/t/{room.tournament.pk}/players/new/", STAFF_SIZES, staff=True),
    Screen("tournament_create", lambda room: "/setup/tournaments/new/", STAFF_SIZES, staff=True),
    Screen("structure_edit", lambda room: f"/setup/tournaments/{room.tournament.pk}/structure/", STAFF_SIZES, staff=True),
    Screen("dealer_choose", lambda room: f"/t/{room.tournament.pk}/dealer/", CLOCK_SIZES, staff=True),
    Screen("payouts_in_the_money", lambda room: f"/t/{room.tournament.pk}/payouts/", STAFF_SIZES, in_the_money, staff=True),
    Screen("pay", lambda room: f"/t/{room.tournament.pk}/payouts/pay/17/", STAFF_SIZES, in_the_money, staff=True),
    Screen("payout_receipt", lambda room: f"/t/{room.tournament.pk}/payouts/receipts/1/", STAFF_SIZES, in_the_money, staff=True),
    Screen("seat_page_out", lambda room: f"/s/{room.tournament.pk}/16/", PHONE_SIZES, in_the_money),
    Screen(
        "player_results",
        lambda room: f"/players/{Entry.objects.get(tournament=room.tournament, number=16).player_id}/",
        (*STAFF_SIZES, *PHONE_SIZES),
        in_the_money,
        staff=True,
    ),  # his place and the prize paid, with its receipt
    Screen("penalties", lambda room: f"/t/{room.tournament.pk}/penalties/", STAFF_SIZES, penalties_given, staff=True),
    # English groups thousands with commas and puts the currency's code first: "CZK 100,000", "-EUR 3,500".
    Screen("overview_en", lambda room: f"/t/{room.tournament.pk}/", STAFF_SIZES, late_level, staff=True, locale="en"),
    Screen(
        "color_up_en",
        lambda room: f"/t/{room.tournament.pk}/color-up/",
        STAFF_SIZES,
        color_up_confirmed,
        "#live.live",
        staff=True,
        locale="en",
    ),
    Screen(
        "reconciliation_en",
        lambda room: f"/t/{room.tournament.pk}/payouts/reconciliation/",
        STAFF_SIZES,
        overlay_in_the_money,
        staff=True,
        locale="en",
    ),
    # A satellite: the TV at the seat bubble and once play stopped, its payouts page with the tickets, and
    # the target's registration of a ticket.
    Screen("lobby_satellite_bubble", lobby_url, TV_SIZES, satellite_bubble, "#live.live", SOUND_OFF, no_scroll=True),
    Screen("lobby_satellite_stopped", lobby_url, TV_SIZES, satellite_stopped, "body:has(#live.live) #lobby-results li", no_scroll=True),
    Screen(
        "payouts_satellite", lambda room: f"/t/{room.tournament.pk}/payouts/?transfer=1&q=proch", STAFF_SIZES, satellite_stopped, staff=True
    ),
    Screen("register_ticket", ticket_register_url, STAFF_SIZES, satellite_stopped, staff=True),
    # A seat winner's results: the seat he won (the target's long name) as his prize there.
    Screen(
        "player_results_seat",
        lambda room: f"/players/{Ticket.objects.order_by('number').first().won_by.player_id}/",
        (*STAFF_SIZES, *PHONE_SIZES),
        satellite_stopped,
        staff=True,
    ),
    # A bounty event: its payouts page (the bounty money, the entries that won bounties, the director's settings fixed),
    # the cashier's bounty pay page and the bounty receipt, its reconciliation; a mystery event's settings and envelopes.
    Screen("payouts_bounty", bounty_url(BOUNTY_NAME, "payouts/"), STAFF_SIZES, pko_paid, staff=True),
    Screen("bounty_pay", bounty_url(BOUNTY_NAME, "payouts/bounties/pay/2/"), STAFF_SIZES, pko_paid, staff=True),
    Screen("bounty_receipt", bounty_url(BOUNTY_NAME, "payouts/bounty-receipts/1/"), STAFF_SIZES, pko_paid, staff=True),
    Screen("reconciliation_bounty", bounty_url(BOUNTY_NAME, "payouts/reconciliation/"), STAFF_SIZES, pko_paid, staff=True),
    Screen("payouts_mystery", bounty_url(MYSTERY_NAME, "payouts/"), STAFF_SIZES, mystery_open, staff=True),
    # A bounty winner's record: his entry page (his head, two knockouts, one of a grown head, owed) and his results.
    Screen("entry_bounty", bounty_url(BOUNTY_NAME, "entries/2/"), STAFF_SIZES, pko_paid, staff=True),
    Screen(
        "player_results_bounty",
        lambda room: f"/players/{Entry.objects.get(tournament__name=BOUNTY_NAME, number=2).player_id}/",
        (*STAFF_SIZES, *PHONE_SIZES),
        pko_paid,
        staff=True,
    ),
    # Bounty events: the TV's bounty panel (a PKO's biggest heads, a mystery event's envelopes left and the last drawn),
    # and a PKO winner's own head and knockouts on his seat page.
    Screen(
        "lobby_pko", bounty_lobby_url("progressive"), TV_SIZES, bounty_nights, "#lobby-bounties:not([hidden]) li", SOUND_OFF, no_scroll=True
    ),
    Screen(
        "lobby_mystery", bounty_lobby_url("mystery"), TV_SIZES, bounty_nights, "#lobby-bounties:not([hidden]) li", SOUND_OFF, no_scroll=True
    ),
    Screen("draw_envelope", mystery_draw_url, PHONE_SIZES, bounty_nights),  # the public check of a mystery envelope's draw
    Screen(
        "seat_page_bounty",
        lambda room: f"/s/{room.bounty['progressive'][0].pk}/{room.bounty_winner}/",
        PHONE_SIZES,
        bounty_nights,
        "body:has(#live.live) #seat-bounty:not([hidden])",
    ),
    # A sold-out tournament's waiting list: the TV's band (sold out, the latest calls to a seat), the players' board with
    # an alternate's number typed, and the seat page of an alternate called to a seat.
    Screen(
        "lobby_sold_out",
        lobby_url,
        TV_SIZES,
        sold_out_with_calls,
        "body:has(#live.live) #lobby-alt-calls li",
        SOUND_OFF,
        no_scroll=True,
    ),
    Screen("waiting_board", lambda room: f"/t/{room.tournament.pk}/waiting/?n=5", PHONE_SIZES, sold_out_with_calls, "#live.live"),
    # The desk's and the floor's list (names, the offered alternates' seats, the buttons), read again from the API.
    Screen(
        "waiting_list",
        lambda room: f"/t/{room.tournament.pk}/waiting-list/",
        (*STAFF_SIZES, *PHONE_SIZES),
        sold_out_with_calls,
        "body:has(#live.live) #places li",
        staff=True,
    ),
    Screen(
        "seat_page_alternate",
        lambda room: f"/s/{room.tournament.pk}/{room.alternate_entry}/",
        PHONE_SIZES,
        sold_out_with_calls,
        "body:has(#live.live) #seat-alternate:not([hidden])",
    ),
    # Places reserved from phones: the player's form and his reservation's page, the desk's list.
    Screen("reserve", lambda room: f"/t/{room.reservation[0]}/reserve/", PHONE_SIZES, reservations_taken, "#reserve-form"),
    Screen(
        "reservation", lambda room: "/t/{}/reservation/{}/".format(*room.reservation), PHONE_SIZES, reservations_taken, "#reservation-card"
    ),
    Screen(
        "reservations",
        lambda room: f"/t/{room.reservation[0]}/reservations/",
        (*STAFF_SIZES, *PHONE_SIZES),
        reservations_taken,
        "#rv-list li",
        staff=True,
    ),
    Screen(
        "dealer_penalties", lambda room: f"/t/{room.tournament.pk}/tables/1/dealer/", CLOCK_SIZES, penalties_given, "#live.live", staff=True
    ),
    # The players' languages (web/middleware.py): the phone screens and the lobby TV where German's long words matter,
    # with the language switcher at the foot of the phones' pages; one phone screen in Polish and the TV in Hungarian.
    Screen("seat_page_de", lambda room: f"/s/{room.tournament.pk}/1/", PHONE_SIZES, ready="#push-button", locale="de-DE"),
    Screen("seat_search_de", lambda room: f"/s/{room.tournament.pk}/", PHONE_SIZES, locale="de-DE"),
    Screen("today_de", lambda room: "/today/", PHONE_SIZES, first_level, "#events", locale="de-DE"),
    Screen("lobby_late_de", lobby_url, TV_SIZES, late_level, "#live.live", SOUND_OFF, no_scroll=True, locale="de-DE"),
    Screen("lobby_late_hu", lobby_url, TV_SIZES, late_level, "#live.live", SOUND_OFF, no_scroll=True, locale="hu-HU"),
    Screen(
        "lobby_sold_out_de",
        lobby_url,
        TV_SIZES,
        sold_out_with_calls,
        "body:has(#live.live) #lobby-alt-calls li",
        SOUND_OFF,
        no_scroll=True,
        locale="de-DE",
    ),
    Screen(
        "waiting_board_de",
        lambda room: f"/t/{room.tournament.pk}/waiting/?n=5",
        PHONE_SIZES,
        sold_out_with_calls,
        "#live.live",
        locale="de-DE",
    ),
    Screen(
        "seat_page_alternate_pl",
        lambda room: f"/s/{room.tournament.pk}/{room.alternate_entry}/",
        PHONE_SIZES,
        sold_out_with_calls,
        "body:has(#live.live) #seat-alternate:not([hidden])",
        locale="pl-PL",
    ),
    Screen(
        "reserve_de", lambda room: f"/t/{room.reservation[0]}/reserve/", PHONE_SIZES, reservations_taken, "#reserve-form", locale="de-DE"
    ),
    Screen(
        "reservation_de",
        lambda room: "/t/{}/reservation/{}/".format(*room.reservation),
        PHONE_SIZES,
        reservations_taken,
        "#reservation-card",
        locale="de-DE",
    ),
]


@pytest.fixture
def screen_room(director):
    template = setup.save_structure_template(SPEC, actor=director)
    t = setup.create_tournament(
        tournament_data(name=NAME, venue=VENUE, buy_in=BUY_IN, fee=5000, starting_stack=30000, guaranteed_pool=0, late_reg_until_level=9),
        actor=director,
        template=template,
    )
    for n in range(1, 5):
        table_setup.open_table(t, actor=director, number=n, seats=9)
    surnames = ["Procházková-Dvořáková", "Šťastný", "Koťátková", "Žďárský", "Lobkowicz-Příhodová", "Řezníček"]
    for i in range(ENTRIES):
        player = registration.create_player(
            actor=director,
            first_name=["Jiří", "Markéta", "Bohumil", "Ludmila"][i % 4],
            last_name=surnames[i % len(surnames)],
            date_of_birth=date(1980, 1, 1 + i % 28),
        )
        registration.register_entry(t, actor=director, player=player, document=id_doc(f"EA{i:07d}"))
    draw = draws.draw_start(t, actor=director)
    payout_services.set_payout_plan(t, actor=director, data={"share_paid_bp": 1500})
    display = registration.create_display_token(t, actor=director, label="Lobby TV")
    return Room(director=director, tournament=t, display=display, draw=draw)


def check_screen(browser, base: str, screen: Screen, room: Room, session: dict) -> list[str]:
    problems = []
    for width, height in screen.sizes:
        context = browser.new_context(viewport={"width": width, "height": height}, locale=screen.locale, has_touch=screen.touch)
        if screen.staff:
            context.add_cookies([session])  # the director, signed in
        page = context.new_page()
        errors = watch_errors(page)  # CSP and console
        answer = page.goto(base + screen.url(room))
        assert answer is not None and answer.ok, f"{screen.name}: {answer and answer.status}"  # the screen itself
        page.wait_for_selector(screen.ready)
        page.evaluate("document.fonts.ready")
        if screen.script:
            page.evaluate(screen.script)
        page.evaluate(SETTLED)
        if SHOTS:
            page.screenshot(path=SHOTS.format(screen.name, width, height), full_page=not screen.no_scroll)
        problems += [f"{screen.name} {width}×{height} {p}" for p in page.evaluate(CHECK, {"noScroll": screen.no_scroll})]
        if (width, height) == screen.sizes[0]:  # axe and the keyboard, once per screen
            problems += [f"{screen.name} {width}×{height} {p}" for p in accessibility.problems(page)]
        problems += [f"{screen.name} {width}×{height} {p}" for p in csp_problems(page, errors)]  # CSP and console
        context.close()
    return problems


STATES = list(dict.fromkeys(screen.setup for screen in SCREENS))  # in SCREENS' order


@pytest.mark.parametrize("state", STATES, ids=[state.__name__ for state in STATES])
def test_the_screens_fit_every_size(live_asgi, browser, screen_room, state):
    """Every screen shown in this state, at each of its sizes."""
    state(screen_room)
    session = session_cookie(live_asgi, screen_room.director.username)
    problems = [p for screen in SCREENS if screen.setup is state for p in check_screen(browser, live_asgi, screen, screen_room, session)]
    assert not problems, "\n".join(problems)


def test_the_checker_finds_overflow_clipping_and_overlap(browser):
    """The checker itself: a page with each fault, and one without."""
    page = browser.new_context(viewport={"width": 400, "height": 300}).new_page()
    page.set_content("""<body style="margin:0">
      <div id="wide" style="width:600px">wide</div>
      <div id="cut" style="width:50px; overflow:hidden; white-space:nowrap">a long text cut off</div>
      <div style="position:relative; height:40px"><span id="a" style="position:absolute; top:0">first</span>
        <span id="b" style="position:absolute; top:5px">second</span></div>
      <div data-overlap-ok style="position:relative; height:40px">
        <span style="position:absolute">x</span><span style="position:absolute">y</span></div>
    </body>""")
    found = page.evaluate(CHECK, {"noScroll": True})
    assert any(f.startswith("overflow:") for f in found), found
    assert any(f.startswith("clipped:") and "#cut" in f for f in found), found
    assert any(f.startswith("overlap:") and "#a" in f and "#b" in f for f in found), found
    assert len([f for f in found if f.startswith("overlap:")]) == 1, found
    page.set_content("<p>Nothing wrong here.</p><p>Nor here.</p>")
    assert page.evaluate(CHECK, {"noScroll": True}) == []
    page.context.close()


def test_the_checker_finds_a_figure_broken_over_two_lines(browser):
    """A number split over two lines ("CZK 100," above "000"), its sign or currency on another line than its
    digits, is a finding; a sentence with figures wrapped between its words is not."""
    page = browser.new_context(viewport={"width": 400, "height": 300}).new_page()
    page.set_content("""<body style="margin:0; font-size:20px">
      <div id="pool" style="width:60px; overflow-wrap:anywhere">CZK\u00a0100,000</div>
      <div id="cs" style="width:50px; overflow-wrap:anywhere">1\u00a0100\u00a0Kč</div>
      <div id="sign" style="width:60px">-CZK\u00a031</div>
      <div id="fine" style="width:120px">Table 12, seat 4: 25,000 chips, CZK\u00a0100,000 paid at 19:30</div>
    </body>""")
    found = [f for f in page.evaluate(CHECK, {"noScroll": False}) if f.startswith("broken:")]
    assert any("#pool" in f and "CZK\u00a0100,000" in f for f in found), found
    assert any("#cs" in f for f in found) and any("#sign" in f for f in found), found
    assert not any("#fine" in f for f in found), found
    page.context.close()
