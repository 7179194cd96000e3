"""The money of a tournament after the buy-ins: how its prize pool is paid out.

The prize pool itself is the tournament's (tournament/selectors/stats.py: the prize part of every paid buy-in,
re-entry, re-buy and add-on, the fees excluded, or the guarantee when it is higher). What this app
keeps is the house's choice of payout structure for the tournament (`PayoutPlan`): the generator's
settings or a house percentage table, and a structure the director has edited by hand.
"""

from __future__ import annotations

from django.conf import settings
from django.core.validators import MaxValueValidator, MinValueValidator
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

from tournament.models import NeverDeleteModel, Tournament


class PayoutPlan(NeverDeleteModel):
    """How a tournament's prize pool is paid (payouts/rules/payout_structure.py, payouts/rules/house_tables.py).

    Without a row, the house defaults apply. The structure follows the entries and the pool until late
    registration ends; after that no entry can come, so it stays as it is (a void or a late add-on
    still changes the pool, and the structure follows it: the prizes always add up to the pool).
    `edited`: the director's own prizes by place for the pool and entries they were made for; they
    stand while the pool and the entries are those, and the screens say so when they no longer are."""

    class Method(models.TextChoices):
        GENERATED = "generated", _("Generated for the field")
        HOUSE_TABLE = "house_table", _("House percentage table")

    tournament = models.OneToOneField(Tournament, on_delete=models.PROTECT, related_name="payout_plan")
    method = models.CharField(_("payout structure"), max_length=12, choices=Method.choices, default=Method.GENERATED)
    share_paid_bp = models.PositiveIntegerField(
        _("share of the field paid (basis points: 1500 = 15%)"), default=1500, validators=[MinValueValidator(1), MaxValueValidator(10_000)]
    )
    min_cash_bp = models.PositiveIntegerField(
        _("minimum cash (basis points of the buy-in: 15000 = 1.5x)"), default=15_000, validators=[MaxValueValidator(1_000_000)]
    )
    unit = models.PositiveIntegerField(_("rounding unit (minor units)"), default=100, validators=[MinValueValidator(1)])
    house_table = models.JSONField(_("house percentage table"), null=True, blank=True)
    edited = models.JSONField(null=True, blank=True)  # {"pool", "entries", "prizes": [[first, last, prize], ...]}
    edited_at = models.DateTimeField(null=True, blank=True)
    edited_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, null=True, blank=True, related_name="+")

    class Meta:
        constraints = [
            models.CheckConstraint(condition=Q(share_paid_bp__gte=1) & Q(share_paid_bp__lte=10_000), name="payout_share_paid_range"),
            models.CheckConstraint(condition=Q(unit__gte=1), name="payout_unit_positive"),
            models.CheckConstraint(condition=~Q(method="house_table") | Q(house_table__isnull=False), name="payout_house_table_given"),
        ]


class PaidAtTheCage(NeverDeleteModel):
    """Money the cage paid a player (a prize, bounties): against a second ID check that matched the registration's,
    with the player's signature, under a receipt number in sequence per tournament; voided with a reason, never
    deleted."""

    class Status(models.TextChoices):
        PAID = "paid", _("Paid")
        VOIDED = "voided", _("Voided")

    status = models.CharField(max_length=8, choices=Status.choices, default=Status.PAID)
    amount = models.PositiveBigIntegerField()
    id_check = models.ForeignKey("tournament.IdCheck", on_delete=models.PROTECT, related_name="+")
    signature = models.BinaryField()  # the player's signature as drawn on the tablet, a PNG image
    paid_at = models.DateTimeField()
    paid_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    voided_at = models.DateTimeField(null=True, blank=True)
    voided_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, null=True, blank=True, related_name="+")
    void_reason = models.CharField(max_length=300, blank=True)

    class Meta:
        abstract = True


class Payment(PaidAtTheCage):
    """A prize paid at the cashier (docs/rules.md, club 32). A prize is paid once (one paid payment per entry: a
    database constraint); once a payment is voided the prize can be paid again."""

    tournament = models.ForeignKey(Tournament, on_delete=models.PROTECT, related_name="payments")
    entry = models.ForeignKey("tournament.Entry", on_delete=models.PROTECT, related_name="payments")
    number = models.PositiveIntegerField(_("payout receipt number"))
    place = models.PositiveIntegerField()
    place_low = models.PositiveIntegerField()

    class Meta:
        ordering = ["tournament", "number"]
        constraints = [
            models.UniqueConstraint(fields=["tournament", "number"], name="payment_unique_number"),
            models.UniqueConstraint(fields=["entry"], condition=Q(status="paid"), name="payment_one_paid_per_entry"),
            models.CheckConstraint(condition=Q(amount__gt=0), name="payment_amount_positive"),
            models.CheckConstraint(
                condition=~Q(status="voided") | (Q(voided_at__isnull=False) & ~Q(void_reason="")), name="payment_void_has_reason"
            ),
        ]


class Deal(NeverDeleteModel):
    """A deal at the final table (docs/rules.md, club 28 and 32; payouts/rules/deals.py): proposed by the floor with
    the chip counts of every player left, approved by the director before it takes effect (until then the
    old prizes stand), or rejected. Never deleted.

    `entries[i]` had `stacks[i]` chips and is paid `amounts[i]` by the deal; `prizes_left` are the prizes
    of places 1..n when it was proposed (approval refuses a deal whose basis changed since). `table` is the
    prize table by place it makes for those places (club 28, play on: a lower finisher never gets more).
    Stopping play instead places the players by their chips at the deal (`finishes`: [entry, place,
    place_low, amount]), and each is paid their amount."""

    class Status(models.TextChoices):
        PROPOSED = "proposed", _("Proposed")
        APPROVED = "approved", _("Approved")
        REJECTED = "rejected", _("Rejected")

    class Kind(models.TextChoices):
        ICM = "icm", _("ICM")
        CHIP_CHOP = "chip_chop", _("Chip chop")
        CUSTOM = "custom", _("Amounts agreed")

    class Mode(models.TextChoices):
        PLAY_ON = "play_on", _("Play on for the places")
        STOP = "stop", _("Stop: places by the chip counts")

    tournament = models.ForeignKey(Tournament, on_delete=models.PROTECT, related_name="deals")
    number = models.PositiveIntegerField()
    status = models.CharField(max_length=8, choices=Status.choices, default=Status.PROPOSED)
    kind = models.CharField(max_length=9, choices=Kind.choices)
    mode = models.CharField(max_length=7, choices=Mode.choices)
    entries = models.JSONField()
    stacks = models.JSONField()
    amounts = models.JSONField()
    to_play_for = models.PositiveBigIntegerField(default=0)
    prizes_left = models.JSONField()
    table = models.JSONField()
    finishes = models.JSONField(null=True, blank=True)
    proposed_at = models.DateTimeField()
    proposed_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, null=True, related_name="+")
    decided_at = models.DateTimeField(null=True, blank=True)
    decided_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, null=True, blank=True, related_name="+")
    reason = models.CharField(max_length=300, blank=True)

    class Meta:
        ordering = ["tournament", "number"]
        constraints = [
            models.UniqueConstraint(fields=["tournament", "number"], name="deal_unique_number"),
            models.UniqueConstraint(fields=["tournament"], condition=Q(status="proposed"), name="deal_one_proposed"),
            models.CheckConstraint(condition=~Q(mode="stop") | Q(finishes__isnull=False), name="deal_stop_has_finishes"),
        ]


class Satellite(models.Model):
    """A tournament that awards seats in a target event (payouts/rules/satellite.py): the seats are its pool
    divided by a seat's value, rounded down: the target's buy-in and fee (`seat` = entry), or its buy-in alone, the
    house waiving the fee for a ticket (`seat` = buy_in); the cash left over goes to the next place or
    is shared by the seat winners (`leftover`). Play stops when the players left equal the seats; each of them gets
    a ticket. `transferable`: the house lets a ticket pass to another player (each transfer audited). A setting,
    not a record: the director may take it away (audited) until a ticket exists."""

    class Leftover(models.TextChoices):
        NEXT_PLACE = "next_place", _("Cash to the next place")
        SEAT_WINNERS = "seat_winners", _("Cash shared by the seat winners")

    class Seat(models.TextChoices):
        ENTRY = "entry", _("The target's buy-in and fee")
        BUY_IN = "buy_in", _("The target's buy-in only: the house waives the fee for a ticket")

    tournament = models.OneToOneField(Tournament, on_delete=models.PROTECT, related_name="satellite")
    target = models.ForeignKey(Tournament, on_delete=models.PROTECT, related_name="satellites")
    leftover = models.CharField(_("cash left over"), max_length=12, choices=Leftover.choices, default=Leftover.NEXT_PLACE)
    transferable = models.BooleanField(_("a ticket may pass to another player"), default=False)
    seat = models.CharField(_("a seat is worth"), max_length=6, choices=Seat.choices, default=Seat.ENTRY)
    set_at = models.DateTimeField()
    set_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")

    class Meta:
        constraints = [models.CheckConstraint(condition=~Q(tournament=models.F("target")), name="satellite_not_itself")]


class Ticket(NeverDeleteModel):
    """A seat won in a satellite: one entry into its target event, held by a player. Issued when play stops,
    voided (while unused) when a correction takes the seat away, used when the desk registers the holder into the
    target with his ID checked and no payment (the entry's buy-in is paid with the ticket). Never deleted."""

    class Status(models.TextChoices):
        ISSUED = "issued", _("Issued")
        USED = "used", _("Used")
        VOID = "void", _("Void")

    satellite = models.ForeignKey(Satellite, on_delete=models.PROTECT, related_name="tickets")
    number = models.PositiveIntegerField(_("ticket number"))
    won_by = models.ForeignKey("tournament.Entry", on_delete=models.PROTECT, related_name="tickets_won")
    holder = models.ForeignKey("tournament.Player", on_delete=models.PROTECT, related_name="tickets")
    value = models.PositiveBigIntegerField()  # minor units: the seat's value when it was issued
    status = models.CharField(max_length=6, choices=Status.choices, default=Status.ISSUED)
    issued_at = models.DateTimeField()
    used_entry = models.OneToOneField("tournament.Entry", on_delete=models.PROTECT, null=True, blank=True, related_name="ticket")
    used_at = models.DateTimeField(null=True, blank=True)
    voided_at = models.DateTimeField(null=True, blank=True)
    void_reason = models.CharField(max_length=300, blank=True)

    class Meta:
        ordering = ["satellite", "number"]
        constraints = [
            models.UniqueConstraint(fields=["satellite", "number"], name="ticket_unique_number"),
            models.UniqueConstraint(fields=["won_by"], condition=~Q(status="void"), name="ticket_one_per_seat_winner"),
            models.CheckConstraint(condition=~Q(status="used") | Q(used_entry__isnull=False), name="ticket_used_has_entry"),
            models.CheckConstraint(condition=Q(value__gt=0), name="ticket_value_positive"),
        ]


class BountyRules(NeverDeleteModel):
    """The house's settings of a bounty event (payouts/rules/bounties.py; the format and the bounty per entry are the
    tournament's). Without a row the defaults apply. Fixed once a bounty has been won: a change would pay the heads of
    one night by two rules."""

    class OddUnit(models.TextChoices):
        LEFT_OF_BUTTON = "left_of_button", _("To the winner nearest the button's left (TDA's odd chip)")
        FIRST_NAMED = "first_named", _("To the winner named first")

    class Before(models.TextChoices):
        NOTHING = "nothing", _("Nothing: the bounty stays for the envelopes")
        KNOCKOUT = "knockout", _("A plain knockout: the bounty paid to the eliminator")

    class DisqualifiedHead(models.TextChoices):
        NOBODY = "nobody", _("To nobody: the house keeps it")
        PRIZE_POOL = "prize_pool", _("Added to the prize pool")

    class Cage(models.TextChoices):
        AT_BUST = "at_bust", _("At the bust: each bounty paid as it is won")
        COLLECTED = "collected", _("Collected later: all of a player's bounties in one payment, once he is out or play is over")

    class DealHeads(models.TextChoices):
        OWN = "own", _("Each player keeps his own head (mystery: draws an envelope)")
        DEALT = "dealt", _("The heads are dealt too, in proportion to the deal")

    tournament = models.OneToOneField(Tournament, on_delete=models.PROTECT, related_name="bounty_rules")
    cash_share_bp = models.PositiveIntegerField(
        _("PKO: the eliminator's cash share of a head (basis points: 5000 = half)"),
        default=5_000,
        validators=[MinValueValidator(0), MaxValueValidator(10_000)],
    )
    increment = models.PositiveIntegerField(
        _("bounties are paid in cash in steps of (minor units)"), default=100, validators=[MinValueValidator(1)]
    )
    odd_unit = models.CharField(
        _("the odd unit of a split pot's bounty"), max_length=16, choices=OddUnit.choices, default=OddUnit.LEFT_OF_BUTTON
    )
    mystery_level = models.PositiveSmallIntegerField(
        _("mystery: envelopes from this level"), null=True, blank=True, validators=[MinValueValidator(1)]
    )
    mystery_at_money = models.BooleanField(_("mystery: envelopes from the money"), default=False)
    # Set by the first elimination at that point (payouts/services/bounties.py): it and every later one draw an envelope.
    mystery_from_order = models.PositiveIntegerField(null=True, blank=True, editable=False)
    mystery_before = models.CharField(
        _("mystery: an elimination before the envelopes pays"), max_length=8, choices=Before.choices, default=Before.NOTHING
    )
    disqualified_head = models.CharField(
        _("a disqualified player's head goes"), max_length=10, choices=DisqualifiedHead.choices, default=DisqualifiedHead.NOBODY
    )
    cage = models.CharField(_("the cage pays bounties"), max_length=9, choices=Cage.choices, default=Cage.AT_BUST)
    deal_heads = models.CharField(
        _("when a deal stops play, the heads in play"), max_length=5, choices=DealHeads.choices, default=DealHeads.OWN
    )

    class Meta:
        constraints = [
            models.CheckConstraint(condition=Q(cash_share_bp__lte=10_000), name="bounty_cash_share_at_most_all"),
            models.CheckConstraint(condition=Q(increment__gte=1), name="bounty_increment_positive"),
        ]


class BountyPayment(PaidAtTheCage):
    """Bounties paid at the cage (docs/bounties.md), as prizes are, under a receipt number of their own sequence per
    tournament. Covers one or more of an entry's awards; once it is voided they are owed again."""

    tournament = models.ForeignKey(Tournament, on_delete=models.PROTECT, related_name="bounty_payments")
    entry = models.ForeignKey("tournament.Entry", on_delete=models.PROTECT, related_name="bounty_payments")
    number = models.PositiveIntegerField(_("bounty receipt number"))
    awards = models.JSONField(default=list)  # the award numbers it paid

    class Meta:
        ordering = ["tournament", "number"]
        constraints = [
            models.UniqueConstraint(fields=["tournament", "number"], name="bounty_payment_unique_number"),
            models.CheckConstraint(condition=Q(amount__gt=0), name="bounty_payment_amount_positive"),
            models.CheckConstraint(
                condition=~Q(status="voided") | (Q(voided_at__isnull=False) & ~Q(void_reason="")), name="bounty_payment_void_has_reason"
            ),
        ]


class BountyAward(NeverDeleteModel):
    """Money an elimination moved (payouts/rules/bounties.Award): `cash` won by `winner` and `head_added` onto his head
    (PKO); a disqualified player's head (no winner: to nobody or to the prize pool, `to_pool`); the last player's own
    head; the heads dealt when a deal stopped play. Kept as the night's replay makes them: an undone or corrected
    elimination voids the awards it changes (`void`) and the replay writes their successors. `payment`: the paid
    bounty receipt that covers it (none: owed)."""

    class Kind(models.TextChoices):
        BUST = "bust", _("Knockout")
        DQ = "dq", _("Disqualified player's head")
        OWN = "own", _("His own head")
        DEALT = "dealt", _("Heads dealt")

    class Status(models.TextChoices):
        STANDING = "standing", _("Standing")
        VOID = "void", _("Void")

    tournament = models.ForeignKey(Tournament, on_delete=models.PROTECT, related_name="bounty_awards")
    number = models.PositiveIntegerField()
    kind = models.CharField(max_length=5, choices=Kind.choices)
    order = models.PositiveIntegerField()  # the elimination's place in the night
    elimination = models.ForeignKey("tables.Elimination", on_delete=models.PROTECT, null=True, blank=True, related_name="awards")
    busted = models.ForeignKey("tournament.Entry", on_delete=models.PROTECT, null=True, blank=True, related_name="heads_taken")
    winner = models.ForeignKey("tournament.Entry", on_delete=models.PROTECT, null=True, blank=True, related_name="bounties_won")
    cash = models.PositiveBigIntegerField()
    head_added = models.PositiveBigIntegerField(default=0)
    envelope = models.PositiveBigIntegerField(null=True, blank=True)  # mystery: the envelope's value
    draw = models.ForeignKey("tables.Draw", on_delete=models.PROTECT, null=True, blank=True, related_name="+")  # the envelope's draw
    to_pool = models.BooleanField(default=False)
    status = models.CharField(max_length=8, choices=Status.choices, default=Status.STANDING)
    payment = models.ForeignKey(BountyPayment, on_delete=models.PROTECT, null=True, blank=True, related_name="paid_awards")
    created_at = models.DateTimeField()
    voided_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["tournament", "order", "number"]
        constraints = [
            models.UniqueConstraint(fields=["tournament", "number"], name="bounty_award_unique_number"),
            models.CheckConstraint(condition=~Q(status="void") | Q(payment__isnull=True), name="bounty_award_void_unpaid"),
        ]
        indexes = [models.Index(fields=["winner", "status"], name="bounty_award_winner")]


class MysteryBox(NeverDeleteModel):
    """A mystery bounty event's envelopes (payouts/rules/bounties.py): the house's list, committed before the first is
    drawn (its SHA-256 published), for the players in the envelope phase. Each envelope is drawn by the product's
    commit-reveal draw (tables.Draw, kind "envelope"), so anyone can recompute which envelope each elimination drew."""

    tournament = models.OneToOneField(Tournament, on_delete=models.PROTECT, related_name="mystery_box")
    envelopes = models.JSONField()  # [[value, count], ...], highest value first
    list_hash = models.CharField(max_length=64)
    total = models.PositiveBigIntegerField()
    count = models.PositiveIntegerField()
    committed_at = models.DateTimeField()
    committed_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
