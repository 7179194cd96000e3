"""JSON API of the end of a day (days/services/bags.py, days/selectors/bags.py): a table's tablet (its
dealer, the floor, the director) reads and enters the whole table's bags at once; the floor bags one seated player
(or corrects his bag), reads where the day stands and its report sorted by stack; the director closes the day, and
redraws the next day's seating before play resumes (days/services/redraw.py)."""

from __future__ import annotations

from django.shortcuts import get_object_or_404
from django.utils.translation import gettext as _
from drf_spectacular.utils import OpenApiParameter, extend_schema, inline_serializer
from rest_framework import serializers, status
from rest_framework.exceptions import NotFound
from rest_framework.response import Response

from days.selectors import bags as days_selectors
from days.services import bags as days_services
from days.services import redraw
from tables.models import Table
from tables.rules.chip_counts import MAX_CHIPS
from web.access import AtTheTable
from web.access import api as api_roles
from web.api import RoleAPIView, answers, call_service, entry_or_404, tournament_or_404, valid

# Any whole number is taken, so a bag of no chips or fewer is refused by the service with its seat named (a 400
# with a message), never as a bare field error; a count beyond the column's range is refused here. The bag number
# too: the service says what is wrong with it, at which seat.
CHIPS = serializers.IntegerField(min_value=-MAX_CHIPS, max_value=MAX_CHIPS)
BAG = serializers.CharField(
    max_length=64,
    allow_blank=True,
    trim_whitespace=False,
    help_text=("The bag number: letters, digits and '-', 1 to 16 once spaces are dropped (stored upper-cased)."),
)
# Text, not an enum: a second choice set named "status" in the schema would collide with the others' (drf-spectacular).
STATUS = serializers.CharField(help_text="The day: playing or closed.")

TableBagsSerializer = inline_serializer(
    "TableBags",
    {
        "table": serializers.IntegerField(),
        "day": serializers.IntegerField(),
        "status": STATUS,
        "big_blind": serializers.IntegerField(),
        "bagged": serializers.IntegerField(help_text="Players bagged today at this table."),
        "total": serializers.IntegerField(help_text="Their bags' chips, added."),
        "players": serializers.ListField(
            child=serializers.JSONField(),
            help_text=(
                "Each seated player: seat, entry, name, chips and bag (today's bag; null: not bagged), bagged_at, bagged_by, "
                "last_count (his current chip count, the pad's starting value; null: never counted), counted_at."
            ),
        ),
    },
)

BagSerializer = inline_serializer(
    "BagRecorded",
    {
        "day": serializers.IntegerField(),
        "entry": serializers.IntegerField(),
        "chips": serializers.IntegerField(),
        "bag": serializers.CharField(),
        "table": serializers.IntegerField(),
        "seat": serializers.IntegerField(),
        "bagged_at": serializers.DateTimeField(),
        "bagged_by": serializers.CharField(),
    },
)

ClosedDaySerializer = inline_serializer(
    "ClosedDay",
    {
        "day": serializers.IntegerField(),
        "closed_at": serializers.DateTimeField(),
        "closed_by": serializers.CharField(),
        "reason": serializers.CharField(allow_blank=True),
        "missing": serializers.ListField(child=serializers.IntegerField(), help_text="Entries still in with no bag."),
        "bags": serializers.IntegerField(),
        "total": serializers.IntegerField(help_text="The bags' chips, added."),
        "chips_in_play": serializers.IntegerField(),
        "difference": serializers.IntegerField(allow_null=True, help_text="total - chips_in_play at the close."),
    },
)

DayStateSerializer = inline_serializer(
    "DayState",
    {
        "day": serializers.IntegerField(help_text="The day being played."),
        "status": STATUS,
        "players_left": serializers.IntegerField(),
        "bagged": serializers.IntegerField(),
        "missing": serializers.ListField(
            child=serializers.JSONField(), help_text=("Each player still in with no bag today: table, seat (null: no seat), entry, name.")
        ),
        "missing_tables": serializers.ListField(
            child=serializers.JSONField(),
            help_text=("The seats missing by table: table, seats (table null: the entry numbers of players with no seat)."),
        ),
        "bags": serializers.IntegerField(),
        "total": serializers.IntegerField(help_text="The bags' chips, added."),
        "chips_in_play": serializers.IntegerField(),
        "difference": serializers.IntegerField(
            allow_null=True, help_text=("total - chips_in_play once every player still in is bagged; null before.")
        ),
        "off_by": serializers.IntegerField(help_text="total - chips_in_play, whoever is bagged."),
        "clock_running": serializers.BooleanField(),
        "can_close": serializers.BooleanField(help_text="The day may be closed now (with a reason when needs_reason)."),
        "needs_reason": serializers.BooleanField(help_text="Bags are missing or do not add up: closing needs a reason."),
        "days": serializers.ListField(child=serializers.JSONField(), help_text="Every closed day, as ClosedDay."),
    },
)

DayReportSerializer = inline_serializer(
    "DayReport",
    {
        "day": serializers.IntegerField(),
        "status": STATUS,
        "closed": serializers.JSONField(allow_null=True, help_text="The close (as ClosedDay), null while playing."),
        "big_blind": serializers.IntegerField(help_text="At the close, or now while the day is played."),
        "players": serializers.IntegerField(help_text="Players bagged."),
        "total": serializers.IntegerField(),
        "chips_in_play": serializers.IntegerField(),
        "difference": serializers.IntegerField(allow_null=True),
        "rows": serializers.ListField(
            child=serializers.JSONField(),
            help_text=(
                "The largest stack first (ties by entry number): rank (equal stacks share one), entry, name, table, seat, "
                "bag, chips, big_blinds, bagged_at, bagged_by."
            ),
        ),
    },
)


class SeatBagSerializer(serializers.Serializer):
    seat = serializers.IntegerField(min_value=1, max_value=10)
    chips = CHIPS
    bag = BAG


class RecordTableBagsSerializer(serializers.Serializer):
    bags = serializers.ListField(
        child=SeatBagSerializer(),
        allow_empty=False,
        max_length=10,
        help_text=("Every seated player's bag, at once: seat, chips, bag number."),
    )

    def validate_bags(self, bags):
        seats = [row["seat"] for row in bags]
        twice = sorted({seat for seat in seats if seats.count(seat) > 1})
        if twice:
            raise serializers.ValidationError(_("Seat %(seat)s is given twice.") % {"seat": twice[0]})
        return bags


class RecordBagSerializer(serializers.Serializer):
    chips = CHIPS
    bag = BAG


class CloseDaySerializer(serializers.Serializer):
    reason = serializers.CharField(
        required=False,
        allow_blank=True,
        default="",
        help_text=("Why the day closes with bags missing or not adding up to the chips in play (required then)."),
    )


class RedrawDaySerializer(serializers.Serializer):
    tables = serializers.ListField(
        child=serializers.IntegerField(min_value=1, max_value=999),
        required=False,
        allow_empty=False,
        max_length=999,
        help_text=(
            "The tables to seat the day at, each open and in play; left out: the fewest "
            "tables in play that seat everyone, those that break last first."
        ),
    )


DayRedrawnSerializer = inline_serializer(
    "DayRedrawn",
    {
        "day": serializers.IntegerField(),
        "draw": serializers.IntegerField(help_text="The redraw's number (public check)."),
        "commitment": serializers.CharField(),
        "seed": serializers.CharField(help_text="Revealed with the result."),
        "seated": serializers.IntegerField(),
        "tables": serializers.ListField(child=serializers.IntegerField()),
    },
)


class ReportQuerySerializer(serializers.Serializer):
    day = serializers.IntegerField(required=False, min_value=1, max_value=1000)


def _table(pk: int, number: int) -> Table:
    return get_object_or_404(Table, tournament_id=pk, number=number)


class DayView(RoleAPIView):
    allowed = api_roles("api-day")

    @extend_schema(
        operation_id="day",
        tags=["days"],
        responses=answers(200, DayStateSerializer),
        summary="Where the day stands: players still in, bags missing by table, the bags against the chips in play",
    )
    def get(self, request, pk: int):
        return Response(days_selectors.day_state(tournament_or_404(pk)))


class TableBagsView(AtTheTable, RoleAPIView):
    allowed = api_roles("api-table-bags")

    @extend_schema(
        operation_id="tables_bags",
        tags=["days"],
        responses=answers(200, TableBagsSerializer),
        summary="This table's players, today's bags and their last counts",
    )
    def get(self, request, pk: int, number: int):
        return Response(days_selectors.table_bags(_table(pk, number)))

    @extend_schema(
        operation_id="tables_bags_record",
        tags=["days"],
        request=RecordTableBagsSerializer,
        summary="Bag-and-tag: every seated player's chips and bag number at this table, at once",
        responses=answers(201, TableBagsSerializer, refused=True, conflict=True),
    )
    def post(self, request, pk: int, number: int):
        table = _table(pk, number)
        rows = valid(RecordTableBagsSerializer, request.data).validated_data["bags"]
        call_service(
            days_services.record_table_bags, table, actor=request.user, bags={row["seat"]: (row["chips"], row["bag"]) for row in rows}
        )
        return Response(days_selectors.table_bags(table), status=status.HTTP_201_CREATED)


class EntryBagView(RoleAPIView):
    allowed = api_roles("api-entry-bag")

    @extend_schema(
        operation_id="entries_bag",
        tags=["days"],
        request=RecordBagSerializer,
        summary="The floor bags one seated player (or corrects his bag)",
        responses=answers(201, BagSerializer, refused=True, conflict=True),
    )
    def post(self, request, pk: int, number: int):
        entry = entry_or_404(pk, number)
        data = valid(RecordBagSerializer, request.data).validated_data
        row = call_service(days_services.record_bag, entry, actor=request.user, chips=data["chips"], bag=data["bag"])
        return Response(
            {
                "day": row.day,
                "entry": number,
                "chips": row.chips,
                "bag": row.bag_number,
                "table": row.table_number,
                "seat": row.seat,
                "bagged_at": row.bagged_at,
                "bagged_by": row.bagged_by_label,
            },
            status=status.HTTP_201_CREATED,
        )


class DayCloseView(RoleAPIView):
    allowed = api_roles("api-day-close")

    @extend_schema(
        operation_id="day_close",
        tags=["days"],
        request=CloseDaySerializer,
        summary="Close the day (the director): refused while bags are missing or off, unless a reason is given",
        responses=answers(200, ClosedDaySerializer, refused=True, conflict=True),
    )
    def post(self, request, pk: int):
        t = tournament_or_404(pk)
        reason = valid(CloseDaySerializer, request.data).validated_data["reason"]
        row = call_service(days_services.close_day, t, actor=request.user, reason=reason)
        return Response(days_selectors.closed_day(row))


class DayRedrawView(RoleAPIView):
    allowed = api_roles("api-day-redraw")

    @extend_schema(
        operation_id="day_redraw",
        tags=["days"],
        request=RedrawDaySerializer,
        summary="Redraw the seating of the day after a closed one (the director), before play resumes: "
        "every player still in, with his bag, to a random seat by a verifiable draw",
        responses=answers(201, DayRedrawnSerializer, refused=True, conflict=True),
    )
    def post(self, request, pk: int):
        t = tournament_or_404(pk)
        tables = valid(RedrawDaySerializer, request.data).validated_data.get("tables")
        draw = call_service(redraw.redraw_day, t, actor=request.user, tables=tables)
        return Response(
            {
                "day": draw.inputs["day"],
                "draw": draw.number,
                "commitment": draw.commitment,
                "seed": draw.seed,
                "seated": len(draw.result),
                "tables": sorted({row[1] for row in draw.result}),
            },
            status=status.HTTP_201_CREATED,
        )


class DayReportView(RoleAPIView):
    allowed = api_roles("api-day-report")

    @extend_schema(
        operation_id="day_report",
        tags=["days"],
        responses=answers(200, DayReportSerializer, refused=True),
        parameters=[OpenApiParameter("day", int, required=False, description="A day's number; the current day when left out.")],
        summary="The day's report: every bag sorted by stack, with rank and big blinds",
    )
    def get(self, request, pk: int):
        t = tournament_or_404(pk)
        day = valid(ReportQuerySerializer, request.query_params).validated_data.get("day")
        report = days_selectors.day_report(t, day)
        if report is None:
            raise NotFound(_("Day %(day)s has not been played yet.") % {"day": day})
        return Response(report)
