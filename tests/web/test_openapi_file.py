"""The API's schema is committed (docs/openapi.yaml) and rendered into the manual's API page (docs/api.md, by
neoteroi-mkdocs at build time). The file must stay equal to what the code describes: a change to an endpoint, a
serializer or a role that is not written into it fails here. To write it again:
`python manage.py spectacular --file docs/openapi.yaml`."""
from __future__ import annotations

import difflib
from pathlib import Path

from django.core.management import call_command
from django.utils import translation

ROOT = Path(__file__).resolve().parents[2]
COMMITTED = ROOT / "docs" / "openapi.yaml"


def test_the_committed_schema_is_the_codes(tmp_path):
    made = tmp_path / "openapi.yaml"
    with translation.override("en"):
        call_command("spectacular", file=str(made))
    committed, current = COMMITTED.read_text().splitlines(), made.read_text().splitlines()
    drift = list(difflib.unified_diff(committed, current, "docs/openapi.yaml", "the code's schema", lineterm="", n=1))
    assert not drift, "docs/openapi.yaml is not the code's schema: write it again with " \
        "`python manage.py spectacular --file docs/openapi.yaml`\n" + "\n".join(drift[:60])


def test_the_manuals_api_page_renders_the_committed_schema():
    assert "[OAD(./docs/openapi.yaml)]" in (ROOT / "docs" / "api.md").read_text()
