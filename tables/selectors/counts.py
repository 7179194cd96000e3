"""Reads of the chip counts (tables/services/counting.py writes them): the lobby's chip leaders, the players' chip-count
page, the floor's check of the room (tables/rules/chip_counts.py), a table's counts for its tablet. A constant number
of queries whatever the size of the field (bench/day2.py measures the leaders with 10,000 counts)."""

from __future__ import annotations

from clock.selectors.clock import rows_of
from tables.models import ChipCount, Table
from tables.rules import chip_counts as cc
from tables.selectors.state import clock_level_index, house_rules, live_seats
from tournament.models import Entry, Level, Player, Tournament
from tournament.selectors.stats import tournament_stats

LEADERS = 10  # what a TV shows in large type, read from five metres
PUBLIC_LIMIT = 200  # rows a phone's search answers at most (the total is given)


def big_blind_now(t: Tournament) -> int:
    """The big blind of the level announced by now (during a break: the level before it)."""
    rows = rows_of(t)
    if not rows:
        return 0
    index = clock_level_index(t, rows)
    blinds = list(Level.objects.filter(structure_id=t.structure_id).order_by("position").values_list("big_blind", flat=True))
    return blinds[index] if 0 <= index < len(blinds) else 0


def public(t: Tournament) -> bool:
    return house_rules(t).public_chip_counts


def _current(t: Tournament):
    """The current counts of the players in play."""
    return ChipCount.objects.filter(tournament=t, current=True, entry__status=Entry.Status.ACTIVE)


STACK_FIELDS = (
    "entry__number",
    "entry__player__first_name",
    "entry__player__last_name",
    "entry__player__nickname",
    "chips",
    "table_number",
    "seat",
    "counted_at",
    "counted_by_label",
    "source",
    "entry_id",
)


def _stacks(rows, big_blind: int) -> list[dict]:
    """Stacks (values of STACK_FIELDS, the largest first) as the screens show them: ranked in the field, with names
    and big blinds. Plain values, no model rows: 10,000 stacks are read in one query and one pass."""
    rows = list(rows)
    ranks = cc.ranked((row[0], row[4]) for row in rows)
    return [
        {
            "rank": rank,
            "entry": number,
            "name": Player.name_of(first, last, nick),
            "chips": chips,
            "big_blinds": cc.big_blinds(chips, big_blind),
            "table": table,
            "seat": seat,
            "counted_at": counted_at,
            "counted_by": by,
            "source": source,
            "entry_id": entry_id,
        }
        for (rank, _n, _c), (number, first, last, nick, chips, table, seat, counted_at, by, source, entry_id) in zip(
            ranks, rows, strict=True
        )
    ]


PUBLIC_KEYS = ("rank", "entry", "name", "chips", "big_blinds", "table", "seat", "counted_at")


def public_stack(row: dict) -> dict:
    """A stack as the public sees it (no one's login, no row ids), as JSON: the lobby's snapshot travels as it is."""
    return {**{key: row[key] for key in PUBLIC_KEYS}, "counted_at": row["counted_at"].isoformat()}


def leaders(t: Tournament, stats: dict | None = None) -> dict:
    """The lobby's chip leaders: the top stacks with names and big blinds, the average and the chips in play.
    Ranks are the ranks in the whole field (equal stacks share one: the top ten's ranks depend only on them)."""
    stats = stats or tournament_stats(t)
    big_blind = big_blind_now(t)
    top = _stacks(_current(t).order_by("-chips", "entry__number").values_list(*STACK_FIELDS)[:LEADERS], big_blind)
    return {
        "top": [public_stack(row) for row in top],
        "counted": _current(t).count(),
        "players_left": stats["players_left"],
        "big_blind": big_blind,
        "average": stats["average_stack"],
        "chips_in_play": stats["chips_in_play"],
        "average_big_blinds": cc.big_blinds(stats["average_stack"], big_blind),
    }


def every_stack(t: Tournament, query: str = "", limit: int | None = None) -> tuple[list[dict], int]:
    """Every current count of a player in play, ranked, with his name, table and seat as counted, and big blinds;
    with a query, the stacks whose player's name holds every word of it (case and accents ignored) or whose
    entry number it is. The first `limit`, and how many match in all."""
    query = (query or "").strip()
    ordered = _current(t).order_by("-chips", "entry__number")
    if not query and limit is not None:  # the top of the list: a rank depends only on the stacks above it
        return _stacks(ordered.values_list(*STACK_FIELDS)[:limit], big_blind_now(t)), ordered.count()
    found = _stacks(ordered.values_list(*STACK_FIELDS), big_blind_now(t))
    if query:
        named = set(Entry.objects.filter(tournament=t, player__in=Player.objects.named(query)).values_list("number", flat=True))
        found = [row for row in found if row["entry"] in named or str(row["entry"]) == query.lstrip("#")]
    return (found if limit is None else found[:limit]), len(found)


def room(t: Tournament) -> dict:
    """The floor's check of the counts: each table (players, counted, their total, the seats not counted since
    the player sat down, what it must hold when that is known, the difference, flagged), the room's total and its
    difference from the chips in play, and every stack with who counted it and when."""
    stats = tournament_stats(t)
    stacks, _total = every_stack(t)
    counted = {row["entry_id"]: row for row in stacks}
    at_seat = []
    for entry_id, table, seat, seated_at in (
        live_seats(t).filter(entry__status=Entry.Status.ACTIVE).values_list("entry_id", "table__number", "seat", "seated_at")
    ):
        row = counted.get(entry_id)
        fresh = row is not None and row["counted_at"] >= seated_at
        at_seat.append((table, seat, row["chips"] if fresh else None))
    check = cc.room_check(at_seat, chips_in_play=stats["chips_in_play"], players=stats["players_left"])
    return {
        "public": public(t),
        "big_blind": big_blind_now(t),
        "players_left": stats["players_left"],
        "average": stats["average_stack"],
        "chips_in_play": check.chips_in_play,
        "counted_total": check.counted_total,
        "not_counted": check.not_counted,
        "difference": check.difference,
        "flagged": list(check.flagged),
        "tables": [
            {
                "table": c.table,
                "players": c.players,
                "counted": c.counted,
                "total": c.total,
                "missing": list(c.missing),
                "expected": c.expected,
                "difference": c.difference,
                "flagged": c.flagged,
            }
            for c in check.tables
        ],
        "off_by": abs(check.difference or 0),
        "stacks": [{key: row[key] for key in (*PUBLIC_KEYS, "counted_by", "source")} for row in stacks],
    }


def table_counts(table: Table) -> dict:
    """A table's seated players with their current counts (None: not counted since he sat down), for its tablet
    and the map's count pad."""
    t = table.tournament
    seats = list(live_seats(t).filter(table=table).select_related("entry__player").order_by("seat"))
    counts = {row.entry_id: row for row in ChipCount.objects.filter(entry__in=[s.entry_id for s in seats], current=True)}
    players = []
    for s in seats:
        row = counts.get(s.entry_id)
        fresh = row is not None and row.counted_at >= s.seated_at
        players.append(
            {
                "seat": s.seat,
                "entry": s.entry.number,
                "name": s.entry.player.display_name,
                "chips": row.chips if fresh else None,
                "counted_at": row.counted_at if fresh else None,
                "counted_by": row.counted_by_label if fresh else None,
            }
        )
    counted = [p for p in players if p["chips"] is not None]
    return {
        "table": table.number,
        "players": players,
        "total": sum(p["chips"] for p in counted),
        "counted": len(counted),
        "big_blind": big_blind_now(t),
    }
