"""JSON API of calling the clock on a player (tables/services/clock_calls.py, club 11, TDA 25): a table's tablet (its dealer,
the floor, the director) calls it for a seat, reads the open call, and ends it (he acted, the hand is dead, or
called in error)."""

from __future__ import annotations

from django.shortcuts import get_object_or_404
from drf_spectacular.utils import OpenApiResponse, extend_schema, inline_serializer
from rest_framework import serializers, status
from rest_framework.response import Response

from tables.models import ClockCall, Table
from tables.selectors import state
from tables.services import clock_calls
from web.access import AtTheTable
from web.access import api as api_roles
from web.api import RoleAPIView, answers, call_service, valid

ClockCallSerializer = inline_serializer(
    "ClockCall",
    {
        "call": serializers.IntegerField(help_text="The call's number in the tournament."),
        "table": serializers.IntegerField(),
        "seat": serializers.IntegerField(),
        "entry": serializers.IntegerField(),
        "name": serializers.CharField(),
        "seconds": serializers.IntegerField(help_text="The time he was given (the house rule)."),
        "countdown": serializers.IntegerField(help_text="The last seconds counted down large on the tablet."),
        "started_at": serializers.DateTimeField(),
        "ends_at": serializers.DateTimeField(),
        "time_up": serializers.BooleanField(help_text="Time is up: the hand is dead."),
        "ended_at": serializers.DateTimeField(allow_null=True),
        "outcome": serializers.ChoiceField(choices=ClockCall.Outcome.choices, allow_null=True),
    },
)


class CallClockSerializer(serializers.Serializer):
    seat = serializers.IntegerField(min_value=1, max_value=10)


class EndClockCallSerializer(serializers.Serializer):
    outcome = serializers.ChoiceField(
        choices=[(o.value, o.label) for o in clock_calls.ENDINGS],
        help_text=("acted: he acted in time; dead: time is up, the hand is dead; cancelled: called in error."),
    )


class TableClockCallView(AtTheTable, RoleAPIView):
    allowed = api_roles("api-table-clock-call")

    @extend_schema(
        operation_id="tables_clock_call",
        tags=["tables"],
        responses={**answers(200, ClockCallSerializer), 204: OpenApiResponse(description="No clock is called at this table.")},
        summary="The clock called at this table, if any",
    )
    def get(self, request, pk: int, number: int):
        call = state.open_clock_call(get_object_or_404(Table, tournament_id=pk, number=number))
        return Response(state.clock_call_json(call)) if call else Response(status=status.HTTP_204_NO_CONTENT)

    @extend_schema(
        operation_id="tables_clock_call_start",
        tags=["tables"],
        request=CallClockSerializer,
        summary="Call the clock on the player in a seat (TDA 25): his time starts now",
        responses=answers(201, ClockCallSerializer, refused=True, conflict=True),
    )
    def post(self, request, pk: int, number: int):
        table = get_object_or_404(Table, tournament_id=pk, number=number)
        seat = valid(CallClockSerializer, request.data).validated_data["seat"]
        call = call_service(clock_calls.call_clock, table, actor=request.user, seat=seat)
        return Response(state.clock_call_json(call), status=status.HTTP_201_CREATED)


class TableClockCallEndView(AtTheTable, RoleAPIView):
    allowed = api_roles("api-table-clock-call-end")

    @extend_schema(
        operation_id="tables_clock_call_end",
        tags=["tables"],
        request=EndClockCallSerializer,
        summary="End the table's clock call: he acted, the hand is dead, or it was called in error",
        responses=answers(200, ClockCallSerializer, refused=True, conflict=True),
    )
    def post(self, request, pk: int, number: int):
        table = get_object_or_404(Table, tournament_id=pk, number=number)
        outcome = valid(EndClockCallSerializer, request.data).validated_data["outcome"]
        call = call_service(clock_calls.end_clock_call, table, actor=request.user, outcome=outcome)
        return Response(state.clock_call_json(call))
