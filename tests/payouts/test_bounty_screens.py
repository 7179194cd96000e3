"""What the public screens show of a bounty event (payouts/selectors/bounty_screens.py): the lobby's snapshot's bounty
panel ("bounties": the money in play, a PKO's biggest heads by the chip leaders' names rule, a mystery event's envelopes
left and the last one drawn) and each player's own figures in his public seat answer ("bounty": his head, what he won,
his knockouts); None outside a bounty event. Every change of them makes the lobby's and the seat answers' versions
move, so a screen left open never shows other than a fresh read."""

from __future__ import annotations

import random

import pytest
from rest_framework.test import APIClient

from core.errors import ServiceError
from live.snapshots import lobby_answer, lobby_snapshot, read_again
from payouts.models import BountyAward
from payouts.rules import bounties as b
from payouts.selectors import bounties as sel
from payouts.services import bounties
from tables.services import busts, house_rules
from tables.services import setup as table_setup
from tests.helpers import id_doc, register
from tests.payouts.test_bounties import bounty_night, bust, entry, mystery
from tournament.models import Entry, Tournament
from tournament.services import registration
from web import caching

pytestmark = pytest.mark.django_db


def seat(t, number: int, client=None) -> dict:
    return (client or APIClient()).get(f"/api/public/tournaments/{t.pk}/seats/{number}/").json()


def name(t, number: int) -> str:
    return entry(t, number).player.display_name


def test_a_tournament_without_bounties_has_none(cashier, director, tournament):
    table_setup.open_table(tournament, actor=director, number=1, seats=9)
    register(cashier, tournament, 2)
    assert lobby_snapshot(tournament)["bounties"] is None
    assert seat(tournament, 1)["bounty"] is None


def test_a_knockout_event_shows_the_money_in_play_and_each_player_his_head_and_his_knockouts(director, cashier, floor, template):
    t = bounty_night(director, cashier, template, "knockout", players=4)
    before = lobby_snapshot(t)["bounties"]
    assert before == {
        "format": "knockout",
        "bounty": 10_000,
        "in_play": 40_000,
        "heads": None,  # a knockout's heads are all the bounty: nothing to rank
        "box": None,
        "envelopes_left": None,
        "last_envelope": None,
        "envelopes_together": [],
    }
    assert seat(t, 1)["bounty"] == {"head": 10_000, "won": 0, "owed": 0, "knockouts": 0}
    bust(floor, t, 4, 1)
    bust(floor, t, 3, 1)
    assert lobby_snapshot(t)["bounties"]["in_play"] == 20_000 == sel.money(t)["in_play"]
    assert seat(t, 1)["bounty"] == {"head": 10_000, "won": 20_000, "owed": 20_000, "knockouts": 2}
    assert seat(t, 4)["bounty"] == {"head": None, "won": 0, "owed": 0, "knockouts": 0}  # out: no head on him any more


def test_a_pko_lobby_shows_the_five_biggest_heads_with_names_while_the_house_shows_figures_in_public(director, cashier, floor, template):
    t = bounty_night(director, cashier, template, "progressive", players=7)
    bust(floor, t, 7, 1)  # #1: 15,000
    bust(floor, t, 6, 1)  # #1: 20,000
    bust(floor, t, 5, 2)  # #2: 15,000
    panel = lobby_snapshot(t)["bounties"]
    assert panel["format"] == "progressive" and panel["in_play"] == sel.money(t)["in_play"] == 70_000 - 15_000
    assert panel["heads"] == [
        {"entry": 1, "name": name(t, 1), "head": 20_000},
        {"entry": 2, "name": name(t, 2), "head": 15_000},
        {"entry": 3, "name": name(t, 3), "head": 10_000},
        {"entry": 4, "name": name(t, 4), "head": 10_000},
    ]
    assert seat(t, 1)["bounty"] == {"head": 20_000, "won": 10_000, "owed": 10_000, "knockouts": 2}
    assert seat(t, 2)["bounty"] == {"head": 15_000, "won": 5_000, "owed": 5_000, "knockouts": 1}
    # the house keeps its figures private: no heads with names on the TV (the money in play stays)
    house_rules.set_house_rules(t, actor=director, data={"public_chip_counts": False})
    private = lobby_snapshot(t)["bounties"]
    assert private["heads"] is None and private["in_play"] == panel["in_play"]
    assert not any(e.player.display_name in str(private) for e in Entry.objects.filter(tournament=t))
    # his own figures on his own page stay his
    assert seat(t, 1)["bounty"]["head"] == 20_000


def test_the_pko_heads_are_the_top_five(director, cashier, floor, template):
    t = bounty_night(director, cashier, template, "progressive", players=8)
    bust(floor, t, 8, 1)
    heads = lobby_snapshot(t)["bounties"]["heads"]
    assert [h["entry"] for h in heads] == [1, 2, 3, 4, 5] and heads[0]["head"] == 15_000


def test_a_mystery_lobby_shows_the_envelopes_left_and_the_last_drawn_and_an_undo_gives_it_back(director, cashier, floor, template):
    t = mystery(director, cashier, floor, template)  # five players, 1,000 each, envelopes from level 2
    bust(floor, t, 5, 1)  # level 1: pays nothing, its bounty waits for the envelopes
    panel = lobby_snapshot(t)["bounties"]
    assert (panel["format"], panel["in_play"], panel["box"], panel["envelopes_left"], panel["last_envelope"]) == (
        "mystery",
        5_000,
        None,
        None,
        None,
    )
    registration.set_registration_closed(t, actor=director, closed=True)
    bounties.commit_envelopes(t, actor=director, envelopes=[[2_000, 1], [1_000, 3]])
    panel = lobby_snapshot(t)["bounties"]
    assert (panel["box"], panel["envelopes_left"], panel["last_envelope"]) == ([[2_000, 1], [1_000, 3]], 4, None)
    Tournament.objects.filter(pk=t.pk).update(current_level=2)
    bust(floor, t, 4, 2)
    panel = lobby_snapshot(t)["bounties"]
    last = panel["last_envelope"]
    assert panel["envelopes_left"] == 3 and b.envelopes_count([tuple(x) for x in panel["box"]]) == 3
    assert last["value"] in (1_000, 2_000) and last["names"] == [name(t, 2)] and last["draw"] > 0
    assert panel["in_play"] == sel.money(t)["in_play"] == 5_000 - last["value"]
    assert seat(t, 2)["bounty"] == {"head": None, "won": last["value"], "owed": last["value"], "knockouts": 1}  # no head: envelopes
    # the names follow the house's rule, as the chip leaders do
    house_rules.set_house_rules(t, actor=director, data={"public_chip_counts": False})
    assert lobby_snapshot(t)["bounties"]["last_envelope"] == {**last, "names": []}
    house_rules.set_house_rules(t, actor=director, data={"public_chip_counts": True})

    busts.undo_bust(entry(t, 4), actor=floor)  # the envelope goes back into the box
    panel = lobby_snapshot(t)["bounties"]
    assert (panel["envelopes_left"], panel["last_envelope"], panel["in_play"]) == (4, None, 5_000)
    assert seat(t, 2)["bounty"] == {"head": None, "won": 0, "owed": 0, "knockouts": 0}

    bust(floor, t, 4, 2)
    bust(floor, t, 3, 1)
    bust(floor, t, 2, 1)  # play over: #1 draws the last envelope for his own head
    panel = lobby_snapshot(t)["bounties"]
    assert (panel["box"], panel["envelopes_left"], panel["in_play"]) == ([], 0, 0)
    assert panel["last_envelope"]["names"] == [name(t, 1)]
    assert seat(t, 1)["bounty"]["won"] == 5_000 - seat(t, 2)["bounty"]["won"]
    # the last bust drew two envelopes at once, the pot's and #1's own head: the TV says both (with any drawn less than
    # 15 seconds before: here every bust since the undo), in the order drawn
    together = panel["envelopes_together"]
    assert [e["names"] for e in together[-2:]] == [[name(t, 1)], [name(t, 1)]] and together[-1] == panel["last_envelope"]
    assert [e["draw"] for e in together] == sorted(e["draw"] for e in together)
    third = BountyAward.objects.get(tournament=t, busted__number=3, status="standing").envelope
    assert third + sum(e["value"] for e in together[-2:]) == seat(t, 1)["bounty"]["won"]


def test_a_split_pot_s_envelope_names_both_winners(director, cashier, floor, template):
    t = mystery(director, cashier, floor, template, players=4)
    registration.set_registration_closed(t, actor=director, closed=True)
    Tournament.objects.filter(pk=t.pk).update(current_level=2)
    bounties.commit_envelopes(t, actor=director, envelopes=[[1_000, 4]])
    bust(floor, t, 4, 1, 2)
    assert lobby_snapshot(t)["bounties"]["last_envelope"]["names"] == [name(t, 1), name(t, 2)]  # by entry number
    won = {n: seat(t, n)["bounty"] for n in (1, 2)}
    assert won[1]["knockouts"] == won[2]["knockouts"] == 1 and won[1]["won"] + won[2]["won"] == 1_000


def test_every_bounty_change_makes_the_lobby_and_the_winners_seat_answers_fresh(director, cashier, floor, template):
    """The lobby's snapshot is kept per event sequence and the seat answers per seats' version (web/caching.py): an
    award moves both (bounty.won, bounty.settled name no entries: every seat answer may change), so the winner's page,
    whose seat did not change, reads his new figures, as does a TV left open."""
    t = bounty_night(director, cashier, template, "progressive", players=4)
    client = APIClient()
    tv = lobby_answer(read_again(t))["bounties"]
    first = client.get(f"/api/public/tournaments/{t.pk}/seats/1/")
    bust(floor, t, 4, 1)
    again = client.get(f"/api/public/tournaments/{t.pk}/seats/1/", HTTP_IF_NONE_MATCH=first["ETag"])
    assert again.status_code == 200 and again.json()["bounty"] == {"head": 15_000, "won": 5_000, "owed": 5_000, "knockouts": 1}
    assert first.json()["bounty"]["head"] == 10_000
    now = lobby_answer(read_again(t))["bounties"]
    assert tv["heads"][0] == {"entry": 1, "name": name(t, 1), "head": 10_000}
    assert now["heads"][0] == {"entry": 1, "name": name(t, 1), "head": 15_000} and now["in_play"] == tv["in_play"] - 5_000
    busts.undo_bust(entry(t, 4), actor=floor)  # bounty.settled
    assert client.get(f"/api/public/tournaments/{t.pk}/seats/1/").json()["bounty"] == {"head": 10_000, "won": 0, "owed": 0, "knockouts": 0}
    assert lobby_answer(read_again(t))["bounties"] == tv


@pytest.mark.parametrize("fmt", ["knockout", "progressive"])
def test_the_kept_seats_of_a_bounty_night_are_what_a_whole_read_gives(director, cashier, floor, template, fmt):
    """web/caching.py makes a version's seats from the one before with the entries its events name: a night of busts
    naming their winners, undos and re-entries, and after each step the kept seats (bounty figures included) are a whole read's."""
    t = bounty_night(director, cashier, template, fmt, players=12, tables=2)
    rng, busted, reentered = random.Random(7), [], set()

    def kept_matches_a_whole_read():
        seq = Tournament.objects.get(pk=t.pk).seats_seq
        version, kept = caching._room(t.pk, seq)
        assert version == seq and kept == caching.seats_now(t.pk)

    kept_matches_a_whole_read()
    while Entry.objects.filter(tournament=t, status=Entry.Status.ACTIVE).count() > 2:
        roll = rng.random()
        if busted and roll < 0.2:
            try:
                busts.undo_bust(busted.pop(), actor=floor)
            except ServiceError:  # no seat for the player any more (his table broken since): refused, nothing changed
                pass
        elif busted and roll < 0.4 and busted[-1].player_id not in reentered:
            out = busted.pop()  # a re-entry buys a new head
            reentered.add(out.player_id)
            again = registration.register_entry(t, actor=cashier, player=out.player, document=id_doc(f"EA{out.number - 1:07d}"))
            assert seat(t, again.number)["bounty"] == {"head": 10_000, "won": 0, "owed": 0, "knockouts": 0}
        else:
            live = list(Entry.objects.filter(tournament=t, status=Entry.Status.ACTIVE).order_by("number"))
            out = rng.choice(live)
            table = out.seats.get(ended_at__isnull=True).table
            winners = [e for e in live if e != out and e.seats.get(ended_at__isnull=True).table == table]
            if not winners:
                continue
            busts.bust_entry(out, actor=floor, eliminators=[rng.choice(winners).number])
            busted.append(out)
        kept_matches_a_whole_read()
    assert any(answer["bounty"]["won"] for answer in caching.seats_now(t.pk).values()) and reentered


def test_the_public_bounty_fields_are_the_ones_the_manual_lists(director, cashier, floor, template):
    """docs/roles.md, "What the public sees": the seat socket's snapshot and the public seat answer of a PKO and a
    mystery night, every field listed (tests/web/test_public_fields.py plays a night without bounties)."""
    from tests.web.test_public_fields import check, listed

    fields = listed()
    pko = bounty_night(director, cashier, template, "progressive", players=4)
    bust(floor, pko, 4, 1)
    night = mystery(director, cashier, floor, template, table=2)
    registration.set_registration_closed(night, actor=director, closed=True)
    Tournament.objects.filter(pk=night.pk).update(current_level=2)
    bounties.commit_envelopes(night, actor=director, envelopes=[[2_000, 1], [1_000, 2], [500, 2]])
    bust(floor, night, 5, 1)
    for t in (pko, night):
        snapshot = lobby_snapshot(t)
        assert snapshot["bounties"]["heads"] or snapshot["bounties"]["last_envelope"]["names"]
        check("seat-socket (snapshot)", snapshot, fields)
        for number in Entry.objects.filter(tournament=t).values_list("number", flat=True):
            check("api-public-seat", seat(t, number), fields)


def test_a_payment_at_the_cage_reaches_the_players_seat_answer_and_its_push_names_him(director, cashier, floor, template):
    """What is left to collect of his bounties, and his prize once paid: the payment names his entry (its seat answer is
    read again, its push reaches his page: live/fanout.for_entries), and a voided payment brings it back."""
    from live.fanout import for_entries
    from payouts.services import bounty_cage
    from payouts.services import structure as payouts_services
    from tests.payouts.test_bounties import signature
    from tournament.models import AuditEvent

    t = bounty_night(director, cashier, template, "progressive", players=4)
    client = APIClient()
    bust(floor, t, 4, 1)
    first = client.get(f"/api/public/tournaments/{t.pk}/seats/1/")
    assert first.json()["bounty"]["owed"] == 5_000 and first.json()["prize_paid"] is False
    payment = bounty_cage.pay_bounties(entry(t, 1), actor=cashier, document=id_doc("EA0000000"), signature=signature())
    event = AuditEvent.objects.filter(tournament=t, type="bounty.paid").get()
    assert for_entries({"kind": "event", "type": event.type, "entries": event.payload["entries"]}) == [1]
    again = client.get(f"/api/public/tournaments/{t.pk}/seats/1/", HTTP_IF_NONE_MATCH=first["ETag"])
    assert again.status_code == 200 and again.json()["bounty"] == {"head": 15_000, "won": 5_000, "owed": 0, "knockouts": 1}
    bounty_cage.void_bounty_payment(payment, actor=cashier, reason="wrong player paid")
    assert client.get(f"/api/public/tournaments/{t.pk}/seats/1/").json()["bounty"]["owed"] == 5_000
    bust(floor, t, 3, 1)
    bust(floor, t, 2, 1)  # play over: #1 wins
    won = client.get(f"/api/public/tournaments/{t.pk}/seats/1/")
    assert won.json()["prize"] > 0 and won.json()["prize_paid"] is False
    payouts_services.pay_prize(entry(t, 1), actor=cashier, document=id_doc("EA0000000"), signature=signature())
    event = AuditEvent.objects.filter(tournament=t, type="payout.paid").get()
    assert for_entries({"kind": "event", "type": event.type, "entries": event.payload["entries"]}) == [1]
    paid = client.get(f"/api/public/tournaments/{t.pk}/seats/1/", HTTP_IF_NONE_MATCH=won["ETag"])
    assert paid.status_code == 200 and paid.json()["prize_paid"] is True and paid.json()["prize"] == won.json()["prize"]
    assert client.get(f"/api/public/tournaments/{t.pk}/seats/2/").json()["prize_paid"] is False
