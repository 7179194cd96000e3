"""The shape of the screens' JavaScript (static/js): ES modules of at most MAX_LINES lines each, as the Python
modules are capped (tests/config/test_layers.py); a screen with several panels keeps them in a folder of its own
(static/js/dealer/, static/js/map/). ESLint (eslint.config.js, run by scripts/test) checks the code."""

from __future__ import annotations

from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
MAX_LINES = 400


def sizes() -> dict[str, int]:
    """Each module's lines, by its path under static/js."""
    js = ROOT / "static" / "js"
    return {path.relative_to(js).as_posix(): len(path.read_text().splitlines()) for path in sorted(js.rglob("*.js"))}


def test_no_javascript_module_grows_past_the_cap():
    size = sizes()
    assert "map/grid.js" in size and "dealer/race.js" in size  # the folders are counted
    over = {name: n for name, n in size.items() if n > MAX_LINES}
    assert over == {}, f"split these modules (at most {MAX_LINES} lines each): {over}"
