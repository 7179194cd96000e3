"""The seating of a day after the first: after Day 1 is closed, the director's redraw
(days/services/redraw.py) seats every player still in with his bag (or his last count, marked so) by a verifiable draw that
the public check recomputes, special needs kept, buttons drawn, the other tables out of play; every refusal changes
nothing. An event's Day 2 keeps the special needs its players had in their flights (flights/services/events.py copies them
at the carry) and its normal start draw honours them. The seat cards and the players' seat page show the day and the
stack the player sits down with, and nothing new on Day 1."""

from __future__ import annotations

import pytest
from django.test import Client

from clock.services import clock as clock_services
from days.selectors import seating as days_seating_reads
from days.services import bags as days_services
from days.services import redraw
from flights.selectors.day2 import day_stacks
from flights.services import events as flight_services
from tables.models import ChipCount, Draw, Seat, SeatRequest, Table
from tables.rules import seating
from tables.selectors import draw_check
from tables.selectors.state import live_seats, pending_commitment
from tables.services import busts, counting, draws
from tables.services import seats as table_seats
from tables.services import setup as table_setup
from tests.days.test_bagging import STACK, even
from tests.flights.test_flights import event_with, play_and_bag
from tests.helpers import client_for, refused, table, url
from tests.tables.test_penalty_api import at_table
from tournament.models import AuditEvent, Entry
from venues.services import setup as venue_setup
from web import caching


def bag_and_close(t, floor, director, *, leave_out: tuple[int, ...] = (), reason: str = "") -> None:
    """Every seated player bagged at STACK (bag numbers T<table>-<seat>) but the entries in `leave_out`; Day 1 closed."""
    for number in (1, 2):
        bags = even(t, number)
        seated = {s.seat: s.entry.number for s in live_seats(t).filter(table__number=number).select_related("entry")}
        kept = {seat: bag for seat, bag in bags.items() if seated[seat] not in leave_out}
        if len(kept) == len(bags):
            days_services.record_table_bags(table(t, number), actor=floor, bags=kept)
        else:
            for seat, (chips, bag) in kept.items():
                days_services.record_bag(Entry.objects.get(tournament=t, number=seated[seat]), actor=floor, chips=chips, bag=bag)
    days_services.close_day(t, actor=director, reason=reason)


def state_of(t) -> tuple:
    """Everything a refused redraw must leave as it was."""
    return (
        list(Seat.objects.filter(tournament=t).order_by("pk").values_list("entry_id", "table_id", "seat", "ended_at")),
        list(Table.objects.filter(tournament=t).order_by("number").values_list("number", "in_play", "button_seat")),
        list(Draw.objects.filter(tournament=t).order_by("number").values_list("number", "kind", "drawn_at")),
        AuditEvent.objects.filter(tournament=t).count(),
    )


def test_day2_is_redrawn_with_every_bag_and_the_public_check_recomputes_it(t, floor, director):
    bag_and_close(t, floor, director)
    bags = {
        e.number: f"T{n}-{s}"
        for n in (1, 2)
        for s, e in ((s.seat, s.entry) for s in live_seats(t).filter(table__number=n).select_related("entry"))
    }
    day1 = set(live_seats(t).values_list("pk", flat=True))
    draw = redraw.redraw_day(t, actor=director)
    assert draw.kind == Draw.Kind.REDRAW and draw.inputs["day"] == 2 and draw.inputs["entries"] == sorted(bags)
    assert "stacks" not in draw.inputs  # the seats never depend on them; the public page never shows them
    seats = list(live_seats(t).select_related("entry", "table"))
    assert sorted(s.entry.number for s in seats) == sorted(bags) and not day1 & {s.pk for s in seats}
    assert all(s.draw_id == draw.pk for s in seats)
    assert sorted([s.entry.number, s.table.number, s.seat] for s in seats) == draw.result
    assert {n: sum(1 for s in seats if s.table.number == n) for n in (1, 2)} == {1: 6, 2: 6}  # filled evenly
    assert Seat.objects.filter(pk__in=day1, end_reason=Seat.End.MOVE, ended_at__isnull=False).count() == 12
    check = draw_check.verify_draw(draw)
    assert check["matches"] and check["commitment_matches"] and check["recomputed"] == draw.result
    assert "stacks" not in check["inputs"]
    # The buttons of both tables: one draw for them all, publicly recomputed, each button the high card at its table.
    [buttons] = Draw.objects.filter(tournament=t, kind=Draw.Kind.BUTTON, drawn_at__isnull=False)
    assert sorted(buttons.inputs["tables"]) == ["1", "2"] and draw_check.verify_draw(buttons)["matches"] is True
    for n in (1, 2):
        dealt = buttons.result["tables"][str(n)]
        assert table(t, n).button_seat == dealt["button"] == int(seating.high_card_winner(dealt["cards"]))
        assert sorted(map(int, dealt["cards"])) == sorted(s.seat for s in seats if s.table.number == n)
    assert AuditEvent.objects.get(tournament=t, type="table.buttons").payload == {
        "draw": buttons.number,
        "tables": [1, 2],
        "buttons": {str(n): table(t, n).button_seat for n in (1, 2)},
    }
    tampered = Draw.objects.get(pk=buttons.pk)
    tampered.result["tables"]["1"]["button"] = 10  # a button the cards did not give is caught
    assert draw_check.verify_draw(tampered)["matches"] is False
    page = Client().get(f"/s/{t.pk}/draws/{buttons.number}/").content.decode()
    assert "Occupied seats by table" in page and "✔" in page and f"seat {table(t, 2).button_seat}" in page
    event = AuditEvent.objects.get(tournament=t, type="seating.redrawn")
    assert (event.payload["day"], event.payload["draw"], event.payload["seated"], event.payload["unbagged"]) == (2, draw.number, 12, [])
    assert event.payload["entries"] == sorted(bags) and event.payload["tables"] == [1, 2]
    assert event.payload["stacks"] == {str(n): {"chips": STACK, "bag": bag, "source": "bag"} for n, bag in bags.items()}
    assert Draw.objects.filter(tournament=t, drawn_at__isnull=True).count() == 1  # the next commitment is shown
    state = days_seating_reads.redraw_state(t)
    assert (state["possible"], state["reason"], state["draw"]) == (False, "drawn", draw.number)


def test_special_needs_are_kept_and_the_check_still_matches(t, floor, director):
    first, second = at_table(t, 1)[0], at_table(t, 2)[0]
    Table.objects.filter(pk=table(t, 2).pk).update(accessible=True)
    table_seats.set_seat_request(t, actor=director, player=first.player, table_number=2, seat=9)
    table_seats.set_seat_request(t, actor=director, player=second.player, accessible=True)
    bag_and_close(t, floor, director)
    draw = redraw.redraw_day(t, actor=director)
    where = {s.entry.number: (s.table.number, s.seat) for s in live_seats(t).select_related("entry", "table")}
    assert where[first.number] == (2, 9) and where[second.number][0] == 2
    check = draw_check.verify_draw(draw)
    assert check["matches"] and check["recomputed"] == check["result"]
    assert first.number not in check["inputs"]["entries"] and check["inputs"]["needs"]["count"] == 2


def test_the_directors_tables_and_the_players_without_a_bag(t, floor, director, cashier):
    table_setup.open_table(t, actor=director, number=7, seats=10)
    out, uncounted = at_table(t, 1)[0], at_table(t, 2)[0]
    counting.record_player_count(t, actor=floor, entry_number=out.number, chips=33_000)
    bag_and_close(t, floor, director, leave_out=(out.number, uncounted.number), reason="Two bags lost")
    ChipCount.objects.filter(entry=uncounted).update(current=False)  # never counted at all
    draw = redraw.redraw_day(t, actor=director, tables=[7, 1])
    assert sorted({s.table.number for s in live_seats(t).select_related("table")}) == [1, 7]
    assert not table(t, 2).in_play and table(t, 7).in_play and table(t, 1).in_play
    stacks = AuditEvent.objects.get(tournament=t, type="seating.redrawn").payload["stacks"]
    assert stacks[str(out.number)] == {"chips": 33_000, "bag": None, "source": "count"}
    assert stacks[str(uncounted.number)] == {"chips": None, "bag": None, "source": "none"}
    assert AuditEvent.objects.get(tournament=t, type="seating.redrawn").payload["unbagged"] == sorted([out.number, uncounted.number])
    assert draw.inputs["open_seats"] == {"1": list(range(1, 10)), "7": list(range(1, 11))}
    assert draw_check.verify_draw(draw)["matches"]


@pytest.mark.parametrize(
    "case, code, status",
    [
        ("day 1 playing", "day_not_closed", 409),
        ("under way", "day_under_way", 409),
        ("twice", "already_redrawn", 409),
        ("tables twice", "bad_tables", 400),
        ("no tables", "bad_tables", 400),
        ("not in the venue", "no_venue_table", 409),
        ("too few seats", "no_open_seat", 409),
        ("floor", "forbidden", 403),
        ("need unmet", "need_unmet", 409),
    ],
)
def test_every_refusal_of_the_redraw_says_why_and_changes_nothing(t, floor, director, case, code, status):
    actor, tables = director, None
    if case != "day 1 playing":
        bag_and_close(t, floor, director)
    if case == "under way":
        clock_services.start_clock(t, actor=director)
        clock_services.pause_clock(t, actor=director)
    elif case == "twice":
        redraw.redraw_day(t, actor=director)
    elif case == "tables twice":
        tables = [1, 1]
    elif case == "no tables":
        tables = []
    elif case == "not in the venue":  # a room set up with its tables: table 5 is not one of them
        venue_setup.set_areas(venue_setup.default_venue(), actor=director, areas=[], fixed_tables=True)
        tables = [1, 5]
    elif case == "too few seats":
        tables = [1]
    elif case == "floor":
        actor = floor
    elif case == "need unmet":
        table_seats.set_seat_request(t, actor=director, player=at_table(t, 1)[0].player, accessible=True)
    before = state_of(t)
    error = refused(code, redraw.redraw_day, t, actor=actor, tables=tables)
    assert error.status == status and error.message
    assert state_of(t) == before


def test_the_api_redraws_for_the_director_only(t, floor, director):
    bag_and_close(t, floor, director)
    venue_setup.set_areas(venue_setup.default_venue(), actor=director, areas=[], fixed_tables=True)  # a room set up
    assert client_for(floor).post(url(t, "day/redraw/"), {}, format="json").status_code == 403
    bad = client_for(director).post(url(t, "day/redraw/"), {"tables": [1, "x"]}, format="json")
    assert bad.status_code == 400
    missing = client_for(director).post(url(t, "day/redraw/"), {"tables": [1, 9]}, format="json")
    assert missing.status_code == 409 and "Table 9" in missing.json()["detail"]
    answer = client_for(director).post(url(t, "day/redraw/"), {}, format="json", HTTP_IDEMPOTENCY_KEY="day2-redraw")
    assert answer.status_code == 201
    body = answer.json()
    assert (body["day"], body["seated"], body["tables"]) == (2, 12, [1, 2]) and body["seed"] and body["commitment"]
    again = client_for(director).post(url(t, "day/redraw/"), {}, format="json", HTTP_IDEMPOTENCY_KEY="day2-redraw")
    assert again.status_code == 201 and again.json()["draw"] == body["draw"]  # a retried press redraws once
    twice = client_for(director).post(url(t, "day/redraw/"), {}, format="json")
    assert twice.status_code == 409 and Draw.objects.filter(tournament=t, kind=Draw.Kind.REDRAW).count() == 1


def test_seat_cards_and_the_seat_page_show_the_day_and_the_stack_from_day2_only(t, floor, director):
    client = Client()
    client.force_login(floor)
    entry = at_table(t, 1)[0]
    card = client.get(f"/t/{t.pk}/seat-cards/{entry.number}/").content.decode()
    assert "sc-day" not in card and "Day 1" not in card  # nothing new on Day 1
    assert "day_stack" not in client.get(f"/api/public/tournaments/{t.pk}/seats/{entry.number}/").json()
    bag = f"T1-{live_seats(t).get(entry=entry).seat}"
    bag_and_close(t, floor, director)
    assert day_stacks(t) == {}  # closed, not redrawn: they still sit where Day 1 left them
    redraw.redraw_day(t, actor=director)
    card = client.get(f"/t/{t.pk}/seat-cards/{entry.number}/").content.decode()
    assert f"Day 2 · stack 20,000 (bag {bag})" in card
    pdf = client.get(f"/t/{t.pk}/seat-cards/?format=pdf&paper=a4")
    assert pdf.status_code == 200 and pdf.content.startswith(b"%PDF")
    seat = Client().get(f"/api/public/tournaments/{t.pk}/seats/{entry.number}/").json()
    assert seat["day_stack"] == {"day": 2, "chips": STACK, "bag": bag, "source": "bag"}
    # A bust on Day 2 makes the next seats from these (web/caching.py): the stacks stay what a whole read says.
    other = next(e for e in at_table(t, 1) if e.pk != entry.pk)
    busts.bust_entry(other, actor=floor)
    for number in (entry.number, other.number):
        assert Client().get(f"/api/public/tournaments/{t.pk}/seats/{number}/").json() == {
            **caching.seats_now(t.pk)[number],
            "next_draw": pending_commitment(t),
        }
    director_client = client_for(director)
    director_client.patch(url(t, "house-rules/"), {"public_chip_counts": False}, format="json")
    hidden = Client().get(f"/api/public/tournaments/{t.pk}/seats/{entry.number}/").json()
    assert hidden["day_stack"] == {"day": 2, "chips": None, "bag": bag, "source": "bag"}


def test_the_day_page_offers_the_redraw_to_the_director(t, floor, director):
    bag_and_close(t, floor, director)
    page = Client()
    page.force_login(director)
    html = page.get(f"/t/{t.pk}/day/").content.decode()
    assert 'id="redraw-form"' in html and "Redraw Day 2 seating" in html
    seen = Client()
    seen.force_login(floor)
    assert 'id="redraw-form"' not in seen.get(f"/t/{t.pk}/day/").content.decode()
    draw = redraw.redraw_day(t, actor=director)
    html = page.get(f"/t/{t.pk}/day/").content.decode()
    assert 'id="redraw-form"' not in html and f"Day 2 is seated by draw {draw.number}." in html


def test_the_day_page_between_the_close_and_the_next_days_play(t, floor, director):
    bag_and_close(t, floor, director)
    page = Client()
    page.force_login(director)
    html = page.get(f"/t/{t.pk}/day/").content.decode()
    # Day 1 closed, Day 2 not begun: nothing is "missing" and nothing closes yet; the bags shown are Day 1's.
    assert 'id="day-title">Day 1<' in html and "Day 1 · closed" in html and 'id="dy-not-begun"' in html
    assert "Day 2 has not begun: its bags are taken at its end." in html
    assert 'id="close-form"' not in html and "bags missing" not in html and "The bags are taken at the end of the day." in html
    assert f"/t/{t.pk}/day/report/?day=1" in html and 'id="redraw-form"' in html
    clock_services.start_clock(t, actor=director)  # Day 2's play begins: its page is Day 2's
    html = page.get(f"/t/{t.pk}/day/").content.decode()
    assert 'id="day-title">Day 2<' in html and 'id="close-form"' in html and 'id="dy-not-begun"' not in html


def test_a_flight_has_no_next_day_of_its_own(director, cashier, floor, template, players):
    event, (a, _b) = event_with(director, template)
    play_and_bag(director, cashier, floor, a, players[:3], {p.pk: STACK for p in players[:3]})
    seats = list(live_seats(a).values_list("pk", flat=True))
    error = refused("flight", redraw.redraw_day, a, actor=director)
    assert error.status == 409
    assert "Flight 1A goes on to Day 2 of Festival Main Event" in error.message
    assert (
        list(live_seats(a).values_list("pk", flat=True)) == seats and not Draw.objects.filter(tournament=a, kind=Draw.Kind.REDRAW).exists()
    )
    assert days_seating_reads.redraw_state(a)["reason"] == "elsewhere"
    page = Client()
    page.force_login(director)
    html = page.get(f"/t/{a.pk}/day/").content.decode()
    assert "Flight 1A is over: its bags go on to Day 2 of Festival Main Event" in html
    assert f'href="/events/{event.pk}/"' in html and 'id="day-title">Day 1<' in html
    assert 'id="redraw-form"' not in html and 'id="close-form"' not in html and "Redraw Day 2" not in html


def test_an_events_day2_keeps_the_flights_special_needs_and_shows_the_bags(director, cashier, floor, template, players):
    event, (a, b) = event_with(director, template)
    chips = {p.pk: 10_000 + 1_000 * i for i, p in enumerate(players)}
    play_and_bag(director, cashier, floor, a, players[:3], chips)
    # The needs asked in flight 1A (its table 1 open, as set_seat_request wants), live when its Day 1 closed.
    table_seats.set_seat_request(a, actor=director, player=players[0], accessible=True, note="Wheelchair")
    table_seats.set_seat_request(a, actor=director, player=players[1], table_number=1, seat=9)
    table_seats.set_seat_request(a, actor=director, player=players[2], accessible=True)
    table_seats.cancel_seat_request(a, actor=director, player=players[2])  # cancelled: stays behind
    play_and_bag(director, cashier, floor, b, players[3:], chips)
    table_seats.set_seat_request(b, actor=director, player=players[3], accessible=True)  # 1B's, after its close
    day2 = event.day2
    summary = flight_services.carry_to_day2(event, actor=director)
    assert summary["carried"] == 6
    copied = SeatRequest.objects.filter(tournament=day2, cancelled_at__isnull=True)
    assert sorted(copied.values_list("player_id", "table_number", "seat", "accessible", "note")) == sorted(
        [(players[0].pk, None, None, True, "Wheelchair"), (players[1].pk, 1, 9, False, ""), (players[3].pk, None, None, True, "")]
    )
    assert AuditEvent.objects.get(tournament=day2, type="flights.carried").payload["seat_requests"] == 3
    table_setup.open_table(day2, actor=director, number=1, seats=9)
    table_setup.open_table(day2, actor=director, number=2, seats=9, accessible=True)
    draw = draws.draw_start(day2, actor=director)
    where = {s.entry.player_id: (s.table.number, s.seat) for s in live_seats(day2).select_related("entry", "table")}
    assert where[players[0].pk][0] == 2 and where[players[3].pk][0] == 2 and where[players[1].pk] == (1, 9)
    assert draw_check.verify_draw(draw)["matches"]
    stacks = day_stacks(day2)
    mine = Entry.objects.get(tournament=day2, player=players[0])
    assert stacks[mine.number] == {"day": 2, "chips": 10_000, "bag": f"{a.pk}-{where_in(a, players[0])}", "source": "bag"}
    assert day_stacks(a) == {}  # a flight shows nothing new
    client = Client()
    client.force_login(floor)
    card = client.get(f"/t/{day2.pk}/seat-cards/{mine.number}/").content.decode()
    assert f"Day 2 · stack 10,000 (bag {a.pk}-{where_in(a, players[0])})" in card
    assert Client().get(f"/api/public/tournaments/{day2.pk}/seats/{mine.number}/").json()["day_stack"]["chips"] == 10_000


def where_in(t, player) -> int:
    """The seat a player had in a flight (his bag's number ends with it: play_and_bag)."""
    return Seat.objects.filter(tournament=t, entry__player=player).order_by("pk").first().seat
