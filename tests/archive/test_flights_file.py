"""An event with flights in tournament files (docs/tournament-file.md): each flight and the Day 2 is a file
of its own, with its days, bags and carried entries; the event itself (its flights, the carry) is not in them. Played
by bench/flights.py's festival at a small scale, exported, rolled back, then imported flight by flight: a player who
played two flights, or went on to Day 2, is one player, found by his ID hash in the files after the first."""

from __future__ import annotations

import pytest
from django.db import transaction

from archive.selectors import schema
from archive.selectors.export import export_tournament
from archive.services.transfer import import_tournament
from bench.flights import simulate
from days.models import Bag, Day
from flights.models import Event, Flight
from tests.archive.test_transfer import ACTOR, as_exported
from tournament.models import Entry, Player, Purchase, Tournament


@pytest.mark.django_db
def test_each_flight_and_the_day_2_is_a_file_and_a_player_of_several_is_one_player_after_the_import():
    with transaction.atomic():
        simulate(entries=30, flights=2, seed=7, report=lambda line: None)
        event = Event.objects.get()
        tournaments = [f.tournament for f in Flight.objects.filter(event=event).order_by("label")] + [event.day2]
        files = [export_tournament(t) for t in tournaments]
        players = Player.objects.filter(entries__tournament__in=tournaments).distinct().count()
        transaction.set_rollback(True)
    assert not Tournament.objects.exists()
    day2 = files[-1]
    assert {row[day2["rows"]["tournament.purchase"]["fields"].index("kind")] for row in day2["rows"]["tournament.purchase"]["rows"]} == {
        Purchase.Kind.CARRIED
    }
    assert all(files[0]["rows"][name]["rows"] for name in ("days.day", "days.bag"))

    imported = [import_tournament(document, actor=ACTOR) for document in files]
    assert imported[0].import_report["players_found"] == 0
    assert imported[1].import_report["players_found"] > 0  # replayed in the second flight
    assert imported[2].import_report["players_found"] == imported[2].import_report["entries"]  # all came from a flight
    assert Player.objects.count() == players
    assert not Event.objects.exists() and not Flight.objects.exists()  # the event is not in the files
    assert Day.objects.filter(tournament=imported[0]).exists() and Bag.objects.filter(tournament=imported[0]).exists()
    again = export_tournament(imported[0])
    assert schema.canonical(as_exported(again, files[0])) == schema.canonical(
        {k: v for k, v in files[0].items() if k not in ("exported_at", "checksum")}
    )
    carried = Entry.objects.filter(tournament=imported[2]).select_related("player", "id_check")
    assert all(e.id_check.player_id == e.player_id and e.player.id_hmac == e.id_hmac for e in carried)
