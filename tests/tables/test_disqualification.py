"""Disqualification (TDA 51, club 1): the floor disqualifies a seated player with a reason; his
chips leave play (the count given, else his last count), nothing is refunded, and his place follows the house
rule: last among the players still in (TDA) or as a bust of the hand in play. On his record, the penalties list and
the event log. A disqualification given in error is cancelled by reinstating him (his chips come back)."""

from __future__ import annotations

import pytest
from django.test import Client

from core.errors import ServiceError
from tables.models import Penalty, Seat, Table
from tables.services import busts, counting, hands, house_rules, penalties
from tests.helpers import client_for, id_doc, url
from tests.tables.test_counting import even
from tests.tables.test_penalty_api import at_table
from tournament.models import AuditEvent, ChipAdjustment, Entry, Purchase
from tournament.selectors.stats import tournament_stats
from tournament.services import registration

STACK = 20_000


def dq(user, t, body: dict):
    return client_for(user).post(url(t, "penalties/"), {"kind": "dq", "reason": "Collusion", **body}, format="json")


def state(t) -> tuple:
    """What a refusal must leave as it was."""
    return (
        tournament_stats(t)["chips_in_play"],
        Penalty.objects.filter(tournament=t).count(),
        sorted(Entry.objects.filter(tournament=t).values_list("number", "status", "finish_place")),
        Seat.objects.filter(tournament=t, ended_at__isnull=True).count(),
        AuditEvent.objects.filter(tournament=t).count(),
    )


def table_with_signals(t, number: int) -> Table:
    table = Table.objects.get(tournament=t, number=number)
    table.sends_hand_signals = True
    table.save(update_fields=["sends_hand_signals"])
    return table


@pytest.mark.django_db
def test_his_chips_leave_play_nothing_is_refunded_and_it_is_on_his_record(room, floor):
    t = room
    before = tournament_stats(t)
    offender = at_table(t, 1)[0]
    paid = list(Purchase.objects.filter(entry=offender).values_list("number", "status", "refund_amount"))
    answer = dq(floor, t, {"entry": offender.number, "chips": 31_500})
    assert answer.status_code == 201, answer.content
    got = answer.json()
    assert got["kind"] == "dq" and got["status"] == "disqualified" and got["chips"] == 31_500
    offender.refresh_from_db()
    assert offender.status == Entry.Status.BUSTED and offender.finish_place == 12  # the last of the 12 still in
    after = tournament_stats(t)
    assert after["chips_in_play"] == before["chips_in_play"] - 31_500 and after["players_left"] == 11
    assert after["collected"] == before["collected"]  # no refund
    assert list(Purchase.objects.filter(entry=offender).values_list("number", "status", "refund_amount")) == paid
    adjustment = ChipAdjustment.objects.get(tournament=t, kind=ChipAdjustment.Kind.DISQUALIFIED)
    assert adjustment.amount == -31_500 and adjustment.table == 1
    with pytest.raises(ServiceError):  # a busted entry's receipts are not voided: no refund by that door either
        registration.void_purchase(Purchase.objects.filter(entry=offender).first(), actor=floor, reason="refund him")
    event = AuditEvent.objects.filter(tournament=t, type="entry.disqualified").get()
    assert event.payload["chips"] == 31_500 and event.payload["reason"] == "Collusion" and event.payload["place"] == 12
    browser = Client()
    browser.force_login(floor)
    record = browser.get(f"/t/{t.pk}/entries/{offender.number}/").content.decode()
    assert 'id="disqualified"' in record and "Collusion" in record and 'id="undo-bust"' not in record
    log = browser.get(f"/t/{t.pk}/events/?kind=penalties").content.decode()
    assert "disqualified (penalty 1)" in log and "no refund: Collusion" in log


@pytest.mark.django_db
def test_without_a_count_his_last_count_leaves_play_and_without_either_nothing_happens(room, floor):
    t = room
    first, second = at_table(t, 1)[:2]
    before = state(t)
    refused = dq(floor, t, {"entry": first.number})
    assert refused.status_code == 400 and refused.json()["error"] == "count_required"
    assert "no chip count on record" in refused.json()["detail"]
    assert state(t) == before
    counts = even(t, 1, STACK)
    counts[next(s.seat for s in Seat.objects.filter(entry=second, ended_at__isnull=True))] = 44_000
    counting.record_table_counts(Table.objects.get(tournament=t, number=1), actor=floor, counts=counts)
    in_play = tournament_stats(t)["chips_in_play"]
    assert dq(floor, t, {"entry": second.number}).status_code == 201
    assert tournament_stats(t)["chips_in_play"] == in_play - 44_000
    assert Penalty.objects.get(tournament=t, kind="dq").chips == 44_000


@pytest.mark.parametrize("rule, dq_place, bust_place", [("last", 12, 11), ("bust", 11, 12)])
@pytest.mark.django_db
def test_his_place_follows_the_house_rule_against_a_bust_of_the_same_hand(  # noqa: F811
    room, floor, director, rule, dq_place, bust_place
):
    """Disqualified first, then a player busts in the same hand with fewer chips: under "last" the disqualified
    player stays last (he joins no hand); under "bust" he is a bust of that hand, and his larger stack places him
    above the other."""
    t = room
    house_rules.set_house_rules(t, actor=director, data={"disqualified_place": rule})
    table = table_with_signals(t, 1)
    hands.start_hand(table, actor=floor)
    offender, loser = at_table(t, 1)[:2]
    assert dq(floor, t, {"entry": offender.number, "chips": 50_000}).status_code == 201
    busts.bust_entry(loser, actor=floor, stack=5_000)
    offender.refresh_from_db()
    loser.refresh_from_db()
    assert (offender.finish_place, loser.finish_place) == (dq_place, bust_place)


@pytest.mark.django_db
def test_reinstated_he_plays_again_with_his_chips_and_the_places_move_back(room, floor):
    t = room
    in_play = tournament_stats(t)["chips_in_play"]
    offender, later = at_table(t, 1)[0], at_table(t, 2)[0]
    penalty = dq(floor, t, {"entry": offender.number, "chips": 12_000}).json()["number"]
    busts.bust_entry(later, actor=floor)
    later.refresh_from_db()
    assert later.finish_place == 11
    with pytest.raises(ServiceError) as undo:  # the bust's undo is not the door: the chips would stay out
        busts.undo_bust(offender, actor=floor)
    assert undo.value.code == "disqualified"
    with pytest.raises(ServiceError) as plain:
        penalties.cancel_penalty(t, actor=floor, number=penalty, reason="wrong")
    assert plain.value.code == "disqualification"
    blank = client_for(floor).post(url(t, f"penalties/{penalty}/cancel/"), {"reason": ""}, format="json")
    assert blank.status_code == 400
    answer = client_for(floor).post(url(t, f"penalties/{penalty}/cancel/"), {"reason": "Wrong player"}, format="json")
    assert answer.status_code == 200, answer.content
    assert answer.json()["status"] == "cancelled"
    offender.refresh_from_db()
    later.refresh_from_db()
    assert offender.status == Entry.Status.ACTIVE and later.finish_place == 12  # one more player in, again
    assert Seat.objects.filter(entry=offender, ended_at__isnull=True).exists()
    assert tournament_stats(t)["chips_in_play"] == in_play
    assert AuditEvent.objects.filter(tournament=t, type="entry.reinstated").count() == 1
    again = client_for(floor).post(url(t, f"penalties/{penalty}/cancel/"), {"reason": "twice"}, format="json")
    assert again.status_code == 409


@pytest.mark.django_db
def test_a_disqualified_player_does_not_enter_again(room, floor, cashier):
    t = room
    t.reentry_allowed = True
    t.save(update_fields=["reentry_allowed"])
    offender = at_table(t, 1)[0]
    assert dq(floor, t, {"entry": offender.number, "chips": 1_000}).status_code == 201
    entries = Entry.objects.filter(tournament=t).count()
    with pytest.raises(ServiceError) as refused:
        registration.register_entry(
            t, actor=cashier, player=offender.player, document=id_doc(f"EA{int(offender.player.first_name[1:]):07d}")
        )
    assert refused.value.code == "disqualified" and "was disqualified" in refused.value.message
    assert Entry.objects.filter(tournament=t).count() == entries


@pytest.mark.parametrize(
    "body, status, code",
    [
        ({"chips": -1}, 400, None),
        ({"chips": "many"}, 400, None),
        ({"table": 1, "seat": 9, "chips": 100}, 409, "empty_seat"),
        ({"entry": 99_999, "chips": 100}, 404, None),
        ({"reason": "", "chips": 100}, 400, None),
    ],
)
@pytest.mark.django_db
def test_bad_input_is_refused_and_changes_nothing(room, floor, body, status, code):
    t = room
    offender = at_table(t, 1)[0]
    seated = {s.seat for s in Seat.objects.filter(table__tournament=t, table__number=1, ended_at__isnull=True)}
    if body.get("seat") in seated:
        body = {**body, "seat": next(n for n in range(1, 11) if n not in seated)}
    full = {"entry": offender.number, **body} if "table" not in body and "entry" not in body else body
    before = state(t)
    answer = dq(floor, t, full)
    assert answer.status_code == status, answer.content
    if code:
        assert answer.json()["error"] == code
    assert state(t) == before
    chips_on_a_warning = client_for(floor).post(
        url(t, "penalties/"), {"entry": offender.number, "kind": "warning", "reason": "x", "chips": 5}, format="json"
    )
    assert chips_on_a_warning.status_code == 400 and state(t) == before


@pytest.mark.django_db
def test_only_the_floor_disqualifies(room, cashier, dealer):
    t = room
    offender = at_table(t, 1)[0]
    before = state(t)
    for user in (cashier, dealer):
        assert dq(user, t, {"entry": offender.number, "chips": 100}).status_code == 403
    assert state(t) == before
