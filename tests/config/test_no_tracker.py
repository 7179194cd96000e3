"""Nothing in the repository points at a tracker it does not have: no comment, docstring or page says "issue 22";
each says what it means. Every text file git holds is read (the pictures and the compiled catalogues apart)."""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
NUMBERED = re.compile(r"\bissues? ?#?[0-9]+", re.IGNORECASE)


def text_files() -> list[Path]:
    listed = subprocess.run(["git", "ls-files"], cwd=ROOT, capture_output=True, text=True, check=True).stdout.split()
    this = Path(__file__).resolve()  # which names an issue on purpose, to show what is looked for
    return [
        ROOT / name for name in listed if not name.endswith((".png", ".mo", ".ttf", ".ico", ".pdf")) and (ROOT / name).resolve() != this
    ]


def naming_an_issue(paths: list[Path], root: Path = ROOT) -> list[str]:
    found = []
    for path in paths:
        try:
            text = path.read_text(encoding="utf-8")
        except (UnicodeDecodeError, FileNotFoundError):
            continue
        found += [f"{path.relative_to(root)}:{n}" for n, line in enumerate(text.splitlines(), 1) if NUMBERED.search(line)]
    return found


def test_no_file_names_an_issue_number():
    files = text_files()
    assert len(files) > 500 and ROOT / "README.md" in files and ROOT / "tests" / "helpers.py" in files
    assert naming_an_issue(files) == []


def test_a_numbered_issue_is_found(tmp_path):
    said = tmp_path / "said.py"
    said.write_text('"""The bust (issue 39.3) and the money."""\nx = "no issues here"  # issued tickets\n')
    assert naming_an_issue([said], root=tmp_path) == ["said.py:1"]
