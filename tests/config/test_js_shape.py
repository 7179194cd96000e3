"""The shape of the screens' JavaScript (static/js): ES modules of at most MAX_LINES lines each, as the Python
modules are capped (tests/config/test_layers.py). ESLint (eslint.config.js, run by scripts/test) checks the code.

SPLIT_DUE: the two screen scripts written before the cap, each held at its size until it is split by panel; they
may only shrink, and a module that comes under the cap leaves the list."""
from __future__ import annotations

from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
MAX_LINES = 400
SPLIT_DUE = {"dealer.js": 1218, "floor-map.js": 1180}


def sizes() -> dict[str, int]:
    """Each module's lines, by its path under static/js (a screen split by panel keeps its modules in a folder)."""
    js = ROOT / "static" / "js"
    return {path.relative_to(js).as_posix(): len(path.read_text().splitlines()) for path in sorted(js.rglob("*.js"))}


def test_no_javascript_module_grows_past_the_cap():
    over = {name: n for name, n in sizes().items() if n > SPLIT_DUE.get(name, MAX_LINES)}
    assert over == {}, f"split these modules (at most {MAX_LINES} lines each): {over}"


def test_a_module_split_under_the_cap_leaves_the_list():
    size = sizes()
    assert {name: size.get(name) for name in SPLIT_DUE if size.get(name, 0) <= MAX_LINES} == {}
