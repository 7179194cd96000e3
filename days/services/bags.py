"""Bag-and-tag and the close of a day (the rules in days/rules/bags.py). A table's bags are
entered at once on its tablet or the floor map, one seated player's by the floor; each bag is also the player's
current chip count (tables.services.counting.record_bag_counts). A bag corrected makes the last one history (never
deleted). The director closes the day once every player still in is bagged and the bags add up to the chips in
play, or records why not; closing makes the next day. The reads are days/selectors/bags.py."""

from __future__ import annotations

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext

from core import roles
from core.actor import Actor
from core.errors import ServiceError, clean_reason, require
from days.models import Bag, Day
from days.rules import bags as br
from days.selectors import bags as days_selectors
from tables.models import Seat, Table
from tables.selectors.counts import big_blind_now
from tables.selectors.state import denominations_in_play, live_seats, seated_entry
from tables.services import counting, venue
from tournament.models import Entry, Tournament
from tournament.selectors.stats import tournament_stats
from tournament.services.audit import actor_label, actor_user, lock_tournament, record_event

NOT_SEATED = gettext_lazy("Entry #%(number)s has no seat in play: only a seated player is bagged.")
REASON_TOO_LONG = gettext_lazy("The reason for closing the day is too long: at most %(max)s characters.")


def _refusal(table_number: int, problem: tuple[str, int], bags: dict, held: dict, chips_in_play: list[int]) -> ServiceError:
    code, seat = problem
    facts = {"table": table_number, "seat": seat, "max": br.BAG_MAX, "chips_in_play": ", ".join(str(v) for v in chips_in_play)}
    if seat in bags:
        facts["bag"] = br.normalise(bags[seat][1])
        facts["count"] = bags[seat][0]
    if code == br.EMPTY_SEAT:
        message, status = _("Nobody sits at table %(table)s seat %(seat)s: a bag goes to a seated player."), 409
    elif code == br.MISSING:
        message, status = _("Table %(table)s seat %(seat)s has no bag: the whole table is bagged at once."), 400
    elif code == br.NO_CHIPS:
        message, status = (
            _("Table %(table)s seat %(seat)s: a bag holds at least one chip (a player with no chips is busted, not bagged)."),
            400,
        )
    elif code == br.TOO_MANY:
        message, status = _("Table %(table)s seat %(seat)s: that count is far beyond the chips in play."), 400
    elif code == br.BAG_EMPTY:
        message, status = _("Table %(table)s seat %(seat)s: the bag number is missing."), 400
    elif code == br.BAG_TOO_LONG:
        message, status = _("Table %(table)s seat %(seat)s: a bag number is at most %(max)s characters."), 400
    elif code == br.BAG_CHARACTERS:
        message, status = _("Table %(table)s seat %(seat)s: a bag number holds letters, digits and “-” only."), 400
    elif code == br.UNMAKEABLE:
        message, status = (
            _(
                "Table %(table)s seat %(seat)s: %(count)s cannot be made of the chips in play (%(chips_in_play)s). "
                "Count again; a chip of a removed denomination is exchanged first (TDA 21C)."
            ),
            400,
        )
    elif code == br.BAG_TWICE:
        message, status = _("Table %(table)s seat %(seat)s: bag %(bag)s is given twice."), 400
    else:
        holder = Entry.objects.filter(pk=held.get(facts.get("bag"))).values_list("number", flat=True).first()
        facts["holder"] = holder if holder is not None else "?"
        message, status = _("Table %(table)s seat %(seat)s: bag %(bag)s is already the bag of entry #%(holder)s."), 409
    return ServiceError(message % facts, code=code, status=status)


def _open_day(t: Tournament) -> int:
    """The current day, refused (409) when it is closed: a closed day's bags never change."""
    day = days_selectors.current_day(t)
    if days_selectors.day_status(t, day) == Day.Status.CLOSED:
        raise ServiceError(_("Day %(day)s is closed: its bags can no longer change.") % {"day": day}, code="day_closed", status=409)
    if not days_selectors.day_under_way(t, day):
        raise ServiceError(
            _("Day %(before)s is closed and day %(day)s has not begun: its bags are taken at its end.") % {"before": day - 1, "day": day},
            code="day_not_started",
            status=409,
        )
    return day


def _in_play(table: Table) -> None:
    if not table.in_play:
        raise ServiceError(_("Table %(table)s is not in play.") % {"table": table.number}, code="not_in_play", status=409)


def _write_bags(t: Tournament, *, actor: Actor, day: int, seats: list[tuple[Seat, int, str]]) -> list[Bag]:
    """The bags (seat, chips, bag number as typed) as the players' current bags for the day, and their current chip
    counts; the last bags of these players for the day become history."""
    now = timezone.now()
    Bag.objects.filter(tournament=t, day=day, current=True, entry_id__in=[s.entry_id for s, _c, _b in seats]).update(current=False)
    rows = Bag.objects.bulk_create(
        [
            Bag(
                tournament=t,
                day=day,
                entry_id=s.entry_id,
                bag_number=br.normalise(bag),
                chips=chips,
                table_number=s.table.number,
                seat=s.seat,
                bagged_at=now,
                bagged_by=actor_user(actor),
                bagged_by_label=actor_label(actor),
            )
            for s, chips, bag in seats
        ]
    )
    counting.record_bag_counts(t, actor=actor, seats=[(s, chips) for s, chips, _bag in seats], now=now)
    return rows


def _check(t: Tournament, *, day: int, table_number: int, seated: dict[int, Seat], bags: dict[int, tuple[int, str]], whole: bool) -> None:
    held = days_selectors.bag_numbers_held(
        t, {br.normalise(bag) for _chips, bag in bags.values()}, day=day, replacing=[s.entry_id for s in seated.values()]
    )
    in_play = denominations_in_play(t)
    problems = br.table_bag_problems({seat: s.entry_id for seat, s in seated.items()}, bags, held, whole=whole, denominations=in_play)
    if problems:
        raise _refusal(table_number, problems[0], bags, held, in_play)


@transaction.atomic
def record_table_bags(table: Table, *, actor: Actor, bags: dict[int, tuple[int, str]]) -> list[Bag]:
    """Every seated player's bag at a table, entered at once (the dealer at his own table's tablet, the floor on
    the map): `bags` is seat -> (chips, bag number). Refused, and nothing written: a bag for an empty seat, a seated
    player left out, fewer than one chip, a bag number not valid, given twice or on another player's current bag,
    a closed day, a table not in play."""
    require(actor, roles.BAGGING, table=table)
    t = lock_tournament(table.tournament_id)
    table = Table.objects.select_for_update().get(pk=table.pk)
    _in_play(table)
    day = _open_day(t)
    seated = {s.seat: s for s in live_seats(t).filter(table=table, entry__status=Entry.Status.ACTIVE).select_related("table", "entry")}
    _check(t, day=day, table_number=table.number, seated=seated, bags=bags, whole=True)
    if not seated:
        raise ServiceError(_("Nobody sits at table %(table)s.") % {"table": table.number}, code="empty_table", status=409)
    rows = _write_bags(t, actor=actor, day=day, seats=[(seated[seat], *bags[seat]) for seat in sorted(seated)])
    record_event(
        t,
        actor=actor,
        type_="bags.recorded",
        stats=False,
        seats=False,
        payload={
            "day": day,
            "table": table.number,
            "total": sum(row.chips for row in rows),
            "bags": {str(row.seat): {"entry": seated[row.seat].entry.number, "bag": row.bag_number, "chips": row.chips} for row in rows},
        },
    )
    return rows


@transaction.atomic
def record_bag(entry: Entry, *, actor: Actor, chips: int, bag: str) -> Bag:
    """One seated player's bag, entered by the floor (a table bagged a player at a time, a bag corrected). Refused
    as a table's bags are."""
    require(actor, roles.BAG_ONE)
    t = lock_tournament(entry.tournament_id)
    day = _open_day(t)
    entry, seat = seated_entry(t, entry.number, NOT_SEATED)
    _in_play(seat.table)
    _check(t, day=day, table_number=seat.table.number, seated={seat.seat: seat}, bags={seat.seat: (chips, bag)}, whole=False)
    [row] = _write_bags(t, actor=actor, day=day, seats=[(seat, chips, bag)])
    record_event(
        t,
        actor=actor,
        type_="bags.recorded",
        stats=False,
        seats=False,
        payload={
            "day": day,
            "table": row.table_number,
            "seat": row.seat,
            "entry": entry.number,
            "name": entry.player.display_name,
            "bag": row.bag_number,
            "total": row.chips,
            "bags": {str(row.seat): {"entry": entry.number, "bag": row.bag_number, "chips": row.chips}},
        },
    )
    return row


def _missing_words(check: br.CloseCheck, numbers: dict[int, int]) -> list[str]:
    """The bags missing, table by table ("table 3 seats 2, 5"), the unseated by entry ("no seat: #45")."""
    out = []
    for table, items in check.missing_by_table():
        if table is None:
            out.append(_("no seat: %(entries)s") % {"entries": ", ".join(f"#{numbers[pk]}" for pk in items)})
        else:
            out.append(
                ngettext("table %(table)s seat %(seats)s", "table %(table)s seats %(seats)s", len(items))
                % {"table": table, "seats": ", ".join(str(seat) for seat in items)}
            )
    return out


@transaction.atomic
def close_day(t: Tournament, *, actor: Actor, reason: str = "") -> Day:
    """The director closes the day: it records when, by whom, the bags (count, total), the chips in play, the
    difference (the bags' total less the chips in play), the players still in with no bag, and the reason; and the
    next day starts playing. Refused (409) while the clock runs; while a player still in has no bag, or the bags do
    not add up to the chips in play, unless a reason is given."""
    require(actor, roles.CLOSE_DAY)
    t = lock_tournament(t.pk)
    reason = clean_reason(reason, Day, "close_reason", too_long=str(REASON_TOO_LONG))
    if days_selectors.clock_running(t):
        raise ServiceError(
            _("The clock is running: stop the clock or let the day end before closing it."), code="clock_running", status=409
        )
    number = _open_day(t)
    stats = tournament_stats(t)
    check, players = days_selectors.close_check(t, number, stats)
    numbers = {pk: n for pk, n, _table, _seat, _name in players}
    if check.missing and not reason:
        words = _missing_words(check, numbers)
        raise ServiceError(
            _("Day %(day)s cannot close: bags are missing at %(where)s. Bag them, or give the reason for closing without them.")
            % {"day": number, "where": "; ".join(words)},
            code="bags_missing",
            status=409,
            details=words,
        )
    if check.off_by and not reason:
        raise ServiceError(
            _(
                "Day %(day)s cannot close: the bags add up to %(total)s chips and the chips in play are "
                "%(chips)s, a difference of %(difference)s. Recount, or give the reason for closing anyway."
            )
            % {"day": number, "total": check.total, "chips": check.chips_in_play, "difference": f"{check.off_by:+d}"},
            code="bags_off",
            status=409,
        )
    now = timezone.now()
    row = days_selectors.day_row(t, number) or Day(tournament=t, number=number, created_at=now)
    missing = [numbers[pk] for _table, _seat, pk in check.missing]
    row.status, row.closed_at, row.closed_by, row.closed_by_label = Day.Status.CLOSED, now, actor_user(actor), actor_label(actor)
    row.close_reason, row.missing, row.bags, row.total = reason, missing, check.bagged, check.total
    row.chips_in_play, row.difference, row.big_blind = check.chips_in_play, check.off_by, big_blind_now(t)
    row.save()
    Day.objects.create(tournament=t, number=number + 1, created_at=now)
    given_back = venue.give_back_all(t, actor=actor)  # the room is free between days; the next day's redraw takes tables again
    record_event(
        t,
        actor=actor,
        type_="day.closed",
        stats=False,
        seats=False,
        payload={
            "day": number,
            "next_day": number + 1,
            "bags": check.bagged,
            "total": check.total,
            "chips_in_play": check.chips_in_play,
            "difference": check.off_by,
            "tables_given_back": given_back,
            "reason": reason,
            "missing": missing,
        },
    )
    return row
