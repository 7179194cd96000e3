"""Reads of the days and their bags (days/services/bags.py writes them): where the day stands for closing, the day's
report sorted by stack, the bag slips, a table's bags for its tablet. Plain values (dicts of numbers, text and
datetimes), each read in a constant number of queries whatever the size of the field.

Only the bags of players still in count: a player busted after he was bagged (a mistake put right by a bust) keeps
his bag row, but no read of the current day shows or adds it. A closed day's report lists the players who were
still in when it closed (busted later, on a later day, they stay in that day's report)."""

from __future__ import annotations

from django.db.models import Q

from clock.models import ClockState
from core import reactions
from days.models import Bag, Day
from days.rules import bags as days_bag_rules
from tables.models import ChipCount, Table
from tables.selectors.counts import big_blind_now
from tables.selectors.state import live_seats
from tournament.models import AuditEvent, Entry, Player, Tournament
from tournament.selectors.stats import tournament_stats


def current_day(t: Tournament) -> int:
    """The day being played: the highest day number (closing a day makes the next), 1 when none is recorded."""
    return Day.objects.filter(tournament=t).order_by("-number").values_list("number", flat=True).first() or 1


def day_row(t: Tournament, number: int) -> Day | None:
    """The row of a day, None while it has none (Day 1 before anything closed it: playing)."""
    return Day.objects.filter(tournament=t, number=number).first()


def day_status(t: Tournament, number: int) -> str:
    row = day_row(t, number)
    return row.status if row is not None else Day.Status.PLAYING


def day_under_way(t: Tournament, number: int) -> bool:
    """Whether play of a day has begun: day 1 always; a later day once the clock has run since the day before it
    closed (closing makes the next day current, but its bags come at its own end, after it is played)."""
    before = day_row(t, number - 1) if number > 1 else None
    if before is None or before.closed_at is None:
        return True
    return AuditEvent.objects.filter(tournament=t, type__in=("clock.started", "clock.resumed"), at__gt=before.closed_at).exists()


def clock_running(t: Tournament) -> bool:
    return ClockState.objects.filter(tournament=t, status=ClockState.Status.RUNNING).exists()


# Asked of the apps above (core.reactions): whether a tournament's players go on to another tournament's next day (a
# Day 1 flight: its event's Day 2, where the bags are carried), {"flight": label, "event": name, "event_id": id}; no
# answer: the tournament plays its own next day (its redraw, days/services/redraw.py).
NEXT_DAY_ELSEWHERE = "next_day_elsewhere"


def next_day_elsewhere(t: Tournament) -> dict | None:
    return reactions.react(NEXT_DAY_ELSEWHERE, tournament=t) or None


# Asked of the apps above (core.reactions): how many days were played before this tournament's first day elsewhere (an
# event's Day 2 plays its first day as the event's Day 2, after the flights' Day 1: the flights app answers
# {"offset": 1}). The days are stored from 1; the screens name them with the offset. No answer: 0.
DAY_OFFSET = "day_offset"


def day_offset(t: Tournament) -> int:
    return int(reactions.react(DAY_OFFSET, tournament=t).get("offset") or 0)


def first_day_begun(t: Tournament) -> bool:
    """Whether play of a tournament's first day has begun: its clock has run. Asked for a first day that follows
    days played elsewhere (an event's Day 2): until then its players sit with the bags carried, none missing."""
    return AuditEvent.objects.filter(tournament=t, type__in=("clock.started", "clock.resumed")).exists()


# Asked of the apps above (core.reactions): the tournaments whose bags share one set of bag numbers with this one (an
# event's flights and its Day 2: the flights app answers {"tournaments": [ids]}). No answer: the tournament alone.
BAG_NUMBER_SCOPE = "bag_number_scope"


def bag_numbers_held(t: Tournament, numbers, *, day: int, replacing=()) -> dict[str, int]:
    """The one place that says which bag numbers are taken (a bag number is unique in its event): normalised bag number
    -> the entry (id) whose current bag carries it, among the current bags of any day of the tournament and of the
    tournaments of its event (BAG_NUMBER_SCOPE), for the given numbers. The bags that `replacing` entries hold for
    `day` are left out: a correction replaces them."""
    scope = reactions.react(BAG_NUMBER_SCOPE, tournament=t).get("tournaments") or [t.pk]
    rows = Bag.objects.filter(tournament_id__in=scope, current=True, bag_number__in=list(numbers)).exclude(
        tournament=t, day=day, entry_id__in=list(replacing)
    )
    return dict(rows.values_list("bag_number", "entry_id"))


def _in_play(t: Tournament) -> list[tuple[int, int, int | None, int | None, str]]:
    """(entry id, entry number, table, seat, name) of every player still in; table and seat None when unseated."""
    seated = {
        entry_id: (table, seat)
        for entry_id, table, seat in live_seats(t)
        .filter(entry__status=Entry.Status.ACTIVE)
        .values_list("entry_id", "table__number", "seat")
    }
    return [
        (pk, number, *seated.get(pk, (None, None)), Player.name_of(first, last, nick))
        for pk, number, first, last, nick in Entry.objects.filter(tournament=t, status=Entry.Status.ACTIVE).values_list(
            "pk", "number", "player__first_name", "player__last_name", "player__nickname"
        )
    ]


BAG_FIELDS = (
    "entry_id",
    "entry__number",
    "entry__player__first_name",
    "entry__player__last_name",
    "entry__player__nickname",
    "table_number",
    "seat",
    "bag_number",
    "chips",
    "bagged_at",
    "bagged_by_label",
)


def _bags(t: Tournament, day: int, row: Day | None = None):
    """The current bags of a day of the players still in (for a closed day: still in when it closed)."""
    still_in = Q(entry__status=Entry.Status.ACTIVE)
    if row is not None and row.status == Day.Status.CLOSED:
        still_in |= Q(entry__status=Entry.Status.BUSTED, entry__busted_at__gt=row.closed_at)
    return Bag.objects.filter(still_in, tournament=t, day=day, current=True)


def _bag_dicts(rows) -> list[dict]:
    return [
        {
            "entry_id": pk,
            "entry": number,
            "name": Player.name_of(first, last, nick),
            "table": table,
            "seat": seat,
            "bag": bag,
            "chips": chips,
            "bagged_at": at,
            "bagged_by": by,
        }
        for pk, number, first, last, nick, table, seat, bag, chips, at, by in rows
    ]


def close_check(t: Tournament, day: int, stats: dict | None = None) -> tuple[days_bag_rules.CloseCheck, list]:
    """The day's check for closing (days/rules/bags.py), and the players still in (as _in_play)."""
    stats = stats or tournament_stats(t)
    players = _in_play(t)
    bags = dict(_bags(t, day).values_list("entry_id", "chips"))
    check = days_bag_rules.close_check(
        ((pk, table, seat) for pk, _n, table, seat, _name in players), bags, chips_in_play=stats["chips_in_play"]
    )
    return check, players


def day_state(t: Tournament) -> dict:
    """Where the current day stands, for the day page and the close dialog:
    - day, offset (day_offset: the screens name day N "Day N + offset"), status ("playing" / "closed"), begun (play of
      the day has begun: day_under_way, and for the first day of an event's Day 2 its clock has run; until then
      nothing is missing and the day does not close), elsewhere (after a flight's Day 1: where its players go on,
      next_day_elsewhere; else None), players_left (players still in), bagged (of them);
    - missing: each player still in with no bag for the day, {table, seat, entry, name}, by table and seat (table and
      seat None: no seat, listed last); missing_tables: [{table, seats}] (the unseated: table None, their entries);
    - bags (count), total (their chips), chips_in_play (tournament.selectors.stats), difference (total - chips_in_play, None
      until every player still in is bagged), off_by (total - chips_in_play whoever is bagged);
    - clock_running; can_close (the day is playing and the clock not running: closing is possible, with a reason
      when needs_reason); needs_reason (bags missing, or they do not add up);
    - days: every closed day, {day, closed_at, closed_by, reason, missing (entry numbers), bags, total,
      chips_in_play, difference}, the first first."""
    day = current_day(t)
    status = day_status(t, day)
    check, players = close_check(t, day)
    names = {pk: (number, name) for pk, number, _table, _seat, name in players}
    missing = [{"table": table, "seat": seat, "entry": names[pk][0], "name": names[pk][1]} for table, seat, pk in check.missing]
    running = clock_running(t)
    offset = day_offset(t)
    begun = day_under_way(t, day) and (day > 1 or not offset or first_day_begun(t))
    return {
        "day": day,
        "offset": offset,
        "status": status,
        "begun": begun,
        "elsewhere": next_day_elsewhere(t) if day > 1 else None,
        "players_left": check.players,
        "bagged": check.bagged,
        "missing": missing if begun else [],
        "missing_tables": [
            {"table": table, "seats": list(seats) if table is not None else [names[pk][0] for pk in seats]}
            for table, seats in check.missing_by_table()
        ],
        "bags": check.bagged,
        "total": check.total,
        "chips_in_play": check.chips_in_play,
        "difference": check.difference,
        "off_by": check.off_by,
        "clock_running": running,
        "can_close": status == Day.Status.PLAYING and begun and not running,
        "needs_reason": begun and check.needs_reason,
        "days": [closed_day(row) for row in Day.objects.filter(tournament=t, status=Day.Status.CLOSED).order_by("number")],
    }


def closed_day(row: Day) -> dict:
    return {
        "day": row.number,
        "closed_at": row.closed_at,
        "closed_by": row.closed_by_label,
        "reason": row.close_reason,
        "missing": list(row.missing),
        "bags": row.bags,
        "total": row.total,
        "chips_in_play": row.chips_in_play,
        "difference": row.difference,
    }


def day_report(t: Tournament, day: int | None = None) -> dict | None:
    """The day's report, sorted by stack (the page, its CSV and PDF): the current day's bags so far, or a closed
    day's as it closed; None for a day not played yet.
    - day, status, closed (closed_day's dict, or None while playing), big_blind (the level in force: at the close
      for a closed day, now for the current one), players (bagged), total, chips_in_play, difference (as at close,
      or total - chips_in_play now while every player still in is bagged, else None);
    - rows, the largest stack first (ties by entry number): rank (equal stacks share one), entry, name, table,
      seat (where he was bagged), bag, chips, big_blinds (one decimal, rounded down), bagged_at, bagged_by."""
    now = current_day(t)
    day = now if day is None else day
    if day < 1 or day > now:
        return None
    row = day_row(t, day)
    closed = row is not None and row.status == Day.Status.CLOSED
    big_blind = row.big_blind if closed else big_blind_now(t)
    bags = {b["entry"]: b for b in _bag_dicts(_bags(t, day, row).values_list(*BAG_FIELDS))}
    rows = [
        {**{k: v for k, v in bags[entry].items() if k != "entry_id"}, "rank": rank, "big_blinds": bb}
        for rank, entry, _chips, bb in days_bag_rules.report(((n, b["chips"]) for n, b in bags.items()), big_blind)
    ]
    if closed:
        chips_in_play, difference = row.chips_in_play, row.difference
    else:
        check, _players = close_check(t, day)
        chips_in_play, difference = check.chips_in_play, check.difference
    return {
        "day": day,
        "status": Day.Status.CLOSED if closed else Day.Status.PLAYING,
        "closed": closed_day(row) if closed else None,
        "big_blind": big_blind,
        "players": len(rows),
        "total": sum(r["chips"] for r in rows),
        "chips_in_play": chips_in_play,
        "difference": difference,
        "rows": rows,
    }


def bags_for_slips(t: Tournament, *, table: int | None = None, entry: int | None = None, day: int | None = None) -> list[dict]:
    """The bag slips (80 mm and A4): the current bags of a day (the current one by default) of players still in,
    of one table (by number) or one entry (by number), by table and seat. Each: tournament (its name), day, entry,
    name, table, seat, bag, chips, bagged_at, bagged_by."""
    day = current_day(t) if day is None else day
    rows = _bags(t, day, day_row(t, day))
    if table is not None:
        rows = rows.filter(table_number=table)
    if entry is not None:
        rows = rows.filter(entry__number=entry)
    out = _bag_dicts(rows.order_by("table_number", "seat").values_list(*BAG_FIELDS))
    return [{"tournament": t.name, "day": day, **{k: v for k, v in row.items() if k != "entry_id"}} for row in out]


def table_bags(table: Table) -> dict:
    """A table's seated players with today's bag, for its tablet and the map's bag pad: table, day, status,
    big_blind, bagged (how many), total (their chips), and players by seat: seat, entry, name, chips and bag (today's
    bag, None when not bagged), bagged_at, bagged_by, last_count (his current chip count: the pad's starting value,
    None when never counted) and counted_at."""
    t = table.tournament
    day = current_day(t)
    seats = list(
        live_seats(t)
        .filter(table=table, entry__status=Entry.Status.ACTIVE)
        .order_by("seat")
        .values_list(
            "seat", "entry_id", "entry__number", "entry__player__first_name", "entry__player__last_name", "entry__player__nickname"
        )
    )
    ids = [entry_id for _seat, entry_id, *_rest in seats]
    bags = {
        row[0]: row
        for row in Bag.objects.filter(tournament=t, day=day, current=True, entry_id__in=ids).values_list(
            "entry_id", "bag_number", "chips", "bagged_at", "bagged_by_label"
        )
    }
    counts = dict(
        (pk, (chips, at))
        for pk, chips, at in ChipCount.objects.filter(entry_id__in=ids, current=True).values_list("entry_id", "chips", "counted_at")
    )
    players = []
    for seat, entry_id, number, first, last, nick in seats:
        bag = bags.get(entry_id)
        count = counts.get(entry_id, (None, None))
        players.append(
            {
                "seat": seat,
                "entry": number,
                "name": Player.name_of(first, last, nick),
                "chips": bag[2] if bag else None,
                "bag": bag[1] if bag else None,
                "bagged_at": bag[3] if bag else None,
                "bagged_by": bag[4] if bag else None,
                "last_count": count[0],
                "counted_at": count[1],
            }
        )
    bagged = [p for p in players if p["bag"] is not None]
    return {
        "table": table.number,
        "day": day,
        "status": day_status(t, day),
        "big_blind": big_blind_now(t),
        "bagged": len(bagged),
        "total": sum(p["chips"] for p in bagged),
        "players": players,
    }
