"""JSON API of the venue (venues/, tables/services/venue.py): the room's tables shared by every tournament in it.

The director sets the venue up (its tables one by one or from a room file, the order of its areas); the floor closes a
table, gives one to cash games, reserves one for a tournament or hands a free one to a tournament; everyone on the staff
reads the room map (staff who work some tournaments only read the names of those)."""

from __future__ import annotations

from django.shortcuts import get_object_or_404
from drf_spectacular.utils import OpenApiParameter, extend_schema, inline_serializer
from rest_framework import serializers, status
from rest_framework.response import Response

from tables.selectors.room_map import room_map
from tables.services import setup as table_setup
from venues.models import Venue, VenueTable
from venues.services import setup as venue_setup
from venues.services import sit_and_go
from web.access import api as api_roles
from web.api import RoleAPIView, answers, call_service, only_known, tournament_or_404, valid
from web.venues.views import tournaments_in

STATES = ("free", "held", "reserved", "out_of_service", "cash")


class VenueSerializer(serializers.ModelSerializer):
    tables = serializers.IntegerField(source="tables.count", read_only=True)

    class Meta:
        model = Venue
        fields = ("id", "name", "area_order", "fixed_tables", "tables")


class VenueCreateSerializer(serializers.Serializer):
    name = serializers.CharField(max_length=160)


class VenueSettingsSerializer(serializers.Serializer):
    areas = serializers.ListField(child=serializers.CharField(max_length=60), required=False, help_text="The areas, first to fill first.")
    fixed_tables = serializers.BooleanField(required=False, help_text="Only the venue's tables are opened (no table added by opening it).")


class RoomTableSerializer(serializers.Serializer):
    number = serializers.IntegerField()
    area = serializers.CharField()
    seats = serializers.IntegerField()
    state = serializers.ChoiceField(choices=STATES)
    tournament = serializers.IntegerField(allow_null=True, help_text="The tournament holding it (null: none, or one you do not work).")
    tournament_name = serializers.CharField()
    plays_seats = serializers.IntegerField(allow_null=True, help_text="The seats its tournament plays at it.")
    players = serializers.IntegerField()
    reserved_for = serializers.IntegerField(allow_null=True)
    reserved_for_name = serializers.CharField()
    reserved_from = serializers.DateTimeField(allow_null=True)
    reason = serializers.CharField()
    colour = serializers.IntegerField(allow_null=True, help_text="The tournament's colour on the screens (0 to 7), its name beside it.")


class RoomMapSerializer(serializers.Serializer):
    venue = VenueSerializer()
    tables = RoomTableSerializer(many=True)
    counts = serializers.DictField(child=serializers.IntegerField())
    tournaments = serializers.ListField(child=serializers.DictField())
    choices = serializers.ListField(
        child=serializers.DictField(),
        help_text="The venue's tournaments not over that you work ({id, name}): the room screen's filter and its floor's choice.",
    )


class TableSerializer(serializers.Serializer):
    number = serializers.IntegerField(min_value=1, max_value=999)
    seats = serializers.IntegerField(min_value=6, max_value=10)
    area = serializers.CharField(max_length=60, required=False, allow_blank=True, default="")


class TableChangeSerializer(serializers.Serializer):
    seats = serializers.IntegerField(min_value=6, max_value=10, required=False)
    area = serializers.CharField(max_length=60, required=False, allow_blank=True)


class StateSerializer(serializers.Serializer):
    state = serializers.ChoiceField(choices=VenueTable.Status.choices)
    reason = serializers.CharField(max_length=200, required=False, allow_blank=True, default="")


class ReservationSerializer(serializers.Serializer):
    tournament = serializers.IntegerField(min_value=1)
    reserved_from = serializers.DateTimeField(required=False, allow_null=True, default=None)
    reason = serializers.CharField(max_length=200, required=False, allow_blank=True, default="")


class HandSerializer(serializers.Serializer):
    tournament = serializers.IntegerField(min_value=1)


class ImportSerializer(serializers.Serializer):
    csv = serializers.CharField(max_length=200_000, help_text="The room file: number,area,seats[,state] (open, out_of_service or cash).")


def table_row(vt: VenueTable) -> dict:
    return {"number": vt.number, "area": vt.area, "seats": vt.seats, "state": vt.status, "reason": vt.note}


VENUE_TABLE = inline_serializer(
    "VenueTable",
    {
        "number": serializers.IntegerField(),
        "area": serializers.CharField(),
        "seats": serializers.IntegerField(),
        "state": serializers.CharField(),
        "reason": serializers.CharField(),
    },
)


class VenuesView(RoleAPIView):
    allowed = api_roles("api-venues")

    @extend_schema(
        operation_id="venues_list", tags=["venues"], summary="The venues (rooms)", responses=answers(200, VenueSerializer(many=True))
    )
    def get(self, request):
        venue_setup.default_venue()  # a deployment has one from the start
        return Response(VenueSerializer(Venue.objects.order_by("id"), many=True).data)

    @extend_schema(
        operation_id="venues_create",
        tags=["venues"],
        request=VenueCreateSerializer,
        summary="Another venue (a deployment with several rooms)",
        responses=answers(201, VenueSerializer, refused=True, conflict=True),
    )
    def post(self, request):
        name = valid(VenueCreateSerializer, request.data).validated_data["name"]
        venue = call_service(venue_setup.create_venue, actor=request.user, name=name)
        return Response(VenueSerializer(venue).data, status=status.HTTP_201_CREATED)


class VenueView(RoleAPIView):
    allowed = api_roles("api-venue")

    @extend_schema(
        operation_id="venues_room_map",
        tags=["venues"],
        parameters=[OpenApiParameter("tournament", int, description="Only the tables this tournament holds or reserved.")],
        summary="The room map: every table of the venue by area, its state and the tournament holding or reserving it",
        responses=answers(200, RoomMapSerializer),
    )
    def get(self, request, venue_id: int):
        venue = get_object_or_404(Venue, pk=venue_id)
        try:
            only = int(request.query_params["tournament"]) if request.query_params.get("tournament") else None
        except ValueError:
            only = -1  # no tournament has it: an empty map, not an error
        choices = [{"id": t.pk, "name": t.name} for t in tournaments_in(venue, request.user)]
        return Response({**room_map(venue, user=request.user, tournament=only), "choices": choices})

    @extend_schema(
        operation_id="venues_settings",
        tags=["venues"],
        request=VenueSettingsSerializer,
        summary="The order of the venue's areas, and whether its set of tables is fixed",
        responses=answers(200, VenueSerializer, refused=True),
    )
    def patch(self, request, venue_id: int):
        venue = get_object_or_404(Venue, pk=venue_id)
        only_known(VenueSettingsSerializer, request.data, "Not a setting of the venue.")
        data = valid(VenueSettingsSerializer, request.data).validated_data
        venue = call_service(
            venue_setup.set_areas,
            venue,
            actor=request.user,
            areas=data.get("areas", venue.area_order),
            fixed_tables=data.get("fixed_tables"),
        )
        return Response(VenueSerializer(venue).data)


class VenueTablesView(RoleAPIView):
    allowed = api_roles("api-venue-tables")

    @extend_schema(
        operation_id="venues_table_add",
        tags=["venues"],
        request=TableSerializer,
        summary="Add a table to the venue",
        responses=answers(201, VENUE_TABLE, refused=True, conflict=True),
    )
    def post(self, request, venue_id: int):
        venue = get_object_or_404(Venue, pk=venue_id)
        data = valid(TableSerializer, request.data).validated_data
        vt = call_service(venue_setup.add_table, venue, actor=request.user, **data)
        return Response(table_row(vt), status=status.HTTP_201_CREATED)


class VenueTableView(RoleAPIView):
    allowed = api_roles("api-venue-table")

    @extend_schema(
        operation_id="venues_table_change",
        tags=["venues"],
        request=TableChangeSerializer,
        summary="A venue table's seats or area (a table in play keeps the seats its tournament plays)",
        responses=answers(200, VENUE_TABLE, refused=True, conflict=True),
    )
    def patch(self, request, venue_id: int, number: int):
        venue = get_object_or_404(Venue, pk=venue_id)
        only_known(TableChangeSerializer, request.data, "Not a setting of a venue table.")
        data = valid(TableChangeSerializer, request.data).validated_data
        vt = call_service(venue_setup.change_table, venue, actor=request.user, number=number, **data)
        return Response(table_row(vt))

    @extend_schema(
        operation_id="venues_table_remove",
        tags=["venues"],
        summary="Remove a table from the venue (never one in play or reserved)",
        responses=answers(204, None, conflict=True),
    )
    def delete(self, request, venue_id: int, number: int):
        venue = get_object_or_404(Venue, pk=venue_id)
        call_service(venue_setup.remove_table, venue, actor=request.user, number=number)
        return Response(status=status.HTTP_204_NO_CONTENT)


class VenueTableStateView(RoleAPIView):
    allowed = api_roles("api-venue-table-state")

    @extend_schema(
        operation_id="venues_table_state",
        tags=["venues"],
        request=StateSerializer,
        summary="Close a table (out of service), give it to cash games, or open it again; with a reason",
        responses=answers(200, VENUE_TABLE, refused=True, conflict=True),
    )
    def post(self, request, venue_id: int, number: int):
        venue = get_object_or_404(Venue, pk=venue_id)
        data = valid(StateSerializer, request.data).validated_data
        vt = call_service(venue_setup.set_state, venue, actor=request.user, number=number, status=data["state"], reason=data["reason"])
        return Response(table_row(vt))


class ForTournamentInBody(RoleAPIView):
    """An action for the tournament its body names: staff who work some tournaments only act for theirs."""

    def touches(self):
        return self.request.data.get("tournament") if self.request.method == "POST" and isinstance(self.request.data, dict) else None


class VenueTableReservationView(ForTournamentInBody):
    allowed = api_roles("api-venue-table-reservation")

    @extend_schema(
        operation_id="venues_table_reserve",
        tags=["venues"],
        request=ReservationSerializer,
        summary="Reserve a table for a tournament (no other takes it while the reservation stands)",
        responses=answers(200, VENUE_TABLE, refused=True, conflict=True),
    )
    def post(self, request, venue_id: int, number: int):
        venue = get_object_or_404(Venue, pk=venue_id)
        data = valid(ReservationSerializer, request.data).validated_data
        t = tournament_or_404(data["tournament"])
        vt = call_service(
            venue_setup.reserve, venue, actor=request.user, number=number, tournament=t, at=data["reserved_from"], reason=data["reason"]
        )
        return Response(table_row(vt))

    @extend_schema(
        operation_id="venues_table_reservation_cancel",
        tags=["venues"],
        summary="Cancel a table's reservation",
        responses=answers(200, VENUE_TABLE, conflict=True),
    )
    def delete(self, request, venue_id: int, number: int):
        venue = get_object_or_404(Venue, pk=venue_id)
        vt = call_service(venue_setup.reserve, venue, actor=request.user, number=number, tournament=None)
        return Response(table_row(vt))


class VenueTableHandView(ForTournamentInBody):
    allowed = api_roles("api-venue-table-hand")

    @extend_schema(
        operation_id="venues_table_hand",
        tags=["venues"],
        request=HandSerializer,
        summary="Hand a free table to a tournament: it comes into play there",
        responses=answers(
            201,
            inline_serializer(
                "HandedTable",
                {"tournament": serializers.IntegerField(), "table": serializers.IntegerField(), "seats": serializers.IntegerField()},
            ),
            refused=True,
            conflict=True,
        ),
    )
    def post(self, request, venue_id: int, number: int):
        venue = get_object_or_404(Venue, pk=venue_id)
        t = tournament_or_404(valid(HandSerializer, request.data).validated_data["tournament"])
        table = call_service(table_setup.hand_table, t, actor=request.user, number=number, room=venue)
        return Response({"tournament": t.pk, "table": table.number, "seats": table.seats}, status=status.HTTP_201_CREATED)


class VenueTournamentsView(ForTournamentInBody):
    allowed = api_roles("api-venue-tournaments")

    @extend_schema(
        operation_id="venues_tournament_add",
        tags=["venues"],
        request=HandSerializer,
        summary="A tournament takes its tables from this venue (before it opens any)",
        responses=answers(
            200,
            inline_serializer("TournamentRoom", {"tournament": serializers.IntegerField(), "venue": serializers.IntegerField()}),
            refused=True,
            conflict=True,
        ),
    )
    def post(self, request, venue_id: int):
        venue = get_object_or_404(Venue, pk=venue_id)
        t = tournament_or_404(valid(HandSerializer, request.data).validated_data["tournament"])
        t = call_service(venue_setup.set_room, venue, actor=request.user, tournament=t)
        return Response({"tournament": t.pk, "venue": venue.pk})


class SitAndGoSerializer(serializers.Serializer):
    players = serializers.IntegerField(min_value=2, max_value=10, help_text="It starts when this many players are registered.")
    opens_next = serializers.BooleanField(required=False, default=False, help_text="The next of its series opens when it fills.")


class SitAndGoView(RoleAPIView):
    allowed = api_roles("api-sit-and-go")

    @extend_schema(
        operation_id="tournaments_sit_and_go",
        tags=["venues"],
        request=SitAndGoSerializer,
        summary="Make a tournament being set up a sit & go: it starts at a free table when its seats are filled",
        responses=answers(200, SitAndGoSerializer, refused=True, conflict=True),
    )
    def post(self, request, pk: int):
        data = valid(SitAndGoSerializer, request.data).validated_data
        sng = call_service(sit_and_go.set_sit_and_go, tournament_or_404(pk), actor=request.user, **data)
        return Response({"players": sng.players, "opens_next": sng.opens_next})


class VenueImportView(RoleAPIView):
    allowed = api_roles("api-venue-import")

    @extend_schema(
        operation_id="venues_import",
        tags=["venues"],
        request=ImportSerializer,
        summary="Set the venue up from a room file (CSV): each line adds a table or changes one; one wrong line changes nothing",
        responses=answers(
            200,
            inline_serializer(
                "RoomImported",
                {"tables": serializers.IntegerField(), "added": serializers.IntegerField(), "changed": serializers.IntegerField()},
            ),
            refused=True,
            conflict=True,
        ),
    )
    def post(self, request, venue_id: int):
        venue = get_object_or_404(Venue, pk=venue_id)
        text = valid(ImportSerializer, request.data).validated_data["csv"]
        return Response(call_service(venue_setup.import_room, venue, actor=request.user, text=text))
