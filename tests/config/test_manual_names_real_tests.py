"""The manual names the tests that prove what it says (docs/rules.md: each rule ends with its tests, as
`file::function`): every test it names exists, so a renamed or deleted test fails here, not in a reader's hands."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
CITED = re.compile(r"(tests/[\w/]+\.py)::(\w+)")


def cited(pages: dict[str, str]) -> list[tuple[str, str, str]]:
    return [(page, path, name) for page, text in pages.items() for path, name in CITED.findall(text)]


def missing(citations: list[tuple[str, str, str]]) -> list[str]:
    """The citations whose file has no such test function."""

    def there(path: str, name: str) -> bool:
        file = ROOT / path
        return file.is_file() and re.search(rf"^\s*(async )?def {name}\(", file.read_text(), re.M) is not None

    return [f"{page}: {path}::{name}" for page, path, name in citations if not there(path, name)]


def test_every_test_the_manual_names_exists():
    citations = cited({page.name: page.read_text() for page in sorted((ROOT / "docs").glob("*.md"))})
    assert len(citations) > 100, "docs/rules.md names the tests of its rules"
    assert missing(citations) == []


def test_a_test_that_is_not_there_is_found():
    page = {
        "rules.md": "Tests: `tests/config/test_layers.py::test_no_app_module_is_over_about_500_lines`, "
        "`tests/config/test_layers.py::test_nothing_of_the_kind`, `tests/nowhere/test_gone.py::test_gone`."
    }
    assert missing(cited(page)) == [
        "rules.md: tests/config/test_layers.py::test_nothing_of_the_kind",
        "rules.md: tests/nowhere/test_gone.py::test_gone",
    ]
