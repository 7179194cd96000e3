"""Whole nights, every floor action against every other: a hypothesis state machine plays a
tournament from the first entry to the winner through the services, the floor's actions interleaved at
random (entries, late entries, re-entries and voids; the draw, buttons, hands and their undo; busts one by
one and several in a hand, and their undo; balancing, slips confirmed and cancelled, breaks and redraws;
hand-for-hand at the bubble; the clock, a color-up and its races, chips found; penalties; the payout plan,
deals, payments and voided payments). After every step it checks the invariants of a night (docs/architecture.md,
docs/guarantees.md).

A refusal (ServiceError, or a house rule refused by field) is fine and must change nothing; any other
exception fails. The same examples run on every run (tests/conftest.py's profile); `HYPOTHESIS_PROFILE=explore`
and NIGHT_EXAMPLES / NIGHT_STEPS play many more; a counterexample found there is kept, as hypothesis printed
it, in tests/test_night_replays.py, and its hole gets a short test in tests/test_night_findings.py."""

from __future__ import annotations

import os
import random
from datetime import date
from unittest import mock

import pytest
from django.core.exceptions import ValidationError
from django.db import transaction
from django.db.models import Count, Max
from hypothesis import HealthCheck, seed, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, invariant, run_state_machine_as_test

from clock.services import clock
from core.errors import ServiceError
from days.models import Day
from leagues.models import LeagueResult
from leagues.selectors import leagues as league_selectors
from leagues.services import leagues as league_services
from payouts.models import Deal, Payment, Satellite, Ticket
from payouts.selectors import structure as pay_selectors
from payouts.selectors.reconciliation import reconciliation
from payouts.services import structure as payouts
from payouts.services import tickets
from tables.models import ChipRace, ColorUp, Move, Penalty, Seat, Table
from tables.selectors import screens
from tables.selectors import state as tables_selectors
from tables.services import busts, color_ups, draws, handforhand, hands, house_rules, moves, penalties, seats
from tables.services import setup as table_setup
from tests import night_coverage, night_undo
from tests.conftest import BASIC_SPEC, STAFF, make_user, tournament_data
from tests.helpers import id_doc, pick
from tests.night_coverage import initialize, rule  # hypothesis' own, each step recorded under NIGHT_COVERAGE
from tests.payouts.test_payments import signature
from tests.tables.test_balancing_house_rules import check_invariants as check_seating
from tournament.models import AuditEvent, ChipAdjustment, Entry, Level, Purchase, Tournament
from tournament.selectors.stats import tournament_stats
from tournament.services import registration, setup
from venues.models import VenueTable

EXAMPLES = int(os.environ.get("NIGHT_EXAMPLES", "40"))
STEPS = int(os.environ.get("NIGHT_STEPS", "70"))
# The nights are played in shards, each a test of its own, so that the parallel workers (scripts/test) share
# them: EXAMPLES nights through the services in SHARDS tests, a third as many through the API in API_SHARDS.
SHARDS, API_SHARDS, SATELLITE_SHARDS = 4, 2, 2
REFUSED = (ServiceError, ValidationError)


INK = signature()


class Night(RuleBasedStateMachine):
    """One tournament, played by its staff through the registration."""

    staff: dict = {}
    tally: dict = {"nights": 0, "checks": 0}  # what was played and checked, for the tests to assert on

    def __init__(self) -> None:
        super().__init__()
        self._atomic = transaction.atomic()
        self._atomic.__enter__()  # each night starts from an empty room, rolled back at the end
        self.t = None
        self.players = 0
        self.documents: dict[int, str] = {}  # player id -> document number
        self.seeds = random.Random(0)
        self._patch = mock.patch.object(draws.secrets, "token_bytes", lambda n: self.seeds.randbytes(n))
        self._patch.start()
        self.last_seq = 0

    def teardown(self) -> None:
        self._patch.stop()
        transaction.set_rollback(True)
        self._atomic.__exit__(None, None, None)
        self.torn_down = True
        Night.tally["nights"] += 1

    # --- helpers -------------------------------------------------------------------------------------

    @property
    def d(self):
        return self.staff["director"]

    def act(self, fn, *args, **kwargs):
        """Run one floor action: a refusal changes nothing (no event), anything else but a refusal fails."""
        before = AuditEvent.objects.filter(tournament=self.t).count()
        try:
            with transaction.atomic():
                return fn(*args, **kwargs)
        except REFUSED as exc:
            night_coverage.count_refusal(self, exc)
            assert AuditEvent.objects.filter(tournament=self.t).count() == before, "a refused action left an event"
            return None

    def active(self) -> list[Entry]:
        return list(Entry.objects.filter(tournament=self.t, status=Entry.Status.ACTIVE).order_by("number"))

    def busted(self) -> list[Entry]:
        return list(Entry.objects.filter(tournament=self.t, status=Entry.Status.BUSTED).order_by("number"))

    def tables(self) -> list[Table]:
        return list(Table.objects.filter(tournament=self.t, in_play=True).order_by("number"))

    def seated_at(self, table: Table) -> list[Entry]:
        return [s.entry for s in Seat.objects.filter(table=table, ended_at__isnull=True).select_related("entry").order_by("seat")]

    def new_player(self):
        self.players += 1
        player = registration.create_player(actor=self.d, first_name=f"P{self.players}", last_name="Night", date_of_birth=date(1990, 1, 1))
        self.documents[player.pk] = f"NT{self.players:07d}"
        return player

    def register(self, player=None) -> Entry | None:
        if player is None:  # a new player, with the document his record keeps (a payout or a ticket asks for it again)

            def first_entry():
                new = self.new_player()
                return registration.register_entry(self.t, actor=self.d, player=new, document=id_doc(self.documents[new.pk]))

            return self.act(first_entry)
        return self.act(registration.register_entry, self.t, actor=self.d, player=player, document=id_doc(self.documents[player.pk]))

    # --- the night begins ---------------------------------------------------------------------------

    @initialize(
        players=st.integers(min_value=4, max_value=30),
        size=st.sampled_from([6, 9, 10]),
        seed=st.integers(0, 2**32),
        threshold=st.integers(1, 3),
        spare=st.booleans(),
        ties=st.sampled_from(["tie", "stack"]),
        redraws=st.booleans(),
    )
    def begin(self, players, size, seed, threshold, spare, ties, redraws):
        self.seeds = random.Random(seed)
        template = setup.save_structure_template(BASIC_SPEC, actor=self.d)
        self.t = setup.create_tournament(
            tournament_data(
                seats_per_table=size, max_reentries=2, late_reg_until_level=2, guaranteed_pool=0, **self.settings_of_the_night(seed)
            ),
            actor=self.d,
            template=template,
        )
        tables = -(-players // size) + (1 if spare else 0)
        for number in range(1, tables + 1):
            table_setup.open_table(self.t, actor=self.d, number=number, seats=size)
        house_rules.set_house_rules(
            self.t,
            actor=self.d,
            data={
                "balance_threshold": min(threshold, max(size - 1, 2)),
                "halt_short_by": max(3, threshold),
                "hand_for_hand_ties": ties,
                "redraw_at_three": redraws,
                "redraw_at_two": redraws,
            },
        )
        for _i in range(players):
            self.register()
        draws.draw_start(self.t, actor=self.d)
        for table in self.tables():
            if len(self.seated_at(table)) >= 2:
                draws.draw_button(table, actor=self.d)
        # The night counts for a season: its points follow every place (league_points_follow_the_places).
        league_rng = random.Random(seed ^ 0x1EA6)  # its own source: the draws' seeds stay as they were
        formula = league_rng.choice(
            [{"formula": "table", "points_table": [10, 7, 5, 3, 1]}, {"formula": "linear"}, {"formula": "square_root"}]
        )
        league = league_services.create_league(actor=self.d, data={"name": "Season", "participation": league_rng.randint(0, 2), **formula})
        league_services.add_tournament(league, actor=self.d, tournament=self.t)
        self.night_begun(seed)

    def night_invariants(self) -> tuple[str, ...]:
        """The invariants checked after each step (a kind of night adds its own: tests/test_bounty_nights.py)."""
        return INVARIANTS

    def settings_of_the_night(self, seed: int) -> dict:
        """The tournament's own settings a kind of night sets (tests/test_bounty_nights.py: its bounty format)."""
        return {}

    def night_begun(self, seed: int) -> None:
        """What a kind of night adds once the room is seated (SatelliteNight: the satellite)."""

    # --- entries ------------------------------------------------------------------------------------

    @rule()
    def late_entry(self):
        self.register()

    @rule(i=st.integers(0, 999))
    def reentry(self, i):
        entry = pick(self.busted(), i)
        if entry is not None:
            self.register(entry.player)

    @rule(i=st.integers(0, 999))
    def void(self, i):
        entry = pick(self.active(), i)
        if entry is not None:
            buy_in = entry.purchases.filter(kind__in=[Purchase.Kind.BUY_IN, Purchase.Kind.REENTRY]).first()
            self.act(registration.void_purchase, buy_in, actor=self.d, reason="wrong player")

    # --- hands --------------------------------------------------------------------------------------

    @rule(i=st.integers(0, 999))
    def hand_starts(self, i):
        table = pick(self.tables(), i)
        if table is not None:
            self.act(hands.start_hand, table, actor=self.staff["dealer"])

    @rule(i=st.integers(0, 999))
    def hand_start_undone(self, i):
        table = pick(self.tables(), i)
        if table is not None:
            self.act(hands.undo_hand_start, table, actor=self.staff["dealer"])

    @rule(i=st.integers(0, 999))
    def hand_done(self, i):
        table = pick(self.tables(), i)
        if table is not None:
            self.act(handforhand.hand_done, table, actor=self.staff["floor"])

    @rule(i=st.integers(0, 999))
    def button_drawn(self, i):
        table = pick(self.tables(), i)
        if table is not None:
            self.act(seats.draw_button, table, actor=self.d)

    @rule(i=st.integers(0, 999))
    def button_entered(self, i):
        table = pick([x for x in self.tables() if x.needs_button], i)
        if table is not None:
            occupied = sorted(Seat.objects.filter(table=table, ended_at__isnull=True).values_list("seat", flat=True))
            self.act(seats.enter_button, table, actor=self.staff["floor"], seat=pick(occupied, i) or 1)

    # --- busts --------------------------------------------------------------------------------------

    @rule(i=st.integers(0, 999), stack=st.integers(0, 5) | st.none())
    def bust(self, i, stack):
        entry = pick(self.active(), i)
        if entry is not None:
            self.act(busts.bust_entry, entry, actor=self.staff["floor"], stack=None if stack is None else stack * 1000)

    @rule(i=st.integers(0, 999), stacks=st.lists(st.integers(1, 4), min_size=2, max_size=3))
    def busts_in_one_hand(self, i, stacks):
        """Several players out in one hand at one table, each with the chips he started the hand with."""
        table = pick(self.tables(), i)
        if table is None:
            return
        self.act(hands.start_hand, table, actor=self.staff["dealer"])
        for entry, stack in zip(self.seated_at(table), stacks, strict=False):
            self.act(busts.bust_entry, entry, actor=self.staff["floor"], stack=stack * 1000)

    @rule(i=st.integers(0, 999))
    def bust_undone(self, i):
        entry = pick(self.busted(), i)
        if entry is not None:
            self.act(busts.undo_bust, entry, actor=self.staff["floor"])

    @rule(i=st.integers(0, 999), more=st.booleans())
    def undone_bust_out_again_in_one_hand(self, i, more):
        """a player whose bust was undone goes out again in one hand with another player at his table, one
        of them with more chips at the start of the hand (they had shared the places)."""
        back = [e for e in self.active() if Seat.objects.filter(entry=e, end_reason=Seat.End.BUST).exists()]
        entry = pick(back, i)
        seat = Seat.objects.filter(entry=entry, ended_at__isnull=True).select_related("table").first() if entry else None
        if seat is None:
            return
        other = pick([e for e in self.seated_at(seat.table) if e.pk != entry.pk], i)
        if other is None:
            return
        self.act(hands.start_hand, seat.table, actor=self.staff["dealer"])
        for out, stack in ((entry, 1 if more else 3), (other, 3 if more else 1)):
            self.act(busts.bust_entry, out, actor=self.staff["floor"], stack=stack * 1000)

    @rule(i=st.integers(0, 999))
    def played_down_to_the_final_table(self, i):
        """The field plays down until one table is left (its redraw made) or play is over: the slips confirmed, the
        hands in play reported done, the players whose bust was undone kept in (a redraw after an undo)."""
        for _step in range(40):
            if pay_selectors.play_over(self.t) or len([t for t in self.tables() if self.seated_at(t)]) <= 1:
                return
            self.all_slips_confirmed()
            for table in Table.objects.filter(tournament=self.t, in_play=True, hand_in_progress=True):
                self.act(handforhand.hand_done, table, actor=self.staff["floor"])
            undone = set(Seat.objects.filter(tournament=self.t, end_reason=Seat.End.BUST).values_list("entry_id", flat=True))
            left = self.active()
            out = pick([e for e in left if e.pk not in undone] or left, i)
            stack = None if handforhand.hand_for_hand(self.t) is None else 1000  # a stack only where it is asked
            if self.act(busts.bust_entry, out, actor=self.staff["floor"], stack=stack) is None:
                return

    # --- balancing ----------------------------------------------------------------------------------

    @rule()
    def balance_now(self):
        self.act(moves.balance_now, self.t, actor=self.staff["floor"])

    @rule(i=st.integers(0, 999), confirm=st.sampled_from([True, True, True, False]))
    def slip(self, i, confirm):
        move = pick(list(Move.objects.filter(tournament=self.t, status=Move.Status.PENDING).order_by("number")), i)
        if move is not None:
            if confirm:
                self.act(moves.confirm_move, self.t, actor=self.staff["floor"], number=move.number)
            else:
                self.act(moves.cancel_move, self.t, actor=self.staff["floor"], number=move.number, reason="not here")

    @rule()
    def all_slips_confirmed(self):
        for number in Move.objects.filter(tournament=self.t, status=Move.Status.PENDING).values_list("number", flat=True):
            self.act(moves.confirm_move, self.t, actor=self.staff["floor"], number=number)

    # --- hand-for-hand ------------------------------------------------------------------------------

    @rule(on=st.booleans())
    def hand_for_hand(self, on):
        if on:
            self.act(handforhand.start_hand_for_hand, self.t, actor=self.d)
        else:
            self.act(handforhand.stop_hand_for_hand, self.t, actor=self.d)

    @rule()
    def hand_for_hand_hand_played(self):
        h = handforhand.hand_for_hand(self.t)
        if h is None or not h.called:
            return
        for number in list(h.tables):
            table = Table.objects.filter(tournament=self.t, number=number, in_play=True).first()
            if table is not None:
                self.act(hands.start_hand, table, actor=self.staff["dealer"])
                self.act(handforhand.hand_done, table, actor=self.staff["floor"])

    # --- the clock and the color-up -----------------------------------------------------------------

    @rule(step=st.sampled_from(["start", "pause", "resume", "next", "previous"]))
    def clock(self, step):
        fn = {"start": clock.start_clock, "pause": clock.pause_clock, "resume": clock.resume_clock}.get(step)
        if fn is not None:
            self.act(fn, self.t, actor=self.d)
        else:
            self.act(clock.step_level, self.t, actor=self.d, step=1 if step == "next" else -1)

    @rule()
    def color_up_confirmed(self):
        row = Level.objects.filter(structure=self.t.structure, kind=Level.Kind.BREAK).order_by("position").first()
        if row is not None:
            self.act(color_ups.confirm_color_up, self.t, actor=self.d, level=row.position)

    @rule(i=st.integers(0, 999), odd=st.lists(st.integers(0, 3), min_size=1, max_size=10), confirm=st.booleans())
    def race(self, i, odd, confirm):
        color_up = ColorUp.objects.filter(tournament=self.t).order_by("-level").first()
        table = pick(self.tables(), i)
        if color_up is None or table is None:
            return
        occupied = sorted(Seat.objects.filter(table=table, ended_at__isnull=True).values_list("seat", flat=True))
        counts = {
            str(s): {"chips": {str(v): odd[k % len(odd)] for v in color_up.leaving}, "other": 1000 * (k % 3)}
            for k, s in enumerate(occupied)
        }
        race = self.act(color_ups.record_race, table, actor=self.staff["dealer"], color_up=color_up, seats=counts)
        if race is not None and confirm:
            self.act(color_ups.confirm_race, race, actor=self.staff["dealer"])

    @rule(i=st.integers(0, 999), count=st.integers(1, 7))
    def chips_found(self, i, count):
        color_up = ColorUp.objects.filter(tournament=self.t).order_by("-level").first()
        table = pick(self.tables(), i)
        if color_up is not None and table is not None and color_up.leaving:
            self.act(color_ups.exchange_found_chips, self.t, actor=self.staff["floor"], table=table, found={color_up.leaving[0]: count})

    # --- penalties ----------------------------------------------------------------------------------

    @rule(i=st.integers(0, 999), kind=st.sampled_from(["warning", "hand", "rounds"]), rounds=st.integers(1, 4))
    def penalty(self, i, kind, rounds):
        entry = pick(self.active(), i)
        if entry is not None:
            self.act(
                penalties.give_penalty,
                self.t,
                actor=self.staff["floor"],
                entry_number=entry.number,
                kind=kind,
                rounds=rounds if kind == "rounds" else None,
                reason="slow play",
            )

    @rule(i=st.integers(0, 999), chips=st.integers(0, 5) | st.none(), as_bust=st.booleans())
    def disqualified(self, i, chips, as_bust):
        """The floor disqualifies a player (his chips counted now, or his last count: none is refused), placed by
        either house rule."""
        entry = pick(self.active(), i)
        if entry is None:
            return
        self.act(house_rules.set_house_rules, self.t, actor=self.d, data={"disqualified_place": "bust" if as_bust else "last"})
        self.act(
            busts.disqualify,
            self.t,
            actor=self.staff["floor"],
            reason="collusion",
            entry_number=entry.number,
            chips=None if chips is None else chips * 1000,
        )

    @rule(i=st.integers(0, 999))
    def disqualification_cancelled(self, i):
        dq = pick(
            list(Penalty.objects.filter(tournament=self.t, kind=Penalty.Kind.DISQUALIFIED, cancelled_at__isnull=True).order_by("number")), i
        )
        if dq is not None:
            self.act(busts.reinstate, self.t, actor=self.staff["floor"], number=dq.number, reason="the wrong player")

    @rule(i=st.integers(0, 999), over=st.integers(-1, 1), everything=st.booleans())
    def disqualified_with_every_chip(self, i, over, everything):
        """A disqualification claiming about every chip the others do not hold (a chip each), or all the chips in
        play and more: refused beyond the first; chips in play never go negative."""
        players = self.active()
        entry = pick(players, i)
        if entry is not None:
            most = tournament_stats(self.t)["chips_in_play"] - (0 if everything else len(players) - 1)
            self.act(
                busts.disqualify,
                self.t,
                actor=self.staff["floor"],
                reason="collusion",
                entry_number=entry.number,
                chips=max(most + over, 0),
            )

    # --- money --------------------------------------------------------------------------------------

    @rule(share=st.sampled_from([1000, 1500, 2000, 3000]))
    def payout_plan(self, share):
        self.act(payouts.set_payout_plan, self.t, actor=self.d, data={"share_paid_bp": share})

    @rule()
    def registration_closed(self):
        self.act(registration.set_registration_closed, self.t, actor=self.d, closed=True)

    @rule()
    def registration_reopened(self):
        """The director reopens registration (refused once a prize is paid: the prizes would change under it)."""
        self.act(registration.set_registration_closed, self.t, actor=self.d, closed=False)

    @rule(
        kind=st.sampled_from(["icm", "chip_chop"]),
        mode=st.sampled_from(["play_on", "stop"]),
        chips=st.lists(st.integers(1, 50), min_size=2, max_size=10),
    )
    def deal(self, kind, mode, chips):
        left = self.active()
        if not 2 <= len(left) <= len(chips):
            return
        stacks = {str(e.number): chips[k] * 1000 for k, e in enumerate(left)}
        proposed = self.act(payouts.propose_deal, self.t, actor=self.staff["floor"], data={"kind": kind, "mode": mode, "stacks": stacks})
        if proposed is not None:
            self.act(payouts.approve_deal, proposed, actor=self.d)

    @rule(i=st.integers(0, 999))
    def prize_paid(self, i):
        entry = pick([e for e in Entry.objects.filter(tournament=self.t).exclude(status=Entry.Status.VOIDED).order_by("number")], i)
        if entry is not None:
            self.act(payouts.pay_prize, entry, actor=self.staff["cashier"], document=id_doc(self.documents[entry.player_id]), signature=INK)

    @rule(i=st.integers(0, 999))
    def payment_voided(self, i):
        payment = pick(list(Payment.objects.filter(tournament=self.t, status=Payment.Status.PAID).order_by("number")), i)
        if payment is not None:
            self.act(payouts.void_payment, payment, actor=self.staff["cashier"], reason="paid in error")

    # --- the invariants -----------------------------------------------------------------------------

    @invariant()
    def night_holds(self):
        """Every invariant, after each step that changed the night. A step that changed nothing (a refusal, a
        rule with nothing to act on) leaves no audit event, and every change leaves one (docs/architecture.md), so the
        same state is not checked twice; an unaudited change would still be checked at the next step."""
        if self.t is None:
            return
        mark = AuditEvent.objects.filter(tournament=self.t).aggregate(n=Count("seq"), top=Max("seq"))
        if mark == getattr(self, "_checked", None):
            return
        for name in self.night_invariants():
            getattr(self, name)()
        self._checked = mark
        Night.tally["checks"] += 1

    def seating(self):
        if self.t is not None:
            check_seating(self.t)

    def audit_sequence_has_no_gap(self):
        if self.t is None:
            return
        seqs = list(AuditEvent.objects.filter(tournament=self.t).order_by("seq").values_list("seq", flat=True))
        assert seqs == list(range(1, len(seqs) + 1)), "a gap in the audit sequence"

    def tables_balanced_or_the_floor_told(self):
        if self.t is None or Move.objects.filter(tournament=self.t, status=Move.Status.PENDING).exists():
            return
        if pay_selectors.play_over(self.t):  # nobody plays on, so nobody moves (a satellite stops at its seats)
            return
        room = moves.read_room(self.t)
        if not moves.balance_due(self.t, room):
            return
        status = screens.balancing_status(self.t)
        assert status["need_button"] or status["notice"] is not None, (
            f"tables {[(r.number, r.players) for r in room.values()]} out of balance with no slip and no notice"
        )

    def nobody_alone_while_others_play(self):
        if self.t is None or pay_selectors.play_over(self.t):  # nobody plays on once play is over
            return
        room = [row for row in moves.read_room(self.t).values() if row.occupied]
        if len(room) < 2:
            return
        status = screens.balancing_status(self.t)
        for row in room:  # the floor can do what it is asked: a button needs two players seated
            assert row.number not in status["need_button"] or len(row.occupied) >= 2, (
                f"the map asks for table {row.number}'s button, but one player sits there"
            )
        for row in room:
            if len(row.occupied) == 1 and not row.leaving and not row.reserved:
                assert row.number in status["need_button"] or status["notice"] is not None, (
                    f"a player alone at table {row.number} while {len(room) - 1} other tables play, no slip, no notice"
                )

    def hand_for_hand_can_go_on(self):
        if self.t is None:
            return
        h = handforhand.hand_for_hand(self.t)
        if h is None:
            return
        if h.called:
            assert tables_selectors.waiting(self.t, h), "a hand-for-hand hand called that waits for no table and is not complete"
        else:
            busy = Table.objects.filter(tournament=self.t, in_play=True, hand_in_progress=True).exists()
            pending = Move.objects.filter(tournament=self.t, status=Move.Status.PENDING).exists()
            playing = tables_selectors.playing_tables(self.t)
            assert busy or pending or not playing, "hand-for-hand waits, but no table plays a hand and no slip is due"

    def finished_while_play_is_over(self):
        """The tournament is finished exactly while play is over (its winner known, a deal that stopped it, a
        satellite at its seats), so nobody registers and no hand is dealt; hand-for-hand ends with it once the hand
        called is played."""
        if self.t is None:
            return
        t = Tournament.objects.get(pk=self.t.pk)
        if t.status == Tournament.Status.SETUP:
            return
        over = pay_selectors.play_over(t) and bool(pay_selectors.finishers(t, pay_selectors.payout_state(t)))
        assert (t.status == Tournament.Status.FINISHED) == over, f"status {t.status} while play is {'over' if over else 'on'}"
        h = handforhand.hand_for_hand(t)
        assert not over or h is None or h.called, "hand-for-hand still on, between hands, after play is over"

    def places_unique_and_contiguous(self):
        if self.t is None:
            return
        stopped = {entry: (place, low) for entry, place, low, _amount in pay_selectors.stop_finishes(self.t)}
        left = Entry.objects.filter(tournament=self.t, status=Entry.Status.ACTIVE).exclude(number__in=list(stopped)).count()
        rows = list(
            Entry.objects.filter(tournament=self.t, status=Entry.Status.BUSTED)
            .exclude(number__in=list(stopped))
            .values_list("number", "finish_place", "finish_place_low", "bust_hand", "bust_stack")
        )
        rows += [(entry, place, low, "", None) for entry, (place, low) in stopped.items()]  # placed by the deal
        groups: dict[tuple[int, int], int] = {}
        for _n, place, low, _key, _stack in rows:
            groups[(place, low or place)] = groups.get((place, low or place), 0) + 1
        covered = []
        for (high, low), members in groups.items():
            assert members == low - high + 1, f"places {high}-{low} shared by {members} players"
            covered += range(high, low + 1)
        assert sorted(covered) == list(range(left + 1, left + len(rows) + 1)), f"places {sorted(covered)} with {left} left"
        # The bigger stack at the start of a hand finishes above a smaller one busted at the same table in it.
        table_of = dict(
            Seat.objects.filter(tournament=self.t, end_reason=Seat.End.BUST)
            .order_by("ended_at", "pk")
            .values_list("entry__number", "table_id")
        )  # his last bust's (an undone one's seat stays)
        place_of = {n: (p, low or p) for n, p, low, _k, _s in rows}
        same = [(n, key, stack) for n, _p, _l, key, stack in rows if key and stack is not None]
        for a, key_a, stack_a in same:
            for b, key_b, stack_b in same:
                if key_a == key_b and table_of.get(a) == table_of.get(b) and stack_a > stack_b:
                    assert place_of[a][0] < place_of[b][0], f"#{a} had more chips than #{b} in one hand but finished below"

    def money_adds_up(self):
        if self.t is None:
            return
        state = pay_selectors.payout_state(self.t)
        sat = state["satellite"]
        if sat is not None:  # a satellite: its seats and its cash make the pool
            assert sum(state["prizes"]) + sat["seats"] * sat["seat_value"] == state["pool"], "seats and cash are not the pool"
        elif state["prizes"] and not state["edit_stale"]:
            assert sum(state["prizes"]) == state["pool"], "the prizes do not add up to the pool"
        won = pay_selectors.prizes_won(self.t, state)
        playing = not pay_selectors.play_is_over(state)  # one left (the winner), a stop, a satellite at its seats
        places = {f.entry: (f.place, f.place_low) for f in pay_selectors.finishers(self.t, state)}
        for entry, status, amount, place, low in Payment.objects.filter(tournament=self.t, status=Payment.Status.PAID).values_list(
            "entry__number", "entry__status", "amount", "place", "place_low"
        ):
            assert not (playing and status == Entry.Status.ACTIVE), f"#{entry} plays on with a paid prize"
            # A paid prize stands: its place and its amount are the ones paid, whatever came after.
            assert amount == won.get(entry, 0), f"#{entry} was paid {amount}, but {won.get(entry, 0)} is owed now"
            assert places.get(entry) == (place, low), f"#{entry} was paid for place {place}, now {places.get(entry)}"
        races = sum(
            ChipRace.objects.filter(table__tournament=self.t, status=ChipRace.Status.CONFIRMED).values_list("difference", flat=True)
        )
        adjusted = sum(ChipAdjustment.objects.filter(tournament=self.t, kind=ChipAdjustment.Kind.RACE).values_list("amount", flat=True))
        assert races == adjusted, "the chips in play do not follow the races"
        chips = sum(Purchase.objects.filter(tournament=self.t).exclude(status=Purchase.Status.VOIDED).values_list("chips", flat=True))
        everything = sum(ChipAdjustment.objects.filter(tournament=self.t).values_list("amount", flat=True))
        assert tournament_stats(self.t)["chips_in_play"] == chips + everything
        standing = Penalty.objects.filter(tournament=self.t, kind=Penalty.Kind.DISQUALIFIED, cancelled_at__isnull=True)
        out = sum(ChipAdjustment.objects.filter(tournament=self.t, kind=ChipAdjustment.Kind.DISQUALIFIED).values_list("amount", flat=True))
        assert out == -sum(standing.values_list("chips", flat=True)), "the chips out of play are not the disqualified's"
        assert not standing.exclude(entry__status=Entry.Status.BUSTED).exists(), "a disqualified player plays on"

    def undo_possible_or_its_press_named(self):
        """every bust can be undone, or its refusal names the one press that makes it possible (tried in a
        savepoint, rolled back: tests/night_undo.py)."""
        night_undo.undo_possible_or_its_press_named(self)

    def league_points_follow_the_places(self):
        """The points written are the points of the places as they stand: given once play is over, taken away when
        it goes on again, changed with every place; a worse place never has more."""
        league = league_selectors.league_of(self.t) if self.t is not None else None
        if league is None:
            return
        kept = {r.player_id: (r.place, r.place_low, r.field, r.points) for r in LeagueResult.objects.filter(tournament=self.t)}
        assert kept == league_services.results_now(self.t, league), "the league's points do not follow the places"
        if kept:
            assert pay_selectors.play_over(self.t) and min(place for place, *_rest in kept.values()) == 1
            players = set(Entry.objects.filter(tournament=self.t).exclude(status=Entry.Status.VOIDED).values_list("player_id", flat=True))
            assert set(kept) == players, "every player of a finished night has his points"
            ranked = sorted(kept.values())
            assert all(worse[3] <= better[3] for better, worse in zip(ranked, ranked[1:], strict=False))

    def deals_stand_on_their_players(self):
        if self.t is None:
            return
        for deal in Deal.objects.filter(tournament=self.t, status=Deal.Status.APPROVED):
            busted_before = Entry.objects.filter(tournament=self.t, status=Entry.Status.BUSTED, finish_place__gt=len(deal.entries)).exclude(
                number__in=deal.entries
            )
            players = set(
                Entry.objects.filter(tournament=self.t)
                .exclude(status=Entry.Status.VOIDED)
                .exclude(pk__in=busted_before)
                .values_list("number", flat=True)
            )
            assert players == set(deal.entries), f"deal {deal.number} was made by {sorted(deal.entries)}, not {sorted(players)}"
            if deal.mode == Deal.Mode.STOP:
                fixed = {entry: (place, low) for entry, place, low, _amount in deal.finishes}
                for number, place, low in Entry.objects.filter(
                    tournament=self.t, number__in=list(fixed), status=Entry.Status.BUSTED
                ).values_list("number", "finish_place", "finish_place_low"):
                    assert (place, low or place) == fixed[number], f"#{number} re-ranked after a deal that stopped play"

    def tickets_follow_the_seats(self):
        """A satellite's live tickets are its seat winners' once play stops, and none before; a used one paid for an
        entry of the target with no cash (and no fee where a seat is the buy-in alone); the target's books count it
        apart from the cash."""
        sat = Satellite.objects.filter(tournament=self.t).select_related("target").first() if self.t is not None else None
        if sat is None:
            return
        state = pay_selectors.payout_state(self.t)
        live = list(Ticket.objects.filter(satellite=sat).exclude(status=Ticket.Status.VOID).select_related("won_by", "used_entry"))
        winners = pay_selectors.seat_winners(self.t, state)
        assert sorted(tk.won_by.number for tk in live) == winners, "the tickets are not the seat winners'"
        assert len(winners) == (state["satellite"]["seats"] if pay_selectors.play_is_over(state) else 0)
        assert all(pay_selectors.play_is_over(state) for _tk in live), "a ticket while play goes on"
        for tk in live:
            assert tk.value == state["satellite"]["seat_value"] or tk.status == Ticket.Status.USED
            if tk.status == Ticket.Status.USED:
                assert tk.used_entry.tournament_id == sat.target_id and tk.used_entry.status != Entry.Status.VOIDED
                bought = tk.used_entry.purchases.filter(paid_with=Purchase.PaidWith.TICKET)
                assert bought.count() == 1
                assert bought.get().fee == (0 if sat.seat == Satellite.Seat.BUY_IN else sat.target.fee), "the fee"
        books = reconciliation(sat.target)
        used = Ticket.objects.filter(satellite__target=sat.target, status=Ticket.Status.USED).count()
        assert books["tickets_in_count"] == used and books["cash_in"] == 0 and books["balance"] == 0


INVARIANTS = (
    "seating",
    "audit_sequence_has_no_gap",
    "tables_balanced_or_the_floor_told",
    "nobody_alone_while_others_play",
    "hand_for_hand_can_go_on",
    "finished_while_play_is_over",
    "places_unique_and_contiguous",
    "money_adds_up",
    "deals_stand_on_their_players",
    "league_points_follow_the_places",
    "tickets_follow_the_seats",
)


INVARIANTS += ("undo_possible_or_its_press_named",)


def chips_in_play_never_negative(night) -> None:
    """Chips in play are never negative: whatever leaves play (a disqualification, a race, chips found, a
    void), and every adjustment's record of what it left."""
    if night.t is not None:
        assert tournament_stats(night.t)["chips_in_play"] >= 0
        assert not ChipAdjustment.objects.filter(tournament=night.t, in_play_after__lt=0).exists()


Night.chips_in_play_never_negative = chips_in_play_never_negative
INVARIANTS = (*INVARIANTS, "chips_in_play_never_negative")


def the_venue_holds_what_plays(night) -> None:
    """The venue's tables (venues/, tables/services/venue.py): a table a tournament holds is one of its tables in play,
    of a tournament not over, and open (never closed or given to cash games); every table of the night's tournament
    with a player on it holds its venue table while play goes on and its day is open; and a table the venue shows free
    is held by nobody (one column: never two)."""
    if night.t is None:
        return
    for vt in VenueTable.objects.filter(table__isnull=False).select_related("table__tournament"):
        assert vt.table.in_play and vt.status == VenueTable.Status.OPEN, f"venue table {vt.number} held out of play or closed"
        assert vt.table.tournament.status != Tournament.Status.FINISHED, f"venue table {vt.number} held by a tournament that is over"
        assert vt.table.number == vt.number, f"venue table {vt.number} holds table {vt.table.number}"
    t = Tournament.objects.get(pk=night.t.pk)
    if t.status != Tournament.Status.RUNNING or Day.objects.filter(tournament=t, status=Day.Status.CLOSED).exists():
        return
    seated = set(tables_selectors.live_seats(t).filter(table__in_play=True).values_list("table__number", flat=True))
    held = set(VenueTable.objects.filter(table__tournament=t).values_list("number", flat=True))
    assert seated <= held, f"tables {sorted(seated - held)} play without holding their venue table"


Night.the_venue_holds_what_plays = the_venue_holds_what_plays
INVARIANTS = (*INVARIANTS, "the_venue_holds_what_plays")


def check_night(t) -> None:
    """Every invariant of a night, on a tournament played elsewhere (bench/night.py)."""
    night = Night.__new__(Night)
    night.t = t
    for name in INVARIANTS:
        getattr(Night, name)(night)


def staff() -> dict:
    return {role: make_user(*user) for role, user in STAFF.items()}


def play_nights(machine: type, number: int, shards: int, nights: int) -> dict:
    """One shard of the nights played, every invariant checked after every step that changed the night (the state
    machine fails on any). Returns how many nights were played and how many times the invariants were checked."""
    Night.staff = staff()
    Night.tally = {"nights": 0, "checks": 0}
    played_machine, played = shard(machine, number, shards, nights)
    run_state_machine_as_test(played_machine, settings=played)
    return dict(Night.tally)


def shard(machine: type, number: int, shards: int, nights: int) -> tuple[type, settings]:
    """One shard of the nights: its share of them, and under the fixed profile nights of its own (shard 0 is
    the machine itself; the others are seeded apart, or they would all play the same nights). Under the
    explore profile every shard draws fresh nights."""
    if number and settings.default.derandomize:
        machine = seed(number)(type(f"{machine.__name__}{number}", (machine,), {}))
    return machine, settings(
        max_examples=max(nights // shards, 1),
        stateful_step_count=STEPS,
        deadline=None,
        suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much],
    )


@pytest.mark.parametrize("number", range(SHARDS))
@pytest.mark.django_db(transaction=False)
def test_whole_nights_hold_together(db, number):
    played = play_nights(Night, number, SHARDS, EXAMPLES)
    assert played["nights"] >= 1 and played["checks"] >= played["nights"], played  # each night checked


class SatelliteNight(Night):
    """The same night as a satellite of a Main Event: its seats are its pool over the Main Event's buy-in
    and fee (or its buy-in alone, the fee waived for a ticket: the house's setting), play stops at them, each seat
    winner gets a ticket that follows every correction, and the desk registers the holders into the Main Event with
    no payment; tickets pass on where the house allows it."""

    def night_begun(self, seed: int) -> None:
        rng = random.Random(seed ^ 0x5A7E)  # its own source, as the league's
        template = setup.save_structure_template(BASIC_SPEC, actor=self.d)
        price = rng.choice([20_000, 33_000, 95_000])  # the Main Event's entry: a seat; at 95,000 a small field has none
        self.target = setup.create_tournament(
            tournament_data(name="Main Event", buy_in=price - 3_000, fee=3_000, guaranteed_pool=0), actor=self.d, template=template
        )
        tickets.set_satellite(
            self.t,
            actor=self.d,
            data={
                "target": self.target.pk,
                "leftover": rng.choice(["next_place", "seat_winners"]),
                "seat": rng.choice(["entry", "buy_in"]),
            },
        )

    @rule(i=st.integers(0, 999))
    def played_down_to_the_seats(self, i):
        """The field plays down until play stops (or nobody can bust): the seat bubble comes within a night."""
        for _step in range(40):
            if pay_selectors.play_over(self.t):
                return
            self.all_slips_confirmed()
            if self.act(busts.bust_entry, pick(self.active(), i), actor=self.staff["floor"]) is None:
                return

    def tickets(self, status: str) -> list[Ticket]:
        return list(Ticket.objects.filter(satellite__tournament=self.t, status=status).order_by("number"))

    @rule(i=st.integers(0, 999))
    def ticket_used(self, i):
        ticket = pick(self.tickets(Ticket.Status.ISSUED), i)
        if ticket is not None:
            self.act(tickets.register_with_ticket, ticket, actor=self.staff["cashier"], document=id_doc(self.documents[ticket.holder_id]))

    @rule(i=st.integers(0, 999))
    def ticket_entry_voided(self, i):
        ticket = pick(self.tickets(Ticket.Status.USED), i)
        if ticket is not None:
            purchase = ticket.used_entry.purchases.get(paid_with=Purchase.PaidWith.TICKET)
            self.act(registration.void_purchase, purchase, actor=self.staff["cashier"], reason="wrong event")

    @rule(i=st.integers(0, 999), allowed=st.booleans())
    def ticket_passed_on(self, i, allowed):
        ticket = pick(self.tickets(Ticket.Status.ISSUED), i)
        if ticket is not None:
            self.act(tickets.set_satellite, self.t, actor=self.d, data={"transferable": allowed})
            self.act(tickets.transfer_ticket, ticket, actor=self.d, player=self.new_player(), reason="cannot play")


@pytest.mark.parametrize("number", range(SATELLITE_SHARDS))
@pytest.mark.django_db(transaction=False)
def test_whole_satellite_nights_hold_together(db, number):
    played = play_nights(SatelliteNight, number, SATELLITE_SHARDS, max(EXAMPLES // 3, 2))
    assert played["nights"] >= 1 and played["checks"] >= played["nights"], played  # each night checked


class NightOverHttp(Night):
    """The same night with the floor's main actions sent through the JSON API as the screens send them: no
    answer is a 500, a refusal (4xx) changes nothing, and the screens' reads answer after every step."""

    def client(self, role: str):
        from rest_framework.test import APIClient

        clients = self.__dict__.setdefault("_clients", {})
        if role not in clients:
            clients[role] = APIClient()
            clients[role].force_authenticate(self.staff[role])
        return clients[role]

    def post(self, role: str, path: str, body: dict | None = None):
        before = AuditEvent.objects.filter(tournament=self.t).count()
        answer = self.client(role).post(f"/api/tournaments/{self.t.pk}/{path}", body or {}, format="json")
        assert answer.status_code < 500, f"POST {path} answered {answer.status_code}: {answer.content[:300]}"
        if answer.status_code >= 400:
            assert AuditEvent.objects.filter(tournament=self.t).count() == before, f"a refused POST {path} left an event"
        return answer

    @rule()
    def late_entry(self):
        self.players += 1
        self.post(
            "cashier",
            "entries/",
            {
                "new_player": {"first_name": f"H{self.players}", "last_name": "Night", "date_of_birth": "1990-01-01"},
                "document_type": "id_card",
                "document_number": f"HT{self.players:07d}",
            },
        )

    @rule(i=st.integers(0, 999), stack=st.integers(0, 5) | st.none())
    def bust(self, i, stack):
        entry = pick(self.active(), i)
        if entry is not None:
            self.post("floor", f"entries/{entry.number}/bust/", {} if stack is None else {"stack": stack * 1000})

    @rule(i=st.integers(0, 999))
    def bust_undone(self, i):
        entry = pick(self.busted(), i)
        if entry is not None:
            self.post("floor", f"entries/{entry.number}/undo-bust/")

    @rule(i=st.integers(0, 999))
    def hand_starts(self, i):
        table = pick(self.tables(), i)
        if table is not None:
            self.post("dealer", f"tables/{table.number}/hand/")

    @rule(i=st.integers(0, 999))
    def hand_done(self, i):
        table = pick(self.tables(), i)
        if table is not None:
            self.post("floor", f"tables/{table.number}/hand-done/")

    @rule()
    def balance_now(self):
        self.post("floor", "moves/balance/")

    @rule(i=st.integers(0, 999), confirm=st.sampled_from([True, True, True, False]))
    def slip(self, i, confirm):
        move = pick(list(Move.objects.filter(tournament=self.t, status=Move.Status.PENDING).order_by("number")), i)
        if move is not None:
            self.post("floor", f"moves/{move.number}/{'confirm' if confirm else 'cancel'}/", None if confirm else {"reason": "not here"})

    @rule(on=st.booleans())
    def hand_for_hand(self, on):
        self.post("director", "hand-for-hand/", {"on": on})

    @invariant()
    def the_screens_read(self):
        """After each step that changed the night (as night_holds: the same state is read once)."""
        if self.t is None:
            return
        mark = AuditEvent.objects.filter(tournament=self.t).aggregate(n=Count("seq"), top=Max("seq"))
        if mark == getattr(self, "_read", None):
            return
        self._read = mark
        for role, path in (
            ("floor", "map/"),
            ("floor", "moves/"),
            ("floor", "hand-for-hand/"),
            ("director", "payouts/"),
            ("director", "results/"),
            ("cashier", "stats/"),
            ("floor", "tables/"),
        ):
            answer = self.client(role).get(f"/api/tournaments/{self.t.pk}/{path}")
            assert answer.status_code == 200, f"GET {path} answered {answer.status_code}"


@pytest.mark.parametrize("number", range(API_SHARDS))
@pytest.mark.django_db(transaction=False)
def test_whole_nights_hold_together_through_the_api(db, number):
    played = play_nights(NightOverHttp, number, API_SHARDS, max(EXAMPLES // 3, 2))
    assert played["nights"] >= 1 and played["checks"] >= played["nights"], played  # each night checked
