"""Color-ups through the JSON API, as the tablets and the floor use it: the director confirms, the table's
dealer races and confirms (only at the table its tablet is bound to), the floor sees every table's status
and the difference, chips found after the race are exchanged (TDA 21C); bad input is a 4xx and changes
nothing."""

from __future__ import annotations

from tables.models import ChipRace, ColorUp, Table
from tables.services import dealer_links
from tests.helpers import client_for, url
from tests.tables.test_dealer_links import as_link, dealer_tablet
from tournament.models import AuditEvent, ChipAdjustment, Level
from tournament.selectors.stats import tournament_stats


def the_break(t) -> int:
    return Level.objects.get(structure=t.structure, kind=Level.Kind.BREAK).position


def counts(t, number: int, quarters: int = 3, other=None) -> dict:
    race = client_for_floor_state(t, number)
    return {str(p["seat"]): {"chips": {"25": quarters}, "other": other} for p in race["players"]}


def client_for_floor_state(t, number):
    from tables.selectors.color_ups import table_race

    return table_race(Table.objects.get(tournament=t, number=number))


def test_a_table_race_before_any_color_up_is_204_no_content(room, director, floor):
    answer = client_for(floor).get(url(room, "tables/1/race/"))
    assert answer.status_code == 204 and answer.content == b""
    client_for(director).post(url(room, "color-ups/"), {"level": the_break(room)}, format="json")
    answer = client_for(floor).get(url(room, "tables/1/race/"))
    assert answer.status_code == 200 and answer.json()["status"] == "waiting"


def test_the_director_confirms_and_every_role_reads_the_status_without_names(room, director, floor, cashier, dealer):
    status = client_for(cashier).get(url(room, "color-ups/")).json()
    assert status["color_up"] is None and status["next_break"]["planned"] == [25]
    assert status["suggestion"]["level"] == the_break(room)
    assert client_for(floor).post(url(room, "color-ups/"), {"level": the_break(room)}, format="json").status_code == 403
    for bad in ({}, {"level": "x"}, {"level": 0}, {"level": the_break(room), "leaving": [1000]}):
        answer = client_for(director).post(url(room, "color-ups/"), bad, format="json")
        assert answer.status_code == 400 and answer.json()["detail"], bad
    answer = client_for(director).post(url(room, "color-ups/"), {"level": the_break(room)}, format="json")
    assert answer.status_code == 201
    status = answer.json()
    assert status["color_up"]["leaving"] == [25] and status["color_up"]["new_chip"] == 100
    assert [row["status"] for row in status["tables"]] == ["waiting", "waiting"] and status["waiting"] == 2
    assert "name" not in str(client_for(dealer).get(url(room, "color-ups/")).json())
    again = client_for(director).post(url(room, "color-ups/"), {"level": the_break(room)}, format="json")
    assert again.status_code == 409


def test_a_table_races_on_its_tablet_and_the_floor_sees_it_finish(room, director, floor, dealer):
    client_for(director).post(url(room, "color-ups/"), {"level": the_break(room)}, format="json")
    before = tournament_stats(room)["chips_in_play"]
    tablet = dealer_tablet(dealer, room, 1)
    sheet = tablet.get(url(room, "tables/1/race/")).json()
    assert sheet["status"] == "waiting" and sheet["active"] and len(sheet["players"]) == 6
    assert tablet.post(url(room, "tables/2/race/"), {"seats": counts(room, 2)}, format="json").status_code == 403
    recorded = tablet.post(url(room, "tables/1/race/"), {"seats": counts(room, 1)}, format="json")
    assert recorded.status_code == 201, recorded.content
    race = recorded.json()
    assert race["status"] == "recorded" and race["sheet"]["draw"] and len(race["sheet"]["winners"]) == 5
    assert all(seat["name"] and len(seat["cards"]) == 3 for seat in race["sheet"]["seats"])
    status = client_for(floor).get(url(room, "color-ups/")).json()
    assert status["tables"][0] == {"table": 1, "status": "recorded", "difference": 50, "race": race["sheet"]["id"]}
    assert status["difference_recorded"] == 50 and status["chips_in_play"] == before
    redone = tablet.post(url(room, "tables/1/race/"), {"seats": counts(room, 1, quarters=2)}, format="json").json()
    assert redone["sheet"]["id"] != race["sheet"]["id"] and redone["sheet"]["difference"] == -100 + 100
    confirmed = tablet.post(url(room, "tables/1/race/confirm/"))
    assert confirmed.status_code == 200 and confirmed.json()["status"] == "confirmed"
    assert tablet.post(url(room, "tables/1/race/"), {"seats": counts(room, 1)}, format="json").status_code == 409
    assert tablet.post(url(room, "tables/1/race/confirm/")).status_code == 404
    status = client_for(floor).get(url(room, "color-ups/")).json()
    assert status["finished"] == 1 and status["waiting"] == 1 and status["chips_in_play"] == before + redone["sheet"]["difference"]
    assert AuditEvent.objects.filter(tournament=room, type="race.confirmed", payload__table=1).exists()


def test_a_dealer_link_races_its_own_table_and_cards_can_be_entered(room, director, floor):
    client_for(director).post(url(room, "color-ups/"), {"level": the_break(room)}, format="json")
    _, secret = dealer_links.create_dealer_link(Table.objects.get(tournament=room, number=2), actor=floor, label="tablet 2")
    tablet = as_link(secret)
    seats = counts(room, 2, quarters=1, other=5000)
    cards = dict(zip(seats, (["As"], ["Ks"], ["Qs"], ["Js"], ["Ts"], ["9s"]), strict=True))
    answer = tablet.post(url(room, "tables/2/race/"), {"seats": seats, "cards": cards}, format="json")
    assert answer.status_code == 201, answer.content
    sheet = answer.json()["sheet"]
    assert sheet["cards_entered"] and sheet["draw"] is None and sheet["winners"] == [int(s) for s in list(seats)[:2]]
    assert tablet.post(url(room, "tables/1/race/"), {"seats": counts(room, 1)}, format="json").status_code == 403


def test_a_table_dealing_its_own_cards_asks_how_many_each_seat_gets_and_nothing_is_recorded(room, director, floor):
    early = {"seats": {"1": {"chips": {"25": 3}, "other": None}}}
    assert client_for(floor).post(url(room, "tables/1/race/cards/"), early, format="json").status_code == 409
    client_for(director).post(url(room, "color-ups/"), {"level": the_break(room)}, format="json")
    first = counts(room, 1)
    seats = list(first)
    # 3 x 25 (one card a 25: 3 cards), 4 x 25 (a whole 100, no odd chip: no card), 6 x 25 (one 100, 2 cards).
    first[seats[1]]["chips"]["25"] = 4
    first[seats[2]]["chips"]["25"] = 6
    events = AuditEvent.objects.count()
    answer = client_for(floor).post(url(room, "tables/1/race/cards/"), {"seats": first}, format="json")
    assert answer.status_code == 200, answer.content
    needed = answer.json()["cards"]
    assert seats[1] not in needed and needed[seats[2]] == 2
    assert all(needed[seat] == 3 for seat in seats if seat not in seats[1:3])
    assert answer.json()["total"] == sum(needed.values()) == 3 * (len(seats) - 2) + 2
    assert not ChipRace.objects.exists() and AuditEvent.objects.count() == events  # a question, not an action
    # With the house rule "the protected player races first", a player with nothing but his odd chips
    # gets no card (he has his chip already).
    ColorUp.objects.filter(tournament=room).update(rules={"rounding": "half_up", "protection": "added", "protected_first": True})
    first[seats[0]]["other"] = 0
    again = client_for(floor).post(url(room, "tables/1/race/cards/"), {"seats": first}, format="json").json()
    assert seats[0] not in again["cards"]
    assert again["cards"] == {seat: n for seat, n in needed.items() if seat != seats[0]}
    # The cards, as many as asked, race.
    deck = iter(["As", "Ks", "Qs", "Js", "Ts", "9s", "8s", "7s", "6s", "5s", "4s", "3s", "2s", "Ah", "Kh", "Qh", "Jh", "Th", "9h", "8h"])
    cards = {seat: [next(deck) for _ in range(n)] for seat, n in again["cards"].items()}
    raced = client_for(floor).post(url(room, "tables/1/race/"), {"seats": first, "cards": cards}, format="json")
    assert raced.status_code == 201, raced.content
    assert raced.json()["sheet"]["cards_entered"] and raced.json()["sheet"]["draw"] is None
    # One card short is refused with the seat and the number.
    short = {seat: hand[:-1] if seat == seats[2] else hand for seat, hand in cards.items()}
    refused = client_for(floor).post(url(room, "tables/1/race/"), {"seats": first, "cards": short}, format="json")
    assert refused.status_code == 400 and refused.json()["detail"]


def test_asking_for_the_cards_refuses_bad_counts_and_other_tables(room, director, floor):
    client_for(director).post(url(room, "color-ups/"), {"level": the_break(room)}, format="json")
    seat = next(iter(counts(room, 1)))
    for bad in (
        {},
        {"seats": []},
        {"seats": {}},
        {"seats": {seat: {"chips": {"25": -1}, "other": 0}}},
        {"seats": {seat: {"chips": {"25": 1}}}},
        {"seats": {"99": {"chips": {"25": 1}, "other": None}}},
        {"seats": {seat: {"chips": {"500": 1}, "other": None}}},
    ):
        answer = client_for(floor).post(url(room, "tables/1/race/cards/"), bad, format="json")
        assert answer.status_code == 400 and answer.json()["detail"], (bad, answer.content)
    _, secret = dealer_links.create_dealer_link(Table.objects.get(tournament=room, number=2), actor=floor, label="tablet 2")
    tablet = as_link(secret)
    assert tablet.post(url(room, "tables/1/race/cards/"), {"seats": counts(room, 1)}, format="json").status_code == 403
    own = tablet.post(url(room, "tables/2/race/cards/"), {"seats": counts(room, 2)}, format="json")
    assert own.status_code == 200 and own.json()["total"] == 3 * len(counts(room, 2))


def test_bad_race_input_is_a_400_and_records_nothing(room, director, floor):
    seats = {str(seat): {"chips": {"25": 1}, "other": None} for seat in range(1, 10)}
    assert client_for(floor).post(url(room, "tables/1/race/"), {"seats": seats}, format="json").status_code == 409
    client_for(director).post(url(room, "color-ups/"), {"level": the_break(room)}, format="json")
    seat = next(iter(counts(room, 1)))
    for bad in (
        {},
        {"seats": "x"},
        {"seats": {seat: {"chips": {"25": -1}, "other": 0}}},
        {"seats": {seat: {"chips": {"25": 1}}}},
        {"seats": {"99": {"chips": {"25": 1}, "other": 0}}},
        {"seats": {seat: {"chips": {"500": 1}, "other": 0}}},
        {"seats": counts(room, 1, quarters=1), "cards": {seat: ["Zz"]}},
    ):
        answer = client_for(floor).post(url(room, "tables/1/race/"), bad, format="json")
        assert answer.status_code == 400 and answer.json()["detail"], (bad, answer.content)
    assert not ChipRace.objects.exists()


def test_found_chips_are_exchanged_and_the_rest_removed_by_the_floor(room, director, floor, dealer):
    found = {"table": 1, "chips": {"25": 6}}
    assert client_for(floor).post(url(room, "color-ups/found-chips/"), found, format="json").status_code == 409
    client_for(director).post(url(room, "color-ups/"), {"level": the_break(room)}, format="json")
    assert client_for(dealer).post(url(room, "color-ups/found-chips/"), found, format="json").status_code == 403
    for bad in (
        {"table": 1, "chips": {"100": 1}},
        {"table": 1, "chips": {}},
        {"table": 1, "chips": {"25": 0}},
        {"table": 77, "chips": {"25": 1}},
    ):
        assert client_for(floor).post(url(room, "color-ups/found-chips/"), bad, format="json").status_code in (400, 404)
    before = tournament_stats(room)["chips_in_play"]
    answer = client_for(floor).post(url(room, "color-ups/found-chips/"), found, format="json")
    assert answer.status_code == 201
    assert answer.json() == {"table": 1, "found": {"25": 6}, "chip": 100, "exchanged": 1, "removed": 50}
    assert tournament_stats(room)["chips_in_play"] == before - 50
    assert ChipAdjustment.objects.get(kind="found").amount == -50
    assert client_for(floor).get(url(room, "color-ups/")).json()["found"][0]["amount"] == -50


def test_the_lobby_and_the_tablets_show_the_color_up_the_director_confirmed(room, director, dealer):
    from live.snapshots import lobby_snapshot

    level = the_break(room)

    def break_row(clock):
        return next(row for row in clock["rows"] if row["kind"] == "break")

    row = break_row(lobby_snapshot(room)["clock"])
    assert row["color_up"] == [25] and not row.get("color_up_confirmed")  # the structure's plan
    answer = client_for(director).post(url(room, "color-ups/"), {"level": level, "leaving": [25, 100]}, format="json")
    assert answer.status_code == 201 and answer.json()["color_up"]["new_chip"] == 500
    row = break_row(lobby_snapshot(room)["clock"])
    assert row["color_up"] == [25, 100] and row["color_up_confirmed"]
    state = dealer_tablet(dealer, room, 1).get(f"/api/tournaments/{room.pk}/tables/1/state/").json()
    assert break_row(state["clock"])["color_up"] == [25, 100] and state["table"]["race"]["color_up"]["leaving"] == [25, 100]
