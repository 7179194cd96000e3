"""The demo that scripts/dev loads: users, a tournament with seated entries and a lobby link; safe to run twice."""
from io import StringIO

from django.core.management import call_command

from tables.models import Draw, Seat
from tournament.models import Entry, Tournament


def test_load_demo_seats_the_demo_field_and_can_run_again(db):
    out = StringIO()
    call_command("load_demo", stdout=out)
    call_command("load_demo", stdout=out)
    assert Tournament.objects.count() == 1
    entries = Entry.objects.filter(status=Entry.Status.ACTIVE).count()
    assert entries > 0
    assert Seat.objects.filter(ended_at__isnull=True).count() == entries
    assert Draw.objects.filter(kind=Draw.Kind.START).count() == 1
    assert "Lobby screen path: /display/" in out.getvalue()
