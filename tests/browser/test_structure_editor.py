"""The structure editor's buttons in a real browser, and the setup screens that save structures through the
JSON API: create, edit (a refusal shown at its field and at its row), copy and import a file."""

import json

import pytest
from django.urls import reverse

from tests.browser.conftest import login
from tests.conftest import PASSWORD
from tests.helpers import said
from tournament.models import Structure
from tournament.services import setup

pytestmark = pytest.mark.browser


def director_page(browser, base, director):
    page = browser.new_context(viewport={"width": 1440, "height": 900}).new_page()
    login(page, base, director.username, PASSWORD)
    return page


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
    with page.expect_response(lambda r: r.url.endswith("/api/structures/") and r.request.method == "POST") as saved:
        page.click("#structure-form button[type=submit]")
    assert saved.value.status == 201
    page.wait_for_url(base + reverse("structure-list"))
    said(page, "Structure Browser built saved.")
    spec = setup.spec_of(Structure.objects.get(name="Browser built"))
    assert sorted(spec.denominations) == [(25, "green"), (100, "black")]
    assert [(lv.kind, lv.small_blind, lv.minutes) for lv in spec.levels] == [
        ("level", 100, 20),
        ("level", 200, 20),
        ("break", 0, 10),
        ("level", 300, 20),
        ("level", 400, 20),
    ]
    assert spec.levels[2].color_up == (25,)


def test_a_template_is_edited_refused_at_its_row_and_field_then_saved(live_asgi, browser, director, template):
    base = live_asgi
    page = director_page(browser, base, director)
    page.goto(base + reverse("structure-edit", args=[template.pk]))
    page.fill("#id_levels-1-minutes", "0")  # row 2: a level of no minutes
    page.fill("#id_levels-3-color_up", "25")  # a level colors up nothing
    page.click("#structure-form button[type=submit]")
    field = page.locator('.errorlist[data-api-field="levels.3.color_up"]')
    field.wait_for()
    assert field.inner_text() == "Only a break colors up chips; make this row a break or clear the field."
    assert page.get_attribute("#id_levels-3-color_up", "aria-invalid") == "true"
    page.fill("#id_levels-3-color_up", "")
    page.click("#structure-form button[type=submit]")
    row = page.locator('.errorlist[data-api-field="levels.1"]')
    row.wait_for()
    assert "Row 2: a level or break must last at least one minute." in row.inner_text()
    assert page.locator("tbody[data-row=levels]").nth(1).locator('.errorlist[data-api-field="levels.1"]').count() == 1
    assert "Row 2: a level or break must last at least one minute." in page.inner_text("[data-api-say]")
    assert [lv.minutes for lv in setup.spec_of(template).levels] == [20, 20, 10, 20, 20]  # nothing saved
    page.fill("#id_levels-1-minutes", "30")
    page.fill("#id_name", "Daily 20k slow")
    page.click("#structure-form button[type=submit]")
    page.wait_for_url(base + reverse("structure-list"))
    said(page, "Structure Daily 20k slow saved.")
    template.refresh_from_db()
    assert template.name == "Daily 20k slow" and [lv.minutes for lv in setup.spec_of(template).levels] == [20, 30, 10, 20, 20]


def test_a_template_is_copied_and_a_file_imported(live_asgi, browser, director, template, tmp_path):
    base = live_asgi
    page = director_page(browser, base, director)
    page.goto(base + reverse("structure-list"))
    page.click(f'tr[data-structure="{template.pk}"] a[href$="/copy/"]')
    page.wait_for_url("**/copy/")
    page.wait_for_load_state()  # the form's scripts have run: it is sent through the API
    page.fill("#id_name", "  ")
    page.click("form[data-api] button[type=submit]")
    field = page.locator('.errorlist[data-api-field="name"]')
    field.wait_for()
    assert field.inner_text() == "Give the copy a name."
    page.fill("#id_name", "Daily 20k turbo")
    page.click("form[data-api] button[type=submit]")
    page.wait_for_url("**/setup/structures/*/")
    copy = Structure.objects.get(name="Daily 20k turbo")
    assert page.url == base + reverse("structure-edit", args=[copy.pk])  # the copy's editor, as before
    said(page, "Copied as Daily 20k turbo. You can change the copy now.")
    assert setup.spec_of(copy).levels == setup.spec_of(template).levels

    # A file that is not JSON: the screen says what is wrong, and nothing is imported.
    bad = tmp_path / "broken.json"
    bad.write_text('{"format": "poker-tournament-structure",\n  "name": }')
    page.goto(base + reverse("structure-import"))
    page.set_input_files("#id_file", str(bad))
    page.click("form[data-api] button[type=submit]")
    said(page, "This is not valid JSON (line 2, column 11).")
    assert Structure.objects.count() == 2  # the template and its copy: nothing imported
    good = tmp_path / "good.json"
    good.write_text(json.dumps({**setup.export_structure(template), "name": "Imported"}))
    page.set_input_files("#id_file", str(good))
    with page.expect_response(lambda r: r.url.endswith("/api/structures/import/")) as sent:
        page.click("form[data-api] button[type=submit]")
    assert sent.value.status == 201, sent.value.text()
    imported = Structure.objects.get(name="Imported")
    page.wait_for_url(base + reverse("structure-edit", args=[imported.pk]))  # its editor, as before
    assert imported.is_template
    said(page, "Structure Imported imported.")
    assert setup.spec_of(imported).levels == setup.spec_of(template).levels
