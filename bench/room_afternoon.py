"""A festival afternoon in one room, played through the product on `scripts/dev` with every room screen left open and
checked against a fresh load.

It reuses bench/festival_screens.py (its Festival: the server started as the README's first command does, the JSON API
logged in as the demo's director, floor and cashier, pages left open in Chromium, checkpoints against a fresh load,
busts on the floor map by clicks, slips confirmed, the server log scanned, the figures printed), with its files under
var/room_afternoon/ (the SQLite database, the server's output in server.log, the shots of each checkpoint).

The room is the demo's (docs/room.md): tables 1 to 8 in the Main hall, 11 to 16 in the Side room, 21 and 22 given to
cash games; the demo's Deepstack holds 1 to 4 and its satellite 11 and 12. In it, through the API as the screens do:
a Main Event (9-handed, PLAYERS registered with ID checks) and a Side Event (8-handed, 16 players) take their tables by
their start draws, their clocks started; the tables left free go to cash games, so the room is full (the Main Event is
sold out) and a sit & go series (6 players, the next opening when one fills) has to wait for a table the Main Event
gives back. Left open all afternoon: the room map as the floor (/room/, a tablet), the room TV (no login, a TV), each
tournament's lobby TV and floor map, players' seat pages and /today/ on phones.

The afternoon, a checkpoint after each part: the clocks moved on and the first busts in both events (on the floor map
by clicks or through the API, one undone, every slip confirmed) while the sit & go fills to five of six; busts in the
Main Event until one of its tables breaks and goes back to the venue; the sit & go's sixth registration, which starts
it by itself at that table (the next of the series opens); the next one filled while no table is free, so it waits;
the first sit & go played to its winner on its floor map (its table goes back) and the waiting one drawn there by the
director, its clock started; the Side Event played to its winner and its prizes paid at the cage, more busts and
a level in the Main Event. The product's own promises met on the way (a table given back is free on the room map, a
sit & go that fills starts and opens the next, ...) are checked through the API: one not met is a finding.

At each checkpoint every page left open is compared with a fresh load of its URL (tests/browser/left_open.py's
catch_up); the room TV, whose pages of cards turn every 12 seconds when they do not all fit, is compared page by page,
its fresh load made as the one left open comes back to its first page. At the end the server log is scanned for
broadcast failures, tracebacks and 500s and the figures are printed. Exit status 1 when a page differed, the log has
a problem, the API answered a 5xx, the run stopped early, or (with --strict) a promise was not met.

Run by hand:
    .venv/bin/python bench/room_afternoon.py [--players 36] [--seed 7]
    DATABASE_URL=postgres://postgres@127.0.0.1:5432/room_afternoon REDIS_URL=redis://127.0.0.1:6379/6 \\
        .venv/bin/python bench/room_afternoon.py --services      (PostgreSQL and Redis: an empty database of its own)
"""

from __future__ import annotations

import argparse
import sys
import time
from datetime import datetime
from pathlib import Path
from zoneinfo import ZoneInfo

ROOT = Path(__file__).resolve().parents[1]
OUT = ROOT / "var" / "room_afternoon"
sys.path.insert(0, str(ROOT))

from bench import festival_screens  # noqa: E402
from bench.festival_screens import Festival  # noqa: E402

ZONE = "Europe/Prague"  # the demo's
SIDE_PLAYERS = 16
SNG_PLAYERS = 6
PAGE_SECONDS = 12  # static/js/room-tv.js: how long a page of cards stays on the room TV


class Afternoon(Festival):
    def __init__(self, args) -> None:
        festival_screens.OUT = OUT  # the Festival's server, database, log and shots: under var/room_afternoon/
        super().__init__(args)
        self.figures.update({"registrations": 0, "clock actions": 0, "tables given back": 0, "sit & gos started": 0, "findings": []})
        self.tags: dict[int, str] = {}
        self.kept: set[int] = set()  # the entries whose seat pages are open: busted last
        self.made = 0
        self.links: dict = {}  # no dealer tablets this afternoon
        self.displays: dict[int, dict] = {}  # lobby TV links, by tournament

    # --- helpers ---------------------------------------------------------------------------------------------
    def tag(self, t: dict) -> str:
        return self.tags[t["id"]]

    def promise(self, kept: bool, what: str) -> bool:
        """A promise of the product (docs/room.md) checked through the API; one not kept is a finding."""
        if not kept:
            self.figures["findings"].append(what)
            print(f"  FINDING: {what}")
        return kept

    def room(self) -> dict:
        return self.floor.get(f"venues/{self.venue}/")

    def held(self, t: dict) -> list[int]:
        return sorted(row["number"] for row in self.room()["tables"] if row["state"] == "held" and row["tournament"] == t["id"])

    def free(self) -> list[int]:
        return [row["number"] for row in self.room()["tables"] if row["state"] == "free"]

    def tournament(self, tid: int) -> dict:
        return self.director.get(f"tournaments/{tid}/")

    def clock(self, t: dict, action: str, **extra) -> dict | None:
        answer = super().clock(t, action, **extra)
        if answer is not None:
            self.figures["clock actions"] += 1
        return answer

    def create(self, name: str, hour: int, seats: int, **extra) -> dict:
        today = datetime.now(ZoneInfo(ZONE)).date()
        return self.director.post(
            "tournaments/",
            {
                "name": name,
                "venue": "Demo Card Room, Praha",
                "time_zone": ZONE,
                "start_at": f"{today}T{hour:02d}:00",
                "seats_per_table": seats,
                "currency": "CZK",
                "buy_in": 50_000,
                "fee": 5_000,
                "starting_stack": 20_000,
                "reentry_allowed": False,
                "template": self.structure["id"],
                **extra,
            },
        )

    def register(self, t: dict, count: int) -> list[int]:
        """New players at the desk, their ID seen; the entries' numbers."""
        numbers = []
        for _ in range(count):
            self.made += 1
            first, last = f"Hráč{self.made}", self.rng.choice(("Novák", "Svoboda", "Dvořák", "Černý", "Horváth", "Kučera"))
            document = f"RA{self.made:07d}"
            self.documents[f"{first} {last}"] = document
            entry = self.cashier.post(
                f"tournaments/{t['id']}/entries/",
                {
                    "new_player": {"first_name": first, "last_name": last, "date_of_birth": "1988-05-04"},
                    "document_type": "id_card",
                    "document_number": document,
                    "seen": True,
                },
            )
            self.figures["registrations"] += 1
            numbers.append(entry["number"])
        return numbers

    def next_of(self, t: dict) -> dict | None:
        """The next of a sit & go series, once it opened ("<series> #2", "#3"...)."""
        series = self.sng_series
        number = int(t["name"].rsplit("#", 1)[1]) + 1 if t["name"] != series else 2
        return next((x for x in self.director.get("tournaments/") if x["name"] == f"{series} #{number}"), None)

    def tv_card(self, t: dict) -> dict | None:
        answer = self.director.http.get(f"{self.base}/api/public/display/room/{self.room_tv['token']}/snapshot/", timeout=30).json()
        return next((card for card in answer["tournaments"] if card["id"] == t["id"]), None)

    def bust(self, t: dict, entry: dict, *, on_map: bool) -> bool:
        """Festival's bust, and then the wait for it to be done: on the floor map, Festival waits for the undo bar, which
        the previous bust may have left shown, so it can return before this press is answered (the last bust of a
        tournament, which ends its play, takes longest) and the same player would be pressed again."""
        if not super().bust(t, entry, on_map=on_map):
            return False
        deadline = time.monotonic() + 20
        while time.monotonic() < deadline:
            if self.floor.get(f"tournaments/{t['id']}/entries/{entry['number']}/")["status"] != "active":
                return True
            time.sleep(0.2)
        self.figures["notes"].append(f"{self.tag(t)}: the bust of {entry['number']} was not done 20 s after the press")
        return True

    def bust_some(self, t: dict, count: int, *, on_map: float = 0.5, undo: int = 0) -> int:
        """`count` busts at random among the seated (the players whose seat pages are open last), each one's slips
        confirmed; the `undo`-th of them (an API bust) undone at once. Returns the busts made."""
        made = 0
        for i in range(count):
            seated = self.seated(t)
            if len(seated) <= 1:
                break
            others = [e for e in seated if e["number"] not in self.kept] or seated
            victim = self.rng.choice(others)
            self.figures["steps"] += 1
            undoing = undo and i + 1 == undo
            if self.bust(t, victim, on_map=not undoing and self.rng.random() < on_map):
                made += 1
                if undoing:
                    path = f"tournaments/{t['id']}/entries/{victim['number']}/undo-bust/"
                    if self.floor.post(path, ok_refused=True) is not None:
                        self.figures["undone busts"] += 1
                        self.figures["busts"] -= 1
                        made -= 1
            self.confirm_slips(t)
        return made

    # --- the pages ---------------------------------------------------------------------------------------------
    def open_event(self, t: dict, *, seats: list[int], lobby: bool = True, floor_map: bool = True) -> None:
        s, tag = self.sizes, self.tag(t)
        if lobby:
            link = self.director.post(f"tournaments/{t['id']}/displays/", {"label": f"Lobby TV {tag}"})
            self.displays[t["id"]] = link
            self.open(f"{tag}-lobby-tv", link["url"].split(self.base)[-1], s.TV)
        if floor_map:
            self.open(f"{tag}-floor-map", f"/t/{t['id']}/map/", s.TABLET, staff=True)
        for number in seats:
            self.open(f"{tag}-seat-{number}", f"/s/{t['id']}/{number}/", s.PHONE)
            self.kept.add(number)

    def checkpoint(self, name: str) -> None:
        """Festival's checkpoint for the pages that follow the room live; the room TV page by page; /today/ (no socket:
        its ready mark is its list of events) as the others."""
        own = {label: self.pages.pop(label) for label in ("room-tv", "today") if label in self.pages}
        try:
            super().checkpoint(name)
        finally:
            self.pages.update(own)
        folder = OUT / f"{self.figures['checkpoints']:02d}-{name}"
        if "room-tv" in own:
            self.compare_tv(name, folder)
        if "today" in own:
            self.compare(name, folder, "today", ready="#events", selector="main")
        print(f"  ... and {', '.join(own)}: {len(self.figures['differences'])} differences so far")

    def compare_tv(self, name: str, folder: Path) -> None:
        """The room TV against a fresh load, page by page: when its cards do not all fit, each page of cards shows 12
        seconds in turn, from the moment the page was loaded. The fresh load is made just after the TV left open comes
        back to its first page, so both turn their pages together (within the second a load takes)."""
        label = "room-tv"
        page = self.pages[label]
        where = "() => { const t = window.roomTv; return [t.page, Math.max(1, Math.ceil(t.snapshot.tournaments.length / t.perPage))]; }"
        first, pages = page.evaluate(where)
        if pages > 1:
            deadline, was = time.monotonic() + pages * PAGE_SECONDS + 5, first
            while time.monotonic() < deadline:
                now = page.evaluate(where)[0]
                if now == 0 and was != 0:
                    break
                was = now
                page.wait_for_timeout(100)
        fresh = page.context.new_page()
        try:
            fresh.goto(self.base + self.urls[label])
            fresh.wait_for_selector("#live.live", state="attached", timeout=15_000)
            fresh.wait_for_timeout(400)
            for k in range(pages):
                if k:  # both on the same page of cards
                    deadline = time.monotonic() + PAGE_SECONDS + 5
                    while time.monotonic() < deadline and not (page.evaluate(where)[0] == k == fresh.evaluate(where)[0]):
                        page.wait_for_timeout(100)
                self.judge(name, label, page, fresh, what=f"{label} (page {k + 1} of {pages})")
                page.screenshot(path=str(folder / f"{label}-{k + 1}.png"))
                self.figures["screenshots"] += 1
        finally:
            fresh.close()
        self.figures["room TV pages"] = max(self.figures.get("room TV pages", 0), pages)

    # --- the afternoon -----------------------------------------------------------------------------------------
    def set_up(self) -> None:
        d = self.director
        self.venue = d.get("venues/")[0]["id"]  # the default venue: the demo's room
        levels = [
            {"kind": "level", "minutes": 20, "small_blind": 100 * i, "big_blind": 200 * i, "ante": 200 * i, "ante_type": "bba"}
            for i in range(1, 13)
        ]
        self.structure = d.post(
            "structures/",
            {
                "format": "poker-tournament-structure",
                "version": 1,
                "name": "Room afternoon",
                "chips": [{"value": 100, "colour": "black"}, {"value": 500, "colour": "purple"}, {"value": 1000, "colour": "yellow"}],
                "levels": levels,
            },
        )
        self.me = self.create("Main Event", 12, 9, late_reg_until_level=6, buy_in=200_000, fee=20_000)
        self.se = self.create("Side Event", 14, 8, late_reg_until_level=2)
        self.sng_series = "Afternoon Turbo"
        self.sng1 = self.create(self.sng_series, 15, 6, table_format="six_max", starting_stack=10_000)
        d.post(f"tournaments/{self.sng1['id']}/sit-and-go/", {"players": SNG_PLAYERS, "opens_next": True})
        self.tags = {self.me["id"]: "ME", self.se["id"]: "SE", self.sng1["id"]: "SNG1"}
        self.register(self.me, self.args.players)
        self.register(self.se, SIDE_PLAYERS)
        self.sng1_entries = self.register(self.sng1, SNG_PLAYERS - 2)
        for t in (self.me, self.se):  # the start draws take the fewest free tables, the Main hall first
            d.post(f"tournaments/{t['id']}/draw/")
            self.buttons(t)
            self.clock(t, "start")
        print(f"Main Event {self.me['id']} at tables {self.held(self.me)}, Side Event {self.se['id']} at {self.held(self.se)}")
        self.closed = self.free()
        for number in self.closed:  # the cash games take what is left: the room is full
            self.floor.post(f"venues/{self.venue}/tables/{number}/state/", {"state": "cash", "reason": "Cash games: a long waiting list"})
        print(f"tables given to cash games: {self.closed}; free now: {self.free()}")
        self.room_tv = d.post(f"venues/{self.venue}/displays/", {"label": "Room TV by the desk"})
        if self.args.players % 9 == 0:  # every seat of its tables taken, and no table free: sold out
            card = self.tv_card(self.me)
            sold_out = bool(card and card["registration"]["sold_out"])
            self.promise(sold_out, "the Main Event is not sold out on the room TV when the room is full")

    def open_pages(self) -> None:
        s = self.sizes
        self.open("room-map", "/room/", s.TABLET, staff=True)
        self.open("room-tv", self.room_tv["url"].split(self.base)[-1], s.TV)
        self.open("today", "/today/", s.PHONE, ready="#events")
        order = self.floor.get(f"tournaments/{self.me['id']}/tables/break-order/")["order"]
        first = order[0] if order else None  # the table that breaks first: a seat page of one of its players follows him
        breaking = [e["number"] for e in self.seated(self.me, first)] or [e["number"] for e in self.seated(self.me)]
        staying = [e["number"] for e in self.seated(self.me) if e["number"] not in breaking]
        self.open_event(self.me, seats=[self.rng.choice(breaking), self.rng.choice(staying)])
        self.open_event(self.se, seats=[self.rng.choice(self.seated(self.se))["number"]])
        self.open_event(self.sng1, seats=[self.sng1_entries[0]], floor_map=False)

    def afternoon(self) -> None:
        me, se, sng1 = self.me, self.se, self.sng1

        # The clocks move on; the first busts in both events (one undone); the sit & go fills to five of six.
        for t in (me, se):
            self.clock(t, "next")
        self.bust_some(me, 4, undo=2)
        self.bust_some(se, 3)
        self.register(sng1, 1)
        self.checkpoint("first-busts")

        # The Main Event busts until one of its tables breaks: it goes back to the venue, free.
        before = self.held(me)
        for _ in range(40):
            if len(self.held(me)) < len(before):
                break
            self.bust_some(me, 1)
        back = sorted(set(before) - set(self.held(me)))
        self.figures["tables given back"] += len(back)
        free = self.free()
        self.promise(bool(back) and set(back) <= set(free), f"the Main Event's broken tables {back} are not free on the room map ({free})")
        self.checkpoint("main-event-table-back")

        # The sit & go's sixth registration starts it by itself at a free table; the next of the series opens.
        self.register(sng1, 1)
        sng1 = self.sng1 = self.tournament(sng1["id"])
        tables = self.held(sng1)
        started = self.promise(
            sng1["status"] == "running" and len(tables) == 1, f"the full sit & go did not start ({sng1['status']}, {tables})"
        )
        if started:
            self.figures["sit & gos started"] += 1
            self.promise(tables[0] in free, f"the sit & go took table {tables} rather than a free one ({free})")
            self.buttons(sng1)
            self.open_event(sng1, seats=[], lobby=False)
        sng2 = self.next_of(sng1)
        self.promise(sng2 is not None, "the next sit & go did not open when the first filled")
        self.checkpoint("sit-and-go-started")
        if not started:
            return

        # The next sit & go fills while no table is free: it waits (its entries stand).
        if sng2 is not None:
            self.sng2 = sng2
            self.tags[sng2["id"]] = "SNG2"
            first = self.register(sng2, 1)
            self.open_event(sng2, seats=first, lobby=False, floor_map=False)
            free = self.free()
            self.register(sng2, SNG_PLAYERS - 1)
            sng2 = self.sng2 = self.tournament(sng2["id"])
            if free:
                self.figures["notes"].append(f"a table was free when the second sit & go filled ({free}): it did not wait")
            else:
                self.promise(sng2["status"] == "setup" and not self.held(sng2), f"the second sit & go did not wait ({sng2['status']})")
            self.checkpoint("second-sit-and-go-fills")

        # The first sit & go to its winner on its floor map: its table goes back; the waiting one is drawn there.
        self.clock(sng1, "next")
        self.bust_some(sng1, SNG_PLAYERS, on_map=0.8)
        sng1 = self.sng1 = self.tournament(sng1["id"])
        free = self.free()
        self.promise(sng1["status"] == "finished", f"the first sit & go is not over with one player left ({sng1['status']})")
        self.promise(set(tables) <= set(free), f"the first sit & go's table {tables} did not go back ({free})")
        self.figures["tables given back"] += len(set(tables) & set(free))
        if sng2 is not None:
            if sng2["status"] == "setup":
                self.director.post(f"tournaments/{sng2['id']}/draw/")
                self.clock(sng2, "start")
            sng2 = self.sng2 = self.tournament(sng2["id"])
            playing = sng2["status"] == "running" and len(self.held(sng2)) == 1
            if self.promise(playing, f"the second sit & go is not playing ({sng2['status']})"):
                self.figures["sit & gos started"] += 1
                self.buttons(sng2)
                self.open_event(sng2, seats=[], lobby=False)
            card = self.tv_card(sng2) or {}
            seats = (card.get("registration") or {}).get("sit_and_go") or {}
            self.promise(
                seats.get("started") is not False,
                f"the room TV's card of the second sit & go, playing since the director's start draw, has it not started: "
                f"{card.get('registration')}",
            )
            self.promise(self.next_of(sng2) is not None, "the third sit & go did not open when the second filled and started")
        self.checkpoint("first-sit-and-go-won")

        # The Side Event to its winner (one bust undone), its prizes paid; the Main Event plays on, its clock moves on.
        self.clock(se, "next")
        self.bust_some(se, 2, undo=1)
        self.clock(me, "next")
        self.bust_some(me, 3)
        self.checkpoint("levels-moved-on")
        held = self.held(se)
        self.bust_some(se, SIDE_PLAYERS)
        se = self.se = self.tournament(se["id"])
        free = self.free()
        self.promise(se["status"] == "finished", f"the Side Event is not over with one player left ({se['status']})")
        self.promise(set(held) <= set(free), f"the Side Event's tables {held} did not go back ({free})")
        self.figures["tables given back"] += len(set(held) & set(free))
        self.checkpoint("side-event-won")
        self.pay(se)
        self.bust_some(me, 3)
        self.checkpoint("side-event-paid")

    def report(self) -> int:
        status = super().report()
        f = self.figures
        print("\n=== the room afternoon ===")
        for key in ("registrations", "clock actions", "tables given back", "sit & gos started", "room TV pages"):
            print(f"{key}: {f.get(key, 0)}")
        print(f"findings (promises not kept): {len(f['findings'])}")
        for finding in f["findings"]:
            print("  - " + finding)
        print(f"time: {time.monotonic() - self.began:.0f} s")
        return 1 if status or (self.args.strict and f["findings"]) else 0

    def play(self) -> None:
        self.open_pages()
        self.checkpoint("seated")
        self.afternoon()

    def run(self) -> int:
        self.began = time.monotonic()
        return super().run()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--players", type=int, default=36, help="players in the Main Event (9-handed)")
    parser.add_argument("--patience", type=float, default=5.0, help="seconds a page gets to catch up")
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--port", type=int, default=0)
    parser.add_argument("--strict", action="store_true", help="exit 1 also when a promise of the product was not kept")
    parser.add_argument(
        "--services",
        action="store_true",
        help="PostgreSQL and Redis (DATABASE_URL, REDIS_URL) instead of the embedded defaults",
    )
    args = parser.parse_args()
    if args.players < 19:
        parser.error("--players: at least 19, so that the Main Event plays at three tables or more and one of them breaks")
    sys.exit(Afternoon(args).run())


if __name__ == "__main__":
    main()
