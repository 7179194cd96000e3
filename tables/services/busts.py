"""A bust and its undo: the seat freed, the finishing place, the places of a hand's busts by the
tie rules, then balancing and hand-for-hand.

Places: a bust takes the number of players left before it (players left after it + 1); players
busted in the same hand share or split their places by tables/rules/places.py (WSOP R126); an undone bust
moves those busted after it one place down. The apps above react to ENTRY_BUSTED and BUST_UNDONE
(core.reactions) in the same transaction."""

from __future__ import annotations

from django.db import transaction
from django.db.models import F, Min
from django.utils import timezone
from django.utils.translation import gettext as _

from core import reactions, roles
from core.actor import Actor
from core.errors import ServiceError, next_number, require
from tables.models import ChipCount, Elimination, Penalty, Seat
from tables.rules import places
from tables.selectors.state import house_rules, seat_of
from tables.services import eliminations
from tables.services.draws import draw_tie_order
from tables.services.handforhand import bust_group
from tables.services.moves import after_seat_freed, rebalance
from tables.services.penalties import clean_penalty_reason, offender
from tables.services.seats import free_seat, reseat_after_undo
from tournament.models import ChipAdjustment, Entry, Tournament
from tournament.services import waiting_list
from tournament.services.audit import actor_user, lock_tournament, record_event
from tournament.services.chips import adjust_chips, chips_in_play

# Changes the apps above react to (core.reactions): each handler gets actor, tournament (locked) and entry.
ENTRY_BUSTED = "entry_busted"  # after the entry.busted event, before balancing
BUST_UNDONE = "bust_undone"  # after the entry.bust_undone event
FIXED_PLACE = "fixed_place"  # asked before a bust: {"place", "place_low"} when a deal that stopped play placed the entry


MAX_STACK = 10**15


def _check_stack(stack) -> int | None:
    if stack is None or stack == "":
        return None
    try:
        value = int(stack)
    except (TypeError, ValueError):
        value = -1
    if value < 0 or value > MAX_STACK or (isinstance(stack, float) and stack != value):
        raise ServiceError(_("Give the chips the player had at the start of the hand as a whole number (0 or more)."), code="bad_stack")
    return value


def _bust_table(entries: list[Entry]) -> dict[int, int]:
    """Entry id -> the table (id) of its bust that stands: the last. An undone bust leaves its seat ended "bust", so
    a player busted again has two; read unordered, his first could win, and a player out at one table with others
    was placed as if at another (a false tie after the final table's redraw)."""
    return dict(
        Seat.objects.filter(entry__in=entries, end_reason=Seat.End.BUST).order_by("ended_at", "pk").values_list("entry_id", "table_id")
    )


def _rank_group(t: Tournament, *, actor: Actor, key: str, best_place: int) -> list[dict]:
    """Give the busts of one hand (`key`) their places by the tie rules (tables/rules/places.py): they
    take the places from best_place down; players who tie get a draw for the odd units of the prizes
    they share (tables/services/draws.draw_tie_order). Returns the places for the event."""
    members = list(Entry.objects.select_for_update().filter(tournament=t, bust_hand=key, status=Entry.Status.BUSTED))
    if not members:
        return []
    table_of = _bust_table(members)
    across = house_rules(t).hand_for_hand_ties if key.startswith("h4h:") else places.TIE
    ranked = places.rank([places.Bust(e.pk, table_of.get(e.pk, 0), e.bust_stack or 0) for e in members], best_place, across)
    for e in members:
        high, low = ranked[e.pk]
        e.finish_place, e.finish_place_low = high, low if low != high else None
    Entry.objects.bulk_update(members, ["finish_place", "finish_place_low"])
    tied: dict[tuple[int, int], list[int]] = {}
    for e in members:
        if e.finish_place_low:
            tied.setdefault((e.finish_place, e.finish_place_low), []).append(e.number)
    for (high, low), numbers in sorted(tied.items()):
        draw_tie_order(t, actor=actor, entries=numbers, place=high, place_low=low)
    return [
        {"entry": e.number, "place": e.finish_place, "place_low": e.finish_place_low or e.finish_place}
        for e in sorted(members, key=lambda e: (e.finish_place, e.number))
    ]


def _join_hand(t: Tournament, key: str, place: int) -> tuple[int | None, list[int]]:
    """The place a bust of hand `key` starts from when others of that hand are out already (None: it is the
    first of its hand). The players of one hand were out together, when the first of them was: busts the
    floor entered in between, at other tables, came after that hand, so they finish above all of its
    players and move up one place; this bust takes the place just above the hand's block, which is then
    ranked by the tie rules. Returns that place and the entries moved up."""
    best = Entry.objects.filter(tournament=t, bust_hand=key, status=Entry.Status.BUSTED).aggregate(best=Min("finish_place"))["best"]
    if best is None:
        return None, []
    between = Entry.objects.filter(tournament=t, status=Entry.Status.BUSTED, finish_place__gt=place, finish_place__lt=best)
    moved = sorted(between.values_list("number", flat=True))
    if moved:
        between.filter(finish_place_low__isnull=False).update(finish_place_low=F("finish_place_low") - 1)
        between.update(finish_place=F("finish_place") - 1)
    return best - 1, moved


@transaction.atomic
def bust_entry(entry: Entry, *, actor: Actor, stack=None, eliminators=None, eliminator_seats=None) -> Entry:
    """A player is out: the seat is freed and the finishing place is the number of players left
    before the bust (players left after it + 1). A second tablet busting the same entry is refused.

    `stack`, the chips the player had at the start of the hand, orders players busted in the same
    hand: at one table the larger stack finishes higher and equal stacks tie; in a hand-for-hand
    hand, players at different tables tie (or go by stack: house setting). It is required in a
    hand-for-hand hand.

    `eliminators` (entry numbers) or `eliminator_seats` (seats at his table): the players who won the pot he busted
    in, several for a split pot (tables/services/eliminations.py). A bounty event's bust is refused without them."""
    require(actor, roles.BUST)
    return out_at_the_table(entry, actor=actor, stack=stack, eliminators=eliminators, eliminator_seats=eliminator_seats)


@transaction.atomic
def out_at_the_table(entry: Entry, *, actor: Actor, stack=None, eliminators=None, eliminator_seats=None) -> Entry:
    """The bust itself, for the floor's press (bust_entry) and a dealer's report (tables/services/bust_reports.py): their
    callers check the role."""
    stack = _check_stack(stack)
    t = lock_tournament(entry.tournament_id)
    e = _playing(t, entry.pk)
    seat = seat_of(e)
    winners = eliminations.winners_at_table(t, e, seat, entries=eliminators, seats=eliminator_seats)
    if not winners and eliminations.bounty_event(t):
        raise ServiceError(
            _("This is a bounty event: name the player who won the pot (several for a split pot)."),
            code="eliminator_required",
        )
    return _out(e, actor=actor, t=t, stack=stack, in_hand=stack is not None, type_="entry.busted", winners=winners)


def _playing(t: Tournament, entry_id: int) -> Entry:
    e = Entry.objects.select_for_update().select_related("player").get(pk=entry_id, tournament=t)
    if e.status != Entry.Status.ACTIVE:
        raise ServiceError(
            _("Entry #%(number)s is not playing; it may have been busted already.") % {"number": e.number},
            code="entry_not_active",
            status=409,
        )
    return e


def _out(
    e: Entry,
    *,
    actor: Actor,
    t: Tournament,
    stack: int | None,
    in_hand: bool,
    type_: str,
    extra: dict | None = None,
    winners: list[tuple[int, int]] | None = None,
) -> Entry:
    """The entry leaves play: its seat freed, its place (joining the hand in play's busts when `in_hand`), its
    elimination (the `winners` of the pot; a disqualification in a bounty event: none), the event `type_`, then the
    apps' reactions and balancing."""
    place = Entry.objects.filter(tournament=t, status=Entry.Status.ACTIVE).count()
    seat = free_seat(t, e, "bust")  # a refusal below rolls it back with the transaction
    key, h4h = bust_group(t, seat.table if seat else None)
    if h4h is not None and stack is None:
        raise ServiceError(
            _(
                "Hand-for-hand: give the chips the player had at the start of the hand (players busted "
                "in the same hand are placed by them)."
            ),
            code="stack_required",
        )
    fixed = reactions.react(FIXED_PLACE, tournament=t, entry=e)
    grouping = in_hand and stack is not None and key and not fixed
    joined, moved_up = _join_hand(t, key, place) if grouping else (None, [])
    grouped = joined is not None
    e.status, e.busted_at = Entry.Status.BUSTED, timezone.now()
    e.finish_place, e.finish_place_low = fixed.get("place", joined or place), fixed.get("place_low")
    e.bust_stack, e.bust_hand = stack, key if grouping else ""
    e.save(update_fields=["status", "busted_at", "finish_place", "finish_place_low", "bust_stack", "bust_hand"])
    same_hand = _rank_group(t, actor=actor, key=key, best_place=joined) if grouped else []
    e.refresh_from_db(fields=["finish_place", "finish_place_low"])
    dq = type_ == "entry.disqualified"
    if winners or (dq and eliminations.bounty_event(t)):
        kind = Elimination.Kind.DQ if dq else Elimination.Kind.BUST
        eliminations.record(t, actor=actor, busted=e, winners=winners or [], table=seat.table if seat else None, kind=kind)
    changed = sorted({e.number, *(b["entry"] for b in same_hand), *moved_up})  # every seat answer the bust changes
    record_event(
        t,
        actor=actor,
        type_=type_,
        payload={
            "entry": e.number,
            "name": e.player.display_name,
            "place": e.finish_place,
            "place_low": e.finish_place_low or e.finish_place,
            "stack": stack,
            "same_hand": same_hand,
            "moved_up": moved_up,
            "entries": changed,
            "table": seat.table.number if seat else None,
            "seat": seat.seat if seat else None,
            **({"eliminators": [n for n, _s in winners]} if winners else {}),
            **(extra or {}),
        },
        seats=changed,
    )
    reactions.react(ENTRY_BUSTED, actor=actor, tournament=t, entry=e)
    after_seat_freed(t, actor=actor, entry=e)
    waiting_list.entry_out(e, actor=actor, t=t)  # an alternate called to this seat played: his place is done
    waiting_list.offer_seats(t, actor=actor)  # a sold-out tournament: the seat goes to the next alternate
    return e


@transaction.atomic
def undo_bust(entry: Entry, *, actor: Actor) -> Entry:
    """Undo a mistaken bust: the entry plays again, back in its seat if still free (otherwise by the
    late-entry draw), and the players busted after it move one place down the list (those who
    busted in the same hand share their places again without it)."""
    require(actor, roles.BUST)
    t = lock_tournament(entry.tournament_id)
    e = Entry.objects.select_for_update().select_related("player").get(pk=entry.pk)
    if e.status != Entry.Status.BUSTED:
        raise ServiceError(_("Entry #%(number)s is not busted.") % {"number": e.number}, code="not_busted", status=409)
    dq = _disqualification(t, e)
    if dq is not None:
        raise ServiceError(
            _(
                "Entry #%(number)s was disqualified (penalty #%(penalty)s): a disqualification given in "
                "error is cancelled on the penalties page."
            )
            % {"number": e.number, "penalty": dq.number},
            code="disqualified",
            status=409,
        )
    return _back_in(e, actor=actor, t=t, type_="entry.bust_undone")


def _back_in(e: Entry, *, actor: Actor, t: Tournament, type_: str, extra: dict | None = None) -> Entry:
    live = Entry.objects.filter(tournament=t, player=e.player, status=Entry.Status.ACTIVE).first()
    if live is not None:
        raise ServiceError(
            _("%(name)s plays again on entry #%(number)s (a re-entry): the bust of #%(old)s stands.")
            % {"name": e.player.display_name, "number": live.number, "old": e.number},
            code="reentered",
            status=409,
        )
    place, key = e.finish_place, e.bust_hand
    group_best = None
    if key:
        group_best = Entry.objects.filter(tournament=t, bust_hand=key, status=Entry.Status.BUSTED).aggregate(best=Min("finish_place"))[
            "best"
        ]
    if not reactions.react(FIXED_PLACE, tournament=t, entry=e):  # a deal's places never move
        busted = Entry.objects.filter(tournament=t, status=Entry.Status.BUSTED, finish_place__lt=place)
        busted.filter(finish_place_low__isnull=False).update(finish_place_low=F("finish_place_low") + 1)
        busted.update(finish_place=F("finish_place") + 1)
    eliminations.end_standing(t, e, Elimination.Status.UNDONE)  # the bounties made of it follow (payouts' reaction)
    e.status, e.busted_at, e.finish_place, e.finish_place_low = Entry.Status.ACTIVE, None, None, None
    e.bust_stack, e.bust_hand = None, ""
    e.save(update_fields=["status", "busted_at", "finish_place", "finish_place_low", "bust_stack", "bust_hand"])
    same_hand = _rank_group(t, actor=actor, key=key, best_place=group_best + 1) if key and group_best is not None else []
    seat = reseat_after_undo(t, actor=actor, entry=e)
    record_event(
        t,
        actor=actor,
        type_=type_,
        payload={
            "entry": e.number,
            "name": e.player.display_name,
            "place": place,
            "same_hand": same_hand,
            "entries": sorted({e.number, *(b["entry"] for b in same_hand)}),
            "table": seat.table.number if seat else None,
            "seat": seat.seat if seat else None,
            **(extra or {}),
        },
    )
    reactions.react(BUST_UNDONE, actor=actor, tournament=t, entry=e)
    if seat is not None:
        rebalance(t, actor=actor, entry=e)  # one more player: a break may no longer be due, or a table is now the fullest
    return e


# --- disqualification (TDA 51, club 1): the chips leave play, no refund, a place by the house's rule ---------------


def _disqualification(t: Tournament, e: Entry) -> Penalty | None:
    return Penalty.objects.filter(tournament=t, entry=e, kind=Penalty.Kind.DISQUALIFIED, cancelled_at__isnull=True).first()


def _dq_chips(t: Tournament, e: Entry, chips) -> int:
    """The chips taken out of play: the count the floor gives, else the player's last count."""
    if chips is None or chips == "":
        last = ChipCount.objects.filter(tournament=t, entry=e, current=True).first()
        if last is None:
            raise ServiceError(
                _("Entry #%(number)s has no chip count on record: count his chips and give the count.") % {"number": e.number},
                code="count_required",
            )
        return last.chips
    try:
        value = int(chips)
    except (TypeError, ValueError):
        value = -1
    if value < 0 or value > MAX_STACK or isinstance(chips, bool) or (isinstance(chips, float) and chips != value):
        raise ServiceError(_("Give the disqualified player's chips as a whole number (0 or more)."), code="bad_chips")
    return value


def _within_play(t: Tournament, e: Entry, removed: int) -> None:
    """A disqualified player cannot hold more chips than are in play, less one chip for every other player still in
    (a player in play holds chips): a count above that is a miscount, refused before any chip leaves play."""
    others = Entry.objects.filter(tournament=t, status=Entry.Status.ACTIVE).exclude(pk=e.pk).count()
    most = max(chips_in_play(t) - others, 0)
    if removed > most:
        raise ServiceError(
            _(
                "Entry #%(number)s cannot hold %(chips)s chips: %(in_play)s are in play and the %(others)s "
                "other players still in hold at least one each, so at most %(most)s. Count his chips again."
            )
            % {"number": e.number, "chips": removed, "in_play": chips_in_play(t), "others": others, "most": most},
            code="more_than_in_play",
            status=409,
        )


@transaction.atomic
def disqualify(
    t: Tournament,
    *,
    actor: Actor,
    reason: str,
    entry_number: int | None = None,
    table: int | None = None,
    seat: int | None = None,
    chips=None,
) -> Penalty:
    """The floor disqualifies a seated player, named by his entry number or his table and seat, with a reason. His
    chips leave play (the count given, else his last count), nothing is refunded (his receipts stay paid; a busted
    entry's receipts cannot be voided), and he leaves play with a place by the house rule `disqualified_place`:
    "last" (TDA) — the number of players still in, below anyone who busts in the hand in play (he joins no hand);
    "bust" — a bust of the hand in play, placed by his chips against the others busted in it. It is a penalty on
    his record (kind "dq"), cancelled only by reinstating him (`reinstate`)."""
    require(actor, roles.PENALTIES)
    t = lock_tournament(t.pk)
    text = clean_penalty_reason(reason)
    entry, held = offender(t, entry_number, table, seat)
    e = _playing(t, entry.pk)
    removed = _dq_chips(t, e, chips)
    _within_play(t, e, removed)
    players = Seat.objects.filter(table=held.table, ended_at__isnull=True).count()
    penalty = Penalty.objects.create(
        tournament=t,
        number=next_number(Penalty.objects.filter(tournament=t)),
        entry=e,
        kind=Penalty.Kind.DISQUALIFIED,
        players_at_table=players,
        hands=0,
        table_number=held.table.number,
        seat=held.seat,
        reason=text,
        chips=removed,
        given_at=timezone.now(),
        given_by=actor_user(actor),
    )
    adjust_chips(
        t,
        kind=ChipAdjustment.Kind.DISQUALIFIED,
        amount=-removed,
        table=held.table.number,
        created_at=penalty.given_at,
        created_by=actor_user(actor),
    )
    rule = house_rules(t).disqualified_place
    _out(
        e,
        actor=actor,
        t=t,
        stack=removed,
        in_hand=rule == "bust",
        type_="entry.disqualified",
        extra={"penalty": penalty.number, "reason": text, "chips": removed, "place_rule": rule},
    )
    return penalty


@transaction.atomic
def reinstate(t: Tournament, *, actor: Actor, number: int, reason: str) -> Penalty:
    """A disqualification given in error: the penalty is cancelled with the reason, the chips taken out come back
    into play, and the player plays again as after an undone bust (his seat if still free, else the late-entry
    draw; the players placed below him since move one place down)."""
    require(actor, roles.PENALTIES)
    t = lock_tournament(t.pk)
    text = clean_penalty_reason(reason)
    penalty = Penalty.objects.select_for_update().filter(tournament=t, number=number).first()
    if penalty is None or penalty.kind != Penalty.Kind.DISQUALIFIED:
        raise ServiceError(_("There is no disqualification #%(number)s.") % {"number": number}, code="not_found", status=404)
    if penalty.cancelled_at is not None:
        raise ServiceError(_("Penalty #%(number)s is already cancelled.") % {"number": number}, code="already_cancelled", status=409)
    e = Entry.objects.select_for_update().select_related("player").get(pk=penalty.entry_id)
    penalty.cancelled_at, penalty.cancelled_by, penalty.cancel_reason = timezone.now(), actor_user(actor), text
    penalty.save(update_fields=["cancelled_at", "cancelled_by", "cancel_reason"])
    adjust_chips(
        t,
        kind=ChipAdjustment.Kind.DISQUALIFIED,
        amount=penalty.chips or 0,
        table=penalty.table_number,
        created_at=penalty.cancelled_at,
        created_by=actor_user(actor),
    )
    _back_in(e, actor=actor, t=t, type_="entry.reinstated", extra={"penalty": penalty.number, "reason": text, "chips": penalty.chips or 0})
    return penalty
