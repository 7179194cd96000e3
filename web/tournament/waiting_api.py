"""JSON API of a sold-out tournament's waiting list (tournament/services/waiting_list.py): where it stands and the list,
a player joining it with his ID checked, and the desk and the floor seating, passing over and taking off alternates."""

from __future__ import annotations

from django.shortcuts import get_object_or_404
from django.utils.decorators import method_decorator
from django.views.decorators.debug import sensitive_post_parameters
from drf_spectacular.utils import extend_schema, inline_serializer
from rest_framework import serializers, status
from rest_framework.response import Response

from tournament.models import WaitingPlace
from tournament.selectors import waiting_list as sel
from tournament.services import waiting_list
from web.access import api as api_roles
from web.api import RoleAPIView, answers, call_service, tournament_or_404, valid
from web.tournament.serializers import RegisterSerializer

CapacitySerializer = inline_serializer(
    "Capacity",
    {
        "max_entries": serializers.IntegerField(allow_null=True, help_text="The house's maximum entries; null: none."),
        "seats": serializers.IntegerField(
            allow_null=True, help_text="The seats the tournament may fill now (its tables and the room's free ones); null: no limit."
        ),
        "entries": serializers.IntegerField(),
        "in_play": serializers.IntegerField(),
        "waiting": serializers.IntegerField(help_text="Places waiting on the list."),
        "offered": serializers.IntegerField(help_text="Alternates offered a seat who have not sat down yet."),
        "full": serializers.BooleanField(),
        "sold_out": serializers.BooleanField(help_text="A new player joins the waiting list: full, or players are waiting."),
    },
)

PLACE_FIELDS = {
    "number": serializers.IntegerField(help_text="The alternate's number: the list's order."),
    "player": serializers.IntegerField(),
    "name": serializers.CharField(),
    "reentry": serializers.BooleanField(),
    "state": serializers.ChoiceField(choices=WaitingPlace.State.choices),
    "position": serializers.IntegerField(allow_null=True, help_text="1: the next to be offered a seat; null once offered."),
    "paid": serializers.IntegerField(help_text="The buy-in taken when he joined (minor units); 0 when taken at his seat."),
    "refund": serializers.IntegerField(allow_null=True),
    "entry": serializers.IntegerField(allow_null=True, help_text="His entry, once offered a seat."),
    "created_at": serializers.DateTimeField(),
    "offered_at": serializers.DateTimeField(allow_null=True),
    "closed_at": serializers.DateTimeField(allow_null=True),
    "close_reason": serializers.CharField(),
}
PlaceSerializer = inline_serializer("WaitingPlace", PLACE_FIELDS)

ListSerializer = inline_serializer(
    "WaitingList", {"capacity": CapacitySerializer, "places": inline_serializer("WaitingPlaces", PLACE_FIELDS, many=True)}
)


class CancelSerializer(serializers.Serializer):
    reason = serializers.CharField(max_length=300, help_text="Why the place leaves the list (the audit log keeps it).")


class OfferSerializer(serializers.Serializer):
    count = serializers.IntegerField(min_value=1, max_value=100, default=1, help_text="How many of the next alternates to seat.")


def place_or_404(pk: int, number: int) -> WaitingPlace:
    return get_object_or_404(WaitingPlace.objects.select_related("player", "entry"), tournament_id=pk, number=number)


def answer(place: WaitingPlace, code: int = status.HTTP_200_OK) -> Response:
    place.refresh_from_db()
    return Response(sel.place_json(place, position=sel.position_of(place)), status=code)


@method_decorator(sensitive_post_parameters("document_number"), name="dispatch")
class WaitingListView(RoleAPIView):
    allowed = api_roles("api-waiting-list")

    @extend_schema(
        operation_id="waiting_list_retrieve",
        tags=["waiting list"],
        summary="Where the tournament stands (sold out?) and its waiting list in order",
        responses=answers(200, ListSerializer),
    )
    def get(self, request, pk: int):
        t = tournament_or_404(pk)
        return Response({"capacity": sel.capacity(t), "places": sel.listing(t)})

    @extend_schema(
        operation_id="waiting_list_join",
        tags=["waiting list"],
        summary="Put a player on the waiting list, with the ID check",
        description="As a registration (the same body): the document checked and hashed, a known player or a new one. "
        "Refused while the tournament has seats (register him), while he holds a place already, or for anything "
        "registration refuses. The buy-in is taken now or at his seat, as the house sets.",
        request=RegisterSerializer,
        responses=answers(201, PlaceSerializer, refused=True, conflict=True),
    )
    def post(self, request, pk: int):
        t = tournament_or_404(pk)
        place = valid(RegisterSerializer, request.data).registered(
            t, actor=request.user, known=waiting_list.join, new=waiting_list.join_new_player
        )
        return answer(place, status.HTTP_201_CREATED)


class WaitingOfferView(RoleAPIView):
    allowed = api_roles("api-waiting-offer")

    @extend_schema(
        operation_id="waiting_list_offer",
        tags=["waiting list"],
        summary="Seat the next alternates by hand (the late-entry draw)",
        request=OfferSerializer,
        responses=answers(200, inline_serializer("WaitingPlacesOffered", PLACE_FIELDS, many=True), refused=True, conflict=True),
    )
    def post(self, request, pk: int):
        t = tournament_or_404(pk)
        count = valid(OfferSerializer, request.data).validated_data["count"]
        offered = call_service(waiting_list.offer_next, t, actor=request.user, count=count)
        return Response([sel.place_json(p) for p in offered])


class WaitingSeatView(RoleAPIView):
    allowed = api_roles("api-waiting-seat")

    @extend_schema(
        operation_id="waiting_list_seat",
        tags=["waiting list"],
        summary="The alternate sat down (and paid, where the house takes the buy-in at the seat)",
        request=None,
        responses=answers(200, PlaceSerializer, refused=True, conflict=True),
    )
    def post(self, request, pk: int, number: int):
        return answer(call_service(waiting_list.seat, place_or_404(pk, number), actor=request.user))


class WaitingPassView(RoleAPIView):
    allowed = api_roles("api-waiting-pass")

    @extend_schema(
        operation_id="waiting_list_pass",
        tags=["waiting list"],
        summary="Pass over an alternate who did not come: his seat goes to the next",
        request=None,
        responses=answers(200, PlaceSerializer, refused=True, conflict=True),
    )
    def post(self, request, pk: int, number: int):
        return answer(call_service(waiting_list.pass_over_now, place_or_404(pk, number), actor=request.user))


class WaitingCancelView(RoleAPIView):
    allowed = api_roles("api-waiting-cancel")

    @extend_schema(
        operation_id="waiting_list_cancel",
        tags=["waiting list"],
        summary="Take a place off the list, its money given back",
        request=CancelSerializer,
        responses=answers(200, PlaceSerializer, refused=True, conflict=True),
    )
    def post(self, request, pk: int, number: int):
        reason = valid(CancelSerializer, request.data).validated_data["reason"]
        return answer(call_service(waiting_list.cancel, place_or_404(pk, number), actor=request.user, reason=reason))
