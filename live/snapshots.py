"""Snapshots: what a screen needs to draw itself from nothing, with the sequence number it is at."""

from __future__ import annotations

from zoneinfo import ZoneInfo

from django.db.models import Max, Sum
from django.utils import timezone

from clock.rules.timeline import Anchor
from clock.selectors.clock import clock_at, clock_snapshot, rows_of
from core import memory
from core.broadcast import serialize_event
from flights.models import Event
from flights.selectors.events import figures_from, flights_pool
from leagues.selectors.leagues import lobby_league
from payouts.selectors.bounty_screens import lobby_bounties
from payouts.selectors.structure import final_results, payout_state
from tables.selectors import counts
from tables.selectors import state as tables_selectors
from tables.selectors.room_map import colours, registration_state
from tables.selectors.screens import alternates_board, tables_overview
from tables.selectors.state import pending_commitment
from tournament.models import AuditEvent, Entry, Tournament
from tournament.selectors.stats import tournament_stats
from venues.models import Venue
from venues.selectors.today import today_events


def floor_snapshot(tournament: Tournament, events: int = 50) -> dict:
    tournament.refresh_from_db()
    recent = list(AuditEvent.objects.filter(tournament=tournament).select_related("actor").order_by("-seq")[:events])
    return {
        "kind": "snapshot",
        "seq": tournament.event_seq,
        "tournament": {"id": tournament.id, "name": tournament.name},
        "stats": tournament_stats(tournament),
        "clock": clock_snapshot(tournament),
        "tables": tables_overview(tournament),
        "next_draw": pending_commitment(tournament),
        "events": [serialize_event(e) for e in reversed(recent)],
    }


def lobby_payouts(tournament: Tournament, stats: dict, state: dict | None = None) -> dict:
    """What the lobby shows of the prizes: the places paid and the bands [first, last, prize], for the
    pool and the field they were made for. A Day 1 flight pays nothing itself (its prizes are paid from its
    event's Day 2): its TV shows the event's places paid, with no bands (`flight`: no bubble nor pay jump of its
    own field, whose players left are not the event's)."""
    state = state or payout_state(tournament, stats)
    sat = state["satellite"]
    return {
        "pool": state["pool"],
        "entries": state["entries"],
        "places_paid": state["places_paid"],
        "bands": [[band["first"], band["last"], band["prize"]] for band in state["bands"]],
        # a satellite: its seats and where play stops, the TV's "N seats: play stops at N players"
        "satellite": None if sat is None else {key: sat[key] for key in ("seats", "stops_at", "seat_value", "cash")},
        "flight": False,
    }


def flight_figures(stats: dict) -> tuple[dict, dict] | None:
    """A Day 1 flight's figures as its lobby shows them: the event's one prize pool (every flight's, and
    Day 2's late entries) and the places its Day 2 pays, not the flight's own collected money and "0 places paid";
    None for any other tournament. (stats, payouts)."""
    paid_from = stats.get("paid_from")
    if paid_from is None:
        return None
    event = Event.objects.select_related("day2").get(pk=paid_from["event"])
    pool = flights_pool(event)["prize_pool"]
    if event.day2 is not None:
        day2_stats = tournament_stats(event.day2)
        payouts = lobby_payouts(event.day2, day2_stats)
    else:
        payouts = {"pool": pool, "entries": stats["entries"], "places_paid": 0, "bands": [], "satellite": None}
    return {**stats, "prize_pool": pool}, {**payouts, "bands": [], "satellite": None, "flight": True}


LOBBY_FINAL_PLACES = 10  # the winner and nine more: what a TV shows in large type without scrolling


def lobby_final(tournament: Tournament, state: dict) -> dict | None:
    """Once play is over, what the lobby shows instead of the clock: the top places (the paid ones, at least
    the first three) with their prizes, and how many more places are paid; None while play goes on.
    Entry numbers, no names: this snapshot also goes to the players' public seat socket (lobby_names)."""
    rows = final_results(tournament, state)
    if rows is None:
        return None
    shown = [row for row in rows if row["prize"] > 0 or row["place"] <= 3 or row["seat"]][:LOBBY_FINAL_PLACES]
    sat = state["satellite"]
    return {
        "results": [{key: row[key] for key in ("entry", "place", "place_low", "prize", "seat")} for row in shown],
        "more": sum(1 for row in rows[len(shown) :] if row["prize"] > 0 or row["seat"]),
        "seats_in": sat["target"]["name"] if sat and sat["seats"] else None,
    }


def lobby_snapshot(tournament: Tournament) -> dict:
    tournament.refresh_from_db()
    stats = tournament_stats(tournament)
    state = payout_state(tournament, stats)
    payouts = lobby_payouts(tournament, stats, state)
    shown = flight_figures(stats)
    if shown is not None:
        stats, payouts = shown
    public = counts.public(tournament)
    return {
        "kind": "snapshot",
        "seq": tournament.event_seq,
        "seats_seq": tournament.seats_seq,  # the seats' version (web/caching.py): a seat page newer asks nothing
        "tournament": {"id": tournament.id, "name": tournament.name, "venue": tournament.venue, "currency": tournament.currency},
        "stats": stats,
        "payouts": payouts,
        "final": lobby_final(tournament, state),
        "clock": tables_selectors.with_color_ups(tournament, clock_snapshot(tournament)),
        "next_draw": pending_commitment(tournament),
        "h4h": tables_selectors.lobby_state(tables_selectors.hand_for_hand(tournament)),
        # The chip leaders, with names, while the house shows counts in public (tables/selectors/counts.py).
        "leaders": counts.leaders(tournament, stats) if public else None,
        # A bounty event's panel (None outside one): the bounty money in play, a PKO's biggest heads (with names, by
        # the chip leaders' rule), a mystery event's envelopes left and the last one drawn (its winners named by it too).
        "bounties": lobby_bounties(tournament, names=public),
        # Its league's standings, shown during breaks when the league says so: names and points.
        "league": lobby_league(tournament),
        # The event's other tournaments, whose changes move this lobby's figures (a flight shows its event's pool):
        # the TV hears their public sockets too and reads its snapshot again (static/js/lobby.js).
        "figures_from": figures_from(tournament),
        # A sold-out tournament's waiting list (None without one): the alternates called to a seat and the numbers
        # waiting, no names (tables/selectors/screens.py alternates_board).
        "alternates": alternates_board(tournament),
    }


# tournament id -> the other tournaments whose versions its lobby's version adds (its snapshot's figures_from, as
# last computed in this worker: a flight added later joins at the tournament's own next change).
_FIGURES_FROM: dict[int, tuple[int, ...]] = {}


def lobby_version(tournament: Tournament) -> int:
    """The version of what the lobby shows: the tournament's event sequence, plus the sequences of the event's
    tournaments whose changes move its figures (each only grows, so their sum does whenever one of them changes).
    A query only for a tournament of an event."""
    others = _FIGURES_FROM.get(tournament.pk)
    if not others:
        return tournament.event_seq
    return tournament.event_seq + (Tournament.objects.filter(pk__in=others).aggregate(n=Sum("event_seq"))["n"] or 0)


def _kept(what: str, tournament: Tournament, snapshot, version=None) -> dict:
    """A snapshot read once per version in this worker (core/memory.py), its clock brought to this moment
    (the countdown's position depends on the time, nothing else in it does). `tournament` must be read
    just now (read_again): the answer is never older than its version. `version(tournament)`: the version
    the snapshot is kept at (the tournament's event sequence by default)."""
    version = version or (lambda t: t.event_seq)

    def compute():
        seq = version(tournament)  # read before the snapshot: the snapshot is at least this new
        return seq, (snapshot(tournament), rows_of(tournament))  # reads the tournament's version first

    _version, (data, rows) = memory.at_version(what, tournament.pk, version(tournament), compute)
    return {**data, "clock": clock_now(data["clock"], rows, timezone.now())}


def clock_now(clock: dict, rows: list, now) -> dict:
    """A clock kept in a snapshot, brought to this moment (its countdown's position is all that depends on the time)."""
    anchor = None if clock["anchor"] is None else Anchor(**clock["anchor"])
    return {**clock, **clock_at(rows, anchor, now)}


def read_again(tournament: Tournament) -> Tournament:
    """A socket's tournament, its version read now: the snapshot it then gets is never older than this
    moment, so a socket that joined its groups before asking misses nothing."""
    tournament.refresh_from_db(fields=["event_seq"])
    return tournament


def lobby_answer(tournament: Tournament) -> dict:
    """The lobby's snapshot, computed once per version in this worker: twenty TVs and the phones'
    lobby reads cost one."""

    def snapshot(t: Tournament) -> dict:
        data = lobby_snapshot(t)
        _FIGURES_FROM[t.pk] = tuple(data.get("figures_from") or ())  # its first one here is kept at its own sequence
        return data

    return _kept("lobby", tournament, snapshot, lobby_version)


def lobby_names(tournament: Tournament, snapshot: dict) -> dict:
    """The lobby's snapshot as its display link reads it (the TV's page, the API's api-lobby-snapshot): once play is
    over, with the names of the places shown (final.names, by entry number). The socket's snapshot has none."""
    final = snapshot.get("final")
    if not final:
        return snapshot
    names = {
        str(e.number): e.player.display_name
        for e in Entry.objects.filter(tournament=tournament, number__in=[row["entry"] for row in final["results"]]).select_related("player")
    }
    return {**snapshot, "final": {**final, "names": names}}


def floor_answer(tournament: Tournament) -> dict:
    """The floor's snapshot (every table of the room, the last events), computed once per version in
    this worker: fifty tablets connecting at once cost one computation, not fifty fighting the floor's
    busts for the processor."""
    return _kept("floor", tournament, floor_snapshot)


def room_tv_snapshot(venue: Venue) -> tuple[dict, dict[int, list]]:
    """A room TV's state (web/venues/room_tv.py): every tournament running in the venue, as its own lobby TV shows it (the
    level, the blinds, the clock to count down, players left, entries, the average stack, hand-for-hand) with its
    registration's state, and today's schedule of the venue. Tournament names and figures, no player's name. With each
    tournament's rows of levels, to bring its clock to the moment of each answer."""
    day = today_events(venue.all_tournaments())
    colour = colours(venue)  # as the room map colours them
    running, rows = [], {}
    for t in day:
        if t.status != Tournament.Status.RUNNING:
            continue
        lobby = lobby_answer(t)  # kept per version: the tournament's own TVs and the room's share it
        stats = lobby["stats"]
        running.append(
            {
                "id": t.pk,
                "name": t.name,
                "currency": t.currency,
                "colour": colour.get(t.pk),
                "clock": lobby["clock"],
                "stats": {key: stats[key] for key in ("players_left", "entries", "average_stack", "prize_pool")},
                "h4h": lobby["h4h"]["on"],
                "over": lobby["final"] is not None,
                "registration": registration_state(t, stats),
            }
        )
        rows[t.pk] = rows_of(t)
    schedule = [
        {
            "id": t.pk,
            "name": t.name,
            "start": t.start_at.astimezone(ZoneInfo(t.time_zone)).strftime("%H:%M"),
            "status": t.status,
            "registration": registration_state(t, tournament_stats(t)) if t.status != Tournament.Status.RUNNING else None,
        }
        for t in day
    ]
    return {"kind": "snapshot", "venue": {"id": venue.pk, "name": venue.name}, "tournaments": running, "schedule": schedule}, rows


def room_tv_version(venue: Venue) -> int:
    """The version of what a room TV shows: the sequences of the venue's tournaments (each only grows, so their sum does
    whenever one of them changes, or a tournament joins the venue), and the venue's own last change (a table closed or
    given back changes whether a tournament is sold out)."""
    seqs = venue.all_tournaments().aggregate(n=Sum("event_seq"))["n"] or 0
    own = AuditEvent.objects.filter(tournament__isnull=True).aggregate(n=Max("id"))["n"] or 0
    return seqs + own


def room_tv_answer(venue: Venue) -> dict:
    """A room TV's snapshot, computed once per version in this worker (however many TVs of the room ask), each clock
    brought to this moment."""

    def compute():
        seq = room_tv_version(venue)
        return seq, room_tv_snapshot(venue)

    _version, (data, rows) = memory.at_version("room_tv", venue.pk, room_tv_version(venue), compute)
    now = timezone.now()
    shown = [{**card, "clock": clock_now(card["clock"], rows[card["id"]], now)} for card in data["tournaments"]]
    # seq 0: a TV hears every room note after it (theirs are the time they were sent: each tournament counts its own)
    return {**data, "seq": 0, "version": _version, "server_time": now.timestamp(), "tournaments": shown}
