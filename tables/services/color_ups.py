"""Color-ups and their chip races (TDA 21, 22; docs/rules.md "Color-up and chip race"): the director confirms
the color-up of a break; each table races its odd chips (tables/rules/chip_race.py) with cards from the
committed seed of a verifiable draw or entered as dealt; a race is redone until it is confirmed, and a
confirmed race changes the tournament's chips in play by exactly what it added or removed."""

from __future__ import annotations

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from core import roles
from core.actor import Actor
from core.errors import ServiceError, require
from tables.models import ChipRace, ColorUp, Draw, Table
from tables.rules import chip_race as cr
from tables.rules import color_up_plan
from tables.selectors import state as tables_selectors
from tables.selectors.state import in_play_before, live_seats, race_rules
from tables.services.draws import pending_draw, run_draw
from tournament.models import ChipAdjustment, Level, Tournament
from tournament.services.audit import actor_user, lock_tournament, record_event
from tournament.services.chips import adjust_chips

MAX_COUNT = 10_000  # chips of one denomination at one seat
MAX_VALUE = 10**15


def _race_error(exc: cr.RaceError) -> ServiceError:
    """The pure module's refusal, said for the table (its codes: tables/rules/chip_race.py)."""
    details = {"seat": "", "value": "", "card": "", "new_chip": "", **dict(exc.details or {})}
    messages = {
        "not_in_play": _("The %(value)s chip is not in play at this break."),
        "all_leave": _("A color-up must leave at least one chip in play."),
        "not_smallest": _("Only chips smaller than every chip that stays can leave (the %(value)s chip)."),
        "new_chip_not_multiple": _("The %(new_chip)s chip is not a whole number of %(value)s chips."),
        "not_nested": _("The chips leaving must each make a whole number of the next one up."),
        "no_chips": _("Seat %(seat)s has no chips at all: leave it out, or count its chips."),
        "not_leaving": _("Seat %(seat)s: the %(value)s chip does not leave at this color-up."),
        "too_many_cards": _(
            "The odd chips at this table need more than one deck of cards: color up within the leaving chips first, then count again."
        ),
        "wrong_card_count": _("Seat %(seat)s: one card for each odd chip."),
        "bad_card": _("Seat %(seat)s: %(card)s is not a card (rank and suit: As, Td, 9c)."),
        "bad_cards": _("Seat %(seat)s: give the cards as a list."),
        "duplicate_card": _("The card %(card)s is entered twice."),
    }
    message = messages.get(exc.code, _("The counts or the cards are not valid for this color-up."))
    return ServiceError(message % details, code=f"race_{exc.code}", details={"rule": str(exc)})


@transaction.atomic
def confirm_color_up(tournament: Tournament, *, actor: Actor, level: int, leaving: list[int] | None = None) -> ColorUp:
    """The director confirms the color-up of a break: the denominations the structure names there (or
    those given), checked against the chips in play. The house's race rules are kept with it."""
    require(actor, roles.SETUP)
    t = lock_tournament(tournament.pk)
    row = Level.objects.filter(structure=t.structure, position=level).first()
    if row is None:
        raise ServiceError(_("The structure has no row %(row)s: color-ups happen at its breaks.") % {"row": level}, code="not_a_break")
    after = tables_selectors.levels_before(t)[level]  # the floor's name of a row: "level 4", "the break after level 4"
    if row.kind != Level.Kind.BREAK:
        raise ServiceError(_("Level %(level)s is not a break: color-ups happen at breaks.") % {"level": after}, code="not_a_break")
    if ColorUp.objects.filter(tournament=t, level=level).exists():
        raise ServiceError(_("The color-up of this break is already confirmed."), code="color_up_confirmed", status=409)
    leaving = sorted(leaving if leaving is not None else row.color_up)
    if not leaving:
        raise ServiceError(_("The structure colors up nothing at this break: name the chips that leave."), code="nothing_leaves")
    in_play = in_play_before(t, level)
    try:
        plan = cr.ColorUp.of(in_play, leaving)
    except cr.RaceError as exc:
        raise _race_error(exc) from None
    color_up = ColorUp.objects.create(
        tournament=t,
        level=level,
        in_play=in_play,
        leaving=list(plan.leaving),
        new_chip=plan.new_chip,
        rules=race_rules(t).to_json(),
        confirmed_at=timezone.now(),
        confirmed_by=actor_user(actor),
    )
    record_event(
        t,
        actor=actor,
        type_="colorup.confirmed",
        payload={"level": level, "after_level": after, "leaving": color_up.leaving, "new_chip": color_up.new_chip},
        stats=False,
    )
    return color_up


def _seat_chips(data, occupied: set[int]) -> dict[int, cr.SeatChips]:
    """{seat: {"chips": {value: count}, "other": value or null}} as typed on the tablet, for seated players
    only; "other" is the value of the seat's chips that do not leave, null when the player has some that
    were not counted, 0 when the leaving chips are all he has (he cannot be raced out)."""
    if not isinstance(data, dict) or not data:
        raise ServiceError(_("Give the chips counted at each seat."), code="invalid")
    seats = {}
    for key, row in data.items():
        try:
            seat = int(key)
            chips = {int(v): c for v, c in (row.get("chips") or {}).items()}
            other = row["other"]
        except (AttributeError, KeyError, TypeError, ValueError):
            raise ServiceError(
                _("Seat %(seat)s: give the count of each leaving chip and the value of the other chips (null: some, not counted; 0: none).")
                % {"seat": key},
                code="invalid",
            ) from None
        if seat not in occupied:
            raise ServiceError(_("Seat %(seat)s is empty at this table.") % {"seat": seat}, code="empty_seat")
        bad = [c for c in chips.values() if not isinstance(c, int) or isinstance(c, bool) or not 0 <= c <= MAX_COUNT]
        if bad or (other is not None and (not isinstance(other, int) or isinstance(other, bool) or not 0 <= other <= MAX_VALUE)):
            raise ServiceError(
                _("Seat %(seat)s: counts are whole numbers from 0 to %(max)s.") % {"seat": seat, "max": MAX_COUNT}, code="invalid"
            )
        seats[seat] = cr.SeatChips(leaving=chips, other_value=other)
    return seats


def cards_to_deal(table: Table, *, actor: Actor, color_up: ColorUp, seats) -> dict[int, int]:
    """How many cards each seat is dealt for these counts (one per odd chip; none to a protected player
    who does not race), so that a table dealing its own cards knows what to deal. Records nothing."""
    require(actor, roles.REPORTING, table=table)
    if color_up.tournament_id != table.tournament_id:
        raise ServiceError(_("This color-up belongs to another tournament."), code="not_found", status=404)
    occupied = set(live_seats(table.tournament).filter(table=table).values_list("seat", flat=True))
    counted = _seat_chips(seats, occupied)
    try:
        return cr.cards_to_deal(color_up.in_play, color_up.leaving, counted, cr.RaceRules.from_json(color_up.rules))
    except cr.RaceError as exc:
        raise _race_error(exc) from None


@transaction.atomic
def record_race(table: Table, *, actor: Actor, color_up: ColorUp, seats, cards=None) -> ChipRace:
    """A table's chip race, from the chips counted at each seat: the software deals the cards from the
    committed seed of the next draw (revealed with the result), or takes the cards as dealt at the table.
    A race already recorded is redone (kept, marked redone); a confirmed one is never redone."""
    require(actor, roles.REPORTING, table=table)
    t = lock_tournament(table.tournament_id)
    if color_up.tournament_id != t.pk:
        raise ServiceError(_("This color-up belongs to another tournament."), code="not_found", status=404)
    standing = ChipRace.objects.select_for_update().filter(color_up=color_up, table=table).exclude(status=ChipRace.Status.REDONE).first()
    if standing is not None and standing.status == ChipRace.Status.CONFIRMED:
        raise ServiceError(
            _("The chip race at table %(table)s is confirmed: it cannot be redone.") % {"table": table.number},
            code="race_confirmed",
            status=409,
        )
    occupied = dict(live_seats(t).filter(table=table).values_list("seat", "entry__number"))
    counted = _seat_chips(seats, set(occupied))
    rules = cr.RaceRules.from_json(color_up.rules)
    typed = {
        str(s): {"chips": {str(v): c for v, c in chips.leaving.items()}, "other": chips.other_value, "entry": occupied[s]}
        for s, chips in sorted(counted.items())
    }
    public = {seat: {"chips": row["chips"], "other": row["other"]} for seat, row in typed.items()}  # no entries

    def from_seed(seed: bytes):
        race = cr.race_from_seed(color_up.in_play, color_up.leaving, counted, seed, rules)
        return race, race.to_json()

    try:
        if cards is None:
            draw, result = run_draw(
                t,
                actor=actor,
                kind=Draw.Kind.RACE,
                inputs={"table": table.number, "color_up": color_up.level, "seats": public},
                compute=from_seed,
            )
            pending_draw(t)
        else:
            if not isinstance(cards, dict):
                raise ServiceError(_("Give the cards dealt to each seat."), code="invalid")
            draw = None
            result = cr.race(color_up.in_play, color_up.leaving, counted, {int(k): v for k, v in cards.items()}, rules)
    except cr.RaceError as exc:
        raise _race_error(exc) from None
    except (TypeError, ValueError):
        raise ServiceError(_("Give the cards by seat number, as rank and suit (As, Td, 9c)."), code="invalid") from None
    record = result.to_json()
    if standing is not None:
        standing.status = ChipRace.Status.REDONE
        standing.save(update_fields=["status"])
    race = ChipRace.objects.create(
        color_up=color_up,
        table=table,
        seats=typed,
        draw=draw,
        result=record,
        difference=result.difference,
        recorded_at=timezone.now(),
        recorded_by=actor_user(actor),
    )
    record_event(
        t,
        actor=actor,
        type_="race.recorded",
        payload={
            "table": table.number,
            "color_up": color_up.level,
            "after_level": tables_selectors.levels_before(t).get(color_up.level),
            "redo": standing is not None,
            "draw": draw.number if draw else None,
            "difference": result.difference,
            "winners": list(result.winners),
        },
        stats=False,
    )
    return race


@transaction.atomic
def confirm_race(race: ChipRace, *, actor: Actor) -> ChipRace:
    """The table's race stands: the result sheet is final and the chips in play change by its difference."""
    require(actor, roles.REPORTING, table=race.table)
    t = lock_tournament(race.table.tournament_id)
    r = ChipRace.objects.select_for_update().select_related("table", "color_up").get(pk=race.pk)
    if r.status != ChipRace.Status.RECORDED:
        raise ServiceError(
            _("This chip race is %(status)s: only the race standing at a table is confirmed.") % {"status": r.get_status_display()},
            code="race_not_standing",
            status=409,
        )
    now = timezone.now()
    r.status, r.confirmed_at, r.confirmed_by = ChipRace.Status.CONFIRMED, now, actor_user(actor)
    r.save(update_fields=["status", "confirmed_at", "confirmed_by"])
    adjust_chips(t, kind=ChipAdjustment.Kind.RACE, amount=r.difference, table=r.table.number, created_at=now, created_by=actor_user(actor))
    record_event(
        t,
        actor=actor,
        type_="race.confirmed",
        payload={
            "table": r.table.number,
            "color_up": r.color_up.level,
            "after_level": tables_selectors.levels_before(t).get(r.color_up.level),
            "difference": r.difference,
        },
    )
    return r


def color_up_to_race(t: Tournament) -> ColorUp:
    """The confirmed color-up the tables race for now, or a refusal the floor can act on (the reading that may
    find none is tables_selectors.latest_color_up)."""
    color_up = tables_selectors.latest_color_up(t)
    if color_up is None:
        raise ServiceError(
            _("No color-up is confirmed yet: the director confirms the break's color-up first."), code="no_color_up", status=409
        )
    return color_up


@transaction.atomic
def exchange_found_chips(tournament: Tournament, *, actor: Actor, table: Table, found) -> dict:
    """TDA 21C, a floor action: chips of a removed denomination found after the race are exchanged at equal
    value for the smallest chip in play; what is worth less than one of it is removed from play."""
    require(actor, roles.MOVING)
    t = lock_tournament(tournament.pk)
    color_up = color_up_to_race(t)
    try:
        chips = {int(v): n for v, n in found.items()}
    except (AttributeError, TypeError, ValueError):
        raise ServiceError(_("Give the chips found as the count of each removed chip."), code="invalid") from None
    if not chips or any(not isinstance(n, int) or isinstance(n, bool) or not 0 < n <= MAX_COUNT for n in chips.values()):
        raise ServiceError(_("Give the count of each removed chip found, from 1 to %(max)s.") % {"max": MAX_COUNT}, code="invalid")
    removed_values = tables_selectors.removed_denominations(t, color_up)
    stray = sorted(v for v in chips if v not in removed_values)
    if stray:
        raise ServiceError(
            _("The %(value)s chip was not removed at a color-up: only removed chips are exchanged.") % {"value": stray[0]},
            code="not_removed",
        )
    try:
        exchanged, removed = color_up_plan.exchange_value(chips, color_up.new_chip)
    except cr.RaceError as exc:
        raise _race_error(exc) from None
    now = timezone.now()
    if removed:
        adjust_chips(t, kind=ChipAdjustment.Kind.FOUND, amount=-removed, table=table.number, created_at=now, created_by=actor_user(actor))
    answer = {
        "table": table.number,
        "found": {str(v): n for v, n in sorted(chips.items())},
        "chip": color_up.new_chip,
        "exchanged": exchanged,
        "removed": removed,
    }
    record_event(t, actor=actor, type_="chips.found", payload=answer)
    return answer
