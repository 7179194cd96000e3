"""The shape checks of the whole code, over the days app (tests/core/test_service_shape.py, tests/config/test_layers.py
and tests/tournament/test_event_log.py walk a list of apps that does not name it yet): services take their object
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
from web.tournament.event_labels import event_groups, event_labels, group_of
from web.tournament.event_lines import event_line

ROOT = Path(__file__).resolve().parents[2]
MODULES = sorted(p for p in (ROOT / "days").rglob("*.py") if "migrations" not in p.parts)


def test_the_services_take_their_object_first_then_actor():
    found = {}
    for path in MODULES:
        name = ".".join(path.relative_to(ROOT).with_suffix("").parts)
        module = importlib.import_module(name)
        for attr, fn in vars(module).items():
            if inspect.isfunction(fn) and fn.__module__ == name and "actor" in inspect.signature(fn).parameters:
                found[f"{name}.{attr}"] = shape_problems(fn)
    assert {"days.services.record_table_bags", "days.services.record_bag", "days.services.close_day"} <= set(found)
    assert {name: problems for name, problems in found.items() if problems} == {}


def test_reads_never_lock_and_the_modules_keep_the_layers_rules():
    assert not re.search(r"select_for_update|FOR\s+UPDATE", (ROOT / "days" / "selectors.py").read_text(), re.IGNORECASE)
    assert [hit for path in MODULES for hit in function_level_imports(path)] == []
    long = {p.name: n for p in [*MODULES, *(ROOT / "web" / "days").glob("*.py")] if (n := len(p.read_text().splitlines())) > MAX_LINES}
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
    assert recorded == {"bags.recorded", "day.closed", "seating.redrawn"}  # the redraw: a seating event (its group)
    for type_ in recorded - {"seating.redrawn"}:
        assert type_ in event_labels() and group_of(type_) == "chips" and "chips" in event_groups()
    assert event_line("day.closed", {"day": 1, "bags": 12, "total": 240_000, "difference": -500, "missing": [4, 7],
                                     "reason": "Recounted on Day 2"}, {}) == (
        "Day 1 closed: 12 bags, 240000 chips, difference -500 (no bag: #4, #7): Recounted on Day 2")
    assert event_line("bags.recorded", {"table": 3, "entry": 12, "name": "Jana Nováková", "bag": "A-17", "total": 52_000},
                      {}) == "Table 3: Jana Nováková (#12) bagged, 52000 chips in bag A-17"
    assert event_line("bags.recorded", {"table": 3, "total": 300_000, "bags": {}}, {}) == (
        "Table 3: bags recorded, 300000 chips in all")
