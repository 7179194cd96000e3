"""Whole bounty nights (docs/bounties.md): the whole-night state machine (tests/test_whole_night.py) played as a
knockout, a progressive knockout or a mystery bounty event. Every bust names its eliminators among the players at the
busted player's table (one, or several for a split pot); the floor corrects eliminators, the cage pays bounties and
voids payments, the director commits the mystery envelopes, on top of every action of a plain night (undo, voids,
re-entries, hand-for-hand, disqualifications, deals, prizes paid). After every step that changed the night, besides
the night's own invariants: the bounty money adds up (heads in play + paid + owed + kept + added to the pool = taken
in), the awards standing are exactly the replay of the standing eliminations, no head is taken twice, a PKO head is its
start plus what it kept of every head it took, every bounty receipt pays exactly its awards, and the reconciliation
balances."""

from __future__ import annotations

import random
from collections import Counter

import pytest
from hypothesis import strategies as st

from payouts.models import BountyAward, BountyPayment
from payouts.selectors import bounties as sel
from payouts.selectors.reconciliation import reconciliation
from payouts.services import bounties, bounty_cage
from tables.models import Elimination, Seat
from tables.services import busts, eliminations
from tests.helpers import id_doc, pick
from tests.night_coverage import rule
from tests.test_whole_night import EXAMPLES, INK, INVARIANTS, Night, play_nights
from tournament.models import Entry, Purchase
from tournament.services import registration

BOUNTY_SHARDS = 3


class BountyNight(Night):
    """A night of a bounty event, its format and house settings drawn from the night's seed."""

    seen: dict = {"formats": set()}  # the most of each kind of bounty row one night reached, for the figures

    def settings_of_the_night(self, seed: int) -> dict:
        rng = random.Random(seed ^ 0xB0B7)
        self.format = rng.choice(["knockout", "progressive", "mystery"])
        self.pick_rng = random.Random(seed ^ 0x5E47)  # who won each pot: the night's own, repeatable
        return {"bounty_format": self.format, "bounty": rng.choice([1_000, 2_500, 10_000, 10_050])}

    def night_begun(self, seed: int) -> None:
        rng = random.Random(seed ^ 0xCA5E)
        data = {
            "cash_share_bp": rng.choice([5_000, 2_500, 10_000]),
            "increment": rng.choice([1, 25, 100, 500]),
            "odd_unit": rng.choice(["left_of_button", "first_named"]),
            "disqualified_head": rng.choice(["nobody", "prize_pool"]),
            "cage": rng.choice(["at_bust", "collected"]),
            "deal_heads": rng.choice(["own", "dealt"]),
        }
        if self.format == "mystery":
            data.update(
                mystery_before=rng.choice(["nothing", "knockout"]),
                **rng.choice([{"mystery_level": rng.randint(1, 3)}, {"mystery_at_money": True}]),
            )
        bounties.set_bounty_rules(self.t, actor=self.d, data=data)
        if self.format == "mystery" and rng.random() < 0.6:  # a Day 2 of a mystery event: registration over, the box at once
            self.envelopes_committed(shape=rng.choice(["even", "one_big"]))

    def act(self, fn, *args, **kwargs):
        """A bust in a bounty event names who won the pot: one or several players at the busted player's table."""
        if fn is busts.bust_entry and "eliminators" not in kwargs and args and args[0] is not None:
            kwargs["eliminators"] = self.winners_for(args[0])
        return super().act(fn, *args, **kwargs)

    def winners_for(self, entry: Entry) -> list[int]:
        seat = Seat.objects.filter(entry=entry, ended_at__isnull=True).first()
        if seat is None:
            return []
        others = list(
            Seat.objects.filter(table_id=seat.table_id, ended_at__isnull=True).exclude(entry=entry).values_list("entry__number", flat=True)
        )
        if not others:
            return []
        count = self.pick_rng.choice([1, 1, 1, 2, 3])
        return self.pick_rng.sample(sorted(others), min(count, len(others)))

    # --- bounty actions -------------------------------------------------------------------------------

    @rule(i=st.integers(0, 999))
    def eliminator_corrected(self, i):
        row = pick(list(Elimination.objects.filter(tournament=self.t, status="standing", kind="bust").order_by("order")), i)
        if row is None:
            return
        at_table = list(
            Seat.objects.filter(tournament=self.t, table__number=row.table_number)
            .exclude(entry_id=row.busted_id)
            .values_list("entry__number", flat=True)
            .distinct()
        )
        if at_table:
            winners = self.pick_rng.sample(sorted(at_table), min(self.pick_rng.choice([1, 2]), len(at_table)))
            self.act(
                eliminations.correct_eliminators,
                self.t,
                actor=self.staff["floor"],
                entry_number=row.busted.number,
                eliminators=winners,
                reason="the dealer pushed the pot to the wrong seat",
            )

    @rule(i=st.integers(0, 999))
    def bounties_paid(self, i):
        owed = sorted(n for n, row in sel.won_by_entry(self.t).items() if row["owed"] > 0)
        number = pick(owed, i)
        if number is not None:
            entry = Entry.objects.get(tournament=self.t, number=number)
            self.act(
                bounty_cage.pay_bounties,
                entry,
                actor=self.staff["cashier"],
                document=id_doc(self.documents[entry.player_id]),
                signature=INK,
            )

    @rule(i=st.integers(0, 999))
    def bounty_payment_voided(self, i):
        payment = pick(list(BountyPayment.objects.filter(tournament=self.t, status="paid").order_by("number")), i)
        if payment is not None:
            self.act(bounty_cage.void_bounty_payment, payment, actor=self.staff["cashier"], reason="paid in error")

    @rule(shape=st.sampled_from(["even", "one_big", "wrong"]))
    def envelopes_committed(self, shape):
        """The director closes registration and commits envelopes that pay out the money in play, one per player in the
        phase (or a list that does not add up: refused)."""
        if self.format != "mystery":
            return
        self.act(registration.set_registration_closed, self.t, actor=self.d, closed=True)
        row = sel.bounty_rules(self.t)
        phase = (
            0
            if row.mystery_from_order is None
            else Elimination.objects.filter(tournament=self.t, status="standing", order__gte=row.mystery_from_order).count()
        )
        players = Entry.objects.filter(tournament=self.t, status=Entry.Status.ACTIVE).count() + phase
        money = sel.ledger(self.t).in_play()
        if players < 1 or money < players:
            return
        base = money // players
        if shape == "one_big" and players > 1 and base > 1:
            small = base // 2
            envelopes = {small: players - 1}
            envelopes[money - small * (players - 1)] = envelopes.get(money - small * (players - 1), 0) + 1
        else:
            envelopes = {base: players - 1} if players > 1 else {}
            envelopes[money - base * (players - 1)] = envelopes.get(money - base * (players - 1), 0) + 1
        listed = [[v, c] for v, c in envelopes.items() if c]
        if shape == "wrong":
            listed[0][0] += 1
        self.act(bounties.commit_envelopes, self.t, actor=self.d, envelopes=listed)

    # --- the invariants -------------------------------------------------------------------------------

    def bounty_money_adds_up(self):
        if self.t is None:
            return
        seen = BountyNight.seen
        seen["formats"].add(self.format)
        for kind, n in Counter(BountyAward.objects.filter(tournament=self.t).values_list("kind", flat=True)).items():
            seen[f"awards_{kind}"] = max(seen.get(f"awards_{kind}", 0), n)
        seen["voided"] = max(seen.get("voided", 0), BountyAward.objects.filter(tournament=self.t, status="void").count())
        seen["payments"] = max(seen.get("payments", 0), BountyPayment.objects.filter(tournament=self.t).count())
        seen["corrected"] = max(seen.get("corrected", 0), Elimination.objects.filter(tournament=self.t, status="corrected").count())
        seen["envelopes"] = max(seen.get("envelopes", 0), BountyAward.objects.filter(tournament=self.t, envelope__isnull=False).count())
        money = sel.money(self.t)
        assert money["in_play"] + money["paid"] + money["owed"] + money["forfeited"] + money["to_pool"] == money["taken_in"], money
        assert money["adds_up"], money
        assert money["in_play"] >= 0 and money["owed"] >= 0, money
        books = reconciliation(self.t)
        assert books["balance"] == 0 and books["bounties_in"] == money["taken_in"], books

    def awards_are_the_replay(self):
        """The standing awards of the eliminations are exactly what the night's replay makes of them; a head is taken
        once; a PKO head is its start plus what it kept; every bounty receipt pays exactly its standing awards."""
        if self.t is None:
            return
        ledger = sel.ledger(self.t)
        expected = Counter((a.kind, a.order, a.busted, a.winner, a.cash, a.head_added) for a in ledger.awards)
        standing = Counter(
            (a.kind, a.order, a.busted.number if a.busted else None, a.winner.number if a.winner else None, a.cash, a.head_added)
            for a in BountyAward.objects.filter(tournament=self.t, status="standing", kind__in=["bust", "dq"]).select_related(
                "busted", "winner"
            )
        )
        assert standing == expected, f"awards {dict(standing - expected)} not in the replay; {dict(expected - standing)} missing"
        taken = Counter(
            a["busted"]
            for a in BountyAward.objects.filter(tournament=self.t, status="standing", kind__in=["bust", "dq"])
            .order_by()
            .values("busted", "order")
            .distinct()
        )
        assert all(n == 1 for n in taken.values()), "a head was taken twice"
        if self.format == "progressive":
            heads = sel.heads(self.t)
            starts = sel.starts(self.t)
            for number, head in heads.items():
                if BountyAward.objects.filter(tournament=self.t, status="standing", kind__in=["own", "dealt"]).exists():
                    break
                kept = sum(a.head_added for a in ledger.awards if a.winner == number)
                assert head == starts.get(number, 0) + kept, f"#{number}'s head {head} is not its start plus what it kept"
        for payment in BountyPayment.objects.filter(tournament=self.t, status="paid"):
            covered = BountyAward.objects.filter(payment=payment)
            assert covered.filter(status="standing").count() == covered.count() == len(payment.awards), "a paid bounty was taken back"
            assert sum(a.cash for a in covered) == payment.amount, "a bounty receipt does not pay its awards"
            assert all(a.winner_id == payment.entry_id for a in covered), "a bounty paid to another entry"
        assert not Purchase.objects.filter(tournament=self.t, kind__in=["buy_in", "reentry"]).exclude(bounty=self.t.bounty).exists()


BOUNTY_INVARIANTS = (*INVARIANTS, "bounty_money_adds_up", "awards_are_the_replay")
BountyNight.night_invariants = lambda self: BOUNTY_INVARIANTS


@pytest.mark.parametrize("number", range(BOUNTY_SHARDS))
@pytest.mark.django_db(transaction=False)
def test_whole_bounty_nights_hold_together(db, number):
    BountyNight.seen = {"formats": set()}
    played = play_nights(BountyNight, number, BOUNTY_SHARDS, max(EXAMPLES // 2, 3))
    assert played["nights"] >= 1 and played["checks"] >= played["nights"], played
    print(f"bounty nights, shard {number}: {played}, {BountyNight.seen}")  # noqa: T201  (the figures, with -s)
    assert BountyNight.seen.get("awards_bust", 0) >= 1, BountyNight.seen  # the nights reach knockouts
