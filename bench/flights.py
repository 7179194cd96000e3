"""Three Day 1 flights into one Day 2, end to end: each flight of N entries is registered at the desk
(some players play a second flight: best stack forward), drawn, played down by busts until its share of the field is
left (the flight's end rule stops it), bagged table by table and closed; the bags are carried into Day 2 and Day 2's
verifiable start draw seats them. Every step goes through the services the screens call.

Checked at the end (the same checks run at a small scale in tests/flights/test_simulation.py):
- the bags of each flight add up to its chips in play (the day closes without a reason);
- each player goes on once, with his largest bag; the bags carried plus those forfeited are every bag;
- Day 2's chips in play are the carried bags' total, and its entries and prize pool are summed over the flights;
- Day 2's draw seats exactly the carried entries, each once, and its public recompute matches.

Run by hand against PostgreSQL (its own database, dropped afterwards):
    DATABASE_URL=postgres://postgres@127.0.0.1:5432/test .venv/bin/python bench/flights.py [N=1000]
"""

from __future__ import annotations

import os
import random
import sys
import time
from datetime import UTC, date, datetime, timedelta
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

import django  # noqa: E402

django.setup()

FLIGHTS = 3
SHARE = 30  # a flight ends once 30 % of its field or fewer are left
REPLAY = 0.2  # the share of a later flight's field who played an earlier flight (best stack forward)


def _staff():
    from django.contrib.auth.models import Group, User

    def user(name: str, role: str):
        u = User.objects.create_user(f"sim-{name}")
        u.groups.add(Group.objects.get_or_create(name=role)[0])
        return u

    return user("director", "Director"), user("cashier", "Cashier"), user("floor", "Floor")


def _split(total: int, parts: int, rng: random.Random, unit: int = 1) -> list[int]:
    """`total` chips over `parts` players, each at least one `unit` (the smallest chip in play: a bag is made of the
    chips in play), summing exactly."""
    units = total // unit
    weights = [rng.uniform(0.2, 3.0) for _ in range(parts)]
    scale = (units - parts) / sum(weights)
    chips = [(1 + int(w * scale)) * unit for w in weights]
    chips[-1] += total - sum(chips)
    return chips


def simulate(entries: int = 1000, flights: int = FLIGHTS, seed: int = 25, report=print) -> dict:
    """Run the festival; returns the figures and raises AssertionError when a check fails."""
    from core.errors import ServiceError
    from days.models import Bag
    from days.services import bags as days
    from flights.models import CarriedBag
    from flights.selectors import events as event_selectors
    from flights.services import events as event_services
    from tables.models import Draw, Seat, Table
    from tables.rules import seating
    from tables.selectors.draw_check import verify_draw
    from tables.selectors.state import denominations_in_play
    from tables.services import busts, draws
    from tables.services import setup as table_setup
    from tests.conftest import tournament_data
    from tests.helpers import id_doc
    from tournament.models import Entry
    from tournament.rules.structure import LevelSpec, StructureSpec
    from tournament.selectors.stats import tournament_stats
    from tournament.services import registration as desk
    from tournament.services import setup

    rng = random.Random(seed)
    director, cashier, floor = _staff()
    spec = StructureSpec(
        "Festival", ((25, "green"), (100, "black"), (1000, "yellow")), tuple(LevelSpec("level", 40, 100 * i, 200 * i) for i in range(1, 6))
    )
    template = setup.save_structure_template(spec, actor=director)
    start = datetime(2026, 12, 1, 12, 0, tzinfo=UTC)

    def tournament(name: str, day: int):
        return setup.create_tournament(
            tournament_data(name=name, start_at=start + timedelta(days=day), guaranteed_pool=0, reentry_allowed=False, max_reentries=None),
            actor=director,
            template=template,
        )

    figures: dict = {"entries": entries, "flights": flights}
    event = event_services.create_event(actor=director, name="Festival Main Event", policy="best")
    day1 = []
    for i in range(flights):
        t = tournament(f"Main Event Day 1{'ABCDEFGH'[i]}", i)
        flight = event_services.add_flight(event, actor=director, tournament=t, label=f"1{'ABCDEFGH'[i]}")
        event_services.set_flight_end(flight, actor=director, share_percent=SHARE)
        day1.append(t)
    day2 = tournament("Main Event Day 2", flights + 1)
    event_services.set_day2(event, actor=director, tournament=day2)

    played: list = []  # players who played a flight already
    made = 0
    tic = time.perf_counter()
    for t in day1:
        for n in range(1, seating.tables_needed(entries, t.seats_per_table) + 1):
            table_setup.open_table(t, actor=director, number=n, seats=t.seats_per_table)
        field = []
        replays = rng.sample(played, min(len(played), int(entries * REPLAY)))
        for player in replays:
            field.append(desk.register_entry(t, actor=cashier, player=player, document=id_doc(f"FS{player.pk:07d}")))
        while len(field) < entries:
            made += 1
            player = desk.create_player(actor=cashier, first_name=f"S{made}", last_name="Festival", date_of_birth=date(1990, 1, 1))
            field.append(desk.register_entry(t, actor=cashier, player=player, document=id_doc(f"FS{player.pk:07d}")))
        played += [e.player for e in field if e.player not in played]
        draws.draw_start(t, actor=director)
        # Play: busts until the flight's end rule says it ends at the end of this level.
        while not event_selectors.flight_ending(t):
            active = list(Entry.objects.filter(tournament=t, status=Entry.Status.ACTIVE).values_list("pk", flat=True))
            busts.bust_entry(Entry(pk=rng.choice(active), tournament_id=t.pk), actor=floor)
        # Bag-and-tag: every seated player's chips (the chips in play split among them) and a bag number.
        in_play = tournament_stats(t)["chips_in_play"]
        seats = list(Seat.objects.filter(tournament=t, ended_at__isnull=True).select_related("table", "entry"))
        unit = min(denominations_in_play(t))
        chips = dict(zip([s.pk for s in seats], _split(in_play, len(seats), rng, unit), strict=True))
        by_table: dict[int, list] = {}
        for s in seats:
            by_table.setdefault(s.table_id, []).append(s)
        for table_id, at in sorted(by_table.items()):
            bags = {s.seat: (chips[s.pk], f"{t.pk}-{s.table.number}-{s.seat}") for s in at}
            try:
                days.record_table_bags(Table.objects.get(pk=table_id), actor=floor, bags=bags)
            except ServiceError:  # a table breaking (its players on their way): bagged one by one
                for s in at:
                    days.record_bag(s.entry, actor=floor, chips=chips[s.pk], bag=f"{t.pk}-{s.table.number}-{s.seat}")
        days.close_day(t, actor=director)  # no reason: the bags add up and nobody is missing
        figures[f"flight {t.name} left"] = len(seats)
    figures["day 1 s"] = time.perf_counter() - tic

    bags = list(Bag.objects.filter(tournament__in=day1, current=True).values_list("pk", "entry__player_id", "chips"))
    tic = time.perf_counter()
    carried = event_services.carry_to_day2(event, actor=director)
    figures["carry s"] = time.perf_counter() - tic
    kept = list(CarriedBag.objects.filter(event=event, forfeited=False).values_list("bag_id", "player_id", "bag__chips"))
    lost = list(CarriedBag.objects.filter(event=event, forfeited=True).values_list("bag_id", "bag__chips"))
    assert len(kept) + len(lost) == len(bags), "every bag is carried or forfeited"
    assert len({player for _b, player, _c in kept}) == len(kept), "each player goes on once"
    largest: dict[int, int] = {}
    for _pk, player, amount in bags:
        largest[player] = max(largest.get(player, 0), amount)
    assert {player: amount for _b, player, amount in kept} == largest, "each player goes on with his largest bag"
    day2_entries = list(Entry.objects.filter(tournament=day2).values_list("number", "player_id"))
    assert len(day2_entries) == len(kept) == carried["carried"]
    stats = tournament_stats(day2)
    assert stats["chips_in_play"] == sum(amount for _b, _p, amount in kept), "Day 2's chips are the carried bags'"
    flight_stats = [tournament_stats(t) for t in day1]
    assert stats["entries"] == sum(s["entries"] for s in flight_stats) == flights * entries
    assert stats["prize_pool"] == sum(s["collected"] for s in flight_stats), "one pool over the flights"

    for n in range(1, seating.tables_needed(len(kept), day2.seats_per_table) + 1):
        table_setup.open_table(day2, actor=director, number=n, seats=day2.seats_per_table)
    tic = time.perf_counter()
    draw = draws.draw_start(day2, actor=director)
    figures["day 2 draw ms"] = (time.perf_counter() - tic) * 1000
    seated = list(Seat.objects.filter(tournament=day2, ended_at__isnull=True).values_list("entry__number", flat=True))
    assert sorted(seated) == sorted(number for number, _p in day2_entries), "Day 2 seats exactly the carried players"
    check = verify_draw(Draw.objects.get(pk=draw.pk))
    assert check["matches"] is True, "the public recompute of Day 2's draw matches"
    figures.update(
        {
            "players": len(largest),
            "bags": len(bags),
            "carried": len(kept),
            "forfeited": len(lost),
            "day 2 tables": Table.objects.filter(tournament=day2, in_play=True).count(),
            "chips carried": stats["chips_in_play"],
            "pool": stats["prize_pool"],
        }
    )
    for key, value in figures.items():
        report(f"{key}: {round(value, 2) if isinstance(value, float) else value}")
    return figures


def main(n: int) -> None:
    from bench.common import in_own_database

    in_own_database("flights", simulate, n)


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 1000)
