"""JSON API of the money: the payout structure in force (everyone on the staff), the director's plan
(the generator's settings or a house percentage table, imported and exported as JSON) and hand edits,
the results by place (names: the desk and the floor), and the cashier's reconciliation (the cashier and
the director)."""

from __future__ import annotations

from django.shortcuts import get_object_or_404
from django.utils.translation import gettext_lazy as _
from drf_spectacular.utils import extend_schema, inline_serializer
from rest_framework import serializers, status
from rest_framework.response import Response

from payouts.models import Deal, Payment, PayoutPlan
from payouts.selectors import structure as payouts_selectors
from payouts.selectors.reconciliation import reconciliation
from payouts.services import structure as payouts_services
from payouts.services.structure import plan_json
from tournament.models import IdCheck, Purchase
from tournament.services.registration import IdDocument
from web.access import api as api_roles
from web.api import RoleAPIView, answers, call_service, entry_or_404, only_known, tournament_or_404, valid
from web.money_fields import MoneyDisplayField, money_display
from web.tournament.serializers import IdCheckSerializer

ID_AGAIN = _("Type the number of the player's ID document again: no prize without an ID check.")
NO_SIGNATURE = _("The player must sign: no prize without a signature.")


def display_field() -> serializers.CharField:
    return serializers.CharField(help_text='The amount as people read it in the request\'s language: "1 100 Kč", "CZK 1,100".')


BandSerializer = inline_serializer(
    "PayoutBand",
    {
        "first": serializers.IntegerField(),
        "last": serializers.IntegerField(),
        "prize": serializers.IntegerField(help_text="Minor units, for each place of the band."),
        "prize_display": display_field(),
    },
    many=True,
)
JumpSerializer = inline_serializer(
    "PayJump", {"place": serializers.IntegerField(), "prize": serializers.IntegerField(), "prize_display": display_field()}, allow_null=True
)
PayoutsSerializer = inline_serializer(
    "Payouts",
    {
        "method": serializers.ChoiceField(choices=PayoutPlan.Method.choices),
        "state": serializers.ChoiceField(
            choices=[payouts_selectors.LIVE, payouts_selectors.FROZEN, payouts_selectors.EDITED],
            help_text=("live: follows the entries and the pool; frozen: late registration is over; edited: the director's prizes."),
        ),
        "edit_stale": serializers.BooleanField(help_text="The director's edit no longer matches the pool or the field."),
        "pool": serializers.IntegerField(),
        "entries": serializers.IntegerField(),
        "players_left": serializers.IntegerField(),
        "currency": serializers.CharField(),
        "unit": serializers.IntegerField(),
        "share_paid_bp": serializers.IntegerField(),
        "min_cash_bp": serializers.IntegerField(),
        "min_cash": serializers.IntegerField(),
        "places_wanted": serializers.IntegerField(),
        "pool_display": display_field(),
        "min_cash_display": display_field(),
        "places_paid": serializers.IntegerField(),
        "reason": serializers.CharField(allow_null=True, help_text="Why fewer places are paid than wanted."),
        "bands": BandSerializer,
        "in_the_money": serializers.BooleanField(),
        "next_jump": JumpSerializer,
        "deal": inline_serializer(
            "DealInForce",
            {
                "number": serializers.IntegerField(),
                "mode": serializers.ChoiceField(choices=Deal.Mode.choices),
                "players": serializers.IntegerField(help_text="Places 1..players are paid by the deal's table."),
            },
            allow_null=True,
            help_text="The last approved deal, if any.",
        ),
        "satellite": inline_serializer(
            "PayoutsSatellite",
            {
                "target": inline_serializer(
                    "PayoutsSatelliteTarget",
                    {"id": serializers.IntegerField(), "name": serializers.CharField(), "start_at": serializers.DateTimeField()},
                ),
                "seats": serializers.IntegerField(),
                "seat_value": serializers.IntegerField(),
                "cash": serializers.IntegerField(),
                "leftover": serializers.CharField(),
                "stops_at": serializers.IntegerField(),
                "transferable": serializers.BooleanField(),
                "stopped": serializers.BooleanField(),
            },
            allow_null=True,
            help_text=(
                "A satellite's seats in its target event (the bands are its cash); play stops at stops_at players. Null: not a satellite."
            ),
        ),
    },
)
HouseTableSerializer = inline_serializer(
    "HouseTable",
    {
        "format": serializers.CharField(),
        "version": serializers.IntegerField(),
        "bands": inline_serializer(
            "HouseTableBand",
            {
                "min_entries": serializers.IntegerField(),
                "max_entries": serializers.IntegerField(),
                "percentages_bp": serializers.ListField(child=serializers.IntegerField()),
            },
            many=True,
        ),
    },
    allow_null=True,
)


class PlanSerializer(serializers.Serializer):
    method = serializers.ChoiceField(choices=PayoutPlan.Method.choices, required=False)
    share_paid_bp = serializers.IntegerField(
        min_value=1, max_value=10_000, required=False, help_text="Share of the field paid, in basis points (1500 = 15%)."
    )
    min_cash_bp = serializers.IntegerField(
        min_value=0, max_value=1_000_000, required=False, help_text="Minimum cash in basis points of the buy-in (15000 = 1.5x)."
    )
    unit = serializers.IntegerField(min_value=1, max_value=10**9, required=False, help_text="Rounding unit, minor units.")
    house_table = serializers.JSONField(
        required=False, allow_null=True, help_text="A house percentage table as exported (format, version, bands)."
    )


PlanAnswer = inline_serializer(
    "PayoutPlan",
    {
        "method": serializers.CharField(),
        "share_paid_bp": serializers.IntegerField(),
        "min_cash_bp": serializers.IntegerField(),
        "unit": serializers.IntegerField(),
        "house_table": HouseTableSerializer,
    },
)
EditSerializer = inline_serializer("PayoutEdit", {"bands": BandSerializer})
ResultSerializer = inline_serializer(
    "Result",
    {
        "entry": serializers.IntegerField(),
        "name": serializers.CharField(),
        "place": serializers.IntegerField(),
        "place_low": serializers.IntegerField(),
        "prize": serializers.IntegerField(),
        "prize_display": display_field(),
        "seat": serializers.BooleanField(help_text="A satellite's seat winner (his ticket: GET .../tickets/)."),
    },
    many=True,
)


def _state(t) -> dict:
    state = payouts_selectors.payout_state(t)
    state.pop("prizes")
    currency = state["currency"]
    state["pool_display"] = money_display(state["pool"], currency)
    state["min_cash_display"] = money_display(state["min_cash"], currency)
    state["bands"] = [{**band, "prize_display": money_display(band["prize"], currency)} for band in state["bands"]]
    if state["next_jump"]:
        state["next_jump"] = {**state["next_jump"], "prize_display": money_display(state["next_jump"]["prize"], currency)}
    return state


class PayoutsView(RoleAPIView):
    allowed = api_roles("api-payouts")

    @extend_schema(
        operation_id="payouts",
        tags=["payouts"],
        responses=answers(200, PayoutsSerializer),
        summary="The payout structure in force: prizes by place, places paid, the next pay jump",
    )
    def get(self, request, pk: int):
        return Response(_state(tournament_or_404(pk)))


class PayoutPlanView(RoleAPIView):
    allowed = api_roles("api-payout-plan")

    @extend_schema(
        operation_id="payout_plan",
        tags=["payouts"],
        responses=answers(200, PlanAnswer),
        summary="How the pool is paid: the generator's settings or the house table (its JSON export)",
    )
    def get(self, request, pk: int):
        return Response(plan_json(payouts_selectors.plan_of(tournament_or_404(pk))))

    @extend_schema(
        operation_id="payout_plan_set",
        tags=["payouts"],
        request=PlanSerializer,
        responses=answers(200, PlanAnswer, refused=True),
        summary="Change the plan (the others keep their value); a house table is imported here",
    )
    def patch(self, request, pk: int):
        t = tournament_or_404(pk)
        only_known(PlanSerializer, request.data, "Unknown payout setting.")
        data = valid(PlanSerializer, request.data).validated_data
        return Response(plan_json(call_service(payouts_services.set_payout_plan, t, actor=request.user, data=dict(data))))


class PayoutStructureView(RoleAPIView):
    allowed = api_roles("api-payout-structure")

    @extend_schema(
        operation_id="payout_structure_edit",
        tags=["payouts"],
        request=EditSerializer,
        responses=answers(200, PayoutsSerializer, refused=True),
        summary="Set the prizes by hand: bands from place 1, adding up to the pool, never rising",
    )
    def put(self, request, pk: int):
        t = tournament_or_404(pk)
        bands = request.data.get("bands") if isinstance(request.data, dict) else None
        call_service(payouts_services.edit_structure, t, actor=request.user, rows=bands)
        return Response(_state(t))

    @extend_schema(
        operation_id="payout_structure_reset",
        tags=["payouts"],
        request=None,
        responses=answers(200, PayoutsSerializer, conflict=True),
        summary="Drop the hand edit: the plan's structure stands again",
    )
    def delete(self, request, pk: int):
        t = tournament_or_404(pk)
        call_service(payouts_services.clear_edit, t, actor=request.user)
        return Response(_state(t))


class ResultsView(RoleAPIView):
    allowed = api_roles("api-results")

    @extend_schema(
        operation_id="results",
        tags=["payouts"],
        responses=answers(200, ResultSerializer),
        summary="Every finishing place with its prize (ties split), best first",
    )
    def get(self, request, pk: int):
        t = tournament_or_404(pk)
        return Response([{**row, "prize_display": money_display(row["prize"], t.currency)} for row in payouts_selectors.results(t)])


# --- the cashier's reconciliation ------------------------------------------------------------------

_int = serializers.IntegerField


def takings_fields() -> dict:
    return {
        "count": _int(help_text="Receipts paid."),
        "amount": _int(help_text="Their prize part, minor units."),
        "fee": _int(),
        "total": _int(help_text="amount + fee: the receipts paid, in cash or with a satellite's ticket."),
        "tickets": _int(help_text="Of the receipts paid, those paid with a satellite's ticket (no cash)."),
        "tickets_amount": _int(help_text="Their prize part."),
        "tickets_fee": _int(help_text="Their fee."),
        "tickets_total": _int(help_text="tickets_amount + tickets_fee."),
        "cash_taken": _int(help_text="total - tickets_total: the cash taken (a ticket brought none)."),
        "announced": _int(help_text="Receipts announced, not yet paid (no cash yet)."),
        "announced_total": _int(),
        "voided": _int(help_text="Receipts voided."),
        "voided_taken": _int(help_text="What the voided receipts had taken."),
        "refunded": _int(),
        "kept": _int(help_text="voided_taken - refunded: the house keeps it."),
    }


ReconciliationSerializer = inline_serializer(
    "Reconciliation",
    {
        "currency": serializers.CharField(),
        "takings": inline_serializer(
            "TakingsByKind", {"kind": serializers.ChoiceField(choices=Purchase.Kind.choices), **takings_fields()}, many=True
        ),
        "takings_total": inline_serializer("TakingsTotal", takings_fields()),
        "taken": _int(
            help_text=("Every receipt paid in cash, voided ones included (prize parts and fees): a buy-in paid with a ticket brought none.")
        ),
        "refunded": _int(),
        "cash_in": _int(help_text="taken - refunded: cash only (a buy-in paid with a ticket brought none)."),
        "tickets_in": _int(
            help_text=(
                "Buy-ins paid with a satellite's ticket (not voided), prize part and fee: in the pool and the fees, not in the cage."
            )
        ),
        "tickets_in_count": _int(),
        "tickets_in_amount": _int(help_text="The tickets' prize part (in collected)."),
        "tickets_in_fee": _int(help_text="The tickets' fees (in fees)."),
        "seats_out": _int(
            help_text="A satellite's seats given as tickets: prizes paid in tickets, not cash (their value stays in the cage)."
        ),
        "seats_out_count": _int(),
        "collected": _int(help_text="The prize part of the receipts paid and not voided."),
        "fees": _int(help_text="The fees of the receipts paid and not voided: the house keeps them."),
        "kept_on_voids": _int(help_text="What the voids did not refund: the house keeps it."),
        "house_keeps": _int(help_text="fees + kept_on_voids."),
        "guarantee": _int(),
        "overlay": _int(help_text="pool - collected: the house adds it to reach the guarantee."),
        "house_result": _int(help_text="house_keeps - overlay: the house's takings once every prize is paid."),
        "pool": _int(),
        "prizes_paid": _int(),
        "payments": _int(help_text="Payouts made (not voided)."),
        "prizes_unpaid": _int(help_text="Prizes of finished places not yet paid."),
        "places_unpaid": _int(),
        "unpaid_entries": serializers.ListField(child=_int()),
        "prizes_in_play": _int(help_text="Prizes of the places still in play: pool less every finished place's prize."),
        "prizes_owed": _int(help_text="prizes_unpaid + prizes_in_play."),
        "cage": _int(help_text="What the cage should hold: cash_in - prizes_paid (in an event: this part's share of its cage)."),
        "balance": _int(
            help_text=(
                "cash_in + tickets_in + overlay + pool_in - house_keeps - prizes_paid - seats_out - "
                "prizes_owed - pool_out: "
                "zero when every payout is "
                "its place's prize now; otherwise the sum of the mismatches (prize - paid)."
            )
        ),
        "mismatches": inline_serializer(
            "PayoutMismatch", {"entry": _int(), "paid": _int(), "prize": _int(help_text="The prize of its place now.")}, many=True
        ),
        "players_left": _int(help_text="Entries not out: in a satellite whose play has stopped, its seat winners."),
        "play_stopped": serializers.BooleanField(
            help_text=("A satellite's play has stopped at its seats: the players left won seats (tickets), nobody is in play.")
        ),
        "seat_winners": _int(help_text="A satellite's seat winners once its play has stopped; 0 otherwise."),
        "part": serializers.CharField(
            allow_null=True,
            help_text=(
                "Which part of an event this page closes: 'flight' (its own takings; its prize part goes to the event's pool) "
                "or 'day2' (its own takings; it pays the event's prizes); null for a tournament of its own."
            ),
        ),
        "pool_in": _int(help_text="Day 2: the flights' prize parts in its pool (their cash is on the flights' pages)."),
        "pool_out": _int(help_text="A flight: its prize part handed to the event's pool (Day 2 owes and pays it)."),
        "waiting_list": inline_serializer(
            "ReconciliationWaitingList",
            {"places": _int(help_text="Players on the waiting list who paid when they joined."), "held": _int(help_text="Their buy-ins.")},
            help_text="Buy-ins held for players on the waiting list: besides the cage's money, theirs until seated or given back.",
        ),
        "event": serializers.JSONField(
            allow_null=True,
            help_text=(
                "An event's cage, counted once and shown alike on every part's page: {name, cash_in, prizes_paid, cage, parts: "
                "[{tournament, name, part, cash_in, prizes_paid, cage}]}; the parts' cages add up to it. Null outside an event."
            ),
        ),
        **{
            f"{name}_display": display_field()
            for name in ("cash_in", "collected", "fees", "overlay", "house_result", "pool", "prizes_paid", "prizes_owed", "cage", "balance")
        },
    },
)


class ReconciliationView(RoleAPIView):
    allowed = api_roles("api-reconciliation")

    @extend_schema(
        operation_id="reconciliation",
        tags=["payouts"],
        responses=answers(200, ReconciliationSerializer),
        summary="The cashier's reconciliation: takings, refunds, overlay, prizes paid and owed, the cage",
    )
    def get(self, request, pk: int):
        answer = reconciliation(tournament_or_404(pk))
        for name in ("cash_in", "collected", "fees", "overlay", "house_result", "pool", "prizes_paid", "prizes_owed", "cage", "balance"):
            answer[f"{name}_display"] = money_display(answer[name], answer["currency"])
        return Response(answer)


# --- paying prizes ---------------------------------------------------------------------------------


class PaySerializer(serializers.Serializer):
    document_type = serializers.ChoiceField(
        choices=IdCheck.DocumentType.choices, error_messages={"required": ID_AGAIN, "null": ID_AGAIN, "blank": ID_AGAIN}
    )
    document_number = serializers.CharField(
        write_only=True,
        max_length=64,
        error_messages={"required": ID_AGAIN, "null": ID_AGAIN, "blank": ID_AGAIN},
        help_text="Typed again from the document in hand: it must match the one the entry was registered with "
        "(club 32). Never stored: only its last four characters.",
    )
    signature = serializers.CharField(
        max_length=payouts_services.MAX_SIGNATURE_BYTES * 2,
        error_messages={"required": NO_SIGNATURE, "blank": NO_SIGNATURE},
        help_text="The player's signature as drawn on the tablet: a PNG data URL (data:image/png;base64,...).",
    )


class CagePaymentSerializer(serializers.ModelSerializer):
    """Money the cage paid (payouts.models.PaidAtTheCage): a prize, or bounties."""

    entry = serializers.IntegerField(source="entry.number")
    name = serializers.CharField(source="entry.player.display_name")
    id_check = IdCheckSerializer()
    paid_by = serializers.CharField(source="paid_by.username")
    amount_display = MoneyDisplayField("amount")

    FIELDS = ("number", "entry", "name", "status", "amount", "amount_display", "id_check", "paid_at", "paid_by", "voided_at", "void_reason")


class PaymentSerializer(CagePaymentSerializer):
    class Meta:
        model = Payment
        fields = (*CagePaymentSerializer.FIELDS, "place", "place_low")


class PaymentVoidSerializer(serializers.Serializer):
    reason = serializers.CharField(
        max_length=300, error_messages={"required": _("Give a reason for voiding."), "blank": _("Give a reason for voiding.")}
    )


def payment_or_404(pk: int, number: int) -> Payment:
    return get_object_or_404(
        Payment.objects.select_related("entry__player", "id_check", "paid_by", "tournament"), tournament_id=pk, number=number
    )


class EntryPayoutView(RoleAPIView):
    allowed = api_roles("api-entry-payout")

    @extend_schema(
        operation_id="entries_pay_prize",
        tags=["payouts"],
        request=PaySerializer,
        responses=answers(201, PaymentSerializer, refused=True, conflict=True),
        summary="Pay the entry's prize: the ID typed again must match the registration's; the player signs",
    )
    def post(self, request, pk: int, number: int):
        entry = entry_or_404(pk, number)
        data = valid(PaySerializer, request.data).validated_data
        document = IdDocument(document_type=data["document_type"], number=data["document_number"])
        payment = call_service(payouts_services.pay_prize, entry, actor=request.user, document=document, signature=data["signature"])
        return Response(PaymentSerializer(payment).data, status=status.HTTP_201_CREATED)


class PaymentListView(RoleAPIView):
    allowed = api_roles("api-payments")

    @extend_schema(
        operation_id="payments",
        tags=["payouts"],
        responses=answers(200, PaymentSerializer(many=True)),
        summary="Every prize payment, voided ones included, by receipt number",
    )
    def get(self, request, pk: int):
        t = tournament_or_404(pk)
        payments = Payment.objects.filter(tournament=t).select_related("entry__player", "id_check", "paid_by", "tournament")
        return Response(PaymentSerializer(payments, many=True).data)


class PaymentVoidView(RoleAPIView):
    allowed = api_roles("api-payment-void")

    @extend_schema(
        operation_id="payments_void",
        tags=["payouts"],
        request=PaymentVoidSerializer,
        responses=answers(200, PaymentSerializer, refused=True, conflict=True),
        summary="Void a payment made in error, with a reason (never deleted); the prize can be paid again",
    )
    def post(self, request, pk: int, number: int):
        payment = payment_or_404(pk, number)
        data = valid(PaymentVoidSerializer, request.data).validated_data
        voided = call_service(payouts_services.void_payment, payment, actor=request.user, reason=data["reason"])
        return Response(PaymentSerializer(voided).data)
