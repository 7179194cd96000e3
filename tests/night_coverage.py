"""What the night machine (tests/test_whole_night.py) reaches: the pairs of consecutive actions it
plays and the states of a night it passes through. Off unless NIGHT_COVERAGE names a file: then each process
adds its counts to that JSON file when it exits, and `python -m tests.night_coverage FILE` prints the report.

Two machine-independent hooks: `rule` and `initialize` (hypothesis' decorators, the step's name recorded first),
and `count_refusal` (the refusal codes an action met, called by Night.act)."""

from __future__ import annotations

import atexit
import fcntl
import functools
import json
import os
import sys
from collections import Counter

from hypothesis.stateful import initialize as hypothesis_initialize
from hypothesis.stateful import rule as hypothesis_rule

FILE = os.environ.get("NIGHT_COVERAGE", "")

# The states of a night the machine is asked to reach, each a question on the night after a step.
STATES = (
    "slips pending",
    "break pending (slips unconfirmed)",
    "hand-for-hand on",
    "hand-for-hand hand called",
    "redraw done",
    "final table redrawn",
    "undone bust in play",
    "undone bust in play after a redraw",
    "undone bust busted again",
    "undone bust busted again in one hand with another",
    "undone bust busted again in one hand with another, at another table than his first bust",
    "break pending while the bust that broke it can be undone",
    "play over",
)
counts: dict[str, Counter] = {
    "pairs": Counter(),
    "acting_pairs": Counter(),
    "rules": Counter(),
    "states": Counter(),
    "nights_states": Counter(),
    "refusals": Counter(),
    "nights": Counter(),
    "possible": Counter(),
}


def _step(machine, name: str) -> None:
    """Before a step: the pair it makes with the step before (and with the last step that changed the night)."""
    counts["rules"][name] += 1
    last = getattr(machine, "_coverage_last", None)
    if last is not None:
        counts["pairs"][f"{last} -> {name}"] += 1
    machine._coverage_last = name
    machine._coverage_mark = _mark(machine)
    machine._coverage_before = _busts_and_breaks(machine)


def _busts_and_breaks(machine) -> tuple[set[int], set[int]]:
    """The busted entries and the pending break slips (pks) of the night now."""
    from tables.models import Move
    from tournament.models import Entry

    t = getattr(machine, "t", None)
    if t is None:
        return set(), set()
    return (
        set(Entry.objects.filter(tournament=t, status=Entry.Status.BUSTED).values_list("pk", flat=True)),
        set(Move.objects.filter(tournament=t, status=Move.Status.PENDING, kind=Move.Kind.BREAK).values_list("pk", flat=True)),
    )


def _after(machine, name: str) -> None:
    """After a step: the states the night is in, and the acting pair when the step changed the night."""
    if getattr(machine, "t", None) is None:
        return
    if _mark(machine) != machine._coverage_mark:
        acting = getattr(machine, "_coverage_acting", None)
        if acting is not None:
            counts["acting_pairs"][f"{acting} -> {name}"] += 1
        machine._coverage_acting = name
    (busted, breaks), (now_busted, now_breaks) = machine._coverage_before, _busts_and_breaks(machine)
    if now_breaks - breaks and now_busted - busted:  # this step's busts broke a table
        machine._coverage_breakers = (now_busted - busted, now_breaks - breaks)
    reached = machine.__dict__.setdefault("_coverage_states", set())
    breakers, slips = getattr(machine, "_coverage_breakers", (set(), set()))
    found = states(machine.t) + (
        ["break pending while the bust that broke it can be undone"] if breakers & now_busted and slips & now_breaks else []
    )
    for state in found:
        counts["states"][state] += 1
        if state not in reached:
            reached.add(state)
            counts["nights_states"][state] += 1


def _mark(machine) -> int:
    from tournament.models import AuditEvent

    t = getattr(machine, "t", None)
    return AuditEvent.objects.filter(tournament=t).count() if t is not None else 0


def _recording(f, decorator):
    @functools.wraps(f)
    def step(self, **data):
        if not FILE:
            return f(self, **data)
        _step(self, f.__name__)
        if f.__name__ == "begin":
            _save()  # the nights before, kept even if the run is stopped
            counts["nights"][type(self).__name__] += 1
            for r in type(self).setup_state().rules:  # the rules it could draw: the pairs possible
                counts["possible"][r.function.__name__] = 1
        try:
            return f(self, **data)
        finally:
            _after(self, f.__name__)

    return decorator(step)


def rule(**kwargs):
    """hypothesis' @rule, the step recorded when NIGHT_COVERAGE is set."""
    return lambda f: _recording(f, hypothesis_rule(**kwargs))


def initialize(**kwargs):
    return lambda f: _recording(f, hypothesis_initialize(**kwargs))


def count_refusal(machine, exc) -> None:
    """An action of the step was refused (the code of its ServiceError)."""
    if FILE:
        counts["refusals"][f"{getattr(machine, '_coverage_last', '?')}: {getattr(exc, 'code', type(exc).__name__)}"] += 1


def states(t) -> list[str]:
    """The STATES the night is in now."""
    from django.db.models import Count

    from tables.models import Draw, Move, Seat
    from tables.services.handforhand import hand_for_hand
    from tournament.models import Entry, Tournament

    out = []
    pending = Move.objects.filter(tournament=t, status=Move.Status.PENDING)
    if pending.exists():
        out.append("slips pending")
    breaking = pending.filter(kind=Move.Kind.BREAK)
    if breaking.exists():
        out.append("break pending (slips unconfirmed)")
    h = hand_for_hand(t)
    if h is not None:
        out += ["hand-for-hand on"] + (["hand-for-hand hand called"] if h.called else [])
    redraws = list(Draw.objects.filter(tournament=t, kind=Draw.Kind.REDRAW, drawn_at__isnull=False).values_list("drawn_at", "inputs"))
    if redraws:
        out.append("redraw done")
    if any(len(inputs.get("keep", [])) == 1 for _at, inputs in redraws):
        out.append("final table redrawn")
    busts = list(
        Seat.objects.filter(tournament=t, end_reason=Seat.End.BUST)
        .order_by("ended_at", "pk")
        .values_list("entry_id", "ended_at", "table_id")
    )
    by_entry: dict[int, list] = {}
    for entry, ended, table in busts:
        by_entry.setdefault(entry, []).append((ended, table))
    entries = {e.pk: e for e in Entry.objects.filter(pk__in=list(by_entry))}
    back = [pk for pk, e in entries.items() if e.status == Entry.Status.ACTIVE]
    if back:
        out.append("undone bust in play")
    if any(at > by_entry[pk][-1][0] for pk in back for at, _inputs in redraws):
        out.append("undone bust in play after a redraw")
    again = [entries[pk] for pk, seats in by_entry.items() if len(seats) > 1 and entries[pk].status == Entry.Status.BUSTED]
    if again:
        out.append("undone bust busted again")
    shared = dict(
        Entry.objects.filter(tournament=t, status=Entry.Status.BUSTED)
        .exclude(bust_hand="")
        .values_list("bust_hand")
        .annotate(n=Count("pk"))
        .filter(n__gt=1)
        .values_list("bust_hand", "n")
    )
    grouped = [e for e in again if e.bust_hand in shared]
    if grouped:
        out.append("undone bust busted again in one hand with another")
    if any(by_entry[e.pk][-1][1] != by_entry[e.pk][0][1] for e in grouped):
        out.append("undone bust busted again in one hand with another, at another table than his first bust")
    if Tournament.objects.filter(pk=t.pk, status=Tournament.Status.FINISHED).exists():
        out.append("play over")
    return out


def _save() -> None:
    if not FILE or not counts["rules"]:
        return
    with open(FILE, "a+") as f:
        fcntl.flock(f, fcntl.LOCK_EX)
        f.seek(0)
        text = f.read()
        total = {k: Counter(v) for k, v in (json.loads(text) if text.strip() else {}).items()}
        for key, counter in counts.items():
            total.setdefault(key, Counter()).update(counter)
        f.seek(0)
        f.truncate()
        json.dump({k: dict(v) for k, v in total.items()}, f, indent=1, sort_keys=True)
    for counter in counts.values():
        counter.clear()


atexit.register(_save)


def report(path: str, rules: list[str] | None = None) -> str:
    """The coverage report of a recorded file: nights, pairs reached of those possible, the states reached."""
    data = {k: Counter(v) for k, v in json.load(open(path)).items()}
    names = sorted(rules or data.get("possible") or set(data["rules"]) - {"begin"})
    lines = [f"nights: {dict(data['nights'])} ({sum(data['nights'].values())}), steps: {sum(data['rules'].values())}"]
    for key, title in (("pairs", "pairs of consecutive steps"), ("acting_pairs", "pairs of consecutive steps that changed the night")):
        reached = {p for p in data[key] if p.split(" -> ")[0] in names and p.split(" -> ")[1] in names}
        reached_with_begin = {p for p in data[key] if p.startswith("begin -> ")}
        lines.append(f"{title}: {len(reached)} of {len(names) ** 2} possible (and {len(reached_with_begin)} first steps)")
    lines.append("states (nights that reached it / steps in it):")
    for state in STATES:
        lines.append(f"  {data['nights_states'].get(state, 0):6d} / {data['states'].get(state, 0):7d}  {state}")
    lines.append("pairs of interest (drawn / both changing the night):")
    for pair in (
        "bust -> bust_undone",
        "busts_in_one_hand -> bust_undone",
        "bust_undone -> busts_in_one_hand",
        "bust_undone -> bust",
        "all_slips_confirmed -> bust_undone",
        "slip -> bust_undone",
        "bust_undone -> all_slips_confirmed",
        "bust -> bust",
        "hand_starts -> bust",
    ):
        lines.append(f"  {data['pairs'].get(pair, 0):6d} / {data['acting_pairs'].get(pair, 0):6d}  {pair}")
    lines.append(
        "refusals met by bust_undone: "
        + ", ".join(f"{k.split(': ')[1]} {n}" for k, n in sorted(data["refusals"].items()) if k.startswith("bust_undone"))
    )
    lines.append("rules never drawn: " + ", ".join(n for n in names if not data["rules"].get(n)))
    return "\n".join(lines)


if __name__ == "__main__":  # python -m tests.night_coverage FILE [RULE,RULE,...: the rules possible, if not recorded]
    print(report(sys.argv[1], sys.argv[2].split(",") if len(sys.argv) > 2 else None))
