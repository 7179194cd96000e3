"""Bag-and-tag and the close of a day through the services (days/services/bags.py) and their reads
(days/selectors/bags.py): a table's bags at once, one player's by the floor, a correction that makes the last bag
history, a bag that is also the player's chip count; every refusal changes nothing; a dealer's tablet bags only its
own table; the day closes once the bags add up, or with the director's reason; a bust after bagging leaves the
bag out of every read."""

from __future__ import annotations

import pytest

from clock.services import clock as clock_services
from core.roles import DeviceActor
from days.models import Bag, Day
from days.selectors import bags as days_selectors
from days.services import bags as days_services
from tables.models import ChipCount, Table
from tables.services import busts, counting, dealer_links
from tests.helpers import refused, table
from tests.tables.test_penalty_api import at_table
from tournament.models import AuditEvent
from venues.models import VenueTable

STACK = 20_000  # tournament_data's starting stack: 12 players, 240,000 chips in play


def even(t, number: int, chips: int = STACK, prefix: str | None = None) -> dict[int, tuple[int, str]]:
    """Every seated player's bag at a table: the same chips, bag numbers T<table>-<seat>."""
    prefix = prefix or f"T{number}-"
    return {s.seat: (chips, f"{prefix}{s.seat}") for s in days_selectors.live_seats(t).filter(table__number=number)}


def state_of(t) -> tuple:
    """Everything a refusal must leave as it was."""
    return (
        list(Bag.objects.filter(tournament=t).order_by("pk").values_list("entry_id", "day", "bag_number", "chips", "current")),
        list(ChipCount.objects.filter(tournament=t).order_by("pk").values_list("entry_id", "chips", "current")),
        list(Day.objects.filter(tournament=t).order_by("pk").values_list("number", "status")),
        AuditEvent.objects.filter(tournament=t).count(),
    )


def test_a_table_is_bagged_at_once_and_each_bag_is_the_players_count(t, floor):
    bags = even(t, 1)
    first = min(bags)
    bags[first] = (52_000, " t1 - x ")  # typed with spaces, in lower case
    rows = days_services.record_table_bags(table(t, 1), actor=floor, bags=bags)
    assert len(rows) == 6 and {row.bag_number for row in rows if row.seat == first} == {"T1-X"}
    assert all(row.day == 1 and row.current and row.bagged_by_label == floor.username for row in rows)
    counts = ChipCount.objects.filter(tournament=t, current=True)
    assert sorted(counts.values_list("chips", flat=True)) == sorted(chips for chips, _bag in bags.values())
    assert set(counts.values_list("source", flat=True)) == {ChipCount.Source.BAG}
    event = AuditEvent.objects.get(tournament=t, type="bags.recorded")
    assert event.payload["day"] == 1 and event.payload["table"] == 1 and event.payload["total"] == 52_000 + 5 * STACK
    assert event.payload["bags"][str(first)]["bag"] == "T1-X"
    state = days_selectors.day_state(t)
    assert (state["day"], state["status"], state["players_left"], state["bagged"]) == (1, "playing", 12, 6)
    assert [m["table"] for m in state["missing"]] == [2] * 6 and all(m["name"] and m["entry"] for m in state["missing"])
    assert state["missing_tables"] == [{"table": 2, "seats": sorted(even(t, 2))}]
    assert state["difference"] is None and state["needs_reason"] and state["can_close"]
    tablet = days_selectors.table_bags(table(t, 1))
    assert tablet["bagged"] == 6 and tablet["total"] == 52_000 + 5 * STACK and tablet["day"] == 1
    assert {p["seat"]: (p["chips"], p["bag"], p["last_count"]) for p in tablet["players"]}[first] == (52_000, "T1-X", 52_000)


def test_the_tablet_starts_from_the_last_count(t, floor):
    counting.record_table_counts(table(t, 2), actor=floor, counts={seat: 31_000 for seat in even(t, 2)})
    tablet = days_selectors.table_bags(table(t, 2))
    assert all((p["chips"], p["bag"], p["last_count"]) == (None, None, 31_000) for p in tablet["players"])
    assert tablet["bagged"] == 0 and all(p["counted_at"] for p in tablet["players"])


@pytest.mark.parametrize(
    "change, code, status",
    [
        ("empty seat", "empty_seat", 409),
        ("left out", "missing", 400),
        ("no chips", "no_chips", 400),
        ("negative", "no_chips", 400),
        ("absurd", "too_many", 400),
        ("characters", "bag_characters", 400),
        ("too long", "bag_too_long", 400),
        ("no bag", "bag_missing", 400),
        ("twice", "bag_twice", 400),
        ("taken", "bag_taken", 409),
        ("closed day", "day_closed", 409),
        ("out of play", "not_in_play", 409),
    ],
)
def test_every_refusal_of_a_tables_bags_says_why_and_changes_nothing(t, floor, director, change, code, status):
    days_services.record_table_bags(table(t, 2), actor=floor, bags=even(t, 2))
    bags = even(t, 1)
    seats = sorted(bags)
    if change == "empty seat":
        bags[next(n for n in range(1, 10) if n not in bags)] = (100, "Z-1")
    elif change == "left out":
        del bags[seats[0]]
    elif change in ("no chips", "negative", "absurd"):
        bags[seats[1]] = ({"no chips": 0, "negative": -5, "absurd": 10**16}[change], "Z-1")
    elif change in ("characters", "too long", "no bag"):
        bags[seats[1]] = (100, {"characters": "A/1", "too long": "A" * 17, "no bag": " "}[change])
    elif change == "twice":
        bags[seats[2]] = (100, f"t1-{seats[0]}")
    elif change == "taken":
        bags[seats[2]] = (100, next(iter(even(t, 2).values()))[1].lower())
    elif change == "closed day":
        Day.objects.create(tournament=t, number=2, status=Day.Status.CLOSED, created_at=t.created_at, closed_at=t.created_at)
    else:
        Table.objects.filter(pk=table(t, 1).pk).update(in_play=False)
    before = state_of(t)
    error = refused(code, days_services.record_table_bags, table(t, 1), actor=floor, bags=bags)
    assert error.status == status and error.message
    if code not in ("day_closed", "not_in_play"):
        assert "Table 1 seat" in error.message or "table 1 seat" in error.message
    assert state_of(t) == before


def test_a_taken_bag_names_its_holder(t, floor):
    days_services.record_table_bags(table(t, 2), actor=floor, bags=even(t, 2))
    holder = at_table(t, 2)[0]
    bags = even(t, 1)
    bags[min(bags)] = (100, f"T2-{min(even(t, 2))}")
    error = refused("bag_taken", days_services.record_table_bags, table(t, 1), actor=floor, bags=bags)
    assert f"entry #{holder.number}" in error.message


def test_a_correction_makes_the_last_bag_history_and_frees_its_number(t, floor):
    days_services.record_table_bags(table(t, 1), actor=floor, bags=even(t, 1))
    player = at_table(t, 1)[0]
    old = Bag.objects.get(entry=player, current=True).bag_number
    row = days_services.record_bag(player, actor=floor, chips=21_500, bag="Q-9")
    assert (row.bag_number, row.chips, row.current) == ("Q-9", 21_500, True)
    assert list(Bag.objects.filter(entry=player).order_by("pk").values_list("bag_number", "current")) == [
        (old, False),
        ("Q-9", True),
    ]  # never deleted
    assert ChipCount.objects.get(entry=player, current=True).chips == 21_500
    other = at_table(t, 1)[1]
    days_services.record_bag(other, actor=floor, chips=20_000, bag=old)  # the old number is free again
    # A whole table re-bagged with its players' numbers swapped: each replaces his own bag, nothing is taken.
    swapped = even(t, 1)
    a, b = sorted(swapped)[2:4]
    swapped[a], swapped[b] = (STACK, swapped[b][1]), (STACK, swapped[a][1])
    days_services.record_table_bags(table(t, 1), actor=floor, bags=swapped)
    assert Bag.objects.filter(tournament=t, current=True).count() == 6
    assert AuditEvent.objects.filter(tournament=t, type="bags.recorded").count() == 4


def test_one_players_bag_is_the_floors_and_is_refused_as_a_tables(t, floor, dealer):
    player = at_table(t, 2)[0]
    assert refused("forbidden", days_services.record_bag, player, actor=dealer, chips=100, bag="A1").status == 403
    before = state_of(t)
    refused("no_chips", days_services.record_bag, player, actor=floor, chips=0, bag="A1")
    refused("bag_characters", days_services.record_bag, player, actor=floor, chips=100, bag="A 1 ?")
    busts.bust_entry(at_table(t, 1)[0], actor=floor)
    gone = t.entries.get(status="busted")
    refused("not_seated", days_services.record_bag, gone, actor=floor, chips=100, bag="A1")
    assert state_of(t)[:3] == before[:3]
    row = days_services.record_bag(player, actor=floor, chips=100, bag="a1")
    assert (row.table_number, row.bag_number) == (2, "A1")
    event = AuditEvent.objects.filter(tournament=t, type="bags.recorded").get()
    assert event.payload["entry"] == player.number and event.payload["bag"] == "A1"


def test_a_dealers_tablet_bags_only_its_own_table(t, floor):
    link, _secret = dealer_links.create_dealer_link(table(t, 1), actor=floor)
    tablet = DeviceActor("tablet 1", table_id=table(t, 1).pk, link_id=link.pk)
    before = state_of(t)
    error = refused("other_table", days_services.record_table_bags, table(t, 2), actor=tablet, bags=even(t, 2))
    assert error.status == 403 and state_of(t) == before
    assert len(days_services.record_table_bags(table(t, 1), actor=tablet, bags=even(t, 1))) == 6
    assert Bag.objects.filter(tournament=t).first().bagged_by_label == "tablet 1"


def bag_everyone(t, floor, chips=STACK):
    for number in (1, 2):
        days_services.record_table_bags(table(t, number), actor=floor, bags=even(t, number, chips))


def test_the_day_closes_when_the_bags_add_up_and_the_next_day_begins(t, floor, director):
    assert days_selectors.current_day(t) == 1 and not Day.objects.exists()
    bag_everyone(t, floor)
    state = days_selectors.day_state(t)
    assert (state["difference"], state["needs_reason"], state["can_close"], state["missing"]) == (0, False, True, [])
    assert refused("forbidden", days_services.close_day, t, actor=floor).status == 403
    day = days_services.close_day(t, actor=director)
    assert (day.number, day.status, day.missing, day.difference, day.bags, day.total) == (1, "closed", [], 0, 12, 12 * STACK)
    assert day.closed_by == director and day.closed_at and day.big_blind == 200
    assert days_selectors.current_day(t) == 2 and days_selectors.day_status(t, 2) == "playing"
    event = AuditEvent.objects.get(tournament=t, type="day.closed")
    assert event.payload == {
        "day": 1,
        "next_day": 2,
        "bags": 12,
        "total": 12 * STACK,
        "chips_in_play": 12 * STACK,
        "difference": 0,
        "reason": "",
        "missing": [],
        "tables_given_back": [1, 2],
    }
    assert not VenueTable.objects.filter(table__tournament=t).exists()  # the room is free between days
    state = days_selectors.day_state(t)
    # Day 2 has not begun: nothing is missing yet and it does not close (its bags come at its end).
    assert (state["day"], state["begun"], state["bagged"], state["bags"], state["missing"]) == (2, False, 0, 0, [])
    assert (state["can_close"], state["needs_reason"], state["elsewhere"]) == (False, False, None)
    assert state["days"][0]["day"] == 1 and state["days"][0]["closed_by"] == director.username
    # Day 2's bags are taken at its end: none before its play begins (the clock runs again).
    player, other = at_table(t, 1)[:2]
    mine = Bag.objects.get(entry=player, day=1).bag_number
    refused("day_not_started", days_services.record_bag, player, actor=floor, chips=STACK, bag=mine)
    clock_services.start_clock(t, actor=director)
    state = days_selectors.day_state(t)
    assert (state["begun"], len(state["missing"]), state["can_close"]) == (True, 12, False)  # the clock runs
    # Day 2's bags are new bags: a player keeps his own number, another player's stays taken.
    assert days_services.record_bag(player, actor=floor, chips=STACK, bag=mine).day == 2
    refused("bag_taken", days_services.record_bag, other, actor=floor, chips=STACK, bag=mine)
    assert days_selectors.day_report(t, 1)["players"] == 12 and days_selectors.day_report(t)["players"] == 1


def test_closing_with_bags_missing_names_the_tables_and_seats_and_takes_a_reason(t, floor, director):
    days_services.record_table_bags(table(t, 1), actor=floor, bags=even(t, 1))
    before = state_of(t)
    error = refused("bags_missing", days_services.close_day, t, actor=director)
    seats = ", ".join(str(seat) for seat in sorted(even(t, 2)))
    assert error.status == 409 and f"table 2 seats {seats}" in error.message
    assert error.details == [f"table 2 seats {seats}"] and state_of(t) == before
    day = days_services.close_day(t, actor=director, reason="  Table 2   bagged on paper ")
    assert day.close_reason == "Table 2 bagged on paper" and day.missing == [e.number for e in at_table(t, 2)]  # by seat
    assert day.difference == -6 * STACK and day.bags == 6


def test_closing_with_bags_that_do_not_add_up_gives_the_difference_and_takes_a_reason(t, floor, director):
    bag_everyone(t, floor)
    days_services.record_bag(at_table(t, 2)[0], actor=floor, chips=STACK - 500, bag="T2-X")
    assert days_selectors.day_state(t)["difference"] == -500 and days_selectors.day_state(t)["needs_reason"]
    before = state_of(t)
    error = refused("bags_off", days_services.close_day, t, actor=director, reason="   ")
    assert "-500" in error.message and str(12 * STACK - 500) in error.message
    assert state_of(t) == before
    refused("too_long", days_services.close_day, t, actor=director, reason="x" * 501)
    assert days_services.close_day(t, actor=director, reason="A 500 chip found under table 2").difference == -500


def test_the_day_does_not_close_while_the_clock_runs(t, floor, director):
    bag_everyone(t, floor)
    clock_services.start_clock(t, actor=director)
    before = state_of(t)
    error = refused("clock_running", days_services.close_day, t, actor=director)
    assert error.status == 409 and "stop the clock" in error.message
    assert state_of(t) == before and not days_selectors.day_state(t)["can_close"]
    clock_services.pause_clock(t, actor=director)
    assert days_selectors.day_state(t)["can_close"] and days_services.close_day(t, actor=director).status == "closed"


def test_a_bust_after_bagging_leaves_the_bag_out_of_every_read(t, floor, director):
    bag_everyone(t, floor)
    gone = at_table(t, 1)[0]
    busts.bust_entry(gone, actor=floor)
    state = days_selectors.day_state(t)
    assert (state["players_left"], state["bagged"], state["total"]) == (11, 11, 11 * STACK)
    assert state["difference"] == -STACK and state["needs_reason"]
    assert gone.number not in [row["entry"] for row in days_selectors.day_report(t)["rows"]]
    assert gone.number not in [row["entry"] for row in days_selectors.bags_for_slips(t)]
    winner = at_table(t, 1)[0]
    days_services.record_bag(winner, actor=floor, chips=2 * STACK, bag="T1-W")  # the busted player's chips, recounted
    assert days_selectors.day_state(t)["difference"] == 0
    days_services.close_day(t, actor=director)
    busts.bust_entry(at_table(t, 2)[0], actor=floor)  # busted on day 2: still in day 1's report
    report = days_selectors.day_report(t, 1)
    assert report["players"] == 11 and report["status"] == "closed" and report["difference"] == 0
    assert report["rows"][0]["entry"] == winner.number and report["rows"][0]["bag"] == "T1-W"


def test_the_report_sorts_by_stack_and_the_slips_by_table_and_seat(t, floor):
    bags = even(t, 1)
    seats = sorted(bags)
    bags[seats[3]] = (50_000, "BIG")
    bags[seats[4]] = (50_000, "BIG-2")
    days_services.record_table_bags(table(t, 1), actor=floor, bags=bags)
    report = days_selectors.day_report(t)
    assert [row["rank"] for row in report["rows"]] == [1, 1, 3, 3, 3, 3]
    top = report["rows"][:2]
    assert [row["chips"] for row in top] == [50_000, 50_000] and top[0]["entry"] < top[1]["entry"]
    assert top[0]["big_blinds"] == 250.0 and report["big_blind"] == 200 and report["difference"] is None
    assert set(report["rows"][0]) == {"rank", "entry", "name", "table", "seat", "bag", "chips", "big_blinds", "bagged_at", "bagged_by"}
    assert report["players"] == 6 and report["total"] == 4 * STACK + 100_000 and report["closed"] is None
    assert days_selectors.day_report(t, 2) is None and days_selectors.day_report(t, 0) is None
    slips = days_selectors.bags_for_slips(t, table=1)
    assert [slip["seat"] for slip in slips] == seats and slips[0]["tournament"] == t.name and slips[0]["day"] == 1
    one = at_table(t, 1)[3]
    assert [(s["entry"], s["bag"], s["chips"]) for s in days_selectors.bags_for_slips(t, entry=one.number)] == [(one.number, "BIG", 50_000)]
    assert days_selectors.bags_for_slips(t, table=2) == []
