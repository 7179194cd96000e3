"""What the public sees: every JSON a stranger reads without a login holds only the fields the
manual lists (docs/roles.md, "What the public sees"): names, tables, seats, results, the room's figures, the draws'
checks.
A night is played (special needs, the start draw, buttons, a late entry, a color-up race, busts to a
winner); every public JSON, the seat socket's snapshots and its pushes are walked, and each field path must
be on the list. A field added to a public answer without the manual saying so fails here."""

from __future__ import annotations

import re
from pathlib import Path

from rest_framework.test import APIClient

from core import broadcast, groups
from live.snapshots import lobby_snapshot
from tables.models import Draw, Seat, Table
from tables.services import busts, color_ups, draws, hands, seats
from tables.services import setup as table_setup
from tests.helpers import open_tables, register
from tournament.models import Entry, Level

ROLES_PAGE = Path(__file__).resolve().parents[2] / "docs" / "roles.md"


def listed() -> dict[str, set[str]]:
    """The manual's table (docs/roles.md), by read (api-draw's rows together)."""
    text = ROLES_PAGE.read_text(encoding="utf-8")
    table = text[text.index("<!-- public-fields -->") : text.index("<!-- /public-fields -->")]
    reads: dict[str, set[str]] = {}
    for line in table.splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) != 2 or not cells[0].startswith("`"):
            continue
        fields: set[str] = set()
        for part in cells[1].split(";"):
            prefixes = [""]
            head = re.match(r"\s*(`[^`]+`(?:\s+and\s+`[^`]+`)*)\s*:", part)  # "`result` and `recomputed`: ..."
            if head:
                prefixes = [p + "." for p in re.findall(r"`([^`]+)`", head.group(1))]
                part = part[head.end() :]
            fields |= {prefix + name for prefix in prefixes for name in re.findall(r"`([^`]+)`", part)}
        qualifier = re.search(r"\(([^)]+)\)", cells[0])
        for name in re.findall(r"`([^`]+)`", cells[0]):
            key = name if name == "api-draw" or qualifier is None else f"{name} ({qualifier.group(1)})"
            reads.setdefault(key, set()).update(fields)
    return reads


def paths(value, prefix: str = "") -> set[str]:
    if isinstance(value, dict):
        out = {prefix} if prefix else set()
        for key, item in value.items():
            name = "<n>" if str(key).lstrip("-").isdigit() else str(key)
            out |= paths(item, f"{prefix}.{name}" if prefix else name)
        return out
    if isinstance(value, list):
        out = {prefix + "[]"}
        for item in value:
            out |= paths(item, prefix + "[]")
        return out
    return {prefix}


def allowed(path: str, fields: set[str]) -> bool:
    if path in fields or path == "":
        return True
    if any(field.startswith(path + ".") or field.startswith(path + "[]") for field in fields):  # a parent listed through its fields
        return True
    return any(field.endswith(".*") and (path == field[:-2] or path.startswith(field[:-1])) for field in fields)


def check(read: str, answer, fields: dict[str, set[str]]) -> None:
    extra = sorted(path for path in paths(answer) if not allowed(path, fields[read]))
    assert not extra, f"{read} shows fields docs/roles.md does not list: {extra}"


def test_every_public_json_shows_only_what_the_manual_lists(
    director, floor, cashier, tournament, monkeypatch, django_capture_on_commit_callbacks
):
    fields = listed()
    assert {
        "api-public-seat",
        "api-public-seats",
        "api-public-draws",
        "api-draws",
        "api-draw",
        "seat-socket (snapshot)",
        "seat-socket (pushes)",
    } <= set(fields)
    pushed = []
    monkeypatch.setattr(broadcast, "send", lambda group, data: pushed.append(data) if group == groups.lobby(tournament.pk) else None)
    client = APIClient()
    snapshots = []

    def read_everything(entries):
        for entry in entries:
            check("api-public-seat", client.get(f"/api/public/tournaments/{tournament.pk}/seats/{entry.number}/").json(), fields)
        check("api-public-seats", client.get(f"/api/public/tournaments/{tournament.pk}/seats/", {"q": "P1"}).json(), fields)
        check("api-public-draws", client.get(f"/api/public/tournaments/{tournament.pk}/draws/").json(), fields)
        check("api-draws", client.get(f"/api/tournaments/{tournament.pk}/draws/").json(), fields)
        for draw in Draw.objects.filter(tournament=tournament):
            check("api-draw", client.get(f"/api/tournaments/{tournament.pk}/draws/{draw.number}/").json(), fields)
        snapshots.append(lobby_snapshot(tournament))
        check("seat-socket (snapshot)", snapshots[-1], fields)

    with django_capture_on_commit_callbacks(execute=True):
        open_tables(director, tournament, [1, 2])
        table_setup.open_table(tournament, actor=director, number=3, seats=9, accessible=True)
        entries = register(cashier, tournament, 14)
        seats.set_seat_request(tournament, actor=floor, player=entries[0].player, accessible=True)
        seats.set_seat_request(tournament, actor=floor, player=entries[1].player, table_number=2, seat=4)
        draws.draw_start(tournament, actor=director)
        for table in Table.objects.filter(tournament=tournament):
            if Seat.objects.filter(table=table, ended_at__isnull=True).count() >= 2:
                draws.draw_button(table, actor=director)
        entries += register(cashier, tournament, 1, start=50)
        busts.bust_entry(entries[3], actor=floor)
        level = Level.objects.filter(structure=tournament.structure, kind=Level.Kind.BREAK).order_by("position").first()
        color_up = color_ups.confirm_color_up(tournament, actor=director, level=level.position)
        first = max(Table.objects.filter(tournament=tournament), key=lambda t: t.seat_rows.filter(ended_at__isnull=True).count())
        occupied = sorted(Seat.objects.filter(table=first, ended_at__isnull=True).values_list("seat", flat=True))
        color_ups.record_race(
            first,
            actor=floor,
            color_up=color_up,
            seats={str(s): {"chips": {str(v): 3 for v in color_up.leaving}, "other": 1000} for s in occupied},
        )
        read_everything(entries)
        while Entry.objects.filter(tournament=tournament, status=Entry.Status.ACTIVE).count() > 1:  # to a winner
            entry = Entry.objects.filter(tournament=tournament, status=Entry.Status.ACTIVE).order_by("number").first()
            seat = Seat.objects.filter(entry=entry, ended_at__isnull=True).select_related("table").first()
            if seat is not None and not seat.table.hand_in_progress:
                hands.start_hand(seat.table, actor=floor)
            busts.bust_entry(entry, actor=floor)
        read_everything(entries)
    assert snapshots[-1]["final"] and snapshots[-1]["final"]["results"]
    assert pushed
    for push in pushed:
        check("seat-socket (pushes)", push, fields)
