"""Tables and the hands they start: each table knows the level it plays."""

import secrets

from django.conf import settings
from django.core.exceptions import ValidationError
from django.core.validators import MaxValueValidator, MinValueValidator
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

from core.tokens import hash_secret
from tournament.models import NeverDeleteModel, Tournament


class Table(NeverDeleteModel):
    tournament = models.ForeignKey(Tournament, on_delete=models.PROTECT, related_name="tables")
    number = models.PositiveSmallIntegerField(_("table number"), validators=[MinValueValidator(1)])
    seats = models.PositiveSmallIntegerField(_("seats"), validators=[MinValueValidator(2), MaxValueValidator(10)])
    in_play = models.BooleanField(_("in play"), default=True)
    accessible = models.BooleanField(
        _("accessible"), default=False, help_text=_("Wheelchair access and room around it (TDA 6: special needs).")
    )
    break_order = models.IntegerField(_("break order"), default=0, help_text=_("Tables break in ascending order of this number."))
    # Positions (tables/rules/positions.py) of the hand in play or last played. With `positions_next` the
    # button is that of the next hand (a button draw, no hand dealt since) and the blinds are unknown.
    button_seat = models.PositiveSmallIntegerField(_("button seat"), null=True, blank=True)
    small_blind_seat = models.PositiveSmallIntegerField(null=True, blank=True)
    big_blind_seat = models.PositiveSmallIntegerField(null=True, blank=True)
    positions_next = models.BooleanField(default=False)
    hand_in_progress = models.BooleanField(default=False)  # from a hand start until the tablet reports it done
    halted = models.BooleanField(default=False)  # short by the house's number: play halts until balanced
    needs_button = models.BooleanField(default=False)  # a move waits for the floor to enter this table's button
    broken_at = models.DateTimeField(null=True, blank=True)
    sends_hand_signals = models.BooleanField(
        _("sends hand signals"),
        default=True,
        help_text=_("The dealer tablet or shuffler reports each first shuffle. Otherwise the table follows the clock."),
    )
    shuffler_token_hash = models.CharField(max_length=64, blank=True)
    hand_number = models.PositiveIntegerField(default=0)
    hand_started_at = models.DateTimeField(null=True, blank=True)
    hand_level_index = models.PositiveSmallIntegerField(null=True, blank=True)  # row of the level in play
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["tournament", "number"]
        constraints = [
            models.UniqueConstraint(fields=["tournament", "number"], name="table_unique_number"),
            models.CheckConstraint(condition=Q(seats__gte=2, seats__lte=10), name="table_seats_2_10"),
        ]

    def __str__(self) -> str:
        return f"{self.tournament} table {self.number}"

    def new_shuffler_token(self) -> str:
        token = secrets.token_urlsafe(24)
        self.shuffler_token_hash = hash_secret(token)
        return token


class HandStart(NeverDeleteModel):
    """One "first shuffle": the moment a hand began at a table, and the level it plays."""

    class Source(models.TextChoices):
        TABLET = "tablet", _("Dealer tablet")
        SHUFFLER = "shuffler", _("Automatic shuffler")
        FLOOR = "floor", _("Floor")

    table = models.ForeignKey(Table, on_delete=models.PROTECT, related_name="hands")
    number = models.PositiveIntegerField()
    at = models.DateTimeField()
    level_index = models.PositiveSmallIntegerField()
    previous_level_index = models.PositiveSmallIntegerField(null=True, blank=True)
    previous_started_at = models.DateTimeField(null=True, blank=True)
    source = models.CharField(max_length=10, choices=Source.choices)
    actor = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, null=True, blank=True, related_name="+")
    undone_at = models.DateTimeField(null=True, blank=True)
    # The positions of this hand (null when the software does not know the button) and the table's
    # positions before it, restored by an undo: [button, small blind, big blind, positions_next,
    # hand_in_progress].
    button = models.PositiveSmallIntegerField(null=True, blank=True)
    small_blind = models.PositiveSmallIntegerField(null=True, blank=True)
    big_blind = models.PositiveSmallIntegerField(null=True, blank=True)
    previous_positions = models.JSONField(null=True, blank=True)

    class Meta:
        ordering = ["table", "number"]
        constraints = [models.UniqueConstraint(fields=["table", "number"], name="hand_unique_number")]


class Draw(NeverDeleteModel):
    """A verifiable draw (docs/architecture.md, "Randomness"): the seed is committed (its SHA-256 shown to the
    room) before the inputs are known, drives tables/rules/seating.py over the sorted inputs, and is
    revealed once the result is written. A tournament always has at most one pending commitment."""

    class Kind(models.TextChoices):
        START = "start", _("Start draw")
        LATE = "late", _("Late entry")
        BREAK = "break", _("Table break")
        REDRAW = "redraw", _("Redraw")
        BUTTON = "button", _("Button draw")
        TIE = "tie", _("Tie: who gets the odd units")
        RACE = "race", _("Chip race")
        ENVELOPE = "envelope", _("Mystery envelope")

    tournament = models.ForeignKey(Tournament, on_delete=models.PROTECT, related_name="draws")
    number = models.PositiveIntegerField()
    kind = models.CharField(max_length=8, choices=Kind.choices, blank=True)
    commitment = models.CharField(max_length=64)
    seed = models.CharField(max_length=64)  # hex; secret until revealed_at
    inputs = models.JSONField(null=True, blank=True)
    result = models.JSONField(null=True, blank=True)
    committed_at = models.DateTimeField()
    drawn_at = models.DateTimeField(null=True, blank=True)
    actor = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, null=True, blank=True, related_name="+")

    class Meta:
        ordering = ["tournament", "number"]
        constraints = [
            models.UniqueConstraint(fields=["tournament", "number"], name="draw_unique_number"),
            models.UniqueConstraint(fields=["tournament"], condition=Q(drawn_at__isnull=True), name="draw_one_pending"),
        ]

    @property
    def revealed(self) -> bool:
        return self.drawn_at is not None


class Seat(NeverDeleteModel):
    """One entry at one seat for a stretch of time. A seat ends (never deleted) when the player
    busts, moves, is corrected to another seat or the table breaks."""

    class End(models.TextChoices):
        BUST = "bust", _("Busted")
        MOVE = "move", _("Moved")
        CORRECTION = "correction", _("Seat corrected")
        BREAK = "break", _("Table broken")
        VOID = "void", _("Entry voided")

    tournament = models.ForeignKey(Tournament, on_delete=models.PROTECT, related_name="seats")
    entry = models.ForeignKey("tournament.Entry", on_delete=models.PROTECT, related_name="seats")
    table = models.ForeignKey(Table, on_delete=models.PROTECT, related_name="seat_rows")
    seat = models.PositiveSmallIntegerField()
    draw = models.ForeignKey(Draw, on_delete=models.PROTECT, null=True, blank=True, related_name="seats")
    seated_at = models.DateTimeField()
    ended_at = models.DateTimeField(null=True, blank=True)
    end_reason = models.CharField(max_length=12, choices=End.choices, blank=True)

    class Meta:
        ordering = ["table", "seat"]
        constraints = [
            models.UniqueConstraint(fields=["entry"], condition=Q(ended_at__isnull=True), name="seat_one_per_entry"),
            models.UniqueConstraint(fields=["table", "seat"], condition=Q(ended_at__isnull=True), name="seat_one_entry_per_seat"),
            models.CheckConstraint(condition=Q(seat__gte=1, seat__lte=10), name="seat_number_1_10"),
        ]
        indexes = [models.Index(fields=["tournament", "ended_at"], name="seat_live_idx")]


class SeatRequest(NeverDeleteModel):
    """A special need (TDA 6) of a player in a tournament: a fixed table (and seat), or an accessible
    table. Every draw that seats one of the player's entries honours it."""

    tournament = models.ForeignKey(Tournament, on_delete=models.PROTECT, related_name="seat_requests")
    player = models.ForeignKey("tournament.Player", on_delete=models.PROTECT, related_name="seat_requests")
    table_number = models.PositiveSmallIntegerField(_("table"), null=True, blank=True)
    seat = models.PositiveSmallIntegerField(_("seat"), null=True, blank=True)
    accessible = models.BooleanField(_("accessible table"), default=False)
    note = models.CharField(_("note"), max_length=200, blank=True)
    created_at = models.DateTimeField()
    created_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    cancelled_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["tournament", "player"], condition=Q(cancelled_at__isnull=True), name="seat_request_one_live"),
        ]


class HouseRules(NeverDeleteModel):
    """The room's settings for balancing, breaking, redraws and hand-for-hand (docs/rules.md)."""

    class Donor(models.TextChoices):
        FULLEST = "fullest", _("The fullest table; ties: the table that breaks first")
        BREAK_ORDER = "break_order", _("The fullest table; ties: the table that breaks last")

    class Ties(models.TextChoices):
        TIE = "tie", _("They tie")
        STACK = "stack", _("The larger starting stack finishes higher")

    tournament = models.OneToOneField(Tournament, on_delete=models.PROTECT, related_name="house_rules")
    balance_threshold = models.PositiveSmallIntegerField(
        _("balance when tables differ by"), default=2, validators=[MinValueValidator(1), MaxValueValidator(5)]
    )
    halt_short_by = models.PositiveSmallIntegerField(
        _("halt a table this many players short"), default=3, validators=[MinValueValidator(1), MaxValueValidator(9)]
    )
    donor = models.CharField(_("donor table"), max_length=12, choices=Donor.choices, default=Donor.FULLEST)
    redraw_at_three = models.BooleanField(_("redraw at three tables"), default=False)
    redraw_at_two = models.BooleanField(_("redraw at two tables"), default=False)
    hand_for_hand_seconds = models.PositiveIntegerField(
        _("clock time taken per hand-for-hand hand (seconds; 0 pauses the clock)"), default=120, validators=[MaxValueValidator(900)]
    )
    hand_for_hand_ties = models.CharField(
        _("players busted at different tables in the same hand-for-hand hand"), max_length=6, choices=Ties.choices, default=Ties.TIE
    )
    race_rounding = models.CharField(
        _("chips raced at a color-up"),
        max_length=8,
        choices=(
            ("half_up", _("The odd value to the nearest chip, half or more rounds up")),
            ("up", _("Any odd value left makes one more chip")),
        ),
        default="half_up",
    )
    race_protection = models.CharField(
        _("the chip of a player who would be raced out"),
        max_length=10,
        choices=(("added", _("Added to play")), ("from_raced", _("Taken from the chips raced"))),
        default="added",
    )
    race_protected_first = models.BooleanField(
        _("a player who would be raced out gets the chip before the race and does not race"), default=False
    )
    clock_call_seconds = models.PositiveSmallIntegerField(
        _("the time a player gets when the clock is called on him (seconds; the last 10 are counted down)"),
        default=60,
        validators=[MinValueValidator(10), MaxValueValidator(60)],
    )
    public_chip_counts = models.BooleanField(
        _("chip counts shown in public (the lobby's chip leaders, the players' chip-count page)"), default=True
    )
    disqualified_place = models.CharField(
        _("the place of a disqualified player"),
        max_length=5,
        choices=(
            ("last", _("Last among the players still in (TDA): below anyone who busts in the hand in play")),
            ("bust", _("As a bust of the hand in play, placed by his chips against the others busted in it")),
        ),
        default="last",
    )
    dealer_busts = models.CharField(
        _("a bust reported on the dealer tablet"),
        max_length=14,
        choices=(("floor_confirms", _("Waits for the floor's confirmation on the map")), ("at_once", _("Applies at once"))),
        default="floor_confirms",
    )

    class Meta:
        constraints = [models.CheckConstraint(condition=Q(balance_threshold__gte=1), name="house_threshold_positive")]

    def table_size(self) -> int:
        """The largest table of the tournament: its table size, or a larger table opened in play."""
        largest = Table.objects.filter(tournament_id=self.tournament_id, in_play=True).aggregate(n=models.Max("seats"))["n"]
        return max(self.tournament.seats_per_table, largest or 0)

    def clean(self) -> None:
        """Settings that contradict each other or the tables are refused (the screen and the API share this).
        Runs after the field checks even when they failed: a value that is not a number is left to them."""

        def number(value) -> int | None:
            return value if isinstance(value, int) and not isinstance(value, bool) else None

        threshold, halt = number(self.balance_threshold), number(self.halt_short_by)
        errors: dict[str, str] = {}
        if self.tournament_id is not None and threshold is not None:
            seats = self.table_size()
            most = max(seats - 1, 2)  # tables of n seats are at most n - 1 apart; 1 and 2 both balance at 2 apart
            if threshold > most:
                errors["balance_threshold"] = _(
                    "Tables of %(seats)s seats are never more than %(most)s players apart, so they would never be "
                    "balanced: choose 1 to %(most)s."
                ) % {"seats": seats, "most": most}
        if threshold is not None and halt is not None and halt < threshold:
            errors["halt_short_by"] = _(
                "A table is halted only when it is out of balance: the halt number is at least the balance threshold (%(threshold)s)."
            ) % {"threshold": threshold}
        if errors:
            raise ValidationError(errors)


class Move(NeverDeleteModel):
    """A move slip: one player from a seat to a reserved seat at another table (balancing, a table
    break, a redraw). Pending until the floor confirms the player sat down (chips travel with the
    player) or cancels it. The database refuses two pending moves of one entry or to one seat."""

    class Kind(models.TextChoices):
        BALANCE = "balance", _("Balancing")
        BREAK = "break", _("Table break")
        REDRAW = "redraw", _("Redraw")

    class Status(models.TextChoices):
        PENDING = "pending", _("Pending")
        DONE = "done", _("Done")
        CANCELLED = "cancelled", _("Cancelled")

    tournament = models.ForeignKey(Tournament, on_delete=models.PROTECT, related_name="moves")
    number = models.PositiveIntegerField()
    entry = models.ForeignKey("tournament.Entry", on_delete=models.PROTECT, related_name="moves")
    kind = models.CharField(max_length=8, choices=Kind.choices)
    from_table = models.ForeignKey(Table, on_delete=models.PROTECT, related_name="moves_out")
    from_seat = models.PositiveSmallIntegerField()
    to_table = models.ForeignKey(Table, on_delete=models.PROTECT, related_name="moves_in")
    to_seat = models.PositiveSmallIntegerField()
    position = models.CharField(max_length=16)  # big_blind, small_blind, button, wait_for_button, in_play, unknown
    draw = models.ForeignKey(Draw, on_delete=models.PROTECT, null=True, blank=True, related_name="moves")
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.PENDING)
    created_at = models.DateTimeField()
    created_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, null=True, blank=True, related_name="+")
    closed_at = models.DateTimeField(null=True, blank=True)
    closed_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, null=True, blank=True, related_name="+")
    cancel_reason = models.CharField(max_length=200, blank=True)

    class Meta:
        ordering = ["tournament", "number"]
        constraints = [
            models.UniqueConstraint(fields=["tournament", "number"], name="move_unique_number"),
            models.UniqueConstraint(fields=["entry"], condition=Q(status="pending"), name="move_one_pending_per_entry"),
            models.UniqueConstraint(fields=["to_table", "to_seat"], condition=Q(status="pending"), name="move_one_pending_per_seat"),
        ]


class HandForHand(NeverDeleteModel):
    """Hand-for-hand play (TDA24 RP-8): every table plays one hand and waits for all the others.
    The hand being played is "called" when every table is between hands and no move slip is
    pending; it is complete when every table in it has reported the hand done. While it lasts the
    clock stands still and each complete hand takes the house's time off it."""

    tournament = models.ForeignKey(Tournament, on_delete=models.PROTECT, related_name="hand_for_hand")
    number = models.PositiveIntegerField()
    started_at = models.DateTimeField()
    started_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, null=True, blank=True, related_name="+")
    ended_at = models.DateTimeField(null=True, blank=True)
    ended_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, null=True, blank=True, related_name="+")
    players_at_start = models.PositiveIntegerField()
    hand = models.PositiveIntegerField(default=0)  # the hand-for-hand hand called last (0: none yet)
    called = models.BooleanField(default=False)  # `hand` is being played
    tables = models.JSONField(default=list)  # the table numbers playing `hand`
    shuffled = models.JSONField(default=list)  # of those, the tables that started it
    reported = models.JSONField(default=list)  # of those, the tables that reported it done
    paused_clock = models.BooleanField(default=False)  # the clock ran when it began: it runs again at the end
    seconds_taken = models.PositiveIntegerField(default=0)

    class Meta:
        ordering = ["tournament", "number"]
        constraints = [
            models.UniqueConstraint(fields=["tournament", "number"], name="h4h_unique_number"),
            models.UniqueConstraint(fields=["tournament"], condition=Q(ended_at__isnull=True), name="h4h_one_live"),
        ]


class DealerLink(NeverDeleteModel):
    """A dealer tablet's link to one table (docs/roles.md, "One table per dealer tablet"): a secret URL, not a login, like a
    lobby screen's display link. It opens that table's dealer tablet and allows only that table's
    dealer actions. Stored hashed (the URL is shown once, when it is made); revocable."""

    table = models.ForeignKey(Table, on_delete=models.PROTECT, related_name="dealer_links")
    label = models.CharField(_("label"), max_length=80, blank=True)
    token_hash = models.CharField(max_length=64, unique=True)
    created_at = models.DateTimeField(auto_now_add=True)
    created_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    revoked_at = models.DateTimeField(null=True, blank=True)
    revoked_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, null=True, blank=True, related_name="+")

    class Meta:
        ordering = ["table", "id"]

    def __str__(self) -> str:
        return f"{self.table} dealer link {self.pk}"

    @property
    def active(self) -> bool:
        return self.revoked_at is None

    def new_token(self) -> str:
        token = secrets.token_urlsafe(32)
        self.token_hash = hash_secret(token)
        return token


class ColorUp(NeverDeleteModel):
    """A color-up the director confirmed for a break (TDA 21, 22): the denominations that leave, the new
    chip (the smallest still in play) and the house's race rules at the time (tables/rules/chip_race.py)."""

    tournament = models.ForeignKey(Tournament, on_delete=models.PROTECT, related_name="color_ups")
    level = models.PositiveSmallIntegerField()  # the break's row in the structure
    in_play = models.JSONField()  # the denominations in play before the break
    leaving = models.JSONField()
    new_chip = models.PositiveIntegerField()
    rules = models.JSONField()
    confirmed_at = models.DateTimeField()
    confirmed_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, null=True, related_name="+")

    class Meta:
        ordering = ["tournament", "level"]
        constraints = [models.UniqueConstraint(fields=["tournament", "level"], name="color_up_one_per_break")]

    @property
    def staying(self) -> list[int]:
        """The denominations still in play after it, smallest first (the first is the new chip)."""
        return [v for v in self.in_play if v not in self.leaving]


class ChipRace(NeverDeleteModel):
    """The chip race at one table for one color-up: the chips counted per seat, the cards (dealt from a
    committed seed, `draw`, or entered as dealt) and the result sheet. Redone (a new row, this one
    `redone`) until it is confirmed, never after; confirming changes the chips in play by `difference`."""

    class Status(models.TextChoices):
        RECORDED = "recorded", _("Recorded")
        REDONE = "redone", _("Redone")
        CONFIRMED = "confirmed", _("Confirmed")

    color_up = models.ForeignKey(ColorUp, on_delete=models.PROTECT, related_name="races")
    table = models.ForeignKey(Table, on_delete=models.PROTECT, related_name="chip_races")
    status = models.CharField(max_length=9, choices=Status.choices, default=Status.RECORDED)
    seats = models.JSONField()  # {seat: {"chips": {value: count}, "other": value of the chips not leaving}}
    draw = models.ForeignKey(Draw, on_delete=models.PROTECT, null=True, blank=True, related_name="+")
    result = models.JSONField()  # tables.rules.chip_race.RaceResult.to_json()
    difference = models.BigIntegerField()
    recorded_at = models.DateTimeField()
    recorded_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, null=True, related_name="+")
    confirmed_at = models.DateTimeField(null=True, blank=True)
    confirmed_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, null=True, blank=True, related_name="+")

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["color_up", "table"], condition=~Q(status="redone"), name="chip_race_one_standing_per_table")
        ]


class Penalty(NeverDeleteModel):
    """A penalty given by the floor (TDA 51, tables/rules/missed_hands.py): a warning, or missed hands that the
    player serves while the hands are dealt at his table. Never deleted; a penalty given in error is
    cancelled, with the reason."""

    class Kind(models.TextChoices):
        WARNING = "warning", _("Warning")
        HAND = "hand", _("One hand")
        ROUNDS = "rounds", _("Rounds")
        DISQUALIFIED = "dq", _("Disqualification")

    tournament = models.ForeignKey(Tournament, on_delete=models.PROTECT, related_name="penalties")
    number = models.PositiveIntegerField()
    entry = models.ForeignKey("tournament.Entry", on_delete=models.PROTECT, related_name="penalties")
    kind = models.CharField(max_length=8, choices=Kind.choices)
    rounds = models.PositiveSmallIntegerField(null=True, blank=True)
    players_at_table = models.PositiveSmallIntegerField()
    hands = models.PositiveSmallIntegerField()
    table_number = models.PositiveSmallIntegerField()
    seat = models.PositiveSmallIntegerField()
    reason = models.CharField(max_length=200)
    chips = models.PositiveBigIntegerField(null=True, blank=True)  # a disqualification's chips taken out of play
    given_at = models.DateTimeField()
    given_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, null=True, blank=True, related_name="+")
    cancelled_at = models.DateTimeField(null=True, blank=True)
    cancelled_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, null=True, blank=True, related_name="+")
    cancel_reason = models.CharField(max_length=200, blank=True)

    class Meta:
        ordering = ["tournament", "-number"]
        constraints = [
            models.UniqueConstraint(fields=["tournament", "number"], name="penalty_unique_number"),
            models.CheckConstraint(
                condition=Q(kind="rounds", rounds__gte=1, rounds__lte=4) | (~Q(kind="rounds") & Q(rounds__isnull=True)),
                name="penalty_rounds_1_4",
            ),
        ]


class ChipCount(NeverDeleteModel):
    """A player's stack as counted (tables/rules/chip_counts.py): a table's counts entered at once on its tablet or the
    map, or one player's count entered by the floor. Never deleted: a new count makes the last one history
    (`current` off), so a player's current count is one row, and the lobby's leaders one indexed read."""

    class Source(models.TextChoices):
        TABLE = "table", _("The table's counts")
        PLAYER = "player", _("One player's count")
        BAG = "bag", _("Bagged at the end of a day")

    tournament = models.ForeignKey(Tournament, on_delete=models.PROTECT, related_name="chip_counts")
    entry = models.ForeignKey("tournament.Entry", on_delete=models.PROTECT, related_name="chip_counts")
    table_number = models.PositiveSmallIntegerField()
    seat = models.PositiveSmallIntegerField()
    chips = models.PositiveBigIntegerField()
    source = models.CharField(max_length=6, choices=Source.choices)
    current = models.BooleanField(default=True)
    counted_at = models.DateTimeField()
    counted_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, null=True, blank=True, related_name="+")
    counted_by_label = models.CharField(max_length=150, blank=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["entry"], condition=Q(current=True), name="chip_count_one_current"),
            models.CheckConstraint(condition=Q(chips__gte=0), name="chip_count_not_negative"),
        ]
        indexes = [models.Index(fields=["tournament", "current", "-chips"], name="chip_count_leaders_idx")]


# Models in modules of their own (this one is long enough): imported here, so `tables.models` holds every model.
from tables.models.clock_calls import ClockCall  # noqa: E402
from tables.models.eliminations import BustReport, Elimination  # noqa: E402

__all__ = ["BustReport", "ClockCall", "Elimination"]
