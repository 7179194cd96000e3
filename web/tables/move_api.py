"""JSON API of balancing (TDA 7, 8A): the move slips (confirm, cancel), balance now, and the button the floor
enters when the software needs it. The screens call it with static/js/api.js, as every other change."""

from __future__ import annotations

from django.shortcuts import get_object_or_404
from drf_spectacular.utils import extend_schema, inline_serializer
from rest_framework import serializers
from rest_framework.response import Response

from tables.models import Move, Table
from tables.selectors import screens
from tables.selectors import state as tables_selectors
from tables.services import moves, seats
from web.access import api as api_roles
from web.api import (
    RoleAPIView,
    answers,
    call_service,
    tournament_or_404,
    valid,
)

SlipPlaceSerializer = inline_serializer("MoveSlipPlace", {"table": serializers.IntegerField(), "seat": serializers.IntegerField()})


MoveSlipSerializer = inline_serializer(
    "MoveSlip",
    {
        "move": serializers.IntegerField(),
        "kind": serializers.ChoiceField(choices=Move.Kind.choices),
        "entry": serializers.IntegerField(),
        "name": serializers.CharField(),
        "from": SlipPlaceSerializer,
        "to": SlipPlaceSerializer,
        "position": serializers.CharField(
            help_text="The seat's position at the new table (big_blind, in_play, button, wait_for_button, unknown...)."
        ),
        "status": serializers.ChoiceField(choices=Move.Status.choices),
        "created_at": serializers.DateTimeField(),
        "after_hand": serializers.BooleanField(help_text="The player moves once the hand in play is over."),
    },
)


MoveStatusSerializer = inline_serializer(
    "MoveStatus",
    {
        "halted": serializers.ListField(child=serializers.IntegerField(), help_text="Tables that must halt (short-handed)."),
        "need_button": serializers.ListField(
            child=serializers.IntegerField(), help_text="Tables whose button the floor must enter (positions/)."
        ),
        "moves": MoveSlipSerializer.__class__(many=True, help_text="The pending move slips."),
        "rules": inline_serializer(
            "MoveRules",
            {"threshold": serializers.IntegerField(), "halt_short_by": serializers.IntegerField(), "donor": serializers.CharField()},
        ),
        "notice": inline_serializer(
            "BalancingNotice",
            {
                "type": serializers.CharField(help_text="balance.no_move, balance.blocked or balance.failed"),
                "seq": serializers.IntegerField(),
                "at": serializers.DateTimeField(),
                "message": serializers.CharField(help_text="Why nobody moves, for the floor."),
            },
            allow_null=True,
            help_text="Why balancing moves nobody although it should (null: nothing stuck).",
        ),
    },
)


class CancelMoveSerializer(serializers.Serializer):
    reason = serializers.CharField(
        max_length=200, required=False, allow_blank=True, default="", help_text="Why the slip is cancelled (shown in the log)."
    )


class PositionsSerializer(serializers.Serializer):
    button = serializers.IntegerField(min_value=1, max_value=10, help_text="The button's seat in the hand in play.")


class MoveListView(RoleAPIView):
    allowed = api_roles("api-moves")

    @extend_schema(
        operation_id="moves_status",
        tags=["moves"],
        summary="Halted tables, tables whose button is needed, the pending move slips, the house rules",
        responses=answers(200, MoveStatusSerializer),
    )
    def get(self, request, pk: int):
        return Response(screens.balancing_status(tournament_or_404(pk)))


class MoveBalanceView(RoleAPIView):
    allowed = api_roles("api-moves-balance")

    @extend_schema(
        operation_id="moves_balance",
        tags=["moves"],
        request=None,
        summary="Balance now: decide the moves the rules call for (after a cancelled slip is fixed)",
        responses=answers(
            200,
            inline_serializer(
                "MovesCreated",
                {
                    "moves": MoveSlipSerializer.__class__(many=True, help_text="The slips created (may be empty)."),
                    "need_button": serializers.ListField(
                        child=serializers.IntegerField(), help_text="Tables whose button the moves wait for."
                    ),
                    "halted": serializers.ListField(child=serializers.IntegerField(), help_text="Tables that must halt."),
                    "notice": MoveStatusSerializer.fields["notice"].__class__(
                        allow_null=True, help_text="Why balancing moves nobody although it should."
                    ),
                    "message": serializers.CharField(allow_null=True, help_text="What balancing waits for, in words (null: nothing)."),
                },
            ),
            refused=True,
            conflict=True,
        ),
    )
    def post(self, request, pk: int):
        t = tournament_or_404(pk)
        created = call_service(moves.balance_now, t, actor=request.user)
        return Response({"moves": [tables_selectors.slip(m) for m in created], **screens.balance_waits(t)})


class MoveConfirmView(RoleAPIView):
    allowed = api_roles("api-move-confirm")

    @extend_schema(
        operation_id="moves_confirm",
        tags=["moves"],
        request=None,
        summary="The player sat down at the new seat (chips travel with the player)",
        responses=answers(200, MoveSlipSerializer, conflict=True),
    )
    def post(self, request, pk: int, number: int):
        move = call_service(moves.confirm_move, tournament_or_404(pk), actor=request.user, number=number)
        return Response(tables_selectors.slip(move))


class MoveCancelView(RoleAPIView):
    allowed = api_roles("api-move-cancel")

    @extend_schema(
        operation_id="moves_cancel",
        tags=["moves"],
        request=CancelMoveSerializer,
        summary="Cancel a slip: the reserved seat is free again (the room is not balanced by itself)",
        responses=answers(200, MoveSlipSerializer, refused=True, conflict=True),
    )
    def post(self, request, pk: int, number: int):
        tournament = tournament_or_404(pk)
        reason = valid(CancelMoveSerializer, request.data).validated_data["reason"]
        move = call_service(moves.cancel_move, tournament, actor=request.user, number=number, reason=reason)
        return Response(tables_selectors.slip(move))


class TablePositionsView(RoleAPIView):
    allowed = api_roles("api-table-positions")

    @extend_schema(
        operation_id="tables_positions",
        tags=["tables"],
        request=PositionsSerializer,
        summary="The floor enters the button of the hand in play at a table whose positions are unknown",
        description="A move that waited for it is decided at once (see moves/).",
        responses=answers(
            200,
            inline_serializer(
                "TablePositions",
                {
                    "table": serializers.IntegerField(),
                    "positions": inline_serializer(
                        "Positions",
                        {
                            "button": serializers.IntegerField(allow_null=True),
                            "small_blind": serializers.IntegerField(allow_null=True),
                            "big_blind": serializers.IntegerField(),
                        },
                    ),
                },
            ),
            refused=True,
        ),
    )
    def post(self, request, pk: int, number: int):
        table = get_object_or_404(Table, tournament_id=pk, number=number)
        button = valid(PositionsSerializer, request.data).validated_data["button"]
        return Response(call_service(seats.enter_button, table, actor=request.user, seat=button))
