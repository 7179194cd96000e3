"""The cashier's closing figures, in plain Python on integers (minor units): what came into the cage, what
went out as prizes, what the house keeps or adds, and what the cage should hold.

- Cash in: every receipt paid (prize part and fee), receipts voided after they were paid included, less
  what was refunded on the voids. An announced re-buy not yet paid is no cash.
- The prize pool is the prize part of the receipts paid (`collected`), raised to the guarantee: the
  difference is the overlay, which the house adds.
- The house keeps the fees of the receipts paid and what a void did not refund.
- The players' money: the prizes paid, and the prizes still owed (finished places not yet paid, and the
  places still in play: the pool less every finished place's prize).

    cash in + tickets in + overlay + pool in = house keeps + prizes paid + seats given + prizes still owed + pool out

An event's Day 1 flights and its Day 2 (flights/) share one prize pool and one cage, and each crown is counted once:
each page closes its own part. A flight's prize part goes to the event's pool (`pool_out`: it owes no prizes, Day 2
pays them); Day 2's pool holds the flights' prize parts (`pool_in`: no cash came into Day 2 for them). A part's
`cage` is its own cash in less its own prizes paid, so the parts add up to the event's cage (Day 2's part is
negative once it pays the prizes of the cash its flights took).

A satellite's seats are prizes given as tickets, not cash: their value stays in the satellite's cage
(`seats_out`). A buy-in paid with a ticket is in the target's pool and fees like any paid buy-in, but brought no cash
(`tickets_in`).

A bounty event's bounty parts come into the cage with the buy-ins (`bounties_in`) and leave it as the bounties the
cage pays; the rest is owed (won, not yet paid), on the heads still in play, kept by the house (a disqualified
player's head, where the house keeps it) or added to the prize pool (then it is in `pool`, not overlay):

    bounties_in = bounties_paid + bounties_owed + bounties_in_play + bounties_forfeited + bounties_to_pool

The balance is the left side less the right: zero whenever every payment is the prize its place has now.
It is not zero when the prizes moved after a payment (an entry voided moves the places up, a late void
changes the pool): the mismatches say which payouts to look at. The cage should hold cash in less the
prizes paid; when every prize is paid that is what the house keeps less the overlay.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass


@dataclass(frozen=True)
class Mismatch:
    """A payout that is not the prize its place has now."""

    entry: int
    paid: int
    prize: int


@dataclass(frozen=True)
class Closing:
    cash_in: int  # taken less refunded
    taken: int  # every receipt paid, voided ones included
    refunded: int
    tickets_in: int  # buy-ins paid with a satellite's ticket (in collected and fees, not cash)
    collected: int  # the prize part of the receipts paid (not voided)
    fees: int  # the fees of the receipts paid (not voided)
    kept_on_voids: int  # what the voids did not refund
    house_keeps: int  # fees + kept_on_voids
    overlay: int  # the house's money added to reach the guarantee
    house_result: int  # house_keeps - overlay: what the night leaves the house once every prize is paid
    pool: int
    pool_in: int  # the prize parts other parts of an event brought to this pool (a Day 2's: its flights')
    pool_out: int  # this part's prize part handed to its event's pool (a flight's)
    prizes_paid: int
    seats_out: int  # a satellite's seats given as tickets (their value)
    payments: int  # how many payouts
    prizes_unpaid: int  # finished places with a prize not yet paid
    places_unpaid: int
    prizes_in_play: int  # the prizes of places not finished yet (none in a flight: its event pays them)
    prizes_owed: int  # prizes_unpaid + prizes_in_play
    cage: int  # what the cage should hold: cash_in - prizes_paid - bounties paid (in an event: this part's share of its cage)
    balance: int  # cash_in + tickets_in + overlay + pool_in - house_keeps - prizes_paid - seats_out - prizes_owed - pool_out
    mismatches: tuple[Mismatch, ...]
    unpaid_entries: tuple[int, ...]
    bounties_in: int = 0  # the bounty parts of the receipts paid (not voided)
    bounties_paid: int = 0
    bounties_owed: int = 0
    bounties_in_play: int = 0
    bounties_forfeited: int = 0  # kept by the house (in house_keeps)
    bounties_to_pool: int = 0  # added to the prize pool (in pool)


def close(
    *,
    collected: int,
    fees: int,
    voided_taken: int,
    refunded: int,
    pool: int,
    won: Mapping[int, int],
    paid: Mapping[int, int],
    tickets_in: int = 0,
    seats_out: int = 0,
    pool_in: int = 0,
    pool_out: int = 0,
    bounties: dict | None = None,
) -> Closing:
    """The closing figures.

    collected, fees: prize parts and fees of the receipts paid and not voided; voided_taken: the totals of
    receipts voided after they were paid; refunded: the refunds on voids; pool: the prize pool (at least
    `collected`); won: entry -> the prize of its finishing place now; paid: entry -> the amount of its payout
    (one per entry); tickets_in: the totals of the receipts paid with a ticket (not voided); seats_out: the value of
    the seats a satellite gave; pool_in: the prize parts the rest of the event brought to this pool (a Day 2's: its
    flights'); pool_out: the prize part this part hands to its event's pool (a flight's, at most `pool`); bounties: a
    bounty event's {"in", "paid", "owed", "in_play", "forfeited", "to_pool"}, which must add up."""
    bounty = {"in": 0, "paid": 0, "owed": 0, "in_play": 0, "forfeited": 0, "to_pool": 0, **(bounties or {})}
    if any(not isinstance(v, int) or v < 0 for v in bounty.values()):
        raise ValueError(f"bounty figures are whole numbers of minor units, not {bounty!r}")
    if bounty["in"] != bounty["paid"] + bounty["owed"] + bounty["in_play"] + bounty["forfeited"] + bounty["to_pool"]:
        raise ValueError(f"the bounty money does not add up: {bounty!r}")
    for name, value in (
        ("collected", collected),
        ("fees", fees),
        ("voided_taken", voided_taken),
        ("refunded", refunded),
        ("pool", pool),
        ("tickets_in", tickets_in),
        ("seats_out", seats_out),
        ("pool_in", pool_in),
        ("pool_out", pool_out),
    ):
        if not isinstance(value, int) or value < 0:
            raise ValueError(f"{name} must be a whole number of minor units, not {value!r}")
    if refunded > voided_taken:
        raise ValueError("more was refunded than the voided receipts took")
    if pool < collected + pool_in + bounty["to_pool"]:
        raise ValueError("the prize pool is never below what the buy-ins put in")
    if pool_out > pool:
        raise ValueError("a part hands at most its pool to its event")
    if tickets_in > collected + fees + bounty["in"]:
        raise ValueError("the tickets are part of the receipts paid")
    taken = collected + fees + bounty["in"] + voided_taken - tickets_in
    cash_in = taken - refunded
    kept_on_voids = voided_taken - refunded
    house_keeps = fees + kept_on_voids + bounty["forfeited"]
    overlay = pool - collected - pool_in - bounty["to_pool"]
    prizes_paid = sum(paid.values())
    unpaid = sorted(entry for entry, prize in won.items() if prize > 0 and entry not in paid)
    prizes_unpaid = sum(won[entry] for entry in unpaid)
    prizes_in_play = pool - sum(won.values()) - seats_out - pool_out
    prizes_owed = prizes_unpaid + prizes_in_play
    cage = cash_in - prizes_paid - bounty["paid"]
    bounties_out = bounty["paid"] + bounty["owed"] + bounty["in_play"]
    return Closing(
        cash_in=cash_in,
        taken=taken,
        refunded=refunded,
        tickets_in=tickets_in,
        collected=collected,
        fees=fees,
        kept_on_voids=kept_on_voids,
        house_keeps=house_keeps,
        overlay=overlay,
        house_result=house_keeps - overlay,
        pool=pool,
        pool_in=pool_in,
        pool_out=pool_out,
        prizes_paid=prizes_paid,
        seats_out=seats_out,
        payments=len(paid),
        prizes_unpaid=prizes_unpaid,
        places_unpaid=len(unpaid),
        prizes_in_play=prizes_in_play,
        prizes_owed=prizes_owed,
        cage=cage,
        balance=cash_in + tickets_in + overlay + pool_in - house_keeps - prizes_paid - seats_out - prizes_owed - pool_out - bounties_out,
        mismatches=tuple(
            Mismatch(entry, amount, won.get(entry, 0)) for entry, amount in sorted(paid.items()) if amount != won.get(entry, 0)
        ),
        unpaid_entries=tuple(unpaid),
        bounties_in=bounty["in"],
        bounties_paid=bounty["paid"],
        bounties_owed=bounty["owed"],
        bounties_in_play=bounty["in_play"],
        bounties_forfeited=bounty["forfeited"],
        bounties_to_pool=bounty["to_pool"],
    )


def totals(rows: Sequence[Mapping[str, int]], *keys: str) -> dict[str, int]:
    """The sums of these keys over the rows."""
    return {key: sum(row[key] for row in rows) for key in keys}
