"""The structure editor's buttons in a real browser."""
import pytest
from django.urls import reverse

from tests.browser.conftest import login
from tests.conftest import PASSWORD
from tournament import setup
from tournament.models import Structure

pytestmark = pytest.mark.browser


def test_editor_buttons_add_insert_and_move_rows_in_a_browser(live_asgi, browser, director):
    base = live_asgi
    page = browser.new_context(viewport={"width": 1440, "height": 900}).new_page()
    login(page, base, director.username, PASSWORD)
    page.goto(base + reverse("structure-create"))
    page.fill("#id_name", "Browser built")
    page.fill("#id_chips-0-value", "25")
    page.fill("#id_chips-0-colour", "green")
    page.click("button[data-add=chips]")
    page.fill("#id_chips-6-value", "100")  # 6 empty rows at first, the added one is the 7th
    page.fill("#id_chips-6-colour", "black")
    for i, (sb, bb) in enumerate([(100, 200), (200, 400), (300, 600)]):
        page.fill(f"#id_levels-{i}-small_blind", str(sb))
        page.fill(f"#id_levels-{i}-big_blind", str(bb))
        page.fill(f"#id_levels-{i}-minutes", "20")
    # A break added at the end, then moved up above level 3 (past the empty rows).
    page.click("button[data-add=levels][data-kind=break]")
    page.fill("#id_levels-12-minutes", "10")
    page.fill("#id_levels-12-color_up", "25")
    for _ in range(10):
        page.locator("tbody[data-row=levels]").nth(12 - _).locator("button[data-move=up]").click()
    labels = [t.split("\n")[0] for t in page.locator("tbody[data-row=levels] .rowlabel").all_inner_texts()]
    assert labels[:4] == ["Level 1", "Level 2", "Break", "Level 3"]
    # Insert a level below level 3 and fill it.
    page.locator("tbody[data-row=levels]").nth(3).locator("button[data-insert=levels]").click()
    page.fill("#id_levels-4-small_blind", "400")
    page.fill("#id_levels-4-big_blind", "800")
    page.fill("#id_levels-4-minutes", "20")
    assert page.input_value("#id_levels-TOTAL_FORMS") == "14"
    page.click("#structure-form button[type=submit]")
    page.wait_for_url(base + reverse("structure-list"))
    spec = setup.spec_of(Structure.objects.get(name="Browser built"))
    assert sorted(spec.denominations) == [(25, "green"), (100, "black")]
    assert [(lv.kind, lv.small_blind, lv.minutes) for lv in spec.levels] == [
        ("level", 100, 20), ("level", 200, 20), ("break", 0, 10), ("level", 300, 20), ("level", 400, 20)]
    assert spec.levels[2].color_up == (25,)
