"""The public page of a chip race's draw: the result sheet of the race (counts, odd chips, the cards with
their suits, who won a chip, the new chips), the pool, the winners, the house rules and the check."""

from __future__ import annotations

from django.test import Client

from tables.models import Draw
from tables.services import color_ups
from tests.tables.test_color_ups import color_up, counted, drawn_table  # noqa: F401  (fixtures)

SUITS = {"s": "♠", "h": "♥", "d": "♦", "c": "♣"}


def shown(card: str) -> str:
    return ("10" if card[0] == "T" else card[0]) + SUITS[card[1]]


def test_the_public_page_of_a_race_draw_shows_the_result_sheet(floor, tournament, drawn_table, color_up):  # noqa: F811
    race = color_ups.record_race(drawn_table, actor=floor, color_up=color_up, seats=counted(drawn_table))
    draw = race.draw
    assert draw.kind == Draw.Kind.RACE
    response = Client().get(f"/s/{tournament.pk}/draws/{draw.number}/")
    assert response.status_code == 200
    page = response.content.decode()
    assert 'id="race-sheet"' in page and "Chip race" in page
    assert f"Table {drawn_table.number}" in page and "25 → new chip 100" in page
    for seat in race.result["seats"]:
        assert f"<td><strong>{seat['seat']}</strong></td>" in page
        for card in seat["cards"]:
            assert shown(card) in page
    red = [card for seat in race.result["seats"] for card in seat["cards"] if card[1] in "hd"]
    if red:
        assert f'class="pc red">{shown(red[0])}</span>' in page
    # Six players with three 25s each: a pool of five chips of 100, five winners, +50 at the table.
    assert "a pool of 5 chips of 100" in page and page.count("chip won") == 5
    winners = ", ".join(f"seat {seat}" for seat in race.result["winners"])
    assert f"Winners, highest card first: {winners}" in page
    assert "+50" in page and "half or more rounds up" in page and "Added to play" in page
    assert "✔ matches" in page and "does not match" not in page


def test_a_tampered_race_draw_does_not_match(floor, tournament, drawn_table, color_up):  # noqa: F811
    race = color_ups.record_race(drawn_table, actor=floor, color_up=color_up, seats=counted(drawn_table))
    tampered = dict(race.draw.result, winners=list(reversed(race.draw.result["winners"])))
    Draw.objects.filter(pk=race.draw.pk).update(result=tampered)
    page = Client().get(f"/s/{tournament.pk}/draws/{race.draw.number}/").content.decode()
    assert 'id="race-sheet"' in page and "does not match" in page
