"""An invariant of the night machine: every bust can be undone, or its refusal names the one press that
makes it possible. Checked without changing the night: each undo is tried in a savepoint that is rolled back, and
so is each press a refusal names (ServiceError.details["press"]), the undo tried again after it.

A bust that stands by a rule is no bust that could be undone: its player re-entered, he was disqualified (the
penalties page reinstates him), or a deal was made after it by the players left then. A refusal for want of a seat while a
table's break holds seats is a hole: the undo gives that break back. A press names one step at a
time: voiding one paid prize may show another paid prize the undo would move, whose refusal names it in turn."""

from __future__ import annotations

from django.db import transaction

from core.errors import ServiceError
from payouts.models import BountyPayment, Payment
from payouts.services import bounty_cage
from payouts.services import structure as payouts
from tables.models import Move, Table
from tables.services import busts
from tables.services import setup as table_setup
from tournament.models import Entry, Purchase, Tournament
from tournament.services import registration

LATEST = 3  # the busts tried after every step, the latest first; one older bust is tried in turn besides
STANDS = frozenset({"reentered", "disqualified", "deal_stands"})


class _RolledBack(Exception):
    pass


def undo_possible_or_its_press_named(night) -> None:
    """For the latest busts of the night and one older bust in turn: the undo is possible, or the presses its refusals
    name make it so."""
    staff = getattr(night, "staff", None) or {}
    if night.t is None or "floor" not in staff:
        return
    seeds = getattr(night, "seeds", None)
    drawn = seeds.getstate() if seeds is not None else None  # a draw in the savepoint takes no seed from the night
    busted = list(Entry.objects.filter(tournament=night.t, status=Entry.Status.BUSTED).order_by("-busted_at", "-number"))
    # The latest busts (where a break, a redraw or a tie they made is still pending), and one older bust in turn: every
    # bust of the night was tried after each step before, about a thousand undos a night, which the suite's time
    # could not carry.
    checked = busted[:LATEST]
    older = busted[LATEST:]
    if older:
        night.undo_turn = getattr(night, "undo_turn", -1) + 1
        checked.append(older[night.undo_turn % len(older)])
    try:
        for entry in checked:
            _undo_or_press(night.t, staff, entry)
    finally:
        if seeds is not None:
            seeds.setstate(drawn)


def _undo_or_press(t: Tournament, staff: dict, entry: Entry) -> None:
    presses: list[dict] = []
    try:
        with transaction.atomic():
            while True:
                try:
                    busts.undo_bust(entry, actor=staff["floor"])
                except ServiceError as exc:
                    if exc.code in STANDS:
                        raise _RolledBack from exc
                    press = exc.details if isinstance(exc.details, dict) and "press" in exc.details else None
                    after = f" after {presses}" if presses else ""
                    assert press is not None, (
                        f"the undo of #{entry.number}'s bust is refused{after} ({exc.code}: "
                        f"{exc.message}) and the refusal names no press that makes it possible"
                    )
                    assert press not in presses, f"the undo of #{entry.number}'s bust names {press} again: {exc.message}"
                    held = _break_pending(t) if press["press"] == "open_table" else None
                    assert held is None, (
                        f"the undo of #{entry.number}'s bust is refused for want of a seat ({exc.message}) "
                        f"while table {held}'s break holds seats: the undo gives that break back"
                    )
                    presses.append(press)
                    _press(t, staff, press)
                    continue
                raise _RolledBack
    except _RolledBack:
        pass


def _break_pending(t: Tournament) -> int | None:
    """A table breaking now (its slips pending): its number."""
    return (
        Move.objects.filter(tournament=t, status=Move.Status.PENDING, kind=Move.Kind.BREAK)
        .values_list("from_table__number", flat=True)
        .first()
    )


def _press(t: Tournament, staff: dict, press: dict) -> None:
    """Do the press a refusal names; it must be possible itself."""
    kind = press["press"]
    if kind == "open_table":
        number = (Table.objects.filter(tournament=t).order_by("-number").values_list("number", flat=True).first() or 0) + 1
        table_setup.open_table(t, actor=staff["director"], number=number, seats=t.seats_per_table)
    elif kind == "void_payment":
        payment = Payment.objects.get(tournament=t, number=press["payment"], status=Payment.Status.PAID)
        payouts.void_payment(payment, actor=staff["cashier"], reason="paid in error")
    elif kind == "void_bounty_payment":
        payment = BountyPayment.objects.get(tournament=t, number=press["payment"], status=BountyPayment.Status.PAID)
        bounty_cage.void_bounty_payment(payment, actor=staff["cashier"], reason="paid in error")
    elif kind == "void_entry":
        entry = Entry.objects.get(tournament_id=press["tournament"], number=press["entry"])
        purchase = entry.purchases.get(paid_with=Purchase.PaidWith.TICKET)
        registration.void_purchase(purchase, actor=staff["cashier"], reason="wrong event")
    else:
        raise AssertionError(f"a refusal names a press the night machine does not know: {press}")
