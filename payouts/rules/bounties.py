"""Bounties (docs/bounties.md): who is paid what when a player is knocked out. Pure: no Django, no I/O.

Formats:
- knockout: every entry carries a fixed bounty (its "head"), paid whole to the player who knocks it out;
- progressive (PKO): every head starts at the bounty; the eliminator is paid a share of it in cash (the house's
  share, half by default, in the house's cash increment: the odd amount stays on the head) and the rest is added
  to his own head;
- mystery: from a set point (a level, or the money) each elimination draws an envelope from the house's list of
  bounty values; before it, an elimination pays nothing (its bounty stays in the pot the envelopes share) or a
  plain knockout, as the house sets.

A pot split between several winners is shared equally, in the cash increment, the odd increments one each to the
winners in the house's order (left of the button first, TDA's odd chip) and what is below one increment to the first;
a PKO head's kept part is shared to the minor unit the same way. The night's bounty money is replayed from its
eliminations in order (`replay`): an undone or corrected elimination changes every later transfer made of it, and
the replay says exactly which.

The money always adds up: heads in play + paid + owed + forfeited + added to the prize pool = the bounty money taken
in (`Ledger.check`).
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field

NONE, KNOCKOUT, PROGRESSIVE, MYSTERY = "none", "knockout", "progressive", "mystery"
FORMATS = (NONE, KNOCKOUT, PROGRESSIVE, MYSTERY)

# What an award is: an elimination's bounty (bust), a disqualified player's head (dq: to nobody, or to the prize
# pool, as the house sets), the last player's own head (own), the heads still in play when a deal stops play and
# they are dealt (dealt).
BUST, DQ, OWN, DEALT = "bust", "dq", "own", "dealt"
BASIS_POINTS = 10_000


class BountyError(ValueError):
    """The eliminations cannot be replayed as given (`code` says why): a head taken twice, a winner who is not in,
    a split among no one."""

    def __init__(self, code: str, **details) -> None:
        super().__init__(code)
        self.code = code
        self.details = details


@dataclass(frozen=True)
class Rules:
    format: str
    bounty: int  # each entry's bounty, in minor units
    cash_share_bp: int = 5_000  # PKO: the eliminator's cash share of the head, in basis points
    increment: int = 1  # bounties are paid in cash in this unit (minor units); the odd amount stays on the head (PKO)
    mystery_before: str = "nothing"  # mystery: an elimination before the envelopes pays "nothing" or a "knockout"

    def __post_init__(self) -> None:
        if self.format not in FORMATS:
            raise ValueError(f"unknown bounty format {self.format!r}")
        if self.bounty < 0 or (self.format != NONE and self.bounty == 0):
            raise ValueError("a bounty event's bounty is more than zero")
        if not 0 <= self.cash_share_bp <= BASIS_POINTS:
            raise ValueError("the cash share is between 0 and 100%")
        if self.increment < 1:
            raise ValueError("the cash increment is at least one minor unit")
        if self.mystery_before not in ("nothing", KNOCKOUT):
            raise ValueError("before the envelopes an elimination pays nothing or a knockout")


@dataclass(frozen=True)
class Elimination:
    """One player out, in the order of the night (`order`: an elimination's place in it; a correction keeps it).
    `winners`: the entries that won the pot, in the order the odd units go (empty for a disqualification).
    `envelope`: the value of the mystery envelope it drew (None: drew none, before the envelopes). `pending`: a mystery
    elimination in the envelope phase whose envelope is not drawn yet (the box is not committed): it pays nothing yet
    and its bounty waits in the pot."""

    order: int
    busted: int
    winners: tuple[int, ...]
    envelope: int | None = None
    kind: str = BUST  # BUST, or DQ (no winner)
    pending: bool = False


@dataclass(frozen=True)
class Award:
    """Money an elimination moves: `cash` paid to `winner` (None: a disqualified head, to nobody or to the prize
    pool) and `head_added` put on his own head (PKO)."""

    order: int
    busted: int
    winner: int | None
    cash: int
    head_added: int = 0
    kind: str = BUST
    envelope: int | None = None


@dataclass
class Ledger:
    """The bounty money of a night after its eliminations: each entry's head (0 once taken), the awards, and the
    mystery pot: the bounties of the players out that no envelope has paid yet, less the envelopes drawn (it may fall
    below zero while the heads of the players still in are worth more: a mystery event's money in play is the heads and
    the pot together, which the envelopes left add up to)."""

    heads: dict[int, int]
    awards: list[Award] = field(default_factory=list)
    pot: int = 0

    def won(self, entry: int) -> int:
        return sum(a.cash for a in self.awards if a.winner == entry)

    def in_play(self) -> int:
        return sum(self.heads.values()) + self.pot

    def paid_out(self) -> int:
        """Cash won by players (paid or owed)."""
        return sum(a.cash for a in self.awards if a.winner is not None)

    def check(self, taken_in: int) -> None:
        """heads in play + cash won + disqualified heads = the bounty money taken in; no head taken twice."""
        out = sum(a.cash for a in self.awards)
        if self.in_play() + out != taken_in:
            raise AssertionError(f"bounty money: in play {self.in_play()} + out {out} != taken in {taken_in}")
        taken = [a.busted for a in self.awards if a.kind in (BUST, DQ)]
        for busted in set(taken):
            if len({a.order for a in self.awards if a.busted == busted and a.kind in (BUST, DQ)}) > 1:
                raise AssertionError(f"the head of entry {busted} was taken twice")


def split_buy_in(buy_in: int, bounty: int, fee: int) -> dict[str, int]:
    """What a buy-in is made of, as the receipt shows it: the prize pool's part, the bounty and the fee."""
    if min(buy_in, bounty, fee) < 0:
        raise ValueError("a buy-in's parts are not negative")
    return {"prize_pool": buy_in, "bounty": bounty, "fee": fee, "total": buy_in + bounty + fee}


def share(amount: int, parts: int, unit: int = 1) -> list[int]:
    """`amount` shared equally by `parts` in whole `unit`s: the odd units one each to the first shares, and what is
    below one unit to the first. The shares add up to `amount` exactly and differ by at most one unit (the first by
    one unit and the rest below one)."""
    if parts < 1:
        raise BountyError("no_winner")
    if amount < 0 or unit < 1:
        raise ValueError("an amount shared is not negative, in a unit of at least 1")
    units, below = divmod(amount, unit)
    each, odd = divmod(units, parts)
    shares = [(each + (1 if i < odd else 0)) * unit for i in range(parts)]
    shares[0] += below
    return shares


def pko_cash(head: int, rules: Rules) -> int:
    """The eliminator's cash of a PKO head: the house's share, rounded down to the cash increment (the odd amount stays
    on his head)."""
    return head * rules.cash_share_bp // BASIS_POINTS // rules.increment * rules.increment


def awards_of(head: int, winners: Sequence[int], rules: Rules, *, order: int, busted: int, envelope: int | None = None) -> list[Award]:
    """The awards of one elimination of a head worth `head`, won by `winners` (several: a split pot)."""
    if not winners:
        raise BountyError("no_winner")
    if len(set(winners)) != len(winners) or busted in winners:
        raise BountyError("bad_winners")
    n = len(winners)
    if rules.format == PROGRESSIVE:
        cash = pko_cash(head, rules)
        cash_shares, kept_shares = share(cash, n, rules.increment), share(head - cash, n)
        return [Award(order, busted, w, c, k, BUST) for w, c, k in zip(winners, cash_shares, kept_shares, strict=True)]
    if rules.format == MYSTERY and envelope is not None:
        return [Award(order, busted, w, c, 0, BUST, envelope) for w, c in zip(winners, share(envelope, n, rules.increment), strict=True)]
    return [Award(order, busted, w, c, 0, BUST) for w, c in zip(winners, share(head, n, rules.increment), strict=True)]


def replay(rules: Rules, starts: Mapping[int, int], eliminations: Iterable[Elimination]) -> Ledger:
    """The night's bounty money after `eliminations` (in their order) of the entries whose heads start at `starts`
    (entry -> its bounty as bought). A winner must still be in (his head not taken); a head is taken once."""
    heads = dict(starts)
    ledger = Ledger(heads=heads)
    out: set[int] = set()
    for elim in sorted(eliminations, key=lambda e: e.order):
        if elim.busted not in heads:
            raise BountyError("unknown_entry", entry=elim.busted)
        if elim.busted in out:
            raise BountyError("taken_twice", entry=elim.busted)
        for w in elim.winners:
            if w not in heads or w in out:
                raise BountyError("winner_out", entry=w)
        head = heads[elim.busted]
        heads[elim.busted] = 0
        out.add(elim.busted)
        if elim.kind == DQ:
            if rules.format == MYSTERY and elim.pending:
                ledger.pot += head
            elif rules.format == MYSTERY:
                ledger.pot += head  # a disqualified player's bounty stays for the envelopes
                if elim.envelope is not None:
                    ledger.pot -= elim.envelope
                    ledger.awards.append(Award(elim.order, elim.busted, None, elim.envelope, 0, DQ, elim.envelope))
            else:
                ledger.awards.append(Award(elim.order, elim.busted, None, head, 0, DQ))
            continue
        if rules.format == MYSTERY:
            ledger.pot += head
            if elim.pending or (elim.envelope is None and rules.mystery_before == "nothing"):
                continue
            value = elim.envelope if elim.envelope is not None else head
            if value > ledger.in_play():
                raise BountyError("pot_short", entry=elim.busted)
            ledger.pot -= value
            ledger.awards.extend(awards_of(value, elim.winners, rules, order=elim.order, busted=elim.busted, envelope=elim.envelope))
            continue
        made = awards_of(head, elim.winners, rules, order=elim.order, busted=elim.busted)
        for a in made:
            heads[a.winner] += a.head_added
        ledger.awards.extend(made)
    return ledger


def own_heads(ledger: Ledger, entries: Sequence[int], rules: Rules, *, order: int, envelopes: Sequence[int] = ()) -> list[Award]:
    """Play is over: each of `entries` (the winner, or the players left when a deal stops play and each keeps his own
    head) is paid his own head, and takes it out of play. In a mystery event each draws an envelope of those left
    (`envelopes`, one per entry, in the order of `entries`) and the pot is empty."""
    made = []
    for i, entry in enumerate(entries):
        if rules.format == MYSTERY:
            value = envelopes[i] if i < len(envelopes) else 0
            made.append(Award(order, entry, entry, value, 0, OWN, value if envelopes else None))
            ledger.pot -= value
            ledger.pot += ledger.heads.get(entry, 0)
        else:
            made.append(Award(order, entry, entry, ledger.heads.get(entry, 0), 0, OWN))
        ledger.heads[entry] = 0
    ledger.awards.extend(made)
    return made


def dealt_heads(ledger: Ledger, amounts: Mapping[int, int], rules: Rules, *, order: int) -> list[Award]:
    """Play stops by a deal and the heads still in play are dealt too: the bounty money in play (the heads of the
    players left, and a mystery event's pot) is shared in proportion to the deal's amounts, in the cash increment,
    the odd amount to the largest amount (the first of equals by entry number). Every head leaves play."""
    players = sorted(amounts, key=lambda e: (-amounts[e], e))
    if not players:
        return []
    total = ledger.in_play()
    weights = sum(amounts.values())
    if weights <= 0:
        parts = share(total, len(players), rules.increment)
    else:
        parts = [total * amounts[p] // weights // rules.increment * rules.increment for p in players]
        parts[0] += total - sum(parts)
    made = [Award(order, p, p, c, 0, DEALT) for p, c in zip(players, parts, strict=True)]
    for p in ledger.heads:
        ledger.heads[p] = 0
    ledger.pot = 0
    ledger.awards.extend(made)
    return made


# --- mystery envelopes --------------------------------------------------------------------------------------------


def envelope_list(data) -> list[tuple[int, int]]:
    """The house's envelopes as [[value, count], ...] (values in minor units): whole, positive, each value once;
    returned sorted by value, highest first."""
    if not isinstance(data, list | tuple) or not data:
        raise BountyError("envelopes_empty")
    seen: dict[int, int] = {}
    for item in data:
        if not isinstance(item, list | tuple) or len(item) != 2:
            raise BountyError("envelopes_shape")
        value, count = item
        for x in (value, count):
            if not isinstance(x, int) or isinstance(x, bool) or x < 1 or x > 10**12:
                raise BountyError("envelopes_shape")
        if value in seen:
            raise BountyError("envelopes_repeated", value=value)
        seen[value] = count
    return sorted(seen.items(), key=lambda vc: -vc[0])


def envelopes_total(envelopes: Sequence[tuple[int, int]]) -> int:
    return sum(v * c for v, c in envelopes)


def envelopes_count(envelopes: Sequence[tuple[int, int]]) -> int:
    return sum(c for _v, c in envelopes)


def list_hash(envelopes: Sequence[tuple[int, int]]) -> str:
    """The fingerprint published before the envelopes are drawn: SHA-256 of the list as compact JSON,
    [[value, count], ...] highest value first (docs/draws.md, "Mystery envelopes")."""
    text = json.dumps([[v, c] for v, c in envelope_list([list(x) for x in envelopes])], separators=(",", ":"))
    return hashlib.sha256(text.encode()).hexdigest()


def remaining(envelopes: Sequence[tuple[int, int]], drawn: Iterable[int]) -> list[tuple[int, int]]:
    """The envelopes left in the box once `drawn` (values; an envelope given back by an undone elimination is not in
    it) are out, highest value first. A value drawn more often than the list holds is an error."""
    left = dict(envelopes)
    for value in drawn:
        if left.get(value, 0) < 1:
            raise BountyError("envelope_not_in_box", value=value)
        left[value] -= 1
    return [(v, c) for v, c in sorted(left.items(), key=lambda vc: -vc[0]) if c > 0]


def draw_envelope(stream, box: Sequence[tuple[int, int]]) -> int:
    """One envelope drawn from the box by the verifiable random source (tables/rules/seating.SeedStream): the envelopes
    laid out one by one by value, lowest first, and the one at `stream.below(count)` taken. Returns its value."""
    laid = [v for v, c in sorted(box) for _ in range(c)]
    if not laid:
        raise BountyError("box_empty")
    return laid[stream.below(len(laid))]
