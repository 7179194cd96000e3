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


class Payment(NeverDeleteModel):
    """A prize paid at the cashier (docs/rules.md, club 32): against a second ID check that matched the
    registration's, with the player's signature, under a receipt number in sequence per tournament. A
    prize is paid once (one paid payment per entry: a database constraint); a payment is voided with a
    reason, never deleted, and the prize can then be paid again."""

    class Status(models.TextChoices):
        PAID = "paid", _("Paid")
        VOIDED = "voided", _("Voided")

    tournament = models.ForeignKey(Tournament, on_delete=models.PROTECT, related_name="payments")
    entry = models.ForeignKey("tournament.Entry", on_delete=models.PROTECT, related_name="payments")
    number = models.PositiveIntegerField(_("payout receipt number"))
    status = models.CharField(max_length=8, choices=Status.choices, default=Status.PAID)
    amount = models.PositiveBigIntegerField()
    place = models.PositiveIntegerField()
    place_low = models.PositiveIntegerField()
    id_check = models.ForeignKey("tournament.IdCheck", on_delete=models.PROTECT, related_name="+")
    signature = models.BinaryField()  # the player's signature as drawn on the tablet, a PNG image
    paid_at = models.DateTimeField()
    paid_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    voided_at = models.DateTimeField(null=True, blank=True)
    voided_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, null=True, blank=True, related_name="+")
    void_reason = models.CharField(max_length=300, blank=True)

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
