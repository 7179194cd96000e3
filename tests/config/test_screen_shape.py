"""The screens' shape: every script is a file under static/js/; a template carries settings only as
JSON data blocks ({{ x|json_script:"id" }}) and data-* attributes, never an inline script or an on* handler."""

from __future__ import annotations

import re
from pathlib import Path

TEMPLATES = Path(__file__).resolve().parents[2] / "templates"
INLINE_SCRIPT = re.compile(r"<script(?![^>]*\bsrc=)[^>]*>", re.I)
HANDLER = re.compile(r"<[^>]*\son[a-z]+\s*=", re.I)


def test_no_template_holds_an_inline_script_or_a_handler_attribute():
    found = []
    for path in sorted(TEMPLATES.rglob("*.html")):
        text = path.read_text()
        found += [f"{path.relative_to(TEMPLATES)}: {m.group(0)}" for m in INLINE_SCRIPT.finditer(text)]
        found += [f"{path.relative_to(TEMPLATES)}: {m.group(0)[:60]}" for m in HANDLER.finditer(text)]
    assert found == []


def test_no_template_holds_a_style_block():
    """A screen's styles are files under static/css/ (a strict style-src 'self' allows no <style> block)."""
    found = [
        str(path.relative_to(TEMPLATES)) for path in sorted(TEMPLATES.rglob("*.html")) if re.search(r"<style[\s>]", path.read_text(), re.I)
    ]
    assert found == []


STYLE_ATTRIBUTE = re.compile(r"<[^>]*\sstyle\s*=", re.I)


def test_no_template_holds_a_style_attribute():
    """A strict style-src 'self' applies no style="..." attribute either: a screen's look is a class in its
    stylesheet (static/css/screens/, or the shared helpers at the end of static/css/app.css)."""
    found = [
        f"{path.relative_to(TEMPLATES)}: {m.group(0)[:60]}"
        for path in sorted(TEMPLATES.rglob("*.html"))
        for m in STYLE_ATTRIBUTE.finditer(path.read_text())
    ]
    assert found == []


PYTHON = [p for d in ("web", "tournament", "tables", "payouts", "clock", "core", "live") for p in (TEMPLATES.parent / d).rglob("*.py")]
STYLE_IN_PYTHON = re.compile(r"""["']style["']\s*:|\sstyle\s*=\s*\\?["']""")


def test_no_widget_or_html_built_in_python_carries_a_style_attribute():
    """The same for HTML the server builds: a form widget's attrs, format_html or mark_safe."""
    found = [
        f"{path.relative_to(TEMPLATES.parent)}:{n}"
        for path in PYTHON
        for n, line in enumerate(path.read_text().splitlines(), 1)
        if STYLE_IN_PYTHON.search(line)
    ]
    assert found == []


# A template's words in a data-* attribute: only a table cell's heading that the stylesheet shows on a narrow
# screen (data-label, content: attr(data-label)). A script's words come from Django's JavaScript catalogue, a form's
# sentences too (static/js/form-words.js, named by the form's data-says).
WORDS_IN_DATA = re.compile(r'\sdata-([a-z0-9_-]+)="[^"]*\{%\s*(?:trans|translate|blocktrans|blocktranslate)\b')
FORM_AND_CSS_WORDS = {"label"}


def test_no_template_hands_a_script_its_words_in_a_data_attribute():
    found = [
        f"{path.relative_to(TEMPLATES)}: data-{m.group(1)}"
        for path in sorted(TEMPLATES.rglob("*.html"))
        for m in WORDS_IN_DATA.finditer(path.read_text())
        if m.group(1) not in FORM_AND_CSS_WORDS
    ]
    assert found == []


FORM_WORDS = TEMPLATES.parent / "static" / "js" / "form-words.js"
SENTENCE_IN_DATA = re.compile(r"\sdata-(confirm|done(?:-[a-z0-9_-]+)?)\s*=", re.I)
SAYS = re.compile(r'\sdata-says="([^"]*)"')
SAYS_KEY = re.compile(r'^\s*"([a-z0-9-]+)":\s*\{', re.M)  # '  "undo-bust": {confirm: gettext("..."), ...},'


def test_a_forms_sentences_come_from_the_javascript_catalogue():
    """A form's confirm and done sentences are gettext literals in static/js/form-words.js (one catalogue,
    /jsi18n/<language>/), named by the form's data-says; no template hands them over in data-confirm/data-done.
    Every name a template says is a sentence there, and every sentence there is said by some template."""
    handed = [
        f"{path.relative_to(TEMPLATES)}: data-{m.group(1)}"
        for path in sorted(TEMPLATES.rglob("*.html"))
        for m in SENTENCE_IN_DATA.finditer(path.read_text())
    ]
    assert handed == []
    assert FORM_WORDS.exists(), "static/js/form-words.js holds the forms' sentences"
    defined = SAYS_KEY.findall(FORM_WORDS.read_text())
    assert defined and len(defined) == len(set(defined)), defined
    said, unknown = set(), []
    for path in sorted(TEMPLATES.rglob("*.html")):
        for m in SAYS.finditer(path.read_text()):
            # A literal name, or names chosen by {% if %}: never a value the view computes.
            assert "{{" not in m.group(1), f"{path.relative_to(TEMPLATES)}: data-says={m.group(1)!r}"
            names = re.sub(r"\{%.*?%\}", " ", m.group(1)).split()
            assert names, f"{path.relative_to(TEMPLATES)}: an empty data-says"
            said.update(names)
            unknown += [f"{path.relative_to(TEMPLATES)}: {name}" for name in names if name not in defined]
    assert unknown == [], "data-says names no sentence of static/js/form-words.js"
    assert sorted(set(defined) - said) == [], "sentences no template says"
