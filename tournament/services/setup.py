"""Setting up: structure templates (create, copy, import, export) and tournaments (create with their
own copy of a structure, change settings and structure). Each public function is one use case in one
transaction with an audit event; bad input raises ServiceError and changes nothing."""

from __future__ import annotations

from django.db import transaction
from django.utils.translation import gettext as _

from core import roles
from core.actor import Actor
from core.errors import ServiceError, check_length, full_clean, require
from tournament.models import Level, Structure, Tournament
from tournament.rules import structure as rules
from tournament.selectors.messages import format_error_message, format_problems
from tournament.services.audit import lock_tournament, record_event

# --- structures -------------------------------------------------------------------------


def spec_of(structure: Structure) -> rules.StructureSpec:
    return rules.StructureSpec(
        name=structure.name,
        denominations=tuple((d.value, d.colour) for d in structure.denominations.all()),
        levels=tuple(
            rules.LevelSpec(
                kind=level.kind,
                minutes=level.minutes,
                small_blind=level.small_blind,
                big_blind=level.big_blind,
                ante=level.ante,
                ante_type=level.ante_type,
                color_up=tuple(level.color_up or ()),
            )
            for level in structure.levels.order_by("position")
        ),
    )


def _check_spec(spec: rules.StructureSpec, starting_stack: int | None = None) -> None:
    problems = rules.validate(spec, starting_stack)
    if problems:
        messages = format_problems(problems)
        raise ServiceError(
            _("The structure has problems: %(list)s") % {"list": " ".join(messages)}, code="structure_invalid", details=messages
        )


def _write_spec(structure: Structure, spec: rules.StructureSpec) -> None:
    structure.name = spec.name
    structure.save()
    structure.denominations.all().delete()
    structure.levels.all().delete()
    structure.denominations.bulk_create(
        [structure.denominations.model(structure=structure, value=v, colour=c.strip()) for v, c in spec.denominations]
    )
    Level.objects.bulk_create(
        [
            Level(
                structure=structure,
                position=i,
                kind=level.kind,
                small_blind=level.small_blind,
                big_blind=level.big_blind,
                ante=level.ante,
                ante_type=level.ante_type,
                minutes=level.minutes,
                color_up=sorted(level.color_up),
            )
            for i, level in enumerate(spec.levels, start=1)
        ]
    )


def structure_summary(spec: rules.StructureSpec) -> dict:
    return {
        "name": spec.name,
        "levels": sum(1 for lv in spec.levels if lv.kind == rules.LEVEL),
        "breaks": sum(1 for lv in spec.levels if lv.kind == rules.BREAK),
        "chips": [v for v, _ in sorted(spec.denominations)],
    }


@transaction.atomic
def save_structure_template(spec: rules.StructureSpec, *, actor: Actor, structure: Structure | None = None) -> Structure:
    """Create or replace a structure template."""
    require(actor, roles.SETUP)
    _check_spec(spec)
    if structure is None:
        structure = Structure(is_template=True)
        created = True
    else:
        structure = Structure.objects.select_for_update().get(pk=structure.pk)
        if not structure.is_template:
            raise ServiceError(_("This structure belongs to a tournament; edit it from the tournament."), code="not_template")
        created = False
    _write_spec(structure, spec)
    record_event(
        None,
        actor=actor,
        type_="structure.created" if created else "structure.changed",
        payload={"structure": structure.pk, **structure_summary(spec), "export": rules.to_json(spec)},
    )
    return structure


@transaction.atomic
def copy_structure(source: Structure, *, actor: Actor, name: str) -> Structure:
    require(actor, roles.SETUP)
    if not name.strip():
        raise ServiceError(_("Give the copy a name."), code="name_missing")
    check_length(name.strip(), Structure, "name", _("The name is too long: at most %(max)s characters."))
    spec = spec_of(source)
    spec = rules.StructureSpec(name=name.strip(), denominations=spec.denominations, levels=spec.levels)
    copy = Structure(is_template=True)
    _write_spec(copy, spec)
    record_event(None, actor=actor, type_="structure.copied", payload={"structure": copy.pk, "from": source.pk, "name": copy.name})
    return copy


@transaction.atomic
def import_structure(data, *, actor: Actor) -> Structure:
    require(actor, roles.SETUP)
    try:
        spec = rules.from_json(data)
    except rules.FormatError as exc:
        message = format_error_message(exc)
        raise ServiceError(message, code="import_format", details=[message]) from exc
    _check_spec(spec)
    structure = Structure(is_template=True)
    _write_spec(structure, spec)
    record_event(None, actor=actor, type_="structure.imported", payload={"structure": structure.pk, **structure_summary(spec)})
    return structure


def export_structure(structure: Structure) -> dict:
    return rules.to_json(spec_of(structure))


# --- tournaments ------------------------------------------------------------------------

TOURNAMENT_FIELDS = (
    "name",
    "venue",
    "time_zone",
    "start_at",
    "game",
    "table_format",
    "seats_per_table",
    "final_table_size",
    "currency",
    "buy_in",
    "fee",
    "bounty_format",
    "bounty",
    "starting_stack",
    "reentry_allowed",
    "max_reentries",
    "late_reg_until_level",
    "guaranteed_pool",
    "rebuy_allowed",
    "rebuy_price",
    "rebuy_fee",
    "rebuy_chips",
    "max_rebuys",
    "rebuy_until_level",
    "addon_allowed",
    "addon_price",
    "addon_fee",
    "addon_chips",
    "max_addons",
    "addon_until_level",
    "max_entries",
    "alternate_minutes",
    "waiting_payment",
    "no_show_money",
    "reservation_cap",
    "reservations_until",
)


def _check_tournament_settings(data: dict) -> None:
    problems = []
    if data.get("table_format") == Tournament.TableFormat.SIX_MAX and data.get("seats_per_table", 0) > 6:
        problems.append(_("A 6-max tournament has at most 6 seats per table."))
    if data.get("rebuy_allowed") and (not data.get("rebuy_chips") or not data.get("rebuy_price")):
        problems.append(_("Re-buys need a price and a number of chips."))
    if data.get("addon_allowed") and (not data.get("addon_chips") or not data.get("addon_price")):
        problems.append(_("Add-ons need a price and a number of chips."))
    seats, final_table = data.get("seats_per_table"), data.get("final_table_size")
    if seats and final_table and final_table > seats + 1:
        problems.append(_("The final table has at most one player more than a table has seats (%(max)s).") % {"max": seats + 1})
    if data.get("reentry_allowed") is False and data.get("max_reentries"):
        problems.append(_("Re-entries per player is set but re-entry is not allowed."))
    if not data.get("buy_in"):
        problems.append(_("The buy-in must be more than zero."))
    bounty_format, bounty = data.get("bounty_format") or Tournament.BountyFormat.NONE, data.get("bounty") or 0
    if bounty_format != Tournament.BountyFormat.NONE and not bounty:
        problems.append(_("A bounty event needs the bounty each entry pays (more than zero)."))
    if bounty_format == Tournament.BountyFormat.NONE and bounty:
        problems.append(_("A bounty is set but the tournament has no bounties: choose its bounty format."))
    if problems:
        raise ServiceError(" ".join(problems), code="tournament_invalid", details=problems)


def _tournament_payload(t: Tournament) -> dict:
    payload = {}
    for name in TOURNAMENT_FIELDS:
        value = getattr(t, name)
        payload[name] = value.isoformat() if hasattr(value, "isoformat") else value
    return payload


@transaction.atomic
def create_tournament(data: dict, *, actor: Actor, template: Structure) -> Tournament:
    """Create a tournament with its own copy of a structure template."""
    require(actor, roles.SETUP)
    return _made(data, actor=actor, template=template)


def copy_tournament(tournament: Tournament, *, actor: Actor, name: str) -> Tournament:
    """The next of a series (venues/services/sit_and_go.py): a new tournament with this one's settings, venue and
    structure, under another name. No role is asked here: the director who set the series up asked for it, and the
    registration that filled the one before makes it (its actor is recorded)."""
    data = {name_: getattr(tournament, name_) for name_ in TOURNAMENT_FIELDS}
    t = _made({**data, "name": name}, actor=actor, template=tournament.structure)
    if tournament.room_id:
        Tournament.objects.filter(pk=t.pk).update(room_id=tournament.room_id)
        t.room_id = tournament.room_id
    return t


def _made(data: dict, *, actor: Actor, template: Structure) -> Tournament:
    data = dict(data)
    if not data.get("seats_per_table"):
        # The model's default (9) would make a 6-max tournament a full-ring one.
        data["seats_per_table"] = 6 if data.get("table_format") == Tournament.TableFormat.SIX_MAX else 9
    if not data.get("final_table_size"):
        data["final_table_size"] = Tournament.default_final_table_size(data.get("table_format", "full_ring"), data["seats_per_table"])
    _check_tournament_settings(data)
    spec = spec_of(template)
    _check_spec(spec, data.get("starting_stack"))
    own = Structure(is_template=False)
    _write_spec(own, spec)
    tournament = Tournament(structure=own, **{k: v for k, v in data.items() if k in TOURNAMENT_FIELDS})
    full_clean(tournament, exclude=["structure"])
    tournament.save()
    tournament = lock_tournament(tournament.pk)
    record_event(
        tournament,
        actor=actor,
        type_="tournament.created",
        payload={**_tournament_payload(tournament), "structure": structure_summary(spec)},
    )
    return tournament


@transaction.atomic
def update_tournament(tournament: Tournament, *, actor: Actor, data: dict) -> Tournament:
    require(actor, roles.SETUP)
    t = lock_tournament(tournament.pk)
    before = _tournament_payload(t)
    for k in TOURNAMENT_FIELDS:
        if k in data:
            setattr(t, k, data[k])
    _check_tournament_settings({k: getattr(t, k) for k in TOURNAMENT_FIELDS})
    if t.entries.exists() and (t.buy_in, t.fee) != (before["buy_in"], before["fee"]):
        raise ServiceError(
            _("Entries are already taken at the current buy-in; the buy-in and fee can no longer change."), code="buy_in_locked"
        )
    if t.entries.exists() and (t.bounty_format, t.bounty) != (before["bounty_format"], before["bounty"]):
        raise ServiceError(
            _("Registration has opened: the bounty format and the bounty per entry are fixed (entries have bought their heads)."),
            code="bounty_locked",
            status=409,
        )
    problems = rules.validate(spec_of(t.structure), t.starting_stack)
    if problems:
        messages = format_problems(problems)
        raise ServiceError(" ".join(messages), code="structure_invalid", details=messages)
    full_clean(t, exclude=["structure"])
    t.save()
    after = _tournament_payload(t)
    changed = {k: {"from": before[k], "to": after[k]} for k in TOURNAMENT_FIELDS if before[k] != after[k]}
    if changed:
        record_event(t, actor=actor, type_="tournament.changed", payload={"changed": changed})
    return t


@transaction.atomic
def set_tournament_structure(tournament: Tournament, *, actor: Actor, spec: rules.StructureSpec) -> Tournament:
    """Replace the tournament's own structure (edited, or taken from a template)."""
    require(actor, roles.SETUP)
    t = lock_tournament(tournament.pk)
    _check_spec(spec, t.starting_stack)
    _write_spec(t.structure, spec)
    record_event(t, actor=actor, type_="tournament.structure_changed", payload={**structure_summary(spec), "export": rules.to_json(spec)})
    return t
