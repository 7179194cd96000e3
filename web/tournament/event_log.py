"""The event log page's reads: its filters (table, player, kind) as one query, and its lines in words with
the names of the page's entries looked up in one query (never one per event)."""

from __future__ import annotations

from dataclasses import dataclass

from django.db import connection
from django.db.models import BooleanField, Q
from django.db.models.expressions import RawSQL

from tournament.models import AuditEvent, Entry, Player, Tournament
from web.event_words import details, entry_numbers, event_groups, event_labels, event_line, group_of, types_of

MAX_MATCHES = 50  # entries of the tournament a player search may stand for


@dataclass(frozen=True)
class Filters:
    table: int | None = None
    player: str = ""
    kind: str = ""

    @classmethod
    def of(cls, query) -> Filters:
        table = query.get("table", "").strip()
        kind = query.get("kind", "").strip()
        return cls(
            table=int(table) if table.isdigit() and len(table) < 6 else None,
            player=query.get("player", "").strip()[:80],
            kind=kind if kind in event_groups() or kind in event_labels() else "",
        )

    def any(self) -> bool:
        return self.table is not None or bool(self.player) or bool(self.kind)


def _json_holds(paths: tuple[str, ...], values: list[int]):
    """Events whose payload holds one of the values at one of the paths, as a number or in a list of numbers
    ("table": 3, "tables": [3, 4]). PostgreSQL has JSON containment; SQLite does not, and reads the values with
    json_each (a number gives one row, a list a row per item)."""
    if not values:
        return Q(pk__in=[])
    if connection.vendor == "postgresql":
        q = Q()
        for path in paths:
            lookup = "payload__" + path.replace(".", "__")
            for value in values:
                q |= Q(**{lookup: value}) | Q(**{f"{lookup}__contains": [value]})
        return q
    table = AuditEvent._meta.db_table
    marks = ", ".join(["%s"] * len(values))
    sql = " OR ".join(
        f'EXISTS (SELECT 1 FROM json_each("{table}"."payload", \'$.{path}\') AS j WHERE j.value IN ({marks}))' for path in paths
    )
    return RawSQL(f"({sql})", [*values] * len(paths), output_field=BooleanField())


def filtered(t: Tournament, filters: Filters):
    events = AuditEvent.objects.filter(tournament=t)
    if filters.kind in event_groups():
        events = events.filter(type__in=types_of(filters.kind))
    elif filters.kind:
        events = events.filter(type=filters.kind)
    if filters.table is not None:
        events = events.filter(
            _json_holds(("table", "tables", "from.table", "to.table", "move.to.table", "move.from.table"), [filters.table])
        )
    if filters.player:
        if filters.player.lstrip("#").isdigit():
            numbers, players = [int(filters.player.lstrip("#"))], []
        else:
            # The players of this tournament's entries whose name matches: a common name elsewhere in the
            # database never crowds them out.
            mine = Entry.objects.filter(tournament=t, player__in=Player.objects.named(filters.player))
            numbers = list(mine.order_by("number").values_list("number", flat=True)[:MAX_MATCHES])
            players = list(Entry.objects.filter(tournament=t, number__in=numbers).values_list("player_id", flat=True).distinct())
        held = _json_holds(("entry", "entries"), numbers)
        events = events.filter(_either(held, _json_holds(("player",), players)) if players else held)
    return events.select_related("actor").order_by("-seq")


def _either(a, b):
    if isinstance(a, Q) and isinstance(b, Q):
        return a | b
    return Q(a) | Q(b)


def lines(t: Tournament, events) -> list[dict]:
    """The page's events in words, newest first, with their details; one query for the names."""
    labels = event_labels()
    events = list(events)
    numbers = entry_numbers(e.payload for e in events)
    names = (
        {
            number: Player.name_of(first, last, nick)
            for number, first, last, nick in Entry.objects.filter(tournament=t, number__in=numbers).values_list(
                "number", "player__first_name", "player__last_name", "player__nickname"
            )
        }
        if numbers
        else {}
    )
    return [
        {
            "seq": e.seq,
            "type": e.type,
            "label": labels.get(e.type, e.type),
            "group": group_of(e.type),
            "line": event_line(e.type, e.payload, names, labels),
            "at": e.at,
            "actor": e.actor_label,
            "details": details(e.payload),
        }
        for e in events
    ]
