"""JSON API of color-ups (tables/services/color_ups.py): the color-ups and the race at every table (any role: no
names), the director confirms a break's color-up, a table's tablet (its dealer, the floor, the director)
records its chip race from the chips counted at each seat (asking first how many cards each seat is dealt
when the table deals its own), redoes it and confirms it, and the floor
exchanges chips of a removed denomination found after the race (TDA 21C)."""

from __future__ import annotations

from django.shortcuts import get_object_or_404
from drf_spectacular.utils import OpenApiResponse, extend_schema, inline_serializer
from rest_framework import serializers, status
from rest_framework.response import Response

from tables.models import ChipRace, Table
from tables.selectors import color_ups as color_up_reads
from tables.services import color_ups
from web.access import AtTheTable
from web.access import api as api_roles
from web.api import RoleAPIView, answers, call_service, tournament_or_404, valid

MAX_CHIPS = color_ups.MAX_COUNT

ColorUpJson = inline_serializer(
    "ColorUpConfirmed",
    {
        "level": serializers.IntegerField(help_text="The break's row in the structure."),
        "leaving": serializers.ListField(child=serializers.IntegerField()),
        "new_chip": serializers.IntegerField(help_text="The smallest chip still in play after the break."),
        "in_play": serializers.ListField(child=serializers.IntegerField(), help_text="The chips in play before the break."),
        "rules": serializers.JSONField(help_text="The race's house rules: rounding, protection, protected_first."),
        "confirmed_at": serializers.DateTimeField(),
    },
    allow_null=True,
)

StatusSerializer = inline_serializer(
    "ColorUpStatus",
    {
        "breaks": serializers.ListField(
            child=serializers.JSONField(),
            help_text=(
                "Each break: level, planned (the structure's), leaving (as confirmed, else planned), confirmed, "
                "in_play (the chips in play before it), new_chip, past, now."
            ),
        ),
        "next_break": serializers.JSONField(allow_null=True),
        "suggestion": serializers.JSONField(
            allow_null=True,
            help_text=(
                "For the next break: the chips in play and those the coming levels no longer need (the smallest "
                "chip can go when every blind and ante after the break is a multiple of the next chip up)."
            ),
        ),
        "color_up": ColorUpJson,
        "tables": serializers.ListField(
            child=serializers.JSONField(),
            help_text=(
                "The latest color-up's race at each table with players: table, status (waiting, recorded, "
                "confirmed), difference (chips added, or removed if negative), race."
            ),
        ),
        "finished": serializers.IntegerField(),
        "recorded": serializers.IntegerField(),
        "waiting": serializers.IntegerField(),
        "difference": serializers.IntegerField(help_text="What the confirmed races added to the chips in play."),
        "difference_recorded": serializers.IntegerField(help_text="What the races not yet confirmed would add."),
        "found": serializers.ListField(child=serializers.JSONField(), help_text="Chips removed since (TDA 21C)."),
        "chips_in_play": serializers.IntegerField(),
        "average_stack": serializers.IntegerField(),
    },
)

RaceSerializer = inline_serializer(
    "TableRace",
    {
        "color_up": ColorUpJson,
        "status": serializers.ChoiceField(choices=["waiting", "recorded", "confirmed"]),
        "active": serializers.BooleanField(help_text="The tablet shows the race: until confirmed, then during the break."),
        "players": serializers.ListField(child=serializers.JSONField(), help_text="seat, entry, name."),
        "sheet": serializers.JSONField(
            allow_null=True,
            help_text=(
                "The result sheet: per seat the player, chips counted, odd chips, cards, won, protection, new_chips; "
                "the pool, the winners in order, the difference, the draw (null: cards entered as dealt)."
            ),
        ),
    },
    allow_null=True,
)


class ConfirmColorUpSerializer(serializers.Serializer):
    level = serializers.IntegerField(min_value=0, max_value=10_000, help_text="The break's row in the structure.")
    leaving = serializers.ListField(
        child=serializers.IntegerField(min_value=1, max_value=10**12),
        required=False,
        max_length=20,
        help_text="The chips that leave; default: the structure's.",
    )


class SeatCountSerializer(serializers.Serializer):
    chips = serializers.DictField(
        child=serializers.IntegerField(min_value=0, max_value=MAX_CHIPS), help_text="Count of each leaving chip, by its value."
    )
    other = serializers.IntegerField(
        min_value=0,
        max_value=color_ups.MAX_VALUE,
        allow_null=True,
        help_text=("The value of the seat's chips that do not leave; null: some, not counted; 0: none (the player cannot be raced out)."),
    )


class CountsSerializer(serializers.Serializer):
    seats = serializers.DictField(child=SeatCountSerializer(), help_text="By seat number: every seat with a player.")


class RecordRaceSerializer(CountsSerializer):
    cards = serializers.DictField(
        child=serializers.ListField(child=serializers.CharField(max_length=3), max_length=52),
        required=False,
        help_text=(
            'The cards as dealt at the table, by seat (e.g. ["As", "Td"]); '
            "without them the software deals from the committed seed of the next draw."
        ),
    )


CardsSerializer = inline_serializer(
    "RaceCardsToDeal",
    {
        "cards": serializers.DictField(
            child=serializers.IntegerField(), help_text=("By seat number, the cards to deal to the seats that race (one per odd chip).")
        ),
        "total": serializers.IntegerField(help_text="All the cards to deal."),
    },
)


class FoundChipsSerializer(serializers.Serializer):
    table = serializers.IntegerField(min_value=1, max_value=999)
    chips = serializers.DictField(
        child=serializers.IntegerField(min_value=1, max_value=MAX_CHIPS), help_text="Count of each removed chip found, by its value."
    )


FoundSerializer = inline_serializer(
    "FoundChips",
    {
        "table": serializers.IntegerField(),
        "found": serializers.DictField(child=serializers.IntegerField()),
        "chip": serializers.IntegerField(help_text="The smallest chip in play, given in exchange."),
        "exchanged": serializers.IntegerField(help_text="How many of it the player gets."),
        "removed": serializers.IntegerField(help_text="The value removed from play (worth less than one chip)."),
    },
)


class ColorUpsView(RoleAPIView):
    allowed = api_roles("api-color-ups")

    @extend_schema(
        operation_id="color_ups",
        tags=["color-up"],
        responses=answers(200, StatusSerializer),
        summary="The breaks' color-ups, the suggestion, the race at every table, chips in play",
    )
    def get(self, request, pk: int):
        return Response(color_up_reads.color_up_status(tournament_or_404(pk)))

    @extend_schema(
        operation_id="color_up_confirm",
        tags=["color-up"],
        request=ConfirmColorUpSerializer,
        summary="The director confirms a break's color-up (the tablets and the lobby show it)",
        responses=answers(201, StatusSerializer, refused=True, conflict=True),
    )
    def post(self, request, pk: int):
        t = tournament_or_404(pk)
        data = valid(ConfirmColorUpSerializer, request.data).validated_data
        call_service(color_ups.confirm_color_up, t, actor=request.user, level=data["level"], leaving=data.get("leaving"))
        return Response(color_up_reads.color_up_status(t), status=status.HTTP_201_CREATED)


class TableRaceView(AtTheTable, RoleAPIView):
    allowed = api_roles("api-table-race")

    @extend_schema(
        operation_id="tables_race",
        tags=["color-up"],
        responses={
            **answers(200, RaceSerializer),
            204: OpenApiResponse(description="No color-up is confirmed yet: no race at this table."),
        },
        summary="This table's chip race: the seats to count and the result sheet",
    )
    def get(self, request, pk: int, number: int):
        table = get_object_or_404(Table, tournament_id=pk, number=number)
        race = color_up_reads.table_race(table)
        return Response(race) if race is not None else Response(status=status.HTTP_204_NO_CONTENT)

    @extend_schema(
        operation_id="tables_race_record",
        tags=["color-up"],
        request=RecordRaceSerializer,
        summary="Race the odd chips from the counts (again, until confirmed)",
        responses=answers(201, RaceSerializer, refused=True, conflict=True),
    )
    def post(self, request, pk: int, number: int):
        table = get_object_or_404(Table, tournament_id=pk, number=number)
        data = valid(RecordRaceSerializer, request.data).validated_data
        color_up = call_service(color_ups.color_up_to_race, table.tournament)
        call_service(color_ups.record_race, table, actor=request.user, color_up=color_up, seats=data["seats"], cards=data.get("cards"))
        return Response(color_up_reads.table_race(table), status=status.HTTP_201_CREATED)


class TableRaceConfirmView(AtTheTable, RoleAPIView):
    allowed = api_roles("api-table-race-confirm")

    @extend_schema(
        operation_id="tables_race_confirm",
        tags=["color-up"],
        request=None,
        summary="The race stands: the sheet is final and the chips in play change by its difference",
        responses=answers(200, RaceSerializer, conflict=True),
    )
    def post(self, request, pk: int, number: int):
        table = get_object_or_404(Table, tournament_id=pk, number=number)
        color_up = call_service(color_ups.color_up_to_race, table.tournament)
        race = get_object_or_404(ChipRace, color_up=color_up, table=table, status=ChipRace.Status.RECORDED)
        call_service(color_ups.confirm_race, race, actor=request.user)
        return Response(color_up_reads.table_race(table))


class TableRaceCardsView(AtTheTable, RoleAPIView):
    allowed = api_roles("api-table-race-cards")

    @extend_schema(
        operation_id="tables_race_cards",
        tags=["color-up"],
        request=CountsSerializer,
        summary="How many cards each seat is dealt for these counts, when the table deals its own (records nothing)",
        responses=answers(200, CardsSerializer, refused=True, conflict=True),
    )
    def post(self, request, pk: int, number: int):
        table = get_object_or_404(Table, tournament_id=pk, number=number)
        data = valid(CountsSerializer, request.data).validated_data
        color_up = call_service(color_ups.color_up_to_race, table.tournament)
        cards = call_service(color_ups.cards_to_deal, table, actor=request.user, color_up=color_up, seats=data["seats"])
        return Response({"cards": {str(seat): n for seat, n in cards.items()}, "total": sum(cards.values())})


class FoundChipsView(RoleAPIView):
    allowed = api_roles("api-found-chips")

    @extend_schema(
        operation_id="color_up_found_chips",
        tags=["color-up"],
        request=FoundChipsSerializer,
        summary="Removed chips found after the race (TDA 21C): exchanged at equal value, the rest removed",
        responses=answers(201, FoundSerializer, refused=True, conflict=True),
    )
    def post(self, request, pk: int):
        t = tournament_or_404(pk)
        data = valid(FoundChipsSerializer, request.data).validated_data
        table = get_object_or_404(Table, tournament=t, number=data["table"])
        return Response(
            call_service(color_ups.exchange_found_chips, t, actor=request.user, table=table, found=data["chips"]),
            status=status.HTTP_201_CREATED,
        )
