"""Events with Day 1 flights into one Day 2: the director makes the event, adds its flights (each a
tournament of its own), names its Day 2, chooses the stack policy and Day 2 late registration, sets each flight's end
(after N levels, or when a share of its field is left), and carries the bags into Day 2 once every flight's Day 1 is
closed. Each function runs in one transaction, locks what it changes, records an audit event, and refuses bad input
with a translated message, changing nothing. The desk's and the floor's side are flights/reactions.py; the reads
flights/selectors/events.py.

The carry is made once for the whole event, when every flight's Day 1 is closed: under best stack forward a later
flight may still beat a bag, so no flight's bags go on before the last flight is bagged."""

from __future__ import annotations

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from clock.services import clock as clock_services
from core import roles
from core.actor import Actor
from core.errors import ServiceError, check_length, full_clean, next_number, require
from flights.models import CarriedBag, Event, Flight
from flights.rules import flights as fr
from flights.selectors import events
from tables.models import ChipCount, SeatRequest
from tournament.models import Entry, IdCheck, Purchase, Tournament
from tournament.services.audit import actor_label, actor_user, lock_tournament, record_event

NAME_TOO_LONG = gettext_lazy("The name is too long: at most %(max)s characters.")
LABEL_TOO_LONG = gettext_lazy("The flight's label is too long: at most %(max)s characters.")


def _lock_event(event: Event) -> Event:
    return Event.objects.select_for_update().get(pk=event.pk)


def _policy(policy) -> str:
    if policy not in fr.POLICIES:
        raise ServiceError(_("Unknown stack policy: choose best (best stack forward) or first (first stack forward)."), code="policy")
    return policy


def _carried(event: Event) -> None:
    if Flight.objects.filter(event=event, carried_at__isnull=False).exists():
        raise ServiceError(
            _("The bags of %(event)s went on to Day 2 already: its flights and Day 2 no longer change.") % {"event": event.name},
            code="already_carried",
            status=409,
        )


@transaction.atomic
def create_event(*, actor: Actor, name: str, policy: str = fr.BEST) -> Event:
    """A new event with flights (none yet) and its stack policy."""
    require(actor, roles.FLIGHTS)
    name = " ".join(str(name or "").split())
    if not name:
        raise ServiceError(_("Give the event a name."), code="name_missing")
    check_length(name, Event, "name", str(NAME_TOO_LONG))
    event = Event.objects.create(name=name, policy=_policy(policy), created_at=timezone.now(), created_by=actor_user(actor))
    record_event(None, actor=actor, type_="flights.event_created", payload={"event": event.pk, "name": name, "policy": event.policy})
    return event


def _same_money(t: Tournament, other: Tournament) -> None:
    """One prize pool: every flight and the Day 2 take the same buy-in in the same currency."""
    if (t.currency, t.buy_in) != (other.currency, other.buy_in):
        raise ServiceError(
            _(
                "%(name)s takes %(buy_in)s %(currency)s, %(other)s takes %(other_buy_in)s %(other_currency)s "
                "(minor units): an event's flights and Day 2 share one prize pool, so they take the same "
                "buy-in in the same currency."
            )
            % {
                "name": t.name,
                "buy_in": t.buy_in,
                "currency": t.currency,
                "other": other.name,
                "other_buy_in": other.buy_in,
                "other_currency": other.currency,
            },
            code="different_buy_in",
        )


def _free_tournament(t: Tournament) -> None:
    """Not already a flight or an event's Day 2."""
    flight = Flight.objects.select_related("event").filter(tournament=t).first()
    if flight is not None:
        raise ServiceError(
            _("%(name)s is already flight %(flight)s of %(event)s.") % {"name": t.name, "flight": flight.label, "event": flight.event.name},
            code="already_in_event",
            status=409,
        )
    day2 = Event.objects.filter(day2=t).first()
    if day2 is not None:
        raise ServiceError(
            _("%(name)s is already the Day 2 of %(event)s.") % {"name": t.name, "event": day2.name}, code="already_in_event", status=409
        )


def _a_member(event: Event) -> Tournament | None:
    """A tournament of the event whose money the others must match (its Day 2, or its first flight)."""
    if event.day2_id is not None:
        return event.day2
    flight = Flight.objects.filter(event=event).select_related("tournament").order_by("pk").first()
    return flight.tournament if flight is not None else None


@transaction.atomic
def add_flight(event: Event, *, actor: Actor, tournament: Tournament, label: str) -> Flight:
    """A tournament still in setup becomes a Day 1 flight of the event (its label: "1A", "1B"...). Refused: a
    tournament already running or finished, already a flight or a Day 2, a label empty or used in the event, a buy-in
    other than the event's, an event whose bags went on to Day 2."""
    require(actor, roles.FLIGHTS)
    event = _lock_event(event)
    t = lock_tournament(tournament.pk)
    label = " ".join(str(label or "").split()).upper()
    if not label:
        raise ServiceError(_("Give the flight a label, such as 1A."), code="label_missing")
    check_length(label, Flight, "label", str(LABEL_TOO_LONG))
    _carried(event)
    if t.status != Tournament.Status.SETUP:
        raise ServiceError(
            _("%(name)s has started: a flight is added while its tournament is being set up.") % {"name": t.name},
            code="not_in_setup",
            status=409,
        )
    _free_tournament(t)
    league = Tournament.objects.filter(pk=t.pk).values_list("league_member__league__name", flat=True).first()
    if league is not None:
        raise ServiceError(
            _(
                "%(name)s is in the league %(league)s: an event with flights counts in a league by its "
                "Day 2. Take it out of the league first."
            )
            % {"name": t.name, "league": league},
            code="in_a_league",
            status=409,
        )
    if Flight.objects.filter(event=event, label=label).exists():
        raise ServiceError(
            _("%(event)s has a flight %(flight)s already.") % {"event": event.name, "flight": label}, code="label_taken", status=409
        )
    other = _a_member(event)
    if other is not None:
        _same_money(t, other)
    flight = Flight.objects.create(event=event, tournament=t, label=label, created_at=timezone.now())
    record_event(
        t,
        actor=actor,
        type_="flight.added",
        stats=False,
        seats=False,
        payload={"event": event.pk, "event_name": event.name, "flight": label},
    )
    return flight


def _apply_late_stack(event: Event, day2: Tournament) -> None:
    """Day 2's late registration takes the event's late stack: the Day 2 tournament's starting stack, which
    registration gives every new entry (tournament.services.registration.register_entry)."""
    if event.day2_late_registration and event.day2_late_stack and day2.starting_stack != event.day2_late_stack:
        day2.starting_stack = event.day2_late_stack
        day2.save(update_fields=["starting_stack"])


@transaction.atomic
def set_day2(event: Event, *, actor: Actor, tournament: Tournament) -> Event:
    """The tournament the event's bags go on to, set once. Refused: a Day 2 set already, a tournament with entries,
    one already a flight or another event's Day 2, a buy-in or currency other than the flights'."""
    require(actor, roles.FLIGHTS)
    event = _lock_event(event)
    t = lock_tournament(tournament.pk)
    if event.day2_id is not None:
        raise ServiceError(
            _("The Day 2 of %(event)s is set already (%(name)s).") % {"event": event.name, "name": event.day2.name},
            code="day2_set",
            status=409,
        )
    _free_tournament(t)
    if Entry.objects.filter(tournament=t).exists():
        raise ServiceError(
            _("%(name)s has entries already: Day 2 starts with the bags of the flights.") % {"name": t.name},
            code="day2_has_entries",
            status=409,
        )
    for flight in Flight.objects.filter(event=event).select_related("tournament"):
        _same_money(t, flight.tournament)
    event.day2 = t
    event.save(update_fields=["day2"])
    _apply_late_stack(event, t)
    record_event(
        t,
        actor=actor,
        type_="flights.day2_set",
        payload={
            "event": event.pk,
            "event_name": event.name,
            "late_registration": event.day2_late_registration,
            "late_stack": event.day2_late_stack,
        },
    )
    return event


@transaction.atomic
def set_policy(event: Event, *, actor: Actor, policy: str) -> Event:
    """Best or first stack forward. Refused once any flight has an entry: the desk has let players in (or refused
    them) under the policy in force, and a change would judge those players by a rule they were not told."""
    require(actor, roles.FLIGHTS)
    event = _lock_event(event)
    policy = _policy(policy)
    if policy == event.policy:
        return event
    if Entry.objects.filter(tournament__flight__event=event).exclude(status=Entry.Status.VOIDED).exists():
        raise ServiceError(
            _("The flights of %(event)s have entries: the stack policy was announced to them and no longer changes.")
            % {"event": event.name},
            code="policy_fixed",
            status=409,
        )
    before, event.policy = event.policy, policy
    event.save(update_fields=["policy"])
    record_event(None, actor=actor, type_="flights.policy_set", payload={"event": event.pk, "before": before, "after": policy})
    return event


@transaction.atomic
def set_day2_late_registration(event: Event, *, actor: Actor, allowed: bool, stack: int | None = None) -> Event:
    """Whether Day 2 takes late registrations, and their chips (the late stack: Day 2's starting stack). Refused: a
    late registration allowed without a stack of at least one chip."""
    require(actor, roles.FLIGHTS)
    event = _lock_event(event)
    if allowed and (not isinstance(stack, int) or isinstance(stack, bool) or stack < 1):
        raise ServiceError(_("Give the chips of a Day 2 late registration (one chip or more)."), code="late_stack")
    event.day2_late_registration = bool(allowed)
    event.day2_late_stack = stack if allowed else event.day2_late_stack
    full_clean(event, exclude=["day2", "created_by"])
    event.save(update_fields=["day2_late_registration", "day2_late_stack"])
    payload = {"event": event.pk, "late_registration": event.day2_late_registration, "late_stack": event.day2_late_stack}
    if event.day2_id is not None:
        day2 = lock_tournament(event.day2_id)
        _apply_late_stack(event, day2)
        record_event(day2, actor=actor, type_="flights.late_registration_set", payload=payload)
    else:
        record_event(None, actor=actor, type_="flights.late_registration_set", payload=payload)
    return event


@transaction.atomic
def set_flight_end(flight: Flight, *, actor: Actor, after_level: int | None = None, share_percent: int | None = None) -> Flight:
    """How the flight's day ends: after level N (the clock stops by itself at its end: clock.services.clock.set_day_end),
    and/or when `share_percent` % of its entries or fewer are left (flights/reactions.py). None clears a rule. Refused:
    a share outside 1-99, a level the clock refuses, a share rule changed after it fired."""
    require(actor, roles.FLIGHTS)
    t = lock_tournament(flight.tournament_id)
    flight = Flight.objects.select_for_update().get(pk=flight.pk)
    if share_percent is not None and not fr.valid_percent(share_percent):
        raise ServiceError(_("The share of the field left is a whole percentage from 1 to 99."), code="share")
    if after_level is not None and (not isinstance(after_level, int) or isinstance(after_level, bool) or after_level < 1):
        raise ServiceError(_("The level is a whole number from 1."), code="level")
    if flight.ending_players is not None and share_percent != flight.end_share_percent:
        raise ServiceError(
            _("Flight %(flight)s ends at the end of this level already (its share was reached): the share no longer changes.")
            % {"flight": flight.label},
            code="flight_ending",
            status=409,
        )
    if after_level != flight.end_after_level:  # a stop the share rule set stands: the earlier of the two ends the day
        ends = [level for level in (after_level, flight.ending_level) if level is not None]
        clock_services.set_day_end(t, actor=actor, level=min(ends) if ends else None)
    before = {"after_level": flight.end_after_level, "share_percent": flight.end_share_percent}
    flight.end_after_level, flight.end_share_percent = after_level, share_percent
    flight.save(update_fields=["end_after_level", "end_share_percent"])
    record_event(
        t,
        actor=actor,
        type_="flight.end_set",
        stats=False,
        seats=False,
        payload={"flight": flight.label, "before": before, "after_level": after_level, "share_percent": share_percent},
    )
    return flight


def _carry_refusals(event: Event) -> list[int]:
    """The flights (tournament ids, earliest first), once the carry may go: Day 2 set, flights there, every Day 1
    closed, nothing carried yet, Day 2 free of the bagged players."""
    if event.day2_id is None:
        raise ServiceError(_("Set the Day 2 tournament of %(event)s first.") % {"event": event.name}, code="no_day2", status=409)
    _carried(event)
    if CarriedBag.objects.filter(event=event).exists():
        raise ServiceError(_("Day 2 has carried entries already."), code="already_carried", status=409)
    flights = list(Flight.objects.filter(event=event).order_by("tournament__start_at", "label", "pk"))
    if not flights:
        raise ServiceError(_("%(event)s has no flights.") % {"event": event.name}, code="no_flights", status=409)
    closed = events.closed_flights(event)
    open_ = [f.label for f in flights if f.tournament_id not in closed]
    if open_:
        raise ServiceError(
            _("Day 1 of flight %(flights)s is not closed: the bags go on once every flight is bagged and closed.")
            % {"flights": ", ".join(open_)},
            code="flight_not_closed",
            status=409,
            details=open_,
        )
    return [f.tournament_id for f in flights]


def _day2_entries(day2: Tournament, *, actor: Actor, bags: list[dict], now) -> list[Entry]:
    """The Day 2 entries of the bags that go on, in bulk: each with an ID check "carried" copied from the flight's
    registration check, a paid purchase "carried" (no money, the bag's chips), and the bag as its chip count."""
    user = actor_user(actor)
    checks = IdCheck.objects.bulk_create(
        [
            IdCheck(
                player_id=b["player"],
                purpose=IdCheck.Purpose.CARRIED,
                document_type=b["document_type"],
                number_last4=b["last4"],
                number_hmac=b["number_hmac"],
                checked_by_id=b["checked_by"],
                checked_at=b["checked_at"],
            )
            for b in bags
        ]
    )
    first = next_number(Entry.objects.filter(tournament=day2))
    entries = Entry.objects.bulk_create(
        [
            Entry(
                tournament=day2,
                player_id=b["player"],
                number=first + i,
                kind=Entry.Kind.ENTRY,
                status=Entry.Status.ACTIVE,
                id_check=check,
                id_hmac=b["id_hmac"],
                created_at=now,
                created_by=user,
            )
            for i, (b, check) in enumerate(zip(bags, checks, strict=True))
        ]
    )
    receipt = next_number(Purchase.objects.filter(tournament=day2))
    Purchase.objects.bulk_create(
        [
            Purchase(
                tournament=day2,
                entry=e,
                number=receipt + i,
                kind=Purchase.Kind.CARRIED,
                status=Purchase.Status.PAID,
                amount=0,
                fee=0,
                chips=b["chips"],
                created_at=now,
                created_by=user,
                paid_at=now,
                paid_by=user,
            )
            for i, (b, e) in enumerate(zip(bags, entries, strict=True))
        ]
    )
    ChipCount.objects.bulk_create(
        [
            ChipCount(
                tournament=day2,
                entry=e,
                table_number=b["table"],
                seat=b["seat"],
                chips=b["chips"],
                source=ChipCount.Source.BAG,
                counted_at=b["bagged_at"],
                counted_by_label=b["bagged_by"] or actor_label(actor),
            )
            for b, e in zip(bags, entries, strict=True)
        ]
    )
    return entries


@transaction.atomic
def carry_to_day2(event: Event, *, actor: Actor) -> dict:
    """Every flight's bags go on to Day 2, once every flight's Day 1 is closed: for each player, the bag the stack
    policy keeps (best: his largest, ties by the earliest flight; first: his only one) becomes a Day 2 entry, unseated
    (Day 2's start draw seats them) with the bag's chips as its stack; every other bag is forfeited, listed, and its
    chips are not in Day 2. Day 2's registration closes unless the event allows Day 2 late registration. Refused: no
    Day 2, a flight not closed, bags carried already, a bagged player with a live Day 2 entry. Returns {carried,
    forfeited, chips (carried), forfeited_chips, flights}."""
    require(actor, roles.FLIGHTS)
    event = _lock_event(event)
    ids = _carry_refusals(event)
    for pk in sorted([*ids, event.day2_id]):  # one order of locks for every writer
        locked = lock_tournament(pk)
        if pk == event.day2_id:
            day2 = locked
    bags = events.flight_bags(event)
    order = {pk: i for i, pk in enumerate(ids)}
    chosen, lost = fr.going_on([fr.Bagged(b["player"], order[b["tournament"]], b["entry"], b["chips"]) for b in bags], event.policy)
    by_entry = {b["entry"]: b for b in bags}
    going = [by_entry[c.entry] for c in chosen]
    live = Entry.objects.filter(tournament=day2, status=Entry.Status.ACTIVE, player_id__in=[b["player"] for b in going])
    clash = live.select_related("player").first()
    if clash is not None:
        raise ServiceError(
            _("%(name)s plays Day 2 on entry #%(number)s already: void that entry before his bag goes on.")
            % {"name": clash.player.display_name, "number": clash.number},
            code="day2_entry_exists",
            status=409,
        )
    now = timezone.now()
    entries = _day2_entries(day2, actor=actor, bags=going, now=now)
    flight_of = dict(Flight.objects.filter(event=event).values_list("tournament_id", "pk"))
    CarriedBag.objects.bulk_create(
        [
            CarriedBag(
                event=event,
                flight_id=flight_of[b["tournament"]],
                bag_id=b["bag"],
                entry_id=b["entry"],
                player_id=b["player"],
                chips=b["chips"],
                day2_entry=e,
                carried_at=now,
            )
            for b, e in zip(going, entries, strict=True)
        ]
        + [
            CarriedBag(
                event=event,
                flight_id=flight_of[by_entry[c.entry]["tournament"]],
                bag_id=by_entry[c.entry]["bag"],
                entry_id=c.entry,
                player_id=c.player,
                chips=c.chips,
                forfeited=True,
                carried_at=now,
            )
            for c in lost
        ]
    )
    Flight.objects.filter(event=event).update(carried_at=now)
    requests = _carry_seat_requests(day2, bags=going, now=now)
    if not event.day2_late_registration and not day2.registration_closed:
        day2.registration_closed = True  # nothing more can come into the pool: the payout structure is frozen
        day2.save(update_fields=["registration_closed"])
    summary = {
        "event": event.pk,
        "carried": len(going),
        "forfeited": len(lost),
        "chips": sum(b["chips"] for b in going),
        "forfeited_chips": sum(c.chips for c in lost),
        "flights": len(ids),
    }
    record_event(day2, actor=actor, type_="flights.carried", payload={**summary, "seat_requests": requests})
    return summary


def _carry_seat_requests(day2: Tournament, *, bags: list[dict], now) -> int:
    """Special needs go on with the players (TDA 6): each carried player's live seat request in the flight his bag
    comes from becomes his request in Day 2 (unless Day 2 holds one for him already), in bulk, so Day 2's start draw
    honours it. Returns how many."""
    flight_of_player = {b["player"]: b["tournament"] for b in bags}
    held = set(SeatRequest.objects.filter(tournament=day2, cancelled_at__isnull=True).values_list("player_id", flat=True))
    rows = [
        r
        for r in SeatRequest.objects.filter(
            tournament_id__in=set(flight_of_player.values()), player_id__in=list(flight_of_player), cancelled_at__isnull=True
        )
        if flight_of_player[r.player_id] == r.tournament_id and r.player_id not in held
    ]
    SeatRequest.objects.bulk_create(
        [
            SeatRequest(
                tournament=day2,
                player_id=r.player_id,
                table_number=r.table_number,
                seat=r.seat,
                accessible=r.accessible,
                note=r.note,
                created_at=now,
                created_by_id=r.created_by_id,
            )
            for r in rows
        ]
    )
    return len(rows)
