"""A bust and its undo: the seat freed, the finishing place, the places of a hand's busts by the
tie rules, then balancing and hand-for-hand.

Places: a bust takes the number of players left before it (players left after it + 1); players
busted in the same hand share or split their places by tables/places.py (WSOP R126); an undone bust
moves those busted after it one place down. The apps above react to ENTRY_BUSTED and BUST_UNDONE
(core.reactions) in the same transaction."""
from __future__ import annotations

from django.db import transaction
from django.db.models import F, Min
from django.utils import timezone
from django.utils.translation import gettext as _

from core import reactions, roles
from core.actor import Actor
from core.errors import ServiceError, require
from tournament.audit import lock_tournament, record_event
from tournament.models import Entry, Tournament

from . import places
from .draws import draw_tie_order
from .handforhand import bust_group
from .models import Seat
from .moves import after_seat_freed, rebalance
from .seats import free_seat, reseat_after_undo
from .selectors import house_rules

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
        raise ServiceError(_("Give the chips the player had at the start of the hand as a whole number (0 or more)."),
                           code="bad_stack")
    return value


def _bust_table(entries: list[Entry]) -> dict[int, int]:
    """Entry id -> the table (id) it busted at."""
    return dict(Seat.objects.filter(entry__in=entries, end_reason=Seat.End.BUST).values_list("entry_id", "table_id"))


def _rank_group(t: Tournament, *, actor: Actor, key: str, best_place: int) -> list[dict]:
    """Give the busts of one hand (`key`) their places by the tie rules (tables/places.py): they
    take the places from best_place down; players who tie get a draw for the odd units of the prizes
    they share (tables/draws.draw_tie_order). Returns the places for the event."""
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
    return [{"entry": e.number, "place": e.finish_place, "place_low": e.finish_place_low or e.finish_place}
            for e in sorted(members, key=lambda e: (e.finish_place, e.number))]


def _join_hand(t: Tournament, key: str, place: int) -> tuple[int | None, list[int]]:
    """The place a bust of hand `key` starts from when others of that hand are out already (None: it is the
    first of its hand). The players of one hand were out together, when the first of them was: busts the
    floor entered in between, at other tables, came after that hand, so they finish above all of its
    players and move up one place; this bust takes the place just above the hand's block, which is then
    ranked by the tie rules. Returns that place and the entries moved up."""
    best = Entry.objects.filter(tournament=t, bust_hand=key, status=Entry.Status.BUSTED).aggregate(
        best=Min("finish_place"))["best"]
    if best is None:
        return None, []
    between = Entry.objects.filter(tournament=t, status=Entry.Status.BUSTED, finish_place__gt=place, finish_place__lt=best)
    moved = sorted(between.values_list("number", flat=True))
    if moved:
        between.filter(finish_place_low__isnull=False).update(finish_place_low=F("finish_place_low") - 1)
        between.update(finish_place=F("finish_place") - 1)
    return best - 1, moved


@transaction.atomic
def bust_entry(entry: Entry, *, actor: Actor, stack=None) -> Entry:
    """A player is out: the seat is freed and the finishing place is the number of players left
    before the bust (players left after it + 1). A second tablet busting the same entry is refused.

    `stack`, the chips the player had at the start of the hand, orders players busted in the same
    hand: at one table the larger stack finishes higher and equal stacks tie; in a hand-for-hand
    hand, players at different tables tie (or go by stack: house setting). It is required in a
    hand-for-hand hand."""
    require(actor, roles.BUST)
    stack = _check_stack(stack)
    t = lock_tournament(entry.tournament_id)
    e = Entry.objects.select_for_update().select_related("player").get(pk=entry.pk)
    if e.status != Entry.Status.ACTIVE:
        raise ServiceError(_("Entry #%(number)s is not playing; it may have been busted already.") % {"number": e.number},
                           code="entry_not_active", status=409)
    place = Entry.objects.filter(tournament=t, status=Entry.Status.ACTIVE).count()
    seat = free_seat(t, e, "bust")  # a refusal below rolls it back with the transaction
    key, h4h = bust_group(t, seat.table if seat else None)
    if h4h is not None and stack is None:
        raise ServiceError(_("Hand-for-hand: give the chips the player had at the start of the hand (players busted "
                             "in the same hand are placed by them)."), code="stack_required")
    fixed = reactions.react(FIXED_PLACE, tournament=t, entry=e)
    joined, moved_up = _join_hand(t, key, place) if stack is not None and key and not fixed else (None, [])
    grouped = joined is not None
    e.status, e.busted_at = Entry.Status.BUSTED, timezone.now()
    e.finish_place, e.finish_place_low = fixed.get("place", joined or place), fixed.get("place_low")
    e.bust_stack, e.bust_hand = stack, key if stack is not None and not fixed else ""
    e.save(update_fields=["status", "busted_at", "finish_place", "finish_place_low", "bust_stack", "bust_hand"])
    same_hand = _rank_group(t, actor=actor, key=key, best_place=joined) if grouped else []
    e.refresh_from_db(fields=["finish_place", "finish_place_low"])
    record_event(t, actor=actor, type_="entry.busted", payload={
        "entry": e.number, "name": e.player.display_name, "place": e.finish_place,
        "place_low": e.finish_place_low or e.finish_place, "stack": stack, "same_hand": same_hand,
        "moved_up": moved_up, "entries": sorted({e.number, *(b["entry"] for b in same_hand), *moved_up}),
        "table": seat.table.number if seat else None, "seat": seat.seat if seat else None,
    })
    reactions.react(ENTRY_BUSTED, actor=actor, tournament=t, entry=e)
    after_seat_freed(t, actor=actor, entry=e)
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
    live = Entry.objects.filter(tournament=t, player=e.player, status=Entry.Status.ACTIVE).first()
    if live is not None:
        raise ServiceError(_("%(name)s plays again on entry #%(number)s (a re-entry): the bust of #%(old)s stands.")
                           % {"name": e.player.display_name, "number": live.number, "old": e.number},
                           code="reentered", status=409)
    place, key = e.finish_place, e.bust_hand
    group_best = None
    if key:
        group_best = Entry.objects.filter(tournament=t, bust_hand=key, status=Entry.Status.BUSTED).aggregate(
            best=Min("finish_place"))["best"]
    if not reactions.react(FIXED_PLACE, tournament=t, entry=e):  # a deal's places never move
        busted = Entry.objects.filter(tournament=t, status=Entry.Status.BUSTED, finish_place__lt=place)
        busted.filter(finish_place_low__isnull=False).update(finish_place_low=F("finish_place_low") + 1)
        busted.update(finish_place=F("finish_place") + 1)
    e.status, e.busted_at, e.finish_place, e.finish_place_low = Entry.Status.ACTIVE, None, None, None
    e.bust_stack, e.bust_hand = None, ""
    e.save(update_fields=["status", "busted_at", "finish_place", "finish_place_low", "bust_stack", "bust_hand"])
    same_hand = _rank_group(t, actor=actor, key=key, best_place=group_best + 1) if key and group_best is not None else []
    seat = reseat_after_undo(t, actor=actor, entry=e)
    record_event(t, actor=actor, type_="entry.bust_undone", payload={
        "entry": e.number, "name": e.player.display_name, "place": place, "same_hand": same_hand,
        "entries": sorted({e.number, *(b["entry"] for b in same_hand)}),
        "table": seat.table.number if seat else None, "seat": seat.seat if seat else None,
    })
    reactions.react(BUST_UNDONE, actor=actor, tournament=t, entry=e)
    if seat is not None:
        rebalance(t, actor=actor, entry=e)  # one more player: a break may no longer be due, or a table is now the fullest
    return e

