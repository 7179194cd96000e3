"""Tied places in the money (docs/rules.md, "Deals and payouts"): players busted in the same hand with equal
stacks share the prizes of their places; what can't be split to the minor unit goes one unit each to
tied players in the order of a verifiable draw, recomputable on the public draw page, kept when an
earlier bust is undone."""

from __future__ import annotations

import pytest

from payouts.selectors import structure as payouts_selectors
from payouts.services import structure as payouts_services
from tables.models import Draw, Table
from tables.rules import seating
from tables.selectors.draw_check import verify_draw
from tables.services import busts, draws, hands
from tests.helpers import open_tables, register
from tournament.models import AuditEvent, Entry


@pytest.fixture
def four_left(director, cashier, floor, tournament):
    """Seven entries of 100 EUR, four paid by hand with odd prizes; places 7 to 5 out."""
    tournament.guaranteed_pool = 0
    tournament.save(update_fields=["guaranteed_pool"])
    open_tables(director, tournament, [1])
    entries = register(cashier, tournament, 7)
    draws.draw_start(tournament, actor=director)
    payouts_services.edit_structure(tournament, actor=director, rows=[[1, 1, 30_001], [2, 2, 20_000], [3, 3, 10_000], [4, 4, 9_999]])
    for entry in entries[:3]:
        busts.bust_entry(entry, actor=floor)
    hands.start_hand(Table.objects.get(tournament=tournament, number=1), actor=floor)  # busts of one hand can tie
    return entries[3:]


def test_tied_players_split_their_places_and_the_odd_unit_goes_by_the_draw(client, floor, tournament, four_left):
    a, b = four_left[0], four_left[1]
    busts.bust_entry(a, actor=floor, stack=5_000)
    busts.bust_entry(b, actor=floor, stack=5_000)  # same hand, same stack: tied for places 3 and 4
    assert {(e.finish_place, e.finish_place_low) for e in Entry.objects.filter(pk__in=[a.pk, b.pk])} == {(3, 4)}

    draw = Draw.objects.get(tournament=tournament, kind=Draw.Kind.TIE)
    assert draw.inputs == {"entries": sorted([a.number, b.number]), "places": [3, 4]}
    order = draw.result["order"]
    assert order == seating.tie_order(bytes.fromhex(draw.seed), [a.number, b.number])
    check = verify_draw(draw)
    assert check["matches"] and check["commitment_matches"]

    won = payouts_selectors.prizes_won(tournament)
    assert won[order[0]] == 10_000 and won[order[1]] == 9_999  # 19,999 shared: the odd unit to the first drawn
    assert AuditEvent.objects.filter(tournament=tournament, type="draw.tie", payload__draw=draw.number).exists()
    page = client.get(f"/s/{tournament.pk}/draws/{draw.number}/")
    assert page.status_code == 200 and f"#{order[0]}, #{order[1]}" in page.content.decode()


def test_the_same_tie_keeps_its_draw_when_an_earlier_bust_is_undone(floor, tournament, four_left):
    a, b = four_left[0], four_left[1]
    busts.bust_entry(a, actor=floor, stack=5_000)
    busts.bust_entry(b, actor=floor, stack=5_000)
    order = Draw.objects.get(tournament=tournament, kind=Draw.Kind.TIE).result["order"]
    first_out = Entry.objects.filter(tournament=tournament, finish_place=7).get()
    busts.undo_bust(first_out, actor=floor)  # the tied pair moves down to places 4 and 5: 9,999 + 0 to share
    assert {(e.finish_place, e.finish_place_low) for e in Entry.objects.filter(pk__in=[a.pk, b.pk])} == {(4, 5)}
    assert Draw.objects.filter(tournament=tournament, kind=Draw.Kind.TIE).count() == 1
    won = payouts_selectors.prizes_won(tournament)
    assert won[order[0]] == 5_000 and won[order[1]] == 4_999


def test_a_tie_of_three_gives_the_odd_unit_to_the_first_drawn(director, cashier, floor, tournament):
    tournament.guaranteed_pool = 0
    tournament.save(update_fields=["guaranteed_pool"])
    open_tables(director, tournament, [1])
    entries = register(cashier, tournament, 6)
    draws.draw_start(tournament, actor=director)
    payouts_services.edit_structure(
        tournament, actor=director, rows=[[1, 1, 25_000], [2, 2, 13_999], [3, 3, 7_002], [4, 4, 7_000], [5, 5, 6_999]]
    )  # places 3 to 5: 21,001 to share by three
    busts.bust_entry(entries[0], actor=floor)  # place 6
    hands.start_hand(Table.objects.get(tournament=tournament, number=1), actor=floor)
    for entry in entries[1:4]:
        busts.bust_entry(entry, actor=floor, stack=800)  # places 5, 4, 3 tied
    # The tie as it grew: two tied (places 4 and 5), then three; the draw of the three decides.
    pair, draw = Draw.objects.filter(tournament=tournament, kind=Draw.Kind.TIE).order_by("number")
    assert len(pair.inputs["entries"]) == 2
    order = draw.result["order"]
    assert sorted(order) == sorted(e.number for e in entries[1:4]) and draw.inputs["places"] == [3, 5]
    won = payouts_selectors.prizes_won(tournament)
    assert [won[n] for n in order] == [7_001, 7_000, 7_000]
