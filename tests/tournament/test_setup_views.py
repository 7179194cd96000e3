"""The director's setup screens: structure editor, copy, export/import, tournament forms, permissions.

The pages only render (one write path); their forms save through the JSON API. These tests send
what the screens' scripts send (static/js/structure-editor.js, api-forms.js) and read the pages; the browser
tests (tests/browser/test_structure_editor.py, test_tournament_form.py) press the buttons."""

from __future__ import annotations

import json
from datetime import UTC, datetime
from unittest import mock

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse

from tests.conftest import BASIC_SPEC
from tests.helpers import client_for as api_for
from tournament.models import AuditEvent, Structure, Tournament
from tournament.rules.structure import FORMAT_VERSION, LevelSpec
from tournament.services import setup
from web.tournament import structure_serializers


def export(name: str, chips: list[tuple], rows: list[dict]) -> dict:
    """The structure as the editor sends it: the export format, the rows in order, empty and deleted rows left out."""
    return {
        "format": "poker-tournament-structure",
        "version": FORMAT_VERSION,
        "name": name,
        "chips": [{"value": v, "colour": c} for v, c in chips],
        "levels": rows,
    }


def level(sb, bb, minutes, ante=0, ante_type="none") -> dict:
    return {"kind": "level", "small_blind": sb, "big_blind": bb, "ante": ante, "ante_type": ante_type, "minutes": minutes}


def break_(minutes, color_up=()) -> dict:
    return {"kind": "break", "minutes": minutes, "color_up": list(color_up)}


# --- structures --------------------------------------------------------------------------


def test_structure_list_shows_templates_with_counts(client, director, template):
    client.force_login(director)
    response = client.get(reverse("structure-list"))
    assert response.status_code == 200
    html = response.content.decode()
    assert "Daily 20k" in html
    row = html.split(f'data-structure="{template.pk}"', 1)[1].split("</tr>", 1)[0]
    assert "<td>4</td>" in row and "<td>1</td>" in row  # 4 levels, 1 break
    for name in ("structure-edit", "structure-copy", "structure-export"):
        assert reverse(name, args=[template.pk]) in row
    assert reverse("structure-import") in html and reverse("structure-create") in html


def test_director_creates_structure_with_the_editor(client, director):
    client.force_login(director)
    page = client.get(reverse("structure-create")).content.decode()
    assert 'data-api="structures/"' in page and 'data-method="post"' in page
    assert f'data-next="{reverse("structure-list")}"' in page and f'data-format-version="{FORMAT_VERSION}"' in page
    rows = [
        level(25, 50, 15),
        level(50, 100, 15, ante=100, ante_type="bba"),
        break_(10, color_up=[25]),
        level(100, 200, 15, ante=200, ante_type="bba"),
    ]
    answer = api_for(director).post(
        "/api/structures/", export("Evening 15k", [(25, "green"), (100, "black"), (500, "purple")], rows), format="json"
    )
    assert answer.status_code == 201, answer.content
    structure = Structure.objects.get(name="Evening 15k")
    assert structure.is_template and answer.json()["name"] == "Evening 15k"
    spec = setup.spec_of(structure)
    assert sorted(spec.denominations) == [(25, "green"), (100, "black"), (500, "purple")]
    assert spec.levels == (
        LevelSpec("level", 15, 25, 50, 0, "none"),
        LevelSpec("level", 15, 50, 100, 100, "bba"),
        LevelSpec("break", 10, color_up=(25,)),
        LevelSpec("level", 15, 100, 200, 200, "bba"),
    )
    assert AuditEvent.objects.filter(type="structure.created").count() == 1


def test_invalid_structure_lists_every_problem_by_its_row_and_saves_nothing(director):
    rows = [
        level(100, 200, 20),
        level(50, 100, 20),  # level 2: blinds fall
        level(130, 250, 0),  # row 3 / level 3: no minutes, small blind not payable with 25s
    ]
    answer = api_for(director).post("/api/structures/", export("Broken", [(25, "green"), (100, "black")], rows), format="json")
    assert answer.status_code == 400 and answer.json()["error"] == "structure_invalid"
    body = answer.json()
    assert body["detail"].startswith("The structure has problems:")  # the service's own message and problems
    for row, text in (
        (1, "Level 2: the blinds are lower than in level 1; blinds must rise."),
        (2, "Row 3: a level or break must last at least one minute."),
        (2, "Level 3: the small blind of 130 cannot be paid with the chips in play (smallest chip 25)."),
    ):
        assert text in body["problems"] and text in body["detail"], text  # in the list at the top
        assert text in body["fields"][f"levels.{row}"], text  # and next to its row
    assert not Structure.objects.exists()
    assert not AuditEvent.objects.exists()


def test_editor_field_errors_are_named_by_row_and_field(director):
    rows = [level(100, 200, 20), {**level(200, 400, 20), "minutes": "twenty"}, {**level(300, 600, 20), "color_up": [25]}]
    answer = api_for(director).post("/api/structures/", export("Typos", [(25, "green"), ("x", "red")], rows), format="json")
    assert answer.status_code == 400 and answer.json()["error"] == "invalid"
    fields = answer.json()["fields"]
    assert fields["levels.1.minutes"] == ["A valid integer is required."]
    assert fields["levels.2.color_up"] == ["Only a break colors up chips; make this row a break or clear the field."]
    assert fields["chips.1.value"] == ["A valid integer is required."]
    assert not Structure.objects.exists()


def test_edit_template_replaces_its_levels(client, director, template):
    client.force_login(director)
    page = client.get(reverse("structure-edit", args=[template.pk])).content.decode()
    assert 'value="Daily 20k"' in page and f'data-api="structures/{template.pk}/"' in page
    assert 'data-method="put"' in page and 'data-says="structure-saved"' in page
    rows = [level(100, 200, 30), level(200, 400, 30)]
    answer = api_for(director).put(
        f"/api/structures/{template.pk}/", export("Daily 20k slow", [(100, "black"), (500, "purple")], rows), format="json"
    )
    assert answer.status_code == 200, answer.content
    template.refresh_from_db()
    assert template.name == "Daily 20k slow"
    assert [lv.minutes for lv in template.levels.all()] == [30, 30]
    assert Structure.objects.filter(is_template=True).count() == 1


def test_export_is_a_json_attachment_that_import_accepts_as_a_file(client, director, template):
    client.force_login(director)
    response = client.get(reverse("structure-export", args=[template.pk]))
    assert response.status_code == 200
    assert response["Content-Type"].startswith("application/json")
    assert response["Content-Disposition"] == 'attachment; filename="daily-20k.json"'
    exported = json.loads(response.content)
    assert exported == setup.export_structure(template)

    page = client.get(reverse("structure-import")).content.decode()
    assert 'enctype="multipart/form-data"' in page and 'data-api="structures/import/"' in page
    assert 'data-next="/setup/structures/{id}/"' in page  # the imported template's editor, as before
    upload = SimpleUploadedFile("daily-20k.json", response.content, content_type="application/json")
    answer = api_for(director).post("/api/structures/import/", {"file": upload, "text": ""}, format="multipart")
    assert answer.status_code == 201, answer.content
    imported = Structure.objects.exclude(pk=template.pk).get()
    assert imported.is_template and answer.json()["id"] == imported.pk
    assert setup.spec_of(imported) == setup.spec_of(template)


def test_import_by_pasting_and_its_refusals(director, template):
    def upload(**fields):
        return api_for(director).post("/api/structures/import/", fields, format="multipart")

    answer = upload(text="{not json")
    assert answer.status_code == 400
    assert answer.json()["fields"]["non_field_errors"] == ["This is not valid JSON (line 1, column 2)."]
    answer = upload(file=SimpleUploadedFile("x.json", b"\xff\xfe\x00bad", content_type="application/json"))
    assert answer.status_code == 400 and answer.json()["detail"] == "The file is not a text (UTF-8) file."
    answer = upload(text="")
    assert answer.json()["detail"] == "Choose a file or paste the JSON of a structure export."
    answer = upload(text="{}", file=SimpleUploadedFile("x.json", b"{}", content_type="application/json"))
    assert answer.status_code == 400 and answer.json()["detail"] == "Upload a file or paste the JSON, not both."
    with mock.patch.object(structure_serializers, "MAX_IMPORT_BYTES", 10):
        answer = upload(file=SimpleUploadedFile("x.json", b'{"name": "too long"}', content_type="application/json"))
    assert answer.json()["fields"]["non_field_errors"] == ["The file is too large for a structure export."]
    broken = setup.export_structure(template)
    broken["levels"][1]["minutes"] = 0
    answer = upload(text=json.dumps(broken))
    assert answer.status_code == 400 and "Row 2: a level or break must last at least one minute." in answer.json()["problems"]
    assert Structure.objects.count() == 1
    good = {**setup.export_structure(template), "name": "Pasted"}
    assert upload(text=json.dumps(good)).status_code == 201
    assert Structure.objects.get(name="Pasted").levels.count() == 5


def test_copy_asks_a_name_and_creates_a_new_template(client, director, template):
    client.force_login(director)
    page = client.get(reverse("structure-copy", args=[template.pk])).content.decode()
    assert 'value="Daily 20k (copy)"' in page and f'data-api="structures/{template.pk}/copy/"' in page
    assert 'data-next="/setup/structures/{id}/"' in page  # the copy's editor, as before
    answer = api_for(director).post(f"/api/structures/{template.pk}/copy/", {"name": "Daily 20k turbo"}, format="json")
    assert answer.status_code == 201
    copy = Structure.objects.get(name="Daily 20k turbo")
    assert answer.json()["id"] == copy.pk and copy.is_template and copy.pk != template.pk
    assert setup.spec_of(copy).levels == setup.spec_of(template).levels
    answer = api_for(director).post(f"/api/structures/{template.pk}/copy/", {"name": "  "}, format="json")
    assert answer.status_code == 400 and answer.json()["fields"]["name"] == ["Give the copy a name."]
    assert Structure.objects.filter(is_template=True).count() == 2


def test_a_tournaments_own_structure_is_copied_as_a_template(director, tournament):
    answer = api_for(director).post(f"/api/structures/{tournament.structure_id}/copy/", {"name": "From Sunday"}, format="json")
    assert answer.status_code == 201
    copy = Structure.objects.get(name="From Sunday")
    assert copy.is_template and setup.spec_of(copy).levels == setup.spec_of(tournament.structure).levels


# --- tournaments -------------------------------------------------------------------------


def tournament_body(template, **overrides) -> dict:
    """What the settings form sends (api-forms.js): amounts in minor units by the currency's decimals, the
    start as the venue's wall clock, an empty field as its data-blank, the fields of a switch that is off
    not at all."""
    data = {
        "template": template.pk,
        "name": "Friday Bounty",
        "venue": "Card Casino Praha",
        "time_zone": "Europe/Prague",
        "start_at": "2026-11-27T19:00",
        "game": "nlhe",
        "table_format": "full_ring",
        "seats_per_table": 9,
        "final_table_size": None,
        "currency": "czk",
        "buy_in": 150000,
        "fee": 20000,
        "guaranteed_pool": 0,
        "starting_stack": 20000,
        "reentry_allowed": True,
        "max_reentries": 2,
        "late_reg_until_level": 4,
        "rebuy_allowed": False,
        "addon_allowed": False,
    }
    data.update(overrides)
    return data


def create(director, body):
    return api_for(director).post("/api/tournaments/", body, format="json")


def test_create_tournament_copies_the_template(client, director, template):
    client.force_login(director)
    response = client.get(reverse("tournament-create") + f"?template={template.pk}")
    html = response.content.decode()
    assert response.status_code == 200 and "Europe/Prague" in html and "Buy-in (CZK)" in html and "(cents)" not in html
    assert 'name="currency" value="CZK"' in html  # a Czech room's default, not the model's EUR
    assert 'data-api="tournaments/"' in html and 'data-next="/t/{id}/"' in html and 'data-money="CZK"' in html
    answer = create(director, tournament_body(template))
    assert answer.status_code == 201, answer.content
    tournament = Tournament.objects.get(name="Friday Bounty")
    assert answer.json()["id"] == tournament.pk  # the screen goes to /t/<id>/, as before
    assert tournament.structure_id != template.pk and not tournament.structure.is_template
    assert setup.spec_of(tournament.structure).levels == setup.spec_of(template).levels
    assert tournament.structure.denominations.count() == 4
    # 19:00 in Prague in November (CET, UTC+1) is 18:00 UTC.
    assert tournament.start_at == datetime(2026, 11, 27, 18, 0, tzinfo=UTC)
    assert (tournament.currency, tournament.buy_in, tournament.fee, tournament.guaranteed_pool) == ("CZK", 150000, 20000, 0)
    assert tournament.final_table_size == 10  # empty: TDA default for 9-handed
    assert tournament.reentry_allowed and tournament.max_reentries == 2 and not tournament.rebuy_allowed


def test_bad_tournament_fields_are_refused_by_field_and_create_nothing(director, template):
    answer = create(director, tournament_body(template, seats_per_table=12))
    assert answer.status_code == 400
    assert answer.json()["fields"]["seats_per_table"] == ["Ensure this value is less than or equal to 10."]
    answer = create(director, tournament_body(template, table_format="six_max"))
    assert answer.status_code == 400 and "A 6-max tournament has at most 6 seats per table." in answer.json()["detail"]
    answer = create(director, tournament_body(template, starting_stack=20010))
    assert "The starting stack of 20010 cannot be made with the chips (smallest chip 25)." in answer.json()["detail"]
    answer = create(director, tournament_body(template, start_at="2026-03-29T02:30"))  # the clocks go forward at 2:00
    assert answer.json()["fields"]["start_at"] == ["This time does not exist in Europe/Prague (the clocks go forward then)."]
    assert not Tournament.objects.exists()


def test_money_is_sent_in_minor_units_and_shown_back_in_major_units(client, director, template):
    client.force_login(director)
    body = tournament_body(
        template,
        buy_in=110050,
        fee=10000,
        guaranteed_pool=100000000,
        rebuy_allowed=True,
        rebuy_price=110000,
        rebuy_fee=0,
        rebuy_chips=20000,
        max_reentries=3,
    )
    answer = create(director, body)
    assert answer.status_code == 201, answer.content
    t = Tournament.objects.get(name="Friday Bounty")
    assert (t.buy_in, t.fee, t.guaranteed_pool, t.rebuy_price, t.rebuy_fee) == (110050, 10000, 100000000, 110000, 0)
    assert t.reentry_allowed and t.max_reentries == 3  # the re-entry count is taken when re-entries are allowed
    html = client.get(reverse("tournament-edit", args=[t.pk])).content.decode()
    for name, shown in (("buy_in", "1100.5"), ("fee", "100"), ("guaranteed_pool", "1000000"), ("rebuy_price", "1100")):
        assert f'name="{name}" value="{shown}"' in html, name
    assert "Buy-in (CZK)" in html and "Re-buy price (CZK)" in html
    assert f'data-api="tournaments/{t.pk}/"' in html and 'data-method="patch"' in html
    # What is not an amount (sent as typed) is a field error; nothing is saved.
    del body["template"]
    answer = api_for(director).patch(f"/api/tournaments/{t.pk}/", {**body, "buy_in": "eleven", "fee": -500}, format="json")
    assert answer.status_code == 400
    assert answer.json()["fields"]["buy_in"] == ["Enter an amount such as 1100 or 1 100,50."]
    assert answer.json()["fields"]["fee"] == ["The amount cannot be negative."]
    t.refresh_from_db()
    assert t.buy_in == 110050


def test_edit_tournament_shows_local_time_and_saves(client, director, tournament):
    client.force_login(director)
    url = reverse("tournament-edit", args=[tournament.pk])
    html = client.get(url).content.decode()
    # 18:00 UTC is 19:00 in Bratislava in November.
    assert 'value="2026-11-29T19:00"' in html and reverse("tournament-structure", args=[tournament.pk]) in html
    body = tournament_body(
        tournament.structure,
        name="Sunday Deepstack II",
        time_zone="Europe/Bratislava",
        start_at="2026-11-29T20:30",
        currency="EUR",
        buy_in=10000,
        fee=1550,
        final_table_size=None,
    )
    del body["template"]
    answer = api_for(director).patch(f"/api/tournaments/{tournament.pk}/", body, format="json")
    assert answer.status_code == 200, answer.content
    tournament.refresh_from_db()
    assert tournament.name == "Sunday Deepstack II"
    assert (tournament.currency, tournament.buy_in, tournament.fee) == ("EUR", 10000, 1550)
    assert tournament.start_at == datetime(2026, 11, 29, 19, 30, tzinfo=UTC)
    assert tournament.final_table_size == 10  # emptied: TDA rule 9 again
    assert AuditEvent.objects.filter(tournament=tournament, type="tournament.changed").exists()


def test_tournament_structure_is_edited_or_replaced_from_a_template(client, director, tournament):
    client.force_login(director)
    url = reverse("tournament-structure", args=[tournament.pk])
    other = setup.copy_structure(tournament.structure, actor=director, name="Turbo")
    response = client.get(url + f"?template={other.pk}")
    html = response.content.decode()
    assert response.status_code == 200 and "Turbo" in html
    assert f'data-api="tournaments/{tournament.pk}/structure/"' in html
    assert f'data-next="{reverse("tournament-detail", args=[tournament.pk])}"' in html
    rows = [level(100, 200, 15), break_(5, [25]), level(200, 400, 15)]
    path = f"/api/tournaments/{tournament.pk}/structure/"
    answer = api_for(director).put(path, export("Sunday own", [(25, "green"), (100, "black")], rows), format="json")
    assert answer.status_code == 200, answer.content
    spec = setup.spec_of(tournament.structure)
    assert [lv.minutes for lv in spec.levels] == [15, 5, 15]
    template = Structure.objects.get(name="Daily 20k")
    assert setup.spec_of(template).levels == BASIC_SPEC.levels  # the template is untouched
    # The starting stack is checked too: 20000 cannot be made only from 300s.
    answer = api_for(director).put(path, export("Odd", [(300, "red")], [level(300, 600, 15)]), format="json")
    assert answer.status_code == 400 and "The starting stack of 20000 cannot be made" in answer.json()["detail"]
    assert any("The starting stack of 20000" in m for m in answer.json()["fields"]["non_field_errors"])  # no row of its own


# --- permissions -------------------------------------------------------------------------


def setup_urls(template, tournament) -> list[str]:
    return [
        reverse("structure-list"),
        reverse("structure-create"),
        reverse("structure-import"),
        reverse("structure-edit", args=[template.pk]),
        reverse("structure-copy", args=[template.pk]),
        reverse("structure-export", args=[template.pk]),
        reverse("tournament-create"),
        reverse("tournament-edit", args=[tournament.pk]),
        reverse("tournament-structure", args=[tournament.pk]),
    ]


@pytest.mark.parametrize("role", ["floor", "cashier", "dealer"])
def test_other_roles_get_403_on_every_setup_url(client, request, role, template, tournament):
    client.force_login(request.getfixturevalue(role))
    for url in setup_urls(template, tournament):
        assert client.get(url).status_code == 403, url
        assert client.post(url, {"name": "x"}).status_code == 403, url
    assert Structure.objects.filter(is_template=True).count() == 1


def test_anonymous_is_sent_to_login(client, template, tournament):
    for url in setup_urls(template, tournament):
        response = client.get(url)
        assert response.status_code == 302 and response["Location"].startswith(reverse("login")), url


def test_director_reaches_every_setup_url_and_none_takes_a_post(client, director, template, tournament):
    client.force_login(director)
    for url in setup_urls(template, tournament):
        assert client.get(url).status_code == 200, url
        assert client.post(url, {"name": "x"}).status_code == 405, url  # the API saves
    assert Structure.objects.filter(is_template=True).count() == 1
