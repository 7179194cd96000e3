"""The money's reactions to the floor (core.reactions; registered in PayoutsConfig.ready()): an approved deal
stands only on the players who made it, and a deal that stopped play fixes their places; a paid prize keeps play
over and registration closed until the cashier voids the payment; the tournament is finished when play is over.

A deal is made by the players left at that moment and shares the prizes left then: a new entry, a voided
entry or a bust from before the deal undone would change the players or the pool under it, so they are
refused while it stands. A player placed by a deal that stopped play keeps the deal's place whenever the
floor clears him from the map."""

from __future__ import annotations

from django.utils import timezone
from django.utils.translation import get_language
from django.utils.translation import gettext as _

from clock.services import clock as clock_services
from core.actor import Actor
from core.errors import ServiceError
from core.money import format_money
from payouts.models import Payment, Satellite
from payouts.selectors.structure import approved_deals, finishers, payout_state, play_over, prizes_won, satellite_of, stop_finishes
from payouts.services import bounties
from payouts.services.tickets import satellite_json
from tables.services import handforhand, moves, venue
from tournament.models import Entry, Tournament
from tournament.services.audit import actor_user, record_event


def _deal_stands(t: Tournament, what: str) -> None:
    deals = approved_deals(t)
    if deals:
        raise ServiceError(
            _("Deal %(number)s stands on the players and the prizes left when it was made: %(what)s is refused while it stands.")
            % {"number": deals[-1].number, "what": what},
            code="deal_stands",
            status=409,
        )


def no_entry_under_a_deal(*, actor: Actor, tournament: Tournament, entry: Entry) -> None:
    """Reaction to tournament.services.registration.ENTRY_REGISTERED."""
    _deal_stands(tournament, _("a new entry"))


def no_void_under_a_deal(*, actor: Actor, tournament: Tournament, entry: Entry) -> None:
    """Reaction to tournament.services.registration.ENTRY_VOIDED."""
    _deal_stands(tournament, _("a void"))


def no_undo_before_a_deal(*, actor: Actor, tournament: Tournament, entry: Entry) -> None:
    """Reaction to tables.services.busts.BUST_UNDONE: a bust from before the deal stands (the players who dealt did so
    without that player); a player of the deal may come back (a bust of his after the deal was a mistake)."""
    deals = approved_deals(tournament)
    if deals and entry.number not in deals[-1].entries:
        raise ServiceError(
            _("Deal %(number)s was made after #%(entry)s was out, by the players left then: that bust stands.")
            % {"number": deals[-1].number, "entry": entry.number},
            code="deal_stands",
            status=409,
        )


def paid_prizes_stand(*, actor: Actor, tournament: Tournament, entry: Entry) -> None:
    """Reaction to a change of the field (tables.services.busts' ENTRY_BUSTED and BUST_UNDONE, tournament.services.registration'
    ENTRY_VOIDED): every prize paid keeps its place and its amount, until the cashier voids that payment. A paid
    player is not back in play (the money and the receipt say he finished); play that was over (the winner known, a
    satellite at its seats) does not go on under a player paid then; an undone bust from before a paid one would move
    him down a place, a void would shrink the pool, a bust entered into his hand would share his place."""
    paid = list(
        Payment.objects.filter(tournament=tournament, status=Payment.Status.PAID).select_related("entry__player").order_by("number")
    )
    if not paid:
        return
    back = next((p for p in paid if p.entry_id == entry.pk and entry.status == Entry.Status.ACTIVE), None)
    if back is not None:  # his own bust undone
        raise ServiceError(
            _(
                "The prize of entry #%(entry)s is paid (payout receipt %(receipt)s): the cashier voids the "
                "payment before the bust is undone."
            )
            % {"entry": entry.number, "receipt": back.number},
            code="prize_paid",
            status=409,
            details={"press": "void_payment", "payment": back.number},
        )
    state = payout_state(tournament)
    places = finishers(tournament, state)
    found, won = {f.entry: f for f in places}, prizes_won(tournament, state, places)
    for payment in paid:
        now = found.get(payment.entry.number)
        if now is not None and (now.place, now.place_low, won.get(now.entry, 0)) == (payment.place, payment.place_low, payment.amount):
            continue
        if payment.entry.status == Entry.Status.ACTIVE:  # paid when play was over, and play would go on
            raise ServiceError(
                _(
                    "%(name)s (entry #%(entry)s) was paid his prize when play was over (payout receipt "
                    "%(receipt)s): play cannot go on again until the cashier voids that payment."
                )
                % {"name": payment.entry.player.display_name, "entry": payment.entry.number, "receipt": payment.number},
                code="prize_paid",
                status=409,
                details={"press": "void_payment", "payment": payment.number},
            )
        raise ServiceError(
            _(
                "This would change the place or the prize of %(name)s (entry #%(entry)s), paid already "
                "(payout receipt %(receipt)s: %(amount)s for place %(place)s): the cashier voids that "
                "payment first."
            )
            % {
                "name": payment.entry.player.display_name,
                "entry": payment.entry.number,
                "receipt": payment.number,
                "amount": format_money(payment.amount, tournament.currency, get_language()),
                "place": payment.place,
            },
            code="prize_paid",
            status=409,
            details={"press": "void_payment", "payment": payment.number},
        )


def no_reopening_after_a_payment(*, actor: Actor, tournament: Tournament) -> None:
    """Reaction to tournament.services.registration.REGISTRATION_REOPENED: once a prize is paid the places and the pool are final;
    a new entry would change the prizes under the payments."""
    paid = Payment.objects.filter(tournament=tournament, status=Payment.Status.PAID).order_by("number").first()
    if paid is not None:
        raise ServiceError(
            _(
                "A prize has been paid (payout receipt %(receipt)s): registration stays closed, or new "
                "entries would change the prizes under the payments."
            )
            % {"receipt": paid.number},
            code="prize_paid",
            status=409,
        )


def place_fixed_by_a_deal(*, tournament: Tournament, entry: Entry) -> dict:
    """Asked by tables.services.busts.FIXED_PLACE: the place a deal that stopped play gave this player."""
    for number, place, low, _amount in stop_finishes(tournament):
        if number == entry.number:
            return {"place": place, "place_low": low if low != place else None}
    return {}


def finished_with_play(*, actor: Actor, tournament: Tournament, entry: Entry | None = None) -> None:
    """Reaction to every change that may end play or let it go on (tables.services.busts' ENTRY_BUSTED and BUST_UNDONE,
    tournament.services.registration' ENTRY_REGISTERED and ENTRY_VOIDED, services.DEAL_APPROVED). Play over (its winner known, a
    deal that stopped it, a satellite down to its seats): the tournament is finished (`tournament.finished`), so
    registration is closed (stats.registration_problem) and its prizes final, no new hand is dealt (tables.services.hands),
    hand-for-hand ends and the clock stops. A correction that lets play go on makes it run again
    (`tournament.resumed`) and balances the room, which nobody balanced while play was over; the director starts the
    clock and, at a bubble, hand-for-hand again."""
    t = Tournament.objects.get(pk=tournament.pk)  # its status as it stands (the caller holds the tournament lock)
    if t.status == Tournament.Status.SETUP:
        return
    over, finished = play_over(t), t.status == Tournament.Status.FINISHED
    left = Entry.objects.filter(tournament=t, status=Entry.Status.ACTIVE).count()
    state = payout_state(t) if over else None
    places = finishers(t, state) if over else []
    # Nobody has a place (one entry, or none; or every other entry voided after the finish): nothing was played, and
    # a tournament finished before plays on (its last bust undone with everyone else voided).
    over = over and bool(places)
    if over and not finished:
        payload = {
            "players_left": left,
            "hand_for_hand_ended": handforhand.end_at_play_over(t, actor=actor),
            "clock_stopped": clock_services.stop_at_play_over(t, actor=actor),
        }
        sat = satellite_of(t)
        if sat is not None and left > 1:
            payload.update(reason="seats", seats=state["satellite"]["seats"])
        elif approved_deals(t) and left > 1:
            payload.update(reason="deal")
        else:
            first = next(f for f in places if f.place == 1)
            winner = Entry.objects.select_related("player").get(tournament=t, number=first.entry)
            payload.update(reason="winner", entry=winner.number, name=winner.player.display_name)
        Tournament.objects.filter(pk=t.pk).update(status=Tournament.Status.FINISHED)
        payload["tables_given_back"] = venue.give_back_all(t, actor=actor)  # the room's tables are free for the next events
        ended = venue.end_reservations(t, actor=actor)  # and no table stays reserved for it
        if ended:
            payload["reservations_ended"] = ended
        record_event(t, actor=actor, type_="tournament.finished", payload=payload)
    elif finished and not over:
        Tournament.objects.filter(pk=t.pk).update(status=Tournament.Status.RUNNING)
        t.status = Tournament.Status.RUNNING
        venue.hold_all(t, actor=actor)  # its tables again, unless another event took one meanwhile (the correction is refused)
        record_event(t, actor=actor, type_="tournament.resumed", payload={"players_left": left})
        moves.rebalance(t, actor=actor)  # nobody moved while play was over: the room as it stands now (tables.services.moves)


def copy_satellite(*, actor: Actor, tournament: Tournament, previous: Tournament) -> None:
    """Reaction to venues.services.sit_and_go.SIT_AND_GO_OPENED: the next of a satellite sit & go series is a satellite
    of the same target, with the same settings (its seats paid by the satellite rules)."""
    sat = Satellite.objects.filter(tournament=previous).first()
    if sat is None:
        return
    copied = Satellite.objects.create(
        tournament=tournament,
        target_id=sat.target_id,
        leftover=sat.leftover,
        transferable=sat.transferable,
        seat=sat.seat,
        set_at=timezone.now(),
        set_by=actor_user(actor) or sat.set_by,
    )
    record_event(tournament, actor=actor, type_="satellite.set", payload={"before": None, "after": satellite_json(copied)}, stats=False)


def bounties_of_a_bust(*, actor: Actor, tournament: Tournament, entry: Entry) -> None:
    """Reaction to tables.services.busts.ENTRY_BUSTED (after play over is decided): the bust's bounties
    (payouts/services/bounties.py)."""
    bounties.award_bust(tournament, actor=actor, entry=entry)


def bounties_replayed(*, actor: Actor, tournament: Tournament, entry: Entry | None = None) -> None:
    """Reaction to an undone bust, corrected eliminators and an approved deal: the night's bounties replayed, refused
    while a bounty it changes is paid."""
    bounties.settle(tournament, actor=actor)
