"""docs/screenshots/night/ (shot by scripts/screenshots for docs/director.md) matches its captions.json and the
page: every image it names is there, every image there is named, each with a caption, and the page shows each with
its caption. The script itself is not run here."""

from __future__ import annotations

import json
from pathlib import Path

NIGHT = Path(__file__).resolve().parents[2] / "docs" / "screenshots" / "night"


def captions() -> dict:
    return json.loads((NIGHT / "captions.json").read_text(encoding="utf-8"))


def test_every_captioned_image_exists():
    named = captions()
    assert named, "captions.json names no image: run scripts/screenshots"
    missing = [name for name in named if not (NIGHT / name).is_file()]
    assert not missing, f"named in captions.json but not in {NIGHT}: {missing} (run scripts/screenshots)"


def test_every_image_is_captioned():
    named = captions()
    loose = sorted(p.name for p in NIGHT.glob("*.png") if p.name not in named)
    assert not loose, f"images in {NIGHT} that captions.json does not name: {loose} (run scripts/screenshots)"


def test_captions_are_one_line_and_names_numbered():
    for name, caption in captions().items():
        assert name[:2].isdigit() and name[2] == "-" and name.endswith(".png"), name
        assert caption.strip() and "\n" not in caption, name


def test_the_directors_night_shows_every_image_with_its_caption():
    page = (NIGHT.parents[1] / "director.md").read_text(encoding="utf-8")
    for name, caption in captions().items():
        assert f"![{caption}](screenshots/night/{name})" in page, name
