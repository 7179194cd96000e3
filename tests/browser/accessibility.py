"""Accessibility checks a browser test runs on an open page: axe-core (the axe-playwright-python
package bundles it) and a look for things a mouse can press that a keyboard cannot reach.

`problems(page)` answers one line per finding that fails a screen: an axe violation of serious or critical
impact (its rule, the element and axe's summary), or an element that shows a pointer cursor but takes no
focus. Moderate and minor violations are printed, not failed."""

from __future__ import annotations

from axe_playwright_python.sync_playwright import Axe

FAILING = ("critical", "serious")

# An element with a pointer cursor of its own (not inherited from a parent that has one) invites a click:
# a keyboard must reach it too. It may be a focusable element (a link, a button, a field, a summary, any
# tabindex), a label (pressing it is pressing its field, which takes the focus), or something disabled.
POINTER_CHECK = r"""() => {
  const out = [];
  const label = (el) => el.tagName.toLowerCase() + (el.id ? "#" + el.id : "")
    + (typeof el.className === "string" && el.className.trim() ? "." + el.className.trim().split(/\s+/).join(".") : "")
    + ' "' + (el.textContent || "").replace(/\s+/g, " ").trim().slice(0, 40) + '"';
  for (const el of document.body.querySelectorAll("*")) {
    if (!el.getClientRects().length || getComputedStyle(el).cursor !== "pointer") continue;
    if (el.parentElement && getComputedStyle(el.parentElement).cursor === "pointer") continue;
    if (el.closest("label, [disabled], [inert]") || el.matches(":disabled")) continue;
    if (el.tabIndex >= 0 || el.matches("summary, a[href]") || el.isContentEditable) continue;
    out.push("not reachable by keyboard: " + label(el) + " shows a pointer cursor but takes no focus");
  }
  return out;
}"""


def axe_violations(page) -> list[dict]:
    return Axe().run(page).response["violations"]


def describe(violation: dict) -> list[str]:
    return [
        f"axe {violation['impact']}: {violation['id']} at {', '.join(map(str, node['target']))}: "
        + " ".join((node.get("failureSummary") or violation["help"]).split())
        for node in violation["nodes"]
    ]


def problems(page) -> list[str]:
    """The findings that fail a screen; the moderate and minor ones are printed."""
    violations = axe_violations(page)
    for v in violations:
        if v["impact"] not in FAILING:
            print("\n".join(describe(v)))
    found = [line for v in violations if v["impact"] in FAILING for line in describe(v)]
    return found + page.evaluate(POINTER_CHECK)
