"""A whole night at festival size, played to a winner through the services with random floor actions.

N entries (default 1,000) register with their ID checks and are drawn at 9-seat tables; then, until one
player is left, the floor does what a night brings, at random: busts (one at a time and several in one
hand, with the chips they started the hand with), hands started and reported done, a start undone, slips
confirmed (and sometimes cancelled, then "Balance now"), the buttons balancing asks for, penalties, the
clock's levels, the color-up at the break with a race at every table, and hand-for-hand at the bubble.
10% of the busts are undone at once (a mistaken bust). At three players an ICM deal is proposed and
approved; play goes on to the winner, and every prize is paid with the ID typed again and a signature.

It prints each action's count, p50, p99 and max in milliseconds (target: every floor action p99 < 150 ms)
and checks the invariants of a night at the end (tests/test_whole_night.py's checks).

Run by hand (its own database; SQLite by default, PostgreSQL with DATABASE_URL):
    .venv/bin/python bench/night.py [entries=1000] [seed=1]
    DATABASE_URL=postgres://postgres@127.0.0.1:5432/test .venv/bin/python bench/night.py 1000
"""

from __future__ import annotations

import os
import random
import sys
import time
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

import django  # noqa: E402

django.setup()

FLOOR_ACTIONS = (
    "bust",
    "undo bust",
    "hand start",
    "hand done",
    "undo hand start",
    "confirm slip",
    "cancel slip",
    "balance now",
    "enter button",
    "penalty",
    "race",
    "race confirm",
    "h4h hand start",
    "h4h hand done",
)


def pct(values: list[float], q: float) -> float:
    values = sorted(values)
    return values[min(len(values) - 1, int(q * len(values)))] if values else float("nan")


class Night:
    def __init__(self, entries: int, seed: int) -> None:
        from django.contrib.auth.models import Group, User

        self.rng = random.Random(seed)
        self.times: dict[str, list[float]] = defaultdict(list)
        self.refused: dict[str, int] = defaultdict(int)
        self.staff = {}
        for role, name in (("Director", "director"), ("Floor", "floor"), ("Cashier", "cashier"), ("Dealer", "dealer")):
            user = User.objects.create_user(f"night-{name}")
            user.groups.add(Group.objects.get_or_create(name=role)[0])
            self.staff[name] = user
        self.entries = entries

    def timed(self, name: str, fn, *args, **kwargs):
        from django.core.exceptions import ValidationError

        from core.errors import ServiceError

        started = time.perf_counter()
        try:
            result = fn(*args, **kwargs)
        except (ServiceError, ValidationError):
            self.refused[name] += 1
            result = None
        self.times[name].append((time.perf_counter() - started) * 1000)
        return result

    # --- the evening ----------------------------------------------------------------------------------

    def setup(self) -> None:
        from datetime import UTC, date, datetime

        from payouts.services import structure as payouts
        from tables.models import Table
        from tables.services import draws
        from tables.services import setup as table_setup
        from tournament.rules.structure import LevelSpec, StructureSpec
        from tournament.services import registration as payouts_services
        from tournament.services import setup

        d = self.staff["director"]
        spec = StructureSpec(
            "Night",
            ((25, "green"), (100, "black"), (500, "purple"), (1000, "yellow")),
            (
                LevelSpec("level", 20, 100, 200, 0, "none"),
                LevelSpec("level", 20, 200, 400, 400, "bba"),
                LevelSpec("break", 10, color_up=(25,)),
                LevelSpec("level", 20, 300, 600, 600, "bba"),
                LevelSpec("level", 20, 400, 800, 800, "bba"),
            ),
        )
        template = setup.save_structure_template(spec, actor=d)
        self.t = setup.create_tournament(
            {
                "name": "Night bench",
                "venue": "Bench",
                "time_zone": "Europe/Prague",
                "start_at": datetime(2026, 12, 1, 18, tzinfo=UTC),
                "seats_per_table": 9,
                "currency": "CZK",
                "buy_in": 100_000,
                "fee": 10_000,
                "starting_stack": 20_000,
                "late_reg_until_level": 1,
            },
            actor=d,
            template=template,
        )
        for number in range(1, -(-self.entries // 9) + 1):
            table_setup.open_table(self.t, actor=d, number=number, seats=9)
        self.documents = {}
        for i in range(self.entries):
            player = payouts_services.create_player(
                actor=self.staff["cashier"], first_name=f"P{i}", last_name="Night", date_of_birth=date(1980, 1, 1 + i % 28)
            )
            self.documents[player.pk] = f"NB{i:07d}"
            self.timed(
                "register",
                payouts_services.register_entry,
                self.t,
                actor=self.staff["cashier"],
                player=player,
                document=payouts_services.IdDocument(document_type="id_card", number=f"NB{i:07d}"),
            )
        self.timed("start draw", draws.draw_start, self.t, actor=d)
        for table in Table.objects.filter(tournament=self.t, in_play=True):
            self.timed("button draw", draws.draw_button, table, actor=d)
        payouts.set_payout_plan(self.t, actor=d, data={"share_paid_bp": 1500})
        payouts_services.set_registration_closed(self.t, actor=d, closed=True)

    def pick_table(self):
        from tables.models import Table

        tables = list(Table.objects.filter(tournament=self.t, in_play=True))
        return self.rng.choice(tables) if tables else None

    def seated(self, table) -> list:
        from tables.models import Seat

        return [s.entry for s in Seat.objects.filter(table=table, ended_at__isnull=True).select_related("entry")]

    def left(self) -> int:
        from tournament.models import Entry

        return Entry.objects.filter(tournament=self.t, status=Entry.Status.ACTIVE).count()

    def bust_some(self, in_h4h: bool) -> None:
        from tables.services import busts, hands

        table = self.pick_table()
        if table is None:
            return
        if not in_h4h and self.rng.random() < 0.5:
            self.timed("hand start", hands.start_hand, table, actor=self.staff["dealer"])
        players = self.seated(table)
        if len(players) < 2:
            return
        out = self.rng.sample(players, 2 if self.rng.random() < 0.15 and len(players) > 2 else 1)
        for entry in out:
            stack = self.rng.randint(1, 40) * 1000
            self.timed("bust", busts.bust_entry, entry, actor=self.staff["floor"], stack=stack)
            if self.rng.random() < 0.10:  # a mistaken bust: undone at once, then busted again
                entry.refresh_from_db()
                self.timed("undo bust", busts.undo_bust, entry, actor=self.staff["floor"])
                entry.refresh_from_db()
                self.timed("bust", busts.bust_entry, entry, actor=self.staff["floor"], stack=stack)

    def floor_round(self) -> None:
        from tables.models import Move, Seat, Table
        from tables.services import handforhand, hands, moves, penalties, seats

        f = self.staff["floor"]
        pending = list(Move.objects.filter(tournament=self.t, status=Move.Status.PENDING).order_by("number"))
        for move in pending:
            if self.rng.random() < 0.05:
                self.timed("cancel slip", moves.cancel_move, self.t, actor=f, number=move.number, reason="player not there")
                self.timed("balance now", moves.balance_now, self.t, actor=f)
            else:
                self.timed("confirm slip", moves.confirm_move, self.t, actor=f, number=move.number)
        for table in Table.objects.filter(tournament=self.t, in_play=True, needs_button=True):
            occupied = sorted(Seat.objects.filter(table=table, ended_at__isnull=True).values_list("seat", flat=True))
            if occupied:
                self.timed("enter button", seats.enter_button, table, actor=f, seat=occupied[0])
        table = self.pick_table()
        if table is None:
            return
        roll = self.rng.random()
        if roll < 0.25:
            self.timed("hand start", hands.start_hand, table, actor=self.staff["dealer"])
        elif roll < 0.45:
            self.timed("hand done", handforhand.hand_done, table, actor=f)
        elif roll < 0.50:
            self.timed("undo hand start", hands.undo_hand_start, table, actor=self.staff["dealer"])
        elif roll < 0.53:
            players = self.seated(table)
            if players:
                self.timed(
                    "penalty",
                    penalties.give_penalty,
                    self.t,
                    actor=f,
                    entry_number=self.rng.choice(players).number,
                    kind="hand",
                    rounds=None,
                    reason="phone at the table",
                )

    def color_up(self) -> None:
        from clock.services import clock
        from tables.models import Seat, Table
        from tables.services import color_ups
        from tournament.models import Level

        d = self.staff["director"]
        clock.start_clock(self.t, actor=d)
        clock.step_level(self.t, actor=d, step=1)
        clock.step_level(self.t, actor=d, step=1)  # the break
        row = Level.objects.get(structure=self.t.structure, kind=Level.Kind.BREAK)
        color_up = self.timed("color-up confirm", color_ups.confirm_color_up, self.t, actor=d, level=row.position)
        for table in Table.objects.filter(tournament=self.t, in_play=True):
            seats = {
                str(seat): {"chips": {"25": self.rng.randint(0, 7)}, "other": 10_000}
                for seat in Seat.objects.filter(table=table, ended_at__isnull=True).values_list("seat", flat=True)
            }
            race = self.timed("race", color_ups.record_race, table, actor=self.staff["dealer"], color_up=color_up, seats=seats)
            if race is not None:
                self.timed("race confirm", color_ups.confirm_race, race, actor=self.staff["dealer"])
        clock.step_level(self.t, actor=d, step=1)

    def bubble(self) -> None:
        """Hand-for-hand from the bubble until someone bursts it."""
        from tables.models import Table
        from tables.selectors import screens
        from tables.services import busts, handforhand, hands

        d, f = self.staff["director"], self.staff["floor"]
        self.timed("h4h start", handforhand.start_hand_for_hand, self.t, actor=d)
        while not screens.hand_for_hand_status(self.t)["in_the_money"]:
            self.floor_round()
            h = handforhand.hand_for_hand(self.t)
            if h is None or not h.called:
                continue
            for number in list(h.tables):
                table = Table.objects.filter(tournament=self.t, number=number, in_play=True).first()
                if table is None:
                    continue
                self.timed("h4h hand start", hands.start_hand, table, actor=self.staff["dealer"])
                if self.rng.random() < 0.1:
                    players = self.seated(table)
                    if len(players) > 1:
                        self.timed("bust", busts.bust_entry, self.rng.choice(players), actor=f, stack=self.rng.randint(1, 40) * 1000)
                self.timed("h4h hand done", handforhand.hand_done, table, actor=f)
        self.timed("h4h end", handforhand.stop_hand_for_hand, self.t, actor=d)

    def deal_and_pay(self) -> None:
        from payouts.selectors import structure as payouts_selectors
        from payouts.services import structure as payouts_services
        from tables.models import Table
        from tables.services import handforhand
        from tests.payouts.test_payments import signature
        from tournament.models import Entry
        from tournament.services import registration as tournament_services

        left = list(Entry.objects.filter(tournament=self.t, status=Entry.Status.ACTIVE))
        stacks = {str(e.number): self.rng.randint(10, 200) * 1000 for e in left}
        deal = self.timed(
            "deal propose", payouts_services.propose_deal, self.t, actor=self.staff["floor"], data={"kind": "icm", "stacks": stacks}
        )
        if deal is not None:
            self.timed("deal approve", payouts_services.approve_deal, deal, actor=self.staff["director"])
        while self.left() > 1:
            self.bust_some(in_h4h=False)
            self.floor_round()
        for table in Table.objects.filter(tournament=self.t, in_play=True, hand_in_progress=True):
            self.timed("hand done", handforhand.hand_done, table, actor=self.staff["floor"])  # the last hand over
        ink = signature()
        for entry_number in [n for n, amount in payouts_selectors.prizes_won(self.t).items() if amount > 0]:
            entry = Entry.objects.get(tournament=self.t, number=entry_number)
            self.timed(
                "pay prize",
                payouts_services.pay_prize,
                entry,
                actor=self.staff["cashier"],
                document=tournament_services.IdDocument(document_type="id_card", number=self.documents[entry.player_id]),
                signature=ink,
            )

    def play(self) -> None:
        from tables.selectors import screens

        self.setup()
        colored = False
        while True:
            left = self.left()
            paid = screens.places_paid(self.t)
            if not colored and left < self.entries * 0.8:
                self.color_up()
                colored = True
            if paid and left == paid + 1:
                self.bubble()
                continue
            if left <= 3:
                break
            self.bust_some(in_h4h=False)
            self.floor_round()
        self.deal_and_pay()

    def report(self) -> None:
        from tests.test_whole_night import check_night

        print(f"whole night: {self.entries} entries to a winner")
        print(f"{'action':<24}{'count':>7}{'refused':>9}{'p50 ms':>9}{'p99 ms':>9}{'max ms':>9}")
        worst = 0.0
        for name, values in sorted(self.times.items()):
            p99 = pct(values, 0.99)
            if name in FLOOR_ACTIONS:
                worst = max(worst, p99)
            print(f"{name:<24}{len(values):>7}{self.refused.get(name, 0):>9}{pct(values, 0.5):>9.1f}{p99:>9.1f}{max(values):>9.1f}")
        print(f"worst floor action p99: {worst:.1f} ms (target < 150)")
        check_night(self.t)
        print("invariants at the end: all hold")


def main() -> None:
    from bench.common import in_own_database

    entries = int(sys.argv[1]) if len(sys.argv) > 1 else 1000
    seed = int(sys.argv[2]) if len(sys.argv) > 2 else 1

    def run():
        night = Night(entries, seed)
        night.play()
        night.report()

    in_own_database("night", run)


if __name__ == "__main__":
    main()
