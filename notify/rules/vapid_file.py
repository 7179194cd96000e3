"""The development VAPID key pair (config/settings.py: DEBUG on and no keys set): made once, kept in a file under var/,
read again by every process after. Plain Python: settings read it before Django is set up."""

from __future__ import annotations

import json
import os
from pathlib import Path

from notify.rules.keys import make_pair, public_of


def dev_pair(path: Path) -> tuple[str, str]:
    """(private, public) from the file, made first when there is none. Written to a file of its own then renamed, so two
    processes starting at once both end with one pair (the last rename wins, and both read it back)."""
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
        return data["private"], public_of(data["private"])
    except (OSError, ValueError, KeyError, TypeError):
        pass
    private, public = make_pair()
    path.parent.mkdir(parents=True, exist_ok=True)
    temporary = path.with_name(f"{path.name}.{os.getpid()}")
    temporary.write_text(json.dumps({"private": private, "public": public}), encoding="utf-8")
    os.chmod(temporary, 0o600)
    os.replace(temporary, path)
    data = json.loads(path.read_text(encoding="utf-8"))
    return data["private"], public_of(data["private"])
