"""The API's schema is committed (docs/openapi.yaml) and rendered into the manual's API page (docs/api.md, by
neoteroi-mkdocs at build time). The file must stay equal to what the code describes: a change to an endpoint, a
serializer or a role that is not written into it fails here. To write it again, on PostgreSQL (the festival's
database, whose limits on whole numbers the file states):
`DATABASE_URL=postgres://... python manage.py spectacular --file docs/openapi.yaml`.

The limits that the database itself sets on a model's whole numbers (PositiveIntegerField: 2147483647 on
PostgreSQL, 64 bits on SQLite, which checks none) are the only lines that differ between the two; they are left out
of the comparison, so the suite says the same on both."""

from __future__ import annotations

import difflib
import re
from pathlib import Path

from django.core.management import call_command
from django.utils import translation

ROOT = Path(__file__).resolve().parents[2]
COMMITTED = ROOT / "docs" / "openapi.yaml"
# A bound the database puts on a whole number (django.db.backends' integer_field_range), and the int64 format that
# SQLite's 64-bit bound brings.
DATABASE_BOUND = re.compile(r"^\s+(maximum: (2147483647|32767|9223372036854775807)|format: int64)$")


def compared(text: str) -> list[str]:
    return [line for line in text.splitlines() if not DATABASE_BOUND.match(line)]


def test_the_committed_schema_is_the_codes(tmp_path):
    made = tmp_path / "openapi.yaml"
    with translation.override("en"):
        call_command("spectacular", file=str(made))
    committed, current = compared(COMMITTED.read_text()), compared(made.read_text())
    assert len(committed) > 10_000  # the whole schema, not a stub
    drift = list(difflib.unified_diff(committed, current, "docs/openapi.yaml", "the code's schema", lineterm="", n=1))
    assert not drift, (
        "docs/openapi.yaml is not the code's schema: write it again (on PostgreSQL) with "
        "`python manage.py spectacular --file docs/openapi.yaml`\n" + "\n".join(drift[:60])
    )


def test_the_manuals_api_page_renders_the_committed_schema():
    assert "[OAD(./docs/openapi.yaml)]" in (ROOT / "docs" / "api.md").read_text()
