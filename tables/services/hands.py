"""Hand starts: the "first shuffle" signal that sets the level a table plays (club 26, TDA 20: a new
level applies from each table's next hand) and moves the button and blinds on (tables/rules/positions.py),
from the dealer tablet or an automatic shuffler; and the undo of a mistaken press."""

from __future__ import annotations

from datetime import timedelta

from django.conf import settings
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from clock.selectors.clock import day_ended, rows_of
from core import reactions, roles
from core.actor import Actor
from core.errors import ServiceError, next_number, require
from core.tokens import hash_secret
from tables.models import HandStart, Move, Table
from tables.rules import positions
from tables.rules.positions import POSITION_FIELDS
from tables.selectors.state import (
    REDRAW_WAITS,
    balance_move_out_pending,
    breaking_message,
    breaking_tables,
    clock_level_index,
    live_seats,
    redraw_waiting,
)
from tables.services import clock_calls, handforhand
from tournament.models import Tournament
from tournament.services.audit import actor_user, lock_tournament, record_event


def table_for_token(token: str) -> Table | None:
    if not token:
        return None
    return Table.objects.select_related("tournament").filter(shuffler_token_hash=hash_secret(token), in_play=True).first()


def repeated_start(table: Table, now) -> HandStart | None:
    """The hand this table started less than HAND_START_REPEAT_SECONDS ago and still plays, if any: a second
    press of the button (a shuffler's repeated signal, a retry without an Idempotency-Key) is that same hand,
    not a new one that would move the button on again. The caller holds the table's row lock."""
    window = timedelta(seconds=settings.HAND_START_REPEAT_SECONDS)
    if not table.hand_in_progress or table.hand_started_at is None or now - table.hand_started_at >= window:
        return None
    return HandStart.objects.filter(table=table, number=table.hand_number, undone_at__isnull=True).first()


def _hand_started(table: Table, *, actor: Actor, source: str) -> HandStart:
    t = lock_tournament(table.tournament_id)
    table = Table.objects.select_for_update().get(pk=table.pk)
    if not table.in_play:
        raise ServiceError(_("Table %(number)s is not in play.") % {"number": table.number}, code="table_closed", status=409)
    now = timezone.now()
    same = repeated_start(table, now)
    if same is not None:
        return same  # nothing changes: no new hand, no event
    stopped = day_ended(t.pk)
    if stopped is not None:  # the hands in play were finished; the next one is dealt when the next day starts
        raise ServiceError(
            _("Play has stopped for the day after level %(level)s: no new hand until play resumes.") % {"level": stopped},
            code="day_ended",
            status=409,
        )
    if t.status == Tournament.Status.FINISHED:  # its winner known, or a satellite at its seats (payouts' reaction)
        raise ServiceError(_("Play is over: no new hand is dealt."), code="play_over", status=409)
    waits = redraw_waiting(t)
    if waits is not None:
        raise ServiceError(waits["message"], code=REDRAW_WAITS, status=409)
    if table.pk in breaking_tables(t):  # TDA 7: its players move once the hand in play is over; none is dealt after it
        raise ServiceError(breaking_message(table.number), code="table_breaking", status=409)
    handforhand.check_hand_start(t, table)
    rows = rows_of(t)
    level_index = clock_level_index(t, rows, now)
    number = next_number(HandStart.objects.filter(table=table))
    hand = HandStart.objects.create(
        table=table,
        number=number,
        at=now,
        level_index=level_index,
        previous_level_index=table.hand_level_index,
        previous_started_at=table.hand_started_at,
        source=source,
        actor=actor_user(actor),
    )
    changed = table.hand_level_index is not None and table.hand_level_index != level_index
    previous = [*_positions_of(table), table.hand_in_progress]
    nxt = positions.following(table.seats, _dealt_in(t, table), _last_positions(table), table.button_seat if table.positions_next else None)
    hand.previous_positions = previous
    if nxt is not None:
        hand.button, hand.small_blind, hand.big_blind = nxt.button, nxt.small_blind, nxt.big_blind
        table.button_seat, table.small_blind_seat, table.big_blind_seat = nxt.button, nxt.small_blind, nxt.big_blind
        table.positions_next = table.needs_button = False
    hand.save(update_fields=["previous_positions", "button", "small_blind", "big_blind"])
    table.hand_number, table.hand_started_at, table.hand_level_index = number, now, level_index
    table.hand_in_progress = True
    table.save(update_fields=["hand_number", "hand_started_at", "hand_level_index", "hand_in_progress", *POSITION_FIELDS])
    payload = {
        "table": table.number,
        "hand": number,
        "level": rows[level_index].number,
        "level_index": level_index,
        "level_changed": changed,
        "source": source,
        "positions": nxt.as_dict() if nxt else None,
    }
    ended = clock_calls.end_at_new_hand(table, now)  # a clock called in the hand before ends with it
    if ended is not None:
        payload["clock_call_ended"] = ended
    record_event(t, actor=actor, type_="table.hand_started", payload=payload, stats=False, seats=balance_move_out_pending(table))
    return hand


def _positions_of(table: Table) -> list:
    return [table.button_seat, table.small_blind_seat, table.big_blind_seat, table.positions_next]


def _last_positions(table: Table) -> positions.Positions | None:
    """The positions of the hand in play or last played, if the software knows them."""
    if table.big_blind_seat is None or table.positions_next:
        return None
    return positions.Positions(table.button_seat, table.small_blind_seat, table.big_blind_seat)


def _dealt_in(t: Tournament, table: Table) -> list[int]:
    """The seats that count for the next hand's positions: the players seated, less those with a
    move slip out (they leave before this hand), plus the seats reserved for players on their way."""

    seated = set(live_seats(t).filter(table=table).values_list("seat", flat=True))
    pending = Move.objects.filter(tournament=t, status=Move.Status.PENDING)
    leaving = set(pending.filter(from_table=table).exclude(to_table=table).values_list("from_seat", flat=True))
    arriving = set(pending.filter(to_table=table).values_list("to_seat", flat=True))
    return sorted((seated - leaving) | arriving)


@transaction.atomic
def start_hand(table: Table, *, actor: Actor) -> HandStart:
    """The dealer's "Shuffle / new hand" button."""
    require(actor, roles.DEALING, table=table)
    source = HandStart.Source.TABLET if roles.DEALER in roles.user_roles(actor) else HandStart.Source.FLOOR
    return _hand_started(table, actor=actor, source=source)


@transaction.atomic
def start_hand_by_shuffler(token: str) -> HandStart:
    """An automatic shuffler's green button, authenticated by the table's token."""
    table = table_for_token(token)
    if table is None:
        raise ServiceError(_("Unknown or revoked shuffler token."), code="bad_token", status=403)
    return _hand_started(table, actor=f"shuffler:table {table.number}", source=HandStart.Source.SHUFFLER)


@transaction.atomic
def undo_hand_start(table: Table, *, actor: Actor) -> HandStart:
    """Undo a mistaken press: the table returns to the hand and level it had before."""
    require(actor, roles.DEALING, table=table)
    t = lock_tournament(table.tournament_id)
    table = Table.objects.select_for_update().get(pk=table.pk)
    hand = HandStart.objects.select_for_update().filter(table=table, undone_at__isnull=True).order_by("-number").first()
    if hand is None or hand.number != table.hand_number:
        raise ServiceError(_("There is no hand start to undo at this table."), code="nothing_to_undo", status=409)
    hand.undone_at = timezone.now()
    hand.save(update_fields=["undone_at"])
    handforhand.hand_start_undone(t, table)
    earlier = HandStart.objects.filter(table=table, undone_at__isnull=True, number__lt=hand.number).order_by("-number").first()
    table.hand_number = earlier.number if earlier else 0
    table.hand_started_at, table.hand_level_index = hand.previous_started_at, hand.previous_level_index
    table.hand_in_progress = earlier is not None
    if hand.previous_positions is not None:
        table.button_seat, table.small_blind_seat, table.big_blind_seat, table.positions_next = hand.previous_positions[:4]
        if len(hand.previous_positions) > 4:  # whether the hand before was still in play (not reported done)
            table.hand_in_progress = bool(hand.previous_positions[4])
    table.save(update_fields=["hand_number", "hand_started_at", "hand_level_index", "hand_in_progress", *POSITION_FIELDS])
    record_event(
        t,
        actor=actor,
        type_="table.hand_start_undone",
        payload={"table": table.number, "hand": hand.number},
        stats=False,
        seats=balance_move_out_pending(table),
    )
    if not table.hand_in_progress:
        reactions.react(handforhand.BETWEEN_HANDS, actor=actor, tournament=t)  # a redraw may have waited for it
        handforhand.call_next(t, actor=actor)  # hand-for-hand may have waited for this table's hand: it is not in play after all
    return hand
