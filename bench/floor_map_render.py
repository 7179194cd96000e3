"""The floor map in a browser at festival scale: 10,000 entries drawn over 1,112 tables of 9.

Run by hand; SQLite (the default: an in-memory test database shared with the server thread) or PostgreSQL
(it creates and drops its own database, test_bench_floor_map_render_<pid>):
    .venv/bin/python bench/floor_map_render.py [N=10000]
    DATABASE_URL=postgres://postgres@127.0.0.1:5432/test .venv/bin/python bench/floor_map_render.py
The entries and tables are bulk-created (bench/seating.populate), the start draw seats them, a few players
get real names (a "Jiří Novák" to search for). The ASGI app (config.asgi, HTTP and WebSockets) is served by
uvicorn in a thread of this process, as the browser tests do; Debian's chromium (Playwright, headless,
1180x820 like a floor tablet) logs a floor user in.

Prints, at 1,112 tables:
- the read model (floor_map + balancing + hand-for-hand, as map.json builds it) timed in Python;
- map.json: size (decoded and on the wire), fetch time (in the page: request to body received), JSON.parse;
- the page: HTML size (it embeds the map), time from navigation to the response's end, to DOMContentLoaded
  and to the first section drawn (the script's performance mark "floor-map:first-render"); DOM nodes;
- a section switch (select change to the cards laid out, and to the next frame painted), median of 10;
- a player search: "jiri novak" submitted, to the seat found, highlighted, scrolled to (first one
  builds the folded index of 10,000 names), median of 10; typing a search (results listed, no jump);
- go to table 1,025 (typed and submitted, to the card scrolled to);
- a refetch (map.json fetched, parsed, the visible section checked: unchanged cards are kept), median of 5.
SCREENSHOT=/tmp/map.png saves the screen after a search. Figures only, no targets asserted; they vary by ±20 % on a shared machine.
"""

from __future__ import annotations

import os
import statistics
import sys
import threading
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = "true"  # Playwright's sync API runs a loop in this thread

import django  # noqa: E402

django.setup()

from django.conf import settings  # noqa: E402

CHROMIUM = "/usr/bin/chromium"
ARGS = ["--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-background-networking", "--disable-sync"]
PASSWORD = "bench-floor-password-1"
NAMES = {
    5000: ("Jiří", "Novák", ""),
    5001: ("Jana", "Nováková", ""),
    5002: ("Jana", "Nováková", "Janička"),
    7777: ("Jiří", "Procházka-Dvořáková", "Big Stack"),
}


def main(n: int) -> None:
    from bench.common import in_own_database

    in_own_database("floor_map_render", run, n)


def serve():
    """config.asgi on a free port, in a thread: (base url, server)."""
    import socket

    import uvicorn

    from config.asgi import application

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    server = uvicorn.Server(uvicorn.Config(application, host="127.0.0.1", port=port, log_level="warning", lifespan="off"))
    threading.Thread(target=server.run, daemon=True).start()
    deadline = time.monotonic() + 30
    while not server.started:
        if time.monotonic() > deadline:
            raise RuntimeError("the server did not start")
        time.sleep(0.05)
    return f"http://127.0.0.1:{port}", server


def run(n: int) -> None:
    from django.contrib.auth.models import Group, User

    from bench.seating import populate
    from tables.services import draws
    from tournament.models import Entry, Player
    from web.tables.views import _floor_map

    settings.ALLOWED_HOSTS = ["*"]
    started = time.perf_counter()
    director, t, count = populate(n)
    for number, (first, last, nick) in NAMES.items():
        if number <= n:
            player = Player.objects.get(pk=Entry.objects.get(tournament=t, number=number).player_id)
            player.first_name, player.last_name, player.nickname = first, last, nick
            player.save()  # save(), not update(): the player's search key follows the name
    draws.draw_start(t, actor=director)
    floor = User.objects.create_user("bench-floor", password=PASSWORD)
    floor.groups.add(Group.objects.get_or_create(name="Floor")[0])
    print(
        f"database: {settings.DATABASES['default']['ENGINE'].rsplit('.', 1)[-1]}, players: {n}, tables: {count} x 9; "
        f"set-up and draw {time.perf_counter() - started:.1f} s"
    )

    rounds = []
    for _ in range(5):
        tic = time.perf_counter()
        _floor_map(t)
        rounds.append((time.perf_counter() - tic) * 1000)
    print(
        f"read model (floor_map + balancing + hand-for-hand), Python: median {statistics.median(rounds):.0f} ms, best {min(rounds):.0f} ms"
    )

    base, server = serve()
    try:
        browse(base, t.pk, min(1025, count))
    finally:
        server.should_exit = True


def median(values: list[float]) -> str:
    return f"median {statistics.median(values):.1f} ms (min {min(values):.1f}, max {max(values):.1f})"


def browse(base: str, pk: int, target: int) -> None:
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, headless=True, args=ARGS)
        page = browser.new_context(viewport={"width": 1180, "height": 820}).new_page()
        page.goto(f"{base}/accounts/login/")
        page.fill("#id_username", "bench-floor")
        page.fill("#id_password", PASSWORD)
        page.click("button[type=submit]")
        page.wait_for_url(f"{base}/")

        # map.json as the page fetches it: the browser's resource timing (time to the body received, sizes on
        # the wire and decoded), then JSON.parse.
        got = page.evaluate(
            """async (url) => {
            const out = [];
            for (let i = 0; i < 5; i++) {
              performance.clearResourceTimings();
              const t0 = performance.now();
              const text = await (await fetch(url, {cache: 'no-store', credentials: 'same-origin'})).text();
              const t1 = performance.now();
              JSON.parse(text);
              const e = performance.getEntriesByType('resource').filter(r => r.name.endsWith("/map/")).pop();
              out.push({fetch: t1 - t0, parse: performance.now() - t1, wire: e.encodedBodySize, size: e.decodedBodySize});
            }
            return out; }""",
            f"{base}/api/tournaments/{pk}/map/",
        )
        last = got[-1]
        print(
            f"map.json: {last['size'] / 1024:.0f} KiB ({last['size']:,} bytes), {last['wire'] / 1024:.0f} KiB on the wire "
            f"(gzip); fetch {median([x['fetch'] for x in got])}; JSON.parse {median([x['parse'] for x in got])}"
        )

        loads = []
        for _ in range(3):
            page.goto(f"{base}/t/{pk}/map/", wait_until="load")
            page.wait_for_selector("#map .m-table")
            loads.append(
                page.evaluate("""() => {
                const nav = performance.getEntriesByType('navigation')[0];
                const mark = performance.getEntriesByName('floor-map:first-render')[0];
                return {html: nav.decodedBodySize, transfer: nav.transferSize, response: nav.responseEnd,
                        dcl: nav.domContentLoadedEventEnd, first: mark ? mark.startTime : null,
                        cards: document.querySelectorAll('#map .m-table').length,
                        nodes: document.getElementsByTagName('*').length,
                        sections: document.getElementById('map-section').options.length}; }""")
            )
        last = loads[-1]
        print(
            f"map page: HTML {last['html'] / 1024:.0f} KiB (the map embedded), {last['sections']} sections, "
            f"{last['cards']} tables drawn, {last['nodes']:,} DOM elements"
        )
        for key, label in (
            ("response", "navigation to the HTML received"),
            ("dcl", "navigation to DOMContentLoaded"),
            ("first", "navigation to the first section drawn"),
        ):
            print(f"  {label}: {median([x[key] for x in loads])}")

        # A section switch: the select changed, the cards built and laid out; then the next frame.
        switch = page.evaluate("""async () => {
            const sel = document.getElementById('map-section'), sync = [], painted = [];
            for (let i = 0; i < 10; i++) {
              const t0 = performance.now();
              sel.value = String((i * 7 + 3) % sel.options.length);
              sel.dispatchEvent(new Event('change'));
              document.body.offsetHeight;  // layout
              sync.push(performance.now() - t0);
              await new Promise(r => requestAnimationFrame(() => setTimeout(r, 0)));
              painted.push(performance.now() - t0);
            }
            return {sync, painted}; }""")
        print(f"section switch (50 tables): script and layout {median(switch['sync'])}; to the next frame {median(switch['painted'])}")

        search = page.evaluate("""async () => {
            const input = document.getElementById('map-search'), form = document.getElementById('map-search-form');
            const out = [];
            for (let i = 0; i < 10; i++) {
              const t0 = performance.now();
              input.value = 'jiri novak';
              form.requestSubmit();
              document.body.offsetHeight;
              out.push(performance.now() - t0);
              if (!document.querySelector('.m-seat.found')) return null;
              document.getElementById('map-section').value = '0';
              document.getElementById('map-section').dispatchEvent(new Event('change'));
            }
            return out; }""")
        if search is None:
            print("search: the seat was NOT found")
        else:
            print(
                f"search 'jiri novak' to the seat highlighted and scrolled to: first (index of every name built) "
                f"{search[0]:.1f} ms; then {median(search[1:])}"
            )
        typed = page.evaluate("""async () => {
            const input = document.getElementById('map-search'), out = [];
            for (const q of ['no', 'nov', 'nova', 'novak', 'jana']) {
              input.value = q;
              const t0 = performance.now();
              input.dispatchEvent(new Event('input'));
              await new Promise(r => setTimeout(r, 130));
              out.push({q, n: document.querySelectorAll('#map-found button').length,
                        note: document.getElementById('map-search-note').textContent});
            }
            return out; }""")
        print("search as you type (results listed): " + "; ".join(f"{x['q']!r}: {x['n']} shown {x['note']}".strip() for x in typed))
        goto = page.evaluate(
            """(n) => {
            const input = document.getElementById('map-goto'), t0 = performance.now();
            input.value = String(n);
            document.getElementById('map-goto-form').requestSubmit();
            document.body.offsetHeight;
            return {ms: performance.now() - t0,
                    top: document.querySelector(`.m-table[data-table="${n}"]`).getBoundingClientRect().top}; }""",
            target,
        )
        print(f"go to table {target}: {goto['ms']:.1f} ms (its card {goto['top']:.0f} px from the top of the screen)")
        refetch = page.evaluate("""async () => {
            const out = [];
            for (let i = 0; i < 5; i++) {
              const t0 = performance.now();
              await window.floorMap.refetch();
              out.push(performance.now() - t0);
            }
            return out; }""")
        print(f"refetch (map.json fetched and parsed, visible section checked, unchanged cards kept): {median(refetch)}")
        if os.environ.get("SCREENSHOT"):  # SCREENSHOT=/tmp/map.png: the search result as the floor sees it
            page.fill("#map-search", "novak")
            page.press("#map-search", "Enter")
            page.wait_for_selector(".m-seat.found")
            page.screenshot(path=os.environ["SCREENSHOT"])
        overflow = page.evaluate("document.documentElement.scrollWidth - document.documentElement.clientWidth")
        print(f"horizontal overflow at 1180x820: {overflow} px")
        browser.close()


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 10_000)
