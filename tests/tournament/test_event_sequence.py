"""Event sequence numbers are taken in one statement (tournament.services.audit.next_sequence): a caller holding
a stale Tournament instance can neither publish a duplicate number nor write an old one back."""

from __future__ import annotations

from django.db import transaction

from clock.services import clock as clock_services
from tables.services import handforhand
from tests.tables.test_moves import start
from tournament.models import AuditEvent, Tournament
from tournament.services.audit import lock_tournament, record_event


def seqs(tournament: Tournament) -> list[int]:
    return list(AuditEvent.objects.filter(tournament=tournament).order_by("id").values_list("seq", flat=True))


def test_a_stale_instance_gets_the_next_number_not_a_duplicate(tournament):
    stale = Tournament.objects.get(pk=tournament.pk)  # read before the events below
    with transaction.atomic():
        fresh = lock_tournament(tournament.pk)
        record_event(fresh, type_="test.one", payload={})
        record_event(fresh, type_="test.two", payload={})
        record_event(stale, type_="test.three", payload={})  # the old instance still says event_seq == 1
    assert seqs(tournament) == [1, 2, 3, 4]
    assert stale.event_seq == 4
    assert Tournament.objects.get(pk=tournament.pk).event_seq == 4


def test_saving_a_stale_instance_never_sets_the_sequence_back(tournament):
    stale = Tournament.objects.get(pk=tournament.pk)
    with transaction.atomic():
        record_event(lock_tournament(tournament.pk), type_="test.one", payload={})
    stale.name = "Renamed"
    stale.save()
    saved = Tournament.objects.get(pk=tournament.pk)
    assert (saved.name, saved.event_seq) == ("Renamed", 2)


def test_nested_services_on_their_own_instances_keep_the_sequence_gap_free(director, cashier, tournament):
    """Hand-for-hand pauses and resumes the clock, each service locking its own Tournament instance; no
    caller refreshes anything, and the numbers still run 1, 2, 3, ... in commit order."""
    start(director, cashier, tournament, 18, (1, 2))
    clock_services.start_clock(tournament, actor=director)
    before = len(seqs(tournament))
    handforhand.start_hand_for_hand(tournament, actor=director)
    handforhand.stop_hand_for_hand(tournament, actor=director)
    numbers = seqs(tournament)
    assert numbers == list(range(1, len(numbers) + 1))
    types = list(AuditEvent.objects.filter(tournament=tournament).order_by("seq").values_list("type", flat=True))
    assert types[before:] == ["clock.paused", "h4h.started", "h4h.hand_called", "clock.resumed", "h4h.ended"]
