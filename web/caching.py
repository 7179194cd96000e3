"""Hot public reads answered per state version: the tournament's event sequence.

Every change of a tournament is an audited event with the next sequence number, so (tournament,
event_seq) names a state of everything a public page shows (names, tables, seats, moves, places,
draws). A public read decorated with `versioned`:
- costs one indexed query (the sequences) before anything else, or none when this worker read them
  lately (core/memory.py: within FRESH_SECONDS for a first load; a screen reacting to a push names the
  push's sequence as ?v= and gets an answer at least that new; a change in this worker is seen at once);
- answers 304 Not Modified when the phone already holds that version (ETag / If-None-Match);
- answers from this worker's memory when another phone asked the same question at that version
  (JSON answers of anonymous requests only: a page of HTML may carry a session's CSRF token);
- is computed as before otherwise, and remembered under that version.
The seat answers of a whole room are computed once per version (`room_seats`): the phones of the draw
rush each ask for a different entry, which no per-answer memory would help.
A change makes a new sequence number and a push, so no screen is left with a stale answer. Answers that depend on the time
(the lobby's clock snapshot carries the server's time) must not use it.
"""

from __future__ import annotations

import time
from functools import wraps

from django.conf import settings
from django.core.cache import caches
from django.db import connection
from django.http import HttpResponse, HttpResponseNotModified
from django.utils.cache import patch_cache_control
from django.utils.translation import get_language
from rest_framework.response import Response

from core import memory
from flights.selectors.day2 import day_stacks
from flights.selectors.events import flight_label
from leagues.selectors.leagues import league_link
from payouts.selectors.bounty_screens import seat_bounties
from payouts.selectors.satellites import seats_won
from payouts.selectors.structure import prizes_paid, prizes_won
from tables.selectors.counts import public as public_counts
from tables.selectors.screens import public_seats, search_index
from tables.selectors.state import pending_commitment
from tournament.models import AuditEvent, Entry, Tournament

CACHE = "public"  # settings.CACHES: a per-process memory cache
TTL_SECONDS = 300  # a version rarely lasts this long in play; a newer one replaces it anyway


def state_version(pk: int, field: str = "event_seq", seen: int | None = None) -> int | None:
    """The tournament's version: its event sequence, or `seats_seq`, the last event that may change a
    public seat answer (tournament/services/audit.py). Read from the database, or from this worker's memory of
    a recent read (core/memory.py): `seen` is the event sequence the asking screen was told of."""
    if not 0 < pk < 2**63:  # no such row (and no number the database takes)
        return None
    known = memory.known_versions(pk, seen)
    if known is None:
        read_at = time.monotonic()
        columns = ", ".join(f'"{Tournament._meta.get_field(name).column}"' for name in ("event_seq", "seats_seq"))
        with connection.cursor() as cursor:  # one plain statement: every public read may make it
            cursor.execute(f'SELECT {columns} FROM "{Tournament._meta.db_table}" WHERE "id" = %s', [pk])
            row = cursor.fetchone()
        if row is None:
            return None
        memory.remember_versions(pk, row[0], row[1], read_at)
        known = memory.Versions(read_at, row[0], row[1])
    return known.event_seq if field == "event_seq" else known.seats_seq


def _seen(request) -> int | None:
    """?v=: the event sequence of the push a screen reacts to (static/js/seat-page.js)."""
    value = request.GET.get("v", "")
    return int(value) if value.isdigit() and len(value) < 19 else None


def _etag(request, pk: int, seq: int) -> str:
    user = getattr(request, "user", None)
    who = user.pk if user is not None and user.is_authenticated else 0
    return f'"t{pk}.{seq}.{get_language()}.{who}"'


def _anonymous(request) -> bool:
    return settings.SESSION_COOKIE_NAME not in request.COOKIES and "HTTP_AUTHORIZATION" not in request.META


def versioned(view=None, *, remember: bool = True, seats: bool = False):
    """Decorate a public read taking the tournament's `pk` (a function view, or an APIView's method).
    The view finds the version as `request.state_version`. `remember=False`: 304s only, for a view that
    answers from the room's seats (`room_seats`) anyway. `seats`: the view shows only what the seats'
    version covers (tournament.seats_seq), so hand starts and the clock leave its answers as they are."""
    if view is None:
        return lambda inner: versioned(inner, remember=remember, seats=seats)

    @wraps(view)
    def wrapper(*args, **kwargs):
        request = args[1] if len(args) > 1 and hasattr(args[1], "META") else args[0]
        seen = _seen(request)
        seq = state_version(kwargs["pk"], "seats_seq" if seats else "event_seq", seen)
        request.state_version = request.answer_version = seq
        request.first_load = seen is None  # may take the answer a moment old (room_seats)
        if seq is None:  # no such tournament: the view answers its own 404
            return view(*args, **kwargs)
        etag = _etag(request, kwargs["pk"], seq)
        if etag in [tag.strip() for tag in request.META.get("HTTP_IF_NONE_MATCH", "").split(",")]:
            return _tagged(HttpResponseNotModified(), etag)
        remembered = remember and _anonymous(request)
        if remembered:
            hit = caches[CACHE].get(_key(request, etag))
            if hit is not None:
                return _tagged(_rebuild(hit), etag)
        response = view(*args, **kwargs)
        # The version the answer shows: the one asked for, or the one before while that is computed.
        etag = _etag(request, kwargs["pk"], request.answer_version)
        if remembered and response.status_code in (200, 404):
            kept = _keep(response)
            if kept is not None:
                caches[CACHE].set(_key(request, etag), kept, TTL_SECONDS)
        return _tagged(response, etag)

    return wrapper


def _key(request, etag: str) -> str:
    return f"{etag}:{request.get_full_path()}:{request.META.get('HTTP_ACCEPT', '')}"


def _keep(response):
    if isinstance(response, Response):  # the API's answer: its data, rendered again per request
        return ("data", response.status_code, response.data)
    if response.get("Content-Type", "").startswith("application/json") and not response.cookies:
        return ("bytes", response.status_code, response.content)
    return None


def _rebuild(hit):
    kind, status, body = hit
    if kind == "data":
        return Response(body, status=status)
    return HttpResponse(body, status=status, content_type="application/json")


def _tagged(response, etag: str):
    response["ETag"] = etag
    patch_cache_control(response, no_cache=True)  # the phone asks each time; a 304 costs one query
    return response


def seats_now(pk: int, numbers: set[int] | None = None, base: dict[int, dict] | None = None) -> dict[int, dict]:
    """The room's public seats (tables/selectors/screens.py), each with the prize its place wins (payouts: ties
    split; None while the entry plays on or finished outside the money), the target event of a satellite's seat it
    won (`seat_won`: None but for a seat winner once play stopped, who then has the place the results give him, shared
    by the seat winners; the tickets' events re-read the room), whether the cage has paid the prize (`prize_paid`),
    and on a day after the first the stack the player sits down with (flights/selectors/day2.py: `day_stack`, {day,
    chips, bag, source}, only for those who have one; chips None while the house keeps counts private). In a bounty
    event, `bounty`: the player's own head while he plays on, the bounties he has won, what is left to collect and
    his knockouts (payouts/selectors/bounty_screens.py; None outside one): the awards' events (bounty.won,
    bounty.settled) may change any entry's, so they read the whole room again; a payment names its entry.
    `numbers` and `base`: the seats of an earlier version (`base`, never changed in place) with those entries
    read again, their prizes too; the day stacks of those still in play are the ones they had (a move leaves a bag
    as it is; a bust ends it)."""
    fresh = public_seats(pk, numbers)
    tournament = Tournament.objects.filter(pk=pk).first()
    seats = seats_won(tournament) if tournament is not None else {}  # a satellite's seat winners
    bounty = seat_bounties(tournament, numbers)  # a bounty event: each player's own head, bounties won and knockouts
    for number, answer in fresh.items():
        winner = seats.get(number)
        answer["seat_won"] = winner["target"] if winner else None
        answer["bounty"] = None if bounty is None else bounty.get(number)
        if winner and answer["place"] is None:  # in play no more: the places they share, as the results give them
            answer["place"], answer["place_low"] = winner["place"], winner["place_low"]
    if base is not None:
        finished = any(answer["place"] for answer in fresh.values())
        won = prizes_won(tournament) if finished and tournament is not None else {}
        paid = prizes_paid(tournament, set(fresh)) if won else set()
        for number, answer in fresh.items():
            answer["prize"] = won.get(number) or None
            answer["prize_paid"] = number in paid
            stack = (base.get(number) or {}).get("day_stack")
            if stack is not None and answer["status"] == Entry.Status.ACTIVE:  # as day_stacks: players in play only
                answer["day_stack"] = stack
        return {**{number: answer for number, answer in base.items() if number not in numbers}, **fresh}
    won = prizes_won(tournament) if tournament is not None else {}
    paid = prizes_paid(tournament) if won else set()
    for number, seat in fresh.items():
        seat["prize"] = won.get(number) or None
        seat["prize_paid"] = number in paid
    stacks = day_stacks(tournament) if tournament is not None else {}
    if stacks and not public_counts(tournament):
        stacks = {number: {**stack, "chips": None} for number, stack in stacks.items()}
    for number, stack in stacks.items():
        if number in fresh:
            fresh[number]["day_stack"] = stack
    return fresh


PATCH_EVENTS = 200  # more events since the kept seats than this: the whole room is read again


def seats_after(pk: int, version: int, seats: dict[int, dict], seq: int) -> tuple[int, dict] | None:
    """The seats at `seq` from those at `version`: the events between name the entries whose answers they may
    change (tournament/services/audit.py, seat_entries), and only those are read again. None when one of them may have
    changed any answer (or there are too many): the whole room is read again."""
    if seq - version > PATCH_EVENTS:
        return None
    named = list(AuditEvent.objects.filter(tournament_id=pk, seq__gt=version, seq__lte=seq).values_list("seat_entries", flat=True))
    if len(named) != seq - version or any(numbers is None for numbers in named):
        return None
    return seq, seats_now(pk, set().union(*named), seats)


def _room(pk: int, seq: int, meanwhile: bool = False) -> tuple[int, dict[int, dict]]:
    """The room's seats at version `seq` (or newer), once per version in this worker: made from the version
    before when its events name the entries they change, otherwise read whole."""
    return memory.at_version(
        "seats",
        pk,
        seq,
        lambda: (seq, seats_now(pk)),
        meanwhile=meanwhile,
        step=lambda version, seats: seats_after(pk, version, seats, seq),
    )


def room_seats(request, pk: int) -> dict[int, dict]:
    """Every entry's public seat at the request's version (three queries for the whole room instead of
    four per phone). A first load (no ?v=) takes the version before while this one is being computed,
    and its ETag says so (request.answer_version)."""
    version, seats = _room(pk, request.state_version, meanwhile=request.first_load)
    request.answer_version = min(request.answer_version, version)
    return seats


def public_head(request, pk: int) -> dict | None:
    """What a public page says of the tournament at the head (its name, venue, currency and time zone, the league it counts for)
    and the next draw's commitment, the flight's label for a Day 1 flight, read once per event sequence in this worker
    (no query while the version is known: core/memory.py);
    None when there is no such tournament."""
    seq = state_version(pk, "event_seq", _seen(request))
    if seq is None:
        return None

    def compute():
        head = Tournament.objects.filter(pk=pk).values("pk", "name", "venue", "currency", "time_zone").first()
        return seq, head and {**head, "next_draw": pending_commitment(pk), "league": league_link(pk), "flight": flight_label(pk)}

    return memory.at_version("head", pk, seq, compute, meanwhile=request.first_load)[1]


def search_at(pk: int, seq: int) -> tuple:
    """The room's seats folded for searching at its seats' version `seq` (a tournament's seats_seq), once per version in
    this worker: the players' page of today's events searches every running tournament with it."""
    return memory.at_version("search", pk, seq, lambda: (seq, search_index(_room(pk, seq)[1])))[1]


def room_search(request, pk: int) -> tuple:
    """The room's seats with their names folded for searching, once per version (tables/selectors/screens.py,
    find_entries): a search is a scan in memory, no query."""

    def compute():  # from the seats of this very version, never the one before
        seq = request.state_version
        return seq, search_index(_room(pk, seq)[1])

    version, index = memory.at_version("search", pk, request.state_version, compute, meanwhile=request.first_load)
    request.answer_version = min(request.answer_version, version)
    return index


def forget_rooms() -> None:
    """Tests: a rolled-back test's ids and versions come back in the next one."""
    memory.forget_all()
