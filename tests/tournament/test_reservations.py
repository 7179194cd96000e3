"""Places reserved from the players' phones (tournament/services/reservations.py): a name and a contact hold a place
before the start, up to the house's cap and never past the seats; the desk claims it with the player's ID checked and
his buy-in taken; unclaimed ones expire at the house's time and their places go to the waiting list."""

from __future__ import annotations

from datetime import date, timedelta
from random import Random

from django.test import override_settings
from django.utils import timezone

from tables.services import draws
from tests.helpers import fixed_room, id_doc, refused, register
from tournament.models import AuditEvent, Entry, Purchase, Reservation, Tournament, WaitingPlace
from tournament.rules import reservations as rr
from tournament.selectors import waiting_list as waiting_sel
from tournament.services import registration, reservations, waiting_list

State = Reservation.State


def settle(t: Tournament, **fields) -> Tournament:
    Tournament.objects.filter(pk=t.pk).update(**fields)
    return Tournament.objects.get(pk=t.pk)


def reserve(t, i: int, *, device: str = "", address: str = "10.0.0.1", contact: str = ""):
    return reservations.reserve(
        t, name=f"Rita Reserved{i}", contact=contact or f"+420 777 000 {i:03d}", device=device or f"phone-{i}", address=address
    )


def newcomer(cashier, i: int):
    return registration.create_player(actor=cashier, first_name=f"R{i}", last_name="Claimer", date_of_birth=date(1990, 3, 4))


def test_a_reservation_holds_a_place_the_desk_claims_with_the_id_checked_and_the_buy_in_taken(cashier, open_event):
    t = settle(open_event, max_entries=3)
    register(cashier, t, 2)
    reservation, code = reserve(t, 1)
    assert (reservation.number, reservation.state, len(code)) == (1, "held", rr.CODE_LENGTH)
    assert reservation.code_hash != code and code not in str(AuditEvent.objects.filter(type="reservation.made").values("payload"))
    made = AuditEvent.objects.get(tournament=t, type="reservation.made")
    assert made.payload["reservation"] == 1 and "contact" not in made.payload and made.actor_label == reservations.PHONE
    # Its place is held: the tournament (3 at most) is full with two entries and one reservation.
    assert waiting_sel.capacity(t).items() >= {"entries": 2, "reserved": 1, "full": True, "sold_out": True}.items()
    refused("sold_out", registration.register_entry, t, actor=cashier, player=newcomer(cashier, 9), document=id_doc("RS9000009"))
    late, _code = reserve(t, 2)  # made sold out: it holds no place
    assert not late.holds_place and waiting_sel.capacity(t)["reserved"] == 1
    # The desk claims it: the same checks as a registration, nothing changed by a refusal.
    player = newcomer(cashier, 1)
    refused("id_check_missing", reservations.claim, reservation, actor=cashier, player=player, document=None)
    reservation.refresh_from_db()
    assert reservation.state == "held" and not Entry.objects.filter(player=player).exists()
    entry = reservations.claim(reservation, actor=cashier, player=player, document=id_doc("RS1000001"))
    reservation.refresh_from_db()
    assert (reservation.state, reservation.entry, reservation.closed_by) == ("claimed", entry, cashier)
    receipt = entry.purchases.get()
    assert receipt.status == Purchase.Status.PAID and receipt.total == t.buy_in + t.fee
    registered = AuditEvent.objects.get(tournament=t, type="entry.registered", payload__entry=entry.number)
    assert registered.payload["reservation"] == 1
    assert waiting_sel.capacity(t).items() >= {"entries": 3, "reserved": 0, "full": True}.items()
    # The one made sold out: its claim puts the player on the waiting list while the tournament is full.
    place = reservations.claim(late, actor=cashier, player=newcomer(cashier, 3), document=id_doc("RS3000033"))
    assert isinstance(place, WaitingPlace) and place.number == 1 and Reservation.objects.get(pk=late.pk).waiting_place == place
    joined = AuditEvent.objects.get(tournament=t, type="waiting.joined")
    assert joined.payload["reservation"] == 2 and joined.payload["alternate"] == 1
    again = refused(
        "reservation_not_held", reservations.claim, reservation, actor=cashier, player=newcomer(cashier, 2), document=id_doc("RS2000002")
    )
    assert again.status == 409 and "R-1" in again.message


def test_a_new_player_claims_his_reservation_in_one_step_and_a_refusal_keeps_no_record_of_him(cashier, open_event):
    reservation, _code = reserve(open_event, 1)
    fields = {"first_name": "Nova", "last_name": "Claim", "date_of_birth": date(2010, 1, 1)}
    refused("under_age", reservations.claim_new_player, reservation, actor=cashier, document=id_doc("RS3000003"), **fields)
    assert not registration.Player.objects.filter(first_name="Nova").exists()
    entry = reservations.claim_new_player(
        reservation, actor=cashier, document=id_doc("RS3000003"), **{**fields, "date_of_birth": date(1990, 1, 1)}
    )
    assert entry.player.first_name == "Nova" and Reservation.objects.get(pk=reservation.pk).state == "claimed"


def test_the_cap_one_place_per_contact_and_a_phones_number_are_kept(cashier, open_event):
    t = settle(open_event, reservation_cap=3)
    reserve(t, 1, device="phone-A")
    dup = refused("already_reserved", reserve, t, 2, contact="+420777000001")  # the same number, written otherwise
    assert dup.status == 409
    reserve(t, 2, device="phone-A")
    assert refused("device_limit", reserve, t, 3, device="phone-A").status == 429  # two per phone
    reserve(t, 3, device="phone-B")
    cap = refused("reservation_cap", reserve, t, 4, device="phone-C")
    assert cap.status == 409 and "3" in cap.message
    assert Reservation.objects.filter(tournament=t).count() == 3
    with override_settings(RESERVATIONS_PER_ADDRESS=3):
        t = settle(t, reservation_cap=10)
        assert refused("address_limit", reserve, t, 5, device="phone-D").status == 429  # three from 10.0.0.1
        reserve(t, 5, device="phone-D", address="10.0.0.2")


def test_bad_input_and_a_closed_event_are_refused_and_change_nothing(cashier, open_event):
    for name, contact, code in (
        ("", "+420777000001", "name_missing"),
        ("1234", "+420777000001", "name_missing"),
        ("R" * 121, "+420777000001", "name_long"),
        ("Rita Reserved", "", "contact_missing"),
        ("Rita Reserved", "call me", "contact_bad"),
        ("Rita Reserved", "rita@", "contact_bad"),
        ("Rita Reserved", "12 34", "contact_bad"),
    ):
        assert refused(code, reservations.reserve, open_event, name=name, contact=contact, device="d", address="a").status == 400
    off = settle(open_event, reservation_cap=0)
    refused("reservations_off", reserve, off, 1)
    started = settle(open_event, reservation_cap=5, start_at=timezone.now() - timedelta(minutes=1))
    refused("reservations_closed", reserve, started, 1)
    running = settle(open_event, start_at=timezone.now() + timedelta(days=1), status=Tournament.Status.RUNNING)
    refused("reservations_closed", reserve, running, 1)
    early = settle(open_event, status=Tournament.Status.SETUP, reservations_until=timezone.now() - timedelta(minutes=1))
    refused("reservations_closed", reserve, early, 1)
    assert not Reservation.objects.exists() and not AuditEvent.objects.filter(type__startswith="reservation.").exists()


def test_the_desk_and_the_player_cancel_and_the_place_is_free_again(cashier, open_event):
    t = settle(open_event, max_entries=2)
    first, code = reserve(t, 1)
    second, _code = reserve(t, 2)
    assert waiting_sel.capacity(t)["full"]
    refused("reason_missing", reservations.cancel, first, actor=cashier, reason=" ")
    refused("forbidden", reservations.cancel, first, actor=None, reason="phoned")
    reservations.cancel(first, actor=cashier, reason="phoned to cancel")
    event = AuditEvent.objects.get(type="reservation.cancelled", payload__reservation=1)
    assert event.payload["reason"] == "phoned to cancel" and event.actor == cashier
    assert not waiting_sel.capacity(t)["full"]
    refused("reservation_not_held", reservations.cancel, first, actor=cashier, reason="again")
    refused("not_found", lambda: reservations.cancel_by_code(t, code="NOTACODE"))
    reservations.cancel_by_code(t, code=_code.lower()[:4] + "-" + _code[4:])  # typed as shown, in any case
    assert Reservation.objects.get(pk=second.pk).state == "cancelled"
    assert code  # the first's code still shows it (cancelled): the player's page reads it


def test_unclaimed_reservations_expire_at_the_houses_time_and_their_places_go_to_the_waiting_list(director, cashier, tournament):
    fixed_room(director, [1, 2])  # twelve seats
    until = timezone.now() + timedelta(hours=1)
    t = settle(tournament, start_at=timezone.now() + timedelta(hours=2), reservation_cap=5, reservations_until=until)
    register(cashier, t, 10)
    kept, _ = reserve(t, 1)
    reserve(t, 2)
    assert waiting_sel.capacity(t)["full"]
    draws.draw_start(t, actor=director)  # the event starts: reserving is over, claiming goes on until the house's time
    refused("reservations_closed", reserve, t, 3)
    walk_in = waiting_list.join(t, actor=cashier, player=newcomer(cashier, 5), document=id_doc("RS5000005"))
    entry = reservations.claim(kept, actor=cashier, player=newcomer(cashier, 6), document=id_doc("RS6000006"))
    assert reservations.expire_due(until - timedelta(seconds=1)) == 0
    assert reservations.expire_due(until) == 1
    assert reservations.expire_due(until + timedelta(minutes=5)) == 0  # idempotent
    assert list(Reservation.objects.order_by("number").values_list("state", flat=True)) == ["claimed", "expired"]
    expired = AuditEvent.objects.get(tournament=t, type="reservation.expired")
    assert expired.payload == {"reservations": [2], "count": 1}
    walk_in.refresh_from_db()
    assert walk_in.state == WaitingPlace.State.OFFERED  # the place the expired one held
    assert Entry.objects.filter(tournament=t, status=Entry.Status.ACTIVE).count() == 12 and entry.status == Entry.Status.ACTIVE


def test_the_rules_fold_contacts_and_make_codes_read_aloud_without_doubt():
    assert rr.clean_contact(" +420 777 123 456 ")[1] == rr.clean_contact("+420777123456")[1] == rr.clean_contact("420-777-123-456")[1]
    assert rr.clean_contact("Rita@Example.CZ") == ("Rita@Example.CZ", "rita@example.cz")
    assert rr.clean_name("  Rita   Nová ") == "Rita Nová"
    code = rr.new_code(Random(1))
    assert len(code) == 8 and set(code) <= set(rr.CODE_ALPHABET) and not set(code) & set("01OIL")
    assert rr.shown_code("ABCD2345") == "ABCD-2345"
