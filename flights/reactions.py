"""The flights' reactions (core.reactions; registered in FlightsConfig.ready()) to the desk and the floor of their
tournaments, and their answers to the apps below:

- registration (tournament.services.registration.ENTRY_REGISTERED): under first stack forward, a player who holds a current bag in
  another flight of the event is refused; Day 2 takes a registration only when the event allows Day 2 late
  registration (its chips are then the event's late stack: the Day 2 tournament's starting stack, set by
  flights.services.events), and never from a player still in a flight with a bag (he goes on with it);
- a carried entry (in Day 2, or the flight entry it came from) is never voided (ENTRY_VOIDED);
- a player busted in a flight has no place (tables.services.busts.FIXED_PLACE): places are paid from Day 2 only;
- the end of a flight by the share of its field left (tables.services.busts.ENTRY_BUSTED): once, the clock's day end is set
  to the level in force, and the event `flight.ending` says how many players are left;
- Day 2's figures (tournament.selectors.stats.SHARED_POOL): the flights' entries and money, one prize pool."""

from __future__ import annotations

from django.db import transaction
from django.utils.translation import gettext as _

from clock.services import clock as clock_services
from core.actor import Actor
from core.errors import ServiceError
from flights.models import CarriedBag, Event, Flight
from flights.rules import flights as fr
from flights.selectors import events
from tournament.models import Entry, Tournament
from tournament.services.audit import record_event


def registration_by_policy(*, actor: Actor, tournament: Tournament, entry: Entry) -> None:
    """Reaction to tournament.services.registration.ENTRY_REGISTERED (a refusal rolls the registration back)."""
    day2_of = events.event_of_day2(tournament)
    if day2_of is not None:
        _day2_registration(day2_of, tournament, entry)
        return
    flight = events.flight_of(tournament)
    if flight is None or flight.event.policy != Event.Policy.FIRST:
        return
    held = events.current_bag_of(flight.event, entry.player_id, other_than=tournament.pk)
    if held is not None:
        label, bag, _chips = held
        raise ServiceError(
            _("%(name)s qualified in flight %(flight)s with bag %(bag)s: under first stack forward he cannot play another flight.")
            % {"name": entry.player.display_name, "flight": label, "bag": bag},
            code="qualified_already",
            status=409,
        )


def _day2_registration(event: Event, tournament: Tournament, entry: Entry) -> None:
    if not event.day2_late_registration:
        raise ServiceError(
            _("Day 2 of %(event)s takes no late registration: its players come from the flights' bags.") % {"event": event.name},
            code="day2_no_late_registration",
            status=409,
        )
    held = events.current_bag_of(event, entry.player_id, other_than=tournament.pk)
    if held is not None and not Flight.objects.filter(event=event, carried_at__isnull=False).exists():
        label, bag, _chips = held
        raise ServiceError(
            _("%(name)s qualified in flight %(flight)s with bag %(bag)s: he goes on to Day 2 with it.")
            % {"name": entry.player.display_name, "flight": label, "bag": bag},
            code="qualified_already",
            status=409,
        )


def no_void_of_a_carried_entry(*, actor: Actor, tournament: Tournament, entry: Entry) -> None:
    """Reaction to tournament.services.registration.ENTRY_VOIDED: a carried entry stands (its chips are a flight's bag)."""
    if CarriedBag.objects.filter(day2_entry=entry).exists() or CarriedBag.objects.filter(entry=entry).exists():
        raise ServiceError(
            _("Entry #%(number)s was carried into Day 2 with a flight's bag: it is not voided.") % {"number": entry.number},
            code="carried_entry",
            status=409,
        )


def no_place_in_a_flight(*, tournament: Tournament, entry: Entry) -> dict:
    """Answer to tables.services.busts.FIXED_PLACE: a flight's bust has no place (places are paid from Day 2 only). The bust's
    undo keeps every other place as it is, as under a deal."""
    if Flight.objects.filter(tournament_id=tournament.pk).exists():
        return {"place": None, "place_low": None}
    return {}


def end_by_share(*, actor: Actor, tournament: Tournament, entry: Entry) -> None:
    """Reaction to tables.services.busts.ENTRY_BUSTED: a flight with a share rule ends at the end of the level in force once
    the players left are at most its share of the entries (flights/rules/flights.py, share_reached). Once: a bust undone later
    changes nothing. A day end already set at that level or before stands."""
    flight = Flight.objects.select_for_update().filter(tournament_id=tournament.pk).first()
    if flight is None or flight.end_share_percent is None or flight.ending_players is not None:
        return
    figures = Entry.objects.filter(tournament=tournament).exclude(status=Entry.Status.VOIDED)
    entries, left = figures.count(), figures.filter(status=Entry.Status.ACTIVE).count()
    if not fr.share_reached(entries, left, flight.end_share_percent):
        return
    level = _day_end(tournament, actor=actor, rule=f"flight {flight.label}: {flight.end_share_percent}%", level=tournament.current_level)
    flight.ending_level, flight.ending_players = level, left
    flight.save(update_fields=["ending_level", "ending_players"])
    record_event(
        tournament,
        actor=actor,
        type_="flight.ending",
        seats=False,
        payload={
            "flight": flight.label,
            "players_left": left,
            "entries": entries,
            "percent": flight.end_share_percent,
            "threshold": fr.share_threshold(entries, flight.end_share_percent),
            "level": level,
        },
    )


def _day_end(tournament: Tournament, *, actor: Actor, rule: str, level: int) -> int | None:
    """Set the clock to stop at the end of `level` (the next level when that one is over: a bust in the break after
    it); a stop set already at that level or before stands. Returns the level the flight ends after; None when the
    clock cannot stop at either (no such level, the clock finished): the floor's line still shows, and the director
    ends the day on the clock. The bust never fails for it."""
    set_at = events.clock_stop(tournament)
    if set_at is not None and set_at <= level:
        return set_at
    for candidate in (level, level + 1):
        try:
            with transaction.atomic():
                clock_services.set_day_end_by_rule(tournament, actor=actor, level=candidate, rule=rule)
            return candidate
        except ServiceError:
            continue
    return None


def pool_of_the_flights(*, tournament: Tournament) -> dict:
    """Answer to tournament.selectors.stats.SHARED_POOL: for an event's Day 2, what its flights add to the pool; for a flight,
    where its prizes are paid (the payouts read it from the figures). One query for any other tournament."""
    day2_of, label, event_id, event_name, day2 = (
        Tournament.objects.filter(pk=tournament.pk)
        .values_list("day2_of__pk", "flight__label", "flight__event_id", "flight__event__name", "flight__event__day2_id")
        .first()
    )
    if day2_of is not None:
        return events.shared_pool(tournament, day2_of)
    if event_id is not None:
        return {"paid_from": events.paid_from_facts(event_id, label, event_name, day2)}
    return {}


def bag_number_scope(*, tournament: Tournament) -> dict | None:
    """Answer to days.selectors.bags.BAG_NUMBER_SCOPE: a bag number is unique in the event, over its flights and Day 2."""
    event = events.event_of(tournament)
    if event is None:
        return None
    return {"tournaments": [*events.flight_ids(event), *([event.day2_id] if event.day2_id else [])]}


def next_day_of_a_flight(*, tournament: Tournament) -> dict | None:
    """Answer to days.selectors.bags.NEXT_DAY_ELSEWHERE: a flight's players go on to its event's Day 2 (the carry), never
    to a next day of the flight itself."""
    row = Flight.objects.filter(tournament=tournament).values_list("label", "event__name", "event_id").first()
    if row is None:
        return None
    return {"flight": row[0], "event": row[1], "event_id": row[2]}


def day2_days(*, tournament: Tournament) -> dict | None:
    """Answer to days.selectors.bags.DAY_OFFSET: an event's Day 2 plays its first day as the event's Day 2, after its
    flights' Day 1."""
    return {"offset": 1} if Event.objects.filter(day2_id=tournament.pk).exists() else None
