"""Small reads of the tables' state that services and screens share. Nothing here writes."""

from __future__ import annotations

from django.db.models import Exists, OuterRef, Q
from django.utils import timezone
from django.utils.translation import gettext as _

from clock.models import ClockState
from clock.rules import timeline as tl
from clock.selectors.clock import anchor_of, rows_of
from core.errors import ServiceError
from core.search import words_of
from tables.models import ClockCall, ColorUp, Draw, HandForHand, HandStart, HouseRules, Move, Penalty, Seat, SeatRequest, Table
from tables.rules import balancing as bal
from tables.rules import chip_race, missed_hands, seating
from tournament.models import AuditEvent, Entry, Level, Player, Tournament


def live_seats(tournament: Tournament):
    return Seat.objects.filter(tournament=tournament, ended_at__isnull=True)


def reserved_seats(t: Tournament, table_ids: list[int] | None) -> list[tuple[int, int]]:
    """Seats held for players on their way: the destinations of pending move slips (at these tables; None: at any, the
    few slips of the tournament read by its index rather than an IN list of a festival's thousand tables)."""
    slips = Move.objects.filter(tournament=t, status=Move.Status.PENDING)
    if table_ids is not None:
        slips = slips.filter(to_table_id__in=table_ids)
    return list(slips.values_list("to_table_id", "to_seat"))


def seated_entry(t: Tournament, number: int, not_seated: str) -> tuple[Entry, Seat]:
    """The entry of this number and the seat it holds in play (its table read with it); refused (404) when there is
    no such entry, (409, `not_seated`: the message, with %(number)s) when it holds no seat in play."""
    entry = Entry.objects.select_related("player").filter(tournament=t, number=number).first()
    if entry is None:
        raise ServiceError(_("There is no entry #%(number)s in this tournament.") % {"number": number}, code="not_found", status=404)
    held = live_seats(t).select_related("table").filter(entry=entry).first()
    if entry.status != Entry.Status.ACTIVE or held is None:
        raise ServiceError(str(not_seated) % {"number": number}, code="not_seated", status=409)
    return entry, held


def seat_of(entry: Entry) -> Seat | None:
    return Seat.objects.select_related("table").filter(entry=entry, ended_at__isnull=True).first()


def entries_named(t: Tournament, query: str, limit: int = 20) -> tuple[list[dict], int]:
    """This tournament's active entries whose player's name holds every word of the query, ignoring case
    and accents ("novak" finds Novák), with where each sits now (table and seat None without a seat):
    the first `limit` by table and seat (the unseated last), and how many match in all."""
    if not words_of(query):
        return [], 0
    entries = Entry.objects.filter(tournament=t, status=Entry.Status.ACTIVE, player__in=Player.objects.named(query))
    found = {
        number: {"entry": number, "name": Player.name_of(*name), "table": None, "seat": None}
        for number, *name in entries.values_list("number", "player__first_name", "player__last_name", "player__nickname")
    }
    for number, table, seat in live_seats(t).filter(entry__number__in=list(found)).values_list("entry__number", "table__number", "seat"):
        found[number].update(table=table, seat=seat)
    rows = sorted(found.values(), key=lambda r: (r["table"] is None, r["table"] or 0, r["seat"] or 0, r["entry"]))
    return rows[:limit], len(rows)


def start_drawn(tournament: Tournament) -> bool:
    return Draw.objects.filter(tournament=tournament, kind=Draw.Kind.START).exists()


def tie_orders(tournament: Tournament) -> dict[frozenset, list[int]]:
    """Set of tied entries -> the order in which they get the odd units of the prizes they share
    (the latest tie draw of that set; tables/services/draws.draw_tie_order)."""
    rows = Draw.objects.filter(tournament=tournament, kind=Draw.Kind.TIE, drawn_at__isnull=False).order_by("number")
    return {frozenset(inputs["entries"]): result["order"] for inputs, result in rows.values_list("inputs", "result")}


def pending_commitment(tournament: Tournament) -> dict | None:
    draw = Draw.objects.filter(tournament=tournament, drawn_at__isnull=True).first()
    return None if draw is None else {"draw": draw.number, "commitment": draw.commitment}


def break_order(tournament: Tournament) -> list[int]:
    return list(
        Table.objects.filter(tournament=tournament, in_play=True).order_by("break_order", "number").values_list("number", flat=True)
    )


def needs_of(t: Tournament, entries) -> dict[int, seating.Need]:
    """The special needs of the given entries (anything with `number` and `player_id`), by entry number.
    One query for the tournament's live requests (a handful), not an IN list of every entry's player."""
    requests = {
        player: seating.Need(table=table, seat=seat, accessible=accessible)
        for player, table, seat, accessible in SeatRequest.objects.filter(tournament=t, cancelled_at__isnull=True).values_list(
            "player_id", "table_number", "seat", "accessible"
        )
    }
    if not requests:
        return {}
    return {entry.number: requests[entry.player_id] for entry in entries if entry.player_id in requests}


def clock_level_index(tournament: Tournament, rows: list[tl.Row] | None = None, at=None) -> int:
    """The row of the level announced by now: the level a hand that starts now is played at."""
    rows = rows if rows is not None else rows_of(tournament)
    index = clock_row_index(tournament, rows, at)
    return tl.level_in_force(rows, 0) if index is None else tl.level_in_force(rows, index)


def clock_row_index(tournament: Tournament, rows: list[tl.Row], at=None) -> int | None:
    """The row the clock is on now, a break included; before the clock runs, the tournament's current
    level (None when it names no row)."""
    clock = ClockState.objects.filter(tournament=tournament).first()
    anchor = anchor_of(clock) if clock is not None else None
    if anchor is None:
        return next((i for i, row in enumerate(rows) if row.number == tournament.current_level), None)
    at = at or timezone.now()
    return tl.position_at(rows, anchor, at.timestamp()).index


def level_in_play(table: Table, clock_index: int) -> int:
    """A table that reports its hands plays the level of its last first shuffle; one that does not
    (or has not yet) follows the clock."""
    if table.sends_hand_signals and table.hand_level_index is not None:
        return table.hand_level_index
    return clock_index


def house_rules(t: Tournament) -> HouseRules:
    """The tournament's house rules; the defaults (not stored: reading never writes) when none are set."""
    rules = HouseRules.objects.filter(tournament=t).first()
    if rules is None:
        rules = HouseRules(tournament=t, halt_short_by=2 if t.seats_per_table <= 6 else 3)
    return rules


HOUSE_FIELDS = (
    "balance_threshold",
    "halt_short_by",
    "donor",
    "redraw_at_three",
    "redraw_at_two",
    "hand_for_hand_seconds",
    "hand_for_hand_ties",
    "race_rounding",
    "race_protection",
    "race_protected_first",
    "public_chip_counts",
    "clock_call_seconds",
    "disqualified_place",
    "dealer_busts",
)


def house_rules_json(rules: HouseRules) -> dict:
    return {name: getattr(rules, name) for name in HOUSE_FIELDS}


def race_rules(t: Tournament) -> chip_race.RaceRules:
    rules = house_rules(t)
    return chip_race.RaceRules(rounding=rules.race_rounding, protection=rules.race_protection, protected_first=rules.race_protected_first)


def in_play_before(t: Tournament, level: int) -> list[int]:
    """The denominations in play at a row of the structure: all, less those colored up at earlier
    confirmed color-ups (or, where none was confirmed, by the structure's breaks)."""
    confirmed = {c.level: c.leaving for c in ColorUp.objects.filter(tournament=t, level__lt=level)}
    in_play = sorted(t.structure.denominations.values_list("value", flat=True))
    for position, planned in Level.objects.filter(structure=t.structure, position__lt=level, kind=Level.Kind.BREAK).values_list(
        "position", "color_up"
    ):
        gone = set(confirmed.get(position, planned))
        in_play = [v for v in in_play if v not in gone]
    return in_play


def denominations_in_play(t: Tournament) -> list[int]:
    """The chip set's denominations the room still plays with: all, less those of every color-up the director
    confirmed (what the room did, not the structure's plan: a planned color-up the room skipped leaves its chips in
    play), smallest first."""
    gone = {v for leaving in ColorUp.objects.filter(tournament=t).values_list("leaving", flat=True) for v in leaving}
    return [v for v in sorted(t.structure.denominations.values_list("value", flat=True)) if v not in gone]


def latest_color_up(t: Tournament) -> ColorUp | None:
    """The color-up of the latest break the director confirmed: the one the tables race for now."""
    return ColorUp.objects.filter(tournament=t).order_by("-level").first()


def removed_denominations(t: Tournament, color_up: ColorUp | None) -> list[int]:
    """The chip set's denominations out of play after `color_up` (none without one), smallest first."""
    values = sorted(t.structure.denominations.values_list("value", flat=True))
    return [] if color_up is None else [v for v in values if v not in color_up.staying]


def with_color_ups(t: Tournament, clock: dict) -> dict:
    """A clock snapshot whose break rows say what the director confirmed: the chips that leave (which may
    differ from the structure's plan) and `color_up_confirmed`. The screens show "Color-up: ..." from it."""
    rows = clock.get("rows")
    confirmed = dict(ColorUp.objects.filter(tournament=t).values_list("level", "leaving"))
    if rows and confirmed:
        positions = structure_positions(t)
        for index, position in enumerate(positions[: len(rows)]):
            if position in confirmed:
                rows[index] = {**rows[index], "color_up": confirmed[position], "color_up_confirmed": True}
    return clock


def levels_before(t: Tournament) -> dict[int, int]:
    """Each row of the structure by its `Level.position` -> the number of the last level at or before it:
    a level's own number, and for a break the level it follows. The floor names a break as the structure
    editor and the clock number the levels around it, "the break after level 4", never by its row (a
    structure never starts with a break)."""
    out, number = {}, 0
    for position, kind in Level.objects.filter(structure_id=t.structure_id).order_by("position").values_list("position", "kind"):
        number += kind != Level.Kind.BREAK
        out[position] = number
    return out


def structure_positions(t: Tournament) -> list[int]:
    """The structure's rows by their `Level.position` (a color-up names its break by it), in clock order:
    the clock's row index i is positions[i]."""
    return list(Level.objects.filter(structure_id=t.structure_id).order_by("position").values_list("position", flat=True))


def clock_position(t: Tournament, rows: list[tl.Row]) -> int | None:
    """The `Level.position` of the row the clock is on (a break included), None before any row."""
    index = clock_row_index(t, rows)
    positions = structure_positions(t)
    return positions[index] if index is not None and index < len(positions) else None


def rule_settings(rules: HouseRules) -> bal.Settings:
    return bal.Settings(threshold=rules.balance_threshold, halt_short_by=rules.halt_short_by, donor=rules.donor)


# The floor's notices about balancing; the latest stands until the next (balance.clear ends it).
BALANCING_NOTICES = ("balance.no_move", "balance.blocked", "balance.failed", "balance.clear")
REDRAW_WAITS = "redraw_waits"  # a redraw due waits for the hands in play (moves.redraw_waits)


def balancing_notice(t: Tournament) -> dict | None:
    """The notice standing now: why balancing moves nobody although the tables are out of balance
    (no legal move, a draw that cannot be made, a software error). None when there is none."""
    last = AuditEvent.objects.filter(tournament=t, type__in=BALANCING_NOTICES).order_by("-seq").first()
    if last is None or last.type == "balance.clear":
        return None
    return {"type": last.type, "seq": last.seq, "at": last.at.isoformat(), **last.payload}


def redraw_waiting(t: Tournament) -> dict | None:
    """The notice of a redraw due that waits for the hands in play to be reported done, if it stands."""
    notice = balancing_notice(t)
    return notice if notice is not None and notice.get("reason") == REDRAW_WAITS else None


WAIT_FOR_HAND = (Move.Kind.BALANCE, Move.Kind.BREAK)  # the slips that wait for the hand in play at their table


def after_hand(move: Move) -> bool:
    """A move out of a table in a hand, a balancing move (TDA 8A) or a table that breaks (TDA 7: its hand
    is played out), waits for the hand to end."""
    return move.from_table.hand_in_progress and move.kind in WAIT_FOR_HAND


def slip(move: Move) -> dict:
    return {
        "move": move.number,
        "kind": move.kind,
        "entry": move.entry.number,
        "name": move.entry.player.display_name,
        "from": {"table": move.from_table.number, "seat": move.from_seat},
        "to": {"table": move.to_table.number, "seat": move.to_seat},
        "position": move.position,
        "status": move.status,
        "created_at": move.created_at.isoformat(),
        "after_hand": after_hand(move),
    }


def pending_moves(t: Tournament) -> list[dict]:
    moves = (
        Move.objects.filter(tournament=t, status=Move.Status.PENDING)
        .select_related("entry__player", "from_table", "to_table")
        .order_by("number")
    )
    return [slip(m) for m in moves]


def hand_for_hand(t: Tournament) -> HandForHand | None:
    """Hand-for-hand under way, or None (a read: the services lock it themselves, tables/services/handforhand.py)."""
    return HandForHand.objects.filter(tournament=t, ended_at__isnull=True).first()


def playing_tables(t: Tournament) -> list[Table]:
    """The tables in play with players at them."""
    with_players = set(Seat.objects.filter(tournament=t, ended_at__isnull=True).values_list("table_id", flat=True))
    return [table for table in Table.objects.filter(tournament=t, in_play=True).order_by("number") if table.pk in with_players]


def breaking_tables(t: Tournament) -> set[int]:
    """The ids of the tables breaking now: their players hold pending break slips. Nobody new sits there."""
    return set(Move.objects.filter(tournament=t, status=Move.Status.PENDING, kind=Move.Kind.BREAK).values_list("from_table_id", flat=True))


def clock_state(t: Tournament) -> str:
    return ClockState.objects.filter(tournament=t).values_list("status", flat=True).first() or ClockState.Status.NOT_STARTED


def lobby_state(h: HandForHand | None) -> dict:
    """What the lobby screens show: on or off, and the hand being played."""
    if h is None or h.ended_at is not None:
        return {"on": False, "hand": None}
    return {"on": True, "hand": h.hand if h.called else None}


def waiting(t: Tournament, h: HandForHand) -> list[int]:
    """The tables of the called hand that have not reported it done; a table broken meanwhile (its
    players moved) is not waited for."""
    if not h.called:
        return []
    in_play = set(Table.objects.filter(tournament=t, in_play=True, number__in=h.tables).values_list("number", flat=True))
    return [n for n in h.tables if n in in_play and n not in h.reported]


def balance_move_out_pending(table: Table) -> bool:
    """Whether a player of this table holds a balance or break slip: the phone says whether the move comes
    after the hand in play (public_seats), so the table's hand starting or ending changes that answer."""
    return Move.objects.filter(from_table=table, status=Move.Status.PENDING, kind__in=WAIT_FOR_HAND).exists()


def breaking_message(number: int) -> str:
    """What the tablet and a refused new hand say at a table that breaks."""
    return _("Table %(number)s is breaking: no new hand here. Its players move to the seats on their slips.") % {"number": number}


def hands_dealt_since(penalty: Penalty) -> int:
    """The hands started (and not undone) at the player's table after the penalty was given, at whatever
    table he sat when each began: the hands he sits out (TDA 51)."""
    seated = Seat.objects.filter(entry_id=penalty.entry_id, table=OuterRef("table"), seated_at__lte=OuterRef("at")).filter(
        Q(ended_at__isnull=True) | Q(ended_at__gt=OuterRef("at"))
    )
    return (
        HandStart.objects.filter(table__tournament_id=penalty.tournament_id, undone_at__isnull=True, at__gt=penalty.given_at)
        .filter(Exists(seated))
        .count()
    )


def penalty_served(penalty: Penalty) -> int:
    """The hands of the penalty served so far (never more than it gives): none for a warning."""
    if penalty.hands == 0:
        return 0
    return missed_hands.served(penalty.hands, hands_dealt_since(penalty))


CLOCK_CALL_COUNTDOWN = 10  # the last seconds of a clock call, counted down large on the tablet (TDA 25)


def clock_call_running(call: ClockCall, now=None) -> bool:
    """The player's time is not up yet."""
    return (now or timezone.now()) < call.ends_at


def open_clock_call(table: Table) -> ClockCall | None:
    return ClockCall.objects.select_related("table", "entry__player").filter(table=table, ended_at__isnull=True).first()


def clock_call_json(call: ClockCall | None, now=None) -> dict | None:
    """A clock call as the tablet and the map show it: who, when it ends (the screens count down against the
    server's time), whether time is up, how it ended."""
    if call is None:
        return None
    now = now or timezone.now()
    return {
        "call": call.number,
        "table": call.table.number,
        "seat": call.seat,
        "entry": call.entry.number,
        "name": call.entry.player.display_name,
        "seconds": call.seconds,
        "countdown": CLOCK_CALL_COUNTDOWN,
        "started_at": call.started_at.isoformat(),
        "ends_at": call.ends_at.isoformat(),
        "time_up": not clock_call_running(call, now),
        "ended_at": call.ended_at.isoformat() if call.ended_at else None,
        "outcome": call.outcome or None,
    }


def open_clock_calls(t: Tournament) -> dict[str, dict]:
    """Every open clock call of the room, by table number (the map's badges), in one query."""
    now = timezone.now()
    return {
        str(call.table.number): clock_call_json(call, now)
        for call in ClockCall.objects.select_related("table", "entry__player").filter(tournament=t, ended_at__isnull=True)
    }
