"""JSON API reads of the table screens: a dealer tablet's state (a staff login at its table, or a table's dealer
link with its secret in the path) and the draws' line of the lobby TV (public). The floor map's read is
seating_api.FloorMapView, the player's seat seating_api.PublicSeatView. The screens read these with the addresses
their pages hand them (web/tables/views.py, web/tournament/views.py)."""

from __future__ import annotations

import time

from django.shortcuts import get_object_or_404
from django.utils.decorators import method_decorator
from django.utils.translation import gettext as _
from django.views.decorators.cache import never_cache
from drf_spectacular.utils import OpenApiParameter, extend_schema, inline_serializer
from rest_framework import serializers
from rest_framework.exceptions import PermissionDenied
from rest_framework.permissions import AllowAny
from rest_framework.response import Response
from rest_framework.views import APIView

from clock.selectors.clock import clock_snapshot
from tables.models import Draw, Table
from tables.selectors import screens
from tables.selectors import state as tables_selectors
from tables.services import dealer_links
from web import access
from web.access import api as api_roles
from web.api import FORBIDDEN, REFUSED, PublicAPIView, RoleAPIView, answers, public_answers, tournament_or_404
from web.caching import versioned

from .seating_api import CommitmentSerializer


def tablet_state(table: Table) -> dict:
    """The table's state for its tablet, with the clock's row of the race's break (`race.break_index`): the
    tablet folds a confirmed race to one line and drops it when the clock leaves the break, at once."""
    state = screens.table_state(table)
    state["clock_call"] = tables_selectors.clock_call_json(tables_selectors.open_clock_call(table))  # TDA 25: the countdown
    race = state.get("race")
    if race:
        positions = tables_selectors.structure_positions(table.tournament)
        level = race["color_up"]["level"]
        race["break_index"] = positions.index(level) if level in positions else None
    return state


def dealer_state(table: Table, ping: bool) -> dict:
    """What the dealer tablet reads (static/js/dealer/table.js); `?ping=1` only the server's time (its time sync)."""
    if ping:
        return {"server_time": time.time()}
    return {
        "server_time": time.time(),
        "table": tablet_state(table),
        "clock": tables_selectors.with_color_ups(table.tournament, clock_snapshot(table.tournament)),
    }


PING = OpenApiParameter(
    "ping",
    str,
    required=False,
    description="Any value: answer only `server_time` (the tablet's time sync; its service worker keeps no copy).",
)
DealerStateSerializer = inline_serializer(
    "DealerTabletState",
    {
        "server_time": serializers.FloatField(help_text="The server's time (seconds since the epoch)."),
        "table": serializers.DictField(required=False, help_text="The table as its tablet shows it; not with ?ping."),
        "clock": serializers.DictField(required=False, help_text="The clock, with the color-ups of its breaks; not with ?ping."),
    },
)


@method_decorator(never_cache, name="dispatch")
class TableStateView(RoleAPIView):
    """A Dealer login reads only the table its tablet is bound to (web/access.py)."""

    allowed = api_roles("api-table-state")

    @extend_schema(
        operation_id="tables_tablet_state",
        tags=["tables"],
        parameters=[PING],
        summary="A table's dealer tablet state: the table, its level, the clock (polled by the tablet)",
        responses=answers(200, DealerStateSerializer),
    )
    def get(self, request, pk: int, number: int):
        table = get_object_or_404(Table.objects.select_related("tournament"), tournament_id=pk, number=number)
        access.require_dealer_table(request, table)
        return Response(dealer_state(table, bool(request.query_params.get("ping"))))


@method_decorator(never_cache, name="dispatch")
class DealerLinkStateView(APIView):
    """The tablet of a table's dealer link: no login; the secret in the path is the credential (the log masks it)."""

    authentication_classes: list = []
    permission_classes = [AllowAny]

    @extend_schema(
        operation_id="dealer_link_state",
        tags=["tables"],
        auth=[],
        parameters=[PING],
        summary="The state of a dealer link's table, as its tablet reads it (the link's secret in the path)",
        responses={200: DealerStateSerializer, 400: REFUSED, 403: FORBIDDEN},
    )
    def get(self, request, token: str):
        link = dealer_links.link_for_token(token)
        if link is None:
            raise PermissionDenied(_("This dealer link is unknown or revoked. Ask the floor for a new one."))
        return Response(dealer_state(link.table, bool(request.query_params.get("ping"))))


LastDrawSerializer = inline_serializer(
    "LastDraw",
    {
        "draw": serializers.IntegerField(),
        "kind": serializers.CharField(),
        "commitment": serializers.CharField(),
        "seed": serializers.CharField(),
    },
    allow_null=True,
)


class PublicDrawsView(PublicAPIView):
    @extend_schema(
        operation_id="public_draws",
        tags=["public"],
        auth=[],
        summary="The next draw's commitment and the last revealed draw (public: the lobby TV shows them)",
        responses=public_answers(
            inline_serializer("PublicDraws", {"next_draw": CommitmentSerializer(allow_null=True), "last_draw": LastDrawSerializer})
        ),
    )
    @versioned
    def get(self, request, pk: int):
        tournament = tournament_or_404(pk)
        last = Draw.objects.filter(tournament=tournament, drawn_at__isnull=False).order_by("-number").first()
        return Response(
            {
                "next_draw": tables_selectors.pending_commitment(tournament),
                "last_draw": None
                if last is None
                else {"draw": last.number, "kind": last.kind, "commitment": last.commitment, "seed": last.seed},
            }
        )
