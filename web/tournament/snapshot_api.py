"""JSON API reads of the live screens' snapshots: the floor's (every event's state, names included) and a lobby
screen's (its display link's secret in the path; the TV reads the names of the places with it). The screens read these
with the addresses their pages hand them (web/tournament/views.py); the sockets carry the rest (live/)."""

from __future__ import annotations

from django.utils.decorators import method_decorator
from django.utils.translation import gettext as _
from django.views.decorators.cache import never_cache
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import extend_schema
from rest_framework.exceptions import PermissionDenied
from rest_framework.permissions import AllowAny
from rest_framework.response import Response
from rest_framework.views import APIView

from live.snapshots import floor_answer, lobby_answer, lobby_names
from tournament.models import DisplayToken
from web.access import api as api_roles
from web.api import FORBIDDEN, REFUSED, RoleAPIView, answers, tournament_or_404


@method_decorator(never_cache, name="dispatch")
class FloorSnapshotView(RoleAPIView):
    allowed = api_roles("api-floor-snapshot")

    @extend_schema(
        operation_id="floor_snapshot",
        tags=["events"],
        responses=answers(200, OpenApiTypes.OBJECT),
        summary="The floor socket's snapshot (every figure, the clock, names): what a floor screen reads afresh",
    )
    def get(self, request, pk: int):
        return Response(floor_answer(tournament_or_404(pk)))


@method_decorator(never_cache, name="dispatch")
class LobbySnapshotView(APIView):
    """No login: the display link's secret in the path is the credential (the log masks it)."""

    authentication_classes: list = []
    permission_classes = [AllowAny]

    @extend_schema(
        operation_id="lobby_snapshot",
        tags=["displays"],
        auth=[],
        responses={200: OpenApiTypes.OBJECT, 400: REFUSED, 403: FORBIDDEN},
        summary="A lobby screen's snapshot with the names of its places (its display link's secret in the path)",
    )
    def get(self, request, token: str):
        display = DisplayToken.objects.select_related("tournament").for_link(token).first()
        if display is None:
            raise PermissionDenied(_("This display link is unknown or revoked."))
        return Response(lobby_names(display.tournament, lobby_answer(display.tournament)))
