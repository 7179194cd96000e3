"""The event log a person reads: every event type labelled, one line in words per event,
details as key/value rows, filters by table, player and kind, dates in the venue's zone and the user's format."""

from __future__ import annotations

import ast
import re
from datetime import UTC, datetime
from pathlib import Path

import pytest
from django.db.models import Max
from django.test import Client
from django.urls import reverse
from django.utils import translation

from tests.apps import PACKAGES
from tournament.models import AuditEvent, Entry, Purchase
from tournament.services import registration
from web.event_words import BY_APP, details, event_groups, event_labels, event_line, group_of, types_of

from ..helpers import id_doc

ROOT = Path(__file__).resolve().parents[2]
APPS = PACKAGES
TYPE = re.compile(r"^[a-z0-9_]+\.[a-z0-9_]+$")

# Types built at run time from an f-string: each pattern with every value it can take. A new dynamic type
# fails the test below until it is listed here (and labelled).
DYNAMIC = {
    "clock.{}": ["level_started", "break_started", "break_ended", "one_minute"],  # clock.rules.timeline.Boundary.kind
    "{}.{}": [f"{kind}.{state}" for kind in ("rebuy", "addon") for state in ("paid", "announced")],  # purchases
    "{}.paid": ["rebuy.paid", "addon.paid"],
}


def _sources() -> dict[Path, str]:
    return {path: path.read_text() for app in APPS for path in (ROOT / app).rglob("*.py") if "migrations" not in path.parts}


class _Tree:
    """One module, parsed, with its calls and the names it defines or imports, each read once."""

    def __init__(self, path: Path, text: str) -> None:
        self.tree = ast.parse(text, str(path))
        nodes = list(ast.walk(self.tree))
        self.calls = [n for n in nodes if isinstance(n, ast.Call)]
        self.names = {n.name for n in nodes if isinstance(n, ast.FunctionDef | ast.alias)}


def _strings(node) -> list[str] | None:
    """The event types an argument can be: literals, both sides of `a if c else b`; None for a name."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return [node.value]
    if isinstance(node, ast.Constant) and node.value is None:
        return []  # no event (notify(..., None) clears a notice with a literal type of its own)
    if isinstance(node, ast.IfExp):
        a, b = _strings(node.body), _strings(node.orelse)
        return None if a is None or b is None else a + b
    if isinstance(node, ast.JoinedStr):
        pattern = "".join(v.value if isinstance(v, ast.Constant) else "{}" for v in node.values)
        if pattern not in DYNAMIC:
            raise AssertionError(f"an event type built as f-string {pattern!r}: list its values in DYNAMIC")
        return [v if "." in v else pattern.replace("{}", v) for v in DYNAMIC[pattern]]
    return None


def recorded_types() -> set[str]:
    """Every type the code can record: the literal given to record_event, and for a type passed through a
    parameter (clock's _act(type_), balancing's notify(type_)), the literals every caller passes there.
    A module is parsed only if its text names the function looked for: a call, a def or an import of it
    names it in the source."""
    texts = _sources()
    trees: dict[Path, _Tree] = {}

    def modules_naming(name: str):
        for path, text in texts.items():
            if name in text:
                if path not in trees:
                    trees[path] = _Tree(path, text)
                yield trees[path]

    found: set[str] = set()
    through: list[tuple[str, int | None, str]] = []  # (function, position or None, parameter) a type passes through
    for module in modules_naming("record_event"):
        for fn in [n for n in ast.walk(module.tree) if isinstance(n, ast.FunctionDef)]:
            params = [a.arg for a in fn.args.args]
            for call in [n for n in ast.walk(fn) if isinstance(n, ast.Call)]:
                if getattr(call.func, "id", getattr(call.func, "attr", None)) != "record_event":
                    continue
                # record_event(tournament, *, actor, type_, payload, ...): the type is the keyword type_
                type_ = next((k.value for k in call.keywords if k.arg == "type_"), None)
                if type_ is None:
                    continue
                values = _strings(type_)
                if values is not None:
                    found.update(values)
                elif isinstance(type_, ast.Name) and type_.id in params + [a.arg for a in fn.args.kwonlyargs]:
                    position = params.index(type_.id) if type_.id in params else None
                    through.append((fn.name, position, type_.id))
                else:
                    raise AssertionError(f"record_event with a type this test cannot read, in {fn.name}")
    assert through, "the pass-through types (clock._act, moves.notify) are read"
    for name, position, param in through:
        for module in modules_naming(name):  # the callers of such a function, where a function of that name exists
            if name not in module.names:
                continue
            for call in module.calls:
                if getattr(call.func, "id", getattr(call.func, "attr", None)) != name:
                    continue
                arg = (
                    call.args[position]
                    if position is not None and len(call.args) > position
                    else next((k.value for k in call.keywords if k.arg == param), None)
                )
                values = _strings(arg) if arg is not None else None
                if values is None:
                    raise AssertionError(f"{name}() called with a type this test cannot read")
                found.update(v for v in values if v is not None)
    return {t for t in found if t}


def test_every_type_the_code_records_has_a_label():
    types = recorded_types()
    assert {
        "entry.busted",
        "move.created",
        "draw.committed",
        "table.positions",
        "clock.started",
        "clock.one_minute",
        "balance.no_move",
        "rebuy.paid",
        "addon.paid",
    } <= types
    assert all(TYPE.match(t) for t in types), sorted(t for t in types if not TYPE.match(t))
    missing = sorted(types - set(event_labels()))
    assert not missing, f"event types with no label in web/<app>/events.py: {missing}"


def test_every_labelled_type_has_a_group_and_a_line_in_words():
    labels = event_labels()
    assert set(labels) == {t for g in event_groups() for t in types_of(g)}
    for type_ in labels:
        line = event_line(type_, {}, {})
        assert line and "{" not in line and "_" not in line.split(":")[0], (type_, line)
        assert group_of(type_) in event_groups()


def test_each_type_is_in_the_words_of_one_app():
    """Each app labels its own types and writes their lines (web/<app>/events.py): no type has two labels, no
    prefix two lines."""
    labelled = [type_ for app in BY_APP for type_ in app.labels()]
    prefixes = [prefix for app in BY_APP for family, _line in app.LINES for prefix in family]
    assert sorted(t for t in set(labelled) if labelled.count(t) > 1) == []
    assert sorted(p for p in set(prefixes) if prefixes.count(p) > 1) == []
    assert event_line("entry.busted", {"entry": 12, "place": 3}, NAMES) == "Jana Nováková (#12) busted, 3rd"
    assert event_line("table.button_needed", {"table": 4}, {}) == "Table 4: set the button before balancing"


NAMES = {12: "Jana Nováková", 7: "Martin Horváth"}


@pytest.mark.parametrize(
    "type_, payload, words",
    [
        (
            "entry.busted",
            {"entry": 12, "name": "Jana Nováková", "place": 57, "place_low": 57, "table": 12, "seat": 4},
            "Table 12 seat 4: Jana Nováková (#12) busted, 57th",
        ),
        (
            "entry.busted",
            {"entry": 12, "name": "Jana Nováková", "place": 22, "place_low": 23, "table": None, "seat": None},
            "Jana Nováková (#12) busted, 22nd to 23rd (tie)",
        ),
        (
            "move.done",
            {
                "move": {"entry": 7, "name": "Martin Horváth", "from": {"table": 3, "seat": 2}, "to": {"table": 5, "seat": 9}},
                "entries": [7],
                "tables": [3, 5],
            },
            "Martin Horváth (#7) from table 3 seat 2 to table 5 seat 9: moved",
        ),
        (
            "move.created",
            {
                "kind": "balance",
                "moves": [{"entry": 7, "name": "Martin Horváth", "from": {"table": 3, "seat": 2}, "to": {"table": 5, "seat": 9}}],
                "entries": [7],
                "tables": [3, 5],
            },
            "Move: Martin Horváth (#7) from table 3 seat 2 to table 5 seat 9",
        ),
        ("draw.committed", {"draw": 2, "commitment": "ab" * 32}, "Draw 2 committed (SHA-256 abababababab…)"),
        (
            "table.positions",
            {"table": 4, "positions": {"button": 3, "small_blind": 4, "big_blind": 5}},
            "Table 4: button seat 3, blinds seats 4 and 5",
        ),
        (
            "draw.tie",
            {"draw": 3, "entries": [12, 7], "place": 9, "place_low": 10},
            "Tie for 9th to 10th between Jana Nováková (#12), Martin Horváth (#7): odd units drawn (draw 3)",
        ),
        ("clock.level_started", {"level": 6, "clock": {"status": "running"}}, "Level 6 started"),
        ("rebuy.paid", {"entry": 12, "name": "Jana Nováková", "receipt": 40}, "Jana Nováková (#12): Re-buy paid, receipt 40"),
        ("some.future_type", {"table": 3, "entry": 12, "weird": {"x": 1}}, "Some: future type: table 3, Jana Nováková (#12)"),
        (
            "penalty.given",
            {
                "penalty": 2,
                "entry": 12,
                "name": "Jana Nováková",
                "table": 4,
                "seat": 6,
                "kind": "rounds",
                "rounds": 2,
                "players": 9,
                "hands": 18,
                "reason": "Soft-play",
            },
            "Table 4 seat 6: Jana Nováková (#12) gets 2 rounds, 18 hands (penalty 2): Soft-play",
        ),
        (
            "penalty.given",
            {"penalty": 1, "entry": 7, "table": 3, "seat": 2, "kind": "warning", "hands": 0, "reason": "Language"},
            "Table 3 seat 2: Martin Horváth (#7) gets a warning (penalty 1): Language",
        ),
        (
            "penalty.cancelled",
            {"penalty": 2, "entry": 12, "table": 4, "reason": "Wrong seat"},
            "Penalty 2 of Jana Nováková (#12) cancelled: Wrong seat",
        ),
        (
            "day.closed",
            {"day": 1, "bags": 12, "total": 240_000, "difference": -500, "missing": [4, 7], "reason": "Recounted on Day 2"},
            "Day 1 closed: 12 bags, 240000 chips, difference -500 (no bag: #4, #7): Recounted on Day 2",
        ),
        (
            "bags.recorded",
            {"table": 3, "entry": 12, "name": "Jana Nováková", "bag": "A-17", "total": 52_000},
            "Table 3: Jana Nováková (#12) bagged, 52000 chips in bag A-17",
        ),
        ("bags.recorded", {"table": 3, "total": 300_000, "bags": {}}, "Table 3: bags recorded, 300000 chips in all"),
        (
            "flight.ending",
            {"flight": "1A", "players_left": 150, "entries": 1000, "percent": 15, "level": 9},
            "Flight 1A: 150 players left of 1000 (15%): it ends at the end of level 9",
        ),
        (
            "flights.carried",
            {"carried": 1400, "chips": 42_000_000, "forfeited": 60, "forfeited_chips": 1_500_000},
            "Bags carried into Day 2: 1400 players with 42000000 chips; 60 bags forfeited (1500000 chips)",
        ),
        (
            "table.buttons",
            {"draw": 4, "tables": [1, 2, 5], "buttons": {"1": 3, "2": 9, "5": 1}},
            "Buttons drawn at 3 tables (1, 2, 5) by the card draw (draw 4)",
        ),
    ],
)
def test_a_line_reads_in_words(type_, payload, words):
    with translation.override("en-gb"):
        assert event_line(type_, payload, NAMES) == words


def test_czech_ordinal():
    with translation.override("cs"):
        assert "57." in event_line("entry.busted", {"entry": 1, "name": "A B", "place": 57}, {})


def test_details_are_key_value_rows_not_json():
    rows = dict(details({"move": {"from": {"table": 3, "seat": 2}}, "entries": [1, 2], "ok": True, "none": None}))
    assert rows == {"move.from.table": "3", "move.from.seat": "2", "entries": "1, 2", "ok": "yes", "none": "–"}


# --- the page -----------------------------------------------------------------------------


def add_event(tournament, type_, payload, at=None):
    seq = (AuditEvent.objects.filter(tournament=tournament).aggregate(m=Max("seq"))["m"] or 0) + 1
    return AuditEvent.objects.create(
        tournament=tournament, seq=seq, at=at or datetime(2026, 11, 25, 13, 5, tzinfo=UTC), type=type_, payload=payload, actor_label="floor"
    )


@pytest.fixture
def log(db, tournament, cashier, player):
    horvath = registration.create_player(actor=cashier, first_name="Martin", last_name="Horváth", date_of_birth=player.date_of_birth)
    jana = registration.register_entry(tournament, actor=cashier, player=player, document=id_doc("EA1111111"))
    martin = registration.register_entry(tournament, actor=cashier, player=horvath, document=id_doc("EA2222222"))
    add_event(
        tournament,
        "entry.busted",
        {"entry": jana.number, "name": "Jana Nováková", "place": 57, "place_low": 57, "entries": [jana.number], "table": 12, "seat": 4},
    )
    add_event(
        tournament,
        "move.done",
        {
            "move": {"entry": martin.number, "name": "Martin Horváth", "from": {"table": 3, "seat": 2}, "to": {"table": 5, "seat": 9}},
            "entries": [martin.number],
            "tables": [3, 5],
        },
    )
    add_event(tournament, "clock.level_started", {"level": 6})
    return {"jana": jana, "martin": martin}


def page(user, tournament, **query):
    client = Client()
    client.force_login(user)
    text = client.get(reverse("events", args=[tournament.pk]), query).content.decode()
    if "after" in query:
        return text
    return (
        text.split('id="events"', 1)[1].split("</ul>", 1)[0]
        + ("No events match" if "No events match" in text else "")
        + ("page=2" if "page=2" in text else "")
    )


def test_the_page_reads_in_words_without_raw_json(log, floor, tournament):
    text = page(floor, tournament)
    assert "Table 12 seat 4: Jana Nováková (#1) busted, 57th" in text
    assert "Level 6 started" in text and "<details>" in text
    assert '{"entry"' not in text and "{&quot;" not in text


def test_filters_by_table_player_and_kind(log, floor, tournament):
    by_table = page(floor, tournament, table=5)
    assert "Martin Horváth" in by_table and "busted" not in by_table and "Level 6" not in by_table
    assert "Table 12 seat 4" in page(floor, tournament, table=12)
    for typed in ("novakova", "NOVÁKOVÁ", "vak", "#1", "1"):
        by_player = page(floor, tournament, player=typed)
        assert "busted, 57th" in by_player and "Level 6" not in by_player and "5 seat 9" not in by_player, typed
    assert "5 seat 9" in page(floor, tournament, player="horvath")
    by_kind = page(floor, tournament, kind="clock")
    assert "Level 6 started" in by_kind and "busted, 57th" not in by_kind
    assert "busted, 57th" in page(floor, tournament, kind="entry.busted")
    assert "busted, 57th" in page(floor, tournament, kind="busts")
    assert "No events match" in page(floor, tournament, table=99)


def test_a_player_search_finds_this_tournaments_player_among_many_of_that_name(log, floor, cashier, tournament, player):
    # Sixty Nováková in the database, none of them in this tournament: the one who is still found.
    for i in range(60):
        registration.create_player(actor=cashier, first_name=f"Eva{i}", last_name="Nováková", date_of_birth=player.date_of_birth)
    by_player = page(floor, tournament, player="novakova")
    assert "busted, 57th" in by_player and "5 seat 9" not in by_player


def test_the_live_fragment_has_the_lines_after_a_sequence(log, floor, tournament):
    top = AuditEvent.objects.filter(tournament=tournament).aggregate(m=Max("seq"))["m"]
    assert page(floor, tournament, after=top).strip() == ""
    add_event(tournament, "table.hand_started", {"table": 5, "hand": 30, "level": 6})
    fragment = page(floor, tournament, after=top)
    assert "Table 5: hand 30 started (level 6)" in fragment and "<html" not in fragment
    assert page(floor, tournament, after=top, table=3).strip() == ""


def test_dates_in_the_venue_zone_and_the_language_format(log, floor, tournament):
    tournament.time_zone = "Europe/Prague"
    tournament.save(update_fields=["time_zone"])
    client = Client()
    client.force_login(floor)
    client.cookies["django_language"] = "cs"
    text = client.get(reverse("events", args=[tournament.pk]), HTTP_ACCEPT_LANGUAGE="cs").content.decode()
    assert "25. 11. 2026 14:05" in text  # 13:05 UTC, an hour ahead in Prague in November


def test_pages_of_one_hundred(log, floor, tournament):
    for n in range(120):
        add_event(tournament, "table.hand_started", {"table": 1, "hand": n + 1, "level": 1})
    first, second = page(floor, tournament), page(floor, tournament, page=2)
    assert first.count("<details>") == 100 and "page=2" in first
    assert "busted, 57th" in second


def test_names_come_in_one_query(log, floor, tournament, django_assert_max_num_queries):
    for n in range(30):
        add_event(tournament, "entry.busted", {"entry": log["martin"].number, "place": n + 2, "entries": [log["martin"].number]})
    client = Client()
    client.force_login(floor)
    url = reverse("events", args=[tournament.pk])
    client.get(url)
    with django_assert_max_num_queries(15):
        client.get(url)
    assert Entry.objects.count() == 2 and Purchase.objects.count() == 2
