"""A tournament in one file from the director's screens, in a real browser: the director
downloads the tournament's file from its settings page, imports it back into the same database (refused, "here
already", the screen says so and nothing is written), then imports the file of a tournament this database lacks (the
same file with another uid, its checksum made again with archive's own function) and lands on the new tournament's
page, which says what the import did. Each screen is checked with axe, its CSP and console, and at tablet and phone
sizes."""

from __future__ import annotations

import json
from datetime import date
from functools import partial
from uuid import uuid4

import pytest
from django.urls import reverse

from archive.selectors import schema
from archive.selectors.export import file_text
from tables.services import setup as table_setup
from tests.browser import accessibility, sizes
from tests.browser.conftest import login
from tests.browser.csp import csp_problems, watch_errors
from tests.helpers import id_doc
from tournament.models import AuditEvent, Entry, Player, Tournament
from tournament.services import registration

pytestmark = pytest.mark.browser
fits = partial(sizes.fits, prefix="tournament_file")


def said(page) -> str:
    """What the screen says after the API answered: the import page's own line, the next page's banner."""
    shown = page.locator(".api-say:not([hidden]), [data-api-say]:not([hidden])").first
    shown.wait_for()
    return shown.inner_text()


def as_another_tournament(document: dict, name: str) -> dict:
    """The file of a tournament this database does not hold: another uid (and name), the checksum made again."""
    moved = json.loads(json.dumps(document))
    part = moved["rows"][schema.TOURNAMENT]
    row = part["rows"][0]
    row[part["fields"].index("uid")] = moved["tournament"]["uid"] = str(uuid4())
    row[part["fields"].index("name")] = moved["tournament"]["name"] = name
    moved["checksum"] = schema.checksum(moved)
    return moved


def test_the_director_downloads_the_file_and_imports_it(live_asgi, browser, director, cashier, tournament, tmp_path):
    table_setup.open_table(tournament, actor=director, number=1, seats=9)
    for i in range(3):
        player = registration.create_player(actor=cashier, first_name=f"F{i}", last_name="Moved", date_of_birth=date(1981, 2, 1 + i))
        registration.register_entry(tournament, actor=cashier, player=player, document=id_doc(f"MV{i:07d}"))
    base = live_asgi
    page = browser.new_context(viewport=sizes.TABLET, accept_downloads=True).new_page()
    errors = watch_errors(page)
    login(page, base, director.username)

    # The download, on the tournament's settings page.
    page.goto(base + reverse("tournament-edit", args=[tournament.pk]))
    link = page.locator("#tournament-export-link")
    assert link.inner_text() == "Download the tournament file"
    assert accessibility.problems(page) == []
    assert fits(page, "settings") == []
    with page.expect_download() as downloading:
        link.click()
    download = downloading.value
    assert download.suggested_filename == f"tournament-{tournament.pk}.json"
    document = json.loads(open(download.path(), encoding="utf-8").read())
    assert document["checksum"] == schema.checksum(document)
    assert document["tournament"]["uid"] == str(tournament.uid) and document["tournament"]["entries"] == 3

    # The import page, from the home page: the same file is here already, and the screen says so.
    page.goto(base + "/")
    page.click("#tournament-import-link")
    page.wait_for_url(base + reverse("tournament-import"))
    page.wait_for_load_state()  # the page's scripts have run: the file is sent through the API
    page.wait_for_selector("#tournament-import-form")
    assert accessibility.problems(page) == []
    assert fits(page, "import") == []
    before = (Tournament.objects.count(), Entry.objects.count(), Player.objects.count(), AuditEvent.objects.count())
    page.set_input_files("#id_file", download.path())
    with page.expect_response(lambda r: r.url.endswith("/api/tournaments/import/")) as sent:
        page.click("#tournament-import-form button[type=submit]")
    assert sent.value.status == 409
    assert said(page) == (
        f"This tournament is here already: “{tournament.name}” (tournament {tournament.pk}). An import "
        "never doubles or replaces a tournament. Nothing was imported."
    )
    assert (Tournament.objects.count(), Entry.objects.count(), Player.objects.count(), AuditEvent.objects.count()) == before
    assert fits(page, "import_refused") == []

    # The file of a tournament this database lacks: imported, and the new tournament's page says what was done.
    moved = tmp_path / "moved.json"
    moved.write_text(file_text(as_another_tournament(document, "Moved in")), encoding="utf-8")
    page.set_input_files("#id_file", str(moved))
    with page.expect_response(lambda r: r.url.endswith("/api/tournaments/import/")) as sent:
        page.click("#tournament-import-form button[type=submit]")
    assert sent.value.status == 201, sent.value.text()
    new = Tournament.objects.get(name="Moved in")
    page.wait_for_url(base + reverse("tournament-detail", args=[new.pk]))
    events = document["tournament"]["events"]
    # The same tournament is still playing here at its table: the copy cannot have it, and the import says so.
    assert said(page) == (
        f"Moved in imported as tournament {new.pk}: 3 entries, {events} events, 0 new players, 3 players found here by their ID hash."
        " Tables this venue cannot give it now (free them, or move their players, then open them again): Table 1 is held by"
        f" {tournament.name}."
    )
    assert new.entries.count() == 3 and Player.objects.count() == before[2]  # the players here, found by their hash
    assert AuditEvent.objects.filter(tournament=new).order_by("-seq").first().type == "tournament.imported"
    assert accessibility.problems(page) == []
    assert [p for p in csp_problems(page, errors) if "status of 409" not in p] == []
