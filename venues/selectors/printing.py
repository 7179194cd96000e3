"""The desk's paper and roll printer, as a tournament's print views and buttons read them (docs/printing.md): its
venue's house settings, the paper a print view was asked for (`?paper=80|58|a4`) winning over the house's for that
one print."""

from __future__ import annotations

from venues.models import Paper, Venue

PAPERS = tuple(Paper.values)  # "a4", "80", "58"
ROLLS = (Paper.ROLL_80.value, Paper.ROLL_58.value)


def venue_for(tournament) -> Venue | None:
    """The venue whose tables the tournament takes (its own, or the deployment's first); None before any exists."""
    if tournament.room_id:
        return tournament.room
    return Venue.objects.order_by("id").first()


def paper_asked(text: str | None) -> str | None:
    """A paper as a query or a body names it ("80", "80mm", "58", "a4", any case) as stored; None when it names none."""
    value = (text or "").strip().lower().removesuffix("mm")
    return value if value in PAPERS else None


def printing(tournament) -> dict:
    """The house's paper ("a4", "80" or "58") and its roll printer ("host:port", "" for none), for this tournament."""
    venue = venue_for(tournament)
    if venue is None:
        return {"paper": Paper.ROLL_80.value, "printer": "", "venue": None}
    return {"paper": venue.paper, "printer": venue.printer, "venue": venue.pk}


def roll_for(paper: str) -> str:
    """The roll the printer prints on when the house prints on `paper`: A4 houses' printer takes 80 mm."""
    return paper if paper in ROLLS else Paper.ROLL_80.value
