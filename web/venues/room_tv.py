"""The room TV (/display/room/<secret>/): one screen for the whole room, every tournament running in the venue with its
level, time left, blinds, players left, average stack and the state of its registration, in a grid as the screen's size
allows (turning pages when they do not all fit), and today's schedule; live over its socket (live/consumers.py
RoomDisplayConsumer). Its link is a secret the director makes on the room screen (or in the API) and may revoke, as a
lobby TV's is: no login, no player's name on it. Also the JSON API of those links and of the TV's snapshot."""

from __future__ import annotations

from django.shortcuts import get_object_or_404, render
from django.urls import reverse
from django.utils.decorators import method_decorator
from django.utils.translation import gettext as _
from django.views.decorators.cache import never_cache
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import extend_schema
from rest_framework import status
from rest_framework.exceptions import PermissionDenied
from rest_framework.permissions import AllowAny
from rest_framework.response import Response
from rest_framework.views import APIView

from live.snapshots import room_tv_answer
from venues.models import Venue, VenueDisplay
from venues.services import displays
from web.access import api as api_roles
from web.access import page
from web.api import FORBIDDEN, REFUSED, RoleAPIView, answers, call_service, valid
from web.public_addresses import public_url, qr_svg, shown_url
from web.tournament.serializers import DisplayCreateSerializer, DisplayTokenSerializer


class RoomDisplaySerializer(DisplayTokenSerializer):
    """A room TV's link: as a lobby TV's, its secret and address in the answer that makes it only."""

    page = "room-display"

    class Meta(DisplayTokenSerializer.Meta):
        model = VenueDisplay


def _display(token: str) -> VenueDisplay:
    return get_object_or_404(VenueDisplay.objects.select_related("venue").for_link(token))


@never_cache
@page("room-display")
def room_display(request, token: str):
    display = _display(token)
    today = public_url(request, reverse("today"))
    return render(
        request,
        "venues/room_tv.html",
        {
            "venue": display.venue,
            "snapshot": room_tv_answer(display.venue),
            "today": shown_url(today),
            "today_qr": qr_svg(today),
            "config": {"socket": f"/ws/display/room/{token}/"},
        },
    )


class VenueDisplaysView(RoleAPIView):
    """The links are kept hashed: the creation answer carries the new link once; a list shows prefixes only."""

    allowed = api_roles("api-venue-displays")
    idempotency_redact = ("token", "url")  # a replayed creation answer has no link: the server does not keep it

    @extend_schema(operation_id="venues_displays_list", tags=["venues"], responses=answers(200, RoomDisplaySerializer(many=True)))
    def get(self, request, venue_id: int):
        links = get_object_or_404(Venue, pk=venue_id).displays.order_by("-created_at", "-id")
        return Response(RoomDisplaySerializer(links, many=True, context={"request": request}).data)

    @extend_schema(
        operation_id="venues_displays_create",
        tags=["venues"],
        summary="A link for a room TV: every tournament running in the venue, and today's schedule",
        request=DisplayCreateSerializer,
        responses=answers(201, RoomDisplaySerializer, refused=True),
    )
    def post(self, request, venue_id: int):
        venue = get_object_or_404(Venue, pk=venue_id)
        label = valid(DisplayCreateSerializer, request.data).validated_data["label"]
        link = call_service(displays.create_display, venue, actor=request.user, label=label)
        return Response(RoomDisplaySerializer(link, context={"request": request}).data, status=status.HTTP_201_CREATED)


class VenueDisplayRevokeView(RoleAPIView):
    allowed = api_roles("api-venue-display-revoke")
    idempotency_redact = ("token", "url")

    @extend_schema(
        operation_id="venues_displays_revoke",
        tags=["venues"],
        summary="Revoke a room TV's link; the screen goes blank",
        request=None,
        responses=answers(200, RoomDisplaySerializer, conflict=True),
    )
    def post(self, request, venue_id: int, display_id: int):
        link = get_object_or_404(VenueDisplay.objects.select_related("venue"), venue_id=venue_id, pk=display_id)
        link = call_service(displays.revoke_display, link, actor=request.user)
        return Response(RoomDisplaySerializer(link, context={"request": request}).data)


@method_decorator(never_cache, name="dispatch")
class RoomDisplaySnapshotView(APIView):
    """No login: the room TV link's secret in the path is the credential (the log masks it)."""

    authentication_classes: list = []
    permission_classes = [AllowAny]

    @extend_schema(
        operation_id="room_display_snapshot",
        tags=["venues"],
        auth=[],
        responses={200: OpenApiTypes.OBJECT, 400: REFUSED, 403: FORBIDDEN},
        summary="A room TV's snapshot: every tournament running in the venue, today's schedule (its link's secret in the path)",
    )
    def get(self, request, token: str):
        display = VenueDisplay.objects.select_related("venue").for_link(token).first()
        if display is None:
            raise PermissionDenied(_("This display link is unknown or revoked."))
        return Response(room_tv_answer(display.venue))
