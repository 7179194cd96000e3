"""What a color-up takes, and what chips found after it are worth (TDA 21C, 22): the denominations that can
leave before the coming levels (the suggestion the director confirms or changes), and the exchange of chips of a
removed denomination found after the race. Pure: plain values, no Django."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from tables.rules.chip_race import RaceError, sorted_denominations, whole_number


def suggest_color_up(denominations_in_play: Sequence[int], coming_levels: Sequence[tuple[int, int, int]]) -> list[int]:
    """The denominations that can leave before the coming levels, smallest first, never the largest (TDA 22:
    the director decides; this is the suggestion). The smallest chip can go when every small blind, big
    blind and ante of the coming levels is a multiple of the next chip up; then the next one is tried the
    same way, and so on. Only chips that could be raced together (rule 1: each divides the next) are
    suggested. Without coming levels every chip but the largest could go."""
    values = sorted_denominations(denominations_in_play)
    amounts = []
    for level in coming_levels:
        if len(level) != 3 or any(not whole_number(a) or a < 0 for a in level):
            raise RaceError("bad_level", level=level)
        amounts.extend(level)
    suggested: list[int] = []
    for value, next_up in zip(values, values[1:], strict=False):
        if next_up % value or any(amount % next_up for amount in amounts):
            break
        suggested.append(value)
    return suggested


def exchange_value(found: Mapping[int, int], smallest_in_play: int) -> tuple[int, int]:
    """TDA 21C: chips of a removed denomination found after the race are exchanged at equal value into the
    smallest chip still in play; what is worth less than one of it is removed. Returns (chips of the
    smallest denomination, value removed)."""
    if not whole_number(smallest_in_play) or smallest_in_play < 1:
        raise RaceError("bad_denomination", value=smallest_in_play)
    total = 0
    for value, count in found.items():
        if not whole_number(value) or value < 1:
            raise RaceError("bad_denomination", value=value)
        if value >= smallest_in_play:
            raise RaceError("not_removed", value=value, smallest_in_play=smallest_in_play)
        if not whole_number(count) or count < 0:
            raise RaceError("bad_count", value=value, count=count)
        total += value * count
    return divmod(total, smallest_in_play)
