"""Read models: what the screens and the API show, built in a constant number of queries. Nothing
here writes: the floor map, the tables' levels in play, a player's seat, the public lookup, the
verification of a draw, the balancing status and hand-for-hand as the floor and a table see them."""

from __future__ import annotations

from collections.abc import Collection
from datetime import UTC, datetime
from itertools import islice

from django.db.models import Case, CharField, Q, Value, When
from django.db.models.functions import Cast, Concat
from django.utils.translation import ngettext

from clock.selectors.clock import rows_of
from core import reactions, search
from tables.models import Draw, Move, Penalty, Seat, Table
from tables.selectors.color_ups import map_color_up, table_race
from tables.selectors.state import (
    WAIT_FOR_HAND,
    balancing_notice,
    breaking_message,
    clock_level_index,
    hand_for_hand,
    house_rules,
    level_in_play,
    live_seats,
    penalty_served,
    pending_moves,
    slip,
    waiting,
)
from tournament.models import Entry, Player, Tournament
from tournament.selectors import waiting_list


def tables_overview(tournament: Tournament) -> list[dict]:
    rows = rows_of(tournament)
    clock_index = clock_level_index(tournament, rows)
    result = []
    for table in Table.objects.filter(tournament=tournament, in_play=True).order_by("number"):
        index = level_in_play(table, clock_index)
        result.append(
            {
                "table": table.number,
                "id": table.pk,
                "seats": table.seats,
                "sends_hand_signals": table.sends_hand_signals,
                "hand": table.hand_number,
                "hand_started_at": table.hand_started_at.isoformat() if table.hand_started_at else None,
                "level_index": index,
                "level": rows[index].number if rows else None,
                "on_old_level": index != clock_index,
            }
        )
    return result


def floor_map(tournament: Tournament) -> dict:
    """Every table with its seats and players, in a constant number of queries (seven; a color-up adds five,
    whatever the number of tables): rows of values
    rather than model instances, the names put together by the database, and the break order,
    start_drawn() and pending_commitment() taken from rows read here.

    A table's status: broken or closed (not in play), empty (in play, nobody seated), full, short (it has
    players, and the fullest table has the house's balancing threshold more: balancing would move a player
    to it), open. `level` is the level number it plays (its last first shuffle, or the clock's), and
    `on_old_level` says it is still on an earlier level than the clock's."""
    tables = list(
        Table.objects.filter(tournament=tournament)
        .order_by("number")
        .values_list(
            "pk",
            "number",
            "seats",
            "in_play",
            "accessible",
            "button_seat",
            "broken_at",
            "break_order",
            "sends_hand_signals",
            "hand_level_index",
            named=True,
        )
    )
    player = "entry__player__"  # the name as Player.display_name writes it: "First Last (Nickname)"
    name = Concat(
        f"{player}first_name",
        Value(" "),
        f"{player}last_name",
        Case(When(**{f"{player}nickname": ""}, then=Value("")), default=Concat(Value(" ("), f"{player}nickname", Value(")"))),
        output_field=CharField(),
    )
    seated: dict[int, dict[int, dict]] = {table.pk: {} for table in tables}
    for table_id, seat, number, display_name in live_seats(tournament).order_by().values_list("table_id", "seat", "entry__number", name):
        seated[table_id][seat] = {"seat": seat, "entry": number, "name": display_name}
    in_play = [table for table in tables if table.in_play]
    counts = [len(seated[table.pk]) for table in in_play]
    most = max(counts, default=0)
    waiting = (
        Entry.objects.filter(tournament=tournament, status=Entry.Status.ACTIVE)
        .exclude(pk__in=live_seats(tournament).values("entry_id"))
        .count()
    )
    order = {table.number: i for i, table in enumerate(sorted(in_play, key=lambda table: (table.break_order, table.number)), start=1)}
    drawn, next_draw = False, None
    for kind, drawn_at, number, commitment in (
        Draw.objects.filter(tournament=tournament)
        .filter(Q(kind=Draw.Kind.START) | Q(drawn_at__isnull=True))
        .order_by("number")
        .values_list("kind", "drawn_at", "number", "commitment")
    ):
        drawn = drawn or kind == Draw.Kind.START
        if drawn_at is None and next_draw is None:
            next_draw = {"draw": number, "commitment": commitment}
    rows = rows_of(tournament)
    clock_index = clock_level_index(tournament, rows)
    threshold = max(house_rules(tournament).balance_threshold, 2)  # as tables/rules/balancing.py reads it
    result = []
    for table in tables:
        players = seated[table.pk]
        if not table.in_play:
            status = "broken" if table.broken_at else "closed"
        elif not players:
            status = "empty"
        elif len(players) == table.seats:
            status = "full"
        elif most - len(players) >= threshold:
            status = "short"
        else:
            status = "open"
        index = level_in_play(table, clock_index) if table.in_play else None
        result.append(
            {
                "table": table.number,
                "seats": table.seats,
                "in_play": table.in_play,
                "accessible": table.accessible,
                "button": table.button_seat,
                "break_position": order.get(table.number),
                "players": len(players),
                "status": status,
                "seat_list": [players.get(s) or {"seat": s, "entry": None, "name": None} for s in range(1, table.seats + 1)],
                "level": rows[index].number if index is not None and index < len(rows) else None,
                "on_old_level": bool(players) and index is not None and index != clock_index,  # an empty table plays nothing
            }
        )
    color_up = map_color_up(tournament, {table.pk: table.number for table in tables})
    if color_up is not None:
        races = color_up.pop("tables")
        for row in result:
            row["race"] = races.get(row["table"])
    return {
        "tables": result,
        "players_seated": sum(counts),
        "waiting": waiting,
        "color_up": color_up,
        "start_drawn": drawn,
        "next_draw": next_draw,
    }


def public_seats(tournament_id: int, numbers: Collection[int] | None = None) -> dict[int, dict]:
    """public_seat of every entry of the tournament (entry number -> answer), or of the entries `numbers`
    only, in three queries: a room's phones are answered from this, once per state version (web/caching.py)."""
    only = {} if numbers is None else {"entry__number__in": list(numbers)}
    # The time comes as text: the database writes it faster than the driver reads ten thousand datetimes.
    seats = {
        entry: (table, seat, _iso(at))
        for entry, table, seat, at in Seat.objects.filter(tournament_id=tournament_id, ended_at__isnull=True, **only)
        .annotate(at=Cast("seated_at", CharField()))
        .values_list("entry_id", "table__number", "seat", "at")
    }
    moves = {
        entry: {
            "table": table,
            "seat": seat,
            "position": position,
            "after_hand": bool(in_hand) and kind in WAIT_FOR_HAND,
        }  # as selectors.after_hand
        for entry, table, seat, position, kind, in_hand in Move.objects.filter(
            tournament_id=tournament_id, status=Move.Status.PENDING, **only
        ).values_list("entry_id", "to_table__number", "to_seat", "position", "kind", "from_table__hand_in_progress")
    }
    offered = waiting_list.offers(tournament_id, None if numbers is None else list(numbers))  # alternates not sat down yet
    answers = {}
    entries = Entry.objects.filter(tournament_id=tournament_id)
    if numbers is not None:
        entries = entries.filter(number__in=list(numbers))
    for pk, number, status, place, low, first, last, nickname in entries.exclude(status=Entry.Status.VOIDED).values_list(
        "pk", "number", "status", "finish_place", "finish_place_low", "player__first_name", "player__last_name", "player__nickname"
    ):
        table, seat, at = seats.get(pk, (None, None, None))
        answers[number] = {
            "entry": number,
            "name": Player.name_of(first, last, nickname),
            "status": status,
            "table": table,
            "seat": seat,
            "seated_at": at,
            "place": place,
            "place_low": low or place,
            "move": moves.get(pk),
            "alternate": offered.get(pk),
        }
    return answers


def alternates_board(t: Tournament) -> dict | None:
    """What the lobby TV and the public waiting-list page say of a sold-out tournament's list: the alternates called
    to a seat (number, table, seat, where the seat plays the next hand, when he must sit down by), latest first, and the
    numbers still waiting in order. Numbers, never names. None when the tournament has no list."""
    summary = waiting_list.summary(t)
    waiting = waiting_list.waiting_numbers(t.pk) if summary["waiting"] or summary["sold_out"] else []
    offered = waiting_list.offers(t.pk)
    if not summary["sold_out"] and not waiting and not offered:
        return None
    where = dict(
        (entry, (table, seat))
        for entry, table, seat in Seat.objects.filter(tournament=t, ended_at__isnull=True, entry_id__in=list(offered)).values_list(
            "entry_id", "table__number", "seat"
        )
    )
    calls = [
        {**offer, "table": where.get(entry, (None, None))[0], "seat": where.get(entry, (None, None))[1]} for entry, offer in offered.items()
    ]
    calls.sort(key=lambda c: -c["number"])
    return {"sold_out": summary["sold_out"], "waiting": waiting, "calls": calls}


def _iso(text: str | None) -> str | None:
    """A stored time read as text (PostgreSQL: with its offset; SQLite: UTC without one) as ISO 8601."""
    if not text:
        return None
    at = datetime.fromisoformat(text)
    return (at if at.tzinfo else at.replace(tzinfo=UTC)).isoformat()


def find_entries(room: tuple[search.Index, list[dict]], query: str, limit: int = 20) -> list[dict]:
    """Public lookup by entry number or name (names only), in a room's seats folded for searching
    (`search_index`): case and accents do not matter, any part of the name does. The first `limit`
    by entry number."""
    index, seats = room
    query = (query or "").strip()
    if query.lstrip("#").isdigit():
        number = int(query.lstrip("#"))
        found = [seat for seat in seats if seat["entry"] == number]
    elif len(query) >= 2:
        found = [seats[row] for row in islice(index.find(search.words_of(query)), limit)]
    else:
        return []
    return [{"entry": seat["entry"], "name": seat["name"], "status": seat["status"]} for seat in found[:limit]]


def search_index(seats: dict[int, dict]) -> tuple[search.Index, list[dict]]:
    """The room's seats (`public_seats`) by entry number, with their names folded for searching."""
    rows = [seats[number] for number in sorted(seats)]
    return search.Index([search.search_key(seat["name"]) for seat in rows]), rows


def balancing_status(t: Tournament) -> dict:
    """What the floor map and the dealer tablets show: halted tables, tables whose button the
    software needs, the pending slips, and why balancing moves nobody when it is stuck (notice)."""
    rules = house_rules(t)
    flagged = Table.objects.filter(tournament=t, in_play=True).filter(Q(halted=True) | Q(needs_button=True))
    halted = sorted(n for n, h in flagged.values_list("number", "halted") if h)
    need_button = sorted(n for n, b in flagged.values_list("number", "needs_button") if b)
    return {
        "halted": halted,
        "need_button": need_button,
        "moves": pending_moves(t),
        "rules": {"threshold": rules.balance_threshold, "halt_short_by": rules.halt_short_by, "donor": rules.donor},
        "notice": balancing_notice(t),
    }


# Asked of the apps above (core.reactions): {"places_paid": n}, the places the payout structure in force pays
# (deals included). The bubble comes from there and nowhere else; no answer means no structure yet.
PLACES_PAID = "places_paid"


def places_paid(t: Tournament) -> int | None:
    """The places paid by the payout structure in force (None: nothing is paid yet)."""
    return reactions.react(PLACES_PAID, tournament=t).get("places_paid") or None


def balance_waits(t: Tournament) -> dict:
    """What balancing waits for, in the floor's words ("Balance now" answers it with the slips it made):
    the buttons to enter, or the notice of why nobody moves; message None when nothing waits."""
    status = balancing_status(t)
    need, notice = status["need_button"], status["notice"]
    message = None
    if need:
        message = ngettext(
            "The moves wait for the button at table %(tables)s: enter it on the map.",
            "The moves wait for the buttons at tables %(tables)s: enter them on the map.",
            len(need),
        ) % {"tables": ", ".join(map(str, need))}
    elif notice is not None:
        message = notice["message"]
    return {"need_button": need, "halted": status["halted"], "notice": notice, "message": message}


def hand_for_hand_status(t: Tournament) -> dict:
    """What the floor map, the dealer tablets and the API show."""
    rules = house_rules(t)
    players = Entry.objects.filter(tournament=t, status=Entry.Status.ACTIVE).count()
    h = hand_for_hand(t)
    paid = places_paid(t)
    answer = {
        "on": h is not None,
        "players": players,
        "places_paid": paid,
        "seconds_per_hand": rules.hand_for_hand_seconds,
        "ties": rules.hand_for_hand_ties,
        "suggested": h is None and paid is not None and players == paid + 1,
        "in_the_money": paid is not None and 0 < players <= paid,
    }
    if h is not None:
        answer.update(
            {
                "number": h.number,
                "hand": h.hand,
                "called": h.called,
                "tables": h.tables,
                "shuffled": h.shuffled,
                "reported": h.reported,
                "waiting_for": waiting(t, h),
                "seconds_taken": h.seconds_taken,
                "started_at": h.started_at.isoformat(),
                "busy": []
                if h.called
                else sorted(Table.objects.filter(tournament=t, in_play=True, hand_in_progress=True).values_list("number", flat=True)),
                "moves_pending": Move.objects.filter(tournament=t, status=Move.Status.PENDING).count(),
            }
        )
    return answer


def table_state(table: Table) -> dict:
    """What the dealer tablet shows about its table: the hand and the level it plays (the clock's
    level comes with the clock; the page works out which of the two a new hand would use)."""
    rows = rows_of(table.tournament)
    follows = not table.sends_hand_signals or table.hand_level_index is None
    clock_index = clock_level_index(table.tournament, rows)
    index = level_in_play(table, clock_index)
    # The pending move slips leaving and reaching this table, in one query.
    pending = Move.Status.PENDING
    slips: dict[str, list[dict]] = {"out": [], "in": []}
    for move in (
        (Move.objects.filter(from_table=table, status=pending) | Move.objects.filter(to_table=table, status=pending))
        .select_related("entry__player", "from_table", "to_table")
        .order_by("number")
    ):
        slips["out" if move.from_table_id == table.pk else "in"].append(slip(move))
    return {
        "race": table_race(table, rows),
        "number": table.number,
        "in_play": table.in_play,
        "sends_hand_signals": table.sends_hand_signals,
        "hand": table.hand_number,
        "hand_started_at": table.hand_started_at.timestamp() if table.hand_started_at else None,
        "hand_level_index": None if follows else table.hand_level_index,
        "level_index": index,
        "level": rows[index].number if rows else None,
        "positions": {
            "button": table.button_seat,
            "small_blind": table.small_blind_seat,
            "big_blind": table.big_blind_seat,
            "next": table.positions_next,
        },
        "halted": table.halted,
        "needs_button": table.needs_button,
        "hand_in_progress": table.hand_in_progress,
        # A table breaking (its players hold break slips): no new hand here (tables/services/hands.py refuses one).
        "breaking": breaking_message(table.number) if any(s["kind"] == Move.Kind.BREAK for s in slips["out"]) else None,
        "slips_out": slips["out"],
        "slips_in": slips["in"],
        "h4h": _table_h4h(table),
        "penalties": table_penalties(table),
    }


def penalty_json(p: Penalty, seat: tuple[int, int] | None = None) -> dict:
    """A penalty as the screens and the API show it; `seat` (table, seat) where the player sits now."""
    # Served: the hands dealt at his table since; a player out of play (busted) before the end has "ended".
    served = 0 if p.cancelled_at else penalty_served(p)
    left = p.hands - served if not p.cancelled_at and p.entry.status == Entry.Status.ACTIVE else 0
    status = (
        "cancelled"
        if p.cancelled_at
        else "disqualified"
        if p.kind == Penalty.Kind.DISQUALIFIED
        else "warning"
        if p.hands == 0
        else "serving"
        if left
        else "served"
        if served == p.hands
        else "ended"
    )
    return {
        "number": p.number,
        "entry": p.entry.number,
        "name": p.entry.player.display_name,
        "kind": p.kind,
        "kind_display": p.get_kind_display(),
        "rounds": p.rounds,
        "players_at_table": p.players_at_table,
        "hands": p.hands,
        "hands_left": left,
        "served": served if status != "cancelled" else None,
        "status": status,
        "table": p.table_number,
        "seat": p.seat,
        "chips": p.chips,
        "reason": p.reason,
        "given_at": p.given_at.isoformat(),
        "given_by": p.given_by.get_username() if p.given_by_id else None,
        "cancelled_at": p.cancelled_at.isoformat() if p.cancelled_at else None,
        "cancel_reason": p.cancel_reason,
        "now": {"table": seat[0], "seat": seat[1]} if seat else None,
    }


def _penalties(t: Tournament):
    return Penalty.objects.filter(tournament=t).select_related("entry__player", "given_by")


def penalties(t: Tournament) -> list[dict]:
    """Every penalty of the tournament, newest first, with the hands still to sit out."""
    where = {entry: (table, seat) for entry, table, seat in live_seats(t).values_list("entry_id", "table__number", "seat")}
    return [penalty_json(p, where.get(p.entry_id)) for p in _penalties(t)]


def table_penalties(table: Table) -> list[dict]:
    """The players at this table still sitting out a penalty: the dealer deals them in and takes their
    blinds (TDA 51)."""
    seated = dict(live_seats(table.tournament).filter(table=table).values_list("entry_id", "seat"))
    if not seated:
        return []
    found = _penalties(table.tournament).filter(entry_id__in=list(seated), cancelled_at__isnull=True, hands__gt=0)
    rows = [penalty_json(p, (table.number, seated[p.entry_id])) for p in found]
    return sorted((r for r in rows if r["hands_left"]), key=lambda r: (r["now"]["seat"], r["number"]))


def _table_h4h(table: Table) -> dict | None:
    """Hand-for-hand as one table sees it: deal (the hand is called and this table has not
    started it), playing, done (waiting for the others) or wait (the next hand is not called)."""
    h = hand_for_hand(table.tournament)
    if h is None:
        return None
    n = table.number
    if not h.called or n not in h.tables:
        step = "wait"
    elif n in h.reported:
        step = "done"
    elif n in h.shuffled:
        step = "playing"
    else:
        step = "deal"
    return {"hand": h.hand, "step": step, "waiting_for": waiting(table.tournament, h)}


# --- color-ups and chip races (tables/services/color_ups.py) ----------------------------------------------------
