"""The level timeline: which level or break is current at time t, what comes next, when the
next break starts, and the operations of the director's clock (start, pause, resume, add or
remove time, jump to a level, end the day after a level, restart at a set level and time left).

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
AT_END = 1e-3  # a paused clock with less time left than this stands at its row's end (the day ended there)


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
    # A paused clock stands at its row (every pause is anchored at the row current then): a clock
    # stopped at the very end of a level (the day ended) shows that level with nothing left.
    while index < len(rows) - 1 and not anchor.paused and now >= start + rows[index].seconds:
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
    """Run on from where the clock stands. A clock stopped at the end of a row (the day ended after a
    level) goes on to the next row, which starts now with its full time: nothing is skipped or lost."""
    if not anchor.paused:
        return anchor
    if at_row_end(rows, anchor) and anchor.index < len(rows) - 1:
        return Anchor(anchor.index + 1, t, None)
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


def boundaries(rows: list[Row], anchor: Anchor, after: float, until: float, stop_index: int | None = None) -> list[Boundary]:
    """Announcements due in (after, until], in time order, for a running clock. With a day end after
    row `stop_index`, nothing after that row is announced (the next row does not start)."""
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
    return [b for b in found if after < b.at <= until and (stop_index is None or b.index <= stop_index)]


def next_due(rows: list[Row], anchor: Anchor, t: float, stop_index: int | None = None) -> float | None:
    """When the next announcement falls due after t (None if paused or nothing is left). With a day
    end after row `stop_index`, that row's end is due too (even on the last row)."""
    if anchor.paused:
        return None
    pos = position_at(rows, anchor, t)
    last = pos.index == len(rows) - 1
    if last and stop_index != pos.index:
        return None  # the last row runs on; nothing more to announce
    end = pos.ends_at
    warn = end - ONE_MINUTE
    if rows[pos.index].seconds > ONE_MINUTE and warn > t and not last:
        return warn
    return end


# --- the end of a day and the next day's start ------------------------------------------


def row_end(rows: list[Row], anchor: Anchor, index: int) -> float | None:
    """When row `index` ends on this anchor, as it stands (a paused clock's rows end when it runs on);
    None if the anchor is already past that row."""
    if index < anchor.index or index >= len(rows):
        return None
    return anchor.started_at + sum(rows[i].seconds for i in range(anchor.index, index + 1))


def stop_at(rows: list[Row], index: int, t: float) -> Anchor:
    """The clock stopped (paused) at t, at the very end of row `index`: that row, nothing left."""
    _check_index(rows, index)
    return Anchor(index, t - rows[index].seconds, t)


def at_row_end(rows: list[Row], anchor: Anchor) -> bool:
    """A paused clock standing at the end of its row (stopped there for the day)."""
    if not anchor.paused:
        return False
    return anchor.started_at + rows[anchor.index].seconds - anchor.paused_at < AT_END


def day_end(rows: list[Row], anchor: Anchor, t: float, stop_index: int) -> Anchor | None:
    """The day ends after row `stop_index`: once a running clock has reached that row's end by t (however
    late this is asked), the clock stopped at that end; before then (or paused), None. The rows after it
    do not start: the clock never walks past the stop."""
    if anchor.paused:
        return None
    end = row_end(rows, anchor, stop_index)
    if end is None or t < end:
        return None
    return stop_at(rows, stop_index, end)


def restart(rows: list[Row], index: int, seconds_left: int, start_at: float) -> Anchor:
    """A clock paused at row `index` with `seconds_left` in it, to run on at `start_at` (resume at that
    moment gives exactly that time left then)."""
    _check_index(rows, index)
    if not 0 < seconds_left <= rows[index].seconds:
        raise ValueError(f"seconds left must be 1..{rows[index].seconds}")
    return Anchor(index, start_at - (rows[index].seconds - seconds_left), start_at)
