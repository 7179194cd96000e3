"""The cashier's player search: case and accents never matter and any part of a name is found,
the same on PostgreSQL and SQLite, through a folded search key kept on the player (Player.search_key)."""

from __future__ import annotations

from datetime import date

import pytest
from django.test import Client
from django.urls import reverse
from rest_framework.test import APIClient

from tournament.models import Player
from tournament.rules.search_keys import fill_search_keys
from tournament.services import registration

pytestmark = pytest.mark.django_db


@pytest.fixture
def people(cashier):
    def make(first, last, nickname=""):
        return registration.create_player(
            actor=cashier, first_name=first, last_name=last, date_of_birth=date(1985, 3, 1), nickname=nickname
        )

    return {"novak": make("Jan", "Novák"), "horvath": make("Martin", "Horváth", "Marťas"), "other": make("Petr", "Svoboda")}


def found_by_model(q):
    return set(Player.objects.named(q).values_list("last_name", flat=True))


@pytest.mark.parametrize("typed", ["novak", "NOVÁK", "Novák", "vak", "jan novak", "NOVAK JAN", "nová"])
def test_a_name_is_found_whatever_the_case_and_accents_and_by_any_part(people, typed):
    assert found_by_model(typed) == {"Novák"}


def test_horvath_and_the_nickname(people):
    assert found_by_model("horvath") == {"Horváth"}
    assert found_by_model("martas") == {"Horváth"}
    assert found_by_model("ÁTH MART") == {"Horváth"}
    assert found_by_model("novak horvath") == set()
    assert found_by_model("") == {"Novák", "Horváth", "Svoboda"}


def test_the_key_follows_every_change_and_bulk_create(people):
    novak = people["novak"]
    assert novak.search_key == "jan novak"
    novak.last_name = "Nováček"
    novak.save(update_fields=["last_name"])
    novak.refresh_from_db()
    assert novak.search_key == "jan novacek"
    [bulk] = Player.objects.bulk_create([Player(first_name="Ľuboš", last_name="Ťažký", date_of_birth=date(1980, 1, 1))])
    assert Player.objects.get(pk=bulk.pk).search_key == "lubos tazky"
    with pytest.raises(ValueError):
        Player.objects.filter(pk=novak.pk).update(last_name="Other")


def test_the_migration_fills_the_keys_of_existing_players(people):
    Player.objects.filter(pk__in=[p.pk for p in people.values()]).update(search_key="")
    assert found_by_model("novak") == set()
    assert fill_search_keys(Player, batch_size=2) == 3  # batches smaller than the rows
    assert found_by_model("novak") == {"Novák"} and found_by_model("horvath") == {"Horváth"}
    assert fill_search_keys(Player) == 0  # run again: nothing left to change


def test_the_register_page_finds_novak_and_horvath(people, cashier, tournament):
    client = Client()
    client.force_login(cashier)
    url = reverse("register", args=[tournament.pk])
    for typed, wanted, unwanted in [
        ("novak", people["novak"], people["horvath"]),
        ("NOVÁK", people["novak"], people["other"]),
        ("horvath", people["horvath"], people["novak"]),
        ("vak", people["novak"], people["other"]),
    ]:
        page = client.get(url, {"q": typed}).content.decode()
        assert f"?player={wanted.pk}" in page, typed
        assert f'?player={unwanted.pk}"' not in page and f"?player={unwanted.pk}&" not in page, typed


def test_the_players_api_finds_novak_and_horvath(people, cashier):
    client = APIClient()
    client.force_authenticate(cashier)
    for typed, wanted in [("novak", "Novák"), ("NOVÁK", "Novák"), ("Novák", "Novák"), ("vak", "Novák"), ("horvath", "Horváth")]:
        answer = client.get("/api/players/", {"q": typed})
        assert answer.status_code == 200
        assert [p["last_name"] for p in answer.json()] == [wanted], typed
