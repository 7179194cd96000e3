"""Deals at a final table (docs/rules.md, "Deals and payouts": club 28 and 32). Pure: no Django.

A deal shares the prizes left among the players left. An optional amount `to_play_for` is kept
out of the deal and goes to whoever wins the play that follows. All money is in whole minor units.

- chip_chop: everyone gets the lowest prize left, and the rest in proportion to their chips.
- icm_deal: everyone gets their ICM equity (payouts.rules.icm); `to_play_for` comes off the first prize.
- check_deal: every proposed deal (these two or a custom one) is checked before the floor approves
  it: whole minor units, adding up exactly to what is shared, nobody below the lowest prize left,
  nobody above first place, and payable in cash: whole rounding units (below).
- Rounding (docs/rules.md, "Payout rounding", as payouts/rules/payout_structure.py does it for the prizes): a
  deal is paid in the house's rounding unit (`unit`, the payout plan's: 1 CZK = 100 minor units), so
  every amount is the lowest prize left plus whole units (the unit grid itself, as the plan's prizes
  below first are whole units), except the largest, which also takes what is shared below one unit,
  as first place does. The whole units are fitted (largest remainder), so each amount stays within
  a unit of its exact share (two at most, for the leader's part below a unit and equal stacks), the
  total stays exact, and a larger stack never gets less.
- Club 28, "in a deal no player may receive more than a player who finishes higher", is kept in
  one of two ways:
    * play on: deal_table turns the agreed amounts into a new prize table by place (the largest
      amount for first, and so on down), and play goes on for the places;
    * stop here: stop_here gives every player their agreed amount and places them by their chips
      at the deal, refusing a deal in which a player with fewer chips would get more.
- make_deal puts it together into a Deal (the kind, the amounts, what is left to play for and the
  prize table by place).

A refused deal raises DealRefused (a ValueError, so the service layer answers 4xx) with a message
for the floor and a `code` and player indices for a translated message; other bad input raises a
plain ValueError.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction

from payouts.rules.icm import icm_amounts, icm_equities, validate_prizes, validate_stacks

ICM = "icm"
CHIP_CHOP = "chip_chop"
CUSTOM = "custom"
KINDS = (ICM, CHIP_CHOP, CUSTOM)

# DealRefused codes
TOO_FEW_PLAYERS = "too_few_players"
NOT_WHOLE = "not_whole"
OFF_UNIT = "off_unit"
WRONG_SUM = "wrong_sum"
BELOW_LOWEST = "below_lowest"
ABOVE_FIRST = "above_first"
CLUB_28 = "club_28"


class DealRefused(ValueError):
    """A proposed deal that breaks a deal rule. `code` says which (the constants above); `player`
    is the index of the player it is about and `other`, for club 28, the player finishing higher."""

    def __init__(self, message: str, *, code: str, player: int | None = None, other: int | None = None) -> None:
        super().__init__(message)
        self.code = code
        self.player = player
        self.other = other


@dataclass(frozen=True)
class Deal:
    """An agreed deal. `amounts[i]` is what player i (in the order the stacks were given) is paid
    from the deal; `to_play_for` goes on top to the winner of the play that follows; `table` is the
    prize table by place for the places left (club 28 play-on, see deal_table)."""

    kind: str
    amounts: tuple[int, ...]
    to_play_for: int
    table: tuple[int, ...]


@dataclass(frozen=True)
class Finish:
    """Where a player finishes when play stops at a deal, and what they are paid. `places` is
    (highest, lowest); the two differ for players tied on chips."""

    player: int
    places: tuple[int, int]
    amount: int


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _deal_stacks(stacks: Sequence[int]) -> tuple[int, ...]:
    stacks = tuple(stacks)
    if len(stacks) < 2:
        raise ValueError(f"a deal needs at least two players, got {len(stacks)}")
    for i, s in enumerate(stacks):
        if not _is_int(s) or s <= 0:
            raise ValueError(f"stack of player {i} must be a positive whole number of chips, got {s!r}")
    return stacks


def _to_play_for(to_play_for: int, prizes: tuple[int, ...]) -> int:
    if not _is_int(to_play_for) or to_play_for < 0:
        raise ValueError(f"the amount to play for must be a non-negative whole number of minor units, got {to_play_for!r}")
    if to_play_for > sum(prizes):
        raise ValueError(f"{to_play_for} to play for is more than the {sum(prizes)} left")
    return to_play_for


def lowest_prize(prizes_left: Sequence[int], players: int) -> int:
    """The prize of the lowest place still in play: the last prize when every player left is paid,
    0 when there are fewer prizes than players."""
    return prizes_left[players - 1] if len(prizes_left) == players else 0


def chip_chop(stacks: Sequence[int], prizes_left: Sequence[int], to_play_for: int = 0, unit: int = 1) -> list[int]:
    """The chip-count deal: each player gets the lowest prize left plus a share of the rest in
    proportion to their chips,

        lowest + (pool - players * lowest) * chips / all chips,   pool = sum(prizes_left) - to_play_for,

    in whole rounding units (`unit`, see the module's docstring) adding up exactly to the pool (largest
    remainder; equal remainders: the larger stack, then the lower index). Not checked here: with a big chip lead the leader's share
    can exceed first place, and check_deal then refuses the deal, as it must (club 28, 32).
    ValueError when `to_play_for` leaves less than the lowest prize for everyone."""
    stacks = _deal_stacks(stacks)
    prizes = validate_prizes(prizes_left, len(stacks))
    to_play_for = _to_play_for(to_play_for, prizes)
    players = len(stacks)
    pool = sum(prizes) - to_play_for
    lowest = lowest_prize(prizes, players)
    extra = pool - players * lowest
    if extra < 0:
        raise ValueError(
            f"{to_play_for} to play for leaves {pool}, less than the lowest prize left ({lowest}) for each of the {players} players"
        )
    chips = sum(stacks)
    shares = [lowest + Fraction(extra * s, chips) for s in stacks]
    return in_units(shares, pool, stacks, lowest, unit)


def icm_deal(stacks: Sequence[int], prizes_left: Sequence[int], to_play_for: int = 0, unit: int = 1) -> list[int]:
    """The ICM deal: each player's ICM equity (payouts.rules.icm, exact Malmuth-Harville) in whole rounding
    units (`unit`, see the module's docstring) adding up exactly to sum(prizes_left) - to_play_for
    (largest remainder, a larger stack never gets less).

    `to_play_for` comes off the first prize before ICM: the amount played for is then exactly what
    first place pays over the deal, and it goes to the winner of the play that follows. So it may be
    at most first minus second (ValueError otherwise): a larger amount would leave a prize table in
    which first pays less than second."""
    stacks = _deal_stacks(stacks)
    stacks = validate_stacks(stacks)
    prizes = validate_prizes(prizes_left, len(stacks))
    to_play_for = _to_play_for(to_play_for, prizes)
    second = prizes[1] if len(prizes) > 1 else 0
    if to_play_for > prizes[0] - second:
        raise ValueError(
            f"{to_play_for} to play for is more than first place pays over second ({prizes[0]} - {second}): it comes off the first prize"
        )
    reduced = (prizes[0] - to_play_for, *prizes[1:])
    if unit == 1:
        return icm_amounts(stacks, reduced)
    return in_units(icm_equities(stacks, reduced), sum(reduced), stacks, lowest_prize(prizes, len(stacks)), unit)


def in_units(shares: Sequence[float | Fraction], total: int, stacks: Sequence[int], lowest: int, unit: int) -> list[int]:
    """Exact shares (each at least `lowest`, adding up to `total`) as amounts payable in cash: `lowest`
    plus whole units for every player, the largest amount also taking the part of the total below one
    unit (docs/rules.md: "the remainder goes to first place"). The units are fitted: each share above
    `lowest` (the chip leader's less that part) is rounded down to the unit, and the units left go one
    each to the largest rounded-off fractions (equal fractions: the larger stack, then the lower index).
    Then handed out in stack order, so a larger stack never gets less, whatever float rounding did.
    With `unit` 1 this is the plain largest remainder in minor units."""
    if not _is_int(unit) or unit < 1:
        raise ValueError(f"the rounding unit must be a whole number of minor units, at least 1, got {unit!r}")
    n = len(shares)
    by_stack = sorted(range(n), key=lambda i: (-stacks[i], i))
    units, below = divmod(total - n * lowest, unit)
    if units < 0:
        raise ValueError(f"{total} does not give each of the {n} players the lowest prize left ({lowest})")
    top = by_stack[0]
    scaled = [max(0, (share - lowest - (below if i == top else 0)) / unit) for i, share in enumerate(shares)]
    floors = [math.floor(w) for w in scaled]
    left = units - sum(floors)
    if not 0 <= left <= n:
        raise ValueError(f"the shares add up to {float(sum(shares))}, too far from the total {total}")
    order = sorted(range(n), key=lambda i: (-(scaled[i] - floors[i]), -stacks[i], i))
    for i in order[:left]:
        floors[i] += 1
    amounts = [0] * n
    for i, whole in zip(by_stack, sorted(floors, reverse=True), strict=True):
        amounts[i] = lowest + whole * unit
    amounts[top] += below
    return amounts


def check_deal(amounts: Sequence[int], prizes_left: Sequence[int], to_play_for: int = 0, unit: int = 1) -> None:
    """Check a proposed deal (one amount per player left) before the floor approves it (club 32:
    without approval there is no deal). Raises DealRefused when:

    - there are fewer than two players, or an amount is not a whole number of minor units;
    - the amounts do not add up exactly to what is shared, sum(prizes_left) - to_play_for;
    - a player would get less than the lowest prize left (0 with fewer prizes than players);
    - a player would get more than first place pays. With an amount left to play for, a player's
      amount plus that amount is what they can end with, so that must not exceed first place;
    - an amount cannot be paid in cash: every amount is the lowest prize left plus whole rounding units
      (`unit`), except one largest amount, which carries what is shared below a unit.

    Returns normally for an acceptable deal. ValueError for a bad prize table or amount to play for."""
    amounts = list(amounts)
    if len(amounts) < 2:
        raise DealRefused(f"a deal needs at least two players, got {len(amounts)}", code=TOO_FEW_PLAYERS)
    prizes = validate_prizes(prizes_left, len(amounts))
    to_play_for = _to_play_for(to_play_for, prizes)
    for i, amount in enumerate(amounts):
        if not _is_int(amount):
            raise DealRefused(f"player {i} would get {amount!r}: amounts are whole minor units", code=NOT_WHOLE, player=i)
    shared = sum(prizes) - to_play_for
    if sum(amounts) != shared:
        kept = f" ({sum(prizes)} left less {to_play_for} to play for)" if to_play_for else ""
        raise DealRefused(f"the deal hands out {sum(amounts)}, but {shared} is to be shared{kept}", code=WRONG_SUM)
    lowest = lowest_prize(prizes, len(amounts))
    first = prizes[0]
    for i, amount in enumerate(amounts):
        if amount < lowest:
            raise DealRefused(f"player {i} would get {amount}, less than the lowest prize left ({lowest})", code=BELOW_LOWEST, player=i)
    for i, amount in enumerate(amounts):
        if amount + to_play_for > first:
            if to_play_for:
                message = (
                    f"player {i} would get {amount} and could win {to_play_for} more playing on: "
                    f"{amount + to_play_for}, more than first place pays ({first})"
                )
            else:
                message = f"player {i} would get {amount}, more than first place pays ({first})"
            raise DealRefused(message, code=ABOVE_FIRST, player=i)
    if unit != 1:
        largest = max(range(len(amounts)), key=lambda i: (amounts[i], -i))
        for i, amount in enumerate(amounts):
            if i != largest and (amount - lowest) % unit:
                raise DealRefused(
                    f"player {i} would get {amount}, which cannot be paid in units of {unit}: "
                    f"every amount but the largest is the lowest prize left ({lowest}) plus whole units",
                    code=OFF_UNIT,
                    player=i,
                )


def deal_table(amounts: Sequence[int], to_play_for: int = 0) -> tuple[int, ...]:
    """Club 28, play on: the agreed amounts as a new prize table by place for the players left.
    Place k is paid the k-th largest amount, and first place also the amount left to play for, so a
    player who finishes lower never gets more than one who finishes higher, and play goes on for
    the places. The table adds up to sum(amounts) + to_play_for and never rises down the list."""
    amounts = list(amounts)
    if not amounts:
        raise ValueError("no amounts: one per player left")
    for i, amount in enumerate(amounts):
        if not _is_int(amount) or amount < 0:
            raise ValueError(f"amount of player {i} must be a non-negative whole number of minor units, got {amount!r}")
    if not _is_int(to_play_for) or to_play_for < 0:
        raise ValueError(f"the amount to play for must be a non-negative whole number of minor units, got {to_play_for!r}")
    table = sorted(amounts, reverse=True)
    table[0] += to_play_for
    return tuple(table)


def stop_here(amounts: Sequence[int], stacks: Sequence[int]) -> tuple[Finish, ...]:
    """Club 28, stop here: play ends at the deal, every player is paid their agreed amount, and the
    places follow the chip counts at the deal: more chips, higher place. Equal stacks tie (docs/rules.md:
    "equal stacks tie") and share their places; neither finishes higher than the other, so club 28
    puts no order between their amounts.

    Raises DealRefused (code CLUB_28) when a player with fewer chips would get more than a player
    with more chips: in a deal no player may receive more than a player who finishes higher.
    Nothing is left to play for when play stops: check the amounts with
    check_deal(amounts, prizes_left) as well. Returns the finishes by place (then player index)."""
    stacks = _deal_stacks(stacks)
    amounts = list(amounts)
    if len(amounts) != len(stacks):
        raise ValueError(f"{len(amounts)} amounts for {len(stacks)} players")
    for i, amount in enumerate(amounts):
        if not _is_int(amount):
            raise DealRefused(f"player {i} would get {amount!r}: amounts are whole minor units", code=NOT_WHOLE, player=i)
    finishes: list[Finish] = []
    above: int | None = None  # among the players with more chips than this level, the one paid least
    place = 1
    for stack in sorted(set(stacks), reverse=True):
        level = [i for i, s in enumerate(stacks) if s == stack]
        if above is not None:
            for i in level:
                if amounts[i] > amounts[above]:
                    raise DealRefused(
                        f"club 28: player {i} has {stacks[i]} chips and finishes below player {above} ({stacks[above]} chips), "
                        f"but would get {amounts[i]}, more than player {above}'s {amounts[above]}; "
                        "in a deal no player may receive more than a player who finishes higher",
                        code=CLUB_28,
                        player=i,
                        other=above,
                    )
        places = (place, place + len(level) - 1)
        finishes.extend(Finish(player=i, places=places, amount=amounts[i]) for i in level)
        # Nobody here is paid more than the least paid above, so the least paid so far is here.
        above = min(level, key=lambda i: (amounts[i], i))
        place += len(level)
    return tuple(finishes)


def make_deal(
    kind: str,
    stacks: Sequence[int],
    prizes_left: Sequence[int],
    to_play_for: int = 0,
    amounts: Sequence[int] | None = None,
    unit: int = 1,
) -> Deal:
    """A checked deal: the amounts of an ICM or chip-chop deal are computed in whole rounding units
    (`unit`), a custom deal's are given (one per player, in the order of `stacks`). Runs check_deal (DealRefused) and records the
    club 28 prize table by place (deal_table)."""
    if kind not in KINDS:
        raise ValueError(f"unknown kind of deal {kind!r}: one of {', '.join(KINDS)}")
    if kind == CUSTOM:
        if amounts is None:
            raise ValueError("a custom deal needs the agreed amounts")
        stacks = _deal_stacks(stacks)
        amounts = list(amounts)
        if len(amounts) != len(stacks):
            raise ValueError(f"{len(amounts)} amounts for {len(stacks)} players")
    elif amounts is not None:
        raise ValueError(f"the amounts of a {kind} deal are computed, not given")
    elif kind == ICM:
        amounts = icm_deal(stacks, prizes_left, to_play_for, unit)
    else:
        amounts = chip_chop(stacks, prizes_left, to_play_for, unit)
    check_deal(amounts, prizes_left, to_play_for, unit)
    return Deal(kind=kind, amounts=tuple(amounts), to_play_for=to_play_for, table=deal_table(amounts, to_play_for))
