"""What a player is told of an audit event, read after it committed (docs/notifications.md, "What a player is told"):
for each entry that has a phone to tell, a notice with his own facts only (his table and seat, his place, his prize),
never another player's. Plain data, so a Celery task carries it; notify/selectors/words.py puts it in words.

- his seat at a draw: the start draw and a late entry's (`seating.drawn`, `entry.registered` with a seat);
- a move slip, or his table breaking (`move.created`: balance or break), and a redraw's new seat (`seating.redrawn`);
- an alternate's seat from the waiting list (`entry.registered` naming the alternate, with the time to sit down by);
- his Day 2 seat (`seating.redrawn` of a day after the first: days/services/redraw.py);
- in the money: the bust that burst the bubble (`entry.busted` leaving as many players as places paid), to everyone
  still in; said once per entry;
- his prize ready at the cage: his place has a prize the cage can pay now (payouts.selectors.structure.prize_due), on
  each event that can make it so (a bust, the hand it was in done, play over, a deal, registration closed); once."""

from __future__ import annotations

from dataclasses import dataclass, field

from django.db.models import Q

from notify.models import PushSubscription, Told
from payouts.selectors.structure import finishers, payout_state, prize_due, prizes_won
from tables.models import Move, Seat
from tournament.models import AuditEvent, Entry, Tournament, WaitingPlace

DRAWS = ("seating.drawn", "seating.redrawn")
MONEY = ("entry.busted", "entry.disqualified")
PRIZES = (
    "entry.busted",
    "entry.disqualified",
    "table.hand_done",
    "h4h.hand_complete",
    "tournament.finished",
    "deal.approved",
    "registration.closed",
)
TOLD_OF = frozenset({*DRAWS, "entry.registered", "move.created", *MONEY, *PRIZES})
ONCE = ("money", "prize")  # the kinds said once per entry (notify.models.Told)


@dataclass(frozen=True)
class Notice:
    entry: int  # the entry's number
    kind: str  # draw, late, alternate, balance, break, redraw, day, money, prize
    facts: dict = field(default_factory=dict)

    def as_dict(self) -> dict:
        return {"entry": self.entry, "kind": self.kind, "facts": self.facts}


def told_of(event_type: str) -> bool:
    return event_type in TOLD_OF


def subscribed_entries(t: Tournament) -> dict[int, int]:
    """Entry id -> number of every entry with a phone to tell (its own subscriptions, or its waiting-list place's)."""
    rows = PushSubscription.objects.filter(tournament=t).filter(Q(entry__isnull=False) | Q(place__entry__isnull=False))
    ids = {a or b for a, b in rows.values_list("entry_id", "place__entry_id")}
    return dict(Entry.objects.filter(pk__in=ids).values_list("pk", "number"))


def subscriptions_by_entry(t: Tournament, numbers: list[int]) -> dict[int, list[PushSubscription]]:
    """The phones told of each of these entries (by entry number), in one query: a draw's thousands of notices."""
    rows = PushSubscription.objects.filter(tournament=t).filter(Q(entry__number__in=numbers) | Q(place__entry__number__in=numbers))
    out: dict[int, list[PushSubscription]] = {}
    for row in rows.select_related("entry", "place__entry"):
        number = row.entry.number if row.entry_id else row.place.entry.number
        out.setdefault(number, []).append(row)
    return out


def notices(event_id: int) -> list[Notice]:
    """The notices of one event, for the entries with a phone to tell; none for an event no one is told of."""
    event = AuditEvent.objects.filter(pk=event_id).select_related("tournament").first()
    if event is None or event.tournament is None or not told_of(event.type):
        return []
    t = event.tournament
    entries = subscribed_entries(t)
    if not entries:
        return []
    p, found = event.payload or {}, []
    if event.type in DRAWS:
        found += _drawn(t, event, entries)
    elif event.type == "entry.registered" and p.get("alternate") is not None and p.get("table") is not None:
        if p.get("entry") in entries.values():  # a late entry's own seat is its draw's (seating.drawn, just before)
            facts = {"table": p["table"], "seat": p["seat"], "alternate": p["alternate"], "sit_by": p.get("sit_by"), "zone": t.time_zone}
            found.append(Notice(p["entry"], "alternate", facts))
    elif event.type == "move.created":
        kind = "break" if p.get("kind") == Move.Kind.BREAK else "balance"
        for slip in p.get("moves") or []:
            if slip.get("entry") in entries.values():
                facts = {"table": slip["to"]["table"], "seat": slip["to"]["seat"], "from_table": slip["from"]["table"]}
                found.append(Notice(slip["entry"], kind, facts))
    if event.type in MONEY:
        found += _in_the_money(t, entries)
    if event.type in PRIZES:
        found += _prizes(t, entries)
    return found


def _drawn(t: Tournament, event: AuditEvent, entries: dict[int, int]) -> list[Notice]:
    """The seats this draw gave to entries with a phone to tell (their seats drawn by it and still theirs)."""
    p = event.payload
    kind = "draw"
    if event.type == "seating.redrawn":
        kind = "day" if p.get("day") else "redraw"
    elif p.get("kind") != "start":
        kind = "late"
    seats = Seat.objects.filter(tournament=t, entry_id__in=list(entries), ended_at__isnull=True, draw__number=p.get("draw")).select_related(
        "table"
    )
    facts = {"day": p["day"]} if kind == "day" else {}
    # An alternate's seat is said with his alternate number and the time to sit down by (entry.registered, next).
    alternates = (
        set(WaitingPlace.objects.filter(entry_id__in=list(entries)).values_list("entry_id", flat=True)) if kind == "late" else set()
    )
    return [
        Notice(entries[s.entry_id], kind, {**facts, "table": s.table.number, "seat": s.seat}) for s in seats if s.entry_id not in alternates
    ]


def _in_the_money(t: Tournament, entries: dict[int, int]) -> list[Notice]:
    """The bust that left as many players as places paid (a satellite's seats): everyone still in is in the money."""
    state = payout_state(t)
    places = state["satellite"]["stops_at"] if state["satellite"] else state["places_paid"]
    if not state["in_the_money"] or state["players_left"] != places:
        return []
    told = set(Told.objects.filter(entry_id__in=list(entries), kind="money").values_list("entry_id", flat=True))
    active = Entry.objects.filter(pk__in=[pk for pk in entries if pk not in told], status=Entry.Status.ACTIVE)
    return [Notice(number, "money", {"places": places}) for number in active.values_list("number", flat=True)]


def _prizes(t: Tournament, entries: dict[int, int]) -> list[Notice]:
    """The entries with a phone whose prize the cage can pay now and who have not been told so."""
    told = set(Told.objects.filter(entry_id__in=list(entries), kind="prize").values_list("entry_id", flat=True))
    waiting = {number for pk, number in entries.items() if pk not in told}
    if not waiting:
        return []
    state = payout_state(t)
    found = [f for f in finishers(t, state) if f.entry in waiting]
    won = prizes_won(t, state, found=None)
    out = []
    for finisher in found:
        if won.get(finisher.entry, 0) <= 0:
            continue
        due = prize_due(t, Entry.objects.get(tournament=t, number=finisher.entry))
        if due.refusal is None and due.amount > 0:
            out.append(Notice(finisher.entry, "prize", {"place": finisher.place, "amount": due.amount, "currency": t.currency}))
    return out


def phones_of(entry: Entry) -> int:
    """How many phones are told of the entry (its own subscriptions)."""
    return PushSubscription.objects.filter(entry=entry).count()


def phones_of_place(place: WaitingPlace) -> int:
    return PushSubscription.objects.filter(place=place).count()
