"""The accessibility checker of the screen walk (tests/browser/accessibility.py) itself: a page with each fault
it must find, and one without."""

from __future__ import annotations

import pytest

from tests.browser import accessibility

pytestmark = pytest.mark.browser


def test_the_checker_finds_contrast_labels_and_what_a_keyboard_cannot_reach(browser):
    page = browser.new_context(viewport={"width": 800, "height": 600}).new_page()
    page.set_content("""<!doctype html><html lang="en"><head><title>Faults</title></head><body><main>
      <h1>Faults</h1>
      <p id="faint" style="color:#777; background:#888">Hard to read</p>
      <textarea id="nameless"></textarea>
      <div id="clicky" style="cursor:pointer">Press me</div>
    </main></body></html>""")
    found = accessibility.problems(page)
    assert any(f.startswith("axe serious: color-contrast at #faint") for f in found), found
    assert any(f.startswith("axe critical: label at #nameless") for f in found), found
    assert any("not reachable by keyboard: div#clicky" in f for f in found), found
    page.set_content("""<!doctype html><html lang="en"><head><title>Fine</title></head><body><main>
      <h1>Fine</h1><p>Easy to read</p><label for="n">Name</label> <input id="n">
      <button style="cursor:pointer">Press me</button> <label style="cursor:pointer"><input type="checkbox"> Tick</label>
    </main></body></html>""")
    assert accessibility.problems(page) == []
    page.context.close()
