"""JSON API of seating: the verifiable draws (the commitment of the next draw is public before the
draw, its seed only once the result is written; docs/architecture.md, "Randomness"), seat corrections, the
button draw, special-needs seat requests, the floor map, and the public seat lookup of the players'
phones (no login; names, tables and seats only)."""

from __future__ import annotations

from django.shortcuts import get_object_or_404
from django.utils.decorators import method_decorator
from django.utils.translation import gettext as _
from django.views.decorators.cache import never_cache
from django.views.decorators.gzip import gzip_page
from drf_spectacular.utils import OpenApiParameter, extend_schema, inline_serializer
from rest_framework import serializers, status
from rest_framework.exceptions import NotFound
from rest_framework.response import Response

from tables.models import Draw, Table
from tables.selectors import draw_check, screens
from tables.selectors import state as tables_selectors
from tables.services import draws, seats
from tournament.models import Player
from web.access import api as api_roles
from web.api import PublicAPIView, RoleAPIView, answers, call_service, entry_or_404, public_answers, tournament_or_404, valid
from web.caching import public_head, room_search, room_seats, versioned


class DrawSerializer(serializers.Serializer):
    """A draw. Until it is drawn only its number and commitment (SHA-256 of the secret seed) are shown."""

    draw = serializers.IntegerField()
    commitment = serializers.CharField(help_text="SHA-256 (hex) of the seed, published before the draw.")
    revealed = serializers.BooleanField()
    kind = serializers.CharField(required=False, help_text="start, late, break, redraw or button.")
    seed = serializers.CharField(required=False, help_text="Hex; only once the draw is revealed.")
    committed_at = serializers.DateTimeField(required=False)
    drawn_at = serializers.DateTimeField(required=False)


class SeatAnswerSerializer(serializers.Serializer):
    entry = serializers.IntegerField()
    table = serializers.IntegerField()
    seat = serializers.IntegerField()


class DrawResultSerializer(DrawSerializer):
    seats = SeatAnswerSerializer(many=True, help_text="Every entry seated by this draw.")


class CommitmentSerializer(serializers.Serializer):
    draw = serializers.IntegerField()
    commitment = serializers.CharField()


def draw_json(draw: Draw) -> dict:
    """Public view of a draw: never the seed of a pending one."""
    if draw.drawn_at is None:
        return {"draw": draw.number, "commitment": draw.commitment, "revealed": False}
    return {
        "draw": draw.number,
        "commitment": draw.commitment,
        "revealed": True,
        "kind": draw.kind,
        "seed": draw.seed,
        "committed_at": draw.committed_at,
        "drawn_at": draw.drawn_at,
    }


def draw_result_json(draw: Draw) -> dict:
    seats = [{"entry": e, "table": t, "seat": s} for e, t, s in (draw.result or [])]
    return {**DrawSerializer(draw_json(draw)).data, "seats": seats}


class DrawStartView(RoleAPIView):
    allowed = api_roles("api-draw-start")

    @extend_schema(
        operation_id="seating_draw_start",
        tags=["seating"],
        request=None,
        summary="The start draw: every registered entry to a random seat (TDA 5)",
        description="Driven by the seed committed beforehand (see draws/), which the answer reveals.",
        responses=answers(201, DrawResultSerializer, conflict=True),
    )
    def post(self, request, pk: int):
        draw = call_service(draws.draw_start, tournament_or_404(pk), actor=request.user)
        return Response(draw_result_json(draw), status=status.HTTP_201_CREATED)


class DrawListView(PublicAPIView):
    @extend_schema(
        operation_id="seating_draws_list",
        tags=["seating"],
        auth=[],
        summary="Every draw of the tournament (public): the pending one shows only its commitment",
        responses=public_answers(DrawSerializer(many=True)),
    )
    @versioned
    def get(self, request, pk: int):
        draws = Draw.objects.filter(tournament=tournament_or_404(pk)).order_by("number")
        return Response(DrawSerializer([draw_json(d) for d in draws], many=True).data)


class DrawVerifyView(PublicAPIView):
    @extend_schema(
        operation_id="seating_draw_verify",
        tags=["seating"],
        auth=[],
        summary="Recompute a revealed draw from its seed and inputs (public)",
        description="`matches` is true when the seed fits the commitment and the recomputed result equals the "
        "recorded one (and the seats written). A pending draw shows only its commitment.",
        responses=public_answers(
            inline_serializer(
                "DrawVerification",
                {
                    "draw": serializers.IntegerField(),
                    "revealed": serializers.BooleanField(),
                    "commitment": serializers.CharField(),
                    "kind": serializers.CharField(required=False),
                    "seed": serializers.CharField(required=False),
                    "commitment_matches": serializers.BooleanField(required=False),
                    "inputs": serializers.JSONField(required=False),
                    "result": serializers.JSONField(required=False),
                    "recomputed": serializers.JSONField(required=False),
                    "written": serializers.JSONField(required=False),
                    "matches": serializers.BooleanField(required=False),
                },
            )
        ),
    )
    @versioned
    def get(self, request, pk: int, number: int):
        draw = get_object_or_404(Draw, tournament_id=pk, number=number)
        return Response(draw_check.verify_draw(draw))


class DrawCommitView(RoleAPIView):
    allowed = api_roles("api-draw-commit")

    @extend_schema(
        operation_id="seating_draw_commit",
        tags=["seating"],
        request=None,
        summary="Make sure the next draw's commitment exists (and is announced) before anything is drawn",
        responses=answers(200, CommitmentSerializer),
    )
    def post(self, request, pk: int):
        draw = call_service(draws.commit_next_draw, tournament_or_404(pk), actor=request.user)
        return Response({"draw": draw.number, "commitment": draw.commitment})


class SeatWaitingView(RoleAPIView):
    allowed = api_roles("api-seat-waiting")

    @extend_schema(
        operation_id="seating_seat_waiting",
        tags=["seating"],
        request=None,
        summary="Seat every live entry without a seat, by the late-entry rule",
        responses=answers(201, DrawResultSerializer, conflict=True),
    )
    def post(self, request, pk: int):
        draw = call_service(seats.seat_waiting_entries, tournament_or_404(pk), actor=request.user)
        return Response(draw_result_json(draw), status=status.HTTP_201_CREATED)


class CorrectSeatSerializer(serializers.Serializer):
    table = serializers.IntegerField(min_value=1, max_value=999)
    seat = serializers.IntegerField(min_value=1, max_value=10)


class EntrySeatView(RoleAPIView):
    allowed = api_roles("api-entry-seat")

    @extend_schema(
        operation_id="seating_correct_seat",
        tags=["seating"],
        request=CorrectSeatSerializer,
        summary="A player found in the wrong seat goes to the right one (keeps the stack)",
        responses=answers(200, SeatAnswerSerializer, refused=True, conflict=True),
    )
    def post(self, request, pk: int, number: int):
        entry = entry_or_404(pk, number)
        data = valid(CorrectSeatSerializer, request.data).validated_data
        seat = call_service(seats.correct_seat, entry, actor=request.user, table_number=data["table"], seat_number=data["seat"])
        return Response({"entry": entry.number, "table": seat.table.number, "seat": seat.seat})


class ButtonRequestSerializer(serializers.Serializer):
    cards = serializers.DictField(
        child=serializers.CharField(max_length=3),
        required=False,
        allow_empty=False,
        help_text='The dealt cards, one per occupied seat: {"1": "As", "4": "Td"}.',
    )
    seat = serializers.IntegerField(min_value=1, max_value=10, required=False, help_text="Set the button at this seat without a draw.")

    def validate_cards(self, cards: dict) -> dict:
        try:
            seats = {int(key): value for key, value in cards.items()}
        except (TypeError, ValueError):
            raise serializers.ValidationError(_("The keys are seat numbers.")) from None
        if not all(1 <= key <= 10 for key in seats):
            raise serializers.ValidationError(_("Seats run from 1 to 10."))
        return seats

    def validate(self, attrs: dict) -> dict:
        if "cards" in attrs and "seat" in attrs:
            raise serializers.ValidationError(_("Send the dealt cards or the button seat, not both."))
        return attrs


class TableButtonView(RoleAPIView):
    allowed = api_roles("api-table-button")

    @extend_schema(
        operation_id="tables_button",
        tags=["tables"],
        request=ButtonRequestSerializer,
        summary="The button draw: high card, spades > hearts > diamonds > clubs",
        description="Empty body: the software deals one card per occupied seat from a committed deck (a "
        "verifiable draw). `cards`: the result dealt at the table. `seat`: the floor sets the button.",
        responses=answers(
            200,
            inline_serializer(
                "ButtonDrawn",
                {
                    "table": serializers.IntegerField(),
                    "button": serializers.IntegerField(),
                    "cards": serializers.DictField(child=serializers.CharField()),
                    "draw": serializers.IntegerField(allow_null=True),
                },
            ),
            refused=True,
            conflict=True,
        ),
    )
    def post(self, request, pk: int, number: int):
        table = get_object_or_404(Table, tournament_id=pk, number=number)
        data = valid(ButtonRequestSerializer, request.data).validated_data
        answer = call_service(seats.draw_button, table, actor=request.user, cards=data.get("cards"), seat=data.get("seat"))
        return Response({**answer, "cards": {str(k): v for k, v in answer["cards"].items()}})


class SeatRequestSerializer(serializers.Serializer):
    table = serializers.IntegerField(min_value=1, max_value=999, required=False, allow_null=True, help_text="A fixed table.")
    seat = serializers.IntegerField(min_value=1, max_value=10, required=False, allow_null=True, help_text="A fixed seat at that table.")
    accessible = serializers.BooleanField(default=False, help_text="A table with wheelchair access.")
    note = serializers.CharField(max_length=200, required=False, allow_blank=True, default="")

    def validate(self, attrs: dict) -> dict:
        if attrs.get("seat") is not None and attrs.get("table") is None:
            raise serializers.ValidationError({"table": _("A fixed seat needs its table.")})
        if attrs.get("table") is None and not attrs["accessible"]:
            raise serializers.ValidationError(_("Choose a fixed table (and seat) or an accessible table."))
        return attrs


class SeatRequestAnswerSerializer(serializers.Serializer):
    player = serializers.IntegerField()
    name = serializers.CharField()
    table = serializers.IntegerField(allow_null=True)
    seat = serializers.IntegerField(allow_null=True)
    accessible = serializers.BooleanField()
    note = serializers.CharField()


class SeatRequestView(RoleAPIView):
    allowed = api_roles("api-seat-request")

    @extend_schema(
        operation_id="seating_request_set",
        tags=["seating"],
        request=SeatRequestSerializer,
        summary="A fixed table (and seat) or an accessible table for a player (TDA 6); later draws honour it",
        description="Replaces the player's earlier request in this tournament.",
        responses=answers(200, SeatRequestAnswerSerializer, refused=True),
    )
    def post(self, request, pk: int, player_id: int):
        tournament = tournament_or_404(pk)
        player = get_object_or_404(Player, pk=player_id)
        data = valid(SeatRequestSerializer, request.data).validated_data
        r = call_service(
            seats.set_seat_request,
            tournament,
            actor=request.user,
            player=player,
            table_number=data.get("table"),
            seat=data.get("seat"),
            accessible=data["accessible"],
            note=data["note"],
        )
        return Response(
            {
                "player": player.pk,
                "name": player.display_name,
                "table": r.table_number,
                "seat": r.seat,
                "accessible": r.accessible,
                "note": r.note,
            }
        )

    @extend_schema(
        operation_id="seating_request_cancel",
        tags=["seating"],
        request=None,
        summary="Cancel the player's seat request",
        responses=answers(204, None),
    )
    def delete(self, request, pk: int, player_id: int):
        tournament = tournament_or_404(pk)
        player = get_object_or_404(Player, pk=player_id)
        call_service(seats.cancel_seat_request, tournament, actor=request.user, player=player)
        return Response(status=status.HTTP_204_NO_CONTENT)


def floor_map(tournament) -> dict:
    """The map's data with the balancing status: halted tables, buttons asked for, pending slips; hand-for-hand and the
    clock calls open (what static/js/floor-map.js reads, first from its page, then here)."""
    return {
        **screens.floor_map(tournament),
        "moves": screens.balancing_status(tournament),
        "h4h": screens.hand_for_hand_status(tournament),
        "clock_calls": tables_selectors.open_clock_calls(tournament),
    }


@method_decorator(never_cache, name="dispatch")
@method_decorator(gzip_page, name="dispatch")  # 700 KB at 1,112 tables, a tenth of it compressed; no secret in it (BREACH)
class FloorMapView(RoleAPIView):
    allowed = api_roles("api-floor-map")

    @extend_schema(
        operation_id="seating_map",
        tags=["seating"],
        summary="The floor's map: every table with its seats and players, who waits, the next commitment, "
        "the balancing status, hand-for-hand and the clock calls open",
        responses=answers(
            200,
            inline_serializer(
                "FloorMap",
                {
                    "tables": serializers.ListField(child=serializers.DictField()),
                    "players_seated": serializers.IntegerField(),
                    "waiting": serializers.IntegerField(),
                    "start_drawn": serializers.BooleanField(),
                    "next_draw": CommitmentSerializer(allow_null=True),
                    "moves": serializers.DictField(help_text="Pending slips, halted tables, buttons asked for."),
                    "h4h": serializers.DictField(help_text="Hand-for-hand: on, the hand, the tables it waits for."),
                    "clock_calls": serializers.DictField(
                        child=serializers.DictField(), help_text="The clock calls running (TDA 25), by table number."
                    ),
                },
            ),
        ),
    )
    def get(self, request, pk: int):
        return Response(floor_map(tournament_or_404(pk)))


class PublicSeatSerializer(serializers.Serializer):
    entry = serializers.IntegerField()
    name = serializers.CharField()
    status = serializers.CharField(help_text="The entry's status (active, busted).")
    table = serializers.IntegerField(allow_null=True)
    seat = serializers.IntegerField(allow_null=True)
    seated_at = serializers.DateTimeField(allow_null=True)
    place = serializers.IntegerField(
        allow_null=True,
        help_text=("Finishing place once busted, or once a satellite's play stopped for its seat winners (they share places 1 to N)."),
    )
    place_low = serializers.IntegerField(allow_null=True, help_text="For a tie: the last of the places shared.")
    prize = serializers.IntegerField(allow_null=True, help_text="The prize won (minor units) once finished in the money.")
    prize_paid = serializers.BooleanField(help_text="The cage has paid the prize (a payment not voided).")
    seat_won = serializers.CharField(
        allow_null=True,
        help_text=(
            "A satellite's seat winner, once play stopped: the target event's name (his place is then the one the seat "
            "winners share). Null otherwise."
        ),
    )
    alternate = inline_serializer(
        "PublicAlternate",
        {
            "number": serializers.IntegerField(help_text="His number on the waiting list."),
            "called_at": serializers.DateTimeField(help_text="When he was called to the seat."),
            "sit_by": serializers.DateTimeField(help_text="He loses his turn if he has not sat down by then."),
            "position": serializers.CharField(help_text="big_blind, small_blind, button, wait_for_button, in_play or unknown"),
        },
        allow_null=True,
        help_text="An alternate seated from the waiting list who has not sat down yet: his seat is table and seat.",
    )
    move = inline_serializer(
        "PublicMove",
        {
            "table": serializers.IntegerField(),
            "seat": serializers.IntegerField(),
            "position": serializers.CharField(help_text="big_blind, small_blind, button, wait_for_button, in_play or unknown"),
            "after_hand": serializers.BooleanField(help_text="Move once the hand in play is over."),
        },
        allow_null=True,
        help_text="A pending move slip: the seat the player goes to.",
    )
    day_stack = inline_serializer(
        "PublicDayStack",
        {
            "day": serializers.IntegerField(),
            "chips": serializers.IntegerField(),
            "bag": serializers.CharField(),
            "source": serializers.CharField(),
        },
        allow_null=True,
        required=False,
        help_text="The stack this entry starts the day with (a Day 2's bag).",
    )
    bounty = inline_serializer(
        "PublicBounty",
        {
            "head": serializers.IntegerField(
                allow_null=True,
                help_text="The bounty on this entry's head (minor units) while it plays on; null once out and in a mystery event.",
            ),
            "won": serializers.IntegerField(help_text="The bounty cash this entry has won (minor units)."),
            "owed": serializers.IntegerField(help_text="Of it, what the cage has not paid yet (minor units)."),
            "knockouts": serializers.IntegerField(help_text="The players this entry knocked out."),
        },
        allow_null=True,
        help_text="A bounty event: this entry's own bounty figures. Null outside a bounty event.",
    )
    next_draw = CommitmentSerializer(allow_null=True, help_text="The next draw's commitment, which the seat page shows.")


class PublicEntrySerializer(serializers.Serializer):
    entry = serializers.IntegerField()
    name = serializers.CharField()
    status = serializers.CharField(help_text="The entry's status (active, busted).")


class SeatQuerySerializer(serializers.Serializer):
    q = serializers.CharField(
        max_length=80, allow_blank=True, trim_whitespace=True, help_text="An entry number (#12 or 12) or at least two letters of a name."
    )


class PublicSeatSearchView(PublicAPIView):
    @extend_schema(
        operation_id="public_seats_search",
        tags=["public"],
        auth=[],
        summary="Find entries by number or name (names only)",
        parameters=[OpenApiParameter("q", str, required=True, description="An entry number or at least two letters of a name.")],
        responses=public_answers(PublicEntrySerializer(many=True)),
    )
    @versioned(seats=True)
    def get(self, request, pk: int):
        if request.state_version is None:  # no such tournament
            raise NotFound(_("No such tournament."))
        q = valid(SeatQuerySerializer, request.query_params).validated_data["q"]
        found = screens.find_entries(room_search(request, pk), q)
        return Response(PublicEntrySerializer(found, many=True).data)


class PublicSeatView(PublicAPIView):
    @extend_schema(
        operation_id="public_seat",
        tags=["public"],
        auth=[],
        summary="An entry's table and seat (name, table, seat; nothing personal)",
        responses=public_answers(PublicSeatSerializer),
    )
    @versioned(remember=False, seats=True)
    def get(self, request, pk: int, number: int):
        if request.state_version is None:  # no such tournament
            raise NotFound(_("No such tournament."))
        answer = room_seats(request, pk).get(number)
        if answer is None:
            raise NotFound(_("There is no entry #%(number)s.") % {"number": number})
        # The next draw's commitment, as the page shows it: a new one comes with every draw (draw.committed moves the
        # seats' version, so a page left open reads it at its next refetch).
        return Response({**answer, "next_draw": public_head(request, pk)["next_draw"]})
