"""Exact ICM (the Malmuth-Harville independent chip model) for deals at a final table (RULES.md,
"Deals and payouts", club 28). Pure: plain Python on ints and floats, no Django, no I/O.

The model: a player wins with probability stack / all chips; given the players who took the places
above, a player takes the next place with probability stack / the chips of those still left. A
player's equity is the sum over places of the prize times the chance of finishing there.

Exact, by subsets rather than over all n! finishing orders (O(2^n * n), up to MAX_PLAYERS):

    P(T)  = the chance that the set T holds exactly the top |T| places (in some order)
    P({}) = 1,   P(T) = sum over j in T of P(T - j) * s_j / D(T - j)

where D(U) is the chips of the players outside U, and player j finishes in place |U| + 1 right
after the set U with chance P(U) * s_j / D(U). So player j's equity is

    EV_j = s_j * sum over U without j of prize[|U|] * P(U) / D(U).

In plain Python the per-subset weights s_j make the recursion slow; scaling them away makes it a
sum of plain additions. With y_j = n * s_j / S (S all chips) and d(U) = n * D(U) / S, the sum of y
outside U, put p(T) = P(T) / prod(y over T) and q(U) = p(U) / d(U): then

    p({}) = 1,   p(T) = sum over j in T of q(T - j),   EV_j = y_j * sum over U without j of
                                                        q(U) * prod(y over U) * prize[|U|].

The sum over the subsets below T is split on T's highest player: subsets without it are the same
problem on one player less; subsets with it take q of the lower half as an extra term. So one
vector addition per half (C speed) and a fully unrolled block of 16 subsets at the bottom do all of
it (10 players in about 0.4 ms, 15 players in about 15 ms on the machines here).

p(T) can exceed the float range only for absurd stack ratios (beyond about 10^16 : 1 at 20 players); the
scaled method is used when a bound on p proves it safe, otherwise the plain layer-by-layer form,
which is also taken when it is cheaper (few prizes among many players) or for 1 to 3 players.
"""
from __future__ import annotations

import math
from array import array
from collections.abc import Sequence
from fractions import Fraction
from operator import add, mul

MAX_PLAYERS = 20
# Every prize (and their total) must be an exact float for equities in minor units to mean a unit.
MAX_PRIZE_TOTAL = 2**53

_LEAF_BITS = 4  # the unrolled block below handles 16 subsets
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
    (RULES.md: "prizes never rise down the list"), adding up to at most MAX_PRIZE_TOTAL."""
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
            raise ValueError(
                f"prizes must never rise down the list: place {k + 1} pays {prizes[k]}, more than place {k} ({prizes[k - 1]})"
            )
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
    if n < _LEAF_BITS or _layered_terms(n, len(prizes)) < 2 << n:  # the cheaper of the two (measured)
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
    """The scaled subset recursion (module docstring) over all 2^n subsets, as bitmasks."""
    n = len(ys)
    size = 1 << n
    prize_by_count = list(prizes) + [0] * (n + 1 - len(prizes))
    # Built by doubling: for each player, the subsets with them are the subsets without them plus them.
    # Arrays of doubles and a bytearray: 8 and 1 bytes a subset instead of 32 for a list of floats
    # (a 20-player table has a million subsets).
    inside = array("d", [0.0])  # sum of y over U
    product = array("d", [1.0])  # prod of y over U
    count = bytearray([0])  # |U|
    for y in ys:
        inside += array("d", [v + y for v in inside])
        product += array("d", [v * y for v in product])
        count += bytes([c + 1 for c in count])
    outside = inside  # d(U): the sum of y outside U is the sum inside the complement
    outside.reverse()
    outside[-1] = math.inf  # everyone placed: no next player (q = 0 there)
    q = [0.0] * size
    source = [0.0] * size
    source[0] = 1.0
    _solve(source, 0, outside, 0, n, q)
    del source, outside
    weighted = list(map(mul, q, map(mul, product, map(prize_by_count.__getitem__, count))))
    del q, product, count
    # EV_j = y_j * (sum of weighted over the subsets without j): fold the players away from the top.
    equities = [0.0] * n
    for j in range(n - 1, -1, -1):
        half = len(weighted) >> 1
        low = weighted[:half]
        equities[j] = ys[j] * math.fsum(low)
        weighted = list(map(add, low, weighted[half:]))
    return equities


def _solve(source: list[float], offset: int, outside: array, lo: int, bits: int, q: list[float]) -> None:
    """Fill q[lo : lo + 2^bits], the subsets lo + t (t below 2^bits), where
    p(lo + t) = source[offset + t] + sum of q(lo + t - j) over the players j in t, q = p / outside.
    `source` already holds the terms that remove a player above these bits."""
    if bits == _LEAF_BITS:
        q[lo:lo + 16] = _leaf16(source[offset:offset + 16], outside[lo:lo + 16])
        return
    half = 1 << (bits - 1)
    _solve(source, offset, outside, lo, bits - 1, q)
    # The upper half holds the highest player of this block: removing them leads to the lower half.
    upper = list(map(add, source[offset + half:offset + 2 * half], q[lo:lo + half]))
    _solve(upper, 0, outside, lo + half, bits - 1, q)


def _leaf16(src: list[float], d: array) -> list[float]:
    """The recursion on 16 subsets of 4 players, unrolled: q_t = (src_t + sum of q_(t - bit)) / d_t."""
    (s0, s1, s2, s3, s4, s5, s6, s7, s8, s9, s10, s11, s12, s13, s14, s15) = src
    (d0, d1, d2, d3, d4, d5, d6, d7, d8, d9, d10, d11, d12, d13, d14, d15) = d
    q0 = s0 / d0
    q1 = (s1 + q0) / d1
    q2 = (s2 + q0) / d2
    q3 = (s3 + q2 + q1) / d3
    q4 = (s4 + q0) / d4
    q5 = (s5 + q4 + q1) / d5
    q6 = (s6 + q4 + q2) / d6
    q7 = (s7 + q6 + q5 + q3) / d7
    q8 = (s8 + q0) / d8
    q9 = (s9 + q8 + q1) / d9
    q10 = (s10 + q8 + q2) / d10
    q11 = (s11 + q10 + q9 + q3) / d11
    q12 = (s12 + q8 + q4) / d12
    q13 = (s13 + q12 + q9 + q5) / d13
    q14 = (s14 + q12 + q10 + q6) / d14
    q15 = (s15 + q14 + q13 + q11 + q7) / d15
    return [q0, q1, q2, q3, q4, q5, q6, q7, q8, q9, q10, q11, q12, q13, q14, q15]


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
