"""Exact ICM (the Malmuth-Harville independent chip model) for deals at a final table (docs/rules.md,
"Deals and payouts", club 28). Pure: no Django, no I/O; numpy for the sums over subsets.

The model: a player wins with probability stack / all chips; given the players who took the places
above, a player takes the next place with probability stack / the chips of those still left. A
player's equity is the sum over places of the prize times the chance of finishing there.

Exact, by subsets rather than over all n! finishing orders (O(2^n * n), up to MAX_PLAYERS):

    P(T)  = the chance that the set T holds exactly the top |T| places (in some order)
    P({}) = 1,   P(T) = sum over j in T of P(T - j) * s_j / D(T - j)

where D(U) is the chips of the players outside U, and player j finishes in place |U| + 1 right
after the set U with chance P(U) * s_j / D(U). So player j's equity is

    EV_j = s_j * sum over U without j of prize[|U|] * P(U) / D(U).

The per-subset weights s_j make the recursion slow; scaling them away makes it a sum of plain
additions. With y_j = n * s_j / S (S all chips) and d(U) = n * D(U) / S, the sum of y
outside U, put p(T) = P(T) / prod(y over T) and q(U) = p(U) / d(U): then

    p({}) = 1,   p(T) = sum over j in T of q(T - j),   EV_j = y_j * sum over U without j of
                                                        q(U) * prod(y over U) * prize[|U|].

The subsets of one size need only those one player smaller, so numpy computes q one size at a time,
one vector operation per player (bench/payouts.py: 15 players in a few milliseconds).

p(T) can exceed the float range only for absurd stack ratios (beyond about 10^16 : 1 at 20 players); the
scaled method is used when a bound on p proves it safe, otherwise the plain layer-by-layer form,
which is also taken when it is cheaper (few prizes among many players) or for 1 to 3 players.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from fractions import Fraction

import numpy as np

MAX_PLAYERS = 20
# Every prize (and their total) must be an exact float for equities in minor units to mean a unit.
MAX_PRIZE_TOTAL = 2**53

_FEW_PLAYERS = 4  # below this, the layer-by-layer form
_SAFE_LOG = 700.0  # e^700 ~ 1e304, below the float maximum (~1.8e308)


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def validate_stacks(stacks: Sequence[int]) -> tuple[int, ...]:
    """The chip counts of the players left: 1 to MAX_PLAYERS positive ints (chips are counts)."""
    stacks = tuple(stacks)
    if not stacks:
        raise ValueError("no players: give the chip count of every player left")
    if len(stacks) > MAX_PLAYERS:
        raise ValueError(f"exact ICM takes at most {MAX_PLAYERS} players, got {len(stacks)}")
    for i, s in enumerate(stacks):
        if not _is_int(s):
            raise ValueError(f"stack of player {i} must be a whole number of chips, got {s!r}")
        if s <= 0:
            raise ValueError(f"stack of player {i} must be positive, got {s}: a player without chips is out")
    return stacks


def validate_prizes(prizes: Sequence[int], players: int) -> tuple[int, ...]:
    """The prizes left by place (first place first), in minor units: at least one, at most one per
    player (fewer: the lowest places pay nothing), non-negative ints that never rise down the list
    (docs/rules.md: "prizes never rise down the list"), adding up to at most MAX_PRIZE_TOTAL."""
    prizes = tuple(prizes)
    if not prizes:
        raise ValueError("no prizes left to share")
    if len(prizes) > players:
        raise ValueError(f"{len(prizes)} prizes left for {players} players: more prizes than players")
    for k, p in enumerate(prizes):
        if not _is_int(p):
            raise ValueError(f"prize for place {k + 1} must be a whole number of minor units, got {p!r}")
        if p < 0:
            raise ValueError(f"prize for place {k + 1} is negative ({p})")
    for k in range(1, len(prizes)):
        if prizes[k] > prizes[k - 1]:
            raise ValueError(f"prizes must never rise down the list: place {k + 1} pays {prizes[k]}, more than place {k} ({prizes[k - 1]})")
    if sum(prizes) > MAX_PRIZE_TOTAL:
        raise ValueError(f"prizes add up to {sum(prizes)} minor units, more than the supported {MAX_PRIZE_TOTAL}")
    return prizes


def icm_equities(stacks: Sequence[int], prizes: Sequence[int]) -> list[float]:
    """Each player's ICM equity (Malmuth-Harville, exact) in minor units, as floats, in the order of
    `stacks`. `prizes` are the prizes left by place; with fewer prizes than players the other places
    pay 0. The equities add up to sum(prizes) (up to float rounding); a larger stack never gets less.
    Raises ValueError on bad input (see validate_stacks / validate_prizes)."""
    stacks = validate_stacks(stacks)
    prizes = validate_prizes(prizes, len(stacks))
    n = len(stacks)
    if n == 1:
        return [float(prizes[0])]
    if n < _FEW_PLAYERS or _layered_terms(n, len(prizes)) < 2 << n:  # the cheaper of the two (measured)
        return _equities_layered(stacks, prizes)
    total = sum(stacks)
    ys = [n * s / total for s in stacks]  # int / int: correctly rounded even for huge stacks
    if not _scaled_is_safe(ys):
        return _equities_layered(stacks, prizes)
    return _equities_scaled(ys, prizes)


def _layered_terms(n: int, m: int) -> int:
    """How many (subset, next player) terms the layer-by-layer form needs for m prizes."""
    return sum(math.comb(n, k) * (n - k) for k in range(m))


def _scaled_is_safe(ys: list[float]) -> bool:
    """p(T) = P(T) / prod(y over T) <= 1 / prod(y < 1 over T), and q = p / d with d >= min(y);
    intermediate sums add at most n such terms. Safe when that bound stays well inside floats."""
    if min(ys) <= 0.0:  # a stack so small next to the others that its share underflowed
        return False
    bound = math.log(len(ys)) - sum(math.log(y) for y in ys if y < 1.0) - math.log(min(ys))
    return bound < _SAFE_LOG


def _equities_layered(stacks: tuple[int, ...], prizes: tuple[int, ...]) -> list[float]:
    """The recursion as it stands, one layer of subsets (|U| = k, the top k places) at a time. Only
    the layers that still lead to a paid place are built."""
    n, m = len(stacks), len(prizes)
    equities = [0.0] * n
    layer: dict[int, float] = {0: 1.0}  # U -> P(U)
    rest: dict[int, int] = {0: sum(stacks)}  # U -> chips of the players outside U
    for k in range(m):
        prize = prizes[k]
        last = k + 1 == m
        next_layer: dict[int, float] = {}
        next_rest: dict[int, int] = {}
        for u, p in layer.items():
            chips_left = rest[u]
            for j in range(n):
                bit = 1 << j
                if u & bit:
                    continue
                pj = p * (stacks[j] / chips_left)  # P(U) * chance j takes place k + 1 after U
                equities[j] += prize * pj
                if not last:
                    t = u | bit
                    if t in next_layer:
                        next_layer[t] += pj
                    else:
                        next_layer[t] = pj
                        next_rest[t] = chips_left - stacks[j]
        layer, rest = next_layer, next_rest
    return equities


def _equities_scaled(ys: list[float], prizes: tuple[int, ...]) -> list[float]:
    """The scaled subset recursion (module docstring) over all 2^n subsets, as bitmasks, in numpy: the
    subsets of one size at a time (each needs only the subsets one player smaller)."""
    n = len(ys)
    size = 1 << n
    y = np.array(ys, dtype=np.float64)
    # Built by doubling: for each player, the subsets with them are the subsets without them plus them.
    inside, product, count = np.zeros(1), np.ones(1), np.zeros(1, dtype=np.int64)
    for value in ys:
        inside = np.concatenate((inside, inside + value))  # sum of y over U
        product = np.concatenate((product, product * value))  # prod of y over U
        count = np.concatenate((count, count + 1))  # |U|
    outside = inside[::-1].copy()  # d(U): the sum of y outside U is the sum inside the complement
    outside[-1] = np.inf  # everyone placed: no next player (q = 0 there)
    subsets = np.arange(size, dtype=np.int64)
    by_size = np.argsort(count, kind="stable")
    ends = np.cumsum(np.bincount(count, minlength=n + 1))
    q = np.zeros(size)
    q[0] = 1.0 / outside[0]
    for k in range(1, n + 1):
        layer = by_size[ends[k - 1] : ends[k]]
        p = np.zeros(layer.size)
        for j in range(n):
            has = (layer >> j) & 1 == 1
            p[has] += q[layer[has] ^ (1 << j)]
        q[layer] = p / outside[layer]
    prize_by_count = np.array(list(prizes) + [0] * (n + 1 - len(prizes)), dtype=np.float64)
    weighted = q * product * prize_by_count[count]
    # EV_j = y_j * (sum of weighted over the subsets without j).
    return [float(y[j] * weighted[(subsets >> j) & 1 == 0].sum()) for j in range(n)]


def largest_remainder(
    values: Sequence[float | Fraction],
    total: int,
    priority: Sequence[int] | None = None,
) -> list[int]:
    """Whole minor units for non-negative shares that add up to `total` (floats up to rounding, or
    exact Fractions): every share is rounded down, and the units left over go one each to the
    largest fractional parts. Equal fractional parts: the higher `priority` first (e.g. the larger
    stack), then the lower index (seat order). The result adds up to exactly `total`."""
    if not _is_int(total) or total < 0:
        raise ValueError(f"the total must be a non-negative whole number of minor units, got {total!r}")
    values = list(values)
    if priority is None:
        priority = [0] * len(values)
    if len(priority) != len(values):
        raise ValueError(f"{len(priority)} priorities for {len(values)} shares")
    for i, v in enumerate(values):
        if not isinstance(v, int | float | Fraction) or isinstance(v, bool) or not math.isfinite(v) or v < 0:
            raise ValueError(f"share {i} must be a finite non-negative number, got {v!r}")
    if not values:
        if total:
            raise ValueError(f"nothing to share {total} among")
        return []
    if not math.isclose(float(sum(values)), total, rel_tol=1e-9, abs_tol=1e-6):
        raise ValueError(f"the shares add up to {float(sum(values))}, not to the total {total}")
    floors = [math.floor(v) for v in values]
    left = total - sum(floors)
    if not 0 <= left <= len(values):
        raise ValueError(f"the shares add up to {float(sum(values))}, too far from the total {total}")
    order = sorted(range(len(values)), key=lambda i: (-(values[i] - floors[i]), -priority[i], i))
    for i in order[:left]:
        floors[i] += 1
    return floors


def icm_amounts(stacks: Sequence[int], prizes: Sequence[int]) -> list[int]:
    """ICM equities in whole minor units, adding up to exactly sum(prizes): largest remainder
    (ties: larger stack, then lower index), then handed out in stack order so that a larger stack
    never gets fewer units even where float rounding blurs two nearly equal equities. Equal stacks
    may differ by one unit; the lower index gets the larger amount."""
    stacks = validate_stacks(stacks)
    equities = icm_equities(stacks, prizes)
    amounts = largest_remainder(equities, sum(prizes), priority=stacks)
    by_stack = sorted(range(len(stacks)), key=lambda i: (-stacks[i], i))
    result = [0] * len(stacks)
    for i, amount in zip(by_stack, sorted(amounts, reverse=True), strict=True):
        result[i] = amount
    return result
