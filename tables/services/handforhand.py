"""Hand-for-hand (TDA24 RP-8) and the "hand done" report of a table.

The director turns hand-for-hand on (the software suggests it when the next bust is the bubble).
From then on the tables play one hand at a time: a hand is *called* when every table is between
hands and no move slip is pending; each table in it starts it once (the shuffle signal) and
reports it done; when the last table has reported, the hand is complete, the house's time per hand
comes off the clock (or the clock just stands still: it is paused while hand-for-hand lasts), the
busts of the hand share their places by the tie rules (tables/rules/places.py, applied at each bust by
tables.services.busts.bust_entry) and the next hand is called as soon as the moves are made.
"""

from __future__ import annotations

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from clock.models import ClockState
from clock.services.clock import pause_clock, resume_clock, take_time
from core import reactions, roles
from core.actor import Actor
from core.errors import ServiceError, next_number, require
from tables.models import HandForHand, Move, Table
from tables.selectors.state import balance_move_out_pending, clock_state, hand_for_hand, house_rules, lobby_state, playing_tables, waiting
from tournament.models import Entry, Tournament
from tournament.services.audit import actor_user, lock_tournament, record_event

BETWEEN_HANDS = "between_hands"  # a table's hand is over (reported done, or its start undone): the tournament lock held


def _locked(t: Tournament) -> HandForHand | None:
    """Hand-for-hand under way, locked for the caller's change (the tournament lock is held)."""
    return HandForHand.objects.select_for_update().filter(tournament=t, ended_at__isnull=True).first()


@transaction.atomic
def start_hand_for_hand(tournament: Tournament, *, actor: Actor) -> HandForHand:
    """The director announces hand-for-hand: the clock stops; tables finish the hand they play;
    the first hand-for-hand hand is called once every table is between hands."""

    require(actor, roles.SETUP)
    t = lock_tournament(tournament.pk)
    if _locked(t) is not None:
        raise ServiceError(_("Hand-for-hand is on already."), code="h4h_on", status=409)
    if not playing_tables(t):
        raise ServiceError(_("No table is playing: hand-for-hand starts after the draw."), code="h4h_no_tables", status=409)
    paused = clock_state(t) == ClockState.Status.RUNNING
    if paused:
        pause_clock(t, actor=actor)
    number = next_number(HandForHand.objects.filter(tournament=t))
    h = HandForHand.objects.create(
        tournament=t,
        number=number,
        started_at=timezone.now(),
        started_by=actor_user(actor),
        paused_clock=paused,
        players_at_start=Entry.objects.filter(tournament=t, status=Entry.Status.ACTIVE).count(),
    )
    tables = [table.number for table in playing_tables(t)]
    record_event(
        t,
        actor=actor,
        type_="h4h.started",
        payload={"number": number, "players": h.players_at_start, "clock_paused": paused, "tables": tables, "h4h": lobby_state(h)},
        stats=False,
    )
    call_next(t, actor=actor, h=h)
    return h


@transaction.atomic
def stop_hand_for_hand(tournament: Tournament, *, actor: Actor) -> HandForHand:
    """The director ends hand-for-hand (the bubble has burst): the clock runs again if it ran before."""

    require(actor, roles.SETUP)
    t = lock_tournament(tournament.pk)
    h = _locked(t)
    if h is None:
        raise ServiceError(_("Hand-for-hand is not on."), code="h4h_off", status=409)
    _end(t, h=h, actor=actor, play_over=False)
    return h


def end_at_play_over(t: Tournament, *, actor: Actor) -> bool:
    """Play is over (its winner known, a satellite at its seats): hand-for-hand ends with it, no hand called any
    more and the clock left stopped. A reaction to the floor's change that ended play, in its transaction (the
    tournament lock held): no role is asked of whoever entered it. A hand called and still played ends it when
    every table has reported it (call_next): a player out in it shares its places. Returns whether it ended now."""
    h = _locked(t)
    if h is None or h.called:
        return False
    _end(t, h=h, actor=actor, play_over=True)
    return True


def _end(t: Tournament, *, actor: Actor, h: HandForHand, play_over: bool) -> None:
    h.ended_at, h.ended_by = timezone.now(), actor_user(actor)
    h.save(update_fields=["ended_at", "ended_by"])
    resumed = not play_over and h.paused_clock and clock_state(t) == ClockState.Status.PAUSED
    if resumed:
        resume_clock(t, actor=actor)
    tables = [table.number for table in Table.objects.filter(tournament=t, in_play=True).order_by("number")]
    record_event(
        t,
        actor=actor,
        type_="h4h.ended",
        payload={
            "number": h.number,
            "hands": h.hand,
            "seconds_taken": h.seconds_taken,
            "clock_resumed": resumed,
            "tables": tables,
            "h4h": lobby_state(h),
            **({"play_over": True} if play_over else {}),
        },
        stats=False,
    )


def call_next(t: Tournament, *, actor: Actor, h: HandForHand | None = None) -> bool:
    """Call the next hand-for-hand hand if every table is between hands and no slip is pending
    (the caller holds the tournament lock). Returns whether a hand was called."""
    h = h or _locked(t)
    if h is None:
        return False
    if h.called:
        if waiting(t, h):
            return False
        _complete(t, actor=actor, h=h)  # the tables still waited for have broken
        return True
    if t.status == Tournament.Status.FINISHED:  # play over while the hand was played: no next hand
        _end(t, h=h, actor=actor, play_over=True)
        return False
    tables = playing_tables(t)
    if not tables or any(table.hand_in_progress for table in tables):
        return False
    # One table (a bubble at the final table) plays hand-for-hand too: each hand is called for it alone,
    # so the busts of a hand share their places and the clock loses its time per hand.
    if Move.objects.filter(tournament=t, status=Move.Status.PENDING).exists():
        return False
    h.hand += 1
    h.called, h.tables, h.shuffled, h.reported = True, [table.number for table in tables], [], []
    h.save(update_fields=["hand", "called", "tables", "shuffled", "reported"])
    record_event(
        t,
        actor=actor,
        type_="h4h.hand_called",
        payload={"number": h.number, "hand": h.hand, "tables": h.tables, "h4h": lobby_state(h)},
        stats=False,
    )
    return True


def check_hand_start(t: Tournament, table: Table) -> HandForHand | None:
    """A table may start a hand in hand-for-hand only when the hand is called and it has not
    started it yet (tables.services.hands, tournament lock held)."""
    h = _locked(t)
    if h is None:
        return None
    if not h.called:
        raise ServiceError(
            _("Hand-for-hand: wait until every table has finished its hand and the next hand is called."), code="h4h_wait", status=409
        )
    if table.number not in h.tables:
        raise ServiceError(
            _("Hand-for-hand: table %(table)s is not in hand %(hand)s.") % {"table": table.number, "hand": h.hand},
            code="h4h_not_in_hand",
            status=409,
        )
    if table.number in h.shuffled or table.number in h.reported:
        raise ServiceError(
            _("Hand-for-hand: table %(table)s has played hand %(hand)s already; wait for the other tables.")
            % {"table": table.number, "hand": h.hand},
            code="h4h_wait",
            status=409,
        )
    h.shuffled = [*h.shuffled, table.number]
    h.save(update_fields=["shuffled"])
    return h


def hand_start_undone(t: Tournament, table: Table) -> None:
    h = _locked(t)
    if h is not None and h.called and table.number in h.reported:
        raise ServiceError(
            _("Hand-for-hand: table %(table)s has reported hand %(hand)s done; its start can no longer be undone.")
            % {"table": table.number, "hand": h.hand},
            code="h4h_reported",
            status=409,
        )
    if h is not None and h.called and table.number in h.shuffled:
        h.shuffled = [n for n in h.shuffled if n != table.number]
        h.save(update_fields=["shuffled"])


def bust_group(t: Tournament, table: Table | None) -> tuple[str, HandForHand | None]:
    """The hand a bust at `table` belongs to for the tie rules: the called hand-for-hand hand if the
    table plays it, else the table's own hand as its signals number it. (key, hand-for-hand or None)."""
    h = hand_for_hand(t)
    if h is not None and h.called and table is not None and table.number in h.tables and table.number not in h.reported:
        return f"h4h:{h.number}:{h.hand}", h
    if table is None or not table.sends_hand_signals or not table.hand_number:
        return "", None  # without hand signals the software cannot tell one hand from the next
    return f"table:{table.pk}:{table.hand_number}", None


@transaction.atomic
def hand_done(table: Table, *, actor: Actor) -> HandForHand | None:
    """A table reports its hand done ("Hand done" on the dealer tablet, or the floor for it). Returns
    hand-for-hand if it is on (tables/selectors/screens.py, hand_for_hand_status, tells where it stands)."""
    require(actor, roles.REPORTING, table=table)
    t = lock_tournament(table.tournament_id)
    table = Table.objects.select_for_update().get(pk=table.pk)
    if not table.in_play:
        raise ServiceError(_("Table %(number)s is not in play.") % {"number": table.number}, code="table_closed", status=409)
    h = _locked(t)
    in_hand = h is not None and h.called and table.number in h.tables
    if in_hand:
        if table.number in h.reported:
            raise ServiceError(
                _("Table %(table)s has reported hand %(hand)s done already.") % {"table": table.number, "hand": h.hand},
                code="h4h_reported",
                status=409,
            )
        floor = roles.has_role(actor, (roles.FLOOR,)) if not isinstance(actor, str) else False
        if table.number not in h.shuffled and table.sends_hand_signals and not floor:
            raise ServiceError(_("Start the hand first (Shuffle / new hand), then report it done."), code="h4h_not_started", status=409)
    elif not table.hand_in_progress:
        raise ServiceError(_("There is no hand in play at table %(number)s.") % {"number": table.number}, code="no_hand", status=409)
    table.hand_in_progress = False
    table.save(update_fields=["hand_in_progress"])
    payload = {"table": table.number, "hand": table.hand_number, "tables": [table.number]}
    if in_hand:
        h.reported = [*h.reported, table.number]
        h.save(update_fields=["reported"])
        payload.update({"h4h_hand": h.hand, "waiting_for": waiting(t, h)})
    record_event(t, actor=actor, type_="table.hand_done", payload=payload, stats=False, seats=balance_move_out_pending(table))
    reactions.react(BETWEEN_HANDS, actor=actor, tournament=t)  # a redraw that waited for this hand (tables.reactions)
    # Read again: a redraw made just now has completed the hand and called the next one itself (moves.decide).
    h = _locked(t)
    if h is not None and h.called and not waiting(t, h):
        _complete(t, actor=actor, h=h)
    elif h is not None and not h.called:
        call_next(t, actor=actor, h=h)
    return h


def _complete(t: Tournament, *, actor: Actor, h: HandForHand) -> None:
    """Every table has reported: the hand is over. Its time comes off the clock; the next hand is
    called unless moves are to be made first."""

    seconds = house_rules(t).hand_for_hand_seconds
    h.called = False
    taken = 0
    if seconds and clock_state(t) != ClockState.Status.NOT_STARTED:
        take_time(t, actor=actor, seconds=seconds, extra={"hand_for_hand": h.hand})
        taken = seconds
    h.seconds_taken += taken
    h.save(update_fields=["called", "seconds_taken"])
    key = f"h4h:{h.number}:{h.hand}"
    busts = [
        {"entry": number, "place": place, "place_low": low or place}
        for number, place, low in Entry.objects.filter(tournament=t, bust_hand=key, status=Entry.Status.BUSTED)
        .order_by("finish_place", "number")
        .values_list("number", "finish_place", "finish_place_low")
    ]
    record_event(
        t,
        actor=actor,
        type_="h4h.hand_complete",
        payload={
            "number": h.number,
            "hand": h.hand,
            "seconds": taken,
            "busts": busts,
            "entries": [b["entry"] for b in busts],
            "tables": h.tables,
            "h4h": lobby_state(h),
        },
    )
    call_next(t, actor=actor, h=h)
