"""The leagues' event types in words (leagues/services/leagues.py): a league, the tournaments it takes in, the points
given as the places stand; their labels and one line per event. Collected with every other app's by
web/event_words.py."""

from __future__ import annotations

from django.utils.translation import gettext as _

from web.event_parts import Line, Names


def labels() -> dict[str, str]:
    return {
        "league.created": _("League created"),
        "league.changed": _("League settings changed"),
        "league.joined": _("Tournament added to a league"),
        "league.left": _("Tournament taken out of its league"),
        "league.points": _("League points given"),
    }


def _leagues(type_: str, label: str, p: dict, names: Names) -> str:
    """The tournament's league (leagues/services/leagues.py): joined, left, and the points given as the places stand."""
    if type_ == "league.points" and not p.get("players"):
        return _("League %(league)s: play goes on, the points given are taken away") % {"league": p.get("name", "–")}
    if type_ == "league.points":
        return _("League %(league)s: points given to %(players)s players") % {
            "league": p.get("name", "–"),
            "players": p.get("players", "–"),
        }
    return _("%(label)s: %(league)s") % {"label": label, "league": p.get("name", "–")}


# Which line writes which types (web/event_words.py).
LINES: tuple[tuple[tuple[str, ...], Line], ...] = ((("league.",), _leagues),)
