"""Color-ups in the running product (docs/rules.md "Color-up and chip race"): the director confirms the
break's color-up, a table races with cards from a committed seed (recomputed on the public draw page)
or entered as dealt, a race is redone until it is confirmed and never after, and the chips in play
change by exactly what the confirmed races added or removed."""

from __future__ import annotations

import pytest

from core.errors import ServiceError
from tables.models import ChipRace, Draw, Table
from tables.rules import chip_race
from tables.selectors.draw_check import verify_draw
from tables.services import color_ups, draws
from tests.helpers import open_tables, register
from tournament.models import AuditEvent, ChipAdjustment, Level
from tournament.selectors.stats import tournament_stats


@pytest.fixture
def drawn_table(director, cashier, tournament):
    open_tables(director, tournament, [1])
    register(cashier, tournament, 6)
    draws.draw_start(tournament, actor=director)
    return Table.objects.get(tournament=tournament, number=1)


@pytest.fixture
def color_up(director, tournament, drawn_table):
    level = Level.objects.get(structure=tournament.structure, kind=Level.Kind.BREAK).position
    return color_ups.confirm_color_up(tournament, actor=director, level=level)


def counted(room, quarters: int = 3, other: int = 10_000) -> dict:
    seats = sorted(room.seat_rows.filter(ended_at__isnull=True).values_list("seat", flat=True))
    return {str(seat): {"chips": {"25": quarters}, "other": other} for seat in seats}


def test_the_director_confirms_the_color_up_the_structure_names(director, floor, tournament, drawn_table):
    level = Level.objects.get(structure=tournament.structure, kind=Level.Kind.BREAK).position
    with pytest.raises(ServiceError) as refused:
        color_ups.confirm_color_up(tournament, actor=floor, level=level)
    assert refused.value.status == 403
    with pytest.raises(ServiceError) as refused:
        color_ups.confirm_color_up(tournament, actor=director, level=0)
    assert refused.value.code == "not_a_break"
    with pytest.raises(ServiceError) as refused:
        color_ups.confirm_color_up(tournament, actor=director, level=level, leaving=[1000])  # the largest chip has nothing to go to
    assert refused.value.code.startswith("race_")
    confirmed = color_ups.confirm_color_up(tournament, actor=director, level=level)
    assert (confirmed.leaving, confirmed.new_chip, confirmed.in_play) == ([25], 100, [25, 100, 500, 1000])
    assert confirmed.rules == {"rounding": "half_up", "protection": "added", "protected_first": False}
    assert AuditEvent.objects.filter(tournament=tournament, type="colorup.confirmed").exists()
    with pytest.raises(ServiceError) as again:
        color_ups.confirm_color_up(tournament, actor=director, level=level)
    assert again.value.code == "color_up_confirmed"


def test_a_seeded_race_is_recorded_verifiable_and_changes_the_chips_only_when_confirmed(floor, tournament, drawn_table, color_up):
    before = tournament_stats(tournament)["chips_in_play"]
    race = color_ups.record_race(drawn_table, actor=floor, color_up=color_up, seats=counted(drawn_table))
    # Six players with three 25s each: 450 odd, 4.5 new chips, half up: five chips raced, +50 in play.
    assert race.result["chips_raced"] == 5 and race.difference == 50 and len(race.result["winners"]) == 5
    assert race.draw.kind == Draw.Kind.RACE and verify_draw(race.draw)["matches"]
    assert tournament_stats(tournament)["chips_in_play"] == before  # not before it is confirmed

    color_ups.confirm_race(race, actor=floor)
    assert tournament_stats(tournament)["chips_in_play"] == before + 50
    assert ChipAdjustment.objects.get(tournament=tournament).amount == 50
    with pytest.raises(ServiceError) as redo:
        color_ups.record_race(drawn_table, actor=floor, color_up=color_up, seats=counted(drawn_table, quarters=1))
    assert redo.value.code == "race_confirmed"


def test_a_race_is_redone_before_it_is_confirmed_and_cards_can_be_entered_as_dealt(floor, tournament, drawn_table, color_up):
    seats = sorted(int(s) for s in counted(drawn_table))
    first = color_ups.record_race(drawn_table, actor=floor, color_up=color_up, seats=counted(drawn_table, quarters=1))
    deck = iter(["As", "Ks", "Qs", "Js", "Ts", "9s", "8s"])
    cards = {str(seat): [next(deck)] for seat in seats}
    second = color_ups.record_race(drawn_table, actor=floor, color_up=color_up, seats=counted(drawn_table, quarters=1), cards=cards)
    first.refresh_from_db()
    assert first.status == ChipRace.Status.REDONE and second.status == ChipRace.Status.RECORDED
    assert second.draw is None
    # 6 x 25 = 150: 1.5 chips, half up: two chips, to the two best cards (As, Ks).
    assert second.result["winners"] == seats[:2] and second.difference == 50
    with pytest.raises(ServiceError) as refused:
        color_ups.record_race(
            drawn_table, actor=floor, color_up=color_up, seats=counted(drawn_table, quarters=1), cards={**cards, str(seats[1]): ["As"]}
        )
    assert refused.value.code == "race_duplicate_card"
    with pytest.raises(ServiceError):
        color_ups.confirm_race(first, actor=floor)  # the redone race is not the one standing
    color_ups.confirm_race(second, actor=floor)
    assert chip_race.replay(second.result).to_json() == second.result


def test_bad_counts_and_other_roles_are_refused(cashier, floor, tournament, drawn_table, color_up):
    with pytest.raises(ServiceError) as refused:
        color_ups.record_race(drawn_table, actor=cashier, color_up=color_up, seats=counted(drawn_table))
    assert refused.value.status == 403
    with pytest.raises(ServiceError) as refused:
        empty = min(set(range(1, 10)) - {int(seat) for seat in counted(drawn_table)})
        color_ups.record_race(drawn_table, actor=floor, color_up=color_up, seats={str(empty): {"chips": {"25": 1}, "other": 100}})
    assert refused.value.code == "empty_seat"
    seat = next(iter(counted(drawn_table)))
    for bad in ({"chips": {"25": -1}}, {"chips": {"25": "x"}}, {"chips": {"25": 1}, "other": -5}, "lots"):
        with pytest.raises(ServiceError):
            color_ups.record_race(drawn_table, actor=floor, color_up=color_up, seats={seat: bad})
    assert not ChipRace.objects.exists()
