"""The waiting list of a sold-out tournament (tournament/services/waiting_list.py): past the maximum entries or the seats
of a fixed room a player joins the list with his ID checked; seats that open go to the alternates in the list's order by
the late-entry draw; a no-show loses his turn after the house's minutes; the money follows the house's rule."""

from __future__ import annotations

from datetime import date, timedelta

from django.utils import timezone

from tables.models import Seat
from tables.selectors.state import live_seats
from tables.services import busts
from tests.helpers import fixed_room, id_doc, refused, register
from tournament.models import AuditEvent, Entry, Purchase, Tournament, WaitingPlace
from tournament.selectors import waiting_list as sel
from tournament.selectors.stats import tournament_stats
from tournament.services import registration, waiting_list
from venues.services import setup as venue_setup

__all__ = ["fixed_room"]  # the web and browser tests build the same room

State = WaitingPlace.State


def newcomer(cashier, i: int):
    return registration.create_player(actor=cashier, first_name=f"W{i}", last_name="Waiting", date_of_birth=date(1991, 2, 3))


def join(cashier, t, i: int) -> WaitingPlace:
    return waiting_list.join(t, actor=cashier, player=newcomer(cashier, i), document=id_doc(f"WL{i:07d}"))


def settle(t: Tournament, **fields) -> Tournament:
    Tournament.objects.filter(pk=t.pk).update(**fields)
    return Tournament.objects.get(pk=t.pk)


def test_a_full_room_sends_the_next_player_to_the_list_with_his_id_checked_and_his_money_taken(cashier, sold_out_room):
    t = sold_out_room
    assert sel.capacity(t).items() >= {"seats": 12, "in_play": 12, "full": True, "sold_out": True}.items()
    player = newcomer(cashier, 1)
    error = refused("sold_out", registration.register_entry, t, actor=cashier, player=player, document=id_doc("WL0000001"))
    assert error.status == 409 and "waiting list" in error.message
    refused("id_check_missing", waiting_list.join, t, actor=cashier, player=player, document=None)
    place = waiting_list.join(t, actor=cashier, player=player, document=id_doc("WL0000001"))
    assert (place.number, place.state, place.paid, place.id_check.number_last4) == (1, "waiting", t.buy_in + t.fee, "0001")
    event = AuditEvent.objects.get(tournament=t, type="waiting.joined")
    assert event.payload["alternate"] == 1 and event.payload["position"] == 1 and event.payload["paid"] == t.buy_in + t.fee
    second = refused("already_waiting", waiting_list.join, t, actor=cashier, player=player, document=id_doc("WL0000001"))
    assert "alternate 1" in second.message and WaitingPlace.objects.count() == 1
    assert sel.position_of(join(cashier, t, 2)) == 2
    assert Entry.objects.filter(tournament=t).count() == 12  # nobody entered past the seats


def test_a_bust_seats_the_first_alternate_by_the_late_draw_and_the_event_names_him(floor, cashier, sold_out_room):
    t = sold_out_room
    first, second = join(cashier, t, 1), join(cashier, t, 2)
    out = live_seats(t).select_related("table").first()
    busts.bust_entry(out.entry, actor=floor)
    first.refresh_from_db()
    second.refresh_from_db()
    assert (first.state, second.state, sel.position_of(second)) == ("offered", "waiting", 1)
    seat = Seat.objects.get(entry=first.entry, ended_at__isnull=True)
    assert (seat.table.number, seat.seat) == (out.table.number, out.seat)  # the one seat open
    registered = AuditEvent.objects.get(tournament=t, type="entry.registered", payload__alternate=1)
    assert registered.payload["table"] == out.table.number and registered.payload["seat"] == out.seat
    assert registered.payload["position"] in ("big_blind", "small_blind", "button", "wait_for_button", "in_play", "unknown")
    assert registered.payload["entries"] == [first.entry.number] and registered.payload["alternate"] == 1
    draw = AuditEvent.objects.filter(tournament=t, type="seating.drawn", payload__kind="late").last()
    assert draw.payload["entries"] == [first.entry.number]  # the late-entry draw, verifiable like any other
    receipt = first.entry.purchases.get()
    assert receipt.status == Purchase.Status.PAID and receipt.total == first.paid  # paid when he joined
    waiting_list.seat(first, actor=cashier)
    first.refresh_from_db()
    assert first.state == "seated" and sel.capacity(t)["waiting"] == 1


def test_an_alternate_who_does_not_sit_down_in_time_loses_his_turn_and_the_seat_goes_to_the_next(floor, cashier, sold_out_room):
    t = settle(sold_out_room, alternate_minutes=5)
    first, second = join(cashier, t, 1), join(cashier, t, 2)
    busts.bust_entry(live_seats(t).first().entry, actor=floor)
    first.refresh_from_db()
    assert waiting_list.pass_over_due(first.offered_at + timedelta(minutes=4)) == 0  # still in time
    done = waiting_list.pass_over_due(first.offered_at + timedelta(minutes=5))
    assert done == 2  # passed over, and the seat offered to the next
    first.refresh_from_db()
    second.refresh_from_db()
    assert (first.state, first.refund, second.state) == ("passed", first.paid, "offered")
    assert first.entry.status == Entry.Status.VOIDED and not Seat.objects.filter(entry=first.entry, ended_at__isnull=True).exists()
    assert Seat.objects.filter(entry=second.entry, ended_at__isnull=True).exists()
    assert AuditEvent.objects.get(tournament=t, type="waiting.passed").payload["refund"] == first.paid
    assert waiting_list.pass_over_due(timezone.now()) == 0  # idempotent: nothing more is due


def test_the_house_that_keeps_a_no_shows_money_keeps_it(floor, cashier, sold_out_room):
    t = settle(sold_out_room, no_show_money="kept")
    first = join(cashier, t, 1)
    busts.bust_entry(live_seats(t).first().entry, actor=floor)
    first.refresh_from_db()
    waiting_list.pass_over_due(first.offered_at + timedelta(minutes=t.alternate_minutes))
    first.refresh_from_db()
    receipt = first.entry.purchases.get()
    assert (first.state, first.refund, receipt.status, receipt.refund_amount) == ("passed", 0, "voided", 0)


def test_paid_at_the_seat_the_buy_in_counts_only_once_he_sits_down(floor, cashier, sold_out_room):
    t = settle(sold_out_room, waiting_payment="on_seating")
    first = join(cashier, t, 1)
    assert first.paid == 0
    pool = tournament_stats(t)["collected"]
    busts.bust_entry(live_seats(t).first().entry, actor=floor)
    first.refresh_from_db()
    assert first.entry.purchases.get().status == Purchase.Status.ANNOUNCED
    assert tournament_stats(t)["collected"] == pool
    waiting_list.seat(first, actor=cashier)
    assert first.entry.purchases.get().status == Purchase.Status.PAID
    assert tournament_stats(t)["collected"] == pool + t.buy_in
    assert AuditEvent.objects.get(tournament=t, type="waiting.seated").payload["paid"] == t.buy_in + t.fee


def test_a_place_taken_off_the_list_gets_its_money_back_and_an_offer_declined_frees_the_seat(floor, cashier, sold_out_room):
    t = sold_out_room
    first, second, third = join(cashier, t, 1), join(cashier, t, 2), join(cashier, t, 3)
    refused("reason_missing", waiting_list.cancel, second, actor=cashier, reason=" ")
    waiting_list.cancel(second, actor=cashier, reason="went home")
    second.refresh_from_db()
    assert (second.state, second.refund) == ("cancelled", second.paid)
    busts.bust_entry(live_seats(t).first().entry, actor=floor)
    first.refresh_from_db()
    assert first.state == "offered"
    waiting_list.cancel(first, actor=cashier, reason="plays the cash game instead")
    first.refresh_from_db()
    third.refresh_from_db()
    assert (first.state, first.refund, first.entry.status) == ("cancelled", first.paid, "voided")
    assert third.state == "offered"  # the seat he declined went on down the list
    refused("not_on_the_list", waiting_list.cancel, first, actor=cashier, reason="again")


def test_the_floor_seats_by_hand_only_where_a_seat_is_open(director, floor, cashier, sold_out_room):
    t = sold_out_room
    refused("nobody_waiting", waiting_list.offer_next, t, actor=floor)
    join(cashier, t, 1)
    error = refused("room_full", waiting_list.offer_next, t, actor=floor)
    assert error.status == 409 and WaitingPlace.objects.get().state == "waiting"
    refused("bad_count", waiting_list.offer_next, t, actor=floor, count=0)
    refused("forbidden", waiting_list.offer_next, t, actor=cashier)
    venue_setup.add_table(venue_setup.default_venue(), actor=director, number=3, seats=6)  # the room gets a table
    assert [p.number for p in waiting_list.offer_next(t, actor=floor)] == [1]
    assert Seat.objects.get(entry=WaitingPlace.objects.get().entry, ended_at__isnull=True).table.number == 3


def test_the_maximum_entries_send_players_to_the_list_and_a_void_lets_the_next_in(director, cashier, tournament):
    t = settle(tournament, max_entries=3)
    entries = register(cashier, t, 3)
    refused("sold_out", registration.register_entry, t, actor=cashier, player=newcomer(cashier, 9), document=id_doc("WL0000009"))
    place = join(cashier, t, 1)
    assert sel.capacity(t).items() >= {"max_entries": 3, "seats": None, "entries": 3, "waiting": 1, "sold_out": True}.items()
    registration.void_purchase(entries[0].purchases.get(), actor=cashier, reason="wrong tournament")
    waiting_list.pass_over_due()
    place.refresh_from_db()
    assert place.state == "offered" and place.entry.status == "active"  # before the start draw: seated by it
    assert Entry.objects.filter(tournament=t).exclude(status="voided").count() == 3


def test_a_tournament_with_seats_takes_no_one_on_its_list(cashier, tournament):
    t = settle(tournament, max_entries=50)
    register(cashier, t, 2)
    refused("not_sold_out", join, cashier, t, 1)
    assert not sel.sold_out(t) and not WaitingPlace.objects.exists()


def test_a_re_entry_joins_the_same_list_in_order(floor, cashier, sold_out_room):
    t = settle(sold_out_room, reentry_allowed=True)
    first = join(cashier, t, 1)
    out = live_seats(t).select_related("entry__player").first().entry
    busts.bust_entry(out, actor=floor)  # the seat goes to alternate 1
    again = waiting_list.join(t, actor=cashier, player=out.player, document=id_doc(f"EA{int(out.player.first_name[1:]):07d}"))
    assert (again.number, again.reentry, sel.position_of(again)) == (2, True, 1)
    first.refresh_from_db()
    busts.bust_entry(first.entry, actor=floor)
    again.refresh_from_db()
    assert again.state == "offered" and again.entry.kind == Entry.Kind.REENTRY


def test_the_cage_sees_the_buy_ins_it_holds_for_the_list(cashier, sold_out_room):
    from payouts.selectors.reconciliation import reconciliation

    t = sold_out_room
    before = reconciliation(t)
    join(cashier, t, 1)
    second = join(cashier, t, 2)
    waiting_list.cancel(second, actor=cashier, reason="went home")
    after = reconciliation(t)
    assert after["waiting_list"] == {"places": 1, "held": t.buy_in + t.fee} and before["waiting_list"] == {"places": 0, "held": 0}
    assert after["cage"] == before["cage"] and after["balance"] == 0  # the deposits are not the tournament's money yet


def test_the_embedded_ticker_and_celery_beat_both_run_the_sweep(floor, cashier, sold_out_room, settings, monkeypatch):
    from clock import ticker
    from tournament.tasks import sweep_waiting_lists

    monkeypatch.setattr(ticker, "close_old_connections", lambda: None)
    monkeypatch.setattr("django.db.connection.close", lambda: None)  # keep the test transaction open
    assert settings.CELERY_BEAT_SCHEDULE["waiting-list-sweep"]["task"] == sweep_waiting_lists.name
    t = sold_out_room
    first, second = join(cashier, t, 1), join(cashier, t, 2)
    busts.bust_entry(live_seats(t).first().entry, actor=floor)
    WaitingPlace.objects.filter(pk=first.pk).update(offered_at=timezone.now() - timedelta(minutes=t.alternate_minutes + 1))
    ticker.tick_once(sweep=False)
    assert WaitingPlace.objects.get(pk=first.pk).state == "offered"  # only every SWEEP_EVERY ticks
    ticker.tick_once(sweep=True)
    assert WaitingPlace.objects.get(pk=first.pk).state == "passed" and WaitingPlace.objects.get(pk=second.pk).state == "offered"
    assert sweep_waiting_lists.apply().get() == 0  # idempotent: nothing more is due


def test_an_alternate_who_busts_before_the_desk_saw_him_sit_played_and_one_voided_leaves_the_list(floor, cashier, sold_out_room):
    t = sold_out_room
    first, second = join(cashier, t, 1), join(cashier, t, 2)
    busts.bust_entry(live_seats(t).exclude(entry__waiting_place__isnull=False).first().entry, actor=floor)
    first.refresh_from_db()
    busts.bust_entry(first.entry, actor=floor)  # he sat down and played: nobody pressed "Sat down"
    first.refresh_from_db()
    second.refresh_from_db()
    assert (first.state, second.state) == ("seated", "offered")  # his seat went to the next
    assert AuditEvent.objects.filter(tournament=t, type="waiting.seated", payload__played=True).count() == 1
    third = join(cashier, t, 3)
    assert waiting_list.pass_over_due(timezone.now() + timedelta(hours=1)) == 2  # the one still offered, and his seat to the next
    third.refresh_from_db()
    assert third.state == "offered"
    registration.void_purchase(third.entry.purchases.get(), actor=cashier, reason="wrong event")
    third.refresh_from_db()
    assert (third.state, third.refund, third.close_reason) == ("cancelled", third.paid, "wrong event")
    assert waiting_list.pass_over_due(timezone.now() + timedelta(hours=1)) == 0  # nothing left offered: no error either


def test_a_passed_over_alternates_seat_page_says_his_entry_was_voided(client, floor, cashier, sold_out_room):
    t = sold_out_room
    first = join(cashier, t, 1)
    busts.bust_entry(live_seats(t).first().entry, actor=floor)
    first.refresh_from_db()
    waiting_list.pass_over_due(timezone.now() + timedelta(minutes=t.alternate_minutes))
    page = client.get(f"/s/{t.pk}/{first.entry.number}/")
    assert page.status_code == 404 and "was voided" in page.content.decode() and "Ask the desk" in page.content.decode()
    assert "There is no entry" in client.get(f"/s/{t.pk}/999/").content.decode()
