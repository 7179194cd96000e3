"""The parts every app's event lines are made of (web/<app>/events.py): a player ("Jana Nováková (#12)"), a seat,
a place, a list of numbers; the line of last resort (the label and the payload's key facts); and the payload as a
readable key/value list for the details. No query here: the names of the entries a page shows are looked up once for
the whole page (`entry_numbers`, then the caller's one query) and passed in. The registry that puts the apps' words
together is web/event_words.py."""

from __future__ import annotations

from collections.abc import Callable, Iterable

from django.utils.translation import get_language
from django.utils.translation import gettext as _

Names = dict[int, str]
# One family of types in words: (type, label, payload, names) -> the line.
Line = Callable[[str, str, dict, Names], str]


def entry_numbers(payloads: Iterable[dict]) -> set[int]:
    """The entry numbers the payloads name, for one bulk lookup of their players' names."""
    found: set[int] = set()
    for payload in payloads:
        if not isinstance(payload, dict):
            continue
        for key in ("entry", "entries"):
            value = payload.get(key)
            for n in value if isinstance(value, list) else [value]:
                if isinstance(n, int) and not isinstance(n, bool):
                    found.add(n)
    return found


def ordinal(n) -> str:
    """57th in English, "57." in Czech and Slovak."""
    if not isinstance(n, int):
        return str(n)
    if not (get_language() or "en").startswith("en"):
        return f"{n}."
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


def who(payload: dict, names: Names, number=None, name: str | None = None) -> str:
    number = payload.get("entry") if number is None else number
    name = name or names.get(number) or (payload.get("name") if number == payload.get("entry") else None)
    if name and number is not None:
        return _("%(name)s (#%(entry)s)") % {"name": name, "entry": number}
    if name:
        return name
    return _("entry #%(entry)s") % {"entry": number} if number is not None else _("a player")


def seat(where) -> str:
    if not isinstance(where, dict) or where.get("table") is None:
        return _("no seat")
    if where.get("seat") is None:
        return _("table %(table)s") % where
    return _("table %(table)s seat %(seat)s") % where


def numbers(values) -> str:
    return ", ".join(str(v) for v in values) if isinstance(values, list) and values else "–"


def place(payload: dict, tie: bool = True) -> str:
    high, low = payload.get("place"), payload.get("place_low")
    if high is None:
        return ""
    if low and low != high:
        if not tie:
            return _("%(place)s to %(low)s") % {"place": ordinal(high), "low": ordinal(low)}
        return _("%(place)s to %(low)s (tie)") % {"place": ordinal(high), "low": ordinal(low)}
    return ordinal(high)


FACT_KEYS = ("table", "seat", "entry", "name", "level", "hand", "draw", "receipt", "number", "deal")


def generic(label: str, p: dict, names: Names) -> str:
    """Words still: the label and the payload's key facts, never the raw payload."""
    facts = []
    for key in FACT_KEYS:
        value = p.get(key) if isinstance(p, dict) else None
        if value is None or isinstance(value, (dict, list)):
            continue
        if key == "entry":
            facts.append(who(p, names))
        elif key != "name" or "entry" not in p:
            facts.append(f"{KEY_WORDS().get(key, key)} {value}")
    return f"{label}: {', '.join(facts)}" if facts else label


def KEY_WORDS() -> dict[str, str]:  # noqa: N802  (a table, translated when asked)
    return {
        "table": _("table"),
        "seat": _("seat"),
        "name": _("name"),
        "level": _("level"),
        "hand": _("hand"),
        "draw": _("draw"),
        "receipt": _("receipt"),
        "number": _("number"),
        "deal": _("deal"),
    }


def details(payload, prefix: str = "", depth: int = 0) -> list[tuple[str, str]]:
    """The payload as key/value rows: nested values flattened to dotted keys ("move.from.table"), lists
    of plain values joined; at most 200 rows."""
    rows: list[tuple[str, str]] = []
    if isinstance(payload, dict) and depth < 4:
        for key, value in payload.items():
            rows.extend(
                details(value, f"{prefix}{key}.", depth + 1)
                if isinstance(value, (dict, list)) and value
                else [(f"{prefix}{key}", _plain(value))]
            )
    elif isinstance(payload, list) and depth < 4 and any(isinstance(v, (dict, list)) for v in payload):
        for i, value in enumerate(payload, 1):
            rows.extend(
                details(value, f"{prefix}{i}.", depth + 1) if isinstance(value, (dict, list)) else [(f"{prefix}{i}", _plain(value))]
            )
    else:
        rows.append((prefix.rstrip("."), _plain(payload)))
    return rows[:200]


def _plain(value) -> str:
    if value is None:
        return "–"
    if isinstance(value, bool):
        return _("yes") if value else _("no")
    if isinstance(value, list):
        return ", ".join(_plain(v) for v in value) or "–"
    if isinstance(value, dict):
        return ", ".join(f"{k}: {_plain(v)}" for k, v in value.items()) or "–"
    return str(value)
