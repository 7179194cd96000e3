"""Reads of the color-ups and their chip races: where a break's color-up stands for the floor and its map, each
table's race for its tablet, and a race's sheet (names with the public draw's result). Plain values, a constant number
of queries."""

from __future__ import annotations

from django.db.models import Q

from clock.selectors.clock import rows_of
from tables.models import ChipRace, ColorUp, Table
from tables.rules import chip_race, color_up_plan
from tables.selectors.state import (
    clock_position,
    clock_row_index,
    in_play_before,
    latest_color_up,
    live_seats,
)
from tournament.models import ChipAdjustment, Entry, Level, Player, Tournament
from tournament.selectors.stats import tournament_stats


def _color_up_json(c: ColorUp) -> dict:
    return {
        "level": c.level,
        "leaving": c.leaving,
        "new_chip": c.new_chip,
        "in_play": c.in_play,
        "rules": c.rules,
        "confirmed_at": c.confirmed_at.isoformat(),
    }


def color_up_status(t: Tournament) -> dict:
    """The color-ups as the floor and the director see them: each break of the structure with the chips it
    colors up (planned, or as the director confirmed), the software's suggestion for the next break, and
    the latest confirmed color-up's race at every table with players (waiting, recorded, confirmed; the
    difference each made), the chips found since (TDA 21C), the chips in play and the average stack.
    No names: every role reads it."""
    levels = list(Level.objects.filter(structure_id=t.structure_id).order_by("position"))
    index = clock_row_index(t, rows_of(t))
    at = levels[index].position if index is not None and index < len(levels) else 0
    confirmed = {c.level: c for c in ColorUp.objects.filter(tournament=t)}
    breaks, next_break = [], None
    for lv in levels:
        if lv.kind != Level.Kind.BREAK:
            continue
        c = confirmed.get(lv.position)
        item = {
            "level": lv.position,
            "planned": sorted(lv.color_up),
            "confirmed": c is not None,
            "in_play": c.in_play if c else in_play_before(t, lv.position),
            "leaving": c.leaving if c else sorted(lv.color_up),
            "new_chip": c.new_chip if c else None,
            "past": lv.position < at,
            "now": lv.position == at,
        }
        breaks.append(item)
        if next_break is None and lv.position >= at:
            next_break = item
    suggestion = None
    to_confirm = next((item for item in breaks if not item["past"] and not item["confirmed"]), None)
    if to_confirm is not None:  # the next break without a confirmed color-up
        in_play = to_confirm["in_play"]
        coming = [
            (lv.small_blind, lv.big_blind, lv.ante) for lv in levels if lv.position > to_confirm["level"] and lv.kind == Level.Kind.LEVEL
        ]
        try:
            leaving = color_up_plan.suggest_color_up(in_play, coming)
        except chip_race.RaceError:
            leaving = []
        suggestion = {"level": to_confirm["level"], "in_play": in_play, "leaving": leaving}
    latest = max(confirmed.values(), key=lambda c: c.level, default=None)
    stats = tournament_stats(t)
    answer = {
        "breaks": breaks,
        "next_break": next_break,
        "suggestion": suggestion,
        "color_up": _color_up_json(latest) if latest else None,
        "tables": [],
        "finished": 0,
        "recorded": 0,
        "waiting": 0,
        "difference": 0,
        "difference_recorded": 0,
        "found": [],
        "chips_in_play": stats["chips_in_play"],
        "average_stack": stats["average_stack"],
    }
    if latest is None:
        return answer
    races = {r.table_id: r for r in ChipRace.objects.filter(color_up=latest).exclude(status=ChipRace.Status.REDONE)}
    with_players = set(live_seats(t).values_list("table_id", flat=True).distinct())
    for table in Table.objects.filter(tournament=t).filter(Q(pk__in=with_players) | Q(pk__in=races)).order_by("number"):
        race = races.get(table.pk)
        status = race.status if race else "waiting"
        answer["tables"].append(
            {"table": table.number, "status": status, "difference": race.difference if race else None, "race": race.pk if race else None}
        )
        answer[{"waiting": "waiting", "recorded": "recorded", "confirmed": "finished"}[status]] += 1
        if race is not None:
            answer["difference" if status == ChipRace.Status.CONFIRMED else "difference_recorded"] += race.difference
    answer["found"] = [
        {"table": a.table, "amount": a.amount, "at": a.created_at.isoformat()}
        for a in ChipAdjustment.objects.filter(tournament=t, kind=ChipAdjustment.Kind.FOUND, created_at__gte=latest.confirmed_at).order_by(
            "created_at"
        )
    ]
    return answer


def map_color_up(t: Tournament, numbers: dict[int, int]) -> dict | None:
    """The latest color-up as the floor map shows it while it matters (until every race is confirmed, and
    during its break): the chips leaving, each table's race (status, difference; tables without one are
    waiting), and the totals. `numbers`: table pk -> number. None otherwise."""
    color_up = latest_color_up(t)
    if color_up is None:
        return None
    races = {
        numbers[table_id]: {"status": status, "difference": difference}
        for table_id, status, difference in ChipRace.objects.filter(color_up=color_up)
        .exclude(status=ChipRace.Status.REDONE)
        .values_list("table_id", "status", "difference")
    }
    with_players = {numbers[pk] for pk in live_seats(t).values_list("table_id", flat=True).distinct()}
    tables = {n: races.get(n, {"status": "waiting", "difference": None}) for n in sorted(with_players | set(races))}
    finished = sum(1 for race in tables.values() if race["status"] == ChipRace.Status.CONFIRMED)
    at = clock_position(t, rows_of(t))
    if finished == len(tables) and at is not None and at > color_up.level:
        return None
    return {
        "level": color_up.level,
        "leaving": color_up.leaving,
        "new_chip": color_up.new_chip,
        "tables": tables,
        "finished": finished,
        "total": len(tables),
        "difference": sum(race["difference"] for race in tables.values() if race["status"] == ChipRace.Status.CONFIRMED),
    }


def race_sheet(race: ChipRace) -> dict:
    """A table's result sheet: each seat's player, chips counted, odd chips, cards, the chip won (or the
    chip that keeps him in), the new chips; the pool and the winners in order, how the cards were dealt."""
    numbers = [row.get("entry") for row in race.seats.values() if row.get("entry")]
    names = {
        number: Player.name_of(*name)
        for number, *name in Entry.objects.filter(tournament_id=race.table.tournament_id, number__in=numbers).values_list(
            "number", "player__first_name", "player__last_name", "player__nickname"
        )
    }
    seats = []
    for row in race.result["seats"]:
        typed = race.seats.get(str(row["seat"]), {})
        seats.append({**row, "entry": typed.get("entry"), "name": names.get(typed.get("entry"), "")})
    return {
        "id": race.pk,
        "table": race.table.number,
        "status": race.status,
        "seats": seats,
        "pool": race.result["pool"],
        "odd_value": race.result["odd_value"],
        "winners": race.result["winners"],
        "chips_raced": race.result["chips_raced"],
        "value_before": race.result["value_before"],
        "value_after": race.result["value_after"],
        "protected": race.result["protected"],
        "difference": race.difference,
        "new_chip": race.result["new_chip"],
        "leaving": race.result["leaving"],
        "rules": race.result["rules"],
        "draw": race.draw.number if race.draw_id else None,
        "cards_entered": race.draw_id is None,
        "recorded_at": race.recorded_at.isoformat(),
        "confirmed_at": race.confirmed_at.isoformat() if race.confirmed_at else None,
    }


def table_race(table: Table, rows=None) -> dict | None:
    """The chip race as the table's tablet sees it, from the latest confirmed color-up: the seats to count
    (with their players), the race standing (its sheet) and whether the tablet shows it: until the race
    is confirmed, and then while the color-up's break lasts. None without a color-up."""
    t = table.tournament
    color_up = latest_color_up(t)
    if color_up is None:
        return None
    race = (
        ChipRace.objects.filter(color_up=color_up, table=table)
        .exclude(status=ChipRace.Status.REDONE)
        .select_related("table", "draw")
        .first()
    )
    rows = rows if rows is not None else rows_of(t)
    at = clock_position(t, rows)
    status = race.status if race else "waiting"
    players = [
        {"seat": seat, "entry": number, "name": Player.name_of(*name)}
        for seat, number, *name in live_seats(t)
        .filter(table=table)
        .order_by("seat")
        .values_list("seat", "entry__number", "entry__player__first_name", "entry__player__last_name", "entry__player__nickname")
    ]
    return {
        "color_up": _color_up_json(color_up),
        "status": status,
        "active": status != ChipRace.Status.CONFIRMED or at is None or at <= color_up.level,
        "players": players,
        "sheet": race_sheet(race) if race else None,
    }
