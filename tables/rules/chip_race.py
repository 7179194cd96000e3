"""Color-up and the chip race at one table (TDA 21, 22; docs/rules.md "Color-up and chip race"; club rules 21
and 30). Pure: no Django, no I/O; the same inputs, rules and seed (or entered cards) always give the same
result, so a recorded race can be recomputed on a public page (`replay`).

The rules enforced, in order:

1. What leaves. At a break the structure names the denominations that leave play (one or several). The
   new chip is the smallest denomination still in play after the break. Every leaving denomination is
   smaller than the new chip (`not_smallest`), and the leaving denominations and the new chip nest: each
   divides the next larger one (25 | 100 | 500; `new_chip_not_multiple`, `not_nested`), as TDA 21 takes
   for granted. At least one denomination leaves (`nothing_leaves`) and at least one stays (`all_leave`).
2. The exchange. A player's chips of the leaving denominations (the counts the dealer counted) are added
   up; their value buys as many whole new chips as it makes (exchanged = value // new chip). The rest is
   the player's odd value.
3. Odd chips. The odd value is counted as the fewest chips of the leaving denominations that make it:
   greedily, largest first, which is the fewest because the denominations nest (475 in 25s and 100s for
   a 500: 4 x 100 + 3 x 25 = 7 odd chips). The dealer colors up within the leaving denominations first, so
   how the player happened to hold his chips does not change his number of cards.
4. The pool. The number of new chips raced is the table's total odd value divided by the new chip,
   rounded by a house setting: "half_up" (the nearest whole chip; exactly half rounds up, below half
   rounds down; docs/rules.md, Robert's Rules) or "up" (any odd value left over makes one more chip).
5. The cards. One card per odd chip, all of a player's cards at once, dealing from seat 1 upward (seats in
   ascending order). Dealt by the software: the 52-card deck `seating.DECK` shuffled by
   `seating.SeedStream(seed).shuffle` (the documented, bias-free shuffle of every verifiable draw), then
   dealt from its top in seat order. Or entered as dealt at the table: each racing seat exactly its number
   of cards (`wrong_card_count`), each a valid card (`bad_card`), no card twice (`duplicate_card`). A race
   uses ONE deck, as real tables do: more than 52 cards at one table is refused (`too_many_cards`) rather
   than dealt from a second deck, where two identical cards could tie.
6. The race. Highest card wins the first chip, the next highest the next, and so on; equal ranks are
   decided by suit, spades > hearts > diamonds > clubs (club rule 30). At most one chip per player: a
   player's later cards are skipped once he has won, so the race order is the players ordered by their
   best card. A pool larger than the players racing cannot be handed out and the rest is not awarded
   (only possible with protected_first and "added"; otherwise the pool never exceeds them).
7. Nobody is raced out. A player left with no chips at all after the exchange and the race (his only
   chips were odd chips and he won nothing; no other chips, given as the value of the chips not leaving,
   or None when the dealer saw other chips without counting them)
   gets one chip of the new denomination, the smallest still in play. Two house settings:
   - protection "added": the chip is added to play, the table's total grows by it; the whole pool is raced.
     "from_raced": it is taken from the pool: the chips raced for the others drop by one per protected
     player, never below 0.
   - protected_first False: the player races like everyone and gets the protection chip only if he wins
     nothing. With "from_raced" the race then stops when the chips won plus the protection chips still
     owed reach the pool (a player owed protection whose card comes up still wins his one chip, which
     changes neither); so the chips handed out are exactly the pool, or one per protected player when
     they outnumber it. True: such a player gets his chip before the race, is dealt no cards and takes
     no part in it; his odd value still counts in the pool.
8. The totals. value before/after (the leaving chips and the other chips of every seat; None when a
   seat's other chips were not counted), difference = after - before = race value change (chips raced x
   new chip - odd value) + protection value (protection chips x new chip), known in every case.
   Bounds: with "half_up", -new/2 < difference <= new/2 + protection value; with "up", 0 <= difference <
   new + protection value.

A seat with no chips at all is not a player (`no_chips`); an empty table, or one without odd chips,
races nothing. Bad input raises `RaceError` (a `seating.DrawError`, so a `ValueError`) whose `code` names
why and whose `details` say where.

Which chips the coming levels no longer need, and chips found after the race (TDA 21C): tables/rules/color_up_plan.py.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from tables.rules.seating import DECK, SEED_BYTES, DrawError, SeedStream, card_value, normal_card

HALF_UP = "half_up"
UP = "up"
ROUNDINGS = (HALF_UP, UP)
ADDED = "added"
FROM_RACED = "from_raced"
PROTECTIONS = (ADDED, FROM_RACED)
FORMAT_VERSION = 1


class RaceError(DrawError):
    """The inputs of a color-up or chip race are refused. `code` names why, `details` say where."""


def whole_number(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


@dataclass(frozen=True)
class RaceRules:
    """The house settings of the chip race (defaults: the reading of the seed rules)."""

    rounding: str = HALF_UP  # HALF_UP or UP
    protection: str = ADDED  # ADDED or FROM_RACED
    protected_first: bool = False

    def __post_init__(self) -> None:
        if self.rounding not in ROUNDINGS:
            raise RaceError("bad_rounding", rounding=self.rounding)
        if self.protection not in PROTECTIONS:
            raise RaceError("bad_protection", protection=self.protection)
        if not isinstance(self.protected_first, bool):
            raise RaceError("bad_protected_first", protected_first=self.protected_first)

    def to_json(self) -> dict[str, Any]:
        return {"rounding": self.rounding, "protection": self.protection, "protected_first": self.protected_first}

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> RaceRules:
        return cls(
            rounding=data.get("rounding", HALF_UP),
            protection=data.get("protection", ADDED),
            protected_first=data.get("protected_first", False),
        )


@dataclass(frozen=True)
class SeatChips:
    """What the dealer counted at one seat: chips of each leaving denomination (value -> count; a missing
    denomination is 0) and the value of the player's other chips, those not leaving."""

    leaving: Mapping[int, int]
    other_value: int | None = 0  # None: the player has other chips, not counted


@dataclass(frozen=True)
class ColorUp:
    """The denominations leaving at a break (ascending) and the new chip, checked (rule 1)."""

    leaving: tuple[int, ...]
    new_chip: int

    @classmethod
    def of(cls, in_play: Sequence[int], leaving: Sequence[int]) -> ColorUp:
        values = sorted_denominations(in_play)
        gone = list(leaving)
        if not gone:
            raise RaceError("nothing_leaves")
        for value in gone:
            if not whole_number(value) or value not in values:
                raise RaceError("not_in_play", value=value)
        if len(set(gone)) != len(gone):
            raise RaceError("duplicate_denomination", value=next(v for v in gone if gone.count(v) > 1))
        staying = [v for v in values if v not in gone]
        if not staying:
            raise RaceError("all_leave")
        new_chip = staying[0]
        chain = sorted(gone)
        for value in chain:
            if value > new_chip:
                raise RaceError("not_smallest", value=value, new_chip=new_chip)
            if new_chip % value:
                raise RaceError("new_chip_not_multiple", value=value, new_chip=new_chip)
        for smaller, larger in zip(chain, chain[1:], strict=False):
            if larger % smaller:
                raise RaceError("not_nested", value=larger, smaller=smaller)
        return cls(leaving=tuple(chain), new_chip=new_chip)

    def odd_chips(self, odd_value: int) -> int:
        """The fewest chips of the leaving denominations that make `odd_value` (rule 3)."""
        count, rest = 0, odd_value
        for value in reversed(self.leaving):
            count += rest // value
            rest %= value
        if rest:  # cannot happen for a value made of leaving chips: they nest
            raise RaceError("odd_value_not_made_of_leaving_chips", odd_value=odd_value)
        return count


def sorted_denominations(values: Sequence[int]) -> list[int]:
    out = list(values)
    for value in out:
        if not whole_number(value) or value < 1:
            raise RaceError("bad_denomination", value=value)
    if len(set(out)) != len(out):
        raise RaceError("duplicate_denomination", value=next(v for v in out if out.count(v) > 1))
    return sorted(out)


@dataclass(frozen=True)
class _Counted:
    seat: int
    leaving: tuple[tuple[int, int], ...]  # (value, count) for every leaving denomination, ascending
    other_value: int | None
    leaving_value: int
    exchanged: int
    odd_value: int
    odd_chips: int

    @property
    def only_odd(self) -> bool:
        """His odd chips are all he has: without a chip from the race he would be raced out."""
        return self.other_value == 0 and self.exchanged == 0


def _count(colour: ColorUp, seats: Mapping[int, SeatChips]) -> list[_Counted]:
    counted = []
    for seat in seats:
        if not whole_number(seat) or seat < 1:
            raise RaceError("bad_seat", seat=seat)
    for seat in sorted(seats):
        chips = seats[seat]
        if not isinstance(chips, SeatChips) or not isinstance(chips.leaving, Mapping):
            raise RaceError("bad_seat_chips", seat=seat)
        for value, count in chips.leaving.items():
            if value not in colour.leaving:
                raise RaceError("not_leaving", seat=seat, value=value)
            if not whole_number(count) or count < 0:
                raise RaceError("bad_count", seat=seat, value=value, count=count)
        if chips.other_value is not None and (not whole_number(chips.other_value) or chips.other_value < 0):
            raise RaceError("bad_value", seat=seat, other_value=chips.other_value)
        pairs = tuple((value, chips.leaving.get(value, 0)) for value in colour.leaving)
        leaving_value = sum(value * count for value, count in pairs)
        if leaving_value == 0 and chips.other_value == 0:
            raise RaceError("no_chips", seat=seat)
        exchanged, odd_value = divmod(leaving_value, colour.new_chip)
        counted.append(_Counted(seat, pairs, chips.other_value, leaving_value, exchanged, odd_value, colour.odd_chips(odd_value)))
    return counted


def _racers(counted: list[_Counted], rules: RaceRules) -> dict[int, int]:
    return {c.seat: c.odd_chips for c in counted if c.odd_chips and not (rules.protected_first and c.only_odd)}


def _rules(rules: RaceRules | None) -> RaceRules:
    if rules is None:
        return RaceRules()
    if not isinstance(rules, RaceRules):
        raise RaceError("bad_rules")
    return rules


def _check_total(cards_by_seat: Mapping[int, int]) -> None:
    total = sum(cards_by_seat.values())
    if total > len(DECK):
        raise RaceError("too_many_cards", cards=total, deck=len(DECK))


def pool_size(odd_value: int, new_chip: int, rounding: str = HALF_UP) -> int:
    """The number of new chips raced for a table's total odd value (rule 4)."""
    if not whole_number(odd_value) or odd_value < 0:
        raise RaceError("bad_value", odd_value=odd_value)
    if not whole_number(new_chip) or new_chip < 1:
        raise RaceError("bad_denomination", value=new_chip)
    if rounding == HALF_UP:
        return (2 * odd_value + new_chip) // (2 * new_chip)
    if rounding == UP:
        return -(-odd_value // new_chip)
    raise RaceError("bad_rounding", rounding=rounding)


def cards_to_deal(
    in_play: Sequence[int], leaving: Sequence[int], seats: Mapping[int, SeatChips], rules: RaceRules | None = None
) -> dict[int, int]:
    """Seat -> number of cards (one per odd chip), for the seats that race, in ascending seat order.
    With protected_first, a player whose odd chips are all he has is dealt none. Refuses too_many_cards."""
    counted = _count(ColorUp.of(in_play, leaving), seats)
    racers = _racers(counted, _rules(rules))
    _check_total(racers)
    return racers


def deal_race_cards(seed: bytes, odd_chips_by_seat: Mapping[int, int]) -> dict[int, list[str]]:
    """The software's deal (rule 5): one deck shuffled by SeedStream(seed), dealt from the top, each seat
    all its cards at once, seats ascending. Every seat given appears in the result (an empty list for 0)."""
    for seat, count in odd_chips_by_seat.items():
        if not whole_number(seat) or seat < 1:
            raise RaceError("bad_seat", seat=seat)
        if not whole_number(count) or count < 0:
            raise RaceError("bad_count", seat=seat, count=count)
    _check_total(odd_chips_by_seat)
    if not isinstance(seed, bytes | bytearray) or len(seed) != SEED_BYTES:
        raise RaceError("bad_seed", length=len(seed) if isinstance(seed, bytes | bytearray) else None)
    deck = SeedStream(bytes(seed)).shuffle(list(DECK))
    dealt: dict[int, list[str]] = {}
    top = 0
    for seat in sorted(odd_chips_by_seat):
        count = odd_chips_by_seat[seat]
        dealt[seat] = deck[top : top + count]
        top += count
    return dealt


def _check_cards(cards: Mapping[int, Sequence[str]], needed: Mapping[int, int]) -> dict[int, tuple[str, ...]]:
    _check_total(needed)
    for seat, hand in cards.items():
        if isinstance(hand, str) or not isinstance(hand, Sequence):
            raise RaceError("bad_cards", seat=seat)
        if seat not in needed and len(hand):
            raise RaceError("wrong_card_count", seat=seat, expected=0, got=len(hand))
    checked: dict[int, tuple[str, ...]] = {}
    seen: set[str] = set()
    for seat, count in needed.items():
        hand = cards.get(seat, ())
        if len(hand) != count:
            raise RaceError("wrong_card_count", seat=seat, expected=count, got=len(hand))
        normal = []
        for entered in hand:
            try:
                card = normal_card(entered)
            except (DrawError, AttributeError, TypeError):
                raise RaceError("bad_card", seat=seat, card=entered)
            if card in seen:
                raise RaceError("duplicate_card", seat=seat, card=card)
            seen.add(card)
            normal.append(card)
        checked[seat] = tuple(normal)
    return checked


@dataclass(frozen=True)
class SeatResult:
    seat: int
    leaving: tuple[tuple[int, int], ...]  # (value, count) the dealer counted, every leaving denomination
    other_value: int | None  # the chips not leaving, untouched (None: some, not counted)
    leaving_value: int
    odd_value: int
    odd_chips: int  # the fewest leaving chips making the odd value (rule 3)
    cards: tuple[str, ...]  # as dealt; empty if the seat did not race
    exchanged: int  # new chips for the whole part of the leaving value
    won: int  # 0 or 1, the chip won in the race
    protection: int  # 0 or 1, the chip given so as not to be raced out

    @property
    def new_chips(self) -> int:
        """The chips of the new denomination the seat gets: exchanged + won + protection."""
        return self.exchanged + self.won + self.protection

    def to_json(self, new_chip: int) -> dict[str, Any]:
        return {
            "seat": self.seat,
            "leaving": [[value, count] for value, count in self.leaving],
            "other_value": self.other_value,
            "leaving_value": self.leaving_value,
            "odd_value": self.odd_value,
            "odd_chips": self.odd_chips,
            "cards": list(self.cards),
            "exchanged": self.exchanged,
            "won": self.won,
            "protection": self.protection,
            "new_chips": self.new_chips,
            "new_value": self.new_chips * new_chip,
            "value_before": None if self.other_value is None else self.other_value + self.leaving_value,
            "value_after": None if self.other_value is None else self.other_value + self.new_chips * new_chip,
        }


@dataclass(frozen=True)
class RaceResult:
    in_play: tuple[int, ...]
    leaving: tuple[int, ...]
    new_chip: int
    rules: RaceRules
    seats: tuple[SeatResult, ...]  # ascending seat
    pool: int  # the rounded count (rule 4)
    winners: tuple[int, ...]  # seats, in the order they won

    def seat(self, number: int) -> SeatResult:
        return next(s for s in self.seats if s.seat == number)

    @property
    def odd_value(self) -> int:
        return sum(s.odd_value for s in self.seats)

    @property
    def chips_raced(self) -> int:
        return len(self.winners)

    @property
    def protected(self) -> tuple[int, ...]:
        return tuple(s.seat for s in self.seats if s.protection)

    @property
    def protection_chips(self) -> int:
        return len(self.protected)

    @property
    def value_before(self) -> int | None:
        if any(s.other_value is None for s in self.seats):
            return None
        return sum(s.other_value + s.leaving_value for s in self.seats)

    @property
    def value_after(self) -> int | None:
        if any(s.other_value is None for s in self.seats):
            return None
        return sum(s.other_value + s.new_chips * self.new_chip for s in self.seats)

    @property
    def race_value_change(self) -> int:
        return self.chips_raced * self.new_chip - self.odd_value

    @property
    def protection_value(self) -> int:
        return self.protection_chips * self.new_chip

    @property
    def difference(self) -> int:
        """value after - value before, known even where other chips were not counted."""
        return self.race_value_change + self.protection_value

    def to_json(self) -> dict[str, Any]:
        """The record for the audit log and the public page: ints, strings, lists and the rules' bool."""
        return {
            "version": FORMAT_VERSION,
            "in_play": list(self.in_play),
            "leaving": list(self.leaving),
            "new_chip": self.new_chip,
            "rules": self.rules.to_json(),
            "seats": [s.to_json(self.new_chip) for s in self.seats],
            "odd_value": self.odd_value,
            "pool": self.pool,
            "chips_raced": self.chips_raced,
            "winners": list(self.winners),
            "protection_chips": self.protection_chips,
            "protected": list(self.protected),
            "value_before": self.value_before,
            "value_after": self.value_after,
            "difference": self.difference,
            "race_value_change": self.race_value_change,
            "protection_value": self.protection_value,
        }


def race(
    in_play: Sequence[int],
    leaving: Sequence[int],
    seats: Mapping[int, SeatChips],
    cards: Mapping[int, Sequence[str]],
    rules: RaceRules | None = None,
) -> RaceResult:
    """The color-up and chip race at one table with the cards as dealt (by `deal_race_cards` or entered).
    `cards` holds, for every seat of `cards_to_deal`, exactly its cards; other seats absent or empty."""
    rules = _rules(rules)
    colour = ColorUp.of(in_play, leaving)
    counted = _count(colour, seats)
    hands = _check_cards(cards, _racers(counted, rules))
    pool = pool_size(sum(c.odd_value for c in counted), colour.new_chip, rules.rounding)
    best = {seat: max(card_value(card) for card in hand) for seat, hand in hands.items()}
    order = sorted(best, key=best.__getitem__, reverse=True)  # one place per player: his best card
    only_odd = {c.seat for c in counted if c.only_odd}
    if rules.protection == ADDED:
        winners = order[:pool]
    elif rules.protected_first:
        winners = order[: max(0, pool - len(only_odd))]
    else:
        winners, owed = [], set(only_odd)
        if len(owed) <= pool:
            for seat in order:
                if seat not in owed and len(winners) + len(owed) >= pool:
                    break
                winners.append(seat)
                owed.discard(seat)
    won = set(winners)
    results = tuple(
        SeatResult(
            seat=c.seat,
            leaving=c.leaving,
            other_value=c.other_value,
            leaving_value=c.leaving_value,
            odd_value=c.odd_value,
            odd_chips=c.odd_chips,
            cards=hands.get(c.seat, ()),
            exchanged=c.exchanged,
            won=int(c.seat in won),
            protection=int(c.seat in only_odd and c.seat not in won),
        )
        for c in counted
    )
    return RaceResult(
        in_play=tuple(sorted(in_play)),
        leaving=colour.leaving,
        new_chip=colour.new_chip,
        rules=rules,
        seats=results,
        pool=pool,
        winners=tuple(winners),
    )


def race_from_seed(
    in_play: Sequence[int], leaving: Sequence[int], seats: Mapping[int, SeatChips], seed: bytes, rules: RaceRules | None = None
) -> RaceResult:
    """The race with the cards dealt by the software from `seed` (rule 5)."""
    needed = cards_to_deal(in_play, leaving, seats, rules)
    return race(in_play, leaving, seats, deal_race_cards(seed, needed), rules)


def replay(record: Mapping[str, Any]) -> RaceResult:
    """Recompute a recorded race (`RaceResult.to_json()`) from its own inputs and cards; the public page
    checks replay(record).to_json() == record, and for a seeded deal also that deal_race_cards(seed,
    {seat: len(cards)}) gives the recorded cards."""
    try:
        seats = {
            int(s["seat"]): SeatChips(
                leaving={int(v): int(n) for v, n in s["leaving"]}, other_value=None if s["other_value"] is None else int(s["other_value"])
            )
            for s in record["seats"]
        }
        cards = {int(s["seat"]): list(s["cards"]) for s in record["seats"]}
        return race(list(record["in_play"]), list(record["leaving"]), seats, cards, RaceRules.from_json(record["rules"]))
    except (KeyError, TypeError, ValueError) as error:
        if isinstance(error, RaceError):
            raise
        raise RaceError("bad_record", error=str(error))
