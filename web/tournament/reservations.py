"""Places reserved from the players' phones (tournament/services/reservations.py).

The players' side needs no account and no JavaScript: /t/<id>/reserve/ is a form that posts to itself and sends the
phone to its reservation's own page (/t/<id>/reservation/<code>/), which shows the number to give at the desk and
cancels it. The same from programs: POST /api/public/tournaments/<id>/reservations/ and GET/DELETE
/api/public/tournaments/<id>/reservations/<code>/. A phone is known by the public API's device cookie (web/api.py),
which the form's page sets too.

The desk: /t/<id>/reservations/ lists and finds them; claiming one is a registration (the ID checked, the buy-in
taken) through POST /api/tournaments/<id>/reservations/<number>/claim/, from the registration page."""

from __future__ import annotations

import secrets

from django.conf import settings
from django.http import Http404
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.decorators import method_decorator
from django.utils.translation import gettext as _
from django.views.decorators.debug import sensitive_post_parameters
from drf_spectacular.utils import PolymorphicProxySerializer, extend_schema, inline_serializer
from rest_framework import serializers, status
from rest_framework.response import Response

from core import access
from core.errors import ServiceError
from tournament.models import Reservation, Tournament, WaitingPlace
from tournament.selectors import reservations as sel
from tournament.selectors.waiting_list import sold_out
from tournament.services import reservations
from web.access import api as api_roles
from web.access import page
from web.api import (
    CONFLICT,
    DEVICE_COOKIE,
    NOT_FOUND,
    REFUSED,
    THROTTLED,
    PublicAPIView,
    RoleAPIView,
    answers,
    call_service,
    device_of,
    public_answers,
    tournament_or_404,
    valid,
)
from web.tournament.serializers import RegisterSerializer, RegistrationSerializer
from web.tournament.waiting_api import PlaceSerializer
from web.tournament.waiting_api import answer as waiting_answer

RESERVATION_FIELDS = {
    "number": serializers.IntegerField(help_text="The number to give at the desk (R-17)."),
    "name": serializers.CharField(),
    "state": serializers.ChoiceField(choices=Reservation.State.choices),
    "created_at": serializers.DateTimeField(),
    "expires_at": serializers.DateTimeField(help_text="When it expires unless the desk has claimed it."),
    "holds_place": serializers.BooleanField(
        help_text="Made while places were free, it holds one; made sold out, its claim puts him on the waiting list."
    ),
    "entry": serializers.IntegerField(allow_null=True, help_text="The entry the desk registered on it, once claimed."),
    "alternate": serializers.IntegerField(allow_null=True, help_text="His number on the waiting list, once claimed onto it."),
    "closed_at": serializers.DateTimeField(allow_null=True),
}
PublicReservationSerializer = inline_serializer("PublicReservation", RESERVATION_FIELDS)
MadeSerializer = inline_serializer(
    "ReservationMade",
    {
        **RESERVATION_FIELDS,
        "code": serializers.CharField(help_text="The secret of the player's link (shown once): it shows and cancels the reservation."),
        "link": serializers.CharField(help_text="The reservation's page for the player's phone."),
    },
)
STAFF_FIELDS = {**RESERVATION_FIELDS, "contact": serializers.CharField(), "close_reason": serializers.CharField()}
StaffReservationSerializer = inline_serializer("Reservation", STAFF_FIELDS)


class ReserveSerializer(serializers.Serializer):
    name = serializers.CharField(max_length=200, allow_blank=True, help_text="First and last name, as on the ID document.")
    contact = serializers.CharField(max_length=200, allow_blank=True, help_text="A phone number or an e-mail address.")


class QuerySerializer(serializers.Serializer):
    q = serializers.CharField(required=False, allow_blank=True, default="", max_length=100, help_text="A number (17, R-17) or a name.")


class ReservationCancelSerializer(serializers.Serializer):
    reason = serializers.CharField(max_length=300, help_text="Why the reservation is cancelled (the audit log keeps it).")


def _address(request) -> str:
    return request.META.get("REMOTE_ADDR", "")


def _link(request, t: Tournament, code: str) -> str:
    return request.build_absolute_uri(reverse("reservation", args=[t.pk, code]))


def _with_device(request, response):
    """The phone's cookie, set where the public API has not set it yet (the same cookie its throttle reads)."""
    if device_of(request) is None:
        response.set_cookie(
            DEVICE_COOKIE,
            getattr(request, "new_device", None) or secrets.token_urlsafe(16),
            max_age=365 * 24 * 3600,
            httponly=True,
            samesite="Lax",
            secure=settings.SESSION_COOKIE_SECURE,
        )
    return response


def _device(request) -> str:
    device = device_of(request)
    if device is None:  # a first post without the page's cookie: this one is its device from now on
        device = request.new_device = secrets.token_urlsafe(16)
    return device


def _public_tournament(pk: int) -> Tournament:
    t = Tournament.objects.filter(pk=pk).first()
    if t is None:
        raise Http404(_("No such tournament."))
    return t


@page("reserve", posts=True)
def reserve_page(request, pk: int):
    """The form; a post reserves and sends the phone to its reservation's page, or says why not and changes nothing."""
    t = _public_tournament(pk)
    error, values, code = None, {"name": "", "contact": ""}, 200
    if request.method == "POST":
        values = {"name": request.POST.get("name", "")[:200], "contact": request.POST.get("contact", "")[:200]}
        try:
            _reservation, secret = reservations.reserve(t, device=_device(request), address=_address(request), **values)
        except ServiceError as exc:
            error, code = exc.message, exc.status
        else:
            return _with_device(request, redirect("reservation", t.pk, secret))
    with timezone.override(t.time_zone):
        response = render(
            request,
            "tournament/reserve.html",
            {"t": t, "state": sel.state_words(t), "sold_out": sold_out(t), "error": error, "values": values},
            status=code,
        )
    return _with_device(request, response)


@page("reservation", posts=True)
def reservation_page(request, pk: int, code: str):
    """A player's own reservation: its number for the desk, its state, and a button that cancels it."""
    t = _public_tournament(pk)
    reservation = sel.by_code(t, code)
    if reservation is None:
        raise Http404(_("No such reservation. Check the link, or ask at the desk."))
    error = None
    if request.method == "POST":
        try:
            reservations.cancel_by_code(t, code=code)
        except ServiceError as exc:
            error = exc.message
        else:
            return redirect("reservation", t.pk, code)
    with timezone.override(t.time_zone):
        return render(
            request,
            "tournament/reservation.html",
            {"t": t, "r": reservation, "expires_at": sel.state_words(t)["expires_at"], "error": error},
            status=409 if error else 200,
        )


@page("reservations")
def reservations_page(request, pk: int):
    """The desk's list: held reservations first, found by number or name; each is claimed from the registration page."""
    t = get_object_or_404(Tournament, pk=pk)
    q = request.GET.get("q", "").strip()[:100]
    with timezone.override(t.time_zone):
        return render(
            request,
            "tournament/reservations.html",
            {
                "t": t,
                "q": q,
                "rows": sel.listing(t, q),
                "state": sel.state_words(t),
                # The floor hears every event on its socket; the cashier the public stream (types and figures, no names).
                "socket": f"/ws/t/{t.pk}/floor/" if access.may(request.user, "floor-socket", t.pk) else f"/ws/s/{t.pk}/",
            },
        )


# --- the public API --------------------------------------------------------------------------------


class PublicReserveView(PublicAPIView):
    @extend_schema(
        operation_id="public_reservations_create",
        tags=["reservations"],
        summary="Reserve a place from a phone (no account)",
        description="Where the house allows it, before the start: a name and a phone number or an e-mail address. "
        "Made while the tournament is sold out, it holds no place (`holds_place` false): its claim at the desk puts the "
        "player on the waiting list. Refused (409) when reservations are off or closed, the house's cap is reached or the "
        "contact holds one already; 429 past the number one phone (its device cookie) or one address may make.",
        request=ReserveSerializer,
        responses={201: MadeSerializer, 400: REFUSED, 404: NOT_FOUND, 409: CONFLICT, 429: THROTTLED},
    )
    def post(self, request, pk: int):
        t = tournament_or_404(pk)
        data = valid(ReserveSerializer, request.data).validated_data
        reservation, code = call_service(
            reservations.reserve, t, name=data["name"], contact=data["contact"], device=_device(request), address=_address(request)
        )
        body = {**sel.as_json(reservation, staff=False), "code": code, "link": _link(request, t, code)}
        return Response(body, status=status.HTTP_201_CREATED)


class PublicReservationView(PublicAPIView):
    @extend_schema(
        operation_id="public_reservations_retrieve",
        tags=["reservations"],
        summary="A player's own reservation, by the code of his link",
        responses=public_answers(PublicReservationSerializer),
    )
    def get(self, request, pk: int, code: str):
        t = tournament_or_404(pk)
        reservation = sel.by_code(t, code)
        if reservation is None:
            raise Http404(_("No such reservation."))
        return Response(sel.as_json(reservation, staff=False))

    @extend_schema(
        operation_id="public_reservations_cancel",
        tags=["reservations"],
        summary="The player cancels his reservation",
        responses={**public_answers(PublicReservationSerializer), 409: CONFLICT},
    )
    def delete(self, request, pk: int, code: str):
        t = tournament_or_404(pk)
        return Response(sel.as_json(call_service(reservations.cancel_by_code, t, code=code), staff=False))


# --- the desk's API --------------------------------------------------------------------------------


def reservation_or_404(pk: int, number: int) -> Reservation:
    return get_object_or_404(Reservation.objects.select_related("tournament", "entry"), tournament_id=pk, number=number)


class ReservationsView(RoleAPIView):
    allowed = api_roles("api-reservations")

    @extend_schema(
        operation_id="reservations_list",
        tags=["reservations"],
        summary="The places reserved from phones: held first, found by number or name",
        parameters=[QuerySerializer],
        responses=answers(200, inline_serializer("Reservations", STAFF_FIELDS, many=True)),
    )
    def get(self, request, pk: int):
        t = tournament_or_404(pk)
        q = valid(QuerySerializer, request.query_params).validated_data["q"]
        return Response([sel.as_json(r, staff=True) for r in sel.listing(t, q)])


@method_decorator(sensitive_post_parameters("document_number"), name="dispatch")
class ReservationClaimView(RoleAPIView):
    allowed = api_roles("api-reservation-claim")

    @extend_schema(
        operation_id="reservations_claim",
        tags=["reservations"],
        summary="Claim a reservation: register its player with the ID check and take the buy-in",
        description="As a registration (the same body and answer), on the place the reservation held: a tournament sold "
        "out since still takes him. A reservation made while the tournament was sold out holds no place: while it is "
        "still sold out, the claim puts the player on the waiting list (the answer is his place, as the waiting list's). "
        "Refused when the reservation is not held (claimed, expired, cancelled), or for anything registration refuses.",
        request=RegisterSerializer,
        responses=answers(
            201,
            PolymorphicProxySerializer(
                component_name="ReservationClaimed",
                serializers=[RegistrationSerializer, PlaceSerializer],
                resource_type_field_name=None,
            ),
            refused=True,
            conflict=True,
        ),
    )
    def post(self, request, pk: int, number: int):
        reservation = reservation_or_404(pk, number)
        done = valid(RegisterSerializer, request.data).registered(
            reservation, actor=request.user, known=reservations.claim, new=reservations.claim_new_player
        )
        if isinstance(done, WaitingPlace):  # made sold out, and still sold out: his place on the waiting list
            return waiting_answer(done, status.HTTP_201_CREATED)
        return Response(RegistrationSerializer(done).data, status=status.HTTP_201_CREATED)


class ReservationCancelView(RoleAPIView):
    allowed = api_roles("api-reservation-cancel")

    @extend_schema(
        operation_id="reservations_cancel",
        tags=["reservations"],
        summary="Cancel a held reservation: its place is free again",
        request=ReservationCancelSerializer,
        responses=answers(200, StaffReservationSerializer, refused=True, conflict=True),
    )
    def post(self, request, pk: int, number: int):
        reason = valid(ReservationCancelSerializer, request.data).validated_data["reason"]
        reservation = call_service(reservations.cancel, reservation_or_404(pk, number), actor=request.user, reason=reason)
        return Response(sel.as_json(reservation, staff=True))
