"""Staff for one tournament stay in it: the routes whose path carries no tournament id (a player's
results, a league and its standings) resolve the tournaments they touch, and a ticket's registration acts in its
target, not in the satellite of its path (web/api.tournament_of, RoleAPIView.touches). A member of the staff who works
some tournaments only reads a league that holds one of them, a player's results in them only, and registers a ticket's
holder only into a target he works. The walk of every route is in tests/web/test_roles_walk.py."""

from __future__ import annotations

from datetime import date

from django.test import Client

from leagues.services import leagues as league_services
from payouts.models import Ticket
from tests.conftest import make_user
from tests.helpers import id_doc
from tests.payouts.conftest import bust_down_to, make_main_event, make_satellite
from tournament.models import Entry, StaffProfile
from tournament.services import registration


def works_only(user, *tournaments) -> Client:
    StaffProfile.objects.get_or_create(user=user)[0].tournaments.set(tournaments)
    client = Client()
    client.force_login(user)
    return client


def register(body: str) -> dict:
    return {"document_type": "id_card", "document_number": body, "seen": True}


def test_a_satellites_cashier_does_not_register_its_ticket_into_a_main_event_he_does_not_work(director, cashier, floor, template):
    main = make_main_event(director, template)
    satellite = make_satellite(director, cashier, template, main)
    bust_down_to(floor, satellite, 2)
    ticket = Ticket.objects.get(number=1)
    path = f"/api/tournaments/{satellite.pk}/tickets/1/register/"
    document = f"EA{ticket.won_by.number - 1:07d}"
    satellite_desk = works_only(make_user("sat-cash", "Cashier"), satellite)
    refused = satellite_desk.post(path, register(document), content_type="application/json")
    assert refused.status_code == 403 and refused.json()["error"] == "permission_denied"
    assert not Entry.objects.filter(tournament=main).exists()
    assert Ticket.objects.get(pk=ticket.pk).status == Ticket.Status.ISSUED
    # The Main Event's desk registers it (its register page lists the tickets into it), though it does not work the
    # satellite of the path.
    main_desk = works_only(make_user("main-cash", "Cashier"), main)
    made = main_desk.post(path, register(document), content_type="application/json")
    assert made.status_code == 201, made.content
    assert Entry.objects.get(tournament=main).player_id == ticket.holder_id


def both_events_player(director, cashier, tournament, side):
    """A player with an entry in each tournament."""
    player = registration.create_player(actor=cashier, first_name="Jana", last_name="Both", date_of_birth=date(1990, 1, 1))
    registration.register_entry(tournament, actor=cashier, player=player, document=id_doc("EA1111111"))
    registration.register_entry(side, actor=cashier, player=player, document=id_doc("EA1111111"))
    return player


def test_a_players_results_show_the_tournaments_worked_only(director, cashier, floor, tournament, side):
    both = both_events_player(director, cashier, tournament, side)
    main_only = registration.register_entry(
        tournament,
        actor=cashier,
        document=id_doc("EA2222222"),
        player=registration.create_player(actor=cashier, first_name="Karel", last_name="Main", date_of_birth=date(1980, 1, 1)),
    ).player
    desk = works_only(make_user("side-cash", "Cashier"), side)
    answer = desk.get(f"/api/players/{both.pk}/results/")
    assert answer.status_code == 200
    assert [row["name"] for row in answer.json()["tournaments"]] == ["Side event"] and answer.json()["played"] == 1
    page = desk.get(f"/players/{both.pk}/").content.decode()
    assert "Side event" in page and "Sunday Deepstack" not in page
    # A player whose results are all in tournaments this member does not work: refused, page and API.
    assert desk.get(f"/api/players/{main_only.pk}/results/").status_code == 403
    assert desk.get(f"/players/{main_only.pk}/").status_code == 403
    # Staff of every tournament (no list) and the director read everything.
    for user in (floor, director):
        client = Client()
        client.force_login(user)
        assert client.get(f"/api/players/{both.pk}/results/").json()["played"] == 2
        assert client.get(f"/api/players/{main_only.pk}/results/").status_code == 200


def test_a_league_of_tournaments_not_worked_is_refused_and_left_out_of_the_list(director, floor, tournament, side):
    league = league_services.create_league(actor=director, data={"name": "Spring season", "formula": "linear"})
    league_services.add_tournament(league, actor=director, tournament=tournament)
    member = works_only(make_user("side-floor", "Floor"), side)
    for path in (
        f"/leagues/{league.pk}/",
        f"/leagues/{league.pk}/standings.csv",
        f"/leagues/{league.pk}/standings.pdf",
        f"/api/leagues/{league.pk}/",
    ):
        assert member.get(path).status_code == 403, path
    assert member.get("/api/leagues/").json() == [] and "Spring season" not in member.get("/leagues/").content.decode()
    assert member.get(f"/l/{league.pk}/").status_code == 200  # the players' standings stay public
    # The league takes in the side event too: its floor reads it (working one of its tournaments is enough).
    league_services.add_tournament(league, actor=director, tournament=side)
    for path in (f"/leagues/{league.pk}/", f"/leagues/{league.pk}/standings.csv", f"/api/leagues/{league.pk}/"):
        assert member.get(path).status_code == 200, path
    assert [row["id"] for row in member.get("/api/leagues/").json()] == [league.pk]
    unscoped = Client()
    unscoped.force_login(floor)
    empty = league_services.create_league(actor=director, data={"name": "Autumn season", "formula": "linear"})
    assert unscoped.get(f"/api/leagues/{empty.pk}/").status_code == 200  # no list: every league, as before
    assert member.get(f"/api/leagues/{empty.pk}/").status_code == 403  # a league of no tournament touches none worked
