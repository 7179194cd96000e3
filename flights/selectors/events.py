"""Reads of the events with flights (flights/services/events.py writes them): which event a tournament belongs to, the floor's
line when a flight ends by the share of its field left, the prize pool summed over the flights, and the event's state
for its page and the API (flights, Day 2, the pool, the bags carried and forfeited). Plain values; each read in a
constant number of queries whatever the size of the field."""

from __future__ import annotations

from django.db.models import Count, Q, Sum
from django.utils.formats import number_format
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext_lazy

from clock.models import ClockState
from days.models import Bag, Day
from flights.models import CarriedBag, Event, Flight
from flights.rules import flights as fr
from tables.selectors.screens import places_paid
from tournament.models import Entry, Player, Purchase, Tournament
from tournament.selectors.stats import registration_problem, tournament_stats

ENDING_LINE = ngettext_lazy(
    "%(players)s player left: this flight ends at the end of this level.",
    "%(players)s players left: this flight ends at the end of this level.",
    "players",
)
PAID_FROM_DAY2 = gettext_lazy("Flight %(flight)s of %(event)s pays no places: the prizes are paid from Day 2.")
PLACES_BEYOND = gettext_lazy(
    "Day 2 pays more places than the flights' share rules send players on. Places paid: %(places)s; players sent on: "
    "%(players)s; places unpaid unless more players reach Day 2: %(unpaid)s. Raise a flight's share, or pay fewer "
    "places."
)
NOT_PLAYING = Q(status=Entry.Status.VOIDED)


def flight_of(t: Tournament) -> Flight | None:
    """The flight this tournament is (with its event), None for any other tournament."""
    return Flight.objects.select_related("event").filter(tournament_id=t.pk).first()


def flight_label(tournament_id: int) -> str | None:
    """The label of the flight this tournament is ("1A"), None for any other tournament."""
    return Flight.objects.filter(tournament_id=tournament_id).values_list("label", flat=True).first()


def event_of_day2(t: Tournament) -> Event | None:
    """The event whose Day 2 this tournament is, None for any other tournament."""
    return Event.objects.filter(day2_id=t.pk).first()


def event_of(t: Tournament) -> Event | None:
    """The event this tournament is a flight or the Day 2 of, None for any other tournament."""
    return Event.objects.filter(Q(flights__tournament_id=t.pk) | Q(day2_id=t.pk)).distinct().first()


def figures_from(t: Tournament) -> list[int]:
    """The other tournaments (ids) whose changes move the figures this one's lobby shows: for a flight, the event's
    other flights and its Day 2 (one pool, Day 2's places paid); for a Day 2, its flights. Empty for any other."""
    event = event_of(t)
    if event is None:
        return []
    members = set(Flight.objects.filter(event=event).values_list("tournament_id", flat=True)) | {event.day2_id}
    return sorted(pk for pk in members if pk is not None and pk != t.pk)


def flight_ids(event: Event) -> list[int]:
    """The tournaments (ids) of the event's flights, earliest first."""
    return list(Flight.objects.filter(event=event).order_by("tournament__start_at", "label", "pk").values_list("tournament_id", flat=True))


def paid_from(t: Tournament) -> dict | None:
    """For a flight: where its prizes are paid (Day 2, with the sentence the payouts page and API show); None for
    any other tournament, which pays its own places."""
    flight = flight_of(t)
    if flight is None:
        return None
    return with_message(paid_from_facts(flight.event_id, flight.label, flight.event.name, flight.event.day2_id))


def paid_from_facts(event_id: int, label: str, event_name: str, day2_id: int | None) -> dict:
    """Where a flight's prizes are paid, as the figures carry it (tournament/selectors/stats.py: computed once, for every
    reader): no words, which each reader gets in his own language (with_message)."""
    return {"event": event_id, "flight": label, "event_name": event_name, "day2": day2_id}


def with_message(facts: dict) -> dict:
    """The facts with the sentence the payouts page and API show, in the language of the request."""
    return {**facts, "message": str(PAID_FROM_DAY2) % {"flight": facts["flight"], "event": facts["event_name"]}}


def ending_line(flight: Flight, left: int | None = None) -> dict | None:
    """The floor's line once the flight's share rule has fired: {players (left now), level (the level it ends after;
    None when the clock could not be set), players_at_ending, message ("N players left: this flight ends at the end of
    this level.")}; None before. `left`: the players left, when the caller counted them."""
    if flight.ending_players is None:
        return None
    if left is None:
        left = Entry.objects.filter(tournament_id=flight.tournament_id, status=Entry.Status.ACTIVE).count()
    return {
        "players": left,
        "level": flight.ending_level,
        "players_at_ending": flight.ending_players,
        "message": ENDING_LINE % {"players": left},
    }


def flight_ending(t: Tournament) -> dict | None:
    """ending_line for a tournament (the map's or the overview's notice): None unless it is a flight that ends now."""
    flight = flight_of(t)
    return ending_line(flight) if flight is not None else None


def shared_pool(day2: Tournament, event_id: int) -> dict:
    """What the flights add to Day 2's own figures (tournament.selectors.stats.SHARED_POOL): every flight entry counts (a re-entry
    too), less the Day 2 entries carried from them (the same players, counted in their flights); money paid in the
    flights. Three queries."""
    in_flights = Q(tournament__flight__event_id=event_id)
    rows = (
        Entry.objects.filter(in_flights | Q(tournament_id=day2.pk))
        .exclude(NOT_PLAYING)
        .aggregate(
            entries=Count("id", filter=in_flights),
            reentries=Count("id", filter=in_flights & Q(kind=Entry.Kind.REENTRY)),
            carried=Count("id", filter=Q(tournament_id=day2.pk, carried_into__isnull=False)),
            players=Count("player", distinct=True),
            own_players=Count("player", distinct=True, filter=Q(tournament_id=day2.pk)),
        )
    )
    money = Purchase.objects.filter(tournament__flight__event_id=event_id, status=Purchase.Status.PAID).aggregate(
        collected=Sum("amount"), fees=Sum("fee")
    )
    return {
        "entries": rows["entries"] - rows["carried"],
        "reentries": rows["reentries"],
        "unique_players": rows["players"] - rows["own_players"],
        "collected": money["collected"] or 0,
        "fees": money["fees"] or 0,
    }


def flights_pool(event: Event) -> dict:
    """The pool as it stands: Day 2's figures (its own and every flight's, tournament.selectors.stats), or before a Day 2 is set
    the flights' summed. {entries, unique_players, collected, fees, prize_pool, currency}."""
    if event.day2_id is not None:
        stats = tournament_stats(event.day2)
        return {k: stats[k] for k in ("entries", "unique_players", "collected", "fees", "prize_pool", "currency")}
    rows = (
        Entry.objects.filter(tournament__flight__event=event)
        .exclude(NOT_PLAYING)
        .aggregate(entries=Count("id"), players=Count("player", distinct=True))
    )
    money = Purchase.objects.filter(tournament__flight__event=event, status=Purchase.Status.PAID).aggregate(
        collected=Sum("amount"), fees=Sum("fee")
    )
    first = Flight.objects.filter(event=event).values_list("tournament__currency", flat=True).first()
    return {
        "entries": rows["entries"],
        "unique_players": rows["players"],
        "collected": money["collected"] or 0,
        "fees": money["fees"] or 0,
        "prize_pool": money["collected"] or 0,
        "currency": first or "",
    }


def current_bag_of(event: Event, player_id: int, *, other_than: int) -> tuple[str, str, int] | None:
    """(flight label, bag number, chips) of a current bag the player holds in a flight of the event other than the
    tournament `other_than` (an entry still in, bagged), or None."""
    return (
        Bag.objects.filter(tournament__flight__event=event, current=True, entry__player_id=player_id, entry__status=Entry.Status.ACTIVE)
        .exclude(tournament_id=other_than)
        .order_by("tournament__start_at", "pk")
        .values_list("tournament__flight__label", "bag_number", "chips")
        .first()
    )


def flight_bags(event: Event) -> list[dict]:
    """Every current Day 1 bag of a player still in, in every flight of the event: what the carry reads. One query."""
    fields = (
        "pk",
        "tournament_id",
        "entry_id",
        "entry__player_id",
        "entry__id_hmac",
        "bag_number",
        "chips",
        "table_number",
        "seat",
        "bagged_at",
        "bagged_by_label",
        "entry__id_check__document_type",
        "entry__id_check__number_last4",
        "entry__id_check__number_hmac",
        "entry__id_check__checked_by_id",
        "entry__id_check__checked_at",
    )
    names = (
        "bag",
        "tournament",
        "entry",
        "player",
        "id_hmac",
        "bag_number",
        "chips",
        "table",
        "seat",
        "bagged_at",
        "bagged_by",
        "document_type",
        "last4",
        "number_hmac",
        "checked_by",
        "checked_at",
    )
    return [
        dict(zip(names, row, strict=True))
        for row in Bag.objects.filter(tournament__flight__event=event, day=1, current=True, entry__status=Entry.Status.ACTIVE).values_list(
            *fields
        )
    ]


def closed_flights(event: Event) -> set[int]:
    """The flights (tournament ids) whose Day 1 is closed."""
    return set(
        Day.objects.filter(tournament__flight__event=event, number=1, status=Day.Status.CLOSED).values_list("tournament_id", flat=True)
    )


def _status(flight: Flight, tournament_status: str, closed: bool) -> str:
    if flight.carried_at is not None:
        return "carried"
    if closed:
        return "closed"
    if flight.ending_players is not None:
        return "ending"
    return tournament_status


STATUS_WORDS = {
    "setup": gettext_lazy("Setting up"),
    "running": gettext_lazy("Running"),
    "finished": gettext_lazy("Finished"),
    "ending": gettext_lazy("Ends at the end of this level"),
    "closed": gettext_lazy("Day 1 closed"),
    "carried": gettext_lazy("Carried to Day 2"),
}


def _bag_rows(rows) -> list[dict]:
    return [
        {"entry": number, "name": Player.name_of(first, last, nick), "flight": label, "bag": bag, "chips": chips, "day2_entry": day2}
        for number, first, last, nick, label, bag, chips, day2 in rows
    ]


BAG_ROW = (
    "entry__number",
    "player__first_name",
    "player__last_name",
    "player__nickname",
    "flight__label",
    "bag__bag_number",
    "chips",
    "day2_entry__number",
)


def forfeited(event: Event) -> list[dict]:
    """The bags forfeited by the stack policy at the carry, by flight and entry: entry (the flight's), name, flight,
    bag, chips (not in Day 2). One query."""
    return _bag_rows(
        CarriedBag.objects.filter(event=event, forfeited=True)
        .order_by("flight__tournament__start_at", "flight__label", "entry__number")
        .values_list(*BAG_ROW)
    )


def carried(event: Event) -> list[dict]:
    """The bags carried into Day 2, by Day 2 entry: entry (the flight's), name, flight, bag, chips, day2_entry."""
    return _bag_rows(CarriedBag.objects.filter(event=event, forfeited=False).order_by("day2_entry__number").values_list(*BAG_ROW))


def event_tournaments(event_id: int) -> list[int]:
    """The tournaments of an event, its flights and its Day 2 (ids): a member of the staff who works one of them
    works the event (core/roles.works_in)."""
    flights = list(Flight.objects.filter(event_id=event_id).values_list("tournament_id", flat=True))
    day2 = Event.objects.filter(pk=event_id).values_list("day2_id", flat=True).first()
    return flights + ([day2] if day2 else [])


def event_list(worked=None) -> list[dict]:
    """Every event, the newest first: id, name, policy, flights (labels), day2 (tournament id or None). `worked`: the
    tournaments a member of the staff works (a queryset or ids; None: every one), whose events alone are listed."""
    labels: dict[int, list[str]] = {}
    flights = Flight.objects.order_by("tournament__start_at", "label")
    events = Event.objects.all()
    if worked is not None:
        events = events.filter(pk__in=Event.objects.filter(Q(flights__tournament__in=worked) | Q(day2__in=worked)).values("pk"))
        flights = flights.filter(event__in=events)
    for event_id, label in flights.values_list("event_id", "label"):
        labels.setdefault(event_id, []).append(label)
    return [
        {"id": pk, "name": name, "policy": policy, "day2": day2, "flights": labels.get(pk, [])}
        for pk, name, policy, day2 in events.values_list("pk", "name", "policy", "day2_id")
    ]


def places_warning(event: Event, flights: list[dict], carried_already: bool) -> dict | None:
    """{places_paid, players_sent_on, message} when Day 2's payout structure in force pays more places than the players
    the flights' share rules send on (flights/rules/flights.py, players_sent_on, over `flights`: event_state's rows), else None:
    also before a Day 2 is set, once the bags went on (Day 2's field is known then), and while a flight has no share
    rule (unknown). The message is in the reader's language, made at read time."""
    sent_on = fr.players_sent_on([(f["entries"], f["end_share_percent"]) for f in flights])
    if carried_already or event.day2_id is None or sent_on is None:
        return None
    paid = places_paid(event.day2)  # payouts answers (core.reactions): the pool and field are every flight's
    if not fr.pays_beyond_sent_on(paid, sent_on):
        return None
    return {
        "places_paid": paid,
        "players_sent_on": sent_on,
        "message": str(PLACES_BEYOND) % {"places": paid, "players": sent_on, "unpaid": _places(sent_on + 1, paid)},
    }


def _places(first: int, last: int) -> str:
    """A run of places as the payouts show one: "16–30", or "16" alone."""
    return f"{first}–{last}" if last > first else str(first)


def event_state(event: Event) -> dict:
    """The event as its page and the API show it:
    - id, name, policy, day2_late_registration, day2_late_stack, carried (whether the bags went on);
    - flights, earliest first: tournament, name, label, status (setup, running, finished, ending, closed, carried) and
      status_words, entries, players_left, end_after_level, end_share_percent, threshold (players left at which the
      share rule ends it, None without one), ending (ending_line), day1_closed, bags and bags_total (current Day 1
      bags of players still in), carried_at;
    - day2: {tournament, name, entries (its own: carried and late), players_left, registration_open} or None;
    - pool: flights_pool; bags, bags_total (every flight's), carried_total, forfeited_total (chips);
    - places_warning: places_warning (Day 2 pays more places than the share rules send players on), or None;
    - carried and forfeited: the lists (see carried, forfeited)."""
    flights = list(Flight.objects.filter(event=event).select_related("tournament").order_by("tournament__start_at", "label", "pk"))
    ids = [f.tournament_id for f in flights]
    counts = {
        row["tournament_id"]: row
        for row in Entry.objects.filter(tournament_id__in=ids)
        .exclude(NOT_PLAYING)
        .values("tournament_id")
        .annotate(entries=Count("id"), left=Count("id", filter=Q(status=Entry.Status.ACTIVE)))
    }
    bags = {
        row["tournament_id"]: row
        for row in Bag.objects.filter(tournament_id__in=ids, day=1, current=True, entry__status=Entry.Status.ACTIVE)
        .values("tournament_id")
        .annotate(n=Count("id"), total=Sum("chips"))
    }
    closed = closed_flights(event)
    rows = []
    for f in flights:
        n = counts.get(f.tournament_id, {})
        status = _status(f, f.tournament.status, f.tournament_id in closed)
        threshold = fr.share_threshold(n.get("entries", 0), f.end_share_percent) if f.end_share_percent else None
        ending = ending_line(f, n.get("left", 0))
        rows.append(
            {
                "tournament": f.tournament_id,
                "name": f.tournament.name,
                "label": f.label,
                "status": status,
                "status_words": str(STATUS_WORDS[status]),
                "entries": n.get("entries", 0),
                "players_left": n.get("left", 0),
                "end_after_level": f.end_after_level,
                "end_share_percent": f.end_share_percent,
                "threshold": threshold,
                "ending": ending,
                "day1_closed": f.tournament_id in closed,
                "bags": bags.get(f.tournament_id, {}).get("n", 0),
                "bags_total": bags.get(f.tournament_id, {}).get("total") or 0,
                "carried_at": f.carried_at,
            }
        )
    day2 = None
    if event.day2_id is not None:
        own = (
            Entry.objects.filter(tournament_id=event.day2_id)
            .exclude(NOT_PLAYING)
            .aggregate(entries=Count("id"), left=Count("id", filter=Q(status=Entry.Status.ACTIVE)))
        )
        t = event.day2
        day2 = {
            "tournament": t.pk,
            "name": t.name,
            "entries": own["entries"],
            "players_left": own["left"],
            "registration_open": registration_problem(t) is None,
        }
    carried_rows, forfeited_rows = carried(event), forfeited(event)
    carried_already = any(f.carried_at is not None for f in flights)
    return {
        "id": event.pk,
        "name": event.name,
        "policy": event.policy,
        "day2_late_registration": event.day2_late_registration,
        "day2_late_stack": event.day2_late_stack,
        "carried": carried_already,
        "flights": rows,
        "day2": day2,
        "pool": flights_pool(event),
        "places_warning": places_warning(event, rows, carried_already),
        "bags": sum(r["bags"] for r in rows),
        "bags_total": sum(r["bags_total"] for r in rows),
        "carried_total": sum(r["chips"] for r in carried_rows),
        "forfeited_total": sum(r["chips"] for r in forfeited_rows),
        "carried_bags": carried_rows,
        "forfeited_bags": forfeited_rows,
    }


def clock_stop(t: Tournament) -> int | None:
    """The level after which the tournament's clock is set to stop for the day (None: no day end set)."""
    return ClockState.objects.filter(tournament=t).values_list("stop_after_level", flat=True).first()


def bag_hint(t: Tournament, player: Player) -> str | None:
    """What the desk is told before registering a returning player who holds a current bag in another flight of the
    event (a Day 1 flight of it, or its Day 2 with late registration): the flight, the bag and its chips, and what the
    stack policy makes of it. None when he holds none."""
    flight = flight_of(t)
    event = flight.event if flight is not None else event_of_day2(t)
    if event is None:
        return None
    held = current_bag_of(event, player.pk, other_than=t.pk)
    if held is None:
        return None
    label, bag, chips = held
    facts = {
        "name": player.display_name,
        "flight": label,
        "bag": bag,
        "chips": number_format(chips, decimal_pos=0, use_l10n=True, force_grouping=True),
    }
    if flight is None:  # Day 2's late registration
        return _("%(name)s qualified in flight %(flight)s with bag %(bag)s: he goes on to Day 2 with it.") % facts
    if event.policy == Event.Policy.FIRST:
        return (
            _("%(name)s qualified in flight %(flight)s with bag %(bag)s: under first stack forward he cannot play another flight.") % facts
        )
    return (
        _(
            "%(name)s already holds bag %(bag)s (%(chips)s chips) from flight %(flight)s: under best stack forward "
            "only his largest bag goes on to Day 2."
        )
        % facts
    )
