"""Blind structures and chip sets as plain values: validation, numbering, JSON form.

Pure: no Django, no I/O. Problems are codes with parameters; the Django layer turns them
into translated messages (tournament.selectors.messages).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

LEVEL = "level"
BREAK = "break"
ANTE_TYPES = ("none", "ante", "bba")
FORMAT_VERSION = 1
# Upper bounds that keep every number inside its database column (a 16-bit column for
# minutes, 32-bit for chips and blinds): beyond them a save would fail with a server error.
MAX_MINUTES = 24 * 60
MAX_AMOUNT = 2_000_000_000
MAX_NAME = 120  # Structure.name
MAX_COLOUR = 40  # Denomination.colour


@dataclass(frozen=True)
class LevelSpec:
    kind: str
    minutes: int
    small_blind: int = 0
    big_blind: int = 0
    ante: int = 0
    ante_type: str = "none"
    color_up: tuple[int, ...] = ()


@dataclass(frozen=True)
class StructureSpec:
    name: str
    denominations: tuple[tuple[int, str], ...]  # (value, colour), any order
    levels: tuple[LevelSpec, ...]


@dataclass(frozen=True)
class Problem:
    code: str
    position: int | None = None  # 1-based row of the level or break, None for the whole structure
    params: dict[str, Any] = field(default_factory=dict)


def level_numbers(levels: tuple[LevelSpec, ...] | list[LevelSpec]) -> list[int | None]:
    """Level number of each row (1, 2, ...); None for breaks."""
    numbers: list[int | None] = []
    n = 0
    for level in levels:
        if level.kind == LEVEL:
            n += 1
            numbers.append(n)
        else:
            numbers.append(None)
    return numbers


def chips_in_play_by_row(spec: StructureSpec) -> list[tuple[int, ...]]:
    """Denominations in play at each row: all of them, less those colored up at earlier breaks."""
    in_play = sorted(value for value, _ in spec.denominations)
    result: list[tuple[int, ...]] = []
    for level in spec.levels:
        result.append(tuple(in_play))
        if level.kind == BREAK:
            in_play = [v for v in in_play if v not in set(level.color_up)]
    return result


def validate(spec: StructureSpec, starting_stack: int | None = None) -> list[Problem]:
    problems: list[Problem] = []
    if not spec.name.strip():
        problems.append(Problem("name_missing"))
    elif len(spec.name.strip()) > MAX_NAME:
        problems.append(Problem("name_too_long", params={"max": MAX_NAME}))
    values = [value for value, _ in spec.denominations]
    colours = [colour.strip().lower() for _, colour in spec.denominations]
    if not values:
        problems.append(Problem("no_denominations"))
    for value in values:
        if value < 1:
            problems.append(Problem("denomination_not_positive", params={"value": value}))
        elif value > MAX_AMOUNT:
            problems.append(Problem("number_too_large", params={"value": value, "max": MAX_AMOUNT}))
    for value in sorted({v for v in values if values.count(v) > 1}):
        problems.append(Problem("denomination_duplicate", params={"value": value}))
    if any(not c for c in colours):
        problems.append(Problem("colour_missing"))
    if any(len(c) > MAX_COLOUR for c in colours):
        problems.append(Problem("colour_too_long", params={"max": MAX_COLOUR}))
    for colour in sorted({c for c in colours if c and colours.count(c) > 1}):
        problems.append(Problem("colour_duplicate", params={"colour": colour}))
    if not any(level.kind == LEVEL for level in spec.levels):
        problems.append(Problem("no_levels"))
    if spec.levels and spec.levels[0].kind == BREAK:
        problems.append(Problem("starts_with_break", position=1))

    in_play_rows = chips_in_play_by_row(spec)
    previous: LevelSpec | None = None
    previous_number: int | None = None
    numbers = level_numbers(spec.levels)
    for row, (level, in_play, number) in enumerate(zip(spec.levels, in_play_rows, numbers, strict=True), start=1):
        if level.kind not in (LEVEL, BREAK):
            problems.append(Problem("kind_unknown", row, {"kind": level.kind}))
            continue
        if level.minutes < 1:
            problems.append(Problem("minutes_not_positive", row))
        elif level.minutes > MAX_MINUTES:
            problems.append(Problem("minutes_too_long", row, {"max": MAX_MINUTES}))
        for value in (level.small_blind, level.big_blind, level.ante, *level.color_up):
            if value > MAX_AMOUNT:
                problems.append(Problem("number_too_large", row, {"value": value, "max": MAX_AMOUNT}))
        if level.kind == BREAK:
            if level.small_blind or level.big_blind or level.ante:
                problems.append(Problem("break_has_blinds", row))
            for value in level.color_up:
                if value not in in_play:
                    problems.append(Problem("color_up_not_in_play", row, {"value": value}))
                elif value == max(in_play):
                    problems.append(Problem("color_up_largest", row, {"value": value}))
            if in_play and set(level.color_up) >= set(in_play):
                problems.append(Problem("color_up_all", row))
            continue
        params = {"level": number}
        if level.small_blind < 1 or level.big_blind < 1:
            problems.append(Problem("blind_not_positive", row, params))
        elif level.small_blind > level.big_blind:
            problems.append(Problem("small_blind_above_big", row, params))
        if level.ante_type not in ANTE_TYPES:
            problems.append(Problem("ante_type_unknown", row, {**params, "ante_type": level.ante_type}))
        elif level.ante_type == "none" and level.ante:
            problems.append(Problem("ante_without_type", row, params))
        elif level.ante_type != "none" and level.ante < 1:
            problems.append(Problem("ante_missing", row, params))
        payable_with = [v for v in in_play if v >= 1]  # a chip of 0 or less is reported above, not divided by
        if payable_with:
            smallest = min(payable_with)
            for label, amount in (("small_blind", level.small_blind), ("big_blind", level.big_blind), ("ante", level.ante)):
                if amount and amount % smallest:
                    problems.append(Problem("not_payable", row, {**params, "what": label, "amount": amount, "smallest": smallest}))
        if previous is not None:
            if level.big_blind < previous.big_blind or level.small_blind < previous.small_blind:
                problems.append(Problem("blinds_fall", row, {**params, "previous": previous_number}))
            elif (level.small_blind, level.big_blind, level.ante) == (previous.small_blind, previous.big_blind, previous.ante):
                problems.append(Problem("level_not_rising", row, {**params, "previous": previous_number}))
        previous, previous_number = level, number
    if starting_stack is not None and values:
        smallest = min(v for v in values if v >= 1) if any(v >= 1 for v in values) else None
        if starting_stack < 1:
            problems.append(Problem("starting_stack_not_positive"))
        elif smallest and starting_stack % smallest:
            problems.append(Problem("starting_stack_not_payable", params={"stack": starting_stack, "smallest": smallest}))
    return problems


class FormatError(ValueError):
    """The JSON is not a structure export."""

    def __init__(self, code: str, detail: str = "") -> None:
        super().__init__(code)
        self.code = code
        self.detail = detail


def to_json(spec: StructureSpec) -> dict[str, Any]:
    return {
        "format": "poker-tournament-structure",
        "version": FORMAT_VERSION,
        "name": spec.name,
        "chips": [{"value": value, "colour": colour} for value, colour in sorted(spec.denominations)],
        "levels": [
            {"kind": BREAK, "minutes": level.minutes, "color_up": sorted(level.color_up)}
            if level.kind == BREAK
            else {
                "kind": level.kind,
                "minutes": level.minutes,
                "small_blind": level.small_blind,
                "big_blind": level.big_blind,
                "ante": level.ante,
                "ante_type": level.ante_type,
            }
            for level in spec.levels
        ],
    }


def _int(value: Any, where: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise FormatError("not_integer", where)
    return value


def from_json(data: Any) -> StructureSpec:
    if not isinstance(data, dict) or data.get("format") != "poker-tournament-structure":
        raise FormatError("not_structure")
    if data.get("version") != FORMAT_VERSION:
        raise FormatError("version", str(data.get("version")))
    chips = data.get("chips")
    levels = data.get("levels")
    if not isinstance(chips, list) or not isinstance(levels, list):
        raise FormatError("missing_lists")
    denominations = []
    for i, chip in enumerate(chips, start=1):
        if not isinstance(chip, dict) or not isinstance(chip.get("colour"), str):
            raise FormatError("bad_chip", str(i))
        denominations.append((_int(chip.get("value"), f"chips[{i}].value"), chip["colour"]))
    specs = []
    for i, row in enumerate(levels, start=1):
        if not isinstance(row, dict):
            raise FormatError("bad_level", str(i))
        kind = row.get("kind", LEVEL)
        if kind == BREAK:
            color_up = row.get("color_up", [])
            if not isinstance(color_up, list):
                raise FormatError("bad_level", str(i))
            specs.append(
                LevelSpec(
                    BREAK,
                    _int(row.get("minutes"), f"levels[{i}].minutes"),
                    color_up=tuple(_int(v, f"levels[{i}].color_up") for v in color_up),
                )
            )
        else:
            specs.append(
                LevelSpec(
                    str(kind),
                    _int(row.get("minutes"), f"levels[{i}].minutes"),
                    _int(row.get("small_blind"), f"levels[{i}].small_blind"),
                    _int(row.get("big_blind"), f"levels[{i}].big_blind"),
                    _int(row.get("ante", 0), f"levels[{i}].ante"),
                    str(row.get("ante_type", "none")),
                )
            )
    name = data.get("name")
    if not isinstance(name, str):
        raise FormatError("missing_name")
    return StructureSpec(name=name, denominations=tuple(denominations), levels=tuple(specs))
