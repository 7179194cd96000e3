"""The director's setup screens: structure editor, copy, export/import, tournament forms, permissions."""
from __future__ import annotations

import json
from datetime import UTC, datetime

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse

from tests.conftest import BASIC_SPEC
from tournament import setup
from tournament.models import AuditEvent, Structure, Tournament
from tournament.structure import LevelSpec

# The browser test at the end serves the app like the tests in tests/browser do.


def formset(prefix: str, rows: list[dict], initial: int = 0) -> dict:
    data = {f"{prefix}-TOTAL_FORMS": str(len(rows)), f"{prefix}-INITIAL_FORMS": str(initial),
            f"{prefix}-MIN_NUM_FORMS": "0", f"{prefix}-MAX_NUM_FORMS": "1000"}
    for i, row in enumerate(rows):
        for key, value in row.items():
            data[f"{prefix}-{i}-{key}"] = value
    return data


def level(sb, bb, minutes, ante="", ante_type="none") -> dict:
    return {"kind": "level", "small_blind": str(sb), "big_blind": str(bb), "ante": str(ante), "ante_type": ante_type,
            "minutes": str(minutes), "color_up": ""}


def break_(minutes, color_up="") -> dict:
    return {"kind": "break", "small_blind": "", "big_blind": "", "ante": "", "ante_type": "none",
            "minutes": str(minutes), "color_up": color_up}


BLANK_LEVEL = {"kind": "level", "small_blind": "", "big_blind": "", "ante": "", "ante_type": "none", "minutes": "", "color_up": ""}


def structure_post(name: str, chips: list[tuple], rows: list[dict]) -> dict:
    chip_rows = [{"value": str(v), "colour": c} for v, c in chips] + [{"value": "", "colour": ""}]
    return {"name": name, **formset("chips", chip_rows), **formset("levels", rows + [BLANK_LEVEL])}


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
    assert client.get(reverse("structure-create")).status_code == 200
    rows = [
        level(25, 50, 15),
        level(50, 100, 15, ante=100, ante_type="bba"),
        {**level(999, 999, 5), "DELETE": "on"},  # deleted: ignored even though it is wrong
        break_(10, color_up="25"),
        level(100, 200, 15, ante=200, ante_type="bba"),
    ]
    data = structure_post("Evening 15k", [(25, "green"), (100, "black"), (500, "purple")], rows)
    response = client.post(reverse("structure-create"), data)
    assert response.status_code == 302 and response["Location"] == reverse("structure-list")
    structure = Structure.objects.get(name="Evening 15k")
    assert structure.is_template
    spec = setup.spec_of(structure)
    assert sorted(spec.denominations) == [(25, "green"), (100, "black"), (500, "purple")]
    assert spec.levels == (
        LevelSpec("level", 15, 25, 50, 0, "none"),
        LevelSpec("level", 15, 50, 100, 100, "bba"),
        LevelSpec("break", 10, color_up=(25,)),
        LevelSpec("level", 15, 100, 200, 200, "bba"),
    )
    assert AuditEvent.objects.filter(type="structure.created").count() == 1


def test_invalid_structure_shows_every_problem_and_saves_nothing(client, director):
    client.force_login(director)
    rows = [
        level(100, 200, 20),
        level(50, 100, 20),    # level 2: blinds fall
        level(130, 250, 0),    # row 3 / level 3: no minutes, small blind not payable with 25s
    ]
    data = structure_post("Broken", [(25, "green"), (100, "black")], rows)
    response = client.post(reverse("structure-create"), data)
    assert response.status_code == 200
    html = response.content.decode()
    assert 'id="service-error"' in html
    for text in (
        "Level 2: the blinds are lower than in level 1; blinds must rise.",
        "Row 3: a level or break must last at least one minute.",
        "Level 3: the small blind of 130 cannot be paid with the chips in play (smallest chip 25).",
    ):
        assert html.count(text) == 2, text  # in the list at the top and next to the row
    assert "has-problem" in html
    # What was typed is still in the form.
    assert 'value="Broken"' in html and 'value="130"' in html and 'value="250"' in html
    assert not Structure.objects.exists()
    assert not AuditEvent.objects.exists()


def test_editor_shows_field_errors_next_to_the_fields(client, director):
    client.force_login(director)
    rows = [level(100, 200, 20), {**level(200, 400, 20), "minutes": "twenty"}, {**level(300, 600, 20), "color_up": "25"}]
    response = client.post(reverse("structure-create"), structure_post("Typos", [(25, "green"), ("x", "red")], rows))
    assert response.status_code == 200
    html = response.content.decode()
    assert 'id="field-errors"' in html
    assert html.count('class="errorlist"') >= 3
    assert "Only a break colors up chips" in html
    assert 'value="twenty"' in html
    assert not Structure.objects.exists()


def test_edit_template_replaces_its_levels(client, director, template):
    client.force_login(director)
    response = client.get(reverse("structure-edit", args=[template.pk]))
    assert response.status_code == 200 and 'value="Daily 20k"' in response.content.decode()
    rows = [level(100, 200, 30), level(200, 400, 30)]
    response = client.post(reverse("structure-edit", args=[template.pk]),
                           structure_post("Daily 20k slow", [(100, "black"), (500, "purple")], rows))
    assert response.status_code == 302
    template.refresh_from_db()
    assert template.name == "Daily 20k slow"
    assert [lv.minutes for lv in template.levels.all()] == [30, 30]
    assert Structure.objects.filter(is_template=True).count() == 1


def test_export_is_a_json_attachment_that_import_accepts(client, director, template):
    client.force_login(director)
    response = client.get(reverse("structure-export", args=[template.pk]))
    assert response.status_code == 200
    assert response["Content-Type"].startswith("application/json")
    assert response["Content-Disposition"] == 'attachment; filename="daily-20k.json"'
    exported = json.loads(response.content)
    assert exported == setup.export_structure(template)

    upload = SimpleUploadedFile("daily-20k.json", response.content, content_type="application/json")
    response = client.post(reverse("structure-import"), {"file": upload, "text": ""})
    assert response.status_code == 302
    imported = Structure.objects.exclude(pk=template.pk).get()
    assert imported.is_template and response["Location"] == reverse("structure-edit", args=[imported.pk])
    assert setup.spec_of(imported) == setup.spec_of(template)


def test_import_by_pasting_and_its_refusals(client, director, template):
    client.force_login(director)
    url = reverse("structure-import")
    response = client.post(url, {"text": "{not json"})
    assert response.status_code == 200 and "This is not valid JSON" in response.content.decode()
    broken = setup.export_structure(template)
    broken["levels"][1]["minutes"] = 0
    response = client.post(url, {"text": json.dumps(broken)})
    assert "Row 2: a level or break must last at least one minute." in response.content.decode()
    assert Structure.objects.count() == 1
    good = {**setup.export_structure(template), "name": "Pasted"}
    response = client.post(url, {"text": json.dumps(good)})
    assert response.status_code == 302
    assert Structure.objects.get(name="Pasted").levels.count() == 5


def test_copy_asks_a_name_and_creates_a_new_template(client, director, template):
    client.force_login(director)
    url = reverse("structure-copy", args=[template.pk])
    response = client.get(url)
    assert response.status_code == 200 and 'value="Daily 20k (copy)"' in response.content.decode()
    response = client.post(url, {"name": "Daily 20k turbo"})
    copy = Structure.objects.get(name="Daily 20k turbo")
    assert response.status_code == 302 and response["Location"] == reverse("structure-edit", args=[copy.pk])
    assert copy.is_template and copy.pk != template.pk
    assert setup.spec_of(copy).levels == setup.spec_of(template).levels
    assert client.post(url, {"name": "  "}).status_code == 200
    assert Structure.objects.filter(is_template=True).count() == 2


# --- tournaments -------------------------------------------------------------------------


def tournament_post(template, **overrides) -> dict:
    data = {
        "template": str(template.pk), "name": "Friday Bounty", "venue": "Card Casino Praha", "time_zone": "Europe/Prague",
        "start_at": "2026-11-27T19:00", "game": "nlhe", "table_format": "full_ring", "seats_per_table": "9",
        "final_table_size": "", "currency": "czk", "buy_in": "1 500", "fee": "200", "guaranteed_pool": "",
        "starting_stack": "20000", "reentry_allowed": "on", "max_reentries": "2", "late_reg_until_level": "4",
        "rebuy_price": "", "rebuy_fee": "", "rebuy_chips": "", "max_rebuys": "", "rebuy_until_level": "",
        "addon_price": "", "addon_fee": "", "addon_chips": "", "max_addons": "1", "addon_until_level": "",
    }
    data.update(overrides)
    return data


def test_create_tournament_copies_the_template(client, director, template):
    client.force_login(director)
    response = client.get(reverse("tournament-create") + f"?template={template.pk}")
    html = response.content.decode()
    assert response.status_code == 200 and "Europe/Prague" in html and "Buy-in (CZK)" in html and "(cents)" not in html
    assert 'name="currency" value="CZK"' in html  # a Czech room's default, not the model's EUR
    response = client.post(reverse("tournament-create"), tournament_post(template))
    tournament = Tournament.objects.get(name="Friday Bounty")
    assert response.status_code == 302 and response["Location"] == reverse("tournament-detail", args=[tournament.pk])
    assert tournament.structure_id != template.pk and not tournament.structure.is_template
    assert setup.spec_of(tournament.structure).levels == setup.spec_of(template).levels
    assert tournament.structure.denominations.count() == 4
    # 19:00 in Prague in November (CET, UTC+1) is 18:00 UTC.
    assert tournament.start_at == datetime(2026, 11, 27, 18, 0, tzinfo=UTC)
    assert (tournament.currency, tournament.buy_in, tournament.fee, tournament.guaranteed_pool) == ("CZK", 150000, 20000, 0)
    assert tournament.final_table_size == 10  # empty: TDA default for 9-handed
    assert tournament.reentry_allowed and tournament.max_reentries == 2 and not tournament.rebuy_allowed


def test_bad_tournament_fields_show_errors_and_create_nothing(client, director, template):
    client.force_login(director)
    response = client.post(reverse("tournament-create"), tournament_post(template, seats_per_table="12"))
    html = response.content.decode()
    assert response.status_code == 200
    assert "Ensure this value is less than or equal to 10." in html and 'value="12"' in html
    response = client.post(reverse("tournament-create"), tournament_post(template, table_format="six_max"))
    assert "A 6-max tournament has at most 6 seats per table." in response.content.decode()
    response = client.post(reverse("tournament-create"), tournament_post(template, starting_stack="20010"))
    assert "The starting stack of 20010 cannot be made with the chips (smallest chip 25)." in response.content.decode()
    assert not Tournament.objects.exists()


def test_money_is_typed_and_shown_back_in_major_units(client, director, template):
    client.force_login(director)
    post = tournament_post(template, buy_in="1 100,50", fee="100", guaranteed_pool="1.000.000", rebuy_allowed="on",
                           rebuy_price="1100", rebuy_fee="0", rebuy_chips="20000", max_reentries="3")
    response = client.post(reverse("tournament-create"), post)
    assert response.status_code == 302, response.content.decode()[:3000]
    t = Tournament.objects.get(name="Friday Bounty")
    assert (t.buy_in, t.fee, t.guaranteed_pool, t.rebuy_price, t.rebuy_fee) == (110050, 10000, 100000000, 110000, 0)
    assert t.reentry_allowed and t.max_reentries == 3  # the re-entry count is taken when re-entries are allowed
    html = client.get(reverse("tournament-edit", args=[t.pk])).content.decode()
    for name, shown in (("buy_in", "1100.5"), ("fee", "100"), ("guaranteed_pool", "1000000"), ("rebuy_price", "1100")):
        assert f'name="{name}" value="{shown}"' in html, name
    assert "Buy-in (CZK)" in html and "Re-buy price (CZK)" in html
    # What is not an amount is a field error; nothing is saved.
    response = client.post(reverse("tournament-edit", args=[t.pk]), {**post, "buy_in": "eleven", "fee": "-5"})
    html = response.content.decode()
    assert response.status_code == 200 and "Enter an amount such as 1100 or 1 100,50." in html
    assert "The amount cannot be negative." in html and 'value="eleven"' in html
    t.refresh_from_db()
    assert t.buy_in == 110050


def test_edit_tournament_shows_local_time_and_saves(client, director, tournament):
    client.force_login(director)
    url = reverse("tournament-edit", args=[tournament.pk])
    html = client.get(url).content.decode()
    # 18:00 UTC is 19:00 in Bratislava in November.
    assert 'value="2026-11-29T19:00"' in html and reverse("tournament-structure", args=[tournament.pk]) in html
    data = tournament_post(tournament.structure, name="Sunday Deepstack II", time_zone="Europe/Bratislava",
                           start_at="2026-11-29T20:30", currency="EUR", buy_in="100", fee="15,50")
    del data["template"]
    response = client.post(url, data)
    assert response.status_code == 302 and response["Location"] == reverse("tournament-detail", args=[tournament.pk])
    tournament.refresh_from_db()
    assert tournament.name == "Sunday Deepstack II"
    assert (tournament.currency, tournament.buy_in, tournament.fee) == ("EUR", 10000, 1550)
    assert tournament.start_at == datetime(2026, 11, 29, 19, 30, tzinfo=UTC)
    assert AuditEvent.objects.filter(tournament=tournament, type="tournament.changed").exists()


def test_tournament_structure_is_edited_or_replaced_from_a_template(client, director, tournament):
    client.force_login(director)
    url = reverse("tournament-structure", args=[tournament.pk])
    other = setup.copy_structure(tournament.structure, actor=director, name="Turbo")
    response = client.get(url + f"?template={other.pk}")
    assert response.status_code == 200 and "Turbo" in response.content.decode()
    rows = [level(100, 200, 15), break_(5, "25"), level(200, 400, 15)]
    response = client.post(url, structure_post("Sunday own", [(25, "green"), (100, "black")], rows))
    assert response.status_code == 302 and response["Location"] == reverse("tournament-detail", args=[tournament.pk])
    spec = setup.spec_of(tournament.structure)
    assert [lv.minutes for lv in spec.levels] == [15, 5, 15]
    template = Structure.objects.get(name="Daily 20k")
    assert setup.spec_of(template).levels == BASIC_SPEC.levels  # the template is untouched
    # The starting stack is checked too: 20000 cannot be made only from 300s.
    response = client.post(url, structure_post("Odd", [(300, "red")], [level(300, 600, 15)]))
    assert "The starting stack of 20000 cannot be made" in response.content.decode()


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


def test_director_reaches_every_setup_url(client, director, template, tournament):
    client.force_login(director)
    for url in setup_urls(template, tournament):
        assert client.get(url).status_code == 200, url
