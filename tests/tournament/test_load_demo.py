"""The demo that scripts/dev loads: users, a tournament with seated entries, a lobby link and a league; safe to run twice.
Its password is never a fixed public one: new on every run, or DEMO_PASSWORD, and printed."""

import re
from io import StringIO

from django.contrib.auth.models import User
from django.core.management import call_command
from django.test import Client

from leagues.models import LeagueTournament
from payouts.models import Satellite
from payouts.selectors.structure import payout_state
from tables.models import Draw, Seat
from tournament.models import Entry, Tournament
from venues.models import SitAndGo, VenueTable


def works(username: str, password: str) -> bool:
    return User.objects.get(username=username).check_password(password)


def printed_password(output: str) -> str:
    return re.findall(r"^Password for all of them: (\S+)$", output, re.MULTILINE)[-1]


def test_load_demo_seats_the_demo_field_and_can_run_again(db, monkeypatch):
    monkeypatch.delenv("DEMO_PASSWORD", raising=False)
    out = StringIO()
    call_command("load_demo", stdout=out)
    first = printed_password(out.getvalue())
    call_command("load_demo", stdout=out)
    second = printed_password(out.getvalue())
    # The demo tournament, and a satellite of a Main Event, both seated.
    assert sorted(Tournament.objects.values_list("name", flat=True)) == [
        "Demo: Friday Deepstack",
        "Demo: Main Event Satellite",
        "Demo: PKO Bounty",
        "Demo: Sunday Main Event",
        "Demo: Turbo Sit & Go",
    ]
    # The room: its tables from the room file; the Deepstack's and the satellite's held; the sit & go waiting for two more.
    assert VenueTable.objects.count() == 16 and VenueTable.objects.filter(status="cash").count() == 2
    held = {
        vt.number: vt.table.tournament.name for vt in VenueTable.objects.filter(table__isnull=False).select_related("table__tournament")
    }
    assert {n for n, name in held.items() if name == "Demo: Main Event Satellite"} == {11, 12}
    # A progressive knockout side event at the side room's tables 13 and 14, its buttons drawn: a bust asks who won the pot.
    assert {n for n, name in held.items() if name == "Demo: PKO Bounty"} == {13, 14}
    pko = Tournament.objects.get(name="Demo: PKO Bounty")
    assert (pko.bounty_format, pko.bounty, pko.entries.count()) == ("progressive", 100000, 12)
    assert pko.tables.filter(button_seat__isnull=False).count() == 2
    assert SitAndGo.objects.get().tournament.entries.count() == 4
    entries = Entry.objects.filter(status=Entry.Status.ACTIVE).exclude(tournament__name="Demo: Turbo Sit & Go").count()
    assert entries > 0
    assert Seat.objects.filter(ended_at__isnull=True).count() == entries
    assert Draw.objects.filter(kind=Draw.Kind.START).count() == 3
    satellite = Satellite.objects.get()
    assert (satellite.tournament.name, satellite.target.name) == ("Demo: Main Event Satellite", "Demo: Sunday Main Event")
    assert payout_state(satellite.tournament)["satellite"]["seats"] == 2
    names = [e.player.display_name for e in Entry.objects.filter(tournament__name="Demo: Friday Deepstack").select_related("player")]
    assert len(set(names)) == len(names), "two demo players share a name (the public standings show names only)"
    # The demo tournament counts for a demo season, made once.
    assert list(LeagueTournament.objects.values_list("league__name", "tournament__name")) == [
        ("Demo: Friday League", "Demo: Friday Deepstack")
    ]
    assert "Lobby screen path: /display/" in out.getvalue()
    # a new random password each run, and the printed one is the one that works
    assert first != second and len(second) >= 12 and "demo-pass" not in out.getvalue()
    assert works("director", second) and works("admin", second)
    assert not works("floor", first)


def test_load_demo_takes_the_password_from_the_environment(db, monkeypatch):
    monkeypatch.setenv("DEMO_PASSWORD", "chosen-by-the-room-42")
    out = StringIO()
    call_command("load_demo", players=3, stdout=out)
    assert printed_password(out.getvalue()) == "chosen-by-the-room-42"
    assert works("cashier", "chosen-by-the-room-42")


def test_the_demo_says_its_clock_has_not_started(db, monkeypatch):
    """The demo is seated (the tournament is Running) but nobody started its clock: the home list and
    the overview say so, next to the status."""
    monkeypatch.setenv("DEMO_PASSWORD", "pw-for-this-test-1")
    call_command("load_demo", players=3, stdout=StringIO())
    t = Tournament.objects.get(name="Demo: Friday Deepstack")
    c = Client(HTTP_ACCEPT_LANGUAGE="en-gb")
    assert works("director", "pw-for-this-test-1")
    c.force_login(User.objects.get(username="director"))
    home = c.get("/").content.decode()
    assert re.search(r"<td>Running</td><td class=\"clock-state\" data-clock=\"not_started\">Not started</td>", home)
    overview = c.get(f"/t/{t.pk}/").content.decode()
    assert re.search(
        r'<span id="tournament-status">Running</span>, '
        r'<span id="clock-state" data-clock="not_started"[^>]*>clock not started</span>',
        overview,
    )


def test_home_and_overview_follow_the_clock(director, tournament):
    from clock.services import clock

    c = Client()
    c.force_login(director)
    clock.start_clock(tournament, actor=director)
    assert 'data-clock="running">Running</td>' in c.get("/").content.decode()
    clock.pause_clock(tournament, actor=director)
    assert 'data-clock="paused"' in c.get(f"/t/{tournament.pk}/").content.decode()
    assert "clock paused" in c.get(f"/t/{tournament.pk}/").content.decode()
