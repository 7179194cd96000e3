"""Chips in play are never negative: a disqualification cannot take out more chips than are in
play (less a chip for every other player still in), a void cannot take out more than are left, and the database
refuses an adjustment that would leave fewer than none."""

from __future__ import annotations

import pytest
from django.db import IntegrityError, transaction
from django.utils import timezone

from core.errors import ServiceError
from tests.tables.test_disqualification import dq, state
from tests.tables.test_penalty_api import at_table
from tournament.models import ChipAdjustment, Entry, Purchase
from tournament.selectors.stats import tournament_stats
from tournament.services import registration


@pytest.mark.django_db
def test_a_disqualification_claiming_more_chips_than_are_in_play_is_refused(room, floor, director):
    t = room
    offender = at_table(t, 1)[0]
    in_play, left = tournament_stats(t)["chips_in_play"], tournament_stats(t)["players_left"]
    most = in_play - (left - 1)  # every other player still in holds a chip at least
    before = state(t)
    for claimed in (in_play + 1, most + 1):
        answer = dq(floor, t, {"entry": offender.number, "chips": claimed})
        assert answer.status_code == 409 and answer.json()["error"] == "more_than_in_play", answer.content
        assert f"at most {most}" in answer.json()["detail"].replace(",", "").replace("\xa0", "")
        assert state(t) == before
    answer = dq(floor, t, {"entry": offender.number, "chips": most})
    assert answer.status_code == 201, answer.content
    assert tournament_stats(t)["chips_in_play"] == left - 1
    assert ChipAdjustment.objects.get(tournament=t).in_play_after == left - 1

    # A void that would take out the chips the others are left with is refused too.
    other = Entry.objects.filter(tournament=t, status=Entry.Status.ACTIVE).first()
    with pytest.raises(ServiceError) as refused:
        registration.void_purchase(Purchase.objects.get(entry=other, kind=Purchase.Kind.BUY_IN), actor=director, reason="x")
    assert refused.value.code == "chips_in_play_negative"
    assert tournament_stats(t)["chips_in_play"] == left - 1


@pytest.mark.django_db
def test_the_database_refuses_an_adjustment_leaving_negative_chips_in_play(room):
    with pytest.raises(IntegrityError), transaction.atomic():
        ChipAdjustment.objects.create(
            tournament=room, kind=ChipAdjustment.Kind.DISQUALIFIED, amount=-1, in_play_after=-1, created_at=timezone.now()
        )
