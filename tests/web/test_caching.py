"""Hot public reads per state version (web/caching.py): one query for a repeat, 304 for a phone that
holds the version, a new answer after any change."""

from __future__ import annotations

import random

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from core import memory
from core.errors import ServiceError
from tables.models import Move, Seat, Table
from tables.selectors import state
from tables.services import busts, draws, moves, seats
from tests.clock.fake_time import fake_now  # noqa: F401  (fixture)
from tests.conftest import pay_places
from tests.helpers import open_tables, register
from tests.tables.test_api import drawn, undrawn_entries  # noqa: F401  (fixtures)
from tournament.models import Entry, Tournament
from web import caching


def first_seated(tournament) -> Entry:
    return Entry.objects.filter(tournament=tournament, status=Entry.Status.ACTIVE).order_by("number").first()


@pytest.mark.parametrize("path", ["/api/public/tournaments/{t}/seats/{n}/", "/api/public/tournaments/{t}/seats/{n}/"])
def test_a_repeat_costs_one_query_and_a_change_makes_a_new_answer(client, floor, tournament, drawn, path):  # noqa: F811
    entry = first_seated(tournament)
    address = path.format(t=tournament.pk, n=entry.number)
    first = client.get(address)
    assert first.status_code == 200 and first["ETag"]
    assert "no-cache" in first["Cache-Control"]
    with CaptureQueriesContext(connection) as queries:
        again = client.get(address)
    assert again.status_code == 200 and again.content == first.content
    assert len(queries) == 0  # the version read a moment ago, the answer from memory

    memory.forget_all()  # the room's answers stay; the version is read again
    client.get(address)
    with CaptureQueriesContext(connection) as queries:
        memory._versions.clear()
        held = client.get(address, HTTP_IF_NONE_MATCH=first["ETag"])
    assert held.status_code == 304 and len(queries) == 1  # the tournament's sequences

    busts.bust_entry(entry, actor=floor)
    changed = client.get(address, HTTP_IF_NONE_MATCH=first["ETag"])
    assert changed.status_code == 200 and changed["ETag"] != first["ETag"]
    assert changed.json()["status"] == "busted" and first.json()["status"] == "active"


def test_the_version_names_the_language_and_the_login(client, director, tournament, drawn):  # noqa: F811
    address = f"/s/{tournament.pk}/{first_seated(tournament).number}/"
    anonymous = client.get(address)["ETag"]
    assert client.get(address, HTTP_ACCEPT_LANGUAGE="cs")["ETag"] != anonymous
    client.force_login(director)
    assert client.get(address)["ETag"] != anonymous


def test_an_unknown_tournament_or_entry_is_still_a_404(client, tournament, drawn):  # noqa: F811
    assert client.get("/api/public/tournaments/999999/seats/1/").status_code == 404
    assert client.get(f"/api/public/tournaments/{tournament.pk}/seats/999/").status_code == 404
    assert client.get(f"/api/public/tournaments/{tournament.pk}/seats/999/").status_code == 404  # the remembered 404 too


def test_the_rooms_seats_are_what_each_phone_sees_moves_and_busts_included(client, director, cashier, floor, tournament):
    from tables.models import Move, Seat, Table
    from tables.selectors.screens import public_seats
    from tables.services import draws
    from tests.helpers import open_tables, register

    open_tables(director, tournament, [1, 2, 3])
    register(cashier, tournament, 24)
    draws.draw_start(tournament, actor=director)  # 8, 8 and 8
    for table in Table.objects.filter(tournament=tournament):
        draws.draw_button(table, actor=director)  # balancing knows where the blinds are

    first_table = Seat.objects.filter(tournament=tournament, ended_at__isnull=True, table__number=1).select_related("entry")
    out = [seat.entry for seat in first_table[:2]]
    for entry in out:  # table 1 two players short of the others: a balancing slip
        busts.bust_entry(entry, actor=floor)
    move = Move.objects.select_related("entry", "to_table").get(tournament=tournament, status=Move.Status.PENDING)
    answers = public_seats(tournament.pk)
    entries = list(Entry.objects.filter(tournament=tournament).select_related("player").order_by("number"))
    assert set(answers) == {e.number for e in entries}
    for entry in entries:
        answer, seat = answers[entry.number], Seat.objects.filter(entry=entry, ended_at__isnull=True).first()
        assert answer["name"] == entry.player.display_name and answer["status"] == entry.status
        assert answer["table"] == (seat.table.number if seat else None) and answer["seat"] == (seat.seat if seat else None)
        assert answer["place"] == entry.finish_place
        assert client.get(f"/api/public/tournaments/{tournament.pk}/seats/{entry.number}/").json() == {
            **answer,
            "prize": None,
            "prize_paid": False,
            "seat_won": None,
            "bounty": None,
            "next_draw": state.pending_commitment(tournament),
        }
    assert {answers[e.number]["place"] for e in out} == {23, 24}
    assert answers[move.entry.number]["move"] == {
        "table": move.to_table.number,
        "seat": move.to_seat,
        "position": move.position,
        "after_hand": False,
    }


def test_the_lobby_snapshot_is_read_once_per_version_and_its_clock_counts_on(client, director, cashier, tournament, fake_now):  # noqa: F811
    from clock.services import clock as clock_services
    from tournament.services import registration

    display = registration.create_display_token(tournament, actor=director, label="TV")
    address = f"/api/public/display/{display.token}/snapshot/"
    clock_services.start_clock(tournament, actor=director)
    first = client.get(address).json()
    fake_now.advance(30)
    with CaptureQueriesContext(connection) as queries:
        later = client.get(address).json()
    assert len(queries) == 1  # the display link with its tournament; the rest comes from memory
    assert later["seq"] == first["seq"] and later["stats"] == first["stats"]
    assert later["clock"]["server_time"] == first["clock"]["server_time"] + 30  # the countdown goes on
    assert later["clock"]["current"]["remaining"] == first["clock"]["current"]["remaining"] - 30

    from tests.helpers import register

    register(cashier, tournament, 1, start=900)  # a change: a new version, read again
    changed = client.get(address).json()
    assert changed["seq"] > first["seq"] and changed["stats"]["entries"] == first["stats"]["entries"] + 1
    assert changed["clock"]["current"]["remaining"] == later["clock"]["current"]["remaining"]


def test_hand_starts_and_the_clock_leave_the_phones_answers_as_they_are_unless_a_slip_waits_on_the_hand(
    client, director, cashier, floor, tournament
):
    """A thousand tables start a hand every two minutes: those events must not make every phone's answer
    new (tournament.seats_seq), except where the hand decides whether a player's move waits for it."""
    from clock.services import clock as clock_services
    from tables.models import Move, Seat, Table
    from tables.services import draws, hands
    from tests.helpers import open_tables, register

    open_tables(director, tournament, [1, 2, 3])
    register(cashier, tournament, 24)
    draws.draw_start(tournament, actor=director)
    for table in Table.objects.filter(tournament=tournament):
        draws.draw_button(table, actor=director)
    sitting = Seat.objects.filter(tournament=tournament, ended_at__isnull=True, table__number=2).select_related("entry").first()
    address = f"/api/public/tournaments/{tournament.pk}/seats/{sitting.entry.number}/"
    held = client.get(address)["ETag"]
    hands.start_hand(Table.objects.get(tournament=tournament, number=2), actor=floor)
    clock_services.start_clock(tournament, actor=director)
    hands.undo_hand_start(Table.objects.get(tournament=tournament, number=2), actor=floor)
    assert client.get(address, HTTP_IF_NONE_MATCH=held).status_code == 304

    for seat in Seat.objects.filter(tournament=tournament, ended_at__isnull=True, table__number=1)[:2]:
        busts.bust_entry(seat.entry, actor=floor)  # a balancing slip out of table 2 or 3
    move = Move.objects.select_related("entry", "from_table").get(tournament=tournament, status=Move.Status.PENDING)
    mover = f"/api/public/tournaments/{tournament.pk}/seats/{move.entry.number}/"
    before = client.get(mover)
    hands.start_hand(Table.objects.get(pk=move.from_table.pk), actor=floor)  # the slip now waits for that hand
    after = client.get(mover, HTTP_IF_NONE_MATCH=before["ETag"])
    assert after.status_code == 200 and after["ETag"] != before["ETag"]
    assert (before.json()["move"]["after_hand"], after.json()["move"]["after_hand"]) == (False, True)


def test_a_tournament_number_no_database_takes_is_a_404(client):
    assert client.get(f"/api/public/tournaments/{2**80}/seats/1/").status_code == 404
    assert client.get(f"/api/public/tournaments/{2**80}/seats/", {"q": "Jana"}).status_code == 404


def test_a_version_read_lately_answers_a_first_load_for_a_moment_and_a_push_s_sequence_always(client, tournament, drawn, monkeypatch):  # noqa: F811
    """Another worker's change: this worker still holds the version it read a moment ago. A first load
    takes it for FRESH_SECONDS; a page reacting to a push names the push's sequence (?v=) and never gets
    an older answer."""
    from tournament.models import Tournament

    clock = [1000.0]
    monkeypatch.setattr(memory.time, "monotonic", lambda: clock[0])
    entry = first_seated(tournament)
    address = f"/api/public/tournaments/{tournament.pk}/seats/{entry.number}/"
    before = client.get(address)["ETag"]
    Entry.objects.filter(pk=entry.pk).update(status=Entry.Status.BUSTED)  # as another worker's bust would
    Tournament.objects.filter(pk=tournament.pk).update(event_seq=tournament.event_seq + 50, seats_seq=tournament.event_seq + 50)
    told = tournament.event_seq + 50

    assert client.get(address)["ETag"] == before  # a first load within the moment
    pushed = client.get(address, {"v": told})
    assert pushed["ETag"] != before and pushed.json()["status"] == "busted"  # at least as new as the push
    with CaptureQueriesContext(connection) as queries:
        assert client.get(address, {"v": told})["ETag"] == pushed["ETag"]
    assert len(queries) == 0

    Tournament.objects.filter(pk=tournament.pk).update(event_seq=told + 1, seats_seq=told + 1)
    assert client.get(address)["ETag"] == pushed["ETag"]
    clock[0] += memory.FRESH_SECONDS  # the moment is over: the first load reads the version again
    assert client.get(address)["ETag"] != pushed["ETag"]
    assert client.get(address, {"v": "x"}).status_code == 200  # a bad hint is no hint


def test_a_change_in_this_worker_is_seen_at_once(client, floor, tournament, drawn):  # noqa: F811
    entry = first_seated(tournament)
    address = f"/api/public/tournaments/{tournament.pk}/seats/{entry.number}/"
    assert client.get(address).json()["status"] == "active"
    busts.bust_entry(entry, actor=floor)
    assert client.get(address).json()["status"] == "busted"


def test_the_floor_snapshot_is_computed_once_per_version_and_its_clock_counts_on(director, cashier, tournament, fake_now):  # noqa: F811
    from clock.services import clock as clock_services
    from live.snapshots import floor_answer, read_again
    from tests.helpers import register

    clock_services.start_clock(tournament, actor=director)
    first = floor_answer(read_again(tournament))
    fake_now.advance(20)
    with CaptureQueriesContext(connection) as queries:
        later = floor_answer(read_again(tournament))
    assert len(queries) == 1  # the version; fifty tablets connecting together cost one computation
    assert later["events"] == first["events"] and later["tables"] == first["tables"]
    assert later["clock"]["current"]["remaining"] == first["clock"]["current"]["remaining"] - 20

    register(cashier, tournament, 1, start=900)
    changed = floor_answer(read_again(tournament))
    assert changed["seq"] > first["seq"] and changed["events"][-1]["type"] == "entry.registered"


def test_while_a_new_version_is_computed_a_first_load_gets_the_one_before_tagged_as_such(client, floor, tournament, drawn):  # noqa: F811
    entry = first_seated(tournament)
    address = f"/api/public/tournaments/{tournament.pk}/seats/{entry.number}/"
    before = client.get(address)
    busts.bust_entry(entry, actor=floor)
    lock = memory._locks[("seats", tournament.pk)]
    with lock:  # another request is computing the new version
        meanwhile = client.get(address)
    assert meanwhile.json() == before.json() and meanwhile["ETag"] == before["ETag"]  # honest about its version
    after = client.get(address, HTTP_IF_NONE_MATCH=meanwhile["ETag"])
    assert after.status_code == 200 and after.json()["status"] == "busted"


def test_a_request_naming_a_version_waits_for_it_to_be_computed():
    import threading

    memory.at_version("x", 1, 1, lambda: (1, "one"))
    lock, started, release = memory._locks[("x", 1)], threading.Event(), threading.Event()

    def slow():
        started.set()
        release.wait(5)
        return 2, "two"

    worker = threading.Thread(target=lambda: memory.at_version("x", 1, 2, slow))
    worker.start()
    started.wait(5)
    assert lock.locked()
    assert memory.at_version("x", 1, 2, lambda: (2, "never"), meanwhile=True) == (1, "one")
    got = []
    waiter = threading.Thread(target=lambda: got.append(memory.at_version("x", 1, 2, lambda: (2, "never"))))
    waiter.start()
    waiter.join(0.1)
    assert not got  # it waits for the computation...
    release.set()
    worker.join(5)
    waiter.join(5)
    assert got == [(2, "two")]  # ...and gets its answer, not a second computation
    memory.forget_all()


def test_a_number_longer_than_the_database_takes_is_no_such_page_anywhere(client, director):
    client.force_login(director)
    huge = "451924494297797595361424965632"
    assert client.post(f"/api/tournaments/{huge}/tables/2191/button/", {}, content_type="application/json").status_code == 404
    assert client.get(f"/t/{huge}/").status_code == 404
    assert client.get(f"/api/tournaments/1/entries/{huge}/").status_code == 404


def test_the_rooms_seats_are_made_from_the_version_before_with_the_entries_its_events_name(
    director, cashier, floor, tournament, monkeypatch
):
    """A bust, a move slip and its confirmation, a seat correction name the entries they change (AuditEvent.seat_entries):
    the worker reads those entries again, not the whole room. An event that may change any answer (an undone bust
    moves every later place) reads the whole room. Played at random to the money and its prizes: after every step
    the kept seats are what a whole read gives."""
    open_tables(director, tournament, [1, 2, 3])
    register(cashier, tournament, 24)
    draws.draw_start(tournament, actor=director)
    for table in Table.objects.filter(tournament=tournament):
        draws.draw_button(table, actor=director)
    pay_places(director, tournament, 4)
    reads = []
    whole = caching.public_seats
    monkeypatch.setattr(caching, "public_seats", lambda pk, numbers=None: reads.append(numbers) or whole(pk, numbers))

    def kept_matches_a_whole_read():
        seq = Tournament.objects.get(pk=tournament.pk).seats_seq
        version, kept = caching._room(tournament.pk, seq)
        assert version == seq
        assert kept == caching.seats_now(tournament.pk)
        reads.pop()  # the whole read just made for the comparison

    kept_matches_a_whole_read()
    rng, busted = random.Random(26), []
    while Entry.objects.filter(tournament=tournament, status=Entry.Status.ACTIVE).count() > 2:
        pending = list(Move.objects.filter(tournament=tournament, status=Move.Status.PENDING))
        roll = rng.random()
        if pending and roll < 0.4:
            moves.confirm_move(tournament, actor=floor, number=rng.choice(pending).number)
        elif busted and roll < 0.5:
            try:
                busts.undo_bust(busted.pop(), actor=floor)
            except ServiceError:  # no seat for the player (tables broken since): refused, nothing changed
                pass
        elif roll < 0.6:
            entry = rng.choice(list(Entry.objects.filter(tournament=tournament, status=Entry.Status.ACTIVE)))
            table = Seat.objects.get(entry=entry, ended_at__isnull=True).table
            free = set(range(1, table.seats + 1)) - set(
                Seat.objects.filter(table=table, ended_at__isnull=True).values_list("seat", flat=True)
            )
            if free and not Move.objects.filter(tournament=tournament, status=Move.Status.PENDING).exists():
                seats.correct_seat(entry, actor=floor, table_number=table.number, seat_number=min(free))
        else:
            entry = rng.choice(list(Entry.objects.filter(tournament=tournament, status=Entry.Status.ACTIVE)))
            busted.append(busts.bust_entry(entry, actor=floor))
        kept_matches_a_whole_read()
    partial = [numbers for numbers in reads if numbers is not None]
    assert partial and all(len(numbers) <= 3 for numbers in partial)
    assert len(reads) - len(partial) < len(partial)  # the whole room read again only after an undone bust or a break
    assert any(answer["prize"] for answer in caching._room(tournament.pk, Tournament.objects.get(pk=tournament.pk).seats_seq)[1].values())
