"""Does a screen fit a tablet and a phone? The TV's size, the two viewports the browser tests use, the overflow check they share, and
`fits`, which sets each viewport in turn, collects what sticks out of the window and, with SCREEN_SHOTS set in the
environment, shoots each size to /tmp/<prefix>_<label>.png to look at by eye."""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable

TV = {"width": 1920, "height": 1080}
TABLET = {"width": 1180, "height": 820}
PHONE = {"width": 390, "height": 844}

# What sticks out of the window on the right: the page itself (wider than the window), then every element matched by
# the selector or inside one. The argument: nothing (main and the page), a selector (it and the page), or
# {"selector": ..., "page": false} for the elements alone. A list of selectors ("#call, .d-bottom") is split at its
# commas, so a selector with a comma inside (":is(a, b)") does not go here.
OVERFLOW = """(what) => {
  const {selector = "main", page = true} = typeof what === "string" ? {selector: what} : what || {};
  const w = document.documentElement.clientWidth, out = [];
  if (page && document.documentElement.scrollWidth > w + 0.5) out.push("page " + document.documentElement.scrollWidth);
  const each = selector.split(",").map((s) => s.trim()).flatMap((s) => [s, s + " *"]).join(", ");
  document.querySelectorAll(each).forEach((e) => {
    const r = e.getBoundingClientRect();
    if (r.width && r.right > w + 0.5) out.push((e.id || e.className || e.tagName) + " " + Math.round(r.right));
  });
  return out;
}"""

# Which shots a size gets: (label, whole page?) pairs; the file is /tmp/<prefix>_<label>.png.
Shots = Callable[[str, dict], Iterable[tuple[str, bool]]]


def by_width(name: str, size: dict) -> list[tuple[str, bool]]:
    """<name>_<width>, the whole page (the default)."""
    return [(f"{name}_{size['width']}", True)]


def by_device(whole: tuple[dict, ...] = (TABLET, PHONE), tablet: str | None = "_tablet", phone: str | None = "_phone") -> Shots:
    """<name>_tablet and <name>_phone (or <name> + other suffixes; None: no shot at that size); the whole page on the
    sizes in `whole`, else the window only."""

    def shots(name: str, size: dict) -> list[tuple[str, bool]]:
        suffix = phone if size == PHONE else tablet
        return [] if suffix is None else [(name + suffix, size in whole)]

    return shots


def shot(page, prefix: str, label: str, *, full_page: bool = False, always: bool = False) -> None:
    """One shot to /tmp/<prefix>_<label>.png when SCREEN_SHOTS is set (or always), to look at by eye."""
    if always or os.environ.get("SCREEN_SHOTS"):
        page.screenshot(path=f"/tmp/{prefix}_{label}.png", full_page=full_page)


def fits(
    page,
    name: str,
    sizes: tuple[dict, ...] = (TABLET, PHONE),
    *,
    prefix: str,
    selector: str | Callable[[dict], str] = "main",
    whole_page: bool = True,
    wait: int = 150,
    shots: Shots = by_width,
    always_shoot: bool = False,
) -> list[str]:
    """What sticks out of the window at each size ("<width>: <element> <right>"), [] when the screen fits. Each size
    is set and given `wait` ms; `selector` (or selector(size)) says which elements are checked, `whole_page` whether
    the page's own width is too. Shot when SCREEN_SHOTS is set (or always_shoot). The page is left at sizes[0]."""
    problems = []
    for size in sizes:
        page.set_viewport_size(size)
        page.wait_for_timeout(wait)
        what = {"selector": selector(size) if callable(selector) else selector, "page": whole_page}
        problems += [f"{size['width']}: {p}" for p in page.evaluate(OVERFLOW, what)]
        for label, full_page in shots(name, size):
            shot(page, prefix, label, full_page=full_page, always=always_shoot)
    page.set_viewport_size(sizes[0])
    return problems
