"""Events with Day 1 flights into one Day 2 through the services (flights/services/events.py), the reactions of the desk and
the floor (flights/reactions.py) and the reads (flights/selectors/events.py): first stack forward refuses a qualified player
and changes nothing; best stack forward keeps the largest bag and lists the rest; the carry makes Day 2's chips in play
the carried bags' total; the pool is summed over the flights; a flight's bust has no place and its undo works; a flight
ends by the share of its field left; a flight pays no places; every refusal changes nothing."""

from __future__ import annotations

from datetime import UTC, date, datetime, timedelta

import pytest
from django.utils import translation

from clock.models import ClockState
from core.errors import ServiceError
from days.models import Bag
from days.selectors import bags as days_selectors
from days.services import bags as days_services
from flights.models import CarriedBag, Event, Flight
from flights.selectors import events as flights_selectors
from flights.services import events as flights_services
from payouts.selectors import structure as payout_selectors
from payouts.services import structure as payout_services
from tables.models import ChipCount
from tables.selectors.state import live_seats
from tables.services import busts, draws
from tables.services import setup as table_setup
from tests.conftest import tournament_data
from tests.helpers import id_doc, refused
from tournament.models import AuditEvent, Entry, IdCheck, Purchase, Tournament
from tournament.selectors.stats import tournament_stats
from tournament.services import registration as desk
from tournament.services import setup

STACK = 20_000  # tournament_data's starting stack
BUY_IN = 10_000  # and buy-in


def new_tournament(director, template, name: str, day: int = 0, **overrides):
    start = datetime(2026, 11, 27, 18, 0, tzinfo=UTC) + timedelta(days=day)
    return setup.create_tournament(
        tournament_data(name=name, start_at=start, guaranteed_pool=0, **overrides), actor=director, template=template
    )


def doc(player) -> desk.IdDocument:
    return id_doc(f"EB{player.pk:07d}")


def register(cashier, t, people) -> list[Entry]:
    return [desk.register_entry(t, actor=cashier, player=p, document=doc(p)) for p in people]


def event_with(director, template, policy: str = "best", flights: int = 2, day2: bool = True):
    event = flights_services.create_event(actor=director, name="Festival Main Event", policy=policy)
    out = []
    for i in range(flights):
        t = new_tournament(director, template, f"Main Event Day 1{'ABC'[i]}", day=i)
        flights_services.add_flight(event, actor=director, tournament=t, label=f"1{'abc'[i]}")
        out.append(t)
    if day2:
        flights_services.set_day2(event, actor=director, tournament=new_tournament(director, template, "Main Event Day 2", day=5))
    return Event.objects.get(pk=event.pk), out


def play_and_bag(director, cashier, floor, t, people, chips: dict[int, int], bust: tuple = ()) -> None:
    """The flight's players registered and drawn at one table; those in `bust` busted; the rest bagged with `chips`
    (player pk -> chips) and Day 1 closed."""
    table_setup.open_table(t, actor=director, number=1, seats=9)
    register(cashier, t, people)
    draws.draw_start(t, actor=director)
    for p in bust:
        busts.bust_entry(Entry.objects.get(tournament=t, player=p, status=Entry.Status.ACTIVE), actor=floor)
    seats = live_seats(t).filter(table__number=1).select_related("table", "entry")
    days_services.record_table_bags(
        seats.first().table, actor=floor, bags={s.seat: (chips[s.entry.player_id], f"{t.pk}-{s.seat}") for s in seats}
    )
    days_services.close_day(t, actor=director, reason="Flights test: counted by hand")


def snapshot(*tournaments) -> tuple:
    return (
        list(Entry.objects.filter(tournament__in=tournaments).order_by("pk").values_list("pk", "status")),
        Purchase.objects.filter(tournament__in=tournaments).count(),
        AuditEvent.objects.count(),
        CarriedBag.objects.count(),
        list(Flight.objects.order_by("pk").values_list("carried_at", flat=True)),
    )


def test_first_stack_forward_refuses_a_qualified_player_and_changes_nothing(director, cashier, floor, template, players):
    event, (a, b) = event_with(director, template, policy="first")
    play_and_bag(director, cashier, floor, a, players[:3], {p.pk: STACK for p in players[:3]})
    before = snapshot(a, b)
    error = refused("qualified_already", desk.register_entry, b, actor=cashier, player=players[0], document=doc(players[0]))
    assert error.status == 409
    assert error.message.startswith(f"{players[0].display_name} qualified in flight 1A with bag {a.pk}-")
    assert "under first stack forward he cannot play another flight" in error.message
    assert snapshot(a, b) == before and not IdCheck.objects.filter(player=players[0]).exclude(entry__tournament=a).exists()
    register(cashier, b, players[3:4])  # a player with no bag plays the next flight


def test_best_stack_forward_carries_the_largest_bag_and_lists_the_others(director, cashier, floor, template, players):
    event, (a, b) = event_with(director, template)
    day2 = event.day2
    play_and_bag(
        director,
        cashier,
        floor,
        a,
        players[:4],
        {players[0].pk: 30_000, players[1].pk: 25_000, players[2].pk: 12_000, players[3].pk: 13_000},
    )
    play_and_bag(
        director,
        cashier,
        floor,
        b,
        [players[0], players[1], players[4], players[5]],
        {players[0].pk: 10_000, players[1].pk: 25_000, players[4].pk: 40_000, players[5].pk: 5_000},
    )
    summary = flights_services.carry_to_day2(event, actor=director)
    assert (summary["carried"], summary["forfeited"]) == (6, 2)
    kept = {r["name"]: (r["flight"], r["chips"]) for r in flights_selectors.carried(event)}
    assert kept[players[0].display_name] == ("1A", 30_000) and kept[players[1].display_name] == ("1A", 25_000)  # tie: 1A
    lost = flights_selectors.forfeited(event)
    assert [(r["name"], r["flight"], r["chips"], r["day2_entry"]) for r in lost] == [
        (players[0].display_name, "1B", 10_000, None),
        (players[1].display_name, "1B", 25_000, None),
    ]
    assert all(r["bag"] for r in lost)
    carried_total = 30_000 + 25_000 + 12_000 + 13_000 + 40_000 + 5_000
    assert summary["chips"] == carried_total and summary["forfeited_chips"] == 35_000
    stats = tournament_stats(day2)
    assert stats["chips_in_play"] == carried_total and stats["players_left"] == 6
    d2 = list(Entry.objects.filter(tournament=day2).select_related("id_check").order_by("number"))
    assert [e.number for e in d2] == [1, 2, 3, 4, 5, 6] and len({e.player_id for e in d2}) == 6
    assert all(e.id_check.purpose == IdCheck.Purpose.CARRIED and e.status == Entry.Status.ACTIVE for e in d2)
    source = Entry.objects.get(tournament=a, player=players[0])
    mine = next(e for e in d2 if e.player_id == players[0].pk)
    assert (mine.id_hmac, mine.id_check.number_hmac, mine.id_check.number_last4) == (
        source.id_hmac,
        source.id_check.number_hmac,
        source.id_check.number_last4,
    )
    buys = Purchase.objects.filter(tournament=day2)
    assert set(buys.values_list("kind", "amount", "fee", "status")) == {("carried", 0, 0, "paid")}
    counts = ChipCount.objects.filter(tournament=day2, current=True)
    assert counts.count() == 6 and set(counts.values_list("source", flat=True)) == {"bag"}
    assert sorted(counts.values_list("chips", flat=True)) == sorted(buys.values_list("chips", flat=True))
    assert not live_seats(day2).exists()  # Day 2's start draw seats them
    state = flights_selectors.event_state(event)
    assert state["carried_total"] == carried_total and state["forfeited_total"] == 35_000 and state["carried"]
    assert [f["status"] for f in state["flights"]] == ["carried", "carried"]
    event_row = AuditEvent.objects.get(tournament=day2, type="flights.carried")
    assert event_row.payload["carried"] == 6 and event_row.payload["forfeited"] == 2


def test_the_pool_is_summed_over_the_flights_and_freezes_at_the_carry(director, cashier, floor, template, players):
    event, (a, b) = event_with(director, template)
    day2 = event.day2
    register(cashier, a, players[:4])
    register(cashier, b, players[2:6])
    stats = tournament_stats(day2)
    assert (stats["entries"], stats["unique_players"], stats["collected"]) == (8, 6, 8 * BUY_IN)
    assert stats["prize_pool"] == 8 * BUY_IN and stats["fees"] == 8 * 1500
    assert tournament_stats(a)["entries"] == 4 and tournament_stats(a)["prize_pool"] == 4 * BUY_IN  # its own
    state = payout_selectors.payout_state(day2)
    assert state["entries"] == 8 and state["pool"] == 8 * BUY_IN and state["state"] == payout_selectors.LIVE
    assert flights_selectors.event_state(event)["pool"]["prize_pool"] == 8 * BUY_IN


def test_carried_entries_are_not_counted_twice_and_registration_closes(director, cashier, floor, template, players):
    event, (a, b) = event_with(director, template)
    play_and_bag(director, cashier, floor, a, players[:3], {p.pk: STACK for p in players[:3]})
    play_and_bag(director, cashier, floor, b, players[3:6], {p.pk: STACK for p in players[3:6]}, bust=(players[5],))
    flights_services.carry_to_day2(event, actor=director)
    day2 = Event.objects.get(pk=event.pk).day2
    stats = tournament_stats(day2)
    assert (stats["entries"], stats["players_left"], stats["collected"]) == (6, 5, 6 * BUY_IN)
    assert day2.registration_closed and payout_selectors.payout_state(day2)["state"] == payout_selectors.FROZEN


def test_a_flight_pays_no_places_day2_does(director, cashier, floor, template, players):
    event, (a, _b) = event_with(director, template)
    register(cashier, a, players[:2])
    state = payout_selectors.payout_state(a)
    assert state["places_paid"] == 0 and state["bands"] == [] and state["reason"] == "paid_from_day2"
    assert "paid from Day 2" in state["paid_from"]["message"]
    # The figures are computed once (after a change, in the language of whoever made it) and read by everyone: they
    # carry the facts, and each reader gets the sentence in his own language.
    with translation.override("en"):
        stats = tournament_stats(a)
    assert "message" not in stats["paid_from"] and stats["paid_from"]["flight"] == "1A"
    with translation.override("cs"):
        czech = payout_selectors.payout_state(a, stats)["paid_from"]["message"]
    assert "paid from Day 2" not in czech and "1A" in czech and "Festival Main Event" in czech
    for fn, kwargs in (
        (payout_services.edit_structure, {"rows": [[1, 1, 2 * BUY_IN]]}),
        (payout_services.set_payout_plan, {"data": {"unit": 100}}),
    ):
        error = refused("paid_from_day2", fn, a, actor=director, **kwargs)
        assert error.status == 409
    assert payout_selectors.payout_state(event.day2)["reason"] != "paid_from_day2"


def test_a_flight_bust_has_no_place_and_its_undo_works(director, cashier, floor, template, players):
    _event, (a, _b) = event_with(director, template)
    table_setup.open_table(a, actor=director, number=1, seats=9)
    first, second, _third = register(cashier, a, players[:3])
    draws.draw_start(a, actor=director)
    busts.bust_entry(first, actor=floor)
    busts.bust_entry(second, actor=floor, stack=5000)
    first.refresh_from_db()
    assert (first.status, first.finish_place, first.finish_place_low) == ("busted", None, None)
    assert AuditEvent.objects.filter(tournament=a, type="entry.busted").latest("pk").payload["place"] is None
    busts.undo_bust(first, actor=floor)
    first.refresh_from_db()
    assert first.status == Entry.Status.ACTIVE and live_seats(a).filter(entry=first).exists()
    assert Entry.objects.get(pk=second.pk).finish_place is None
    assert payout_selectors.finishers(a) == []


def test_a_flight_ends_once_by_the_share_of_its_field_left(director, cashier, floor, template, players):
    event, (a, _b) = event_with(director, template)
    flight = Flight.objects.get(tournament=a)
    flights_services.set_flight_end(flight, actor=director, share_percent=50)
    table_setup.open_table(a, actor=director, number=1, seats=9)
    entries = register(cashier, a, players[:5])
    draws.draw_start(a, actor=director)
    busts.bust_entry(entries[0], actor=floor)
    busts.bust_entry(entries[1], actor=floor)
    assert flights_selectors.flight_ending(a) is None  # 3 of 5 left: the share (2) not reached
    busts.bust_entry(entries[2], actor=floor)
    line = flights_selectors.flight_ending(a)
    assert line["players"] == 2 and line["level"] == 1
    assert line["message"] == "2 players left: this flight ends at the end of this level."
    assert ClockState.objects.get(tournament=a).stop_after_level == 1
    ending = AuditEvent.objects.get(tournament=a, type="flight.ending")
    assert ending.payload["players_left"] == 2 and ending.payload["threshold"] == 2 and ending.actor_id == floor.pk
    day_end = AuditEvent.objects.filter(tournament=a, type="clock.day_end_set").latest("pk")
    assert day_end.actor_id == floor.pk and day_end.payload["rule"].startswith("flight 1A")  # the bust's, by the rule
    busts.undo_bust(entries[2], actor=floor)
    busts.bust_entry(entries[2], actor=floor)
    assert AuditEvent.objects.filter(tournament=a, type="flight.ending").count() == 1
    assert flights_selectors.event_state(event)["flights"][0]["status"] == "ending"
    refused("flight_ending", flights_services.set_flight_end, flight, actor=director, share_percent=40)


def test_a_flight_ends_after_a_level_on_its_clock(director, template):
    _event, (a, _b) = event_with(director, template)
    flights_services.set_flight_end(Flight.objects.get(tournament=a), actor=director, after_level=3)
    assert ClockState.objects.get(tournament=a).stop_after_level == 3
    assert Flight.objects.get(tournament=a).end_after_level == 3


def test_day2_takes_late_registration_only_when_allowed_with_its_stack(director, cashier, template, players):
    event, (a, _b) = event_with(director, template)
    day2 = event.day2
    error = refused("day2_no_late_registration", desk.register_entry, day2, actor=cashier, player=players[0], document=doc(players[0]))
    assert error.status == 409
    assert not Entry.objects.filter(tournament=day2).exists()
    flights_services.set_day2_late_registration(event, actor=director, allowed=True, stack=45_000)
    entry = desk.register_entry(day2, actor=cashier, player=players[0], document=doc(players[0]))
    assert entry.purchases.get().chips == 45_000 and entry.purchases.get().amount == BUY_IN
    assert tournament_stats(day2)["entries"] == 1
    refused("late_stack", flights_services.set_day2_late_registration, event, actor=director, allowed=True, stack=0)


@pytest.mark.parametrize(
    "case, code, status",
    [("no day2", "no_day2", 409), ("not closed", "flight_not_closed", 409), ("twice", "already_carried", 409), ("floor", "forbidden", 403)],
)
def test_every_refusal_of_the_carry_changes_nothing(director, cashier, floor, template, players, case, code, status):
    event, (a, b) = event_with(director, template, day2=case != "no day2")
    play_and_bag(director, cashier, floor, a, players[:3], {p.pk: STACK for p in players[:3]})
    if case != "not closed":
        play_and_bag(director, cashier, floor, b, players[3:6], {p.pk: STACK for p in players[3:6]})
    if case == "twice":
        flights_services.carry_to_day2(event, actor=director)
    before = snapshot(a, b, *([event.day2] if event.day2_id else []))
    error = refused(code, flights_services.carry_to_day2, event, actor=floor if case == "floor" else director)
    assert error.status == status and error.message
    assert snapshot(a, b, *([event.day2] if event.day2_id else [])) == before


def test_the_event_setup_refusals(director, cashier, template, players):
    event, (a, b) = event_with(director, template, day2=False)
    other = new_tournament(director, template, "Other buy-in", buy_in=BUY_IN * 2)
    refused("different_buy_in", flights_services.set_day2, event, actor=director, tournament=other)
    refused("different_buy_in", flights_services.add_flight, event, actor=director, tournament=other, label="1C")
    refused("already_in_event", flights_services.add_flight, event, actor=director, tournament=a, label="1Z")
    refused("already_in_event", flights_services.set_day2, event, actor=director, tournament=a)
    fresh = new_tournament(director, template, "Day 1C")
    refused("label_taken", flights_services.add_flight, event, actor=director, tournament=fresh, label="1a")
    refused("label_missing", flights_services.add_flight, event, actor=director, tournament=fresh, label=" ")
    refused("name_missing", flights_services.create_event, actor=director, name=" ")
    refused("policy", flights_services.create_event, actor=director, name="X", policy="most")
    flights_services.set_policy(event, actor=director, policy="first")  # no entries yet: the policy may change
    register(cashier, a, players[:1])
    error = refused("policy_fixed", flights_services.set_policy, event, actor=director, policy="best")
    assert error.status == 409
    assert Event.objects.get(pk=event.pk).policy == "first"
    entered = new_tournament(director, template, "Has entries")
    register(cashier, entered, players[1:2])
    refused("day2_has_entries", flights_services.set_day2, event, actor=director, tournament=entered)
    Tournament.objects.filter(pk=entered.pk).update(status=Tournament.Status.RUNNING)
    refused("not_in_setup", flights_services.add_flight, event, actor=director, tournament=entered, label="1D")
    refused("forbidden", flights_services.create_event, actor=cashier, name="Mine")


@pytest.mark.django_db
def test_a_bag_number_is_unique_in_the_event_across_its_flights(director, cashier, floor, template, players):
    event, (a, b) = event_with(director, template)
    play_and_bag(director, cashier, floor, a, players[:3], {p.pk: STACK for p in players[:3]})
    table_setup.open_table(b, actor=director, number=1, seats=9)
    entries = register(cashier, b, players[3:5])
    draws.draw_start(b, actor=director)
    taken = Bag.objects.filter(tournament=a).first().bag_number  # a bag number of flight 1A
    held = days_selectors.bag_numbers_held(b, [taken], day=1)
    assert list(held) == [taken]  # flight 1B sees flight 1A's bag
    with pytest.raises(ServiceError) as refused:
        days_services.record_bag(entries[0], actor=floor, chips=STACK, bag=taken)
    assert refused.value.code == "bag_taken"
    assert days_services.record_bag(entries[0], actor=floor, chips=STACK, bag="B-1").bag_number == "B-1"


@pytest.mark.django_db
def test_clearing_the_level_rule_keeps_the_stop_the_share_rule_set(director, cashier, floor, template, players):
    event, (a, _b) = event_with(director, template)
    flight = Flight.objects.get(tournament=a)
    flights_services.set_flight_end(flight, actor=director, after_level=3, share_percent=50)
    table_setup.open_table(a, actor=director, number=1, seats=9)
    entries = register(cashier, a, players[:4])
    draws.draw_start(a, actor=director)
    for entry in entries[:2]:
        busts.bust_entry(entry, actor=floor)
    assert ClockState.objects.get(tournament=a).stop_after_level == 1  # the share (2 of 4) reached at level 1
    flights_services.set_flight_end(Flight.objects.get(pk=flight.pk), actor=director, after_level=None, share_percent=50)
    assert ClockState.objects.get(tournament=a).stop_after_level == 1  # cleared the level rule, not the share's stop


def two_flights_of_ten(director, cashier, template):
    """Two flights of 10 entries into one Day 2: 20 entries in the pool, which Day 2's structure pays 3 places."""
    event, (a, b) = event_with(director, template)
    people = [desk.create_player(actor=cashier, first_name=f"W{i}", last_name="Share", date_of_birth=date(1990, 1, 1)) for i in range(20)]
    register(cashier, a, people[:10])
    register(cashier, b, people[10:])
    assert payout_selectors.payout_state(event.day2)["places_paid"] == 3
    return event, Flight.objects.get(tournament=a), Flight.objects.get(tournament=b)


def test_day2_paying_more_places_than_the_share_rules_send_on_is_warned_until_a_share_is_raised(director, cashier, template):
    event, fa, fb = two_flights_of_ten(director, cashier, template)
    assert flights_selectors.event_state(event)["places_warning"] is None  # no share rule: what the flights send is unknown
    flights_services.set_flight_end(fa, actor=director, share_percent=5)
    flights_services.set_flight_end(fb, actor=director, after_level=3)
    assert flights_selectors.event_state(event)["places_warning"] is None  # 1B ends by its level: still unknown
    flights_services.set_flight_end(Flight.objects.get(pk=fb.pk), actor=director, after_level=3, share_percent=5)
    warning = flights_selectors.event_state(event)["places_warning"]  # 1 + 1 players sent on, 3 places paid
    assert (warning["places_paid"], warning["players_sent_on"]) == (3, 2)
    assert warning["message"] == (
        "Day 2 pays more places than the flights' share rules send players on. Places paid: 3; players sent on: 2; "
        "places unpaid unless more players reach Day 2: 3. Raise a flight's share, or pay fewer places."
    )
    flights_services.set_flight_end(Flight.objects.get(pk=fb.pk), actor=director, after_level=3, share_percent=19)
    assert flights_selectors.event_state(event)["places_warning"]["players_sent_on"] == 2  # 19 % of 10 is still 1
    flights_services.set_flight_end(Flight.objects.get(pk=fb.pk), actor=director, after_level=3, share_percent=20)
    assert flights_selectors.event_state(event)["places_warning"] is None  # 1 + 2 sent on: every place can be paid
