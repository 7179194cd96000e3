"""scripts/dev, the first command of the README: with DEBUG on it listens on this machine only unless told
otherwise, and it carries no fixed demo password (load_demo makes a new one each run)."""

from __future__ import annotations

import re
from pathlib import Path

DEV = (Path(__file__).resolve().parents[2] / "scripts" / "dev").read_text()


def test_it_listens_on_loopback_unless_host_is_given():
    assert re.search(r"^HOST=\$\{HOST:-127\.0\.0\.1\}$", DEV, re.M)
    assert '--host "$HOST"' in DEV


def test_it_carries_no_fixed_password_and_keeps_the_new_one_private():
    assert "demo-pass" not in DEV and "DEMO_PASSWORD=" not in DEV  # load_demo draws one unless the user sets it
    assert "(umask 077 && python manage.py load_demo > var/demo.txt)" in DEV
