"""JSON API of satellites: the setting (the director), the seats and where play stops (everyone on the
staff), the tickets won in a satellite and the tickets for a target event (the desk: they name players), registering
a ticket's holder into the target with his ID checked (the desk), passing a ticket to another player (the director,
where the house allows it)."""

from __future__ import annotations

from django.shortcuts import get_object_or_404
from django.utils.translation import gettext_lazy as _
from drf_spectacular.utils import extend_schema, inline_serializer
from rest_framework import serializers, status
from rest_framework.response import Response

from payouts.models import Satellite, Ticket
from payouts.selectors import structure
from payouts.services import tickets
from tournament.models import IdCheck, Player
from tournament.services.registration import IdDocument
from web.access import api as api_roles
from web.api import RoleAPIView, answers, call_service, only_known, tournament_or_404, valid
from web.flights.api import MAX_ID
from web.money_fields import MoneyDisplayField, money_display
from web.tournament.serializers import ID_MISSING, ID_NOT_SEEN, RegistrationSerializer

NO_REASON = _("Give a reason for the transfer.")


class SatelliteSettingsSerializer(serializers.Serializer):
    target = serializers.IntegerField(required=False, min_value=1, max_value=MAX_ID, help_text="The target event's tournament id.")
    leftover = serializers.ChoiceField(
        choices=Satellite.Leftover.choices,
        required=False,
        help_text=("Where the cash left over after the seats goes: next_place (the first place without a seat) or seat_winners."),
    )
    seat = serializers.ChoiceField(
        choices=Satellite.Seat.choices,
        required=False,
        help_text=(
            "What a seat is worth: entry (the target's buy-in and fee) or buy_in (its buy-in only: the house waives the fee for a ticket)."
        ),
    )
    transferable = serializers.BooleanField(required=False, help_text="Whether a ticket may pass to another player.")


SatelliteStateSerializer = inline_serializer(
    "SatelliteState",
    {
        "target": inline_serializer(
            "SatelliteTarget", {"id": serializers.IntegerField(), "name": serializers.CharField(), "start_at": serializers.DateTimeField()}
        ),
        "seats": serializers.IntegerField(help_text="The pool divided by the seat's value, rounded down."),
        "seat_value": serializers.IntegerField(help_text="Minor units: the target's buy-in and fee, or its buy-in alone."),
        "seat": serializers.ChoiceField(choices=Satellite.Seat.choices),
        "cash": serializers.IntegerField(help_text="Minor units left over after the seats."),
        "leftover": serializers.ChoiceField(choices=Satellite.Leftover.choices),
        "stops_at": serializers.IntegerField(help_text="Play stops when this many players are left (the seats, at least 1)."),
        "transferable": serializers.BooleanField(),
        "stopped": serializers.BooleanField(),
        "seat_value_display": serializers.CharField(),
        "cash_display": serializers.CharField(),
    },
    allow_null=True,
)
SatelliteSerializer = inline_serializer("Satellite", {"satellite": SatelliteStateSerializer})


def satellite_answer(t) -> dict:
    sat = structure.payout_state(t)["satellite"]
    if sat is not None:
        sat = {
            **sat,
            "seat_value_display": money_display(sat["seat_value"], t.currency),
            "cash_display": money_display(sat["cash"], t.currency),
        }
    return {"satellite": sat}


class TicketSerializer(serializers.ModelSerializer):
    satellite = serializers.IntegerField(source="satellite.tournament_id", help_text="The satellite's tournament id.")
    satellite_name = serializers.CharField(source="satellite.tournament.name")
    target = serializers.IntegerField(source="satellite.target_id")
    target_name = serializers.CharField(source="satellite.target.name")
    won_by = serializers.IntegerField(source="won_by.number", help_text="The satellite entry that won the seat.")
    holder = serializers.IntegerField(source="holder_id", help_text="The player who holds it now.")
    holder_name = serializers.CharField(source="holder.display_name")
    used_entry = serializers.IntegerField(
        source="used_entry.number", allow_null=True, default=None, help_text="The target's entry it paid for, once used."
    )
    value_display = MoneyDisplayField("value", currency="satellite.tournament.currency")

    class Meta:
        model = Ticket
        fields = (
            "number",
            "satellite",
            "satellite_name",
            "target",
            "target_name",
            "won_by",
            "holder",
            "holder_name",
            "value",
            "value_display",
            "status",
            "issued_at",
            "used_entry",
            "used_at",
            "voided_at",
            "void_reason",
        )


TICKET_ROWS = ("satellite__tournament", "satellite__target", "won_by", "holder", "used_entry")


class SatelliteView(RoleAPIView):
    allowed = api_roles("api-satellite")

    @extend_schema(
        operation_id="satellite",
        tags=["satellites"],
        responses=answers(200, SatelliteSerializer),
        summary="The satellite's seats, their value, the cash left over and where play stops (null: not one)",
    )
    def get(self, request, pk: int):
        return Response(satellite_answer(tournament_or_404(pk)))

    @extend_schema(
        operation_id="satellite_set",
        tags=["satellites"],
        request=SatelliteSettingsSerializer,
        responses=answers(200, SatelliteSerializer, refused=True, conflict=True),
        summary="Make the tournament a satellite of a target event, or change its settings",
    )
    def put(self, request, pk: int):
        t = tournament_or_404(pk)
        only_known(SatelliteSettingsSerializer, request.data, "Unknown satellite setting.")
        data = valid(SatelliteSettingsSerializer, request.data).validated_data
        call_service(tickets.set_satellite, t, actor=request.user, data=dict(data))
        return Response(satellite_answer(t))

    @extend_schema(
        operation_id="satellite_remove",
        tags=["satellites"],
        request=None,
        responses=answers(200, SatelliteSerializer, conflict=True),
        summary="The tournament is no longer a satellite (only while no ticket exists)",
    )
    def delete(self, request, pk: int):
        t = tournament_or_404(pk)
        call_service(tickets.remove_satellite, t, actor=request.user)
        return Response(satellite_answer(t))


class TicketsView(RoleAPIView):
    allowed = api_roles("api-tickets")

    @extend_schema(
        operation_id="tickets",
        tags=["satellites"],
        responses=answers(200, TicketSerializer(many=True)),
        summary="The tickets won in this satellite, void ones included, by number",
    )
    def get(self, request, pk: int):
        t = tournament_or_404(pk)
        rows = Ticket.objects.filter(satellite__tournament=t).select_related(*TICKET_ROWS).order_by("number")
        return Response(TicketSerializer(rows, many=True).data)


class TargetTicketsView(RoleAPIView):
    allowed = api_roles("api-target-tickets")

    @extend_schema(
        operation_id="tickets_for_target",
        tags=["satellites"],
        responses=answers(200, TicketSerializer(many=True)),
        summary="The tickets into this event from its satellites (issued and used), for the desk",
    )
    def get(self, request, pk: int):
        t = tournament_or_404(pk)
        rows = (
            Ticket.objects.filter(satellite__target=t)
            .exclude(status=Ticket.Status.VOID)
            .select_related(*TICKET_ROWS)
            .order_by("status", "holder__last_name", "holder__first_name", "pk")
        )
        return Response(TicketSerializer(rows, many=True).data)


def ticket_or_404(pk: int, number: int) -> Ticket:
    return get_object_or_404(Ticket.objects.select_related(*TICKET_ROWS), satellite__tournament_id=pk, number=number)


class TicketRegisterSerializer(serializers.Serializer):
    document_type = serializers.ChoiceField(
        choices=IdCheck.DocumentType.choices, error_messages={"required": ID_MISSING, "null": ID_MISSING, "blank": ID_MISSING}
    )
    document_number = serializers.CharField(
        write_only=True,
        max_length=64,
        error_messages={"required": ID_MISSING, "null": ID_MISSING, "blank": ID_MISSING},
        help_text=("Checked against the document in hand (the holder's). Never stored: only its last four characters."),
    )
    seen = serializers.BooleanField(
        help_text="Must be true: the document was checked in person (club rule 32).",
        error_messages={"required": ID_NOT_SEEN, "null": ID_NOT_SEEN},
    )

    def validate_seen(self, value: bool) -> bool:
        if value is not True:
            raise serializers.ValidationError(ID_NOT_SEEN)
        return value


class TicketRegisterView(RoleAPIView):
    allowed = api_roles("api-ticket-register")

    def touches(self):
        """The entry lands in the satellite's target: the desk of the target registers it (its register page lists
        the tickets into it), a member of the staff who works only the satellite does not."""
        target = Satellite.objects.filter(tournament_id=self.kwargs["pk"]).values_list("target_id", flat=True).first()
        return target if target is not None else self.kwargs["pk"]

    @extend_schema(
        operation_id="tickets_register",
        tags=["satellites"],
        request=TicketRegisterSerializer,
        responses=answers(201, RegistrationSerializer, refused=True, conflict=True),
        summary="Register the ticket's holder into the target event: his ID checked, no payment taken",
    )
    def post(self, request, pk: int, number: int):
        ticket = ticket_or_404(pk, number)
        data = valid(TicketRegisterSerializer, request.data).validated_data
        document = IdDocument(document_type=data["document_type"], number=data["document_number"])
        entry = call_service(tickets.register_with_ticket, ticket, actor=request.user, document=document)
        return Response(RegistrationSerializer(entry).data, status=status.HTTP_201_CREATED)


class TicketTransferSerializer(serializers.Serializer):
    player = serializers.PrimaryKeyRelatedField(queryset=Player.objects.all(), help_text="The player it passes to.")
    reason = serializers.CharField(max_length=300, error_messages={"required": NO_REASON, "blank": NO_REASON})


class TicketTransferView(RoleAPIView):
    allowed = api_roles("api-ticket-transfer")

    @extend_schema(
        operation_id="tickets_transfer",
        tags=["satellites"],
        request=TicketTransferSerializer,
        responses=answers(200, TicketSerializer, refused=True, conflict=True),
        summary="Pass a ticket not yet used to another player, where the house allows it (audited)",
    )
    def post(self, request, pk: int, number: int):
        ticket = ticket_or_404(pk, number)
        data = valid(TicketTransferSerializer, request.data).validated_data
        call_service(tickets.transfer_ticket, ticket, actor=request.user, player=data["player"], reason=data["reason"])
        return Response(TicketSerializer(ticket_or_404(pk, number)).data)
