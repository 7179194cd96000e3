"""The README is the visitor's one screen: it opens with the two commands (scripts/dev, scripts/test), stays short,
and links into the manual (docs/, built by mkdocs) rather than holding it. Every link it has leads to a file of
docs/ that exists, and the manual's home links every page of the manual."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
README = (ROOT / "README.md").read_text(encoding="utf-8")
DOCS = ROOT / "docs"
# [text](target) and ![alt](target), the target up to a space or the closing parenthesis; <http://...> autolinks
LINK = re.compile(r"!?\[[^\]]*\]\(\s*([^)\s]+)[^)]*\)")


def links(text: str) -> list[str]:
    return LINK.findall(text)


def test_it_opens_with_the_two_commands():
    assert README.startswith(
        "# Poker tournament manager\n"
        "\n"
        "```sh\n"
        "scripts/dev    # set up, load a demo tournament and run on embedded defaults; prints the URL and the logins\n"
        "scripts/test   # set up and run the whole test suite, browser tests included\n"
        "```\n"
    )


def test_it_is_at_most_150_lines():
    lines = README.splitlines()
    assert len(lines) <= 150, f"README.md has {len(lines)} lines: move the rest into a page of docs/"


def test_it_links_only_to_manual_pages_that_exist():
    targets = links(README)
    assert targets, "the README links into the manual"
    wrong = []
    for target in targets:
        path = target.split("#", 1)[0]
        if re.match(r"^[a-z]+:", target):
            wrong.append(f"{target}: the README links into docs/, not elsewhere")
        elif not path.startswith("docs/"):
            wrong.append(f"{target}: not a file under docs/")
        elif not (ROOT / path).is_file():
            wrong.append(f"{target}: no such file")
        elif not (path.endswith(".md") or path.startswith("docs/screenshots/")):
            wrong.append(f"{target}: neither a page of the manual nor one of its screenshots")
    assert not wrong, "\n".join(wrong)
    pages = {t.split("#", 1)[0] for t in targets if t.endswith(".md") or ".md#" in t}
    assert {"docs/index.md", "docs/getting-started.md"} <= pages


def test_the_manual_home_links_every_page():
    home = (DOCS / "index.md").read_text(encoding="utf-8")
    linked = {t.split("#", 1)[0] for t in links(home)}
    pages = {p.name for p in DOCS.glob("*.md")} - {"index.md"}
    assert pages <= linked, f"docs/index.md does not link {sorted(pages - linked)}"
