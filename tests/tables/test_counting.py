"""Chip counts through the services and the JSON API (tables/services/counting.py, web/tables/count_api.py): a table's
counts entered at once on its tablet (a dealer link, the floor), one player's count by the floor, the room's check
against the chips in play, the lobby's chip leaders and the players' public counts, which a house setting turns off.
Bad input is a 4xx with a message and writes nothing."""

from __future__ import annotations

import pytest

from live.snapshots import lobby_snapshot
from tables.models import ChipCount, Table
from tables.services import busts, dealer_links, seats
from tests.helpers import client_for, url
from tests.tables.test_api import public
from tests.tables.test_dealer_links import as_link
from tests.tables.test_penalty_api import at_table
from tournament.models import AuditEvent

STACK = 20_000  # tournament_data's starting stack


def counts_of(t) -> list[tuple[int, int, bool]]:
    return list(ChipCount.objects.filter(tournament=t).order_by("pk").values_list("entry__number", "chips", "current"))


def link(floor, t, number: int) -> str:
    _link, secret = dealer_links.create_dealer_link(Table.objects.get(tournament=t, number=number), actor=floor)
    return secret


def count_table(client, t, number: int, seats: dict):
    return client.post(url(t, f"tables/{number}/counts/"), {"seats": {str(k): v for k, v in seats.items()}}, format="json")


def even(t, number: int, chips: int = STACK) -> dict[int, int]:
    return {s.seat: chips for s in seats_at(t, number)}


def seats_at(t, number: int):
    from tables.selectors.state import live_seats

    return list(live_seats(t).filter(table__number=number).order_by("seat"))


@pytest.mark.django_db
def test_the_dealer_tablet_enters_its_table_at_once_and_a_recount_keeps_the_history(t, floor):
    tablet = as_link(link(floor, t, 1))
    counts = even(t, 1)
    first_seat = min(counts)
    counts[first_seat] = 35_000
    answer = count_table(tablet, t, 1, counts)
    assert answer.status_code == 201, answer.content
    body = answer.json()
    assert body["counted"] == 6 and body["total"] == sum(counts.values())
    assert {p["seat"]: p["chips"] for p in body["players"]} == counts
    assert all(p["counted_by"] for p in body["players"]) and all(p["counted_at"] for p in body["players"])
    event = AuditEvent.objects.filter(tournament=t, type="chips.counted").get()
    assert event.payload["table"] == 1 and event.payload["total"] == sum(counts.values())
    again = count_table(tablet, t, 1, even(t, 1, 21_000))
    assert again.status_code == 201
    rows = counts_of(t)
    assert len(rows) == 12 and sum(1 for *_x, current in rows if current) == 6  # the first counts kept as history
    assert tablet.get(url(t, "tables/1/counts/")).json()["total"] == 6 * 21_000


@pytest.mark.django_db
@pytest.mark.parametrize(
    "change, code, status",
    [("negative", "negative", 400), ("empty", "empty_seat", 409), ("missing", "missing", 400), ("key", "invalid", 400)],
)
def test_bad_counts_are_refused_with_a_message_and_write_nothing(t, floor, change, code, status):
    counts = {str(k): v for k, v in even(t, 1).items()}
    first = min(counts, key=int)
    if change == "negative":
        counts[first] = -5
    elif change == "empty":
        counts[str(next(n for n in range(1, 10) if str(n) not in counts))] = 100
    elif change == "missing":
        del counts[first]
    else:
        counts["eleven"] = 100
    before = AuditEvent.objects.filter(tournament=t).count()
    answer = client_for(floor).post(url(t, "tables/1/counts/"), {"seats": counts}, format="json")
    assert answer.status_code == status, answer.content
    assert answer.json()["error"] == code and answer.json()["detail"]
    assert counts_of(t) == [] and AuditEvent.objects.filter(tournament=t).count() == before


@pytest.mark.django_db
def test_a_tablet_counts_only_its_own_table_and_one_players_count_is_the_floors(t, floor, dealer, cashier):
    assert count_table(as_link(link(floor, t, 1)), t, 2, even(t, 2)).status_code == 403
    assert count_table(client_for(cashier), t, 1, even(t, 1)).status_code == 403
    player = at_table(t, 2)[0]
    body = {"chips": 44_000}
    assert client_for(dealer).post(url(t, f"entries/{player.number}/count/"), body, format="json").status_code == 403
    answer = client_for(floor).post(url(t, f"entries/{player.number}/count/"), body, format="json")
    assert answer.status_code == 201, answer.content
    assert answer.json()["chips"] == 44_000 and answer.json()["table"] == 2 and answer.json()["counted_by"] == floor.username
    assert client_for(floor).post(url(t, f"entries/{player.number}/count/"), {"chips": -1}, format="json").status_code == 400
    busts.bust_entry(at_table(t, 1)[0], actor=floor)
    gone = t.entries.get(status="busted").number
    refused = client_for(floor).post(url(t, f"entries/{gone}/count/"), body, format="json")
    assert refused.status_code == 409 and refused.json()["error"] == "not_seated"
    assert counts_of(t) == [(player.number, 44_000, True)]


@pytest.mark.django_db
def test_the_room_adds_up_to_the_chips_in_play_and_flags_a_table_not_counted(t, floor):
    floor_api = client_for(floor)
    count_table(floor_api, t, 1, even(t, 1))
    check = floor_api.get(url(t, "counts/")).json()
    assert check["not_counted"] == 6 and check["difference"] is None and check["flagged"] == [2]
    two = next(row for row in check["tables"] if row["table"] == 2)
    assert two["expected"] == 6 * STACK and two["difference"] == -6 * STACK and len(two["missing"]) == 6
    counts = even(t, 2)
    counts[min(counts)] -= 500  # a stack miscounted
    count_table(floor_api, t, 2, counts)
    check = floor_api.get(url(t, "counts/")).json()
    assert (check["counted_total"], check["chips_in_play"], check["difference"]) == (12 * STACK - 500, 12 * STACK, -500)
    assert check["flagged"] == [] and len(check["stacks"]) == 12
    mover = at_table(t, 1)[0]  # moved to table 2: counted at table 1, not since he sat at table 2
    free = next(n for n in range(1, 10) if n not in {s.seat for s in seats_at(t, 2)})
    seats.correct_seat(mover, actor=floor, table_number=2, seat_number=free)
    check = floor_api.get(url(t, "counts/")).json()
    assert check["flagged"] == [2] and check["not_counted"] == 1
    assert next(row for row in check["tables"] if row["table"] == 2)["missing"] == [free]


@pytest.mark.django_db
def test_the_lobby_shows_the_leaders_and_the_phones_every_count_unless_the_house_hides_them(t, floor, director):
    counts = even(t, 1)
    seats_by_number = sorted(counts)
    counts[seats_by_number[0]], counts[seats_by_number[1]] = 50_000, 50_000
    count_table(client_for(floor), t, 1, counts)
    leaders = lobby_snapshot(t)["leaders"]
    assert [row["rank"] for row in leaders["top"]] == [1, 1, 3, 3, 3, 3]
    assert leaders["top"][0]["chips"] == 50_000 and leaders["top"][0]["name"]
    assert leaders["top"][0]["big_blinds"] == 50_000 / 200 and leaders["counted"] == 6
    assert (leaders["average"], leaders["chips_in_play"]) == (STACK, 12 * STACK)
    anyone = client_for()
    everything = anyone.get(public(t, "counts/")).json()
    assert everything["total"] == 6 and [row["chips"] for row in everything["stacks"]][:2] == [50_000, 50_000]
    name = everything["stacks"][0]["name"]
    found = anyone.get(public(t, "counts/"), {"q": name.split()[0].lower()}).json()
    assert found["total"] >= 1 and all(row["name"] == name or name.split()[0] in row["name"] for row in found["stacks"])
    busts.bust_entry(at_table(t, 1)[0], actor=floor)
    assert lobby_snapshot(t)["leaders"]["counted"] == 5  # a busted player's count leaves the board
    hidden = client_for(director).patch(url(t, "house-rules/"), {"public_chip_counts": False}, format="json")
    assert hidden.status_code == 200 and hidden.json()["public_chip_counts"] is False
    assert lobby_snapshot(t)["leaders"] is None
    assert anyone.get(public(t, "counts/")).status_code == 404
    assert client_for(floor).get(url(t, "counts/")).json()["public"] is False  # the floor still sees them
