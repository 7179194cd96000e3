"""Balancing and breaking tables (TDA 7, 8A), move slips, redraws and the house rules that steer them:
the services on top of the pure rules in tables/rules/balancing.py and tables/rules/positions.py.

After every bust (and on demand) the room is read in a constant number of queries, the rules decide
nothing, one move, a table break or a redraw, and each move is written as a pending move slip with
its destination seat reserved. The floor confirms a slip when the player sits (the player's seat
moves, chips travel with the player) or cancels it. Every caller holds the tournament lock, so two
busts at once are decided one after the other; the database's partial unique constraints refuse a
second pending move of one entry or to one seat even so.
"""

from __future__ import annotations

import logging

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from core import roles
from core.actor import Actor
from core.errors import ServiceError, clean_reason, require
from tables.models import Move, Seat, Table
from tables.rules import balancing as bal
from tables.selectors.state import REDRAW_WAITS, balancing_notice, house_rules, rule_settings, slip
from tables.services import venue
from tables.services.breaks import break_table, redraw, take_in_nobody
from tables.services.handforhand import call_next
from tables.services.room import TableRow, announce, balancing_tables, cancel_slip, close_slip, create_slip, read_room
from tournament.models import Entry, Tournament
from tournament.services.audit import actor_user, lock_tournament, record_event

logger = logging.getLogger(__name__)

MAX_STEPS = 50  # moves decided after one event; a bust needs one, a break one per player


def flag_halts(t: Tournament, *, actor: Actor, tables: dict[int, TableRow] | None = None) -> list[int]:
    """Store which tables must halt (TDA24 R11-D), tell the tables whose flag changed. `tables`: the room as read by the caller."""
    rules, room = house_rules(t), tables or read_room(t)
    # A button is asked only where two play: at a table left with one (busts, moves out) there is none to enter.
    Table.objects.filter(tournament=t, needs_button=True, number__in=[r.number for r in room.values() if len(r.occupied) < 2]).update(
        needs_button=False
    )
    # Counted as they sit: a table waiting for a player on the way is short until the player sits.
    states = [
        bal.TableState(number=row.number, seats=row.seats, occupied=frozenset(row.occupied), break_order=row.break_order)
        for row in balancing_tables(room)
    ]
    now_halted = set(bal.halted(states, rule_settings(rules)))
    was = set(Table.objects.filter(tournament=t, halted=True).values_list("number", flat=True))
    if now_halted != was:
        Table.objects.filter(tournament=t, number__in=now_halted - was).update(halted=True)
        Table.objects.filter(tournament=t, number__in=was - now_halted).update(halted=False)
        record_event(
            t, actor=actor, type_="tables.halted", payload={"halted": sorted(now_halted), "tables": sorted(now_halted ^ was)}, stats=False
        )
    return sorted(now_halted)


def decide(t: Tournament, *, actor: Actor) -> list[Move]:
    """Balance the room by the rules (the caller holds the tournament lock): a break when everyone
    fits at one table fewer, otherwise one move while the tables are out of balance. Returns the
    moves created. When the tables are out of balance and no move is legal, nothing moves and the
    floor gets a notice (the event log, and the map's balancing status)."""
    # The status as it stands: a reaction of the same change may have finished play or resumed it since the caller
    # read the tournament (a bust undone after a satellite stopped at its seats resumes play, then balances).
    t.refresh_from_db(fields=["status"])
    if t.status == Tournament.Status.FINISHED:  # play is over (a winner, a satellite at its seats): nobody moves
        notify(t, actor=actor, type_=None)
        return []
    rules = house_rules(t)
    settings = rule_settings(rules)
    tables = read_room(t)
    created: list[Move] = []
    redrawn = False
    blocked: dict | None = None
    for _step in range(MAX_STEPS):
        playing = balancing_tables(tables)
        if len(playing) < 2:
            break
        states = [row.state(positions=False) for row in playing]
        # The final table forms when everyone fits at it, at the tournament's final-table size; a redraw at three
        # or two tables (house rules) when the breaks due pass that count. Either goes straight to the tables left
        # after every break due, so nobody moves twice (several breaks are due at once when busts came while a
        # redraw waited for a hand in play).
        final = bal.final_table_due(states, t.final_table_size)
        left = bal.left_after_breaks(states)
        passed = range(len(left), len(playing))
        if final is not None or 3 in passed and rules.redraw_at_three or 2 in passed and rules.redraw_at_two:
            blocked = redraw_waits(playing, final=final is not None)
            if blocked is None:
                created += redraw(t, actor=actor, keep=[final] if final is not None else left)
                redrawn = True
            break
        breaking = bal.table_to_break(states) if len(playing) > 2 else None
        if breaking is not None:
            if take_in_nobody(t, actor=actor, tables=tables, breaking=tables[breaking]):
                continue  # those players stay where they sit: decide again
            if not bal.break_fits(states, breaking):
                blocked = {
                    "reason": "break_waits",
                    "tables": [breaking],
                    "message": _(
                        "Table %(table)s breaks as soon as the pending move slips free enough seats at the other tables: "
                        "confirm them, then press Balance now."
                    )
                    % {"table": breaking},
                }
                break
            created += break_table(t, actor=actor, tables=tables, breaking=tables[breaking])
            continue
        chosen = bal.pair(states, settings)  # the donor and the receiver: only their positions matter
        if isinstance(chosen, tuple):
            pair_numbers = (chosen[0].number, chosen[1].number)
            states = [tables[state.number].state() if state.number in pair_numbers else state for state in states]
        decision = bal.balance_move(states, settings)
        if decision is None:
            break
        if isinstance(decision, bal.NoMove):
            blocked = no_move_notice(decision)
            break
        if isinstance(decision, bal.NeedButton):
            # Every button the coming moves need, asked at once (and once: the flag stays until the table's
            # positions are known).
            full = [tables[row.number].state() for row in playing]
            for number in [decision.table] + [n for n in bal.buttons_needed(full, settings) if n != decision.table]:
                if Table.objects.filter(tournament=t, number=number, needs_button=False).update(needs_button=True):
                    record_event(t, actor=actor, type_="table.button_needed", payload={"table": number}, stats=False)
            break
        move = create_slip(
            t,
            actor=actor,
            kind=Move.Kind.BALANCE,
            entry_id=tables[decision.from_table].occupied[decision.from_seat],
            src=tables[decision.from_table],
            from_seat=decision.from_seat,
            dst=tables[decision.to_table],
            to_seat=decision.to_seat,
            position=decision.position,
        )
        announce(t, actor=actor, moves=[move], kind=Move.Kind.BALANCE)
        created.append(move)
    flag_halts(t, actor=actor, tables=None if redrawn else tables)
    notify(t, actor=actor, type_="balance.no_move" if blocked else None, payload=blocked)
    call_next(t, actor=actor)  # a break or a redraw may have ended the hand hand-for-hand waited for
    return created


def redraw_waits(playing: list[TableRow], *, final: bool) -> dict | None:
    """A redraw stands everyone up at once: it waits until no table is in a hand (a table that reports its hands; one
    that does not follows the clock and is never "in a hand"), so a hand in play is finished where it is dealt and
    reported done. The notice for the floor, or None when the redraw can be made now (REDRAW_WAITS)."""
    busy = sorted(row.number for row in playing if row.hand_in_progress)
    if not busy:
        return None
    tables, n = ", ".join(map(str, busy)), len(busy)
    message = (
        ngettext(
            "The final table is drawn once table %(tables)s has finished the hand in play: report it "
            "done. No new hand is dealt until then.",
            "The final table is drawn once tables %(tables)s have finished the hands in play: report them "
            "done. No new hand is dealt until then.",
            n,
        )
        if final
        else ngettext(
            "The tables are redrawn once table %(tables)s has finished the hand in play: report it done. No new hand is dealt until then.",
            "The tables are redrawn once tables %(tables)s have finished the hands in play: report them "
            "done. No new hand is dealt until then.",
            n,
        )
    ) % {"tables": tables}
    return {"reason": REDRAW_WAITS, "tables": busy, "final": final, "message": message}


def no_move_notice(decision: bal.NoMove) -> dict:
    """Why the rules move nobody although the tables are out of balance, for the floor."""
    names = {"donor": decision.donor, "receiver": decision.receiver}
    if decision.reason == bal.NO_MOVER:
        message = (
            _(
                "Table %(donor)s is the fullest, but all its players are already moving out: nobody moves until "
                "the pending slips are confirmed."
            )
            % names
        )
    else:
        message = (
            _(
                "Tables %(donor)s and %(receiver)s are out of balance, but no table short enough to take a player "
                "has an open seat: nobody moves until a seat is free (confirm or cancel the pending slips)."
            )
            % names
        )
    return {"reason": decision.reason, "tables": [decision.donor, decision.receiver], "message": message}


def notify(t: Tournament, *, actor: Actor, type_: str | None, payload: dict | None = None) -> None:
    """Tell the floor, once, that balancing is stuck and why (balance.no_move, balance.blocked,
    balance.failed), or that it no longer is (balance.clear). The latest of these events is the
    notice the map's balancing status shows."""
    standing = balancing_notice(t)
    if type_ is None:
        if standing is not None:
            record_event(t, actor=actor, type_="balance.clear", payload={}, stats=False)
        return
    if (
        standing is not None
        and standing["type"] == type_
        and all(standing.get(k) == v for k, v in (payload or {}).items() if k != "message")
    ):
        return  # the same notice stands: not again after every bust
    record_event(t, actor=actor, type_=type_, payload=payload or {}, stats=False)


def _locked_move(t: Tournament, number) -> Move:
    try:
        number = int(number)
    except (TypeError, ValueError):
        number = 0
    move = (
        Move.objects.select_for_update()
        .select_related("entry__player", "from_table", "to_table")
        .filter(tournament=t, number=number)
        .first()
    )
    if move is None:
        raise ServiceError(_("There is no move slip %(number)s.") % {"number": number}, code="no_move", status=404)
    if move.status != Move.Status.PENDING:
        raise ServiceError(_("Move slip %(number)s is closed already.") % {"number": number}, code="move_closed", status=409)
    return move


def _finish_break(t: Tournament, *, actor: Actor, table: Table, now) -> bool:
    """A breaking table whose last player has moved is broken."""
    if not Move.objects.filter(from_table=table, kind=Move.Kind.BREAK).exists():
        return False
    if Seat.objects.filter(table=table, ended_at__isnull=True).exists():
        return False
    table.in_play, table.broken_at = False, now
    table.button_seat = table.small_blind_seat = table.big_blind_seat = None
    table.save(update_fields=["in_play", "broken_at", "button_seat", "small_blind_seat", "big_blind_seat"])
    venue.give_back(t, actor=actor, tables=[table])  # back to the venue at once: free, or for the tournament that reserved it
    return True


@transaction.atomic
def confirm_move(tournament: Tournament, *, actor: Actor, number) -> Move:
    """The player sat down at the new seat: the old seat ends, the new one begins (chips travel)."""
    require(actor, roles.MOVING)
    t = lock_tournament(tournament.pk)
    move = _locked_move(t, number)
    now = timezone.now()
    seat = Seat.objects.select_for_update().filter(entry=move.entry, ended_at__isnull=True).first()
    if seat is None or (seat.table_id, seat.seat) != (move.from_table_id, move.from_seat):
        raise ServiceError(
            _("Entry #%(number)s is no longer at table %(table)s seat %(seat)s: cancel this slip.")
            % {"number": move.entry.number, "table": move.from_table.number, "seat": move.from_seat},
            code="mover_gone",
            status=409,
        )
    seat.ended_at, seat.end_reason = now, Seat.End.MOVE
    seat.save(update_fields=["ended_at", "end_reason"])
    move.status, move.closed_at, move.closed_by = Move.Status.DONE, now, actor_user(actor)
    move.save(update_fields=["status", "closed_at", "closed_by"])
    Seat.objects.create(tournament=t, entry=move.entry, table=move.to_table, seat=move.to_seat, draw=move.draw, seated_at=now)
    broken = _finish_break(t, actor=actor, table=Table.objects.select_for_update().get(pk=move.from_table_id), now=now)
    record_event(
        t,
        actor=actor,
        type_="move.done",
        payload={
            "move": slip(move),
            "entries": [move.entry.number],
            "tables": [move.from_table.number, move.to_table.number],
            "broken": move.from_table.number if broken else None,
        },
        stats=False,
        seats=[move.entry.number],
    )
    if broken or not Move.objects.filter(tournament=t, status=Move.Status.PENDING).exists():
        rebalance(t, actor=actor)  # the room as the slips left it: what waited for them (a break, a move) is decided now
    else:
        flag_halts(t, actor=actor)
    call_next(t, actor=actor)
    return move


@transaction.atomic
def cancel_move(tournament: Tournament, *, actor: Actor, number, reason: str = "") -> Move:
    """The floor cancels a slip (the reserved seat is free again). The room is not balanced again
    by itself: the floor asks for it ("Balance now") when the cause is fixed."""
    require(actor, roles.MOVING)
    t = lock_tournament(tournament.pk)
    move = _locked_move(t, number)
    reason = clean_reason(reason, Move, "cancel_reason")
    cancel_slip(t, actor=actor, move=move, reason=reason or "cancelled", note=reason)
    tables = read_room(t)
    flag_halts(t, actor=actor, tables=tables)
    due = balance_due(t, tables)
    if due:  # not balanced again by itself (the floor fixes the cause first), but never out of balance unsaid
        notify(
            t,
            actor=actor,
            type_="balance.no_move",
            payload={
                "reason": "slip_cancelled",
                "tables": due,
                "message": _(
                    "Slip %(move)s is cancelled and tables %(tables)s are out of balance: press Balance now when the floor is ready."
                )
                % {"move": move.number, "tables": ", ".join(map(str, due))},
            },
        )
    call_next(t, actor=actor)
    return move


def balance_due(t: Tournament, tables: dict[int, TableRow]) -> list[int]:
    """The tables a redraw, a break or a move is due between now, by the counts (empty: balanced)."""
    states = [row.state(positions=False) for row in balancing_tables(tables)]
    return bal.due(states, rule_settings(house_rules(t)), t.final_table_size)


@transaction.atomic
def balance_now(tournament: Tournament, *, actor: Actor) -> list[Move]:
    """On demand: decide the moves the rules call for now."""
    require(actor, roles.MOVING)
    t = lock_tournament(tournament.pk)
    return decide(t, actor=actor)


def after_seat_freed(t: Tournament, *, actor: Actor, entry: Entry) -> list[Move]:
    """Called by a bust or a void (tournament lock held): a pending slip of that entry is void, and
    the room is balanced again. Balancing never makes the bust or the void fail: a refusal of the
    rules (a draw that cannot be made) and even a software error in them roll back only the
    balancing (a savepoint), and the floor gets a notice to check the tables and balance by hand."""
    now = timezone.now()
    for move in (
        Move.objects.select_for_update().select_related("entry", "from_table", "to_table").filter(entry=entry, status=Move.Status.PENDING)
    ):
        close_slip(move, actor=actor, reason="busted", now=now)
    return rebalance(t, actor=actor, entry=entry)


def rebalance(t: Tournament, *, actor: Actor, entry: Entry | None = None) -> list[Move]:
    """Balance the room after `entry` left or came back, or the rules changed (tournament lock held). Balancing never makes that
    action fail: a refusal of the rules (a draw that cannot be made) and even a software error in them roll
    back only the balancing (a savepoint), and the floor gets a notice to check the tables and balance by hand."""
    if not Seat.objects.filter(tournament=t, ended_at__isnull=True).exists():
        return []
    try:
        with transaction.atomic():
            return decide(t, actor=actor)
    except ServiceError as exc:
        notify(t, actor=actor, type_="balance.blocked", payload={"message": str(exc.message), "code": exc.code})
    except Exception as exc:  # a defect in balancing must not undo the bust: logged, and the floor is told
        logger.exception("balancing failed after a change (entry #%s) in tournament %s", entry and entry.number, t.pk)
        notify(
            t,
            actor=actor,
            type_="balance.failed",
            payload={
                "error": type(exc).__name__,
                "message": _(
                    "Balancing failed with a software error (it is logged); nobody was moved. Check the tables and press Balance now."
                ),
            },
        )
    flag_halts(t, actor=actor)
    return []
