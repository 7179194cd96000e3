"""JSON API of the deals at the final table: the calculator (ICM and chip chop, with an amount kept to play for),
a deal proposed, approved or rejected by the director, and the deals of a tournament."""

from __future__ import annotations

from django.shortcuts import get_object_or_404
from drf_spectacular.utils import extend_schema, inline_serializer
from rest_framework import serializers, status
from rest_framework.response import Response

from payouts.models import Deal
from payouts.selectors import structure as payouts_selectors
from payouts.services import structure as payouts_services
from web.access import api as api_roles
from web.api import RoleAPIView, answers, call_service, tournament_or_404, valid

STACKS_HELP = 'Chips of every player left, by entry number: {"12": 150000, "40": 90000}.'


FigureSerializer = inline_serializer(
    "DealFigure",
    {
        "amounts": serializers.ListField(
            child=serializers.IntegerField(), allow_null=True, help_text="Minor units, in the order of `entries`."
        ),
        "refused": serializers.CharField(allow_null=True, help_text="The deal rule this split breaks, if any."),
        "code": serializers.CharField(allow_null=True),
        "player": serializers.IntegerField(allow_null=True),
    },
)
CalculatorSerializer = inline_serializer(
    "DealCalculator",
    {
        "entries": serializers.ListField(child=serializers.IntegerField()),
        "stacks": serializers.ListField(child=serializers.IntegerField()),
        "prizes_left": serializers.ListField(child=serializers.IntegerField()),
        "to_play_for": serializers.IntegerField(),
        "icm": FigureSerializer,
        "chip_chop": FigureSerializer,
    },
)


class DealCalculateSerializer(serializers.Serializer):
    stacks = serializers.DictField(child=serializers.IntegerField(min_value=1, max_value=10**15), help_text=STACKS_HELP)
    to_play_for = serializers.IntegerField(
        min_value=0, max_value=10**15, default=0, help_text="Minor units kept out of the deal for the winner of the play that follows."
    )


class DealProposeSerializer(DealCalculateSerializer):
    kind = serializers.ChoiceField(choices=Deal.Kind.choices)
    mode = serializers.ChoiceField(
        choices=Deal.Mode.choices,
        default=Deal.Mode.PLAY_ON,
        help_text=(
            "play_on: the amounts become a prize table by place and play goes on (club 28); "
            "stop: play ends, the places follow the chip counts."
        ),
    )
    amounts = serializers.DictField(
        child=serializers.IntegerField(min_value=0, max_value=10**15),
        required=False,
        help_text="For kind custom: the amount agreed for every player left, by entry number.",
    )


class DealRejectSerializer(serializers.Serializer):
    reason = serializers.CharField(max_length=300, required=False, allow_blank=True, default="")


class DealSerializer(serializers.ModelSerializer):
    players = serializers.SerializerMethodField()
    proposed_by = serializers.CharField(source="proposed_by.username", allow_null=True)
    decided_by = serializers.CharField(source="decided_by.username", allow_null=True)

    class Meta:
        model = Deal
        fields = (
            "number",
            "status",
            "kind",
            "mode",
            "players",
            "to_play_for",
            "prizes_left",
            "table",
            "finishes",
            "proposed_at",
            "proposed_by",
            "decided_at",
            "decided_by",
            "reason",
        )

    def get_players(self, deal) -> list[dict]:
        return payouts_services.deal_json(deal)["players"]


def deal_or_404(pk: int, number: int) -> Deal:
    return get_object_or_404(Deal.objects.select_related("proposed_by", "decided_by"), tournament_id=pk, number=number)


class DealsView(RoleAPIView):
    allowed = api_roles("api-deals")

    @extend_schema(
        operation_id="deals",
        tags=["payouts"],
        responses=answers(200, DealSerializer(many=True)),
        summary="Every deal proposed, approved or rejected, by number",
    )
    def get(self, request, pk: int):
        t = tournament_or_404(pk)
        return Response(DealSerializer(Deal.objects.filter(tournament=t).select_related("proposed_by", "decided_by"), many=True).data)

    @extend_schema(
        operation_id="deals_propose",
        tags=["payouts"],
        request=DealProposeSerializer,
        responses=answers(201, DealSerializer, refused=True, conflict=True),
        summary="Propose a deal (ICM, chip chop or amounts agreed); checked, then the director approves it",
    )
    def post(self, request, pk: int):
        t = tournament_or_404(pk)
        data = dict(valid(DealProposeSerializer, request.data).validated_data)
        deal = call_service(payouts_services.propose_deal, t, actor=request.user, data=data)
        return Response(DealSerializer(deal).data, status=status.HTTP_201_CREATED)


class DealCalculatorView(RoleAPIView):
    allowed = api_roles("api-deal-calculator")

    @extend_schema(
        operation_id="deals_calculate",
        tags=["payouts"],
        request=DealCalculateSerializer,
        responses=answers(200, CalculatorSerializer, refused=True, conflict=True),
        summary="ICM and chip chop for the players left at these chip counts (changes nothing)",
    )
    def post(self, request, pk: int):
        t = tournament_or_404(pk)
        data = valid(DealCalculateSerializer, request.data).validated_data
        basis = payouts_selectors.deal_basis(t)
        entries, chips, to_play_for = call_service(payouts_services.deal_inputs, basis, data["stacks"], data["to_play_for"])
        prizes_left = list(basis["prizes_left"])
        return Response(
            {
                "entries": entries,
                "stacks": chips,
                "prizes_left": prizes_left,
                "to_play_for": to_play_for,
                **payouts_selectors.deal_figures(chips, prizes_left, to_play_for, basis["unit"]),
            }
        )


class DealApproveView(RoleAPIView):
    allowed = api_roles("api-deal-approve")

    @extend_schema(
        operation_id="deals_approve",
        tags=["payouts"],
        request=None,
        responses=answers(200, DealSerializer, conflict=True),
        summary="Approve a proposed deal: its prizes stand from now on",
    )
    def post(self, request, pk: int, number: int):
        deal = call_service(payouts_services.approve_deal, deal_or_404(pk, number), actor=request.user)
        return Response(DealSerializer(deal).data)


class DealRejectView(RoleAPIView):
    allowed = api_roles("api-deal-reject")

    @extend_schema(
        operation_id="deals_reject",
        tags=["payouts"],
        request=DealRejectSerializer,
        responses=answers(200, DealSerializer, refused=True, conflict=True),
        summary="Reject (director) or withdraw (floor) a proposed deal; the old prizes stand",
    )
    def post(self, request, pk: int, number: int):
        deal = deal_or_404(pk, number)
        data = valid(DealRejectSerializer, request.data).validated_data
        return Response(DealSerializer(call_service(payouts_services.reject_deal, deal, actor=request.user, reason=data["reason"])).data)
