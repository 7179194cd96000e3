"""Serializers of the JSON API: input validation with clear messages, and the shapes of the answers.

Input serializers only parse and check; the services decide and change state. An ID document
number is write-only: no serializer here can send it back.
"""

from __future__ import annotations

import datetime as dt
import zoneinfo

from django.urls import NoReverseMatch, reverse
from django.utils import timezone
from django.utils.translation import gettext_lazy as _
from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from tournament.models import AuditEvent, DisplayToken, Entry, IdCheck, Player, Purchase, Structure, Tournament
from tournament.services import registration, setup
from web.api import call_service
from web.money_fields import CURRENCY_BY_ZONE, DEFAULT_CURRENCY, MoneyDisplayField, MoneyField

MAX_INT = 2_000_000_000  # the PositiveIntegerField columns hold at least this much on every database
MAX_MINUTES = 32_767  # PositiveSmallIntegerField

ID_MISSING = _("Check the player's ID document and record its type and number: no entry without an ID check.")
ID_NOT_SEEN = _("Confirm that you checked the ID document in person and that it shows this player: no entry without an ID check.")


# --- tournaments -------------------------------------------------------------------------


class TournamentSerializer(serializers.ModelSerializer):
    class Meta:
        model = Tournament
        fields = (
            "id",
            *setup.TOURNAMENT_FIELDS,
            "room",
            "status",
            "registration_closed",
            "current_level",
            "event_seq",
            "structure",
            "created_at",
        )
        read_only_fields = fields


MONEY_FIELDS = ("buy_in", "fee", "bounty", "guaranteed_pool", "rebuy_price", "rebuy_fee", "addon_price", "addon_fee")
MONEY_SAYS = {
    "invalid": MoneyField.default_error_messages["invalid"],
    "min_value": MoneyField.default_error_messages["negative"],
    "max_value": MoneyField.default_error_messages["too_big"],
}  # the screen's words: amounts typed there


class VenueDateTimeField(serializers.DateTimeField):
    """A date and time; without an offset it is the venue's wall clock, made aware in the tournament's time
    zone by the serializer (the setup form sends "2026-11-27T19:00")."""

    def enforce_timezone(self, value):
        return value


class TournamentUpdateSerializer(serializers.ModelSerializer):
    """The settings a director may change; the model's own checks (time zone, currency, table size) apply."""

    start_at = VenueDateTimeField(help_text="With an offset, or the wall clock in `time_zone` (2026-11-27T19:00).")
    reservations_until = VenueDateTimeField(
        required=False,
        allow_null=True,
        help_text="When the places reserved from phones and not claimed at the desk expire (as start_at); null: at the start.",
    )

    class Meta:
        model = Tournament
        fields = setup.TOURNAMENT_FIELDS
        extra_kwargs = {
            "final_table_size": {
                "required": False,
                "allow_null": True,
                "help_text": "null: by TDA rule 9, one more than the table size, at most 10.",
            },
            **{name: {"error_messages": MONEY_SAYS} for name in MONEY_FIELDS},
            # The waiting list of a sold-out tournament (tournament/rules/waiting_list.py).
            "max_entries": {
                "required": False,
                "allow_null": True,
                "help_text": "Entries and re-entries together; past it (or the seats of a room with a fixed set of tables) a "
                "new player joins the waiting list. null: no maximum, the seats decide.",
            },
            "alternate_minutes": {"help_text": "Minutes an alternate offered a seat has to sit down before he is passed over (1 to 120)."},
            "waiting_payment": {
                "help_text": "When an alternate's buy-in is taken: on_joining (when he joins the list; given back if he is "
                "never seated) or on_seating (when he sits down)."
            },
            "no_show_money": {"help_text": "The buy-in of an alternate passed over for not sitting down in time: refunded or kept."},
            "reservation_cap": {"help_text": "How many places players may reserve from their phones before the start; 0: none."},
        }

    def to_internal_value(self, data):
        if type(data) is dict and isinstance(data.get("currency"), str):  # "czk" as typed: the model's check wants CZK
            data = {**data, "currency": data["currency"].strip().upper()}
        return super().to_internal_value(data)

    def validate(self, attrs: dict) -> dict:
        attrs = super().validate(attrs)

        def now(name):
            return attrs[name] if name in attrs else getattr(self.instance, name, None)

        zone_name = now("time_zone") or "UTC"
        for name in ("start_at", "reservations_until"):  # the venue's wall clock, made aware in its zone
            when = attrs.get(name)
            if when is None or not timezone.is_naive(when):
                continue
            try:
                zone = zoneinfo.ZoneInfo(zone_name)
            except (zoneinfo.ZoneInfoNotFoundError, ValueError):
                zone = None  # the model's own check names the time zone
            if zone is not None:
                aware = when.replace(tzinfo=zone)
                if aware.astimezone(dt.UTC).astimezone(zone).replace(tzinfo=None) != when:
                    raise serializers.ValidationError(
                        {name: [_("This time does not exist in %(zone)s (the clocks go forward then).") % {"zone": zone_name}]}
                    )
                attrs[name] = aware
            else:
                attrs[name] = timezone.make_aware(when, dt.UTC)
        if "final_table_size" in attrs and attrs["final_table_size"] is None:
            if now("table_format") and now("seats_per_table"):
                attrs["final_table_size"] = Tournament.default_final_table_size(now("table_format"), now("seats_per_table"))
            else:
                del attrs["final_table_size"]  # a new tournament's: the service sets it (TDA rule 9)
        return attrs


class TournamentCreateSerializer(TournamentUpdateSerializer):
    template = serializers.PrimaryKeyRelatedField(
        queryset=Structure.objects.filter(is_template=True),
        write_only=True,
        help_text="Id of the structure template; the tournament gets its own copy.",
        error_messages={"does_not_exist": _("There is no structure template with id {pk_value}.")},
    )

    class Meta(TournamentUpdateSerializer.Meta):
        fields = (*setup.TOURNAMENT_FIELDS, "template")
        extra_kwargs = {
            **TournamentUpdateSerializer.Meta.extra_kwargs,
            "currency": {"help_text": "Three-letter code. Omitted: EUR in Europe/Bratislava, CZK elsewhere."},
        }

    def validate(self, attrs: dict) -> dict:
        attrs = super().validate(attrs)
        if "currency" not in attrs:  # the first rooms are Czech and Slovak, not the model's EUR everywhere
            attrs["currency"] = CURRENCY_BY_ZONE.get(attrs.get("time_zone", "Europe/Prague"), DEFAULT_CURRENCY)
        return attrs


class RegistrationToggleSerializer(serializers.Serializer):
    closed = serializers.BooleanField(help_text="true closes registration, false reopens it.")


class RegistrationStateSerializer(serializers.Serializer):
    registration_closed = serializers.BooleanField()
    registration_open = serializers.BooleanField(help_text="False also when late registration is over or the tournament finished.")


class StatsSerializer(serializers.Serializer):
    entries = serializers.IntegerField()
    unique_players = serializers.IntegerField()
    reentries = serializers.IntegerField()
    rebuys = serializers.IntegerField()
    addons = serializers.IntegerField()
    players_left = serializers.IntegerField()
    collected = serializers.IntegerField(help_text="Minor currency units.")
    fees = serializers.IntegerField()
    prize_pool = serializers.IntegerField()
    guarantee_overlay = serializers.IntegerField()
    chips_in_play = serializers.IntegerField()
    average_stack = serializers.IntegerField()
    current_level = serializers.IntegerField()
    registration_open = serializers.BooleanField()
    sold_out = serializers.BooleanField(
        help_text="A new player joins the waiting list: the maximum or the seats reached, or players waiting."
    )
    waiting = serializers.IntegerField(help_text="Players on the waiting list, not yet offered a seat.")
    currency = serializers.CharField()
    collected_display = MoneyDisplayField("collected", currency="currency")
    fees_display = MoneyDisplayField("fees", currency="currency")
    prize_pool_display = MoneyDisplayField("prize_pool", currency="currency")
    guarantee_overlay_display = MoneyDisplayField("guarantee_overlay", currency="currency")


# --- players -----------------------------------------------------------------------------


class PlayerSerializer(serializers.ModelSerializer):
    """What staff see of a player in a search: never contact details, never anything about the ID document."""

    class Meta:
        model = Player
        fields = ("id", "first_name", "last_name", "nickname", "date_of_birth")
        read_only_fields = fields


class PlayerCreateSerializer(serializers.Serializer):
    first_name = serializers.CharField(max_length=80)
    last_name = serializers.CharField(max_length=80)
    nickname = serializers.CharField(max_length=80, required=False, allow_blank=True, default="")
    email = serializers.EmailField(required=False, allow_blank=True, default="")
    phone = serializers.CharField(max_length=40, required=False, allow_blank=True, default="")
    date_of_birth = serializers.DateField()


class PlayerSearchSerializer(serializers.Serializer):
    q = serializers.CharField(required=False, allow_blank=True, default="", max_length=100)


# --- entries and receipts ----------------------------------------------------------------


class RegisterSerializer(serializers.Serializer):
    """Who registers: a known player (`player`), or a new one (`new_player`), never both. A new player is
    created only with the entry: a refused registration keeps no player record."""

    player = serializers.PrimaryKeyRelatedField(
        queryset=Player.objects.all(), required=False, help_text="A known player's id (GET /api/players/?q= finds him)."
    )
    new_player = PlayerCreateSerializer(
        required=False, help_text=("A player seen for the first time, instead of `player`: created together with the entry, or not at all.")
    )
    document_type = serializers.ChoiceField(
        choices=IdCheck.DocumentType.choices,
        error_messages={"required": ID_MISSING, "null": ID_MISSING, "blank": ID_MISSING},
    )
    document_number = serializers.CharField(
        write_only=True,
        max_length=64,
        help_text="Checked against the document in hand. Never stored or returned: only its last four characters.",
        error_messages={
            "required": ID_MISSING,
            "null": ID_MISSING,
            "blank": ID_MISSING,
            "max_length": _("The document number is too long; check it again."),
        },
    )
    seen = serializers.BooleanField(
        help_text="Must be true: the person registering confirms having checked the document in person and that it "
        "shows this player (club rule 32).",
        error_messages={"required": ID_NOT_SEEN, "null": ID_NOT_SEEN},
    )

    def validate_seen(self, value: bool) -> bool:
        if value is not True:
            raise serializers.ValidationError(ID_NOT_SEEN)
        return value

    def validate(self, data: dict) -> dict:
        if ("player" in data) == ("new_player" in data):
            raise serializers.ValidationError(
                {"player": [_("Choose the player, or give a new player's name and date of birth: one or the other.")]}
            )
        return data

    def document(self) -> registration.IdDocument:
        return registration.IdDocument(document_type=self.validated_data["document_type"], number=self.validated_data["document_number"])

    def registered(self, target, *, actor, known, new):
        """The service for a known player (`known`: player=) or a new one (`new`: the player's fields), with the ID
        document, through the API's one refusal (web.api.call_service): a registration, a waiting place, a claim."""
        data = self.validated_data
        if "new_player" in data:
            return call_service(new, target, actor=actor, document=self.document(), **data["new_player"])
        return call_service(known, target, actor=actor, player=data["player"], document=self.document())


class IdCheckSerializer(serializers.ModelSerializer):
    last4 = serializers.CharField(source="number_last4")

    class Meta:
        model = IdCheck
        fields = ("document_type", "last4")


class PlayerNameSerializer(serializers.ModelSerializer):
    class Meta:
        model = Player
        fields = ("id", "display_name")


class EntrySerializer(serializers.ModelSerializer):
    player = PlayerNameSerializer()

    class Meta:
        model = Entry
        fields = ("number", "kind", "status", "player", "finish_place", "finish_place_low", "bust_stack", "busted_at", "created_at")
        extra_kwargs = {
            "finish_place_low": {"help_text": "Set for a tie: the entry shares places finish_place to this one."},
            "bust_stack": {"help_text": "Chips at the start of the hand it busted in, if given."},
        }


class RegistrationSerializer(serializers.ModelSerializer):
    """The answer to a registration: the entry, its receipt and what the ID check kept (type, last four)."""

    # Plain strings here: the enums are documented once, on Entry.
    kind = serializers.CharField(help_text="entry or reentry.")
    status = serializers.CharField(help_text="active for a new entry.")
    receipt = serializers.SerializerMethodField(help_text="Receipt number of the buy-in.")
    id_check = IdCheckSerializer()
    player = PlayerNameSerializer(read_only=True, help_text="The player: a new player's id, once registered.")

    class Meta:
        model = Entry
        fields = ("number", "kind", "status", "receipt", "id_check", "player")

    def get_receipt(self, obj: Entry) -> int | None:
        purchase = obj.purchases.order_by("number").first()
        return purchase.number if purchase else None


class PurchaseSerializer(serializers.ModelSerializer):
    entry = serializers.IntegerField(source="entry.number", help_text="Entry number.")
    total = serializers.IntegerField(read_only=True, help_text="Amount (the prize pool's part) plus bounty plus fee, minor currency units.")
    amount_display = MoneyDisplayField("amount")
    bounty_display = MoneyDisplayField("bounty")
    fee_display = MoneyDisplayField("fee")
    total_display = MoneyDisplayField("total")
    currency = serializers.CharField(source="tournament.currency", read_only=True)

    class Meta:
        model = Purchase
        fields = (
            "number",
            "entry",
            "kind",
            "status",
            "amount",
            "bounty",
            "fee",
            "total",
            "chips",
            "created_at",
            "paid_at",
            "voided_at",
            "void_reason",
            "refund_amount",
            "currency",
            "amount_display",
            "bounty_display",
            "fee_display",
            "total_display",
        )


class RebuySerializer(serializers.Serializer):
    paid = serializers.BooleanField(default=True, help_text="false: announced before the hand, to be paid at the cashier (TDA 24).")


class VoidSerializer(serializers.Serializer):
    reason = serializers.CharField(
        max_length=300, error_messages={"required": _("Give a reason for voiding."), "blank": _("Give a reason for voiding.")}
    )
    refund_amount = serializers.IntegerField(
        min_value=0, max_value=MAX_INT, required=False, allow_null=True, help_text="Minor units; empty refunds everything paid."
    )


class EntryFilterSerializer(serializers.Serializer):
    status = serializers.ChoiceField(choices=Entry.Status.choices, required=False)


class ReceiptFilterSerializer(serializers.Serializer):
    status = serializers.ChoiceField(choices=Purchase.Status.choices, required=False)
    entry = serializers.IntegerField(min_value=1, required=False, help_text="Entry number.")


# --- events ------------------------------------------------------------------------------

EVENT_PAGE = 500


class EventQuerySerializer(serializers.Serializer):
    after = serializers.IntegerField(min_value=0, default=0, help_text="Return events with a sequence number above this.")
    limit = serializers.IntegerField(min_value=1, max_value=EVENT_PAGE, default=EVENT_PAGE)


class EventSerializer(serializers.ModelSerializer):
    actor = serializers.CharField(source="actor_label")
    payload = serializers.JSONField()

    class Meta:
        model = AuditEvent
        fields = ("seq", "at", "type", "actor", "payload")


class EventPageSerializer(serializers.Serializer):
    events = EventSerializer(many=True)
    last_seq = serializers.IntegerField(help_text="Sequence number of the last event in this page (or `after`).")
    more = serializers.BooleanField(help_text="True when more events follow: ask again with after=last_seq.")


# --- display tokens ----------------------------------------------------------------------


class DisplayTokenSerializer(serializers.ModelSerializer):
    """The link is kept only as a hash: `token` and `url` are in the answer that makes it, null on every other."""

    token = serializers.SerializerMethodField(help_text="The link's secret: in the creation answer only, null afterwards.")
    url = serializers.SerializerMethodField(help_text="The lobby screen's address (a URL, not a login): in the creation answer only.")
    prefix = serializers.CharField(read_only=True, help_text="The first characters of the link's secret, to tell links apart.")

    page = "lobby"  # the screen the link opens

    class Meta:
        model = DisplayToken
        fields = ("id", "label", "prefix", "token", "url", "active", "created_at", "revoked_at")

    def get_token(self, obj: DisplayToken) -> str | None:
        return obj.token

    @extend_schema_field(serializers.URLField(allow_null=True))  # null on every answer but the creation
    def get_url(self, obj: DisplayToken) -> str | None:
        if not obj.token:
            return None
        try:
            path = reverse(self.page, kwargs={"token": obj.token})
        except NoReverseMatch:
            return None
        request = self.context.get("request")
        return request.build_absolute_uri(path) if request is not None else path


class DisplayCreateSerializer(serializers.Serializer):
    label = serializers.CharField(
        max_length=80,
        error_messages={
            "required": _("Name the screen, for example 'Lobby TV 1'."),
            "blank": _("Name the screen, for example 'Lobby TV 1'."),
        },
    )
