"""Chip counts (the rules in tables/rules/chip_counts.py): a table's counts entered at once, on its tablet or the floor map,
and one player's count entered by the floor. Each count keeps its time and who entered it; a new count makes the
player's last one history (never deleted). The lobby's chip leaders and the counts pages read them
(tables/selectors/counts.py)."""

from __future__ import annotations

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from core import roles
from core.actor import Actor
from core.errors import ServiceError, require
from tables.models import ChipCount, Seat, Table
from tables.rules import chip_counts as cc
from tables.selectors.state import live_seats, seated_entry
from tournament.models import Tournament
from tournament.services.audit import actor_label, actor_user, lock_tournament, record_event

NOT_SEATED = gettext_lazy("Entry #%(number)s has no seat in play: only a seated player's chips are counted.")


def _refusal(t: Tournament, table: Table, problem: tuple[str, int]) -> ServiceError:
    code, seat = problem
    place = {"table": table.number, "seat": seat}
    if code == cc.EMPTY_SEAT:
        return ServiceError(
            _("Nobody sits at table %(table)s seat %(seat)s: a count goes to a seated player.") % place, code=code, status=409
        )
    if code == cc.NEGATIVE:
        return ServiceError(_("Table %(table)s seat %(seat)s: a count is zero or more chips.") % place, code=code)
    if code == cc.TOO_MANY:
        return ServiceError(_("Table %(table)s seat %(seat)s: that count is far beyond the chips in play.") % place, code=code)
    return ServiceError(_("Table %(table)s seat %(seat)s has no count: the whole table is counted at once.") % place, code=code)


def _write(t: Tournament, *, actor: Actor, seats: list[tuple[Seat, int]], source: str, now) -> list[ChipCount]:
    ChipCount.objects.filter(entry__in=[seat.entry_id for seat, _chips in seats], current=True).update(current=False)
    return ChipCount.objects.bulk_create(
        [
            ChipCount(
                tournament=t,
                entry_id=seat.entry_id,
                table_number=seat.table.number,
                seat=seat.seat,
                chips=chips,
                source=source,
                counted_at=now,
                counted_by=actor_user(actor),
                counted_by_label=actor_label(actor),
            )
            for seat, chips in seats
        ]
    )


@transaction.atomic
def record_table_counts(table: Table, *, actor: Actor, counts: dict[int, int]) -> list[ChipCount]:
    """Every seated player's count at a table, entered at once (the dealer at his own table's tablet, the floor
    on the map). A count for an empty seat, a negative one, or a seated player left out is refused, and nothing
    is written."""
    require(actor, roles.COUNTING, table=table)
    t = lock_tournament(table.tournament_id)
    table = Table.objects.select_for_update().get(pk=table.pk)
    if not table.in_play:
        raise ServiceError(_("Table %(table)s is not in play.") % {"table": table.number}, code="not_in_play", status=409)
    seated = {s.seat: s for s in live_seats(t).filter(table=table).select_related("table")}
    problems = cc.table_count_problems({seat: s.entry_id for seat, s in seated.items()}, counts)
    if problems:
        raise _refusal(t, table, problems[0])
    if not seated:
        raise ServiceError(_("Nobody sits at table %(table)s.") % {"table": table.number}, code="empty_table", status=409)
    rows = _write(
        t, seats=[(seated[seat], counts[seat]) for seat in sorted(seated)], actor=actor, source=ChipCount.Source.TABLE, now=timezone.now()
    )
    record_event(
        t,
        actor=actor,
        type_="chips.counted",
        stats=False,
        seats=False,
        payload={"table": table.number, "counts": {str(row.seat): row.chips for row in rows}, "total": sum(row.chips for row in rows)},
    )
    return rows


@transaction.atomic
def record_player_count(t: Tournament, *, actor: Actor, entry_number: int, chips: int) -> ChipCount:
    """One seated player's count, entered by the floor (a stack counted at an all-in, a chip leader asked)."""
    require(actor, roles.COUNT_ONE)
    t = lock_tournament(t.pk)
    entry, seat = seated_entry(t, entry_number, NOT_SEATED)
    problems = cc.table_count_problems({seat.seat: entry.pk}, {seat.seat: chips}, whole=False)
    if problems:
        raise _refusal(t, seat.table, problems[0])
    [row] = _write(t, seats=[(seat, chips)], actor=actor, source=ChipCount.Source.PLAYER, now=timezone.now())
    record_event(
        t,
        actor=actor,
        type_="chips.counted",
        stats=False,
        seats=False,
        payload={"table": seat.table.number, "entry": entry.number, "counts": {str(row.seat): row.chips}, "total": row.chips},
    )
    return row


def record_bag_counts(t: Tournament, *, actor: Actor, seats: list[tuple[Seat, int]], now) -> list[ChipCount]:
    """Bagged stacks (days/services/bags.py: bag-and-tag at the end of a day) as the players' current counts, in the
    caller's transaction: the caller holds the tournament's lock, has checked the bags and records the event."""
    require(actor, roles.BAGGING)
    return _write(t, actor=actor, seats=seats, source=ChipCount.Source.BAG, now=now)
