"""Loads a demo room: one user per role, a structure template, a tournament with registered players
and a lobby screen link. Safe to run again: it changes nothing once the demo exists, except the demo
users' password, which is new on every run (or DEMO_PASSWORD, or --password) and printed: a demo
reachable from the network must not open with a password everybody can read in the README."""

from __future__ import annotations

import os
import random
import secrets
from datetime import date, datetime, time, timedelta
from zoneinfo import ZoneInfo

from django.contrib.auth.models import Group, User
from django.core.management.base import BaseCommand
from django.db import transaction
from django.utils import timezone

from leagues.services import leagues
from payouts.services import tickets
from tables.services import draws
from tables.services import setup as table_setup
from tournament.models import Tournament
from tournament.rules.structure import LevelSpec, StructureSpec
from tournament.services import registration, setup
from venues.services import displays, sit_and_go
from venues.services import setup as venue_setup

DEMO_NAME = "Demo: Friday Deepstack"
DEMO_USERS = (("director", "Director"), ("floor", "Floor"), ("cashier", "Cashier"), ("dealer", "Dealer"))
FIRST = [
    "Jana",
    "Peter",
    "Lucia",
    "Martin",
    "Eva",
    "Tomáš",
    "Zuzana",
    "Michal",
    "Katarína",
    "Jakub",
    "Veronika",
    "Ondřej",
    "Petra",
    "Lukáš",
    "Monika",
    "Marek",
    "Alena",
    "Radek",
    "Simona",
    "Filip",
]
LAST = [
    "Nováková",
    "Horváth",
    "Kováčová",
    "Dvořák",
    "Svobodová",
    "Varga",
    "Černá",
    "Tóth",
    "Procházková",
    "Kučera",
    "Veselá",
    "Baláž",
    "Marková",
    "Šimek",
    "Krejčí",
    "Polák",
    "Benešová",
    "Hudec",
    "Urbanová",
    "Sedlák",
]

DEMO_STRUCTURE = StructureSpec(
    name="Deepstack 30k, 20-minute levels",
    denominations=((25, "green"), (100, "black"), (500, "purple"), (1000, "yellow"), (5000, "red")),
    levels=(
        LevelSpec("level", 20, 100, 200, 0, "none"),
        LevelSpec("level", 20, 100, 200, 200, "bba"),
        LevelSpec("level", 20, 200, 300, 300, "bba"),
        LevelSpec("level", 20, 200, 400, 400, "bba"),
        LevelSpec("break", 15, color_up=(25,)),
        LevelSpec("level", 20, 300, 600, 600, "bba"),
        LevelSpec("level", 20, 400, 800, 800, "bba"),
        LevelSpec("level", 20, 500, 1000, 1000, "bba"),
        LevelSpec("level", 20, 600, 1200, 1200, "bba"),
        LevelSpec("break", 15, color_up=(100,)),
        LevelSpec("level", 20, 1000, 1500, 1500, "bba"),
        LevelSpec("level", 20, 1000, 2000, 2000, "bba"),
        LevelSpec("level", 20, 1500, 3000, 3000, "bba"),
        LevelSpec("level", 20, 2000, 4000, 4000, "bba"),
    ),
)


class Command(BaseCommand):
    help = "Load the demo tournament and one login per role (for trying the product, never for a real room)."

    def add_arguments(self, parser):
        parser.add_argument(
            "--password", default=None, help="password of every demo user (default: DEMO_PASSWORD, else a new random one each run)"
        )
        parser.add_argument("--players", type=int, default=24)

    @transaction.atomic
    def handle(self, *args, password: str | None, players: int, **options):
        password = password or os.environ.get("DEMO_PASSWORD") or secrets.token_urlsafe(9)
        users = {}
        for username, role in DEMO_USERS:
            user, created = User.objects.get_or_create(username=username)
            if created:
                user.is_staff = role == "Director"
                user.groups.add(Group.objects.get_or_create(name=role)[0])
            user.set_password(password)  # this run's password, the one printed below
            user.save()
            users[role] = user
        admin_user, created = User.objects.get_or_create(username="admin", defaults={"is_superuser": True, "is_staff": True})
        admin_user.set_password(password)
        admin_user.save()
        tournament = Tournament.objects.filter(name=DEMO_NAME).first()
        if tournament is None:
            template = setup.save_structure_template(DEMO_STRUCTURE, actor=users["Director"])
            zone = ZoneInfo("Europe/Prague")
            start = datetime.combine(timezone.localdate(timezone=zone), time(19, 0), tzinfo=zone)
            tournament = setup.create_tournament(
                {
                    "name": DEMO_NAME,
                    "venue": "Demo Card Room, Praha",
                    "time_zone": "Europe/Prague",
                    "start_at": start,
                    "table_format": "full_ring",
                    "seats_per_table": 9,
                    "currency": "CZK",
                    "buy_in": 200000,
                    "fee": 30000,
                    "starting_stack": 30000,
                    "reentry_allowed": True,
                    "max_reentries": 2,
                    "late_reg_until_level": 8,
                    "guaranteed_pool": 10000000,
                    "addon_allowed": True,
                    "addon_price": 100000,
                    "addon_chips": 20000,
                    "max_addons": 1,
                    "addon_until_level": 4,
                },
                actor=users["Director"],
                template=template,
            )
            rng = random.Random(2026)
            documents = []
            for i in range(players):
                player = registration.create_player(
                    actor=users["Cashier"],
                    first_name=FIRST[i % len(FIRST)],
                    last_name=LAST[(i * 7 + i // len(FIRST)) % len(LAST)],  # every name once: the public standings show names
                    date_of_birth=date(1965 + rng.randrange(35), 1 + rng.randrange(12), 1 + rng.randrange(28)),
                )
                number = f"DEMO{rng.randrange(10**7, 10**8)}"
                registration.register_entry(
                    tournament, actor=users["Cashier"], player=player, document=registration.IdDocument("id_card", number)
                )
                documents.append((player, number))
            demo_room(users["Director"])
            for number in range(1, 5):  # table 4 has wheelchair access; the draw needs only three
                table_setup.open_table(tournament, actor=users["Director"], number=number, seats=9, accessible=number == 4)
            draws.draw_start(tournament, actor=users["Director"])
            display = registration.create_display_token(tournament, actor=users["Director"], label="Lobby TV")
            # The season it counts for (the points come when its play is over): a points table, the best 8 results.
            league = leagues.create_league(
                actor=users["Director"],
                data={
                    "name": "Demo: Friday League",
                    "formula": "table",
                    "points_table": [25, 18, 15, 12, 10, 8, 6, 4, 2, 1],
                    "participation": 1,
                    "best_results": 8,
                    "currency": "CZK",
                },
            )
            leagues.add_tournament(league, actor=users["Director"], tournament=tournament)
            demo_satellite(users, template, start, documents)
            demo_sit_and_go(users, template, start, documents)
            demo_bounty(users, template, start, documents)
            room_tv = displays.create_display(venue_setup.default_venue(), actor=users["Director"], label="Room TV")
        else:  # links are kept only as hashes: an earlier run's link cannot be shown again
            display = room_tv = None
        self.stdout.write(self.style.SUCCESS(f"Demo tournament: {tournament.name} (id {tournament.pk})"))
        names = ", ".join(u for u, _ in DEMO_USERS)
        self.stdout.write(f"Logins: {names}, admin (superuser)")
        self.stdout.write(f"Password for all of them: {password}")
        if display:
            self.stdout.write(f"Lobby screen path: /display/{display.token}/")
        else:
            self.stdout.write(f"Lobby screen links: make one on /t/{tournament.pk}/displays/ (shown once)")
        if room_tv:
            self.stdout.write(f"Room TV path: /display/room/{room_tv.token}/")
        main_event = Tournament.objects.filter(name="Demo: Sunday Main Event").first()
        if main_event is not None:
            self.stdout.write(f"Reserve a place (players' phones): /t/{main_event.pk}/reserve/")


# The demo room: a Main hall, a Side room and two tables of the bar given to cash games (docs/room.md).
DEMO_ROOM = "number,area,seats,state\n" + "\n".join(
    [f"{n},Main hall,{10 if n in (7, 8) else 9},open" for n in range(1, 9)]
    + [f"{n},Side room,9,open" for n in range(11, 17)]
    + [f"{n},Bar,8,cash" for n in (21, 22)]
)


def demo_room(director) -> None:
    """The venue's tables set up from a room file, the Main hall filled first."""
    venue = venue_setup.default_venue()
    venue_setup.import_room(venue, actor=director, text=DEMO_ROOM)
    venue_setup.set_areas(venue, actor=director, areas=["Main hall", "Side room", "Bar"])


def demo_sit_and_go(users: dict, template, start: datetime, documents: list) -> None:
    """A 6-max sit & go series with four of its six players registered: the sixth registration seats them at a free table
    and opens the next one."""
    director = users["Director"]
    sng = setup.create_tournament(
        {
            "name": "Demo: Turbo Sit & Go",
            "venue": "Demo Card Room, Praha",
            "time_zone": "Europe/Prague",
            "start_at": start - timedelta(hours=1),
            "table_format": "six_max",
            "seats_per_table": 6,
            "currency": "CZK",
            "buy_in": 50000,
            "fee": 5000,
            "starting_stack": 10000,
        },
        actor=director,
        template=template,
    )
    sit_and_go.set_sit_and_go(sng, actor=director, players=6, opens_next=True)
    for player, number in documents[16:20]:
        registration.register_entry(sng, actor=users["Cashier"], player=player, document=registration.IdDocument("id_card", number))


def demo_bounty(users: dict, template, start: datetime, documents: list) -> None:
    """A progressive knockout side event (docs/bounties.md), twelve players drawn at the side room's tables 13 and 14:
    1,000 CZK to the prize pool, 1,000 CZK on each head, 200 CZK fee; a bust there asks who won the pot."""
    director = users["Director"]
    pko = setup.create_tournament(
        {
            "name": "Demo: PKO Bounty",
            "venue": "Demo Card Room, Praha",
            "time_zone": "Europe/Prague",
            "start_at": start + timedelta(hours=1),
            "table_format": "full_ring",
            "seats_per_table": 9,
            "currency": "CZK",
            "buy_in": 100000,
            "bounty_format": "progressive",
            "bounty": 100000,
            "fee": 20000,
            "starting_stack": 20000,
            "late_reg_until_level": 4,
            "guaranteed_pool": 0,
        },
        actor=director,
        template=template,
    )
    for player, number in documents[-12:]:
        registration.register_entry(pko, actor=users["Cashier"], player=player, document=registration.IdDocument("id_card", number))
    for number in (13, 14):
        table_setup.open_table(pko, actor=director, number=number, seats=9)
    draws.draw_start(pko, actor=director)
    for table in pko.tables.filter(seat_rows__isnull=False, seat_rows__ended_at__isnull=True).distinct():  # a short demo field plays at one
        draws.draw_button(table, actor=director)


def demo_satellite(users: dict, template, start: datetime, documents: list) -> None:
    """A satellite of Sunday's Main Event, seated and ready to play: sixteen of the players at 1,500 +
    300 CZK make two seats of 11,000 CZK and 2,000 CZK for third place."""
    director = users["Director"]
    common = {
        "venue": "Demo Card Room, Praha",
        "time_zone": "Europe/Prague",
        "table_format": "full_ring",
        "seats_per_table": 9,
        "currency": "CZK",
        "starting_stack": 20000,
        "late_reg_until_level": 4,
        "guaranteed_pool": 0,
    }
    main_event = setup.create_tournament(
        # Players reserve their places from their phones until the start (/t/<id>/reserve/, docs/waiting-list.md).
        {
            **common,
            "name": "Demo: Sunday Main Event",
            "start_at": start + timedelta(days=2),
            "buy_in": 1000000,
            "fee": 100000,
            "reservation_cap": 120,
        },
        actor=director,
        template=template,
    )
    satellite = setup.create_tournament(
        {**common, "name": "Demo: Main Event Satellite", "start_at": start - timedelta(hours=2), "buy_in": 150000, "fee": 30000},
        actor=director,
        template=template,
    )
    tickets.set_satellite(satellite, actor=director, data={"target": main_event.pk, "leftover": "next_place"})
    for player, number in documents[:16]:
        registration.register_entry(satellite, actor=users["Cashier"], player=player, document=registration.IdDocument("id_card", number))
    for number in (11, 12):  # the room's tables 11 and 12: the Deepstack plays at 1 to 4
        table_setup.open_table(satellite, actor=director, number=number, seats=9)
    draws.draw_start(satellite, actor=director)
