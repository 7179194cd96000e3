"""Play over finishes the tournament (payouts.reactions.finished_with_play): its winner known (or a deal that stopped
play, or a satellite at its seats), registration is closed, no new hand is dealt, hand-for-hand ends once its hand is
played and the clock stops; a correction that lets play go on makes it run again. Found playing a night through: a
finished night stayed "Running" with its clock running and its hand-for-hand calling hands."""

from __future__ import annotations

from django.urls import reverse
from django.utils import timezone

from clock.models import ClockState
from clock.services import clock as clock_services
from payouts.reactions import finished_with_play
from tables.models import HandForHand, Move, Seat
from tables.selectors import screens
from tables.services import busts, handforhand, hands, moves
from tests.conftest import tournament_data
from tests.helpers import refused, table
from tests.payouts.conftest import bust_down_to, seat_field
from tests.tables.test_moves import entry, seated
from tournament.models import AuditEvent, Entry, Tournament
from tournament.services import registration as tournament_services
from tournament.services import setup
from venues.models import VenueTable
from web.event_words import event_line


def night(director, cashier, template, players: int) -> Tournament:
    t = setup.create_tournament(tournament_data(name="Friday", guaranteed_pool=0), actor=director, template=template)
    seat_field(director, cashier, t, players)
    clock_services.start_clock(t, actor=director)
    return t


def status(t) -> str:
    return Tournament.objects.get(pk=t.pk).status


def clock(t) -> str:
    return ClockState.objects.get(tournament=t).status


def test_the_winner_finishes_the_night_and_an_undone_last_bust_lets_it_run_again(director, cashier, floor, dealer, template, player):
    t = night(director, cashier, template, 4)
    bust_down_to(floor, t, 2)
    assert (status(t), clock(t)) == ("running", ClockState.Status.RUNNING)
    bust_down_to(floor, t, 1)
    winner = Entry.objects.get(tournament=t, status=Entry.Status.ACTIVE)
    assert (status(t), clock(t)) == ("finished", ClockState.Status.PAUSED)
    done = AuditEvent.objects.filter(tournament=t, type="tournament.finished").get()
    assert done.payload == {
        "players_left": 1,
        "hand_for_hand_ended": False,
        "clock_stopped": True,
        "reason": "winner",
        "entry": winner.number,
        "name": winner.player.display_name,
        "tables_given_back": [1, 2],
    }
    assert not VenueTable.objects.filter(table__tournament=t).exists()  # the room's tables are free for the next events
    name = winner.player.display_name
    assert event_line(done.type, done.payload, {}) == f"Play is over: {name} (#{winner.number}) won (the clock stopped)"
    paused = AuditEvent.objects.filter(tournament=t, type="clock.paused").get()
    assert paused.payload["play_over"] is True and paused.seq < done.seq
    # Nobody registers, no hand is dealt.
    closed = refused(
        "registration_closed",
        tournament_services.register_entry,
        t,
        actor=cashier,
        player=player,
        document=tournament_services.IdDocument("passport", "PX1234567"),
    )
    assert "finished" in str(closed)
    refused("play_over", hands.start_hand, table(t, sorted(seated(t))[0]), actor=dealer)
    # A mistaken last bust undone: play goes on (the clock waits for the director), and the bust again ends it.
    last = Entry.objects.get(tournament=t, finish_place=2)
    busts.undo_bust(last, actor=floor)
    assert (status(t), clock(t)) == ("running", ClockState.Status.PAUSED)
    resumed = AuditEvent.objects.filter(tournament=t, type="tournament.resumed").get()
    assert event_line(resumed.type, resumed.payload, {}) == "Play goes on again: 2 players left"
    assert sorted(VenueTable.objects.filter(table__tournament=t).values_list("number", flat=True)) == [1, 2]  # held again
    hands.start_hand(table(t, sorted(seated(t))[0]), actor=dealer)
    busts.bust_entry(last, actor=floor)
    assert status(t) == "finished" and AuditEvent.objects.filter(tournament=t, type="tournament.finished").count() == 2


def test_hand_for_hand_ends_once_the_hand_that_ended_play_is_reported_and_calls_no_more(director, cashier, floor, dealer, template):
    t = night(director, cashier, template, 4)
    bust_down_to(floor, t, 2)
    handforhand.start_hand_for_hand(t, actor=director)
    for n in sorted(seated(t)):
        hands.start_hand(table(t, n), actor=dealer)
    loser = Entry.objects.filter(tournament=t, status=Entry.Status.ACTIVE).order_by("number").first()
    busts.bust_entry(entry(t, loser.number), actor=floor, stack=5_000)
    h = HandForHand.objects.get(tournament=t)
    assert status(t) == "finished" and h.ended_at is None and h.called  # its hand is still reported table by table
    for n in sorted(seated(t)):
        if table(t, n).hand_in_progress or n in h.tables:
            handforhand.hand_done(table(t, n), actor=dealer)
    h.refresh_from_db()
    assert h.ended_at is not None and h.hand == 1, "no hand called after play is over"
    ended = AuditEvent.objects.filter(tournament=t, type="h4h.ended").get()
    assert ended.payload["play_over"] is True and ended.payload["clock_resumed"] is False
    assert clock(t) == ClockState.Status.PAUSED


def test_hand_for_hand_between_hands_ends_with_play(director, cashier, floor, template):
    t = night(director, cashier, template, 4)
    bust_down_to(floor, t, 2)
    handforhand.start_hand_for_hand(t, actor=director)
    h = HandForHand.objects.get(tournament=t)
    h.called = False  # between two hands: the last one complete, the next not yet called (a slip to confirm first)
    h.save(update_fields=["called"])
    bust_down_to(floor, t, 1)
    h.refresh_from_db()
    assert h.ended_at is not None
    done = AuditEvent.objects.filter(tournament=t, type="tournament.finished").get()
    assert done.payload["hand_for_hand_ended"] is True


def test_the_home_page_lists_a_finished_tournament_apart_with_its_link(client, director, cashier, floor, template):
    t = night(director, cashier, template, 3)
    client.force_login(director)
    assert 'id="finished-list"' not in client.get(reverse("home")).content.decode()
    bust_down_to(floor, t, 1)
    page = client.get(reverse("home")).content.decode()
    finished = page[page.index('id="finished-list"') :]
    assert f'href="{reverse("tournament-detail", args=[t.pk])}"' in finished and "Friday" in finished
    assert "No tournament is being set up or played." in page  # the only one is finished


def test_a_night_finished_whose_winner_is_voided_plays_on_when_the_last_bust_is_undone(director, cashier, floor, template):
    """Found by the night machine: of two entries one busts and the other wins; the winner's entry is voided (the wrong
    player), so the one who busted is first. His bust undone, he is the only entry and nobody has a place: nothing was
    played, and the tournament runs again as before any bust (it was left finished with no result)."""
    t = night(director, cashier, template, 2)
    bust_down_to(floor, t, 1)
    winner = Entry.objects.get(tournament=t, status=Entry.Status.ACTIVE)
    out = Entry.objects.get(tournament=t, status=Entry.Status.BUSTED)
    assert status(t) == "finished"
    tournament_services.void_purchase(winner.purchases.order_by("pk").first(), actor=cashier, reason="wrong player")
    assert status(t) == "finished"  # the one who busted is first now
    busts.undo_bust(out, actor=floor)
    assert status(t) == "running"
    assert AuditEvent.objects.filter(tournament=t, type="tournament.resumed").count() == 1


def test_play_that_goes_on_again_balances_the_room_nobody_balanced_while_it_was_over(director, cashier, floor, template):
    """Found by the night machine (a satellite at its seats, a bust undone): nobody is moved while play is over, so a
    room left out of balance then is balanced once play goes on again, not left with no slip and no notice."""
    t = night(director, cashier, template, 12)  # two tables of six
    Tournament.objects.filter(pk=t.pk).update(status=Tournament.Status.FINISHED)  # as if play had stopped
    # Two players leave table one while play is over (written as such: no service balances the room now).
    gone = list(Seat.objects.filter(tournament=t, table__number=sorted(seated(t))[0], ended_at__isnull=True).order_by("seat")[:2])
    Seat.objects.filter(pk__in=[s.pk for s in gone]).update(ended_at=timezone.now())
    Entry.objects.filter(pk__in=[s.entry_id for s in gone]).update(status=Entry.Status.VOIDED)
    assert moves.balance_due(t, moves.read_room(t)) and not Move.objects.filter(tournament=t).exists()
    finished_with_play(actor=floor, tournament=t)  # play is not over: it goes on, and the room is balanced
    assert status(t) == "running"
    assert Move.objects.filter(tournament=t, status=Move.Status.PENDING, kind=Move.Kind.BALANCE).count() == 1


def test_a_bust_undone_that_lets_play_go_on_keeps_the_balancing_notice_it_gave(director, cashier, floor, dealer, template):
    """Found by the night machine (a satellite stopped at its seats, then a bust undone): the undo lets play go on, and
    the play that resumes balances the room (the final table waits for the hands in play, with its notice); the undo's
    own balancing, which had read the tournament before play resumed, must not take that notice back as if play were
    still over."""
    t = night(director, cashier, template, 12)  # two tables of six
    for n in sorted(seated(t)):
        hands.start_hand(table(t, n), actor=dealer)
    bust_down_to(floor, t, 5)
    Tournament.objects.filter(pk=t.pk).update(status=Tournament.Status.FINISHED)  # as a satellite stops at its seats
    busts.undo_bust(Entry.objects.get(tournament=t, finish_place=6), actor=floor)
    assert status(t) == "running"
    waiting = screens.balancing_status(t)["notice"]
    assert waiting is not None and waiting["message"].startswith("The final table is drawn once"), waiting
