"""The shape of the code (docs/architecture.md, "Layers"): what lint-imports cannot see.

lint-imports (run by scripts/test) holds the order of the layers. These tests hold the rest: no
module imports a project module inside a function (AppConfig.ready() is Django's place for that),
no module imports another module's underscore names, and no app module grows past ~500 lines.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from core import reactions
from tables.reactions import entry_seat, free_voided_entry, seat_registered_entry
from tests.apps import PACKAGES
from tournament.selectors.receipts import ENTRY_SEAT
from tournament.services.registration import ENTRY_REGISTERED, ENTRY_VOIDED

ROOT = Path(__file__).resolve().parents[2]
APPS = PACKAGES
MAX_LINES = 520


def app_modules() -> list[Path]:
    return sorted(p for app in APPS for p in (ROOT / app).rglob("*.py") if "migrations" not in p.parts)


def project_import(node: ast.AST) -> str | None:
    if isinstance(node, ast.ImportFrom):
        if node.level:
            return "." * node.level + (node.module or "")
        if node.module and node.module.split(".")[0] in APPS:
            return node.module
    if isinstance(node, ast.Import):
        for alias in node.names:
            if alias.name.split(".")[0] in APPS:
                return alias.name
    return None


def function_level_imports(path: Path, root: Path = ROOT) -> list[str]:
    tree = ast.parse(path.read_text())
    found = []
    for node in ast.walk(tree):
        if not isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            continue
        if path.name == "apps.py" and node.name == "ready":
            continue
        for inner in ast.walk(node):
            module = project_import(inner)
            if module is not None:
                found.append(f"{path.relative_to(root)}:{inner.lineno} imports {module} in {node.name}()")
    return found


def test_no_project_module_is_imported_inside_a_function():
    found = [hit for path in app_modules() for hit in function_level_imports(path)]
    assert found == []


def test_the_counter_sees_an_import_inside_a_function(tmp_path):
    (tmp_path / "tables").mkdir()
    sample = tmp_path / "tables" / "_layers_sample.py"  # outside the source tree: a parallel run never sees it
    sample.write_text("def f():\n    from tables import seating\n    return seating\n")
    assert function_level_imports(sample, tmp_path) == ["tables/_layers_sample.py:2 imports tables in f()"]


def test_no_module_imports_an_underscore_name():
    found = []
    for path in app_modules():
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.ImportFrom) and project_import(node) is not None:
                found += [
                    f"{path.relative_to(ROOT)}:{node.lineno} {alias.name}"
                    for alias in node.names
                    if alias.name.startswith("_") and not alias.name.startswith("__")
                ]
    assert found == []


def test_no_app_module_is_over_about_500_lines():
    long = {str(p.relative_to(ROOT)): n for p in app_modules() if (n := len(p.read_text().splitlines())) > MAX_LINES}
    assert long == {}


@pytest.mark.parametrize(
    ("change", "handler"), [(ENTRY_REGISTERED, seat_registered_entry), (ENTRY_VOIDED, free_voided_entry), (ENTRY_SEAT, entry_seat)]
)  # the receipt asks where an entry sits
def test_the_tables_react_to_registration_through_the_kernel(change, handler):
    assert handler in reactions.handlers(change)


def test_reactions_run_in_order_and_merge_their_facts():
    change = "test_change_of_test_layers"
    calls = []
    reactions.on(change, lambda **facts: calls.append(("a", facts)) or {"table": 3})
    reactions.on(change, lambda **facts: calls.append(("b", facts)) or {"seat": 7})
    assert reactions.react(change, entry=12) == {"table": 3, "seat": 7}
    assert calls == [("a", {"entry": 12}), ("b", {"entry": 12})]
    assert reactions.react("nobody_listens") == {}
