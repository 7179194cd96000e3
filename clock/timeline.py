"""The level timeline: which level or break is current at time t, what comes next, when the
next break starts, and the operations of the director's clock (start, pause, resume, add or
remove time, jump to a level).

Pure: no Django, no I/O. Times are seconds (floats, e.g. UNIX time). The clock is an anchor:
the row it was last set to, the moment that row's time began (shifted by pauses and
adjustments) and, when paused, the moment it was paused. From the anchor and the rows, the
state at any time t follows; the clock runs on through later rows by itself.
"""
from __future__ import annotations

from dataclasses import dataclass, replace

LEVEL = "level"
BREAK = "break"
ONE_MINUTE = 60.0
RESOLUTION = 1e-6  # the database keeps microseconds: less time left than this is none


@dataclass(frozen=True)
class Row:
    kind: str  # "level" or "break"
    seconds: int
    number: int | None = None  # level number; None for a break


@dataclass(frozen=True)
class Anchor:
    index: int  # 0-based row
    started_at: float  # when that row's time began, shifted by pauses and adjustments
    paused_at: float | None = None

    @property
    def paused(self) -> bool:
        return self.paused_at is not None


@dataclass(frozen=True)
class Position:
    index: int
    remaining: float  # seconds left in the row (0 on the last row once it has run out)
    ends_at: float | None  # when the row ends; None while paused
    started_at: float  # when the current row's time began
    finished: bool  # the last row has run out


def numbered(rows_kinds: list[tuple[str, int]]) -> list[Row]:
    """Rows from (kind, minutes) pairs, with level numbers (breaks are not numbered)."""
    rows: list[Row] = []
    number = 0
    for kind, minutes in rows_kinds:
        if kind == LEVEL:
            number += 1
            rows.append(Row(LEVEL, minutes * 60, number))
        else:
            rows.append(Row(BREAK, minutes * 60, None))
    return rows


def _effective(anchor: Anchor, t: float) -> float:
    return anchor.paused_at if anchor.paused_at is not None else t


def position_at(rows: list[Row], anchor: Anchor, t: float) -> Position:
    if not rows:
        raise ValueError("a clock needs at least one row")
    now = _effective(anchor, t)
    index = min(max(anchor.index, 0), len(rows) - 1)
    start = anchor.started_at
    while index < len(rows) - 1 and now >= start + rows[index].seconds:
        start += rows[index].seconds
        index += 1
    end = start + rows[index].seconds
    remaining = max(0.0, end - now)
    finished = index == len(rows) - 1 and remaining == 0.0
    return Position(index, remaining, None if anchor.paused else end, start, finished)


def normalise(rows: list[Row], anchor: Anchor, t: float) -> Anchor:
    """The same clock, anchored at the row current at t."""
    pos = position_at(rows, anchor, t)
    return replace(anchor, index=pos.index, started_at=pos.started_at)


def start(rows: list[Row], t: float, index: int = 0) -> Anchor:
    _check_index(rows, index)
    return Anchor(index, t, None)


def pause(rows: list[Row], anchor: Anchor, t: float) -> Anchor:
    if anchor.paused:
        return anchor
    return replace(normalise(rows, anchor, t), paused_at=t)


def resume(rows: list[Row], anchor: Anchor, t: float) -> Anchor:
    if not anchor.paused:
        return anchor
    return Anchor(anchor.index, anchor.started_at + (t - anchor.paused_at), None)


def adjust(rows: list[Row], anchor: Anchor, t: float, seconds: float) -> Anchor:
    """Add (positive) or remove (negative) time from the current row. Removing all that is
    left (or more) ends the row now; the next row then starts with its full time. On the last
    row, the clock stops at zero."""
    current = normalise(rows, anchor, t)
    now = _effective(current, t)
    # A last row that has run out stands at zero: time added counts from now, not from when it ran out.
    started = max(current.started_at, now - rows[current.index].seconds) + seconds
    if started + rows[current.index].seconds - now > RESOLUTION:
        return replace(current, started_at=started)
    # The row ends now. Anchored explicitly at the next row (not at "now minus the row's
    # time"), so float rounding cannot leave a sliver of the old row or skip the new one.
    if current.index < len(rows) - 1:
        return replace(current, index=current.index + 1, started_at=now)
    return replace(current, started_at=now - rows[current.index].seconds)


def jump(rows: list[Row], anchor: Anchor | None, t: float, index: int) -> Anchor:
    """Go to a row with its full time. A paused clock stays paused."""
    _check_index(rows, index)
    if anchor is not None and anchor.paused:
        return Anchor(index, t, t)
    return Anchor(index, t, None)


def _check_index(rows: list[Row], index: int) -> None:
    if not 0 <= index < len(rows):
        raise IndexError(f"row {index} does not exist (0..{len(rows) - 1})")


def next_level_index(rows: list[Row], index: int) -> int | None:
    for i in range(index + 1, len(rows)):
        if rows[i].kind == LEVEL:
            return i
    return None


def level_in_force(rows: list[Row], index: int) -> int:
    """The level a hand started now is played at: the current level, or during a break the
    level after it (or the last level before it at the end of the structure)."""
    if rows[index].kind == LEVEL:
        return index
    following = next_level_index(rows, index)
    if following is not None:
        return following
    for i in range(index - 1, -1, -1):
        if rows[i].kind == LEVEL:
            return i
    raise ValueError("the structure has no level")


def seconds_to_next_break(rows: list[Row], pos: Position) -> float | None:
    """Seconds from now until the next break starts; 0 during a break; None if no break is left."""
    if rows[pos.index].kind == BREAK:
        return 0.0
    total = pos.remaining
    for i in range(pos.index + 1, len(rows)):
        if rows[i].kind == BREAK:
            return total
        total += rows[i].seconds
    return None


def boundary_kind(rows: list[Row], index: int) -> str:
    """What the start of row `index` (after row index - 1) is announced as."""
    if rows[index].kind == BREAK:
        return "break_started"
    if index > 0 and rows[index - 1].kind == BREAK:
        return "break_ended"
    return "level_started"


@dataclass(frozen=True)
class Boundary:
    kind: str  # "level_started", "break_started", "break_ended", "one_minute"
    index: int  # the row that starts (or, for one_minute, the row ending)
    at: float


def boundaries(rows: list[Row], anchor: Anchor, after: float, until: float) -> list[Boundary]:
    """Announcements due in (after, until], in time order, for a running clock."""
    if anchor.paused or until <= after:
        return []
    found: list[Boundary] = []
    pos = position_at(rows, anchor, after)
    index, start_at = pos.index, pos.started_at
    while True:
        end = start_at + rows[index].seconds
        warn = end - ONE_MINUTE
        if rows[index].seconds > ONE_MINUTE and after < warn <= until and index < len(rows) - 1:
            found.append(Boundary("one_minute", index, warn))
        if end > until or index == len(rows) - 1:
            break
        nxt = index + 1
        found.append(Boundary(boundary_kind(rows, nxt), nxt, end))
        index, start_at = nxt, end
    return [b for b in found if after < b.at <= until]


def next_due(rows: list[Row], anchor: Anchor, t: float) -> float | None:
    """When the next announcement falls due after t (None if paused or nothing is left)."""
    if anchor.paused:
        return None
    pos = position_at(rows, anchor, t)
    if pos.finished:
        return None
    if pos.index == len(rows) - 1:
        return None  # the last row runs on; nothing more to announce
    end = pos.ends_at
    warn = end - ONE_MINUTE
    if rows[pos.index].seconds > ONE_MINUTE and warn > t:
        return warn
    return end
