"""The tournament file's event types in words (archive/services/transfer.py): their labels. Collected with every
other app's by web/event_words.py; an import's line is the setup line of the tournament's words ("label: name")."""

from __future__ import annotations

from django.utils.translation import gettext as _

from web.event_parts import Line


def labels() -> dict[str, str]:
    return {
        "tournament.imported": _("Tournament imported from a file"),
    }


LINES: tuple[tuple[tuple[str, ...], Line], ...] = ()
