"""What a tournament file holds (archive/selectors/schema.py): every model of the tournament's apps is in it or left out with a
reason, each in it belongs to the tournament or is pointed to by its rows, and every event whose payload holds a
primary key has that key converted (a new event of that kind fails here until it is listed)."""

from __future__ import annotations

import ast
from pathlib import Path

from django.apps import apps

from archive.selectors import schema

ROOT = Path(__file__).resolve().parents[2]


def test_every_model_of_the_tournaments_apps_is_in_the_file_or_left_out_with_a_reason():
    every = {schema.label(m) for app in schema.APPS for m in apps.get_app_config(app).get_models()}
    held = {schema.label(m) for m in schema.file_models()}
    assert held | set(schema.LEFT_OUT) == every and not held & set(schema.LEFT_OUT)
    assert all(reason for reason in schema.LEFT_OUT.values())
    assert {
        "tournament.entry",
        "tournament.auditevent",
        "tables.seat",
        "tables.draw",
        "tables.move",
        "tables.chiprace",
        "tables.penalty",
        "tables.handforhand",
        "clock.clockstate",
        "payouts.payment",
        "payouts.deal",
        "days.bag",
        "tournament.player",
        "tournament.idcheck",
        "tournament.structure",
        "tournament.level",
    } <= held


def test_each_model_in_the_file_is_the_tournaments_or_pointed_to_by_its_rows_and_comes_after_what_it_points_to():
    order = list(schema.file_models())
    pointed = {f.related_model for m in order for f in schema.relations(m)}
    assert all(m in schema.paths() or m in pointed for m in order)
    assert schema.paths()[apps.get_model("tournament.level")] == "structure__tournament"  # the tournament's own copy
    assert schema.paths()[apps.get_model("tables.handstart")] == "table__tournament"
    assert apps.get_model("tournament.player") not in schema.paths()  # a player is the room's, not one tournament's
    for i, model in enumerate(order):
        for f in schema.relations(model):
            assert schema.is_user(f.related_model) or order.index(f.related_model) < i, (model, f.name)
        for after in schema.AFTER.get(schema.label(model), ()):
            assert order.index(apps.get_model(after)) < i


def payload_keys_with_pks(source: str) -> set[tuple[str, str]]:
    """(event type, payload key) of every tournament event (record_event(t, ...), not record_event(None, ...)) whose
    payload, a dict written in the call, takes a value from a `.pk` or an `_id` attribute."""
    found = set()
    for call in ast.walk(ast.parse(source)):
        if not (isinstance(call, ast.Call) and getattr(call.func, "id", getattr(call.func, "attr", None)) == "record_event"):
            continue
        if call.args and isinstance(call.args[0], ast.Constant) and call.args[0].value is None:
            continue
        kw = {k.arg: k.value for k in call.keywords}
        types = [n.value for n in ast.walk(kw.get("type_", ast.Constant(None))) if isinstance(n, ast.Constant) and isinstance(n.value, str)]
        payload = kw.get("payload")
        if not isinstance(payload, ast.Dict):
            continue
        for key, value in zip(payload.keys, payload.values, strict=True):
            if isinstance(key, ast.Constant) and any(
                isinstance(n, ast.Attribute) and (n.attr == "pk" or n.attr.endswith("_id")) for n in ast.walk(value)
            ):
                found |= {(type_, key.value) for type_ in types}
    return found


def test_every_event_whose_payload_holds_a_primary_key_has_it_converted():
    found = set()
    for app in (*schema.APPS, "leagues"):  # a league's events are written on its tournaments
        for path in (ROOT / app).rglob("*.py"):
            if "migrations" not in path.parts:
                found |= payload_keys_with_pks(path.read_text())
    assert ("entry.registered", "entry_id") in found and ("table.dealer_link_created", "link") in found
    missing = sorted((t, k) for t, k in found if k not in schema.PAYLOAD_IDS.get(t, {}))
    assert not missing, f"events whose payload holds a primary key, not in archive/selectors/schema.py's PAYLOAD_IDS: {missing}"


def test_the_payload_check_sees_a_key_and_leaves_the_events_of_no_tournament():
    source = (
        "record_event(t, actor=a, type_='x.made', payload={'thing': thing.pk, 'number': thing.number})\n"
        "record_event(t, actor=a, type_='x.moved', payload={'table': seat.table_id})\n"
        "record_event(None, actor=a, type_='x.global', payload={'thing': thing.pk})\n"
    )
    assert payload_keys_with_pks(source) == {("x.made", "thing"), ("x.moved", "table")}


def test_the_fingerprint_names_the_key_without_giving_it():
    assert schema.fingerprint("a") == schema.fingerprint("a") != schema.fingerprint("b")
    assert len(schema.fingerprint("a")) == 16 and "a" != schema.fingerprint("a")
