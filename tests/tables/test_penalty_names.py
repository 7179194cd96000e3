"""Finding the player of a penalty by name: among this tournament's active entries
only, case and accents ignored, any part of the name, with the table and seat each sits at now."""

from __future__ import annotations

from datetime import date

import pytest

from tables.selectors import state
from tables.services import busts, draws
from tests.conftest import tournament_data
from tests.helpers import id_doc, open_tables, register
from tournament.models import Entry
from tournament.services import registration, setup


def register_named(cashier, t, names: list[tuple[str, str]], start: int = 500) -> list[Entry]:
    out = []
    for i, (first, last) in enumerate(names, start):
        player = registration.create_player(actor=cashier, first_name=first, last_name=last, date_of_birth=date(1985, 1, 1))
        out.append(registration.register_entry(t, actor=cashier, player=player, document=id_doc(f"EN{i:07d}")))
    return out


@pytest.fixture
def named(director, cashier, tournament):
    """One table: two Nováks, a Horváth, a Nováková who busts, and six others."""
    open_tables(director, tournament, [1])
    entries = register_named(cashier, tournament, [("Jan", "Novák"), ("Petr", "Novák"), ("Ondřej", "Horváth"), ("Eva", "Nováková")])
    register(cashier, tournament, 5)
    draws.draw_start(tournament, actor=director)
    busts.bust_entry(entries[3], actor=director)
    return entries


def test_a_name_finds_the_active_entries_of_this_tournament_with_their_seats(named, tournament, director, cashier, template):
    jan, petr, ondrej, eva = named
    found, total = state.entries_named(tournament, "NOVAK")
    assert total == 2 and {row["entry"] for row in found} == {jan.number, petr.number}  # Eva is out
    for row in found:
        seat = state.seat_of(Entry.objects.get(tournament=tournament, number=row["entry"]))
        assert (row["table"], row["seat"]) == (seat.table.number, seat.seat)
    assert [row["name"] for row in state.entries_named(tournament, "horvath ondrej")[0]] == ["Ondřej Horváth"]
    assert state.entries_named(tournament, "  ") == ([], 0)
    assert state.entries_named(tournament, "Smith") == ([], 0)
    # A player of another tournament is not found here.
    other = setup.create_tournament(tournament_data(name="Other"), actor=director, template=template)
    register_named(cashier, other, [("Karel", "Novák")], start=900)
    assert state.entries_named(tournament, "novak")[1] == 2
    found, total = state.entries_named(tournament, "a", limit=2)
    assert len(found) == 2 and total > 2
