"""Busts reported on the dealer tablet: the dealer taps the seat that busted and the seats that won the pot. By the
house rule (`dealer_busts`) the bust applies at once, or waits for the floor to confirm it on the map with one press
(or reject it with a reason). Either way the bust itself is tables/services/busts.py's, with the winners named."""

from __future__ import annotations

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from core import roles
from core.actor import Actor
from core.errors import ServiceError, clean_reason, next_number, require
from tables.models import BustReport, Table
from tables.selectors.state import house_rules, live_seats
from tables.services import eliminations
from tables.services.busts import MAX_STACK, out_at_the_table
from tournament.models import Entry, Tournament
from tournament.services.audit import actor_label, actor_user, lock_tournament, record_event


def report_json(r: BustReport) -> dict:
    return {
        "report": r.number,
        "table": r.table.number,
        "seat": r.seat,
        "entry": r.entry.number,
        "name": r.entry.player.display_name,
        "winner_seats": r.winner_seats,
        "winners": r.winners,
        "stack": r.stack,
        "status": r.status,
        "reported_at": r.reported_at.isoformat(),
        "reported_by": r.reported_by,
        "reason": r.reason,
    }


@transaction.atomic
def report_bust(table: Table, *, actor: Actor, seat: int, winner_seats, stack=None) -> BustReport:
    """The dealer reports the player in `seat` out, and the seats that won the pot (several: a split pot). Refused, and
    nothing recorded, for an empty seat, a winner who does not sit at this table, no winner in a bounty event, or a bust
    of that player already waiting for the floor."""
    require(actor, roles.BUST_REPORT, table=table)
    t = lock_tournament(table.tournament_id)
    table = Table.objects.select_for_update().get(pk=table.pk)
    held = live_seats(t).select_related("entry__player", "table").filter(table=table, seat=seat).first()
    if held is None:
        raise ServiceError(
            _("Nobody sits at table %(table)s seat %(seat)s.") % {"table": table.number, "seat": seat}, code="empty_seat", status=409
        )
    if stack is not None and (not isinstance(stack, int) or isinstance(stack, bool) or not 0 <= stack <= MAX_STACK):
        raise ServiceError(_("Give the chips the player had at the start of the hand as a whole number (0 or more)."), code="bad_stack")
    winners = eliminations.winners_at_table(t, held.entry, held, seats=winner_seats or None)
    if not winners and eliminations.bounty_event(t):
        raise ServiceError(
            _("This is a bounty event: tap the seat that won the pot (several for a split pot)."), code="eliminator_required"
        )
    waiting = BustReport.objects.filter(entry=held.entry, status=BustReport.Status.PENDING).first()
    if waiting is not None:
        raise ServiceError(
            _("The bust of seat %(seat)s is already reported and waits for the floor.") % {"seat": seat},
            code="already_reported",
            status=409,
        )
    report = BustReport.objects.create(
        tournament=t,
        number=next_number(BustReport.objects.filter(tournament=t)),
        table=table,
        seat=seat,
        entry=held.entry,
        winner_seats=[s for _n, s in winners],
        winners=[n for n, _s in winners],
        stack=stack,
        reported_at=timezone.now(),
        reported_by=actor_label(actor),
    )
    at_once = house_rules(t).dealer_busts == "at_once"
    record_event(t, actor=actor, type_="bust.reported", payload={**report_json(report), "at_once": at_once}, stats=False, seats=False)
    if at_once:
        _apply(report, actor=actor, t=t)
    return report


def _apply(report: BustReport, *, actor: Actor, t: Tournament) -> None:
    entry = Entry.objects.get(pk=report.entry_id)
    held = live_seats(t).filter(entry=entry, table_id=report.table_id, seat=report.seat).exists()
    if entry.status != Entry.Status.ACTIVE or not held:
        raise ServiceError(
            _("Entry #%(entry)s no longer plays in table %(table)s seat %(seat)s: reject the report.")
            % {"entry": entry.number, "table": report.table.number, "seat": report.seat},
            code="report_stale",
            status=409,
        )
    out_at_the_table(entry, actor=actor, stack=report.stack, eliminator_seats=report.winner_seats or None)
    report.status, report.decided_at, report.decided_by = BustReport.Status.APPLIED, timezone.now(), actor_user(actor)
    report.save(update_fields=["status", "decided_at", "decided_by"])


def _pending(t: Tournament, number: int) -> BustReport:
    report = BustReport.objects.select_for_update().select_related("table", "entry__player").filter(tournament=t, number=number).first()
    if report is None:
        raise ServiceError(_("There is no bust report %(number)s.") % {"number": number}, code="not_found", status=404)
    if report.status != BustReport.Status.PENDING:
        raise ServiceError(
            _("Bust report %(number)s is already %(status)s.") % {"number": number, "status": report.get_status_display().lower()},
            code="report_decided",
            status=409,
        )
    return report


@transaction.atomic
def confirm_bust_report(tournament: Tournament, *, actor: Actor, number: int) -> BustReport:
    """The floor confirms a dealer's report with one press: the bust is made as reported (its winners named)."""
    require(actor, roles.BUST)
    t = lock_tournament(tournament.pk)
    report = _pending(t, number)
    _apply(report, actor=actor, t=t)
    return report


@transaction.atomic
def reject_bust_report(tournament: Tournament, *, actor: Actor, number: int, reason: str) -> BustReport:
    """The floor rejects a dealer's report, with a reason: nothing happens to the player."""
    require(actor, roles.BUST)
    text = clean_reason(reason, BustReport, "reason", _("Give a reason for rejecting the report."))
    t = lock_tournament(tournament.pk)
    report = _pending(t, number)
    report.status, report.decided_at, report.decided_by, report.reason = BustReport.Status.REJECTED, timezone.now(), actor_user(actor), text
    report.save(update_fields=["status", "decided_at", "decided_by", "reason"])
    record_event(t, actor=actor, type_="bust.report_rejected", payload=report_json(report), stats=False, seats=False)
    return report
