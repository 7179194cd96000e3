"""JSON API of the desk's paper and roll printer (docs/printing.md): the venue's house setting (the paper, the printer's
address), and one press that prints a paper on the roll printer: a buy-in receipt, a payout or bounty receipt, a seat
ticket or a bag slip, each by its number, each for the roles of its page (core/access.py). The paper's words are its
page's (web/venues/printing.py); venues/services/printing.py sends them and records the print."""

from __future__ import annotations

from django.shortcuts import get_object_or_404
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _
from drf_spectacular.utils import OpenApiResponse, extend_schema, inline_serializer
from rest_framework import serializers
from rest_framework.exceptions import NotFound
from rest_framework.response import Response

from days.selectors import bags
from flights.selectors import day2
from payouts.models import BountyPayment, Payment
from tables.selectors import seat_cards
from tournament.models import Purchase, Tournament
from venues.models import Paper, Venue
from venues.services import printing as print_services
from web.access import api as api_roles
from web.api import RoleAPIView, answers, call_service, only_known, tournament_or_404, valid
from web.public_addresses import public_url
from web.refusal import ServiceErrorSerializer

from . import printing

ROLL_CHOICES = (Paper.ROLL_80.value, Paper.ROLL_58.value)


class PrintingSerializer(serializers.Serializer):
    paper = serializers.ChoiceField(choices=Paper.choices, required=False, help_text="What the desk prints on: a4, 80 or 58 (mm roll).")
    printer = serializers.CharField(
        max_length=255, required=False, allow_blank=True, help_text="The roll printer's host:port (9100 when left out); empty: none."
    )


class PrintSerializer(serializers.Serializer):
    roll = serializers.ChoiceField(
        choices=ROLL_CHOICES, required=False, help_text="The roll: 80 or 58 (mm). Left out: the house's (80 where the house prints on A4)."
    )


class SlipPrintSerializer(PrintSerializer):
    day = serializers.IntegerField(min_value=1, max_value=100, required=False, help_text="The day of the bag (the current one by default).")


PRINTED = inline_serializer(
    "Printed",
    {
        "paper": serializers.CharField(help_text="receipt, payout-receipt, bounty-receipt, seat-ticket or bag-slip"),
        "number": serializers.IntegerField(help_text="The receipt's number, or the entry's for a seat ticket or a bag slip."),
        "printer": serializers.CharField(),
        "roll": serializers.CharField(),
        "bytes": serializers.IntegerField(),
    },
)
PRINTING = inline_serializer("VenuePrinting", {"paper": serializers.CharField(), "printer": serializers.CharField()})
PRINTER_SILENT = OpenApiResponse(
    ServiceErrorSerializer, description="The printer did not take the paper (refused, no answer, offline): nothing was recorded."
)
PRINT_NOTE = (
    " 409: the room has no roll printer. 503: the printer refused, did not answer within its seconds or is offline: "
    "the message says so, nothing was recorded and the paper can be printed again."
)


class VenuePrintingView(RoleAPIView):
    allowed = api_roles("api-venue-printing")

    @extend_schema(
        operation_id="venues_printing",
        tags=["venues"],
        request=PrintingSerializer,
        summary="The desk's paper (A4, 80 or 58 mm roll) and the roll printer's address (host:port)",
        responses=answers(200, PRINTING, refused=True),
    )
    def patch(self, request, venue_id: int):
        venue = get_object_or_404(Venue, pk=venue_id)
        only_known(PrintingSerializer, request.data, "Not a setting of the paper or the printer.")
        data = valid(PrintingSerializer, request.data).validated_data
        venue = call_service(print_services.set_printing, venue, actor=request.user, paper=data.get("paper"), printer=data.get("printer"))
        return Response({"paper": venue.paper, "printer": venue.printer})


class PrintView(RoleAPIView):
    """One paper of the tournament on the room's roll printer, by its number."""

    paper = ""
    serializer = PrintSerializer

    def blocks(self, request, t: Tournament, number: int, data: dict) -> list[tuple]:
        """The paper's lines (web/venues/printing.py): each paper's view below says what it prints; this base prints none."""
        raise NotImplementedError(f"{type(self).__name__} names no paper to print")

    def print_it(self, request, pk: int, number: int) -> Response:
        t = tournament_or_404(pk)
        data = valid(self.serializer, request.data).validated_data
        with timezone.override(t.time_zone):
            blocks = self.blocks(request, t, number, data)
        printed = call_service(
            print_services.print_paper,
            t,
            actor=request.user,
            paper=self.paper,
            number=number,
            blocks=blocks,
            roll=data.get("roll"),
            day=data.get("day"),
        )
        return Response(printed)


def printed_schema(operation_id: str, summary: str, serializer=PrintSerializer):
    return extend_schema(
        operation_id=operation_id,
        tags=["printing"],
        request=serializer,
        summary=summary,
        description=summary + "." + PRINT_NOTE,
        responses={**answers(200, PRINTED, refused=True, conflict=True), 503: PRINTER_SILENT},
    )


class ReceiptPrintView(PrintView):
    allowed = api_roles("api-receipt-print")
    paper = "receipt"

    def blocks(self, request, t, number, data):
        purchase = get_object_or_404(
            Purchase.objects.select_related("entry__player", "created_by", "voided_by"), tournament=t, number=number
        )
        purchase.tournament = t
        return printing.receipt_blocks(purchase)

    @printed_schema("tournaments_receipt_print", "Print a buy-in receipt on the room's roll printer")
    def post(self, request, pk: int, number: int):
        return self.print_it(request, pk, number)


class PaymentPrintView(PrintView):
    allowed = api_roles("api-payment-print")
    paper = "payout-receipt"
    model = Payment

    def blocks(self, request, t, number, data):
        payment = get_object_or_404(
            self.model.objects.select_related("entry__player", "id_check", "paid_by", "voided_by"), tournament=t, number=number
        )
        payment.tournament = t
        return printing.cage_blocks(payment, bounty=self.model is BountyPayment)

    @printed_schema("tournaments_payment_print", "Print a payout receipt on the room's roll printer")
    def post(self, request, pk: int, number: int):
        return self.print_it(request, pk, number)


class BountyPaymentPrintView(PaymentPrintView):
    allowed = api_roles("api-bounty-payment-print")
    paper = "bounty-receipt"
    model = BountyPayment

    @printed_schema("tournaments_bounty_payment_print", "Print a bounty receipt on the room's roll printer")
    def post(self, request, pk: int, number: int):
        return self.print_it(request, pk, number)


class SeatTicketPrintView(PrintView):
    allowed = api_roles("api-seat-ticket-print")
    paper = "seat-ticket"

    def blocks(self, request, t, number, data):
        cards = seat_cards.seat_cards(
            t,
            entry_number=number,
            url=lambda n: public_url(request, reverse("seat-page", args=[t.pk, n])),
            stacks=day2.day_stacks(t),
        )
        if not cards:
            raise NotFound(_("Entry #%(number)s has no seat.") % {"number": number})
        return printing.seat_blocks(t, cards[0])

    @printed_schema("tournaments_seat_ticket_print", "Print an entry's seat ticket (table, seat, QR code of his seat page)")
    def post(self, request, pk: int, number: int):
        return self.print_it(request, pk, number)


class BagSlipPrintView(PrintView):
    allowed = api_roles("api-bag-slip-print")
    paper = "bag-slip"
    serializer = SlipPrintSerializer

    def blocks(self, request, t, number, data):
        day = data.get("day")
        rows = bags.bags_for_slips(t, entry=number, day=day) if day is None or day <= bags.current_day(t) else []
        if not rows:
            raise NotFound(_("Entry #%(number)s has no bag this day.") % {"number": number})
        return printing.slip_blocks(rows[0])

    @printed_schema("tournaments_bag_slip_print", "Print an entry's bag slip of a day on the room's roll printer", SlipPrintSerializer)
    def post(self, request, pk: int, number: int):
        return self.print_it(request, pk, number)
