"""The waiting list of a sold-out tournament, as rules (no Django): when registration is full, who waits in which order,
who is offered the seats that open, who loses his turn, and what happens to the money.

- **Full.** A tournament is full when its entries reach the house's maximum, or when the players in play fill the
  seats its tables give (`full`); an alternate offered a seat holds it, and counts as an entry and a player.
- **The list.** A player past either joins the list, his ID checked. One place per player at a time (a second is
  refused); a re-entry joins the same list, in order (`join`).
- **Offers.** As seats open (busts, a table opened) the first waiting places are offered a seat, in the list's order,
  never more than the seats open and the entries left under the maximum (`to_offer`).
- **No-shows.** An alternate offered a seat who has not sat down within the house's minutes loses his turn (`expired`):
  the seat goes to the next.
- **Money.** As the house sets: paid when he joins (refunded if he is never seated, and for a no-show refunded or kept)
  or paid when he is seated (`money_of`).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace
from datetime import datetime, timedelta

WAITING, OFFERED, SEATED, PASSED, CANCELLED = "waiting", "offered", "seated", "passed", "cancelled"
OPEN_STATES = (WAITING, OFFERED)  # a place still on the list
PAY_ON_JOINING, PAY_ON_SEATING = "on_joining", "on_seating"
NO_SHOW_REFUNDED, NO_SHOW_KEPT = "refunded", "kept"


class WaitingListError(ValueError):
    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code


@dataclass(frozen=True)
class Place:
    """One place on the list: its number (the order of joining), the player, whether it is a re-entry, its state, when
    it was offered a seat, and the money taken for it (0 until paid)."""

    number: int
    player: int
    reentry: bool = False
    state: str = WAITING
    offered_at: datetime | None = None
    paid: int = 0


@dataclass(frozen=True)
class Rules:
    """The house's settings: the maximum entries (None: the seats decide), the minutes an alternate has to sit down, when
    the buy-in is taken and what becomes of a no-show's."""

    max_entries: int | None = None
    sit_minutes: int = 10
    payment: str = PAY_ON_JOINING
    no_show: str = NO_SHOW_REFUNDED


def full(rules: Rules, *, entries: int, in_play: int, seats: int) -> bool:
    """Whether a new entry must wait: the entries (not voided) reach the maximum, or the players in play fill the seats
    the tables give. An alternate offered a seat holds it and counts as an entry and a player in play."""
    return (rules.max_entries is not None and entries >= rules.max_entries) or in_play >= seats


def open_places(places: Iterable[Place]) -> list[Place]:
    """The places still on the list, in its order."""
    return sorted((p for p in places if p.state in OPEN_STATES), key=lambda p: p.number)


def join(places: Sequence[Place], *, player: int, reentry: bool = False, paid: int = 0) -> Place:
    """The player's new place at the end of the list. Refused while he holds a place already."""
    if any(p.player == player for p in open_places(places)):
        raise WaitingListError("already_waiting", "This player is on the waiting list already.")
    if paid < 0:
        raise WaitingListError("bad_amount", "A payment is not negative.")
    return Place(number=max((p.number for p in places), default=0) + 1, player=player, reentry=reentry, paid=paid)


def to_offer(places: Sequence[Place], rules: Rules, *, seats_open: int, entries: int) -> list[Place]:
    """The places to offer a seat now, in the list's order: the first waiting ones, as many as the seats open (free, not
    held by an offer) and the entries left under the maximum (an offered alternate holds his seat and counts as an
    entry: he is in `entries` and not in `seats_open`)."""
    room = seats_open
    if rules.max_entries is not None:
        room = min(room, rules.max_entries - entries)
    waiting = [p for p in open_places(places) if p.state == WAITING]
    return waiting[: max(room, 0)]


def offer(place: Place, at: datetime) -> Place:
    if place.state != WAITING:
        raise WaitingListError("not_waiting", "Only a waiting place is offered a seat.")
    return replace(place, state=OFFERED, offered_at=at)


def seat(place: Place, *, price: int, rules: Rules) -> Place:
    """The alternate sat down: his place is done. Paid on seating: the price is taken now."""
    if place.state != OFFERED:
        raise WaitingListError("not_offered", "Only an alternate offered a seat sits down.")
    paid = place.paid if rules.payment == PAY_ON_JOINING else price
    return replace(place, state=SEATED, paid=paid)


def expired(places: Sequence[Place], rules: Rules, now: datetime) -> list[Place]:
    """The offers whose minutes ran out (no-shows), in the list's order."""
    limit = timedelta(minutes=rules.sit_minutes)
    return [p for p in open_places(places) if p.state == OFFERED and p.offered_at is not None and now - p.offered_at >= limit]


def pass_over(place: Place) -> Place:
    """A no-show loses his turn."""
    if place.state != OFFERED:
        raise WaitingListError("not_offered", "Only an alternate offered a seat is passed over.")
    return replace(place, state=PASSED)


def cancel(place: Place) -> Place:
    """The player leaves the list (or the floor takes him off it) before he sat down."""
    if place.state not in OPEN_STATES:
        raise WaitingListError("not_on_the_list", "This place is not on the list any more.")
    return replace(place, state=CANCELLED)


@dataclass(frozen=True)
class Money:
    """What a place's money comes to: taken, to give back, kept by the house, and what bought an entry."""

    taken: int
    refund: int
    kept: int
    entry: int


def money_of(place: Place, rules: Rules) -> Money:
    """A place's money by its state and the house's rules: a seated place's paid an entry; a cancelled one's is given
    back, as is a no-show's unless the house keeps it; a place still on the list holds what it paid."""
    if place.state == SEATED:
        return Money(place.paid, 0, 0, place.paid)
    if place.state == CANCELLED or (place.state == PASSED and rules.no_show == NO_SHOW_REFUNDED):
        return Money(place.paid, place.paid, 0, 0)
    if place.state == PASSED:
        return Money(place.paid, 0, place.paid, 0)
    return Money(place.paid, 0, 0, 0)


def position(places: Sequence[Place], number: int) -> int | None:
    """A place's position on the list now (1: the next to be offered a seat), or None once off it or offered."""
    waiting = [p.number for p in open_places(places) if p.state == WAITING]
    return waiting.index(number) + 1 if number in waiting else None
