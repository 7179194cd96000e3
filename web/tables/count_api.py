"""JSON API of chip counts (tables/services/counting.py, tables/selectors/counts.py): a table's tablet (its dealer, the floor,
the director) reads and enters the whole table's counts at once; the floor enters one player's count and reads the
room's check; anyone reads the counts in public while the house setting allows (the players' chip-count page)."""

from __future__ import annotations

from django.shortcuts import get_object_or_404
from django.utils.translation import gettext as _
from drf_spectacular.utils import OpenApiParameter, extend_schema, inline_serializer
from rest_framework import serializers, status
from rest_framework.exceptions import NotFound
from rest_framework.response import Response

from tables.models import Table
from tables.rules import chip_counts
from tables.selectors import counts as tables_count_selectors
from tables.services import counting
from tournament.models import Tournament
from web.access import AtTheTable
from web.access import api as api_roles
from web.api import PublicAPIView, RoleAPIView, answers, call_service, public_answers, tournament_or_404, valid
from web.caching import versioned

# Any whole number is taken, so a negative count is refused by the service with its seat named (a 400 with a
# message), never as a bare field error; a count beyond the column's range is refused here.
CHIPS = serializers.IntegerField(min_value=-chip_counts.MAX_CHIPS, max_value=chip_counts.MAX_CHIPS)

TableCountsSerializer = inline_serializer(
    "TableCounts",
    {
        "table": serializers.IntegerField(),
        "players": serializers.ListField(
            child=serializers.JSONField(),
            help_text=("Each seated player: seat, entry, name, chips (null: not counted since he sat down), counted_at, counted_by."),
        ),
        "total": serializers.IntegerField(help_text="The counts added."),
        "counted": serializers.IntegerField(help_text="Players counted since they sat down."),
        "big_blind": serializers.IntegerField(),
    },
)

StackSerializer = inline_serializer(
    "Stack",
    many=True,
    fields={
        "rank": serializers.IntegerField(help_text="Equal stacks share a rank."),
        "entry": serializers.IntegerField(),
        "name": serializers.CharField(),
        "chips": serializers.IntegerField(),
        "big_blinds": serializers.FloatField(allow_null=True, help_text="To one decimal, rounded down."),
        "table": serializers.IntegerField(help_text="Where he was counted."),
        "seat": serializers.IntegerField(),
        "counted_at": serializers.DateTimeField(),
    },
)

CountSerializer = inline_serializer(
    "Count",
    {
        "entry": serializers.IntegerField(),
        "chips": serializers.IntegerField(),
        "table": serializers.IntegerField(),
        "seat": serializers.IntegerField(),
        "counted_at": serializers.DateTimeField(),
        "counted_by": serializers.CharField(),
    },
)

RoomSerializer = inline_serializer(
    "CountsRoom",
    {
        "public": serializers.BooleanField(help_text="The house setting: counts shown in public."),
        "big_blind": serializers.IntegerField(),
        "players_left": serializers.IntegerField(),
        "average": serializers.IntegerField(),
        "chips_in_play": serializers.IntegerField(),
        "counted_total": serializers.IntegerField(help_text="The counts of the players seated in play, added."),
        "not_counted": serializers.IntegerField(help_text="Players in play with no count since they sat down."),
        "difference": serializers.IntegerField(
            allow_null=True, help_text=("counted_total - chips_in_play once every player is counted; null before.")
        ),
        "off_by": serializers.IntegerField(help_text="The difference without its sign (0 before every player is counted)."),
        "flagged": serializers.ListField(child=serializers.IntegerField(), help_text="The tables flagged."),
        "tables": serializers.ListField(
            child=serializers.JSONField(),
            help_text=(
                "Each table: table, players, counted, total, missing (seats), expected (what it must hold, known when "
                "everyone else is counted), difference (total - expected), flagged."
            ),
        ),
        "stacks": serializers.ListField(
            child=serializers.JSONField(), help_text=("Every stack, ranked: as Stack, with counted_by and source (table, player).")
        ),
    },
)

PublicCountsSerializer = inline_serializer(
    "PublicCounts",
    {
        "stacks": StackSerializer,
        "total": serializers.IntegerField(help_text="Stacks that match in all."),
        "players_left": serializers.IntegerField(),
        "average": serializers.IntegerField(),
        "chips_in_play": serializers.IntegerField(),
        "big_blind": serializers.IntegerField(),
    },
)


class RecordTableCountsSerializer(serializers.Serializer):
    seats = serializers.DictField(child=CHIPS, allow_empty=False, help_text=("Chips counted by seat number: every seated player, at once."))


class RecordCountSerializer(serializers.Serializer):
    chips = CHIPS


class CountQuerySerializer(serializers.Serializer):
    q = serializers.CharField(required=False, allow_blank=True, max_length=100)


def seat_numbers(seats: dict) -> dict[int, int]:
    """The seats' counts by seat number; a key that is not a seat number is refused (400) by name."""
    out = {}
    for key, chips in seats.items():
        if not str(key).isdigit() or not 1 <= int(key) <= 10:
            raise serializers.ValidationError({"seats": [_("“%(key)s” is not a seat number (1 to 10).") % {"key": key}]})
        out[int(key)] = chips
    return out


class TableCountsView(AtTheTable, RoleAPIView):
    allowed = api_roles("api-table-counts")

    @extend_schema(
        operation_id="tables_counts",
        tags=["chip counts"],
        responses=answers(200, TableCountsSerializer),
        summary="This table's players and their current chip counts",
    )
    def get(self, request, pk: int, number: int):
        return Response(tables_count_selectors.table_counts(get_object_or_404(Table, tournament_id=pk, number=number)))

    @extend_schema(
        operation_id="tables_counts_record",
        tags=["chip counts"],
        request=RecordTableCountsSerializer,
        summary="Every seated player's count at this table, entered at once",
        responses=answers(201, TableCountsSerializer, refused=True, conflict=True),
    )
    def post(self, request, pk: int, number: int):
        table = get_object_or_404(Table, tournament_id=pk, number=number)
        seats = seat_numbers(valid(RecordTableCountsSerializer, request.data).validated_data["seats"])
        call_service(counting.record_table_counts, table, actor=request.user, counts=seats)
        return Response(tables_count_selectors.table_counts(table), status=status.HTTP_201_CREATED)


class EntryCountView(RoleAPIView):
    allowed = api_roles("api-entry-count")

    @extend_schema(
        operation_id="entries_count",
        tags=["chip counts"],
        request=RecordCountSerializer,
        summary="The floor enters one seated player's chip count",
        responses=answers(201, CountSerializer, refused=True, conflict=True),
    )
    def post(self, request, pk: int, number: int):
        t = tournament_or_404(pk)
        chips = valid(RecordCountSerializer, request.data).validated_data["chips"]
        row = call_service(counting.record_player_count, t, actor=request.user, entry_number=number, chips=chips)
        return Response(
            {
                "entry": number,
                "chips": row.chips,
                "table": row.table_number,
                "seat": row.seat,
                "counted_at": row.counted_at,
                "counted_by": row.counted_by_label,
            },
            status=status.HTTP_201_CREATED,
        )


class CountsView(RoleAPIView):
    allowed = api_roles("api-counts")

    @extend_schema(
        operation_id="counts",
        tags=["chip counts"],
        responses=answers(200, RoomSerializer),
        summary="The room's counts: every stack, each table's check, the difference from the chips in play",
    )
    def get(self, request, pk: int):
        return Response(tables_count_selectors.room(tournament_or_404(pk)))


class PublicCountsView(PublicAPIView):
    @extend_schema(
        operation_id="public_counts",
        tags=["public"],
        auth=[],
        summary="Every chip count, ranked (names only), while the house shows counts in public",
        parameters=[OpenApiParameter("q", str, required=False, description="A name (any part of it) or an entry number.")],
        responses=public_answers(PublicCountsSerializer),
    )
    @versioned()
    def get(self, request, pk: int):
        t = Tournament.objects.filter(pk=pk).first()
        if t is None or not tables_count_selectors.public(t):
            raise NotFound(_("No public chip counts for this tournament."))
        q = valid(CountQuerySerializer, request.query_params).validated_data.get("q", "")
        stacks, total = tables_count_selectors.every_stack(t, q, limit=tables_count_selectors.PUBLIC_LIMIT)
        board = tables_count_selectors.leaders(t)
        return Response(
            {
                "stacks": [
                    {k: row[k] for k in ("rank", "entry", "name", "chips", "big_blinds", "table", "seat", "counted_at")} for row in stacks
                ],
                "total": total,
                "players_left": board["players_left"],
                "average": board["average"],
                "chips_in_play": board["chips_in_play"],
                "big_blind": board["big_blind"],
            }
        )
