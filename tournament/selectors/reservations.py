"""Reads of the places reserved from phones: the house's rules, the counts a new reservation is checked against, the
desk's list, and a player's own reservation by the code in his link."""

from __future__ import annotations

from django.conf import settings
from django.db.models import Count, Q

from tournament.models import Reservation, Tournament
from tournament.models.reservations import code_hash
from tournament.rules import reservations as rr

State = Reservation.State


def rules_of(t: Tournament) -> rr.Rules:
    return rr.Rules(
        cap=t.reservation_cap,
        until=t.reservations_until,
        start_at=t.start_at,
        per_device=settings.RESERVATIONS_PER_DEVICE,
        per_address=settings.RESERVATIONS_PER_ADDRESS,
    )


def counts(t: Tournament, *, device: str = "", address: str = "") -> dict:
    """The reservations held and claimed (`taken`, against the cap), held, and those a phone and an address made (not
    cancelled), in one query."""
    live = ~Q(state=State.CANCELLED)
    return Reservation.objects.filter(tournament=t).aggregate(
        taken=Count("id", filter=Q(state__in=[State.HELD, State.CLAIMED])),
        held=Count("id", filter=Q(state=State.HELD)),
        by_device=Count("id", filter=live & Q(device=device)),
        by_address=Count("id", filter=live & Q(address=address)),
    )


def tournaments_with_held() -> list[int]:
    return sorted(set(Reservation.objects.filter(state=State.HELD).values_list("tournament_id", flat=True).distinct()))


def by_code(t: Tournament, code: str) -> Reservation | None:
    return (
        Reservation.objects.filter(tournament=t, code_hash=code_hash(code))
        .select_related("entry", "waiting_place__entry", "tournament")
        .first()
    )


def state_words(t: Tournament) -> dict:
    """Whether a phone may reserve now, for the public pages: {"open", "cap", "taken", "expires_at"}."""
    rules = rules_of(t)
    figures = counts(t)
    return {
        "open": rules.cap > 0 and t.status == Tournament.Status.SETUP and not t.registration_closed,
        "cap": rules.cap,
        "taken": figures["taken"],
        "held": figures["held"],
        "expires_at": rr.expires_at(rules),
    }


def listing(t: Tournament, query: str = "") -> list[Reservation]:
    """The desk's list: held first in their order, then the others; `query` finds a number (17, R-17) or a name."""
    rows = Reservation.objects.filter(tournament=t).select_related("entry", "waiting_place", "closed_by", "tournament")
    query = (query or "").strip()
    if query:
        digits = query.upper().removeprefix("R").lstrip("-").strip()
        rows = rows.filter(number=int(digits)) if digits.isdigit() else rows.filter(name__icontains=query)
    held = [r for r in rows if r.state == State.HELD]
    return sorted(held, key=lambda r: r.number) + sorted((r for r in rows if r.state != State.HELD), key=lambda r: -r.number)


def as_json(r: Reservation, *, staff: bool) -> dict:
    """A reservation as the API answers it: the player's own link shows his name and state; the desk also the contact."""
    out = {
        "number": r.number,
        "name": r.name,
        "state": r.state,
        "created_at": r.created_at.isoformat(),
        "expires_at": rr.expires_at(rules_of(r.tournament)).isoformat(),
        "holds_place": r.holds_place,
        "entry": r.entry.number if r.entry_id else None,
        "alternate": r.waiting_place.number if r.waiting_place_id else None,
        "closed_at": r.closed_at.isoformat() if r.closed_at else None,
    }
    if staff:
        out.update(contact=r.contact, close_reason=r.close_reason)
    return out
