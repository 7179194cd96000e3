"""Leagues through the JSON API and the pages (web/leagues/): the director makes a league and adds its tournaments
through the API, the refusals are said and change nothing, the staff read the standings as a page, CSV and PDF, and the
players' page shows names and points only."""

from __future__ import annotations

import csv
import io

import pytest
from django.test import Client

from leagues.models import League, LeagueTournament
from leagues.services import leagues as leagues_services
from payouts.selectors.structure import prizes_won
from tests.helpers import api
from tests.leagues.test_services import TABLE, bust_all_but_the_winner, play
from tournament.models import AuditEvent, Tournament


@pytest.fixture
def season(director, floor, cashier, template, people):
    league = leagues_services.create_league(actor=director, data=TABLE)
    for number, finish in enumerate(["ABCDEF", "BACDEF"], 1):
        t, entries = play(director, cashier, template, people, finish, number)
        leagues_services.add_tournament(league, actor=director, tournament=t)
        bust_all_but_the_winner(floor, finish, entries)
    return league


def test_the_director_makes_a_league_and_adds_a_tournament_through_the_api(client, director, tournament):
    client.force_login(director)
    made = api(
        client, "post", "leagues/", {"name": "Podzim 2026", "formula": "square_root", "participation": 2, "best_results": 8}, key="a1"
    )
    assert made.status_code == 201, made.content
    league = made.json()
    assert league["formula"] == "square_root" and "√" in league["formula_words"]
    assert league["example"][0] == {"place": 1, "points": 5677, "shown": "56.77"}  # 10 × √30 + 2
    added = api(client, "post", f"leagues/{league['id']}/tournaments/", {"tournament": tournament.pk}, key="a2")
    assert added.status_code == 201 and added.json()["tournaments"][0]["name"] == tournament.name
    again = api(client, "post", f"leagues/{league['id']}/tournaments/", {"tournament": tournament.pk}, key="a3")
    assert again.status_code == 409 and again.json()["error"] == "already_in_league"
    changed = api(client, "patch", f"leagues/{league['id']}/", {"formula": "table", "points_table": "20, 10"}, key="a4")
    assert changed.status_code == 200 and changed.json()["points_table"] == [20, 10]
    removed = api(client, "delete", f"leagues/{league['id']}/tournaments/{tournament.pk}/", key="a5")
    assert removed.status_code == 200 and removed.json()["tournaments"] == []
    assert [e.type for e in AuditEvent.objects.filter(type__startswith="league.").order_by("id")] == [
        "league.created",
        "league.joined",
        "league.changed",
        "league.left",
    ]


@pytest.mark.parametrize(
    ("body", "code"),
    [
        ({"points_table": [10, 20]}, "formula_table_rises"),
        ({"formula": "linear", "points_table": [10]}, "formula_table_not_for_kind"),
        ({"best_results": 0}, "invalid"),
        ({"formula": "best"}, "invalid"),
        ({"name": ""}, "name_missing"),
    ],
)
def test_bad_settings_get_a_clear_message_and_change_nothing(client, director, season, body, code):
    client.force_login(director)
    refused = api(client, "patch", f"leagues/{season.pk}/", body, key="b1")
    assert refused.status_code == 400 and refused.json()["error"] == code and refused.json()["detail"]
    season.refresh_from_db()
    assert (season.formula, season.points_table, season.best_results, season.name) == ("table", [10, 7, 5, 3, 1], 4, "Friday League")


def test_only_the_director_changes_a_league_and_the_floor_reads_it(client, floor, season):
    client.force_login(floor)
    assert api(client, "patch", f"leagues/{season.pk}/", {"name": "Mine"}, key="c1").status_code == 403
    assert api(client, "post", "leagues/", {"name": "Mine"}, key="c2").status_code == 403
    read = api(client, "get", f"leagues/{season.pk}/?field=6")
    assert read.status_code == 200 and [row["shown"] for row in read.json()["example"]] == ["11", "8", "6", "4", "2", "1"]
    assert [row["name"].split()[0] for row in read.json()["standings"][:2]] == ["A", "B"]
    assert League.objects.get(pk=season.pk).name == "Friday League"


def test_the_league_page_shows_the_standings_the_formula_and_the_directors_forms_only_to_him(client, director, dealer, season, tournament):
    client.force_login(dealer)
    page = client.get(f"/leagues/{season.pk}/").content.decode()
    assert 'id="lg-standings"' in page and "Points by place: 10, 7, 5, 3, 1" in page
    assert 'id="lg-settings"' not in page and 'id="lg-add"' not in page and "lg-remove-" not in page
    client.force_login(director)
    page = client.get(f"/leagues/{season.pk}/?field=3").content.decode()
    assert 'id="lg-settings"' in page and 'id="lg-add"' in page and "lg-remove-" in page
    assert f'<option value="{tournament.pk}">' in page  # the one tournament in no league yet
    assert page.count('class="lg-place"') == 3


def test_the_standings_download_as_csv_and_pdf(client, director, floor, season):
    client.force_login(floor)
    answer = client.get(f"/leagues/{season.pk}/standings.csv")
    rows = list(csv.reader(io.StringIO(answer.content.decode("utf-8-sig"))))
    assert rows[0][:3] == ["Rank", "Player", "Points"]
    assert [(r[0], r[1].split()[0], r[2]) for r in rows[1:3]] == [("1", "A", "19"), ("1", "B", "19")]
    # A column per tournament of the season, earliest first; with the best result only, the other in parentheses.
    assert [head.split(" ")[:2] for head in rows[0][7:]] == [["Friday", "#1"], ["Friday", "#2"]]
    leagues_services.update_league(season, actor=director, data={"best_results": 1})
    rows = list(csv.reader(io.StringIO(client.get(f"/leagues/{season.pk}/standings.csv").content.decode("utf-8-sig"))))
    a = next(row for row in rows[1:] if row[1].startswith("A "))
    assert (a[2], a[7], a[8]) == ("11", "11", "(8)")
    pdf = client.get(f"/leagues/{season.pk}/standings.pdf")
    assert pdf["Content-Type"] == "application/pdf" and pdf.content.startswith(b"%PDF")


def test_the_players_page_and_answer_show_names_and_points_and_nothing_more(season):
    anyone = Client()
    page = anyone.get(f"/l/{season.pk}/").content.decode()
    assert "A Hráč" in page and 'id="lg-settings"' not in page
    answer = anyone.get(f"/api/public/leagues/{season.pk}/standings/").json()
    assert answer["tournaments"] == 2 and answer["finished"] == 2
    assert set(answer["standings"][0]) == {"rank", "name", "shown", "played", "wins"}
    assert answer["standings"][0]["rank"] == answer["standings"][1]["rank"] == 1  # 11 + 8 each, one win each: shared


def test_a_league_route_of_an_unknown_league_is_not_found(client, director):
    client.force_login(director)
    assert client.get("/leagues/999/").status_code == 404
    assert Client().get("/api/public/leagues/999/standings/").status_code == 404
    assert not LeagueTournament.objects.exists()


def test_a_players_page_lists_his_tournaments_places_prizes_and_points_for_the_desk_only(
    client, director, cashier, dealer, template, people, season
):
    play(director, cashier, template, people, "AB", 3)
    player = people["A"]
    client.force_login(cashier)
    answer = api(client, "get", f"players/{player.pk}/results/")
    assert answer.status_code == 200
    rows = {row["name"]: row for row in answer.json()["tournaments"]}
    assert set(rows) == {"Friday #1", "Friday #2", "Friday #3"}
    first, second = (Tournament.objects.get(name=name) for name in ("Friday #1", "Friday #2"))
    won = prizes_won(first)[rows["Friday #1"]["entries"][0]]
    assert (rows["Friday #1"]["place"], rows["Friday #1"]["prize"], rows["Friday #1"]["points_shown"]) == (1, won, "11")
    assert (rows["Friday #2"]["place"], rows["Friday #2"]["points_shown"]) == (2, "8")
    assert rows["Friday #2"]["prize"] == prizes_won(second)[rows["Friday #2"]["entries"][0]]
    assert rows["Friday #3"]["playing"] and rows["Friday #3"]["place"] is None and rows["Friday #3"]["points"] is None
    assert answer.json()["wins"] == 1 and answer.json()["played"] == 3
    page = client.get(f"/players/{player.pk}/").content.decode()
    assert 'id="pl-results"' in page and "Friday #3" in page and "date_of_birth" not in page and "1980" not in page
    client.force_login(dealer)
    assert client.get(f"/players/{player.pk}/").status_code == 403
    assert api(client, "get", f"players/{player.pk}/results/").status_code == 403


def test_a_players_seat_pages_link_to_the_standings_of_the_league_the_tournament_counts_for(director, cashier, template, people, season):
    ongoing, entries = play(director, cashier, template, people, "AB", 3)
    anyone = Client()
    assert 'id="league-link"' not in anyone.get(f"/s/{ongoing.pk}/").content.decode()
    leagues_services.add_tournament(season, actor=director, tournament=ongoing)
    for path in (f"/s/{ongoing.pk}/", f"/s/{ongoing.pk}/{entries['A'].number}/"):
        page = anyone.get(path).content.decode()
        assert f'href="/l/{season.pk}/" id="league-link"' in page, path
