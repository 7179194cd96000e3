"""Tournaments, structures, chip sets, players, entries, purchases, ID checks, audit events.

Rows here are never deleted: corrections are new rows or status changes with an audit event.
"""

from __future__ import annotations

import functools
import uuid
import zoneinfo

from django.conf import settings
from django.core.exceptions import ValidationError
from django.core.validators import MaxValueValidator, MinValueValidator, RegexValidator
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

from core.search import words_of
from tournament.rules import search_keys


class NeverDeleteQuerySet(models.QuerySet):
    def delete(self):  # pragma: no cover - guarded behaviour is tested through the model
        raise PermissionError("rows of this kind are never deleted; record a compensating event")


class NeverDeleteModel(models.Model):
    objects = NeverDeleteQuerySet.as_manager()

    class Meta:
        abstract = True

    def delete(self, *args, **kwargs):
        raise PermissionError("rows of this kind are never deleted; record a compensating event")


@functools.cache
def time_zones() -> frozenset[str]:
    """The IANA zones this machine knows, read once: zoneinfo.available_timezones() walks the system's zoneinfo
    folder on every call (about 25 ms), and every save of a tournament validates its zone."""
    return frozenset(zoneinfo.available_timezones())


def validate_time_zone(value: str) -> None:
    if value not in time_zones():
        raise ValidationError(_("Unknown time zone: %(zone)s"), params={"zone": value}, code="time_zone")


class StaffProfile(models.Model):
    user = models.OneToOneField(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="staff_profile")
    language = models.CharField(_("language"), max_length=8, blank=True, choices=settings.LANGUAGES)
    # Staff per tournament: a Floor, Cashier or Dealer listed here works these tournaments only
    # (core/roles.py); nobody listed, every tournament, as before. A director works every tournament.
    tournaments = models.ManyToManyField(
        "Tournament",
        blank=True,
        related_name="own_staff",
        verbose_name=_("works only these tournaments"),
        help_text=_("Empty: every tournament. A director always works every tournament."),
    )

    def __str__(self) -> str:
        return f"{self.user} ({self.language or 'browser'})"


class Structure(models.Model):
    """A blind structure with its chip set. Templates are reusable; a tournament owns a copy."""

    name = models.CharField(_("name"), max_length=120)
    is_template = models.BooleanField(_("template"), default=False)
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["name", "id"]

    def __str__(self) -> str:
        return self.name


class Denomination(models.Model):
    structure = models.ForeignKey(Structure, on_delete=models.CASCADE, related_name="denominations")
    value = models.PositiveIntegerField(_("value"), validators=[MinValueValidator(1)])
    colour = models.CharField(_("colour"), max_length=40)

    class Meta:
        ordering = ["value"]
        constraints = [
            models.UniqueConstraint(fields=["structure", "value"], name="denomination_unique_value"),
            models.CheckConstraint(condition=Q(value__gte=1), name="denomination_positive"),
        ]

    def __str__(self) -> str:
        return f"{self.value} ({self.colour})"


class Level(models.Model):
    class Kind(models.TextChoices):
        LEVEL = "level", _("Level")
        BREAK = "break", _("Break")

    class AnteType(models.TextChoices):
        NONE = "none", _("No ante")
        ANTE = "ante", _("Ante (every player)")
        BIG_BLIND_ANTE = "bba", _("Big blind ante")

    structure = models.ForeignKey(Structure, on_delete=models.CASCADE, related_name="levels")
    position = models.PositiveSmallIntegerField()
    kind = models.CharField(max_length=8, choices=Kind.choices, default=Kind.LEVEL)
    small_blind = models.PositiveIntegerField(_("small blind"), default=0)
    big_blind = models.PositiveIntegerField(_("big blind"), default=0)
    ante = models.PositiveIntegerField(_("ante"), default=0)
    ante_type = models.CharField(_("ante type"), max_length=4, choices=AnteType.choices, default=AnteType.NONE)
    minutes = models.PositiveSmallIntegerField(_("minutes"))
    color_up = models.JSONField(_("color-up"), default=list, blank=True)

    class Meta:
        ordering = ["structure", "position"]
        constraints = [
            models.UniqueConstraint(fields=["structure", "position"], name="level_unique_position"),
            models.CheckConstraint(condition=Q(minutes__gte=1), name="level_minutes_positive"),
        ]


class Tournament(models.Model):
    class Game(models.TextChoices):
        NLHE = "nlhe", _("No-limit hold'em")

    class TableFormat(models.TextChoices):
        FULL_RING = "full_ring", _("Full ring")
        SIX_MAX = "six_max", _("6-max")

    class Status(models.TextChoices):
        SETUP = "setup", _("Setting up")
        RUNNING = "running", _("Running")
        FINISHED = "finished", _("Finished")

    class BountyFormat(models.TextChoices):  # payouts/rules/bounties.py: the same names
        NONE = "none", _("No bounties")
        KNOCKOUT = "knockout", _("Knockout: a fixed bounty paid to the eliminator")
        PROGRESSIVE = "progressive", _("Progressive knockout (PKO): part in cash, the rest onto the eliminator's head")
        MYSTERY = "mystery", _("Mystery bounty: envelopes drawn from a set point")

    class WaitingPayment(models.TextChoices):  # tournament/rules/waiting_list.py: the same names
        ON_JOINING = "on_joining", _("when he joins the list (given back if he is never seated)")
        ON_SEATING = "on_seating", _("when he is seated")

    class NoShowMoney(models.TextChoices):
        REFUNDED = "refunded", _("given back")
        KEPT = "kept", _("kept by the house")

    name = models.CharField(_("name"), max_length=160)
    venue = models.CharField(_("venue"), max_length=160)
    # The room whose tables it takes (venues/): none for a tournament made before venues, which takes from the default one.
    room = models.ForeignKey("venues.Venue", on_delete=models.PROTECT, null=True, blank=True, related_name="tournaments")
    time_zone = models.CharField(_("time zone"), max_length=64, default="Europe/Prague", validators=[validate_time_zone])
    start_at = models.DateTimeField(_("start time"))
    game = models.CharField(_("game"), max_length=8, choices=Game.choices, default=Game.NLHE)
    table_format = models.CharField(_("table format"), max_length=10, choices=TableFormat.choices, default=TableFormat.FULL_RING)
    seats_per_table = models.PositiveSmallIntegerField(
        _("seats per table"), default=9, validators=[MinValueValidator(2), MaxValueValidator(10)]
    )
    final_table_size = models.PositiveSmallIntegerField(_("final table size"), validators=[MinValueValidator(2), MaxValueValidator(10)])
    currency = models.CharField(
        _("currency"),
        max_length=3,
        default="EUR",
        validators=[RegexValidator(r"^[A-Z]{3}$", _("Use a three-letter ISO code such as EUR or CZK."))],
    )
    buy_in = models.PositiveIntegerField(_("buy-in (minor units)"))
    fee = models.PositiveIntegerField(_("fee (minor units)"), default=0)
    # Each buy-in pays `bounty` apart from the pool (a head), fixed once an entry is taken; the house's settings: payouts.BountyRules.
    bounty_format = models.CharField(_("bounties"), max_length=12, choices=BountyFormat.choices, default=BountyFormat.NONE)
    bounty = models.PositiveIntegerField(_("bounty per entry (minor units)"), default=0)
    starting_stack = models.PositiveIntegerField(_("starting stack"), validators=[MinValueValidator(1)])
    reentry_allowed = models.BooleanField(_("re-entry allowed"), default=False)
    max_reentries = models.PositiveSmallIntegerField(
        _("re-entries per player"), null=True, blank=True, help_text=_("Empty means no limit.")
    )
    late_reg_until_level = models.PositiveSmallIntegerField(
        _("late registration until level"),
        null=True,
        blank=True,
        validators=[MinValueValidator(1)],
        help_text=_("Registration closes when this level ends. Empty: open until the director closes it."),
    )
    guaranteed_pool = models.PositiveIntegerField(_("guaranteed prize pool (minor units)"), default=0)
    # The waiting list (tournament/rules/waiting_list.py): past the maximum entries, or the seats of a room whose set of
    # tables is fixed, a player waits as an alternate and is seated as seats open, in the list's order.
    max_entries = models.PositiveIntegerField(
        _("maximum entries"), null=True, blank=True, validators=[MinValueValidator(2)], help_text=_("Empty: the seats decide.")
    )
    alternate_minutes = models.PositiveSmallIntegerField(
        _("minutes an alternate has to sit down"), default=10, validators=[MinValueValidator(1), MaxValueValidator(120)]
    )
    waiting_payment = models.CharField(
        _("waiting list: buy-in taken"), max_length=10, choices=WaitingPayment.choices, default=WaitingPayment.ON_JOINING
    )
    no_show_money = models.CharField(
        _("waiting list: a no-show's buy-in"), max_length=8, choices=NoShowMoney.choices, default=NoShowMoney.REFUNDED
    )
    # Reservations from the players' phones (tournament/models/reservations.py): how many places may be reserved (0: none),
    # and when the unclaimed ones expire (empty: at the start time).
    reservation_cap = models.PositiveIntegerField(_("places players may reserve from their phones"), default=0)
    reservations_until = models.DateTimeField(_("unclaimed reservations expire at"), null=True, blank=True)
    rebuy_allowed = models.BooleanField(_("re-buys allowed"), default=False)
    rebuy_price = models.PositiveIntegerField(_("re-buy price (minor units)"), default=0)
    rebuy_fee = models.PositiveIntegerField(_("re-buy fee (minor units)"), default=0)
    rebuy_chips = models.PositiveIntegerField(_("re-buy chips"), default=0)
    max_rebuys = models.PositiveSmallIntegerField(_("re-buys per entry"), null=True, blank=True, help_text=_("Empty means no limit."))
    rebuy_until_level = models.PositiveSmallIntegerField(_("re-buys until level"), null=True, blank=True)
    addon_allowed = models.BooleanField(_("add-ons allowed"), default=False)
    addon_price = models.PositiveIntegerField(_("add-on price (minor units)"), default=0)
    addon_fee = models.PositiveIntegerField(_("add-on fee (minor units)"), default=0)
    addon_chips = models.PositiveIntegerField(_("add-on chips"), default=0)
    max_addons = models.PositiveSmallIntegerField(_("add-ons per entry"), default=1)
    addon_until_level = models.PositiveSmallIntegerField(_("add-ons until level"), null=True, blank=True)
    registration_closed = models.BooleanField(_("registration closed"), default=False)
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.SETUP)
    structure = models.OneToOneField(Structure, on_delete=models.PROTECT, related_name="tournament")
    current_level = models.PositiveSmallIntegerField(_("current level"), default=1)
    event_seq = models.PositiveBigIntegerField(default=0)
    # The event_seq of the last event that may change what the public seat answers show (tables and
    # seats, moves, busts, entries): phones are answered per this version (web/caching.py), so the
    # hand starts of a thousand tables and the clock do not make every phone's answer new.
    seats_seq = models.PositiveBigIntegerField(default=0)
    created_at = models.DateTimeField(auto_now_add=True)
    # Who the tournament is wherever it goes: its file (archive/) carries it, and an import refuses a file
    # whose tournament is already in the database by it.
    uid = models.UUIDField(default=uuid.uuid4, unique=True, editable=False)

    class Meta:
        ordering = ["-start_at", "id"]
        constraints = [
            models.CheckConstraint(condition=Q(seats_per_table__gte=2, seats_per_table__lte=10), name="tournament_seats_2_10"),
            models.CheckConstraint(condition=Q(final_table_size__gte=2, final_table_size__lte=10), name="tournament_final_table_2_10"),
            models.CheckConstraint(
                condition=Q(bounty_format="none", bounty=0) | (~Q(bounty_format="none") & Q(bounty__gt=0)),
                name="tournament_bounty_with_its_format",
            ),
        ]

    def __str__(self) -> str:
        return self.name

    def save(self, *args, **kwargs):
        """The event sequences are only ever written by tournament.services.audit.next_sequence, in one statement: a
        full save of an existing row leaves them out, so an instance read before an event cannot set them back."""
        if self.pk is not None and not self._state.adding and kwargs.get("update_fields") is None:
            kwargs["update_fields"] = [
                f.name for f in self._meta.concrete_fields if not f.primary_key and f.name not in ("event_seq", "seats_seq")
            ]
        super().save(*args, **kwargs)

    @staticmethod
    def default_final_table_size(table_format: str, seats_per_table: int) -> int:
        """TDA 9 / WSOP R68: one more than the table size (10 full ring, 7 six-max), at most 10."""
        if table_format == Tournament.TableFormat.SIX_MAX:
            return min(seats_per_table, 6) + 1
        return min(seats_per_table + 1, 10)


SEARCH_KEY_LENGTH = 300


class PlayerQuerySet(NeverDeleteQuerySet):
    def bulk_create(self, objs, *args, **kwargs):
        """bulk_create skips save(): the search key is set here, so every way of creating a player sets it."""
        objs = list(objs)
        for player in objs:
            player.search_key = Player.key_of(player.first_name, player.last_name, player.nickname)
        return super().bulk_create(objs, *args, **kwargs)

    def named(self, query: str):
        """The players whose name holds every word of the query, ignoring case and accents, by any part
        ("novak", "NOVÁK" and "vak" find Jan Novák)."""
        players = self
        for word in words_of(query):
            players = players.filter(search_key__contains=word)
        return players

    def update(self, **kwargs):
        if {"first_name", "last_name", "nickname"} & set(kwargs) and "search_key" not in kwargs:
            raise ValueError("a name changed by update() leaves the search key behind: save() each player")
        return super().update(**kwargs)


class Player(NeverDeleteModel):
    objects = PlayerQuerySet.as_manager()

    first_name = models.CharField(_("first name"), max_length=80)
    last_name = models.CharField(_("last name"), max_length=80)
    nickname = models.CharField(_("nickname"), max_length=80, blank=True)
    email = models.EmailField(_("e-mail"), blank=True)
    phone = models.CharField(_("phone"), max_length=40, blank=True)
    date_of_birth = models.DateField(_("date of birth"))
    id_hmac = models.CharField(max_length=64, null=True, blank=True, editable=False)
    # "first last nickname" folded (core/search.py): a name search is `search_key__contains` for each folded word,
    # so it ignores case and accents alike on PostgreSQL and SQLite. Kept by save(); bulk_create must set it.
    search_key = models.CharField(max_length=SEARCH_KEY_LENGTH, blank=True, default="", editable=False, db_index=True)
    created_at = models.DateTimeField(auto_now_add=True)
    created_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+", null=True)

    class Meta:
        ordering = ["last_name", "first_name", "id"]
        constraints = [
            models.UniqueConstraint(fields=["id_hmac"], condition=Q(id_hmac__isnull=False), name="player_one_record_per_document"),
        ]

    def __str__(self) -> str:
        return self.display_name

    def save(self, *args, **kwargs):
        self.search_key = self.key_of(self.first_name, self.last_name, self.nickname)
        fields = kwargs.get("update_fields")
        if fields is not None and {"first_name", "last_name", "nickname"} & set(fields):
            kwargs["update_fields"] = {*fields, "search_key"}
        super().save(*args, **kwargs)

    @staticmethod
    def key_of(first_name: str, last_name: str, nickname: str) -> str:
        """The folded search key of a name (core/search.py), cut to the column."""
        return search_keys.key_of(first_name, last_name, nickname, SEARCH_KEY_LENGTH)

    @property
    def display_name(self) -> str:
        return self.name_of(self.first_name, self.last_name, self.nickname)

    @staticmethod
    def name_of(first_name: str, last_name: str, nickname: str) -> str:
        name = f"{first_name} {last_name}"
        return f"{name} ({nickname})" if nickname else name


class IdCheck(NeverDeleteModel):
    class Purpose(models.TextChoices):
        REGISTRATION = "registration", _("Registration")
        PAYOUT = "payout", _("Payout")
        CARRIED = "carried", _("Carried into Day 2 (the flight's registration check)")

    class DocumentType(models.TextChoices):
        ID_CARD = "id_card", _("National ID card")
        PASSPORT = "passport", _("Passport")
        DRIVING_LICENCE = "driving_licence", _("Driving licence")
        RESIDENCE_PERMIT = "residence_permit", _("Residence permit")

    player = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="id_checks")
    purpose = models.CharField(max_length=16, choices=Purpose.choices)
    document_type = models.CharField(_("document type"), max_length=20, choices=DocumentType.choices)
    number_last4 = models.CharField(max_length=4)
    number_hmac = models.CharField(max_length=64, db_index=True)
    checked_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    checked_at = models.DateTimeField()

    class Meta:
        ordering = ["-checked_at"]


class Entry(NeverDeleteModel):
    class Kind(models.TextChoices):
        ENTRY = "entry", _("Entry")
        REENTRY = "reentry", _("Re-entry")

    class Status(models.TextChoices):
        ACTIVE = "active", _("Playing")
        BUSTED = "busted", _("Busted")
        VOIDED = "voided", _("Voided")

    tournament = models.ForeignKey(Tournament, on_delete=models.PROTECT, related_name="entries")
    player = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="entries")
    number = models.PositiveIntegerField(_("entry number"))
    kind = models.CharField(max_length=8, choices=Kind.choices, default=Kind.ENTRY)
    status = models.CharField(max_length=8, choices=Status.choices, default=Status.ACTIVE)
    id_check = models.OneToOneField(IdCheck, on_delete=models.PROTECT, related_name="entry")
    id_hmac = models.CharField(max_length=64)
    finish_place = models.PositiveIntegerField(null=True, blank=True)
    # A tie (players busted in the same hand with equal stacks, or at different tables in a
    # hand-for-hand hand): the entry shares places finish_place .. finish_place_low.
    finish_place_low = models.PositiveIntegerField(null=True, blank=True)
    bust_stack = models.PositiveBigIntegerField(null=True, blank=True)  # chips at the start of the hand it busted in
    bust_hand = models.CharField(max_length=40, blank=True)  # "h4h:<n>:<hand>" or "table:<id>:<hand>": who busted with it
    busted_at = models.DateTimeField(null=True, blank=True)
    created_at = models.DateTimeField()
    created_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")

    class Meta:
        ordering = ["tournament", "number"]
        verbose_name_plural = "entries"
        constraints = [
            models.UniqueConstraint(fields=["tournament", "number"], name="entry_unique_number"),
            models.UniqueConstraint(fields=["tournament", "player"], condition=Q(status="active"), name="entry_one_live_per_player"),
            models.UniqueConstraint(fields=["tournament", "id_hmac"], condition=Q(status="active"), name="entry_one_live_per_document"),
        ]

    def __str__(self) -> str:
        return f"#{self.number} {self.player.display_name}"


class Purchase(NeverDeleteModel):
    """Money taken for chips: a buy-in (entry or re-entry), a re-buy or an add-on. Prints as a receipt."""

    class Kind(models.TextChoices):
        BUY_IN = "buy_in", _("Buy-in")
        REENTRY = "reentry", _("Re-entry")
        REBUY = "rebuy", _("Re-buy")
        ADDON = "addon", _("Add-on")
        CARRIED = "carried", _("Chips carried into Day 2")

    class Status(models.TextChoices):
        ANNOUNCED = "announced", _("Announced, not yet paid")
        PAID = "paid", _("Paid")
        VOIDED = "voided", _("Voided")

    class PaidWith(models.TextChoices):
        CASH = "cash", _("Cash")
        TICKET = "ticket", _("Satellite ticket")

    tournament = models.ForeignKey(Tournament, on_delete=models.PROTECT, related_name="purchases")
    entry = models.ForeignKey(Entry, on_delete=models.PROTECT, related_name="purchases")
    number = models.PositiveIntegerField(_("receipt number"))
    kind = models.CharField(max_length=8, choices=Kind.choices)
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.PAID)
    amount = models.PositiveIntegerField()  # the prize pool's part
    bounty = models.PositiveIntegerField(default=0)  # the bounty's part (a head: payouts/rules/bounties.py), apart from the pool
    fee = models.PositiveIntegerField(default=0)
    chips = models.PositiveIntegerField()
    created_at = models.DateTimeField()
    created_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    paid_at = models.DateTimeField(null=True, blank=True)
    paid_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+", null=True, blank=True)
    voided_at = models.DateTimeField(null=True, blank=True)
    voided_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+", null=True, blank=True)
    void_reason = models.CharField(max_length=300, blank=True)
    refund_amount = models.PositiveIntegerField(null=True, blank=True)
    # A buy-in paid with a satellite's ticket (payouts.Ticket): in the pool like any paid buy-in, not cash in the cage.
    paid_with = models.CharField(max_length=6, choices=PaidWith.choices, default=PaidWith.CASH)

    class Meta:
        ordering = ["tournament", "number"]
        constraints = [
            models.UniqueConstraint(fields=["tournament", "number"], name="purchase_unique_number"),
            models.CheckConstraint(
                condition=~Q(status="voided") | (Q(voided_at__isnull=False) & ~Q(void_reason="")),
                name="purchase_void_has_reason",
            ),
        ]

    @property
    def total(self) -> int:
        return self.amount + self.bounty + self.fee


class AuditEvent(NeverDeleteModel):
    """One state change. Per-tournament sequence numbers drive the live protocol."""

    tournament = models.ForeignKey(Tournament, on_delete=models.PROTECT, related_name="events", null=True, blank=True)
    seq = models.PositiveBigIntegerField(null=True, blank=True)
    at = models.DateTimeField()
    actor = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+", null=True, blank=True)
    actor_label = models.CharField(max_length=150, blank=True)
    type = models.CharField(max_length=60)
    payload = models.JSONField(default=dict)
    # The entries whose public seat answer the event may change (web/caching.py patches the room's seats with
    # them): [] none, a list those only, null any of them (the default: the whole room is read again).
    seat_entries = models.JSONField(null=True, blank=True, default=None)

    class Meta:
        ordering = ["id"]
        constraints = [
            models.UniqueConstraint(fields=["tournament", "seq"], name="audit_unique_seq"),
        ]

    def save(self, *args, **kwargs):
        if self.pk is not None:
            raise PermissionError("audit events are never changed")
        super().save(*args, **kwargs)


class ChipAdjustment(NeverDeleteModel):
    """A change of the chips in play that is not a purchase: a table's chip race (what the race added or
    removed), chips of a removed denomination found after it (TDA 21C), or a disqualified player's chips
    (and their return when he is reinstated). The tournament's chips in play are the purchases' chips plus
    these. `in_play_after` is the chips in play once it counts (tournament/services/chips.py writes every row):
    chips in play are never negative, a database constraint (null: rows from before it was kept)."""

    class Kind(models.TextChoices):
        RACE = "race", _("Chip race")
        FOUND = "found", _("Chips of a removed denomination found")
        DISQUALIFIED = "dq", _("A disqualified player's chips taken out of play")

    tournament = models.ForeignKey(Tournament, on_delete=models.PROTECT, related_name="chip_adjustments")
    kind = models.CharField(max_length=5, choices=Kind.choices)
    amount = models.BigIntegerField()
    table = models.PositiveIntegerField(null=True, blank=True)
    in_play_after = models.BigIntegerField(null=True, blank=True)
    created_at = models.DateTimeField()
    created_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, null=True, related_name="+")

    class Meta:
        constraints = [
            models.CheckConstraint(
                condition=Q(in_play_after__isnull=True) | Q(in_play_after__gte=0), name="chip_adjustment_in_play_not_negative"
            ),
        ]


# Models in modules of their own (this one is long enough): imported here, so `tournament.models` holds every model.
from tournament.models.reservations import Reservation  # noqa: E402
from tournament.models.screens import DisplayToken, ScreenLink, ScreenLinkQuerySet  # noqa: E402
from tournament.models.waiting import WaitingPlace  # noqa: E402

__all__ = ["DisplayToken", "Reservation", "ScreenLink", "ScreenLinkQuerySet", "WaitingPlace"]
