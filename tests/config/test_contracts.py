"""Every module of every app is in an import-linter contract (pyproject.toml, run by `lint-imports` in scripts/test):
as a pure rule, a read, a write, a model, the app's wiring, or a layer inside its app (docs/architecture.md,
"Layers"). A new module in none of them would be free of every rule of the layers: this fails until it is placed."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def contracts() -> dict:
    return tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["importlinter"]


def named(config: dict) -> set[str]:
    """The modules the contracts name inside an app (a root package alone, as the top layers name them, places no
    module: it only orders the apps)."""
    names = set()
    for contract in config["contracts"]:
        for key in ("layers", "source_modules", "forbidden_modules", "modules", "containers"):
            for entry in contract.get(key, []):
                names.update(part.strip() for part in re.split(r"[|:]", entry) if "." in part)
    return names


def app_modules(roots: list[str]) -> list[str]:
    modules = []
    for root in roots:
        for path in sorted((ROOT / root).rglob("*.py")):
            parts = path.relative_to(ROOT).with_suffix("").parts
            if "migrations" in parts or parts[-1] == "__init__":
                continue
            modules.append(".".join(parts))
    return modules


def outside(modules: list[str], names: set[str]) -> list[str]:
    """The modules that neither a contract nor a package above them inside their app names."""

    def placed(module: str) -> bool:
        parts = module.split(".")
        return any(".".join(parts[:n]) in names for n in range(2, len(parts) + 1))

    return [module for module in modules if not placed(module)]


def test_every_module_of_every_app_is_in_a_contract():
    config = contracts()
    assert outside(app_modules(config["root_packages"]), named(config)) == []


def test_a_module_in_no_contract_is_found():
    config = contracts()
    names = named(config)
    assert outside(["tables.newly_written", "web.tables.api", "web.brand_new"], names) == ["tables.newly_written", "web.brand_new"]
    assert "tables.services.busts" in names and "tables" not in names
