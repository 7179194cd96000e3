"""JSON API of a bounty event's money (payouts/services/bounties.py): its figures and heads, the house's settings, the
mystery envelopes committed, and the cage paying bounties (and voiding a payment made in error)."""

from __future__ import annotations

from django.shortcuts import get_object_or_404
from django.utils.translation import gettext_lazy as _
from drf_spectacular.utils import extend_schema, inline_serializer
from rest_framework import serializers, status
from rest_framework.response import Response

from payouts.models import BountyPayment, BountyRules
from payouts.selectors import bounties as bounty_selectors
from payouts.services import bounties as bounty_services
from payouts.services import bounty_cage
from tournament.services.registration import IdDocument
from web.access import api as api_roles
from web.api import RoleAPIView, answers, call_service, entry_or_404, only_known, tournament_or_404, valid
from web.payouts.api import CagePaymentSerializer, PaymentVoidSerializer, PaySerializer


class BountyRulesSerializer(serializers.Serializer):
    cash_share_bp = serializers.IntegerField(min_value=0, max_value=10_000, required=False)
    increment = serializers.IntegerField(min_value=1, max_value=10**9, required=False)
    odd_unit = serializers.ChoiceField(choices=BountyRules.OddUnit.choices, required=False)
    mystery_level = serializers.IntegerField(min_value=1, max_value=1000, required=False, allow_null=True)
    mystery_at_money = serializers.BooleanField(required=False)
    mystery_before = serializers.ChoiceField(choices=BountyRules.Before.choices, required=False)
    disqualified_head = serializers.ChoiceField(choices=BountyRules.DisqualifiedHead.choices, required=False)
    cage = serializers.ChoiceField(choices=BountyRules.Cage.choices, required=False)
    deal_heads = serializers.ChoiceField(choices=BountyRules.DealHeads.choices, required=False)


BoxSerializer = inline_serializer(
    "MysteryBox",
    {
        "list_hash": serializers.CharField(help_text="SHA-256 of the list as compact JSON, highest value first."),
        "total": serializers.IntegerField(),
        "count": serializers.IntegerField(),
        "envelopes": serializers.ListField(child=serializers.ListField(child=serializers.IntegerField())),
    },
)


MoneySerializer = inline_serializer(
    "BountyMoney",
    {
        "format": serializers.CharField(help_text="none, knockout, progressive or mystery"),
        "taken_in": serializers.IntegerField(help_text="The bounty parts of the buy-ins paid (minor units)."),
        "paid": serializers.IntegerField(),
        "owed": serializers.IntegerField(help_text="Won by players, not yet paid at the cage."),
        "forfeited": serializers.IntegerField(help_text="Disqualified players' heads the house keeps."),
        "to_pool": serializers.IntegerField(help_text="Disqualified players' heads added to the prize pool."),
        "in_play": serializers.IntegerField(help_text="The heads still in play (and a mystery event's envelopes left)."),
        "payments": serializers.IntegerField(),
        "adds_up": serializers.BooleanField(),
    },
)

BountiesSerializer = inline_serializer(
    "Bounties",
    {
        "money": MoneySerializer,
        "rules": BountyRulesSerializer(),
        "heads": serializers.ListField(child=serializers.DictField(), help_text="The players in play, biggest head first."),
        "won": serializers.ListField(child=serializers.DictField(), help_text="Bounties won by entry: won, paid, owed, knockouts."),
        "box": serializers.DictField(allow_null=True, help_text="A mystery event's envelopes: the list's hash and what is left."),
    },
)


def bounties_json(t) -> dict:
    heads = sorted(bounty_selectors.heads(t).items(), key=lambda kv: (-kv[1], kv[0]))
    won = bounty_selectors.won_by_entry(t)
    names = {
        e.number: e.player.display_name
        for e in t.entries.filter(number__in={*dict(heads), *won}).select_related("player").only("number", "player")
    }
    box = bounty_selectors.mystery_box(t)
    return {
        "money": bounty_selectors.money(t),
        "rules": bounty_services.rules_json(bounty_selectors.bounty_rules(t)),
        "heads": [{"entry": n, "name": names.get(n, ""), "head": h} for n, h in heads],
        "won": [{"entry": n, "name": names.get(n, ""), **row} for n, row in sorted(won.items())],
        "box": None
        if box is None
        else {
            "list_hash": box.list_hash,
            "total": box.total,
            "count": box.count,
            "envelopes": box.envelopes,
            "left": [list(x) for x in bounty_selectors.box_left(t, box)],
        },
    }


class BountiesView(RoleAPIView):
    allowed = api_roles("api-bounties")

    @extend_schema(
        operation_id="bounties",
        tags=["bounties"],
        responses=answers(200, BountiesSerializer),
        summary="A bounty event's money: taken in, paid, owed, in play (it adds up), the heads and what each entry won",
    )
    def get(self, request, pk: int):
        return Response(bounties_json(tournament_or_404(pk)))


class BountyRulesView(RoleAPIView):
    allowed = api_roles("api-bounty-rules")

    @extend_schema(
        operation_id="bounty_rules_set",
        tags=["bounties"],
        request=BountyRulesSerializer,
        responses=answers(200, BountyRulesSerializer, refused=True, conflict=True),
        summary="The house's bounty settings (fixed once a bounty has been won)",
    )
    def patch(self, request, pk: int):
        t = tournament_or_404(pk)
        only_known(BountyRulesSerializer, request.data, _("Unknown bounty setting."))
        data = valid(BountyRulesSerializer, request.data).validated_data
        row = call_service(bounty_services.set_bounty_rules, t, actor=request.user, data=dict(data))
        return Response(bounty_services.rules_json(row))


class EnvelopesSerializer(serializers.Serializer):
    envelopes = serializers.JSONField(help_text="[[value, count], ...]: values in minor units, each value once.")


class EnvelopesView(RoleAPIView):
    allowed = api_roles("api-bounty-envelopes")

    @extend_schema(
        operation_id="bounty_envelopes_commit",
        tags=["bounties"],
        request=EnvelopesSerializer,
        responses=answers(201, BoxSerializer, refused=True, conflict=True),
        summary="Commit a mystery event's envelopes: they must pay out exactly the bounty money in play, one per player",
    )
    def post(self, request, pk: int):
        t = tournament_or_404(pk)
        data = valid(EnvelopesSerializer, request.data).validated_data
        box = call_service(bounty_services.commit_envelopes, t, actor=request.user, envelopes=data["envelopes"])
        return Response({"list_hash": box.list_hash, "total": box.total, "count": box.count, "envelopes": box.envelopes}, status=201)


class BountyPaymentSerializer(CagePaymentSerializer):
    class Meta:
        model = BountyPayment
        fields = (*CagePaymentSerializer.FIELDS, "awards")


def bounty_payment_or_404(pk: int, number: int) -> BountyPayment:
    return get_object_or_404(
        BountyPayment.objects.select_related("entry__player", "id_check", "paid_by", "tournament"), tournament_id=pk, number=number
    )


class EntryBountyPayoutView(RoleAPIView):
    allowed = api_roles("api-entry-bounty-payout")

    @extend_schema(
        operation_id="entries_pay_bounties",
        tags=["bounties"],
        request=PaySerializer,
        responses=answers(201, BountyPaymentSerializer, refused=True, conflict=True),
        summary="Pay the bounties the entry is owed: the ID typed again must match the registration's; the player signs",
    )
    def post(self, request, pk: int, number: int):
        entry = entry_or_404(pk, number)
        data = valid(PaySerializer, request.data).validated_data
        document = IdDocument(document_type=data["document_type"], number=data["document_number"])
        payment = call_service(bounty_cage.pay_bounties, entry, actor=request.user, document=document, signature=data["signature"])
        return Response(BountyPaymentSerializer(payment).data, status=status.HTTP_201_CREATED)


class BountyPaymentListView(RoleAPIView):
    allowed = api_roles("api-bounty-payments")

    @extend_schema(
        operation_id="bounty_payments",
        tags=["bounties"],
        responses=answers(200, BountyPaymentSerializer(many=True)),
        summary="Every bounty payment, voided ones included, by bounty receipt number",
    )
    def get(self, request, pk: int):
        t = tournament_or_404(pk)
        rows = BountyPayment.objects.filter(tournament=t).select_related("entry__player", "id_check", "paid_by", "tournament")
        return Response(BountyPaymentSerializer(rows, many=True).data)


class BountyPaymentVoidView(RoleAPIView):
    allowed = api_roles("api-bounty-payment-void")

    @extend_schema(
        operation_id="bounty_payments_void",
        tags=["bounties"],
        request=PaymentVoidSerializer,
        responses=answers(200, BountyPaymentSerializer, refused=True, conflict=True),
        summary="Void a bounty payment made in error, with a reason (never deleted): its bounties are owed again",
    )
    def post(self, request, pk: int, number: int):
        payment = bounty_payment_or_404(pk, number)
        data = valid(PaymentVoidSerializer, request.data).validated_data
        voided = call_service(bounty_cage.void_bounty_payment, payment, actor=request.user, reason=data["reason"])
        return Response(BountyPaymentSerializer(voided).data)
