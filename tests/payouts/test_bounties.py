"""Bounty events through the services: the buy-in's bounty, a bust naming its eliminators, PKO heads, split pots, undo
and corrections, a disqualified head, the cage paying bounties, and mystery envelopes drawn verifiably."""

from __future__ import annotations

import hashlib

import pytest

from payouts.models import BountyAward, BountyPayment
from payouts.rules import bounties as b
from payouts.selectors import bounties as sel
from payouts.services import bounties, bounty_cage
from tables.models import Draw, Elimination, Table
from tables.rules.seating import SeedStream
from tables.selectors.state import seat_of
from tables.services import busts, draws, eliminations
from tests.conftest import tournament_data
from tests.helpers import id_doc, open_tables, refused, register
from tests.payouts.test_payments import signature
from tournament.models import Entry, Purchase
from tournament.selectors.stats import tournament_stats
from tournament.services import registration, setup


def bounty_night(director, cashier, template, fmt: str, players: int = 6, bounty: int = 10_000, table: int = 1, tables: int = 1, **rules):
    """A bounty event at one table of nine (5,000 to the pool, the bounty, 1,000 fee), `players` entries drawn and the
    button drawn."""
    t = setup.create_tournament(
        tournament_data(name=f"{fmt} night", buy_in=5_000, fee=1_000, bounty_format=fmt, bounty=bounty, guaranteed_pool=0),
        actor=director,
        template=template,
    )
    if rules:
        bounties.set_bounty_rules(t, actor=director, data=rules)
    numbers = list(range(table, table + tables))
    open_tables(director, t, numbers)
    register(cashier, t, players, start=100 * (table - 1))
    draws.draw_start(t, actor=director)
    for n in numbers:
        draws.draw_button(Table.objects.get(tournament=t, number=n), actor=director)
    return t


def entry(t, number: int) -> Entry:
    return Entry.objects.get(tournament=t, number=number)


def bust(floor, t, number: int, *by: int, **kw):
    return busts.bust_entry(entry(t, number), actor=floor, eliminators=list(by), **kw)


def cash_won(t) -> dict[int, int]:
    return {n: row["won"] for n, row in sel.won_by_entry(t).items()}


def adds_up(t):
    money = sel.money(t)
    assert money["adds_up"], money
    assert money["in_play"] + money["paid"] + money["owed"] + money["forfeited"] + money["to_pool"] == money["taken_in"]
    return money


def test_a_buy_in_pays_its_bounty_apart_from_the_pool_and_a_re_entry_buys_a_new_head(director, cashier, floor, template):
    t = bounty_night(director, cashier, template, "knockout", players=3)
    p = Purchase.objects.get(tournament=t, entry__number=1)
    assert (p.amount, p.bounty, p.fee, p.total) == (5_000, 10_000, 1_000, 16_000)
    assert tournament_stats(t)["prize_pool"] == 15_000  # three buy-ins' prize parts: the bounties are apart
    bust(floor, t, 3, 1)
    again = registration.register_entry(t, actor=cashier, player=entry(t, 3).player, document=id_doc("EA0000002"))
    assert again.purchases.get().bounty == 10_000
    assert sel.heads(t) == {1: 10_000, 2: 10_000, 4: 10_000}
    assert adds_up(t)["taken_in"] == 40_000


def test_the_format_is_fixed_once_registration_opens_and_a_bounty_event_needs_its_bounty(director, cashier, template):
    t = setup.create_tournament(tournament_data(buy_in=5_000, bounty_format="none"), actor=director, template=template)
    refused("tournament_invalid", setup.update_tournament, t, actor=director, data={"bounty_format": "progressive"})
    refused("tournament_invalid", setup.update_tournament, t, actor=director, data={"bounty": 5_000})
    setup.update_tournament(t, actor=director, data={"bounty_format": "progressive", "bounty": 5_000})
    register(cashier, t, 1)
    e = refused("bounty_locked", setup.update_tournament, t, actor=director, data={"bounty_format": "knockout"})
    assert e.status == 409
    refused("bounty_locked", setup.update_tournament, t, actor=director, data={"bounty": 6_000})


def test_a_bounty_bust_names_a_winner_at_the_table_and_bad_eliminators_change_nothing(director, cashier, floor, template):
    t = bounty_night(director, cashier, template, "knockout", players=12, tables=2)
    at_1 = sorted(n for n in range(1, 13) if seat_of(entry(t, n)).table.number == seat_of(entry(t, 1)).table.number)
    elsewhere = next(n for n in range(1, 13) if n not in at_1)
    refused("eliminator_not_at_table", bust, floor, t, 1, elsewhere)
    empty = next(s for s in range(1, 10) if s not in {seat_of(entry(t, n)).seat for n in at_1})
    refused("eliminator_not_at_table", busts.bust_entry, entry(t, 1), actor=floor, eliminator_seats=[empty])
    refused("eliminator_required", bust, floor, t, 1)
    refused("eliminator_is_busted", bust, floor, t, 1, 1)
    refused("eliminator_not_at_table", bust, floor, t, 1, 99)
    refused("bad_eliminators", busts.bust_entry, entry(t, 1), actor=floor, eliminators=["x"])
    refused("bad_eliminators", busts.bust_entry, entry(t, 1), actor=floor, eliminators=[2, 2])
    refused("bad_eliminators", busts.bust_entry, entry(t, 1), actor=floor, eliminators=[2], eliminator_seats=[3])
    a, c, d = at_1[1], at_1[2], at_1[3]
    bust(floor, t, a, c)
    refused("eliminator_not_at_table", bust, floor, t, 1, a)  # out himself
    assert entry(t, 1).status == Entry.Status.ACTIVE and Elimination.objects.filter(tournament=t).count() == 1
    # by seat: the seat that won the pot
    busts.bust_entry(entry(t, 1), actor=floor, eliminator_seats=[seat_of(entry(t, d)).seat])
    assert cash_won(t) == {c: 10_000, d: 10_000}
    adds_up(t)


def test_a_pko_night_heads_grow_cash_is_paid_in_the_increment_and_the_winner_takes_his_own_head(director, cashier, floor, template):
    t = bounty_night(director, cashier, template, "progressive", players=4, increment=2_500)
    bust(floor, t, 4, 1)  # 10,000: 5,000 cash, 5,000 onto #1
    assert sel.heads(t) == {1: 15_000, 2: 10_000, 3: 10_000}
    bust(floor, t, 1, 2)  # 15,000: 7,500 cash, 7,500 onto #2
    assert sel.heads(t)[2] == 17_500 and cash_won(t) == {1: 5_000, 2: 7_500}
    bust(floor, t, 3, 2)  # 10,000: 5,000 cash; play is over: #2 takes his own head, 22,500
    assert cash_won(t) == {1: 5_000, 2: 7_500 + 5_000 + 22_500}
    money = adds_up(t)
    assert (money["in_play"], money["owed"], money["taken_in"]) == (0, 40_000, 40_000)
    assert BountyAward.objects.filter(tournament=t, kind="own", winner__number=2, cash=22_500).exists()


def test_several_out_in_one_hand_each_credited_in_order_and_a_split_pot_shares_the_odd_unit_from_the_button(
    director, cashier, floor, template
):
    t = bounty_night(director, cashier, template, "progressive", players=6, increment=1_000)
    # two players out in one hand, both to #1: his head grows with the first before the second is paid
    bust(floor, t, 5, 1, stack=1_000)
    bust(floor, t, 6, 1, stack=2_000)
    assert sel.heads(t)[1] == 20_000 and cash_won(t) == {1: 10_000}
    # a split pot: 10,000 head, 5,000 cash shared in 1,000s among three, the odd 1,000 to the first left of the button
    table = Table.objects.get(tournament=t, number=1)
    seats = {n: seat_of(entry(t, n)).seat for n in (2, 3, 4)}
    bust(floor, t, 1, 2, 3, 4)
    first = min(seats, key=lambda n: (seats[n] - table.button_seat - 1) % 100)
    got = {a.winner.number: a.cash for a in BountyAward.objects.filter(tournament=t, busted__number=1)}
    assert sum(got.values()) == 10_000 and got[first] == 4_000 and sorted(got.values()) == [3_000, 3_000, 4_000]
    adds_up(t)


def test_an_undone_bust_takes_back_every_transfer_made_of_it_and_a_paid_bounty_holds_it(director, cashier, floor, template):
    t = bounty_night(director, cashier, template, "progressive", players=4)
    bust(floor, t, 4, 1)  # #1: head 15,000
    bust(floor, t, 1, 2)  # #2 takes 7,500 in cash, 7,500 on his head
    payment = bounty_cage.pay_bounties(entry(t, 2), actor=cashier, document=id_doc("EA0000001"), signature=signature())
    assert payment.amount == 7_500 and payment.number == 1
    e = refused("bounty_paid", busts.undo_bust, entry(t, 4), actor=floor)  # #1's head would shrink, and #2's cash
    assert e.details["payment"] == 1 and entry(t, 4).status == Entry.Status.BUSTED
    bounty_cage.void_bounty_payment(payment, actor=cashier, reason="the bust of #4 was a mistake")
    busts.undo_bust(entry(t, 4), actor=floor)
    assert sel.heads(t) == {2: 15_000, 3: 10_000, 4: 10_000}
    assert cash_won(t) == {2: 5_000}  # #1's head is 10,000 again: 5,000 cash
    adds_up(t)
    refused("nothing_owed", bounty_cage.pay_bounties, entry(t, 3), actor=cashier, document=id_doc("EA0000002"), signature=signature())
    refused("id_mismatch", bounty_cage.pay_bounties, entry(t, 2), actor=cashier, document=id_doc("EA0000009"), signature=signature())
    assert not BountyPayment.objects.filter(tournament=t, status="paid").exists()


def test_the_floor_corrects_the_eliminator_with_a_reason_and_everything_made_of_it_follows(director, cashier, floor, template):
    t = bounty_night(director, cashier, template, "progressive", players=4)
    bust(floor, t, 4, 1)
    bust(floor, t, 1, 2)  # #2 took #1's grown head
    refused("reason_missing", eliminations.correct_eliminators, t, actor=floor, entry_number=4, eliminators=[3], reason="")
    refused("no_eliminator", eliminations.correct_eliminators, t, actor=floor, entry_number=4, eliminators=[], reason="x")
    refused("unchanged", eliminations.correct_eliminators, t, actor=floor, entry_number=4, eliminators=[1], reason="x")
    refused("no_elimination", eliminations.correct_eliminators, t, actor=floor, entry_number=3, eliminators=[1], reason="x")
    eliminations.correct_eliminators(t, actor=floor, entry_number=4, eliminators=[3], reason="the dealer pushed the pot to seat 1")
    # #3 took #4's head; #1's head stayed 10,000, so #2 took 5,000 of it
    assert cash_won(t) == {3: 5_000, 2: 5_000}
    assert sel.heads(t) == {2: 15_000, 3: 15_000}
    assert Elimination.objects.get(tournament=t, busted__number=4, status="corrected").reason
    adds_up(t)


def test_a_disqualified_players_head_goes_to_nobody_or_to_the_prize_pool_as_the_house_sets(director, cashier, floor, template):
    from tables.services.busts import disqualify

    t = bounty_night(director, cashier, template, "knockout", players=3, disqualified_head="prize_pool")
    pool = tournament_stats(t)["prize_pool"]
    disqualify(t, actor=floor, reason="chip dumping", entry_number=3, chips=20_000)
    assert tournament_stats(t)["prize_pool"] == pool + 10_000
    money = adds_up(t)
    assert money["to_pool"] == 10_000
    t2 = bounty_night(director, cashier, template, "knockout", players=3, table=2)
    disqualify(t2, actor=floor, reason="abuse", entry_number=3, chips=20_000)
    assert adds_up(t2)["forfeited"] == 10_000


def test_collected_later_pays_once_the_player_is_out(director, cashier, floor, template):
    t = bounty_night(director, cashier, template, "knockout", players=3, cage="collected")
    bust(floor, t, 3, 1)
    refused("collected_later", bounty_cage.pay_bounties, entry(t, 1), actor=cashier, document=id_doc("EA0000000"), signature=signature())
    bust(floor, t, 1, 2)
    payment = bounty_cage.pay_bounties(entry(t, 1), actor=cashier, document=id_doc("EA0000000"), signature=signature())
    assert payment.amount == 10_000
    refused("nothing_owed", bounty_cage.pay_bounties, entry(t, 1), actor=cashier, document=id_doc("EA0000000"), signature=signature())


def test_settings_are_fixed_once_a_bounty_is_won_and_a_winner_is_not_voided(director, cashier, floor, template):
    t = bounty_night(director, cashier, template, "progressive", players=3)
    refused("unknown_setting", bounties.set_bounty_rules, t, actor=director, data={"share": 1})
    bounties.set_bounty_rules(t, actor=director, data={"cash_share_bp": 2_500})
    bust(floor, t, 3, 1)
    refused("bounty_rules_fixed", bounties.set_bounty_rules, t, actor=director, data={"cash_share_bp": 5_000})
    assert sel.bounty_rules(t).cash_share_bp == 2_500  # refused: nothing changed
    receipt = Purchase.objects.get(tournament=t, entry__number=1)
    refused("eliminator_not_voided", registration.void_purchase, receipt, actor=director, reason="wrong")
    assert Purchase.objects.get(pk=receipt.pk).status == Purchase.Status.PAID and entry(t, 1).status == Entry.Status.ACTIVE


def mystery(director, cashier, floor, template, players=5, **rules):
    t = bounty_night(director, cashier, template, "mystery", players=players, bounty=1_000, mystery_level=2, **rules)
    return t


def test_a_mystery_night_envelopes_committed_then_drawn_verifiably_and_given_back_by_an_undo(director, cashier, floor, template):
    t = mystery(director, cashier, floor, template)
    bust(floor, t, 5, 1)  # level 1: pays nothing, the bounty stays for the envelopes
    assert cash_won(t) == {}
    refused("registration_open", bounties.commit_envelopes, t, actor=director, envelopes=[[2_000, 1], [1_000, 3]])
    registration.set_registration_closed(t, actor=director, closed=True)
    e = refused("envelopes_do_not_add_up", bounties.commit_envelopes, t, actor=director, envelopes=[[2_000, 1], [1_000, 2]])
    assert e.details == {"in_play": 5_000, "players": 4, "total": 4_000, "count": 3}
    refused("bad_envelopes", bounties.commit_envelopes, t, actor=director, envelopes=[[0, 1]])
    box = bounties.commit_envelopes(t, actor=director, envelopes=[[2_000, 1], [1_000, 3]])
    assert box.list_hash == b.list_hash([(2_000, 1), (1_000, 3)])
    refused("box_committed", bounties.commit_envelopes, t, actor=director, envelopes=[[2_000, 1], [1_000, 3]])
    t.current_level = 2
    t.save(update_fields=["current_level"])
    bust(floor, t, 4, 2)
    award = BountyAward.objects.get(tournament=t, busted__number=4)
    draw = Draw.objects.get(pk=award.draw_id)
    # anyone can recompute it: the seed's hash is the commitment, and the seed over the box drew this envelope
    assert hashlib.sha256(bytes.fromhex(draw.seed)).hexdigest() == draw.commitment
    left = [tuple(x) for x in draw.inputs["box"]]
    assert b.draw_envelope(SeedStream(bytes.fromhex(draw.seed)), left) == draw.result["value"] == award.cash
    assert draw.inputs["list_hash"] == box.list_hash
    assert len(sel.box_left(t)) and b.envelopes_count(sel.box_left(t)) == 3
    busts.undo_bust(entry(t, 4), actor=floor)  # the envelope goes back into the box
    assert b.envelopes_count(sel.box_left(t)) == 4 and cash_won(t) == {}
    adds_up(t)
    bust(floor, t, 4, 2)
    bust(floor, t, 3, 1)
    assert b.envelopes_count(sel.box_left(t)) == 2
    bust(floor, t, 2, 1)  # play over: #1 draws the last envelope for his own head
    money = adds_up(t)
    assert money["in_play"] == 0 and money["owed"] == 5_000  # every envelope drawn: the winner took the last
    assert sel.box_left(t) == []


@pytest.mark.parametrize("fmt", ["knockout", "progressive", "mystery"])
def test_a_deal_that_stops_play_pays_the_heads_in_play_by_the_house_rule(director, cashier, floor, template, fmt):
    from payouts.services import structure

    t = bounty_night(director, cashier, template, fmt, players=4, deal_heads="dealt", mystery_level=1)
    registration.set_registration_closed(t, actor=director, closed=True)
    if fmt == "mystery":
        bounties.commit_envelopes(t, actor=director, envelopes=[[25_000, 1], [5_000, 3]])
    bust(floor, t, 4, 1)
    bust(floor, t, 3, 2)
    deal = structure.propose_deal(t, actor=floor, data={"kind": "chip_chop", "mode": "stop", "stacks": {"1": 60_000, "2": 20_000}})
    structure.approve_deal(deal, actor=director)
    money = adds_up(t)
    assert money["in_play"] == 0 and money["owed"] == money["taken_in"]
    assert BountyAward.objects.filter(tournament=t, kind="dealt").count() == 2


def test_the_reconciliation_shows_the_bounty_money_apart_and_adds_up(director, cashier, floor, template):
    from payouts.selectors.reconciliation import reconciliation

    t = bounty_night(director, cashier, template, "progressive", players=4, disqualified_head="prize_pool")
    from tables.services.busts import disqualify

    bust(floor, t, 4, 1)
    bounty_cage.pay_bounties(entry(t, 1), actor=cashier, document=id_doc("EA0000000"), signature=signature())
    disqualify(t, actor=floor, reason="chip dumping", entry_number=3, chips=20_000)
    figures = reconciliation(t)
    assert figures["balance"] == 0
    assert (figures["bounties_in"], figures["bounties_paid"], figures["bounties_to_pool"]) == (40_000, 5_000, 10_000)
    assert figures["bounties_in_play"] == 25_000  # #1: 15,000, #2: 10,000
    assert figures["cash_in"] == 4 * 16_000 and figures["cage"] == 4 * 16_000 - 5_000
    assert figures["overlay"] == 0 and figures["pool"] == 4 * 5_000 + 10_000
    assert figures["takings_total"]["bounty"] == 40_000


def test_a_dealer_reports_a_bust_with_its_winner_and_the_floor_confirms_or_rejects_it(director, cashier, floor, dealer, template):
    from tables.models import BustReport
    from tables.services import bust_reports, house_rules

    t = bounty_night(director, cashier, template, "knockout", players=4)
    table = Table.objects.get(tournament=t, number=1)
    seat_of_1, seat_of_2 = seat_of(entry(t, 1)).seat, seat_of(entry(t, 2)).seat
    refused("eliminator_required", bust_reports.report_bust, table, actor=floor, seat=seat_of_1, winner_seats=[])
    refused("eliminator_is_busted", bust_reports.report_bust, table, actor=floor, seat=seat_of_1, winner_seats=[seat_of_1])
    report = bust_reports.report_bust(table, actor=floor, seat=seat_of_1, winner_seats=[seat_of_2])
    assert report.status == "pending" and entry(t, 1).status == Entry.Status.ACTIVE  # waits for the floor (the default)
    refused("already_reported", bust_reports.report_bust, table, actor=floor, seat=seat_of_1, winner_seats=[seat_of_2])
    bust_reports.confirm_bust_report(t, actor=floor, number=report.number)
    assert entry(t, 1).status == Entry.Status.BUSTED and cash_won(t) == {2: 10_000}
    refused("report_decided", bust_reports.confirm_bust_report, t, actor=floor, number=report.number)
    # rejected: nothing happens; at once (the house rule): the bust is made as reported
    other = bust_reports.report_bust(table, actor=floor, seat=seat_of(entry(t, 3)).seat, winner_seats=[seat_of_2])
    refused("reason_missing", bust_reports.reject_bust_report, t, actor=floor, number=other.number, reason="")
    bust_reports.reject_bust_report(t, actor=floor, number=other.number, reason="he had chips behind")
    assert entry(t, 3).status == Entry.Status.ACTIVE and BustReport.objects.get(pk=other.pk).status == "rejected"
    house_rules.set_house_rules(t, actor=director, data={"dealer_busts": "at_once"})
    bust_reports.report_bust(table, actor=floor, seat=seat_of(entry(t, 3)).seat, winner_seats=[seat_of_2])
    assert entry(t, 3).status == Entry.Status.BUSTED and cash_won(t) == {2: 20_000}
    adds_up(t)


def test_the_dealer_tablet_reports_a_bust_through_its_link_and_the_floor_confirms_it_through_the_api(director, cashier, floor, template):
    from tables.services import dealer_links
    from tests.helpers import client_for, url

    t = bounty_night(director, cashier, template, "progressive", players=4)
    link, secret = dealer_links.create_dealer_link(Table.objects.get(tournament=t, number=1), actor=floor, label="tablet 1")
    tablet = client_for()
    tablet.credentials(HTTP_AUTHORIZATION=f"DealerLink {secret}")
    out, won = seat_of(entry(t, 1)).seat, seat_of(entry(t, 2)).seat
    missing = tablet.post(url(t, "tables/1/bust/"), {"seat": out}, format="json")
    assert missing.status_code == 400 and missing.json()["error"] == "eliminator_required"
    made = tablet.post(url(t, "tables/1/bust/"), {"seat": out, "winner_seats": [won]}, format="json")
    assert made.status_code == 201, made.content
    assert (made.json()["status"], made.json()["winners"], made.json()["reported_by"]) == (
        "pending",
        [2],
        f"dealer link {link.pk} (table 1)",
    )
    assert tablet.get(url(t, "bust-reports/")).status_code == 401  # the floor's list: the link opens nothing else
    desk = client_for(floor)
    assert [r["entry"] for r in desk.get(url(t, "bust-reports/")).json()] == [1]
    confirmed = desk.post(url(t, f"bust-reports/{made.json()['report']}/confirm/"))
    assert confirmed.status_code == 200 and confirmed.json()["status"] == "applied"
    assert entry(t, 1).status == Entry.Status.BUSTED and sel.heads(t)[2] == 15_000


def test_a_disqualified_head_goes_to_the_house_once_the_pool_is_fixed_by_a_deal(director, cashier, floor, template):
    from payouts.services import structure
    from tables.services.busts import disqualify

    t = bounty_night(director, cashier, template, "knockout", players=4, disqualified_head="prize_pool")
    registration.set_registration_closed(t, actor=director, closed=True)
    deal = structure.propose_deal(
        t, actor=floor, data={"kind": "chip_chop", "mode": "play_on", "stacks": {"1": 30_000, "2": 20_000, "3": 20_000, "4": 10_000}}
    )
    structure.approve_deal(deal, actor=director)
    pool = tournament_stats(t)["prize_pool"]
    disqualify(t, actor=floor, reason="abuse", entry_number=4, chips=10_000)
    assert tournament_stats(t)["prize_pool"] == pool  # the deal stands on the pool: the head is the house's
    money = adds_up(t)
    assert (money["forfeited"], money["to_pool"]) == (10_000, 0)
