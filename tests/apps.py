"""The project's own packages, as the import-linter contracts list them (pyproject.toml): the repo-wide checks (layers,
service shape, event labels, the role table) walk these, so a new app is checked the day it is added."""

from __future__ import annotations

import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PACKAGES: tuple[str, ...] = tuple(tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["importlinter"]["root_packages"])
SCREENS = ("config", "web", "live")  # the packages above the services: screens, API, sockets, settings
SERVICE_PACKAGES: tuple[str, ...] = tuple(p for p in PACKAGES if p not in SCREENS)
