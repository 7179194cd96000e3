"""Setting up: structure templates, copies, imports, tournaments and their settings."""

from __future__ import annotations

from dataclasses import replace

import pytest

from core import errors
from tests.conftest import BASIC_SPEC, make_user, tournament_data
from tests.helpers import id_doc
from tournament.models import AuditEvent, Denomination, Entry, Level, Structure, Tournament
from tournament.rules import structure as rules
from tournament.rules.structure import LevelSpec
from tournament.services import registration, setup


def counts() -> tuple[int, int, int, int, int]:
    return (
        Tournament.objects.count(),
        Structure.objects.count(),
        Level.objects.count(),
        Denomination.objects.count(),
        AuditEvent.objects.count(),
    )


# --- structure templates ----------------------------------------------------------------


def test_save_template_stores_the_spec_and_an_event(director):
    template = setup.save_structure_template(BASIC_SPEC, actor=director)
    assert template.is_template
    assert setup.spec_of(template) == BASIC_SPEC
    event = AuditEvent.objects.get(type="structure.created")
    assert event.tournament is None and event.seq is None and event.actor == director
    assert event.payload["structure"] == template.pk and event.payload["levels"] == 4 and event.payload["breaks"] == 1
    assert rules.from_json(event.payload["export"]) == BASIC_SPEC


def test_invalid_template_is_refused_with_messages_and_nothing_written(director):
    bad = replace(BASIC_SPEC, levels=(LevelSpec("level", 20, 300, 200), LevelSpec("level", 0, 400, 800)))
    before = counts()
    with pytest.raises(errors.ServiceError) as err:
        setup.save_structure_template(bad, actor=director)
    assert err.value.code == "structure_invalid"
    assert err.value.details == [
        "Level 1: the small blind is larger than the big blind.",
        "Row 2: a level or break must last at least one minute.",
    ]
    assert counts() == before


def test_tournament_structure_cannot_be_edited_as_a_template(director, tournament):
    with pytest.raises(errors.ServiceError) as err:
        setup.save_structure_template(BASIC_SPEC, actor=director, structure=tournament.structure)
    assert err.value.code == "not_template"


def test_copy_structure(director, template):
    copy = setup.copy_structure(template, actor=director, name="  Daily 20k turbo ")
    assert copy.pk != template.pk and copy.is_template and copy.name == "Daily 20k turbo"
    assert setup.spec_of(copy) == replace(BASIC_SPEC, name="Daily 20k turbo")
    # The copy is independent of its source.
    setup.save_structure_template(replace(BASIC_SPEC, name="Turbo", levels=BASIC_SPEC.levels[:2]), actor=director, structure=copy)
    assert setup.spec_of(template) == BASIC_SPEC
    event = AuditEvent.objects.get(type="structure.copied")
    assert event.payload == {"structure": copy.pk, "from": template.pk, "name": "Daily 20k turbo"}


def test_copy_needs_a_name(director, template):
    before = counts()
    with pytest.raises(errors.ServiceError) as err:
        setup.copy_structure(template, actor=director, name="   ")
    assert err.value.code == "name_missing"
    assert counts() == before


def test_export_then_import_gives_the_same_structure(director, template):
    exported = setup.export_structure(template)
    imported = setup.import_structure(exported, actor=director)
    assert imported.pk != template.pk and imported.is_template
    assert setup.spec_of(imported) == BASIC_SPEC
    assert AuditEvent.objects.filter(type="structure.imported", payload__structure=imported.pk).count() == 1


@pytest.mark.parametrize(
    ("data", "words"),
    [
        ("{not json", "not a structure export"),
        (
            {
                "format": "poker-tournament-structure",
                "version": 1,
                "name": "X",
                "chips": [{"value": "25", "colour": "green"}],
                "levels": [],
            },
            "chips[1].value must be a whole number",
        ),
        ({"format": "poker-tournament-structure", "version": 7, "name": "X", "chips": [], "levels": []}, "unknown version (7)"),
    ],
)
def test_import_of_a_bad_file_is_refused_with_a_clear_message(director, data, words):
    before = counts()
    with pytest.raises(errors.ServiceError) as err:
        setup.import_structure(data, actor=director)
    assert err.value.code == "import_format"
    assert words in err.value.message
    assert "not_integer" not in err.value.message and "not_structure" not in err.value.message
    assert counts() == before


def test_import_of_an_invalid_structure_is_refused(director, template):
    data = setup.export_structure(template)
    data["levels"][1]["small_blind"] = 50  # below level 1
    before = counts()
    with pytest.raises(errors.ServiceError) as err:
        setup.import_structure(data, actor=director)
    assert err.value.code == "structure_invalid"
    assert err.value.details == ["Level 2: the blinds are lower than in level 1; blinds must rise."]
    assert counts() == before


@pytest.mark.parametrize(
    ("where", "value", "words"),
    [
        ("minutes", 40000, "at most 1440 minutes"),
        ("big_blind", 3_000_000_000, "3000000000 is too large"),
    ],
)
def test_import_of_numbers_too_large_for_the_database_is_refused_cleanly(director, template, where, value, words):
    # Regression: these passed validation and failed in the database (a server error on PostgreSQL).
    data = setup.export_structure(template)
    data["levels"][0][where] = value
    with pytest.raises(errors.ServiceError) as err:
        setup.import_structure(data, actor=director)
    assert err.value.code == "structure_invalid"
    assert any(words in detail for detail in err.value.details)
    assert Structure.objects.count() == 1


# --- tournaments --------------------------------------------------------------------------


def test_create_tournament_copies_the_template(director, template):
    tournament = setup.create_tournament(tournament_data(), actor=director, template=template)
    own = tournament.structure
    assert own.pk != template.pk and not own.is_template
    assert setup.spec_of(own) == setup.spec_of(template)
    # Editing the template afterwards does not touch the tournament.
    setup.save_structure_template(replace(BASIC_SPEC, levels=BASIC_SPEC.levels[:2], name="Changed"), actor=director, structure=template)
    tournament.refresh_from_db()
    assert setup.spec_of(tournament.structure) == BASIC_SPEC
    assert setup.spec_of(Structure.objects.get(pk=template.pk)).levels == BASIC_SPEC.levels[:2]
    event = AuditEvent.objects.get(type="tournament.created")
    assert event.tournament == tournament and event.seq == 1 and tournament.event_seq == 1
    assert event.payload["buy_in"] == 10000 and event.payload["structure"]["levels"] == 4


@pytest.mark.parametrize(
    ("table_format", "seats", "final_table"),
    [
        ("full_ring", 9, 10),
        ("six_max", 6, 7),
        ("full_ring", 10, 10),
        ("full_ring", 8, 9),
        ("six_max", None, 7),
        ("full_ring", None, 10),
    ],
)
def test_default_final_table_size(director, template, table_format, seats, final_table):
    data = tournament_data(table_format=table_format, seats_per_table=seats)
    if seats is None:
        del data["seats_per_table"]
    tournament = setup.create_tournament(data, actor=director, template=template)
    assert tournament.final_table_size == final_table
    if seats is None:  # a 6-max tournament without a seat count gets 6 seats, not the model's 9
        assert tournament.seats_per_table == (6 if table_format == "six_max" else 9)


def test_explicit_final_table_size_is_kept(director, template):
    tournament = setup.create_tournament(tournament_data(final_table_size=8), actor=director, template=template)
    assert tournament.final_table_size == 8


@pytest.mark.parametrize(
    ("overrides", "words"),
    [
        ({"table_format": "six_max", "seats_per_table": 8}, "6-max"),
        ({"rebuy_allowed": True, "rebuy_chips": 10000, "rebuy_price": 0}, "Re-buys need a price"),
        ({"rebuy_allowed": True, "rebuy_chips": 0, "rebuy_price": 5000}, "Re-buys need a price"),
        ({"addon_allowed": True, "addon_chips": 10000}, "Add-ons need a price"),
        ({"reentry_allowed": False, "max_reentries": 2}, "re-entry is not allowed"),
        ({"table_format": "six_max", "seats_per_table": 6, "final_table_size": 10}, "at most one player more than a table has seats (7)"),
        ({"seats_per_table": 8, "final_table_size": 10}, "(9)"),
        ({"buy_in": 0}, "buy-in must be more than zero"),
    ],
)
def test_inconsistent_settings_are_refused_and_nothing_written(director, template, overrides, words):
    before = counts()
    with pytest.raises(errors.ServiceError) as err:
        setup.create_tournament(tournament_data(**overrides), actor=director, template=template)
    assert err.value.code == "tournament_invalid"
    assert any(words in detail for detail in err.value.details)
    assert counts() == before


def test_structure_invalid_for_the_stack_is_refused_with_messages_and_nothing_written(director, template):
    before = counts()
    with pytest.raises(errors.ServiceError) as err:
        setup.create_tournament(tournament_data(starting_stack=20010), actor=director, template=template)
    assert err.value.code == "structure_invalid"
    assert err.value.details == ["The starting stack of 20010 cannot be made with the chips (smallest chip 25)."]
    assert "starting_stack_not_payable" not in err.value.message
    assert counts() == before


def test_update_tournament_records_what_changed(director, tournament):
    updated = setup.update_tournament(tournament, actor=director, data={"name": "Sunday Special", "buy_in": 12000})
    assert (updated.name, updated.buy_in) == ("Sunday Special", 12000)
    tournament.refresh_from_db()
    assert tournament.buy_in == 12000
    event = AuditEvent.objects.get(type="tournament.changed")
    assert event.payload["changed"] == {
        "name": {"from": "Sunday Deepstack", "to": "Sunday Special"},
        "buy_in": {"from": 10000, "to": 12000},
    }
    assert event.seq == 2
    # No change, no event.
    setup.update_tournament(tournament, actor=director, data={"name": "Sunday Special"})
    assert AuditEvent.objects.filter(type="tournament.changed").count() == 1


def test_update_refuses_buy_in_change_after_entries(director, cashier, tournament, player):
    registration.register_entry(tournament, actor=cashier, player=player, document=id_doc())
    for change in ({"buy_in": 12000}, {"fee": 1000}):
        with pytest.raises(errors.ServiceError) as err:
            setup.update_tournament(tournament, actor=director, data={**change, "name": "Renamed"})
        assert err.value.code == "buy_in_locked"
    tournament.refresh_from_db()
    assert (tournament.buy_in, tournament.fee, tournament.name) == (10000, 1500, "Sunday Deepstack")
    # Other settings may still change.
    setup.update_tournament(tournament, actor=director, data={"late_reg_until_level": 6})
    tournament.refresh_from_db()
    assert tournament.late_reg_until_level == 6


def test_update_refuses_six_max_with_nine_seats(director, tournament):
    with pytest.raises(errors.ServiceError) as err:
        setup.update_tournament(tournament, actor=director, data={"table_format": "six_max"})
    assert err.value.code == "tournament_invalid"
    tournament.refresh_from_db()
    assert tournament.table_format == "full_ring"


def test_update_refuses_a_stack_the_chips_cannot_make(director, tournament):
    with pytest.raises(errors.ServiceError) as err:
        setup.update_tournament(tournament, actor=director, data={"starting_stack": 20010})
    assert err.value.code == "structure_invalid"
    tournament.refresh_from_db()
    assert tournament.starting_stack == 20000


def test_set_tournament_structure(director, tournament, template):
    new = replace(BASIC_SPEC, levels=BASIC_SPEC.levels[:2])
    setup.set_tournament_structure(tournament, actor=director, spec=new)
    assert setup.spec_of(tournament.structure) == new
    assert setup.spec_of(template) == BASIC_SPEC
    with pytest.raises(errors.ServiceError) as err:  # the tournament's stack must stay payable
        setup.set_tournament_structure(tournament, actor=director, spec=replace(new, denominations=((5000, "brown"), (25000, "gold"))))
    assert err.value.code == "structure_invalid"
    assert setup.spec_of(tournament.structure) == new


def test_set_registration_closed(director, cashier, tournament, player):
    registration.set_registration_closed(tournament, actor=director, closed=True)
    tournament.refresh_from_db()
    assert tournament.registration_closed
    with pytest.raises(errors.ServiceError) as err:
        registration.register_entry(tournament, actor=cashier, player=player, document=id_doc())
    assert err.value.code == "registration_closed"
    registration.set_registration_closed(tournament, actor=director, closed=True)  # already closed: no second event
    registration.set_registration_closed(tournament, actor=director, closed=False)
    assert list(AuditEvent.objects.filter(tournament=tournament).values_list("type", flat=True)) == [
        "tournament.created",
        "registration.closed",
        "registration.reopened",
    ]
    assert registration.register_entry(tournament, actor=cashier, player=player, document=id_doc()).number == 1


SETUP_CALLS = {
    "save_structure_template": lambda user, t, template: setup.save_structure_template(BASIC_SPEC, actor=user),
    "copy_structure": lambda user, t, template: setup.copy_structure(template, actor=user, name="Copy"),
    "import_structure": lambda user, t, template: setup.import_structure(rules.to_json(BASIC_SPEC), actor=user),
    "create_tournament": lambda user, t, template: setup.create_tournament(tournament_data(), actor=user, template=template),
    "update_tournament": lambda user, t, template: setup.update_tournament(t, actor=user, data={"name": "Hijacked"}),
    "set_tournament_structure": lambda user, t, template: setup.set_tournament_structure(t, actor=user, spec=BASIC_SPEC),
    "set_registration_closed": lambda user, t, template: registration.set_registration_closed(t, actor=user, closed=True),
    "create_display_token": lambda user, t, template: registration.create_display_token(t, actor=user, label="Lobby TV"),
}


@pytest.mark.parametrize("role", ["Floor", "Cashier", "Dealer", None])
@pytest.mark.parametrize("call", list(SETUP_CALLS), ids=list(SETUP_CALLS))
def test_only_the_director_sets_up(tournament, template, role, call):
    user = make_user("someone", *([role] if role else []))
    before = counts()
    with pytest.raises(errors.ServiceError) as err:
        SETUP_CALLS[call](user, tournament, template)
    assert (err.value.code, err.value.status) == ("forbidden", 403)
    assert counts() == before
    tournament.refresh_from_db()
    assert tournament.name == "Sunday Deepstack" and not tournament.registration_closed


def test_inactive_director_is_refused(director, template):
    director.is_active = False
    director.save()
    with pytest.raises(errors.ServiceError) as err:
        setup.create_tournament(tournament_data(), actor=director, template=template)
    assert err.value.code == "forbidden"


def test_superuser_may_set_up(template):
    admin = make_user("admin", superuser=True)
    tournament = setup.create_tournament(tournament_data(), actor=admin, template=template)
    assert Tournament.objects.filter(pk=tournament.pk).exists()
    assert not Entry.objects.exists()


def test_texts_longer_than_their_column_are_refused_cleanly(director, template, tournament):
    # Regression: these reached the database, where PostgreSQL refuses them with a server error.
    before = counts()
    with pytest.raises(errors.ServiceError) as err:
        setup.copy_structure(template, actor=director, name="x" * 121)
    assert err.value.code == "too_long" and "120" in err.value.message
    with pytest.raises(errors.ServiceError) as err:
        setup.import_structure({**rules.to_json(BASIC_SPEC), "name": "y" * 121}, actor=director)
    assert err.value.code == "structure_invalid"
    long_colour = rules.to_json(BASIC_SPEC)
    long_colour["chips"][0]["colour"] = "green with a very long and detailed description"
    with pytest.raises(errors.ServiceError) as err:
        setup.import_structure(long_colour, actor=director)
    assert err.value.code == "structure_invalid" and "40" in err.value.message
    with pytest.raises(errors.ServiceError) as err:
        registration.create_display_token(tournament, actor=director, label="Lobby TV " * 10)
    assert err.value.code == "too_long"
    assert counts() == before
    assert setup.copy_structure(template, actor=director, name="x" * 120).name == "x" * 120
