"""Leagues through the services (leagues/services/leagues.py, leagues/selectors/leagues.py): a season of five tournaments gives the
standings shown; the points follow an undone bust, a new formula and a tournament taken out; bad settings are refused
and change nothing; every change is audited."""

from __future__ import annotations

import pytest

from core.errors import ServiceError
from leagues.models import League, LeagueResult
from leagues.selectors import leagues as leagues_selectors
from leagues.services import leagues as leagues_services
from tables.services import busts
from tests.concurrency import at_once
from tests.conftest import tournament_data
from tests.helpers import id_doc
from tests.leagues.conftest import PLAYERS
from tournament.models import AuditEvent, Entry
from tournament.services import registration as desk
from tournament.services import setup

SEASON = ["ABCDEF", "BACDEF", "ACBDEF", "CBADEF", "BCAEDF"]  # each tournament's finish, winner first
TABLE = {"name": "Friday League", "formula": "table", "points_table": [10, 7, 5, 3, 1], "participation": 1, "best_results": 4}


def play(director, cashier, template, people, finish: str, number: int):
    """A tournament of the players named in `finish`, played to its winner: the last named busts first."""
    t = setup.create_tournament(tournament_data(name=f"Friday #{number}"), actor=director, template=template)
    entries = {
        name: desk.register_entry(t, actor=cashier, player=people[name], document=id_doc(f"EA00000{PLAYERS.index(name)}"))
        for name in finish
    }
    return t, entries


def bust_all_but_the_winner(floor, finish: str, entries) -> None:
    for name in reversed(finish[1:]):
        busts.bust_entry(entries[name], actor=floor)


def table(league) -> list[tuple[int, str, str]]:
    return [(row["rank"], row["name"].split()[0], row["shown"]) for row in leagues_selectors.standings(league)]


def test_a_season_of_five_tournaments_gives_the_standings_its_places_make(director, floor, cashier, template, people):
    league = leagues_services.create_league(actor=director, data=TABLE)
    for number, finish in enumerate(SEASON, 1):
        t, entries = play(director, cashier, template, people, finish, number)
        leagues_services.add_tournament(league, actor=director, tournament=t)
        bust_all_but_the_winner(floor, finish, entries)
    # Place points with participation: 11, 8, 6, 4, 2, 1; the best four of five count.
    assert table(league) == [(1, "B", "38"), (2, "A", "36"), (3, "C", "33"), (4, "D", "16"), (5, "E", "10"), (6, "F", "4")]
    b = leagues_selectors.standings(league)[0]
    assert (b["total"], b["played"], b["counted"], b["wins"], b["best_place"]) == (4400, 5, 4, 2, 1)
    assert LeagueResult.objects.filter(league=league).count() == 30
    given = AuditEvent.objects.filter(type="league.points").order_by("id").last()
    assert given.payload["given"][0] == [people["B"].pk, 1, 1, 1100] and given.payload["taken"] == 0


def test_points_are_given_when_play_is_over_and_follow_an_undone_bust(director, floor, cashier, template, people):
    league = leagues_services.create_league(actor=director, data=TABLE)
    t, entries = play(director, cashier, template, people, "ABC", 1)
    leagues_services.add_tournament(league, actor=director, tournament=t)
    busts.bust_entry(entries["C"], actor=floor)
    assert not LeagueResult.objects.exists()  # two still play: nothing given yet
    busts.bust_entry(entries["B"], actor=floor)
    assert table(league) == [(1, "A", "11"), (2, "B", "8"), (3, "C", "6")]
    busts.undo_bust(entries["B"], actor=floor)  # a mistake: play goes on, the points go
    assert table(league) == [] and not LeagueResult.objects.exists()
    assert AuditEvent.objects.filter(type="league.points", payload__taken=3, payload__players=0).exists()
    busts.bust_entry(entries["A"], actor=floor)
    assert table(league) == [(1, "B", "11"), (2, "A", "8"), (3, "C", "6")]


def test_a_re_entry_counts_the_players_best_place_and_the_field_counts_every_entry(director, floor, cashier, template, people):
    league = leagues_services.create_league(actor=director, data={**TABLE, "formula": "linear", "points_table": [], "participation": 0})
    t = setup.create_tournament(tournament_data(name="Re-entry night", reentry_allowed=True), actor=director, template=template)
    first = desk.register_entry(t, actor=cashier, player=people["A"], document=id_doc("EA0000000"))
    b = desk.register_entry(t, actor=cashier, player=people["B"], document=id_doc("EA0000001"))
    c = desk.register_entry(t, actor=cashier, player=people["C"], document=id_doc("EA0000002"))
    leagues_services.add_tournament(league, actor=director, tournament=t)
    busts.bust_entry(first, actor=floor)
    again = desk.register_entry(t, actor=cashier, player=people["A"], document=id_doc("EA0000000"))
    busts.bust_entry(c, actor=floor)
    busts.bust_entry(b, actor=floor)
    assert again.number == 4
    # Four entries: A won on his re-entry (4 points: 4 - 1 + 1), B 2nd (3), C 3rd (2); A's first entry is 4th.
    assert table(league) == [(1, "A", "4"), (2, "B", "3"), (3, "C", "2")]
    assert LeagueResult.objects.get(player=people["A"]).field == 4


def test_a_new_formula_gives_the_points_again_and_a_tournament_taken_out_takes_its_points(director, floor, cashier, template, people):
    league = leagues_services.create_league(actor=director, data=TABLE)
    t, entries = play(director, cashier, template, people, "ABC", 1)
    leagues_services.add_tournament(league, actor=director, tournament=t)
    bust_all_but_the_winner(floor, "ABC", entries)
    leagues_services.update_league(league, actor=director, data={"formula": "square_root"})
    league.refresh_from_db()
    assert league.points_table == []  # the table went with its formula
    assert table(league) == [(1, "A", "18.32"), (2, "B", "13.25"), (3, "C", "11")]  # 10 × √(3 ÷ place), then + 1
    changed = AuditEvent.objects.get(type="league.changed")
    assert changed.payload["before"]["formula"] == "table" and changed.payload["after"]["formula"] == "square_root"
    leagues_services.remove_tournament(league, actor=director, tournament=t)
    assert table(league) == [] and AuditEvent.objects.get(type="league.left").payload["results_taken"] == 3


@pytest.mark.parametrize(
    ("data", "code"),
    [
        ({"points_table": [10, 12]}, "formula_table_rises"),
        ({"points_table": "10, ten"}, "formula_table_text"),
        ({"formula": "fibonacci"}, "formula_kind"),
        ({"participation": -1}, "formula_participation"),
        ({"best_results": 0}, "best_results"),
        ({"name": "  "}, "name_missing"),
        ({"name": "x" * 200}, "too_long"),
        ({"currency": "czk"}, "currency"),
        ({"colour": "red"}, "unknown_setting"),
    ],
)
def test_settings_the_house_cannot_use_are_refused_and_change_nothing(director, data, code):
    league = leagues_services.create_league(actor=director, data=TABLE)
    events = AuditEvent.objects.count()
    with pytest.raises(ServiceError) as refused:
        leagues_services.update_league(league, actor=director, data=data)
    assert refused.value.code == code and refused.value.message
    league.refresh_from_db()
    assert (league.name, league.points_table, league.best_results) == ("Friday League", [10, 7, 5, 3, 1], 4)
    assert AuditEvent.objects.count() == events


def test_a_tournament_is_in_one_league_and_only_the_director_makes_them(director, floor, tournament):
    league = leagues_services.create_league(actor=director, data=TABLE)
    other = leagues_services.create_league(actor=director, data={**TABLE, "name": "Ladder"})
    leagues_services.add_tournament(league, actor=director, tournament=tournament)
    with pytest.raises(ServiceError) as refused:
        leagues_services.add_tournament(other, actor=director, tournament=tournament)
    assert refused.value.code == "already_in_league"
    with pytest.raises(ServiceError) as refused:
        leagues_services.create_league(actor=floor, data=TABLE)
    assert refused.value.status == 403 and League.objects.count() == 2


def test_the_buy_in_factor_takes_tournaments_in_the_leagues_currency_only(director, template):
    league = leagues_services.create_league(actor=director, data={**TABLE, "base_buy_in": 10_000, "currency": "EUR"})
    czk = setup.create_tournament(tournament_data(name="Praha", currency="CZK"), actor=director, template=template)
    with pytest.raises(ServiceError) as refused:
        leagues_services.add_tournament(league, actor=director, tournament=czk)
    assert refused.value.code == "currency_differs"
    assert not Entry.objects.exists()


def test_the_formula_is_said_in_words_and_shown_as_a_table_for_a_field(director):
    league = leagues_services.create_league(actor=director, data={**TABLE, "base_buy_in": 10_000, "currency": "EUR"})
    words = leagues_selectors.formula_words(league, "en")
    assert "10, 7, 5, 3, 1" in words and "1 point" in words and "buy-in" in words
    assert [row["shown"] for row in leagues_selectors.example_table(league, 6)] == ["11", "8", "6", "4", "2", "1"]
    assert [row["shown"] for row in leagues_selectors.example_table(league, 3, buy_in=20_000)] == ["21", "15", "11"]


@pytest.mark.django_db(transaction=True)
def test_a_new_formula_and_the_last_busts_at_once_neither_wait_for_the_other_nor_leave_old_points(
    director, floor, cashier, template, people
):
    """The last bust takes its tournament, then the league's version; a new formula takes the league's tournaments,
    then the league: the same order, so the two never deadlock, and the points written are the new formula's."""
    league = leagues_services.create_league(actor=director, data=TABLE)
    nights = [play(director, cashier, template, people, "ABC", n) for n in (1, 2)]
    for t, entries in nights:
        leagues_services.add_tournament(league, actor=director, tournament=t)
        busts.bust_entry(entries["C"], actor=floor)
    outcomes = at_once(
        [
            lambda: leagues_services.update_league(League.objects.get(pk=league.pk), actor=director, data={"formula": "linear"}),
            *[lambda entries=entries: busts.bust_entry(Entry.objects.get(pk=entries["B"].pk), actor=floor) for _t, entries in nights],
        ]
    )
    assert not [o for o in outcomes if isinstance(o, Exception)], outcomes
    assert table(league) == [(1, "A", "8"), (2, "B", "6"), (3, "C", "4")]  # linear: 3, 2, 1 plus one, twice each
