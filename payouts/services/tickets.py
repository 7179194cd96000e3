"""Satellites and their tickets: the director makes a tournament a satellite of a target event; when its
play stops at the seats, each seat winner gets a ticket; the desk registers the holder into the target with his ID
checked and no payment; the house may let a ticket pass to another player. Each function runs in one transaction,
locks what it changes, records an audit event and refuses bad input with a translated message, changing nothing.

Tickets follow the places: `sync_tickets` runs as a reaction to every change of a satellite's field (a bust, an
undone bust, a new entry, a void), issues the tickets of the seat winners once play has stopped and voids those whose
holder no longer has a seat; a correction that would take away a ticket already used is refused. Locks: the
tournament first, then its tickets (registration with a ticket: the target, then the ticket)."""

from __future__ import annotations

from django.conf import settings
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from core import roles
from core.actor import Actor
from core.errors import ServiceError, clean_reason, next_number, require
from payouts.models import Satellite, Ticket
from payouts.selectors.satellites import BECOME, CHANGE, REMOVE, satellite_fixed
from payouts.selectors.structure import payout_state, satellite_of, seat_winners
from tournament.models import Entry, IdCheck, Player, Purchase, Tournament
from tournament.rules.identity import document_hmac, normalise_document_number
from tournament.services import registration as tournament_services
from tournament.services.audit import actor_user, lock_tournament, record_event
from tournament.services.registration import IdDocument

SETTINGS = ("target", "leftover", "seat", "transferable")


def satellite_json(sat: Satellite | None) -> dict | None:
    if sat is None:
        return None
    return {
        "target": sat.target_id,
        "target_name": sat.target.name,
        "leftover": sat.leftover,
        "seat": sat.seat,
        "transferable": sat.transferable,
    }


def _issued(sat: Satellite) -> Ticket | None:
    return Ticket.objects.filter(satellite=sat).order_by("number").first()


def _target(t: Tournament, value) -> Tournament:
    """The target event given by its id: another tournament, in the same currency, with a price, not finished, and
    not a satellite feeding this one (seats would go round in a circle)."""
    if isinstance(value, Tournament):
        value = value.pk
    if not isinstance(value, int) or isinstance(value, bool):
        raise ServiceError(_("Choose the target event the seats are for."), code="target_missing")
    target = Tournament.objects.filter(pk=value).first()
    if target is None:
        raise ServiceError(_("There is no tournament %(id)s.") % {"id": value}, code="target_unknown")
    if target.pk == t.pk:
        raise ServiceError(_("A satellite awards seats in another tournament, not in itself."), code="target_itself")
    if target.currency != t.currency:
        raise ServiceError(
            _("%(target)s is played in %(other)s: a satellite's seats are paid from a pool in the same currency (%(currency)s).")
            % {"target": target.name, "other": target.currency, "currency": t.currency},
            code="target_currency",
        )
    if target.status == Tournament.Status.FINISHED:
        raise ServiceError(_("%(target)s has finished.") % {"target": target.name}, code="target_finished")
    seen, step = {t.pk}, target
    while (up := Satellite.objects.filter(tournament=step).select_related("target").first()) is not None:
        if up.target_id in seen:
            raise ServiceError(
                _("%(target)s is a satellite of this tournament: seats cannot go round in a circle.") % {"target": target.name},
                code="target_circle",
            )
        seen.add(up.target_id)
        step = up.target
    return target


def _money_open(t: Tournament, change: str) -> None:
    """Refused (409) when the seats and the cash stop changing (selectors.satellite_fixed says why)."""
    problem = satellite_fixed(t, change)
    if problem is not None:
        raise problem


@transaction.atomic
def set_satellite(tournament: Tournament, *, actor: Actor, data: dict) -> Satellite:
    """The director makes the tournament a satellite of a target event, or changes its settings: the target, where
    the cash left over goes, whether a ticket may pass to another player. Fields not given keep their value. The
    target and the cash rule are fixed once a ticket exists (the ticket's holder won that); the transfer rule is the
    house's and may change any time."""
    require(actor, roles.SETUP)
    unknown = sorted(set(data) - set(SETTINGS))
    if unknown:
        raise ServiceError(_("Unknown satellite setting: %(names)s.") % {"names": ", ".join(unknown)}, code="unknown_setting")
    t = lock_tournament(tournament.pk)
    sat = Satellite.objects.select_for_update().filter(tournament=t).select_related("target").first()
    before = satellite_json(sat)
    if sat is None:
        sat = Satellite(tournament=t, set_at=timezone.now(), set_by=actor_user(actor))
        if "target" not in data:
            raise ServiceError(_("Choose the target event the seats are for."), code="target_missing")
    if "leftover" in data:
        if data["leftover"] not in Satellite.Leftover.values:
            raise ServiceError(_("Choose where the cash left over goes: to the next place or to the seat winners."), code="invalid")
        sat.leftover = data["leftover"]
    if "seat" in data:
        if data["seat"] not in Satellite.Seat.values:
            raise ServiceError(_("Choose what a seat is worth: the target's buy-in and fee, or its buy-in only."), code="invalid")
        sat.seat = data["seat"]
    if "transferable" in data:
        if not isinstance(data["transferable"], bool):
            raise ServiceError(_("Say whether a ticket may pass to another player: yes or no."), code="invalid")
        sat.transferable = data["transferable"]
    if "target" in data:
        sat.target = _target(t, data["target"])
    after = satellite_json(sat)
    if before == after:
        return sat
    if before is None or any(before[name] != after[name] for name in ("target", "leftover", "seat")):
        _money_open(t, BECOME if before is None else CHANGE)
        if sat.pk and _issued(sat) is not None:
            raise ServiceError(
                _("Tickets were issued: the target, the seat's value and the cash left over stand as they were won."),
                code="tickets_issued",
                status=409,
            )
    sat.set_at, sat.set_by = timezone.now(), actor_user(actor)
    sat.save()
    record_event(t, actor=actor, type_="satellite.set", payload={"before": before, "after": after})
    sync_tickets(t, actor=actor)
    return sat


@transaction.atomic
def remove_satellite(tournament: Tournament, *, actor: Actor) -> None:
    """The tournament is no longer a satellite (a setting made in error): only while no ticket exists."""
    require(actor, roles.SETUP)
    t = lock_tournament(tournament.pk)
    sat = Satellite.objects.select_for_update().filter(tournament=t).select_related("target").first()
    if sat is None:
        raise ServiceError(_("This tournament is not a satellite."), code="not_a_satellite", status=409)
    if _issued(sat) is not None:
        raise ServiceError(_("Tickets were issued: the tournament stays a satellite."), code="tickets_issued", status=409)
    _money_open(t, REMOVE)
    before = satellite_json(sat)
    sat.delete()
    record_event(t, actor=actor, type_="satellite.removed", payload={"before": before})


def _ticket_json(ticket: Ticket) -> dict:
    return {"ticket": ticket.number, "entry": ticket.won_by.number, "name": ticket.holder.display_name, "value": ticket.value}


def sync_tickets(t: Tournament, *, actor: Actor, sat: Satellite | None = None, state: dict | None = None) -> None:
    """The tickets of a satellite follow its seat winners (the caller holds the tournament's lock): issued when play
    stops, voided when a correction gives a seat to another player or lets play go on. A ticket already used to
    enter the target cannot be taken back: the correction is refused, with how to do it."""
    sat = sat or satellite_of(t)
    if sat is None:
        return
    state = state or payout_state(t)
    winners = set(seat_winners(t, state))
    live = list(
        Ticket.objects.select_for_update(of=("self",))
        .filter(satellite=sat)
        .exclude(status=Ticket.Status.VOID)
        .select_related("won_by", "holder", "used_entry")
    )
    held = {ticket.won_by.number: ticket for ticket in live}
    gone = [ticket for number, ticket in sorted(held.items()) if number not in winners]
    for ticket in gone:
        if ticket.status == Ticket.Status.USED:
            raise ServiceError(
                _(
                    "Ticket %(ticket)s of entry #%(entry)s entered %(target)s (entry #%(used)s): the seats stand. Void "
                    "that entry in %(target)s first (the ticket comes back), then make this correction."
                )
                % {"ticket": ticket.number, "entry": ticket.won_by.number, "target": sat.target.name, "used": ticket.used_entry.number},
                code="ticket_used",
                status=409,
                details={"press": "void_entry", "tournament": sat.target_id, "entry": ticket.used_entry.number},
            )
    now = timezone.now()
    reason = _("The seats changed: play goes on, or another player finished within the seats.")
    for ticket in gone:
        ticket.status, ticket.voided_at, ticket.void_reason = Ticket.Status.VOID, now, reason
        ticket.save(update_fields=["status", "voided_at", "void_reason"])
    new = sorted(winners - set(held))
    issued = []
    if new:
        number = next_number(Ticket.objects.filter(satellite=sat))
        value = state["satellite"]["seat_value"]
        for entry in Entry.objects.filter(tournament=t, number__in=new).select_related("player").order_by("number"):
            issued.append(
                Ticket.objects.create(satellite=sat, number=number, won_by=entry, holder=entry.player, value=value, issued_at=now)
            )
            number += 1
    if gone:
        record_event(
            t,
            actor=actor,
            type_="ticket.voided",
            payload={"tickets": [_ticket_json(ticket) for ticket in gone], "target": sat.target.name, "reason": reason},
        )
    if issued:
        record_event(
            t,
            actor=actor,
            type_="ticket.issued",
            payload={"tickets": [_ticket_json(ticket) for ticket in issued], "target": sat.target.name, "target_id": sat.target_id},
        )


def _no_bust_after_the_seats(t: Tournament, entry: Entry, state: dict) -> None:
    """Once a satellite is down to its seats, play has stopped and nobody else busts, except a player out in the
    same hand as the bust that stopped it (entered with his chips at the start of the hand, so the hand's players
    are placed together across the last seat)."""
    sat = state["satellite"]
    if not sat["seats"] or state["players_left"] >= sat["stops_at"]:
        return
    if (
        entry.bust_hand
        and Entry.objects.filter(tournament=t, bust_hand=entry.bust_hand, status=Entry.Status.BUSTED).exclude(pk=entry.pk).exists()
    ):
        return
    raise ServiceError(
        _(
            "Play has stopped: the %(players)s players left have won their seats in %(target)s. A player out in the hand "
            "that stopped play is entered with his chips at the start of that hand."
        )
        % {"players": sat["stops_at"], "target": sat["target"]["name"]},
        code="play_stopped",
        status=409,
    )


def tickets_follow(*, actor: Actor, tournament: Tournament, entry: Entry) -> None:
    """Reaction to a change of the field (tables.services.busts.ENTRY_BUSTED and BUST_UNDONE, tournament.services.registration'
    ENTRY_REGISTERED and ENTRY_VOIDED): in a satellite, a bust after play stopped is refused and the tickets follow
    the seat winners; anywhere, a voided entry that had entered with a ticket gives it back."""
    if entry.status == Entry.Status.VOIDED:
        _ticket_back(entry, actor=actor, t=tournament)
    sat = satellite_of(tournament)
    if sat is None:
        return
    state = payout_state(tournament)
    if entry.status == Entry.Status.BUSTED:
        _no_bust_after_the_seats(tournament, entry, state)
    sync_tickets(tournament, actor=actor, sat=sat, state=state)


def _ticket_back(entry: Entry, *, actor: Actor, t: Tournament) -> None:
    ticket = Ticket.objects.select_for_update(of=("self",)).filter(used_entry=entry).select_related("satellite__tournament").first()
    if ticket is None:
        return
    ticket.status, ticket.used_entry, ticket.used_at = Ticket.Status.ISSUED, None, None
    ticket.save(update_fields=["status", "used_entry", "used_at"])
    record_event(
        t,
        actor=actor,
        type_="ticket.returned",
        payload={
            "ticket": ticket.number,
            "satellite": ticket.satellite.tournament.name,
            "entry": entry.number,
            "name": ticket.holder.display_name,
        },
    )


@transaction.atomic
def register_with_ticket(ticket: Ticket, *, actor: Actor, document: IdDocument | None) -> Entry:
    """The desk registers a ticket's holder into its target event: his ID checked as for any entry (club 32), no
    payment taken; the receipt says "satellite ticket" and the target's pool counts the buy-in as paid."""
    require(actor, roles.REGISTER)
    target = lock_tournament(Ticket.objects.values_list("satellite__target_id", flat=True).get(pk=ticket.pk))
    tk = (
        Ticket.objects.select_for_update(of=("self",))
        .select_related("satellite__tournament", "holder", "won_by__id_check")
        .get(pk=ticket.pk)
    )
    if tk.status == Ticket.Status.USED:
        raise ServiceError(
            _("Ticket %(ticket)s has been used already (entry #%(entry)s).") % {"ticket": tk.number, "entry": tk.used_entry.number},
            code="ticket_used",
            status=409,
        )
    if tk.status == Ticket.Status.VOID:
        raise ServiceError(
            _("Ticket %(ticket)s is void: %(reason)s") % {"ticket": tk.number, "reason": tk.void_reason}, code="ticket_void", status=409
        )
    _holders_document(tk, document)
    entry = tournament_services.register_entry(
        target,
        actor=actor,
        player=tk.holder,
        document=document,
        paid_with=Purchase.PaidWith.TICKET,
        fee_waived=tk.satellite.seat == Satellite.Seat.BUY_IN,
    )
    tk.status, tk.used_entry, tk.used_at = Ticket.Status.USED, entry, timezone.now()
    tk.save(update_fields=["status", "used_entry", "used_at"])
    record_event(
        target,
        actor=actor,
        type_="ticket.used",
        payload={
            "ticket": tk.number,
            "satellite": tk.satellite.tournament.name,
            "entry": entry.number,
            "name": tk.holder.display_name,
            "value": tk.value,
        },
    )
    return entry


def _holders_document(tk: Ticket, document: IdDocument | None) -> None:
    """A ticket is a prize: it is used only against the holder's own ID, as a prize is paid (club 32). The seat
    winner shows the document he played the satellite with; a player the ticket passed to shows one his record
    already knows, if it knows any (else register_entry's check makes the one shown his). No number: register_entry
    says what is missing."""
    if document is None or not normalise_document_number(document.number or ""):
        return
    shown = document_hmac(document.number, settings.ID_HASH_KEY)
    won = tk.won_by
    if tk.holder_id == won.player_id:
        if shown != won.id_hmac:
            raise ServiceError(
                _(
                    "This document number does not match the ID %(name)s played the satellite with (its "
                    "number ends in %(last4)s). A ticket is used only against the same document."
                )
                % {"name": tk.holder.display_name, "last4": won.id_check.number_last4},
                code="id_mismatch",
            )
        return
    known = set(IdCheck.objects.filter(player=tk.holder).values_list("number_hmac", flat=True)) | {tk.holder.id_hmac} - {None}
    if known and shown not in known:
        raise ServiceError(
            _(
                "This document number is not one %(name)s has shown here before. A ticket passed on is "
                "used only against its holder's own ID."
            )
            % {"name": tk.holder.display_name},
            code="id_mismatch",
        )


@transaction.atomic
def transfer_ticket(ticket: Ticket, *, actor: Actor, player: Player, reason: str) -> Ticket:
    """A ticket passes to another player, when the satellite's house setting allows it: the director's decision,
    with a reason, audited in the satellite's log. Only a ticket not yet used."""
    require(actor, roles.SETUP)
    reason = clean_reason(reason, Ticket, "void_reason", _("Give a reason for the transfer."))
    t = lock_tournament(Ticket.objects.values_list("satellite__tournament_id", flat=True).get(pk=ticket.pk))
    tk = Ticket.objects.select_for_update(of=("self",)).select_related("satellite__target", "holder").get(pk=ticket.pk)
    if not tk.satellite.transferable:
        raise ServiceError(
            _("The house does not let this satellite's tickets pass to another player."), code="not_transferable", status=409
        )
    if tk.status != Ticket.Status.ISSUED:
        raise ServiceError(
            _("Ticket %(ticket)s is %(status)s: only a ticket not yet used passes to another player.")
            % {"ticket": tk.number, "status": tk.get_status_display()},
            code="ticket_not_issued",
            status=409,
        )
    new = Player.objects.filter(pk=getattr(player, "pk", player)).first()
    if new is None:
        raise ServiceError(_("Choose the player the ticket passes to."), code="player_missing")
    if new.pk == tk.holder_id:
        raise ServiceError(_("%(name)s holds this ticket already.") % {"name": new.display_name}, code="same_holder")
    before = tk.holder
    tk.holder = new
    tk.save(update_fields=["holder"])
    record_event(
        t,
        actor=actor,
        type_="ticket.transferred",
        payload={
            "ticket": tk.number,
            "from": before.display_name,
            "to": new.display_name,
            "from_player": before.pk,
            "to_player": new.pk,
            "reason": reason,
            "target": tk.satellite.target.name,
        },
    )
    return tk
