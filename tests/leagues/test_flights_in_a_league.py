"""An event with Day 1 flights in a league (leagues/services/leagues.py): it counts once, by its Day 2, whose field is every
flight's entries and Day 2's late registrations. Day 2's players have its places; the players out in the flights
(busted there, or whose bag was forfeited and who have no other) share the places below Day 2's field. A flight itself
is refused in a league, and a league's tournament is refused as a flight: either would never give points."""

from __future__ import annotations

import pytest

from core.errors import ServiceError
from flights.models import Flight
from flights.services import events as flights
from leagues.models import LeagueResult, LeagueTournament
from leagues.selectors import leagues as leagues_selectors
from leagues.selectors.player_results import player_results
from leagues.services import leagues as leagues_services
from tables.services import busts, draws
from tables.services import setup as table_setup
from tests.flights.test_flights import event_with, new_tournament, play_and_bag
from tournament.models import AuditEvent, Entry


def test_day2_in_a_league_gives_the_whole_events_field_and_the_flights_players_share_the_places_below(
    director, cashier, floor, template, players
):
    event, (a, b) = event_with(director, template)
    day2 = event.day2
    league = leagues_services.create_league(actor=director, data={"name": "Podzimní liga", "formula": "linear", "participation": 1})
    leagues_services.add_tournament(league, actor=director, tournament=day2)
    # 1A: F0 to F3, F2 out; 1B: F0, F1, F4, F5, F5 out. Best stack forward: F0's and F1's 1B bags are forfeited.
    play_and_bag(director, cashier, floor, a, players[:4], {p.pk: 20_000 + 1000 * i for i, p in enumerate(players[:4])}, bust=(players[2],))
    play_and_bag(
        director,
        cashier,
        floor,
        b,
        [players[0], players[1], players[4], players[5]],
        {players[0].pk: 5000, players[1].pk: 5000, players[4].pk: 30_000, players[5].pk: 1},
        bust=(players[5],),
    )
    flights.carry_to_day2(event, actor=director)
    table_setup.open_table(day2, actor=director, number=1, seats=9)
    draws.draw_start(day2, actor=director)
    assert not LeagueResult.objects.exists()  # Day 2 is in play: nothing yet
    order = [players[4], players[3], players[1]]  # bust first: 4th, 3rd, 2nd; F0 wins
    for p in order:
        busts.bust_entry(Entry.objects.get(tournament=day2, player=p), actor=floor)
    got = {r.player_id: (r.place, r.place_low, r.field, r.points) for r in LeagueResult.objects.filter(tournament=day2)}
    # The field: 8 flight entries (4 carried, as Day 2's 4) and no late registration. Linear over 8, plus 1 for
    # playing: Day 2's places 1 to 4 get 8 to 5, +1; F2 and F5 share places 5 to 8: (4 + 3 + 2 + 1) / 4 + 1 = 3.5.
    assert got == {
        players[0].pk: (1, 1, 8, 900),
        players[1].pk: (2, 2, 8, 800),
        players[3].pk: (3, 3, 8, 700),
        players[4].pk: (4, 4, 8, 600),
        players[2].pk: (5, 8, 8, 350),
        players[5].pk: (5, 8, 8, 350),
    }
    given = AuditEvent.objects.filter(tournament=day2, type="league.points").latest("pk").payload
    assert given["players"] == 6
    standing = {row["player"]: (row["rank"], row["shown"]) for row in leagues_selectors.standings(league)}
    assert standing[players[2].pk] == (5, "3.50") and standing[players[5].pk] == (5, "3.50")
    # A player out in the flights sees the points on his flight's row of his results; his flight has no place.
    row = next(r for r in player_results(players[5])["tournaments"] if r["tournament"] == b.pk)
    assert (row["place"], row["points_shown"], row["league"]) == (None, "3.50", "Podzimní liga")
    # An undone Day 2 bust: play goes on, and every point of the event goes until it is over again.
    busts.undo_bust(Entry.objects.get(tournament=day2, player=players[1]), actor=floor)
    assert not LeagueResult.objects.filter(tournament=day2).exists()
    busts.bust_entry(Entry.objects.get(tournament=day2, player=players[1]), actor=floor)
    assert LeagueResult.objects.filter(tournament=day2).count() == 6


def test_a_flight_is_refused_in_a_league_and_a_leagues_tournament_as_a_flight_and_neither_changes_anything(director, template):
    event, (a, _b) = event_with(director, template)
    league = leagues_services.create_league(actor=director, data={"name": "Liga", "formula": "linear"})
    with pytest.raises(ServiceError) as refused:
        leagues_services.add_tournament(league, actor=director, tournament=a)
    assert (refused.value.code, refused.value.status) == ("flight_not_in_league", 409)
    assert "Day 2" in str(refused.value) and "Festival Main Event" in str(refused.value)
    assert not LeagueTournament.objects.exists()
    single = new_tournament(director, template, "Main Event Day 1C", day=2)
    leagues_services.add_tournament(league, actor=director, tournament=single)
    with pytest.raises(ServiceError) as refused:
        flights.add_flight(event, actor=director, tournament=single, label="1C")
    assert (refused.value.code, refused.value.status) == ("in_a_league", 409) and "Liga" in str(refused.value)
    assert not Flight.objects.filter(tournament=single).exists()
    assert LeagueTournament.objects.get().tournament == single


def test_the_leagues_page_offers_the_events_day2_and_no_flight_and_says_its_flights_count(client, director, template):
    event, flights_of_it = event_with(director, template)
    league = leagues_services.create_league(actor=director, data={"name": "Liga", "formula": "linear"})
    client.force_login(director)
    page = client.get(f"/leagues/{league.pk}/").content.decode()
    offered = page.split('id="lg-add-tournament"', 1)[1].split("</select>", 1)[0]
    assert f'value="{event.day2_id}"' in offered
    assert all(f'value="{t.pk}"' not in offered for t in flights_of_it)
    # Added, the Day 2 says its event's flights count in it, on the page and in the API.
    leagues_services.add_tournament(league, actor=director, tournament=event.day2)
    page = client.get(f"/leagues/{league.pk}/").content.decode()
    row = page.split(f'id="lg-t-{event.day2_id}"', 1)[1].split("</tr>", 1)[0]
    assert "Day 2 of Festival Main Event: its flights' players count too" in row
    rows = client.get(f"/api/leagues/{league.pk}/").json()["tournaments"]
    assert [(r["tournament"], r["event"]) for r in rows] == [(event.day2_id, "Festival Main Event")]
