"""JSON API of tables: open them, list their level in play, the break order and tables in or out of
play; the "hand started" signal from dealer tablets (staff login) and automatic shufflers (the
table's own token); busts and their undo; hand-for-hand and the house rules. Balancing (move slips, balance
now, the button the floor enters) is in web/tables/move_api.py; seating (draws, seat corrections, the public seat
lookup) in web/tables/seating_api.py.

These endpoints are also the screens' only way to change anything: the table map, the dealer tablet
and the tables page call them with static/js/api.js (one door per action)."""

from __future__ import annotations

from django.shortcuts import get_object_or_404
from django.utils.translation import gettext as _
from drf_spectacular.utils import OpenApiParameter, extend_schema, inline_serializer
from rest_framework import serializers, status
from rest_framework.exceptions import NotAuthenticated
from rest_framework.permissions import AllowAny
from rest_framework.response import Response
from rest_framework.views import APIView

from clock.selectors.clock import rows_of
from tables.models import HouseRules, Table
from tables.selectors import screens
from tables.selectors import state as tables_selectors
from tables.selectors.state import seat_of
from tables.services import busts, eliminations, handforhand, hands, house_rules
from tables.services import setup as table_setup
from web.access import AtTheTable
from web.access import api as api_roles
from web.api import (
    CONFLICT,
    FORBIDDEN,
    REFUSED,
    RoleAPIView,
    answers,
    call_service,
    entry_or_404,
    error_body,
    only_known,
    tournament_or_404,
    valid,
)
from web.idempotency import IdempotentMixin
from web.tournament import serializers as s

TableSerializer = inline_serializer(
    "TableLevel",
    many=True,
    fields={
        "table": serializers.IntegerField(),
        "id": serializers.IntegerField(),
        "seats": serializers.IntegerField(),
        "sends_hand_signals": serializers.BooleanField(),
        "hand": serializers.IntegerField(),
        "hand_started_at": serializers.DateTimeField(allow_null=True),
        "level_index": serializers.IntegerField(),
        "level": serializers.IntegerField(),
        "on_old_level": serializers.BooleanField(),
    },
)
HandSerializer = inline_serializer(
    "HandStarted",
    {
        "table": serializers.IntegerField(),
        "hand": serializers.IntegerField(),
        "level": serializers.IntegerField(),
    },
)


class OpenTableSerializer(serializers.Serializer):
    number = serializers.IntegerField(min_value=1, max_value=999)
    seats = serializers.IntegerField(min_value=2, max_value=10, required=False)
    sends_hand_signals = serializers.BooleanField(default=True)
    accessible = serializers.BooleanField(default=False, help_text="Wheelchair access: draws may need it (TDA 6).")


def hand_answer(hand) -> dict:
    rows = rows_of(hand.table.tournament)
    return {"table": hand.table.number, "hand": hand.number, "level": rows[hand.level_index].number}


class TableListView(RoleAPIView):
    allowed = api_roles("api-tables")
    idempotency_redact = ("shuffler_token",)  # shown once: a replay of the creation never shows it again

    @extend_schema(operation_id="tables_list", tags=["tables"], responses=answers(200, TableSerializer))
    def get(self, request, pk: int):
        return Response(screens.tables_overview(tournament_or_404(pk)))

    @extend_schema(
        operation_id="tables_open",
        tags=["tables"],
        request=OpenTableSerializer,
        summary="Open a table. The answer carries its shuffler token, shown only this once.",
        responses=answers(
            201,
            inline_serializer("OpenedTable", {"table": serializers.IntegerField(), "shuffler_token": serializers.CharField()}),
            refused=True,
            conflict=True,
        ),
    )
    def post(self, request, pk: int):
        data = valid(OpenTableSerializer, request.data).validated_data
        table, token = table_setup.open_table(
            tournament_or_404(pk),
            actor=request.user,
            number=data["number"],
            seats=data.get("seats"),
            sends_hand_signals=data["sends_hand_signals"],
            accessible=data["accessible"],
        )
        return Response({"table": table.number, "shuffler_token": token}, status=status.HTTP_201_CREATED)


class HandStartView(AtTheTable, RoleAPIView):
    allowed = api_roles("api-table-hand")

    @extend_schema(
        operation_id="tables_hand_started",
        tags=["tables"],
        request=None,
        summary="First shuffle of a new hand at this table (dealer tablet)",
        responses=answers(201, HandSerializer, conflict=True),
    )
    def post(self, request, pk: int, number: int):
        table = get_object_or_404(Table, tournament_id=pk, number=number)
        return Response(hand_answer(hands.start_hand(table, actor=request.user)), status=status.HTTP_201_CREATED)

    @extend_schema(
        operation_id="tables_hand_start_undo",
        tags=["tables"],
        request=None,
        summary="Undo a mistaken press",
        responses=answers(200, HandSerializer, conflict=True),
    )
    def delete(self, request, pk: int, number: int):
        table = get_object_or_404(Table, tournament_id=pk, number=number)
        return Response(hand_answer(hands.undo_hand_start(table, actor=request.user)))


def shuffler_token(request) -> str:
    header = request.headers.get("Authorization", "")
    return header[len("Table ") :].strip() if header.startswith("Table ") else ""


class ShufflerHandStartView(IdempotentMixin, APIView):
    """For automatic shufflers: `Authorization: Table <token>` (the token given when the table opened).
    An Idempotency-Key is per table; a shuffler that sends none is still safe: a second signal within
    HAND_START_REPEAT_SECONDS is the same hand (tables/services/hands.py)."""

    authentication_classes: list = []
    permission_classes = [AllowAny]

    def idempotency_owner(self, request) -> str | None:
        table = hands.table_for_token(shuffler_token(request))
        return f"table:{table.pk}" if table is not None else None

    @extend_schema(
        operation_id="shuffler_hand_started",
        tags=["tables"],
        request=None,
        parameters=[OpenApiParameter("Authorization", str, OpenApiParameter.HEADER, required=True, description="Table <shuffler token>")],
        summary="The shuffler's green button: a new hand begins",
        responses={201: HandSerializer, 400: REFUSED, 401: FORBIDDEN, 403: FORBIDDEN, 409: CONFLICT},
    )
    def post(self, request):
        if not request.headers.get("Authorization"):  # no credentials at all: 401, as on every endpoint
            return Response(
                error_body(NotAuthenticated.default_code, NotAuthenticated.default_detail),
                status=status.HTTP_401_UNAUTHORIZED,
                headers={"WWW-Authenticate": "Table"},
            )
        return Response(hand_answer(hands.start_hand_by_shuffler(shuffler_token(request))), status=status.HTTP_201_CREATED)


# --- break order, in play ---------------------------------------------------------------------------


class BreakOrderSerializer(serializers.Serializer):
    order = serializers.ListField(
        child=serializers.IntegerField(min_value=1, max_value=999),
        allow_empty=False,
        max_length=999,
        help_text="Every table in play once, the first to break first.",
    )


class BreakOrderView(RoleAPIView):
    allowed = api_roles("api-tables-break-order")

    @extend_schema(
        operation_id="tables_break_order",
        tags=["tables"],
        summary="The tables in play, first to break first",
        responses=answers(200, BreakOrderSerializer),
    )
    def get(self, request, pk: int):
        return Response({"order": tables_selectors.break_order(tournament_or_404(pk))})

    @extend_schema(
        operation_id="tables_break_order_set",
        tags=["tables"],
        request=BreakOrderSerializer,
        summary="Set the break order",
        responses=answers(200, BreakOrderSerializer, refused=True),
    )
    def put(self, request, pk: int):
        tournament = tournament_or_404(pk)
        order = valid(BreakOrderSerializer, request.data).validated_data["order"]
        return Response({"order": call_service(table_setup.set_break_order, tournament, actor=request.user, numbers=order)})


class InPlaySerializer(serializers.Serializer):
    in_play = serializers.BooleanField()


class TableInPlayView(RoleAPIView):
    allowed = api_roles("api-table-in-play")

    @extend_schema(
        operation_id="tables_in_play",
        tags=["tables"],
        request=InPlaySerializer,
        summary="Take a table out of play (only when empty) or back into play",
        responses=answers(
            200,
            inline_serializer("TableInPlay", {"table": serializers.IntegerField(), "in_play": serializers.BooleanField()}),
            refused=True,
            conflict=True,
        ),
    )
    def post(self, request, pk: int, number: int):
        table = get_object_or_404(Table, tournament_id=pk, number=number)
        in_play = valid(InPlaySerializer, request.data).validated_data["in_play"]
        table = call_service(table_setup.set_table_in_play, table, actor=request.user, in_play=in_play)
        return Response({"table": table.number, "in_play": table.in_play})


# --- busts (TDA: the seat freed, the place, then balancing) ---------------------------------------


class BustSerializer(serializers.Serializer):
    stack = serializers.IntegerField(min_value=0, max_value=busts.MAX_STACK, required=False, allow_null=True)
    eliminators = serializers.ListField(
        child=serializers.IntegerField(min_value=1),
        required=False,
        max_length=eliminations.MAX_WINNERS,
        help_text="The entry numbers of the players who won the pot (several: a split pot), at the busted player's table.",
    )
    eliminator_seats = serializers.ListField(
        child=serializers.IntegerField(min_value=1, max_value=10),
        required=False,
        max_length=eliminations.MAX_WINNERS,
        help_text="Or the seats that won the pot, at the busted player's table.",
    )


class EliminatorsSerializer(serializers.Serializer):
    eliminators = serializers.ListField(child=serializers.IntegerField(min_value=1), max_length=eliminations.MAX_WINNERS)
    reason = serializers.CharField(max_length=300, allow_blank=True)


class EntryBustView(RoleAPIView):
    allowed = api_roles("api-entry-bust")

    @extend_schema(
        operation_id="entries_bust",
        tags=["entries"],
        summary="The player is out",
        description="`stack`: the chips the player had at the start of the hand. Players busted in the same "
        "hand at one table are placed by it (equal stacks tie); in hand-for-hand it is required. `eliminators` or "
        "`eliminator_seats`: who won the pot, at his table; required in a bounty event.",
        request=BustSerializer,
        responses=answers(200, s.EntrySerializer, conflict=True),
    )
    def post(self, request, pk: int, number: int):
        data = valid(BustSerializer, request.data).validated_data
        entry = call_service(
            busts.bust_entry,
            entry_or_404(pk, number),
            actor=request.user,
            stack=data.get("stack"),
            eliminators=data.get("eliminators"),
            eliminator_seats=data.get("eliminator_seats"),
        )
        return Response(s.EntrySerializer(entry).data)


class EntryEliminatorsView(RoleAPIView):
    allowed = api_roles("api-entry-eliminators")

    @extend_schema(
        operation_id="entries_correct_eliminators",
        tags=["entries"],
        summary="Correct who knocked the player out, with a reason",
        description="The players who won the pot he busted in (several: a split pot), who sat at his table then. "
        "Everything made of the old ones follows (a bounty event's bounties); refused (409) while a bounty it "
        "changes is paid.",
        request=EliminatorsSerializer,
        responses=answers(
            200,
            inline_serializer("Elimination", {"entry": serializers.IntegerField(), "eliminators": serializers.ListField()}),
            conflict=True,
        ),
    )
    def post(self, request, pk: int, number: int):
        t = tournament_or_404(pk)
        data = valid(EliminatorsSerializer, request.data).validated_data
        row = call_service(
            eliminations.correct_eliminators,
            t,
            actor=request.user,
            entry_number=number,
            eliminators=data["eliminators"],
            reason=data["reason"],
        )
        return Response({"entry": number, "eliminators": row.winners})


class UndoneBustSerializer(s.EntrySerializer):
    """The entry playing again, with the seat it went back to (its old one if still free, else a late-entry draw)."""

    table = serializers.SerializerMethodField()
    seat = serializers.SerializerMethodField()

    class Meta(s.EntrySerializer.Meta):
        fields = (*s.EntrySerializer.Meta.fields, "table", "seat")

    def get_table(self, entry) -> int | None:
        seat = self.context.get("seat")
        return seat.table.number if seat else None

    def get_seat(self, entry) -> int | None:
        seat = self.context.get("seat")
        return seat.seat if seat else None


class EntryUndoBustView(RoleAPIView):
    allowed = api_roles("api-entry-undo-bust")

    @extend_schema(
        operation_id="entries_undo_bust",
        tags=["entries"],
        summary="Undo a mistaken bust: the entry plays again",
        description="Back in its seat if that is still free, otherwise seated by the late-entry draw; the "
        "players busted after it move one place down. Refused (409) when the entry is not busted or "
        "the player re-entered.",
        request=None,
        responses=answers(200, UndoneBustSerializer, conflict=True),
    )
    def post(self, request, pk: int, number: int):
        entry = call_service(busts.undo_bust, entry_or_404(pk, number), actor=request.user)
        return Response(UndoneBustSerializer(entry, context={"seat": seat_of(entry)}).data)


# --- hand-for-hand, "hand done" and the house rules -------------------------------------------------

H4HStatusSerializer = inline_serializer(
    "HandForHandStatus",
    {
        "on": serializers.BooleanField(),
        "players": serializers.IntegerField(),
        "places_paid": serializers.IntegerField(allow_null=True),
        "seconds_per_hand": serializers.IntegerField(),
        "ties": serializers.CharField(),
        "suggested": serializers.BooleanField(help_text="The next bust is the bubble."),
        "in_the_money": serializers.BooleanField(),
        "hand": serializers.IntegerField(required=False, help_text="The hand-for-hand hand called last."),
        "called": serializers.BooleanField(required=False, help_text="That hand is being played."),
        "tables": serializers.ListField(child=serializers.IntegerField(), required=False),
        "shuffled": serializers.ListField(child=serializers.IntegerField(), required=False),
        "reported": serializers.ListField(child=serializers.IntegerField(), required=False),
        "waiting_for": serializers.ListField(child=serializers.IntegerField(), required=False),
        "busy": serializers.ListField(
            child=serializers.IntegerField(), required=False, help_text="Tables still finishing a hand before the next one can be called."
        ),
        "moves_pending": serializers.IntegerField(required=False),
        "seconds_taken": serializers.IntegerField(required=False),
    },
)


class HandForHandSerializer(serializers.Serializer):
    on = serializers.BooleanField()


class HandForHandView(RoleAPIView):
    allowed = api_roles("api-hand-for-hand")

    @extend_schema(
        operation_id="h4h_status",
        tags=["hand-for-hand"],
        responses=answers(200, H4HStatusSerializer),
        summary="Hand-for-hand: on or off, the hand called, the tables it waits for, the bubble suggestion",
    )
    def get(self, request, pk: int):
        return Response(screens.hand_for_hand_status(tournament_or_404(pk)))

    @extend_schema(
        operation_id="h4h_set",
        tags=["hand-for-hand"],
        request=HandForHandSerializer,
        summary="The director turns hand-for-hand on (the clock stops) or off (it runs again)",
        responses=answers(200, H4HStatusSerializer, refused=True, conflict=True),
    )
    def post(self, request, pk: int):
        t = tournament_or_404(pk)
        on = valid(HandForHandSerializer, request.data).validated_data["on"]
        call_service(handforhand.start_hand_for_hand if on else handforhand.stop_hand_for_hand, t, actor=request.user)
        return Response(screens.hand_for_hand_status(t))


class HandDoneView(AtTheTable, RoleAPIView):
    allowed = api_roles("api-table-hand-done")

    @extend_schema(
        operation_id="tables_hand_done",
        tags=["hand-for-hand"],
        request=None,
        summary="The hand at this table is over (dealer tablet, or the floor for the table)",
        responses=answers(200, H4HStatusSerializer, conflict=True),
    )
    def post(self, request, pk: int, number: int):
        table = get_object_or_404(Table, tournament_id=pk, number=number)
        call_service(handforhand.hand_done, table, actor=request.user)
        return Response(screens.hand_for_hand_status(table.tournament))


class HouseRulesSerializer(serializers.Serializer):
    balance_threshold = serializers.IntegerField(min_value=1, max_value=5, required=False)
    halt_short_by = serializers.IntegerField(min_value=1, max_value=9, required=False)
    donor = serializers.ChoiceField(choices=HouseRules.Donor.choices, required=False)
    redraw_at_three = serializers.BooleanField(required=False)
    redraw_at_two = serializers.BooleanField(required=False)
    hand_for_hand_seconds = serializers.IntegerField(
        min_value=0, max_value=900, required=False, help_text="0: the clock stands still in hand-for-hand."
    )
    hand_for_hand_ties = serializers.ChoiceField(choices=HouseRules.Ties.choices, required=False)
    race_rounding = serializers.ChoiceField(
        choices=HouseRules._meta.get_field("race_rounding").choices,
        required=False,
        help_text="Chips raced at a color-up: half_up (the seeds' reading) or up.",
    )
    race_protection = serializers.ChoiceField(
        choices=HouseRules._meta.get_field("race_protection").choices,
        required=False,
        help_text="The chip of a player who would be raced out: added to play, or taken from the chips raced.",
    )
    race_protected_first = serializers.BooleanField(
        required=False, help_text="That player gets the chip before the race and does not race."
    )
    clock_call_seconds = serializers.IntegerField(
        min_value=10,
        max_value=60,
        required=False,
        help_text=("The time a player gets when the clock is called on him (TDA 25: at most 60 s; the last 10 counted down)."),
    )
    public_chip_counts = serializers.BooleanField(
        required=False, help_text=("Chip counts shown in public: the lobby's chip leaders and the players' chip-count page.")
    )
    disqualified_place = serializers.ChoiceField(
        choices=HouseRules._meta.get_field("disqualified_place").choices,
        required=False,
        help_text=(
            "The place of a disqualified player: last (last among the players still in, TDA) or bust (as a bust of "
            "the hand in play, placed by his chips)."
        ),
    )
    dealer_busts = serializers.ChoiceField(
        choices=HouseRules._meta.get_field("dealer_busts").choices,
        required=False,
        help_text="A bust reported on the dealer tablet: floor_confirms (waits for the floor on the map) or at_once.",
    )


class HouseRulesView(RoleAPIView):
    allowed = api_roles("api-house-rules")

    @extend_schema(
        operation_id="house_rules",
        tags=["hand-for-hand"],
        responses=answers(200, HouseRulesSerializer),
        summary="The house rules of balancing, breaking, redraws and hand-for-hand",
    )
    def get(self, request, pk: int):
        return Response(tables_selectors.house_rules_json(tables_selectors.house_rules(tournament_or_404(pk))))

    @extend_schema(
        operation_id="house_rules_set",
        tags=["hand-for-hand"],
        request=HouseRulesSerializer,
        summary="Change some house rules (the others keep their value)",
        responses=answers(200, HouseRulesSerializer, refused=True),
    )
    def patch(self, request, pk: int):
        t = tournament_or_404(pk)
        only_known(HouseRulesSerializer, request.data, _("Unknown house rule."))
        data = valid(HouseRulesSerializer, request.data).validated_data
        rules = call_service(house_rules.set_house_rules, t, actor=request.user, data=dict(data))
        return Response(tables_selectors.house_rules_json(rules))
