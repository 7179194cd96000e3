"""The shape checks over the flights app (as tests/days/test_days_shape.py for days): services take their object
first and `actor` as the first keyword, reads never lock, no import inside a function or of an underscore name, no
module past the line limit, and every event type the app records has a label, a group and a line in words."""
from __future__ import annotations

import ast
import importlib
import inspect
import re
from pathlib import Path

from tests.config.test_layers import MAX_LINES, function_level_imports, project_import
from tests.core.test_service_shape import shape_problems
from web.tournament.event_labels import event_labels, group_of
from web.tournament.event_lines import event_line

ROOT = Path(__file__).resolve().parents[2]
MODULES = sorted(p for p in (ROOT / "flights").rglob("*.py") if "migrations" not in p.parts)
TYPES = {"flights.event_created", "flight.added", "flights.day2_set", "flights.policy_set",
         "flights.late_registration_set", "flight.end_set", "flight.ending", "flights.carried"}


def test_the_services_take_their_object_first_then_actor():
    found = {}
    for path in MODULES:
        name = ".".join(path.relative_to(ROOT).with_suffix("").parts)
        module = importlib.import_module(name)
        for attr, fn in vars(module).items():
            if inspect.isfunction(fn) and fn.__module__ == name and "actor" in inspect.signature(fn).parameters:
                found[f"{name}.{attr}"] = shape_problems(fn)
    assert {"flights.services.carry_to_day2", "flights.services.add_flight", "flights.services.set_flight_end"} <= set(found)
    assert {name: problems for name, problems in found.items() if problems} == {}


def test_reads_never_lock_and_the_modules_keep_the_layers_rules():
    assert not re.search(r"select_for_update|FOR\s+UPDATE", (ROOT / "flights" / "selectors.py").read_text(), re.IGNORECASE)
    assert [hit for path in MODULES for hit in function_level_imports(path)] == []
    long = {p.name: n for p in [*MODULES, *(ROOT / "web" / "flights").glob("*.py")] if (n := len(p.read_text().splitlines())) > MAX_LINES}
    assert long == {}
    underscore = [f"{path.name}: {alias.name}" for path in MODULES for node in ast.walk(ast.parse(path.read_text()))
                  if isinstance(node, ast.ImportFrom) and project_import(node) is not None
                  for alias in node.names if alias.name.startswith("_") and not alias.name.startswith("__")]
    assert underscore == []


def test_every_event_the_app_records_has_a_label_a_group_and_a_line():
    recorded = set()
    for path in MODULES:
        for call in [n for n in ast.walk(ast.parse(path.read_text())) if isinstance(n, ast.Call)]:
            if getattr(call.func, "id", getattr(call.func, "attr", None)) == "record_event":
                recorded |= {k.value.value for k in call.keywords if k.arg == "type_"}
    assert recorded == TYPES
    assert all(t in event_labels() and group_of(t) == "flights" for t in TYPES)
    assert event_line("flight.ending", {"flight": "1A", "players_left": 150, "entries": 1000, "percent": 15,
                                        "level": 9}, {}) == (
        "Flight 1A: 150 players left of 1000 (15%): it ends at the end of level 9")
    assert event_line("flights.carried", {"carried": 1400, "chips": 42_000_000, "forfeited": 60,
                                          "forfeited_chips": 1_500_000}, {}) == (
        "Bags carried into Day 2: 1400 players with 42000000 chips; 60 bags forfeited (1500000 chips)")
