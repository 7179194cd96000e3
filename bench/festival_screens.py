"""A festival played through the screens on `scripts/dev`, every screen left open all night and checked against a fresh load.

It starts the product as the README's first command does (`scripts/dev`: SQLite of its own under var/festival/, the
in-memory channel layer, eager tasks, a free port; the server's output goes to var/festival/server.log), then, through
the JSON API as the screens do (logged in as the demo's director, floor and cashier): an event with two Day 1
flights of PLAYERS each (registration with ID checks), seated by the draw, a Day 2 the flights' bags go to, dealer
links for every table. Playwright opens and leaves open all night: each table's dealer tablet (its dealer link, no
login), the lobby TV of each flight and of Day 2 (display links), each tournament's floor map and Tables page, and a
few players' seat pages on a phone. The night: dealer tablets press Shuffle / Hand done (real clicks), busts on the
floor map (its buttons) or the API, undos of busts, slips confirmed, the clock through levels and a break with its
color-up, each flight bagged and closed, the carry, Day 2's draw, hand-for-hand at the bubble, an ICM deal, play to
a winner, every prize paid at the cage (ID typed again, a signature).

At each checkpoint (after each phase and every --every steps) every page left open is compared with a fresh load
of its URL (tests/browser/left_open.py's catch_up: visible text, countdowns and times set aside, a few seconds to
catch up) and shot to var/festival/<checkpoint>/<page>.png. At the end the server log is scanned for broadcast
failures, tracebacks and 500s, and the figures are printed. Exit status 1 when a page differed or the log has one.

Run by hand:
    .venv/bin/python bench/festival_screens.py [--players 20] [--every 25] [--seed 39]
    DATABASE_URL=postgres://postgres@127.0.0.1:5432/festival REDIS_URL=redis://127.0.0.1:6379/5 \
        .venv/bin/python bench/festival_screens.py --services      (PostgreSQL and Redis)
"""

from __future__ import annotations

import argparse
import base64
import io
import os
import random
import re
import secrets
import shutil
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
OUT = ROOT / "var" / "festival"
sys.path.insert(0, str(ROOT))

import requests  # noqa: E402


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def signature() -> str:
    from PIL import Image, ImageDraw

    image = Image.new("RGBA", (300, 100), (255, 255, 255, 0))
    ImageDraw.Draw(image).line([(10, 80), (80, 20), (150, 70), (280, 30)], fill=(0, 0, 0, 255), width=4)
    out = io.BytesIO()
    image.save(out, "PNG")
    return "data:image/png;base64," + base64.b64encode(out.getvalue()).decode()


# The news of a change on the page that made it or was told of it: a fresh load has no reason to show it.
NEWS = ("#moved", "[data-api-say]", "#undo-bar")


class Refused(Exception):
    pass


class Api:
    """The JSON API as one login uses it (a token, `Authorization: Token ...`)."""

    def __init__(self, base: str, username: str, password: str, figures: dict) -> None:
        self.base, self.figures = base, figures
        self.http = requests.Session()
        r = self.http.post(f"{base}/api/auth/token/", json={"username": username, "password": password}, timeout=30)
        r.raise_for_status()
        self.http.headers["Authorization"] = f"Token {r.json()['token']}"
        self.name = username

    def call(self, method: str, path: str, body=None, *, ok_refused: bool = False):
        """One press as the screens send it: a write carries an `Idempotency-Key` (web/idempotency.py), so a request
        whose connection dropped (a keep-alive connection the server closed as it was reused) is sent again with the
        same key and takes effect once."""
        headers = {"Idempotency-Key": secrets.token_hex(16)} if method != "GET" else {}
        for attempt in range(3):
            try:
                r = self.http.request(method, self.base + "/api/" + path.lstrip("/"), json=body, headers=headers, timeout=60)
                break
            except requests.ConnectionError:
                if attempt == 2:
                    raise
                self.figures["api retried"] += 1
                time.sleep(0.5)
        self.figures["api calls"] += 1
        if r.status_code >= 500:
            self.figures["api 5xx"].append(f"{method} {path}: {r.status_code}")
        if r.status_code >= 400:
            self.figures["api refused"] += 1
            if ok_refused:
                return None
            raise Refused(f"{self.name} {method} {path} {body!r}: {r.status_code} {r.text[:400]}")
        return r.json() if r.content else None

    def get(self, path: str):
        return self.call("GET", path)

    def post(self, path: str, body=None, **kw):
        return self.call("POST", path, body if body is not None else {}, **kw)


class Festival:
    def __init__(self, args) -> None:
        self.args = args
        self.rng = random.Random(args.seed)
        self.figures = {
            "steps": 0,
            "busts": 0,
            "undone busts": 0,
            "busts on the map": 0,
            "shuffles clicked": 0,
            "hands done clicked": 0,
            "slips confirmed": 0,
            "pages compared": 0,
            "differences": [],
            "reloaded": [],
            "screenshots": 0,
            "api calls": 0,
            "api refused": 0,
            "api 5xx": [],
            "checkpoints": 0,
            "pages open": 0,
            "prizes paid": 0,
            "api retried": 0,
            "notes": [],
            "stopped": None,
        }
        self.pages: dict[str, object] = {}  # label -> page left open
        self.urls: dict[str, str] = {}
        self.documents: dict[str, str] = {}  # a player's display name -> his ID number
        self.server = None

    # --- the server ---------------------------------------------------------------------------------------
    def start_server(self) -> None:
        if OUT.exists():
            shutil.rmtree(OUT)
        OUT.mkdir(parents=True)
        self.port = self.args.port or free_port()
        self.base = f"http://127.0.0.1:{self.port}"
        self.password = os.environ.get("DEMO_PASSWORD") or "fest-" + secrets.token_urlsafe(12)
        env = dict(os.environ, SQLITE_PATH=str(OUT / "db.sqlite3"), PORT=str(self.port), DEMO_PASSWORD=self.password)
        if not self.args.services:
            for name in ("DATABASE_URL", "REDIS_URL"):
                env.pop(name, None)  # the embedded defaults
        elif not (env.get("DATABASE_URL") and env.get("REDIS_URL")):
            sys.exit("--services: set DATABASE_URL (an empty database of its own) and REDIS_URL")
        self.log_path = OUT / "server.log"
        self.log = open(self.log_path, "w")
        self.server = subprocess.Popen(
            [str(ROOT / "scripts" / "dev")], cwd=ROOT, env=env, stdout=self.log, stderr=subprocess.STDOUT, start_new_session=True
        )
        deadline = time.monotonic() + 300
        while time.monotonic() < deadline:
            if self.server.poll() is not None:
                sys.exit(f"scripts/dev ended ({self.server.returncode}): see {self.log_path}")
            try:
                if requests.get(self.base + "/healthz", timeout=2).status_code == 200:
                    break
            except requests.ConnectionError:
                pass
            time.sleep(1)
        else:
            sys.exit("scripts/dev did not answer within 5 minutes")
        print(f"server on {self.base} (pid {self.server.pid}), log {self.log_path}")

    def stop_server(self) -> None:
        if self.server and self.server.poll() is None:
            os.killpg(self.server.pid, signal.SIGTERM)  # the session scripts/dev runs in: uvicorn, started by us
            try:
                self.server.wait(20)
            except subprocess.TimeoutExpired:
                os.killpg(self.server.pid, signal.SIGKILL)
        self.log.close()

    # --- setting up through the API ----------------------------------------------------------------------
    def logins(self) -> None:
        self.director = Api(self.base, "director", self.password, self.figures)
        self.floor = Api(self.base, "floor", self.password, self.figures)
        self.cashier = Api(self.base, "cashier", self.password, self.figures)

    def set_up(self) -> None:
        d = self.director
        levels = [
            {
                "kind": "level",
                "minutes": 20,
                "small_blind": 100 * i,
                "big_blind": 200 * i,
                "ante": 200 * i if i > 1 else 0,
                "ante_type": "bba" if i > 1 else "none",
            }
            for i in range(1, 3)
        ]
        levels.append({"kind": "break", "minutes": 10, "color_up": [25]})
        levels += [
            {"kind": "level", "minutes": 20, "small_blind": 100 * i, "big_blind": 200 * i, "ante": 200 * i, "ante_type": "bba"}
            for i in range(3, 12)
        ]
        structure = d.post(
            "structures/",
            {
                "format": "poker-tournament-structure",
                "version": 1,
                "name": "Festival screens",
                "chips": [
                    {"value": 25, "colour": "green"},
                    {"value": 100, "colour": "black"},
                    {"value": 500, "colour": "purple"},
                    {"value": 1000, "colour": "yellow"},
                ],
                "levels": levels,
            },
        )
        self.structure = structure

        def tournament(name: str, day: int) -> dict:
            return d.post(
                "tournaments/",
                {
                    "name": name,
                    "venue": "Festival room",
                    "time_zone": "Europe/Prague",
                    "start_at": f"2026-12-0{day}T18:00",
                    "seats_per_table": 9,
                    "currency": "CZK",
                    "buy_in": 100_000,
                    "fee": 10_000,
                    "starting_stack": 20_000,
                    "reentry_allowed": False,
                    "template": structure["id"],
                },
            )

        self.event = d.post("events/", {"name": "Festival Main Event", "policy": "best"})
        ev = self.event["id"]
        self.flights = [tournament("Main Event Day 1A", 1), tournament("Main Event Day 1B", 2)]
        for label, t in zip(("1A", "1B"), self.flights, strict=True):
            d.post(f"events/{ev}/flights/", {"tournament": t["id"], "label": label})
        self.day2 = tournament("Main Event Day 2", 4)
        d.post(f"events/{ev}/day2/", {"tournament": self.day2["id"]})
        self.displays = {}
        for t in (*self.flights, self.day2):
            self.displays[t["id"]] = d.post(f"tournaments/{t['id']}/displays/", {"label": "Lobby TV"})
        made = 0
        for t in self.flights:
            tid = t["id"]
            for n in range(1, -(-self.args.players // 9) + 1):
                d.post(f"tournaments/{tid}/tables/", {"number": n, "seats": 9})
            for _i in range(self.args.players):
                made += 1
                first, last = f"Hráč{made}", self.rng.choice(("Novák", "Svoboda", "Dvořák", "Černý", "Horváth"))
                number = f"FS{made:07d}"
                self.documents[f"{first} {last}"] = number
                self.cashier.post(
                    f"tournaments/{tid}/entries/",
                    {
                        "new_player": {"first_name": first, "last_name": last, "date_of_birth": "1990-01-01"},
                        "document_type": "id_card",
                        "document_number": number,
                        "seen": True,
                    },
                )
            d.post(f"tournaments/{tid}/draw/")
            self.buttons(t)
            self.dealer_links(t)
        print(f"set up: event {ev}, flights {[t['id'] for t in self.flights]}, Day 2 {self.day2['id']}")

    def tables(self, t: dict) -> list[dict]:
        """The tables in play, as the floor map's read gives them ("number", "button", "seat_list")."""
        rows = self.floor.get(f"tournaments/{t['id']}/map/")["tables"]
        return [dict(row, number=row["table"]) for row in rows if row.get("in_play")]

    def seated(self, t: dict, number: int | None = None) -> list[dict]:
        """{"number", "table", "seat"} of each seated entry (at table `number`, or anywhere)."""
        return [
            {"number": s["entry"], "table": row["number"], "seat": s["seat"]}
            for row in self.tables(t)
            if number is None or row["number"] == number
            for s in row["seat_list"]
            if s.get("entry")
        ]

    def buttons(self, t: dict) -> None:
        for table in self.tables(t):
            if table.get("button") is None and any(s.get("entry") for s in table["seat_list"]):
                self.floor.post(f"tournaments/{t['id']}/tables/{table['number']}/button/", {}, ok_refused=True)

    def dealer_links(self, t: dict) -> None:
        self.links = getattr(self, "links", {})
        for table in self.tables(t):
            if table.get("in_play"):
                link = self.floor.post(
                    f"tournaments/{t['id']}/tables/{table['number']}/dealer-links/", {"label": f"tablet {table['number']}"}
                )
                self.links[(t["id"], table["number"])] = link["url"]

    def entries(self, t: dict, status: str | None = "active") -> list[dict]:
        rows, url = [], f"tournaments/{t['id']}/entries/?page_size=500"
        data = self.floor.get(url)
        rows = data["results"] if isinstance(data, dict) else data
        return [e for e in rows if status is None or e.get("status") == status]

    # --- the screens -------------------------------------------------------------------------------------
    def open_browser(self) -> None:
        os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
        os.environ["SQLITE_PATH"] = str(OUT / "db.sqlite3")
        import django

        django.setup()  # tests.browser's helpers import Django (their CSP-safe wait_for_function)
        from playwright.sync_api import sync_playwright

        from tests.browser import left_open, sizes

        self.lo, self.sizes = left_open, sizes
        self.pw = sync_playwright().start()
        self.browser = self.pw.chromium.launch(
            executable_path="/usr/bin/chromium",
            args=[
                "--no-sandbox",
                "--disable-gpu",
                "--disable-background-networking",
                "--disable-component-update",
                "--disable-sync",
                "--no-first-run",
            ],
        )
        login = self.browser.new_context()
        page = login.new_page()
        page.goto(self.base + "/accounts/login/")
        page.fill("input[name=username]", "floor")
        page.fill("input[name=password]", self.password)
        page.click("form [type=submit]")
        page.wait_for_load_state()
        self.floor_state = login.storage_state()
        login.close()

    def open(self, label: str, path: str, size: dict, *, staff: bool = False, ready: str = "#live.live") -> None:
        context = self.browser.new_context(viewport=size, storage_state=self.floor_state if staff else None)
        page = context.new_page()
        page.on("dialog", lambda dialog: dialog.accept())
        page.goto(self.base + path)
        page.wait_for_selector(ready, state="attached", timeout=20_000)
        self.lo.mark(page)
        self.pages[label], self.urls[label] = page, path
        self.figures["pages open"] = len(self.pages)

    def open_tournament(self, t: dict, tag: str, seat_pages: int = 3) -> None:
        tid = t["id"]
        s = self.sizes
        self.open(
            f"{tag}-lobby-tv",
            self.displays[tid]["url"].split(self.base)[-1] if self.displays[tid].get("url") else f"/display/{self.displays[tid]['token']}/",
            s.TV,
        )
        self.open(f"{tag}-floor-map", f"/t/{tid}/map/", s.TABLET, staff=True)
        self.open(f"{tag}-tables", f"/t/{tid}/tables/", s.TABLET, staff=True)
        for (t_id, number), url in sorted(self.links.items()):
            if t_id == tid:
                self.open(f"{tag}-dealer-{number}", url.split(self.base)[-1] if url.startswith("http") else url, s.TABLET)
        for entry in self.rng.sample(self.entries(t), seat_pages):
            self.open(f"{tag}-seat-{entry['number']}", f"/s/{tid}/{entry['number']}/", s.PHONE)

    def checkpoint(self, name: str) -> None:
        """Every page left open against a fresh load of its URL; a shot of each."""
        self.figures["checkpoints"] += 1
        folder = OUT / f"{self.figures['checkpoints']:02d}-{name}"
        folder.mkdir(parents=True, exist_ok=True)
        for label, page in list(self.pages.items()):
            if page.is_closed():
                continue
            self.compare(name, folder, label, selector="main" if "-seat-" in label else "body", must=False)
        print(f"checkpoint {name}: {len(self.pages)} pages, {len(self.figures['differences'])} differences so far")

    def compare(self, name: str, folder: Path, label: str, *, ready: str = "#live.live", selector: str = "body", must: bool = True) -> None:
        """One page left open against a fresh load of its URL, once the fresh one shows `ready` (not `must`: a page
        whose link was revoked, or with no live badge, is compared anyway); a shot of it."""
        page = self.pages[label]
        fresh = page.context.new_page()
        try:
            fresh.goto(self.base + self.urls[label])
            try:
                fresh.wait_for_selector(ready, state="attached", timeout=15_000)
            except Exception:  # noqa: BLE001
                if must:
                    raise
            fresh.wait_for_timeout(400)
            self.judge(name, label, page, fresh, selector=selector)
            page.screenshot(path=str(folder / f"{label}.png"))
            self.figures["screenshots"] += 1
        finally:
            fresh.close()

    def judge(self, name: str, label: str, page, fresh, *, selector: str = "body", what: str = "") -> None:
        """A page left open against its fresh load (NEWS left out: what only the page that acted says)."""
        self.figures["pages compared"] += 1
        try:
            self.lo.catch_up(page, fresh, selector=selector, timeout=self.args.patience, what=what or label, leave_out=NEWS)
        except AssertionError as failed:
            text = str(failed)
            if "reloaded itself" in text:
                self.figures["reloaded"].append(f"{name}: {label}")
                self.lo.mark(page)
            else:
                self.figures["differences"].append(f"{name}: {label} ({self.urls[label]})\n{text}")
                print(f"  DIFFERENCE at {name}: {label}\n{text[:1500]}")

    # --- the night ---------------------------------------------------------------------------------------
    def clock(self, t: dict, action: str, **extra) -> dict | None:
        return self.director.post(f"tournaments/{t['id']}/clock/", {"action": action, **extra}, ok_refused=True)

    def dealer(self, t: dict, number: int):
        return self.pages.get(f"{self.tag(t)}-dealer-{number}")

    def tag(self, t: dict) -> str:
        return {self.flights[0]["id"]: "1A", self.flights[1]["id"]: "1B"}.get(t["id"], "D2")

    def click(self, page, selector: str, figure: str) -> bool:
        if page is None:
            return False
        button = page.locator(selector)
        try:
            button.wait_for(state="visible", timeout=3000)
            if button.is_disabled():
                return False
            button.click()
            page.wait_for_timeout(300)
            self.figures[figure] += 1
            return True
        except Exception:  # noqa: BLE001  a button hidden in this state (hand-for-hand, the day over)
            return False

    def bust(self, t: dict, entry: dict, *, on_map: bool) -> bool:
        tid = t["id"]
        page = self.pages.get(f"{self.tag(t)}-floor-map")
        if on_map and page is not None:
            try:
                page.click(f'.m-seat[data-entry="{entry["number"]}"]', timeout=3000)
                page.click("#bust-ask", timeout=2000)
                page.click("#bust-go", timeout=2000)
                page.wait_for_selector("#undo-bar:not([hidden])", timeout=5000)
                self.figures["busts"] += 1
                self.figures["busts on the map"] += 1
                return True
            except Exception as failed:  # noqa: BLE001  the map's dialog did not go through: the API does it
                self.figures["notes"].append(f"bust on the map of {entry['number']} failed: {str(failed)[:120]}")
                try:
                    page.keyboard.press("Escape")
                except Exception:  # noqa: BLE001
                    pass
        stack = self.rng.randint(1, 30) * 1000
        if self.floor.post(f"tournaments/{tid}/entries/{entry['number']}/bust/", {"stack": stack}, ok_refused=True) is None:
            return False
        self.figures["busts"] += 1
        return True

    def confirm_slips(self, t: dict) -> None:
        data = self.floor.get(f"tournaments/{t['id']}/moves/")
        for move in data["moves"]:
            if move.get("status") == "pending":
                if self.floor.post(f"tournaments/{t['id']}/moves/{move['move']}/confirm/", ok_refused=True) is not None:
                    self.figures["slips confirmed"] += 1
        self.buttons(t)

    def step(self, t: dict, *, bust_chance: float = 0.5) -> None:
        """One hand at a table: Shuffle on its tablet, maybe a bust (the map or the API, sometimes undone), Hand done."""
        self.figures["steps"] += 1
        tables = [x for x in self.tables(t) if x.get("in_play")]
        if not tables:
            return
        table = self.rng.choice(tables)
        page = self.dealer(t, table["number"])
        self.click(page, "#shuffle", "shuffles clicked")
        if self.rng.random() < bust_chance:
            seated = self.seated(t, table["number"])
            if len(seated) > 1:
                victim = self.rng.choice(seated)
                if self.bust(t, victim, on_map=self.rng.random() < 0.5) and self.rng.random() < 0.12:
                    if self.floor.post(f"tournaments/{t['id']}/entries/{victim['number']}/undo-bust/", ok_refused=True) is not None:
                        self.figures["undone busts"] += 1
                        self.figures["busts"] -= 1
        self.click(page, "#hand-done", "hands done clicked")
        self.confirm_slips(t)
        if self.figures["steps"] % self.args.every == 0:
            self.checkpoint(f"step-{self.figures['steps']}")

    def left(self, t: dict) -> int:
        return len(self.entries(t))

    def color_up(self, t: dict) -> None:
        """The clock to the break; the color-up confirmed; a race at each table, confirmed; the next level."""
        tid = t["id"]
        self.clock(t, "next")  # level 2 -> the break
        try:
            detail = self.director.get(f"tournaments/{tid}/structure/")
            row = next(i for i, lv in enumerate(detail["levels"], start=1) if lv.get("kind") == "break")
            self.director.post(f"tournaments/{tid}/color-ups/", {"level": row})
        except (Refused, StopIteration, KeyError) as failed:
            self.figures["notes"].append(f"{self.tag(t)} color-up: {str(failed)[:300]}")
            return
        for table in self.tables(t):
            seats = {str(e["seat"]): {"chips": {"25": self.rng.randint(0, 7)}, "other": 10_000} for e in self.seated(t, table["number"])}
            if seats:  # the table's 25s make whole 100s (the room's do: every stack started at 20,000)
                last = seats[max(seats, key=int)]["chips"]
                last["25"] += -sum(x["chips"]["25"] for x in seats.values()) % 4
            if self.floor.post(f"tournaments/{tid}/tables/{table['number']}/race/", {"seats": seats}, ok_refused=True) is not None:
                self.floor.post(f"tournaments/{tid}/tables/{table['number']}/race/confirm/", ok_refused=True)
        self.clock(t, "next")

    def bag_and_close(self, t: dict) -> None:
        """Day 1's end: the clock stopped at the level in force, every table bagged, the day closed."""
        tid = t["id"]
        level = self.director.get(f"tournaments/{tid}/stats/")["current_level"]
        try:
            self.director.post(f"tournaments/{tid}/clock/day-end/", {"level": level})
        except Refused as failed:
            self.figures["notes"].append(f"{self.tag(t)} day end: {str(failed)[:300]}")
        self.clock(t, "next")  # the level ends: the clock stops for the day
        if self.director.get(f"tournaments/{tid}/clock/")["status"] == "running":
            self.figures["notes"].append(f"{self.tag(t)}: the clock still ran after the day's last level: paused")
            self.clock(t, "pause")
        stats = self.director.get(f"tournaments/{tid}/stats/")
        in_play = stats["chips_in_play"]
        entries = self.seated(t)
        weights = [self.rng.uniform(0.3, 3.0) for _ in entries]
        chips = [max(100, int(w / sum(weights) * in_play) // 100 * 100) for w in weights]
        chips[-1] += in_play // 100 * 100 - sum(chips)  # bags are made of the chips in play: the 25s went at the break
        if in_play % 100:
            self.figures["notes"].append(
                f"{self.tag(t)}: chips in play {in_play} after the color-up of the 25s: no bags of 100s add up to it"
            )
        by_table: dict[int, list] = {}
        for e, c in zip(entries, chips, strict=True):
            by_table.setdefault(e["table"], []).append({"seat": e["seat"], "chips": c, "bag": f"{self.tag(t)}-{e['number']}"})
        for number, bags in sorted(by_table.items()):
            self.floor.post(f"tournaments/{tid}/tables/{number}/bags/", {"bags": bags})
        closed = self.director.post(f"tournaments/{tid}/day/close/", {}, ok_refused=True)
        if closed is None:
            self.director.post(f"tournaments/{tid}/day/close/", {"reason": "festival bench: the bags are 100s, the chips in play are not"})

    def day1(self) -> None:
        for t in self.flights:
            self.clock(t, "start")
        target = max(4, self.args.players // 2)
        for round_ in range(10_000):
            flights = [t for t in self.flights if self.left(t) > target]
            if not flights:
                break
            t = self.rng.choice(flights)
            self.step(t)
            if round_ == 8:
                for f in self.flights:
                    self.clock(f, "next")  # level 2
                self.checkpoint("level-2")
            if round_ == 16:
                for f in self.flights:
                    self.color_up(f)
                self.checkpoint("color-up")
        self.checkpoint("day-1-played")
        for t in self.flights:
            self.bag_and_close(t)
        self.checkpoint("day-1-bagged")

    def play_day2(self) -> None:
        d, tid = self.director, self.day2["id"]
        carried = d.post(f"events/{self.event['id']}/carry/")
        print(f"carried: {carried}")
        n = len(self.entries(self.day2, None))
        for number in range(1, -(-n // 9) + 1):
            d.post(f"tournaments/{tid}/tables/", {"number": number, "seats": 9})
        d.post(f"tournaments/{tid}/draw/")
        self.buttons(self.day2)
        self.dealer_links(self.day2)
        self.open_tournament(self.day2, "D2")
        d.call("PATCH", f"tournaments/{tid}/payouts/plan/", {"share_paid_bp": 1500}, ok_refused=True)
        self.checkpoint("day-2-drawn")
        self.clock(self.day2, "start")
        places = d.get(f"tournaments/{tid}/payouts/")["places_paid"]
        print(f"Day 2: {n} players, {places} places paid")
        while self.left(self.day2) > places + 1:
            self.step(self.day2, bust_chance=0.7)
        self.checkpoint("bubble")
        d.post(f"tournaments/{tid}/hand-for-hand/", {"on": True}, ok_refused=True)
        self.checkpoint("hand-for-hand")
        for _ in range(200):
            if self.left(self.day2) <= places:
                break
            self.figures["steps"] += 1
            for table in [x for x in self.tables(self.day2) if x.get("in_play")]:
                page = self.dealer(self.day2, table["number"])
                self.click(page, "#shuffle", "shuffles clicked")
            tables = [x for x in self.tables(self.day2) if x.get("in_play")]
            if self.rng.random() < 0.4 and tables:
                table = self.rng.choice(tables)
                seated = self.seated(self.day2, table["number"])
                if len(seated) > 1:
                    self.bust(self.day2, self.rng.choice(seated), on_map=True)
            for table in tables:
                self.click(self.dealer(self.day2, table["number"]), "#hand-done", "hands done clicked")
            self.confirm_slips(self.day2)
        d.post(f"tournaments/{tid}/hand-for-hand/", {"on": False}, ok_refused=True)
        self.checkpoint("in-the-money")
        while self.left(self.day2) > 3:
            self.step(self.day2, bust_chance=0.7)
        left = self.entries(self.day2)
        stacks = {str(e["number"]): self.rng.randint(50, 300) * 1000 for e in left}
        deal = self.floor.post(f"tournaments/{tid}/deals/", {"kind": "icm", "stacks": stacks}, ok_refused=True)
        if deal is not None:
            d.post(f"tournaments/{tid}/deals/{deal['number']}/approve/", ok_refused=True)
        self.checkpoint("deal")
        while self.left(self.day2) > 1:
            self.step(self.day2, bust_chance=0.8)
        self.checkpoint("winner")
        self.pay(self.day2)
        self.checkpoint("paid")

    def pay(self, t: dict) -> None:
        """Every prize at the cage: the results (each place with its name and prize), the ID typed again, a signature."""
        ink = signature()
        tid = t["id"]
        for row in self.cashier.get(f"tournaments/{tid}/results/"):
            if not row["prize"]:
                continue
            doc = self.documents.get(row["name"])
            if doc is None:
                self.figures["notes"].append(f"no document known for entry {row['entry']} ({row['name']})")
                continue
            if (
                self.cashier.post(
                    f"tournaments/{tid}/entries/{row['entry']}/payout/",
                    {"document_type": "id_card", "document_number": doc, "signature": ink},
                    ok_refused=True,
                )
                is not None
            ):
                self.figures["prizes paid"] += 1

    # --- the log and the figures ---------------------------------------------------------------------------
    def scan_log(self) -> dict:
        text = self.log_path.read_text(errors="replace")
        return {
            "broadcast failures": [line for line in text.splitlines() if "broadcast to" in line.lower()],
            "tracebacks": text.count("Traceback (most recent call last)"),
            "500s": [line for line in text.splitlines() if re.search(r'HTTP/1\.1" 5\d\d', line)],
        }

    def report(self) -> int:
        log = self.scan_log()
        f = self.figures
        print("\n=== festival through the screens ===")
        for key in (
            "steps",
            "busts",
            "busts on the map",
            "undone busts",
            "shuffles clicked",
            "hands done clicked",
            "slips confirmed",
            "prizes paid",
            "checkpoints",
            "pages open",
            "pages compared",
            "screenshots",
            "api calls",
            "api refused",
            "api retried",
        ):
            print(f"{key}: {f[key]}")
        if f["stopped"]:
            print(f"STOPPED before the end: {f['stopped']}")
        print(f"differences: {len(f['differences'])}")
        for d in f["differences"]:
            print("  - " + d.replace("\n", "\n    "))
        print(f"pages that reloaded themselves: {len(f['reloaded'])} {f['reloaded']}")
        print(f"api 5xx: {len(f['api 5xx'])} {f['api 5xx'][:10]}")
        print(f"broadcast failures in the log: {len(log['broadcast failures'])}")
        for line in log["broadcast failures"][:10]:
            print("  " + line)
        print(f"tracebacks in the log: {log['tracebacks']}; 500s in the log: {len(log['500s'])}")
        for line in log["500s"][:10]:
            print("  " + line)
        for note in f["notes"][:30]:
            print("note: " + note)
        print(f"screenshots under {OUT}")
        bad = f["stopped"] or f["differences"] or f["reloaded"] or f["api 5xx"] or log["broadcast failures"] or log["tracebacks"]
        return 1 if bad else 0

    def play(self) -> None:
        """The night, once the server is up, the staff logged in, the room set up and the browser open."""
        for t in self.flights:
            self.open_tournament(t, self.tag(t))
        self.checkpoint("seated")
        self.day1()
        self.play_day2()

    def run(self) -> int:
        self.start_server()
        try:
            self.logins()
            self.set_up()
            self.open_browser()
            self.play()
        except (Exception, KeyboardInterrupt) as failed:  # noqa: BLE001  the figures so far still count (Ctrl-C too)
            import traceback

            traceback.print_exc()
            self.figures["stopped"] = f"{failed!r}"[:600]
        finally:
            try:
                self.browser.close()
                self.pw.stop()
            except Exception:  # noqa: BLE001
                pass
            self.stop_server()
        return self.report()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--players", type=int, default=20, help="players per Day 1 flight")
    parser.add_argument("--every", type=int, default=25, help="a checkpoint every N steps")
    parser.add_argument("--patience", type=float, default=5.0, help="seconds a page gets to catch up")
    parser.add_argument("--seed", type=int, default=39)
    parser.add_argument("--port", type=int, default=0)
    parser.add_argument(
        "--services",
        action="store_true",
        help="PostgreSQL and Redis as a festival runs them (DATABASE_URL, REDIS_URL) instead of the embedded defaults",
    )
    sys.exit(Festival(parser.parse_args()).run())


if __name__ == "__main__":
    main()
