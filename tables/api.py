"""JSON API of tables: open them, list their level in play, and the "hand started" signal from
dealer tablets (staff login) and automatic shufflers (the table's own token). Seating: the
verifiable draws, seat corrections, the button, break order, seat requests, the floor map, and
the public seat lookup (no login, names only). Balancing: move slips (confirm, cancel, balance now)
and the button the floor enters when the software needs it."""
from __future__ import annotations

from django.shortcuts import get_object_or_404
from django.utils.translation import gettext as _
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema, inline_serializer
from rest_framework import serializers, status
from rest_framework.exceptions import NotFound
from rest_framework.permissions import AllowAny
from rest_framework.response import Response
from rest_framework.throttling import AnonRateThrottle
from rest_framework.views import APIView

from tournament import roles
from tournament.api import ANY_STAFF, REFUSED, RoleAPIView, answers, entry_or_404, run, tournament_or_404, valid
from tournament.models import Player
from tournament.serializers import DetailSerializer

from . import handforhand, moves, services
from .models import Draw, HouseRules, Move, Table

TableSerializer = inline_serializer("TableLevel", many=True, fields={
    "table": serializers.IntegerField(), "id": serializers.IntegerField(), "seats": serializers.IntegerField(),
    "sends_hand_signals": serializers.BooleanField(), "hand": serializers.IntegerField(),
    "hand_started_at": serializers.DateTimeField(allow_null=True), "level_index": serializers.IntegerField(),
    "level": serializers.IntegerField(), "on_old_level": serializers.BooleanField(),
}, )
HandSerializer = inline_serializer("HandStarted", {
    "table": serializers.IntegerField(), "hand": serializers.IntegerField(), "level": serializers.IntegerField(),
})


class OpenTableSerializer(serializers.Serializer):
    number = serializers.IntegerField(min_value=1, max_value=999)
    seats = serializers.IntegerField(min_value=2, max_value=10, required=False)
    sends_hand_signals = serializers.BooleanField(default=True)
    accessible = serializers.BooleanField(default=False, help_text="Wheelchair access: draws may need it (TDA 6).")


def hand_answer(hand) -> dict:
    from clock.services import rows_of

    rows = rows_of(hand.table.tournament)
    return {"table": hand.table.number, "hand": hand.number, "level": rows[hand.level_index].number}


class TableListView(RoleAPIView):
    allowed = {"GET": ANY_STAFF, "POST": roles.SETUP}

    @extend_schema(operation_id="tables_list", tags=["tables"], responses=answers(200, TableSerializer))
    def get(self, request, pk: int):
        return Response(services.tables_overview(tournament_or_404(pk)))

    @extend_schema(operation_id="tables_open", tags=["tables"], request=OpenTableSerializer,
                   summary="Open a table. The answer carries its shuffler token, shown only this once.",
                   responses=answers(201, inline_serializer("OpenedTable", {"table": serializers.IntegerField(),
                                                                             "shuffler_token": serializers.CharField()}),
                                     refused=True, conflict=True))
    def post(self, request, pk: int):
        data = valid(OpenTableSerializer, request.data).validated_data
        table, token = services.open_table(request.user, tournament_or_404(pk), data["number"], data.get("seats"),
                                           data["sends_hand_signals"], data["accessible"])
        return Response({"table": table.number, "shuffler_token": token}, status=status.HTTP_201_CREATED)


class HandStartView(RoleAPIView):
    allowed = {"POST": services.DEALING, "DELETE": services.DEALING}

    @extend_schema(operation_id="tables_hand_started", tags=["tables"], request=None,
                   summary="First shuffle of a new hand at this table (dealer tablet)",
                   responses=answers(201, HandSerializer, conflict=True))
    def post(self, request, pk: int, number: int):
        table = get_object_or_404(Table, tournament_id=pk, number=number)
        return Response(hand_answer(services.start_hand(request.user, table)), status=status.HTTP_201_CREATED)

    @extend_schema(operation_id="tables_hand_start_undo", tags=["tables"], request=None,
                   summary="Undo a mistaken press", responses=answers(200, HandSerializer, conflict=True))
    def delete(self, request, pk: int, number: int):
        table = get_object_or_404(Table, tournament_id=pk, number=number)
        return Response(hand_answer(services.undo_hand_start(request.user, table)))


class ShufflerHandStartView(APIView):
    """For automatic shufflers: `Authorization: Table <token>` (the token given when the table opened)."""

    authentication_classes: list = []
    permission_classes = [AllowAny]

    @extend_schema(operation_id="shuffler_hand_started", tags=["tables"], request=None,
                   parameters=[OpenApiParameter("Authorization", str, OpenApiParameter.HEADER, required=True,
                                                description="Table <shuffler token>")],
                   summary="The shuffler's green button: a new hand begins", responses={201: HandSerializer, 403: None})
    def post(self, request):
        header = request.headers.get("Authorization", "")
        token = header[len("Table "):].strip() if header.startswith("Table ") else ""
        return Response(hand_answer(services.start_hand_by_shuffler(token)), status=status.HTTP_201_CREATED)


# --- seating: draws, corrections, the button, break order, special needs, the floor map ----------
# Verifiable draws (DESIGN.md, "Randomness"): the commitment of the next draw is public before the
# draw; the seed only once the result is written. Public endpoints carry names, never personal data.


class PublicRateThrottle(AnonRateThrottle):
    """Anonymous endpoints (the room's phones): PUBLIC_API_RATE requests per client address, 120/minute by default."""

    scope = "public"

    def get_rate(self) -> str:
        from django.conf import settings

        return getattr(settings, "PUBLIC_API_RATE", "120/minute")


class PublicAPIView(APIView):
    """No login, no session (so no CSRF), throttled per address."""

    authentication_classes: list = []
    permission_classes = [AllowAny]
    throttle_classes = [PublicRateThrottle]


THROTTLED = OpenApiResponse(DetailSerializer, description="Too many requests from this address; try again shortly.")
PUBLIC_NOT_FOUND = OpenApiResponse(DetailSerializer, description="No such tournament (or entry).")


def public_answers(ok) -> dict:
    return {200: ok, 400: REFUSED, 404: PUBLIC_NOT_FOUND, 429: THROTTLED}


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
    return {"draw": draw.number, "commitment": draw.commitment, "revealed": True, "kind": draw.kind, "seed": draw.seed,
            "committed_at": draw.committed_at, "drawn_at": draw.drawn_at}


def draw_result_json(draw: Draw) -> dict:
    seats = [{"entry": e, "table": t, "seat": s} for e, t, s in (draw.result or [])]
    return {**DrawSerializer(draw_json(draw)).data, "seats": seats}


class DrawStartView(RoleAPIView):
    allowed = {"POST": roles.SETUP}

    @extend_schema(operation_id="seating_draw_start", tags=["seating"], request=None,
                   summary="The start draw: every registered entry to a random seat (TDA 5)",
                   description="Driven by the seed committed beforehand (see draws/), which the answer reveals.",
                   responses=answers(201, DrawResultSerializer, conflict=True))
    def post(self, request, pk: int):
        draw = run(services.draw_start, request.user, tournament_or_404(pk))
        return Response(draw_result_json(draw), status=status.HTTP_201_CREATED)


class DrawListView(PublicAPIView):
    @extend_schema(operation_id="seating_draws_list", tags=["seating"], auth=[],
                   summary="Every draw of the tournament (public): the pending one shows only its commitment",
                   responses=public_answers(DrawSerializer(many=True)))
    def get(self, request, pk: int):
        draws = Draw.objects.filter(tournament=tournament_or_404(pk)).order_by("number")
        return Response(DrawSerializer([draw_json(d) for d in draws], many=True).data)


class DrawVerifyView(PublicAPIView):
    @extend_schema(operation_id="seating_draw_verify", tags=["seating"], auth=[],
                   summary="Recompute a revealed draw from its seed and inputs (public)",
                   description="`matches` is true when the seed fits the commitment and the recomputed result equals the "
                               "recorded one (and the seats written). A pending draw shows only its commitment.",
                   responses=public_answers(inline_serializer("DrawVerification", {
                       "draw": serializers.IntegerField(), "revealed": serializers.BooleanField(),
                       "commitment": serializers.CharField(), "kind": serializers.CharField(required=False),
                       "seed": serializers.CharField(required=False),
                       "commitment_matches": serializers.BooleanField(required=False),
                       "inputs": serializers.JSONField(required=False), "result": serializers.JSONField(required=False),
                       "recomputed": serializers.JSONField(required=False), "written": serializers.JSONField(required=False),
                       "matches": serializers.BooleanField(required=False)})))
    def get(self, request, pk: int, number: int):
        draw = get_object_or_404(Draw, tournament_id=pk, number=number)
        return Response(services.verify_draw(draw))


class DrawCommitView(RoleAPIView):
    allowed = {"POST": services.SEATING}

    @extend_schema(operation_id="seating_draw_commit", tags=["seating"], request=None,
                   summary="Make sure the next draw's commitment exists (and is announced) before anything is drawn",
                   responses=answers(200, CommitmentSerializer))
    def post(self, request, pk: int):
        draw = run(services.commit_next_draw, request.user, tournament_or_404(pk))
        return Response({"draw": draw.number, "commitment": draw.commitment})


class SeatWaitingView(RoleAPIView):
    allowed = {"POST": services.SEATING}

    @extend_schema(operation_id="seating_seat_waiting", tags=["seating"], request=None,
                   summary="Seat every live entry without a seat, by the late-entry rule",
                   responses=answers(201, DrawResultSerializer, conflict=True))
    def post(self, request, pk: int):
        draw = run(services.seat_waiting_entries, request.user, tournament_or_404(pk))
        return Response(draw_result_json(draw), status=status.HTTP_201_CREATED)


class CorrectSeatSerializer(serializers.Serializer):
    table = serializers.IntegerField(min_value=1, max_value=999)
    seat = serializers.IntegerField(min_value=1, max_value=10)


class EntrySeatView(RoleAPIView):
    allowed = {"POST": services.SEATING}

    @extend_schema(operation_id="seating_correct_seat", tags=["seating"], request=CorrectSeatSerializer,
                   summary="A player found in the wrong seat goes to the right one (keeps the stack)",
                   responses=answers(200, SeatAnswerSerializer, refused=True, conflict=True))
    def post(self, request, pk: int, number: int):
        entry = entry_or_404(pk, number)
        data = valid(CorrectSeatSerializer, request.data).validated_data
        seat = run(services.correct_seat, request.user, entry, data["table"], data["seat"])
        return Response({"entry": entry.number, "table": seat.table.number, "seat": seat.seat})


class ButtonRequestSerializer(serializers.Serializer):
    cards = serializers.DictField(child=serializers.CharField(max_length=3), required=False, allow_empty=False,
                                  help_text='The dealt cards, one per occupied seat: {"1": "As", "4": "Td"}.')
    seat = serializers.IntegerField(min_value=1, max_value=10, required=False,
                                    help_text="Set the button at this seat without a draw.")

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
    allowed = {"POST": services.SEATING}

    @extend_schema(operation_id="tables_button", tags=["tables"], request=ButtonRequestSerializer,
                   summary="The button draw: high card, spades > hearts > diamonds > clubs",
                   description="Empty body: the software deals one card per occupied seat from a committed deck (a "
                               "verifiable draw). `cards`: the result dealt at the table. `seat`: the floor sets the button.",
                   responses=answers(200, inline_serializer("ButtonDrawn", {
                       "table": serializers.IntegerField(), "button": serializers.IntegerField(),
                       "cards": serializers.DictField(child=serializers.CharField()),
                       "draw": serializers.IntegerField(allow_null=True)}), refused=True, conflict=True))
    def post(self, request, pk: int, number: int):
        table = get_object_or_404(Table, tournament_id=pk, number=number)
        data = valid(ButtonRequestSerializer, request.data).validated_data
        answer = run(services.draw_button, request.user, table, cards=data.get("cards"), seat=data.get("seat"))
        return Response({**answer, "cards": {str(k): v for k, v in answer["cards"].items()}})


class BreakOrderSerializer(serializers.Serializer):
    order = serializers.ListField(child=serializers.IntegerField(min_value=1, max_value=999), allow_empty=False,
                                  max_length=999, help_text="Every table in play once, the first to break first.")


class BreakOrderView(RoleAPIView):
    allowed = {"GET": ANY_STAFF, "PUT": roles.SETUP}

    @extend_schema(operation_id="tables_break_order", tags=["tables"], summary="The tables in play, first to break first",
                   responses=answers(200, BreakOrderSerializer))
    def get(self, request, pk: int):
        return Response({"order": services.break_order(tournament_or_404(pk))})

    @extend_schema(operation_id="tables_break_order_set", tags=["tables"], request=BreakOrderSerializer,
                   summary="Set the break order", responses=answers(200, BreakOrderSerializer, refused=True))
    def put(self, request, pk: int):
        tournament = tournament_or_404(pk)
        order = valid(BreakOrderSerializer, request.data).validated_data["order"]
        return Response({"order": run(services.set_break_order, request.user, tournament, order)})


class InPlaySerializer(serializers.Serializer):
    in_play = serializers.BooleanField()


class TableInPlayView(RoleAPIView):
    allowed = {"POST": roles.SETUP}

    @extend_schema(operation_id="tables_in_play", tags=["tables"], request=InPlaySerializer,
                   summary="Take a table out of play (only when empty) or back into play",
                   responses=answers(200, inline_serializer("TableInPlay", {
                       "table": serializers.IntegerField(), "in_play": serializers.BooleanField()}),
                                     refused=True, conflict=True))
    def post(self, request, pk: int, number: int):
        table = get_object_or_404(Table, tournament_id=pk, number=number)
        in_play = valid(InPlaySerializer, request.data).validated_data["in_play"]
        table = run(services.set_table_in_play, request.user, table, in_play)
        return Response({"table": table.number, "in_play": table.in_play})


class SeatRequestSerializer(serializers.Serializer):
    table = serializers.IntegerField(min_value=1, max_value=999, required=False, allow_null=True,
                                     help_text="A fixed table.")
    seat = serializers.IntegerField(min_value=1, max_value=10, required=False, allow_null=True,
                                    help_text="A fixed seat at that table.")
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
    allowed = {"POST": services.SEATING, "DELETE": services.SEATING}

    @extend_schema(operation_id="seating_request_set", tags=["seating"], request=SeatRequestSerializer,
                   summary="A fixed table (and seat) or an accessible table for a player (TDA 6); later draws honour it",
                   description="Replaces the player's earlier request in this tournament.",
                   responses=answers(200, SeatRequestAnswerSerializer, refused=True))
    def post(self, request, pk: int, player_id: int):
        tournament = tournament_or_404(pk)
        player = get_object_or_404(Player, pk=player_id)
        data = valid(SeatRequestSerializer, request.data).validated_data
        r = run(services.set_seat_request, request.user, tournament, player, table_number=data.get("table"),
                seat=data.get("seat"), accessible=data["accessible"], note=data["note"])
        return Response({"player": player.pk, "name": player.display_name, "table": r.table_number, "seat": r.seat,
                         "accessible": r.accessible, "note": r.note})

    @extend_schema(operation_id="seating_request_cancel", tags=["seating"], request=None,
                   summary="Cancel the player's seat request", responses=answers(204, None))
    def delete(self, request, pk: int, player_id: int):
        tournament = tournament_or_404(pk)
        player = get_object_or_404(Player, pk=player_id)
        run(services.cancel_seat_request, request.user, tournament, player)
        return Response(status=status.HTTP_204_NO_CONTENT)


class FloorMapView(RoleAPIView):
    allowed = {"GET": roles.FLOOR_VIEW}

    @extend_schema(operation_id="seating_map", tags=["seating"],
                   summary="The floor's map: every table with its seats and players, who waits, the next commitment",
                   responses=answers(200, inline_serializer("FloorMap", {
                       "tables": serializers.ListField(child=serializers.DictField()),
                       "players_seated": serializers.IntegerField(), "waiting": serializers.IntegerField(),
                       "start_drawn": serializers.BooleanField(),
                       "next_draw": CommitmentSerializer(allow_null=True)})))
    def get(self, request, pk: int):
        return Response(services.floor_map(tournament_or_404(pk)))


# --- balancing: move slips, balance now, the button the floor enters (TDA 7, 8A) -------------------

SlipPlaceSerializer = inline_serializer("MoveSlipPlace", {
    "table": serializers.IntegerField(), "seat": serializers.IntegerField()})
MoveSlipSerializer = inline_serializer("MoveSlip", {
    "move": serializers.IntegerField(), "kind": serializers.ChoiceField(choices=Move.Kind.choices),
    "entry": serializers.IntegerField(), "name": serializers.CharField(),
    "from": SlipPlaceSerializer, "to": SlipPlaceSerializer,
    "position": serializers.CharField(help_text="The seat's position at the new table (big_blind, in_play, button, "
                                                "wait_for_button, unknown...)."),
    "status": serializers.ChoiceField(choices=Move.Status.choices), "created_at": serializers.DateTimeField(),
    "after_hand": serializers.BooleanField(help_text="The player moves once the hand in play is over."),
})
MoveStatusSerializer = inline_serializer("MoveStatus", {
    "halted": serializers.ListField(child=serializers.IntegerField(), help_text="Tables that must halt (short-handed)."),
    "need_button": serializers.ListField(child=serializers.IntegerField(),
                                         help_text="Tables whose button the floor must enter (positions/)."),
    "moves": MoveSlipSerializer.__class__(many=True, help_text="The pending move slips."),
    "rules": inline_serializer("MoveRules", {
        "threshold": serializers.IntegerField(), "halt_short_by": serializers.IntegerField(),
        "donor": serializers.CharField()}),
})


class CancelMoveSerializer(serializers.Serializer):
    reason = serializers.CharField(max_length=200, required=False, allow_blank=True, default="",
                                   help_text="Why the slip is cancelled (shown in the log).")


class PositionsSerializer(serializers.Serializer):
    button = serializers.IntegerField(min_value=1, max_value=10, help_text="The button's seat in the hand in play.")


class MoveListView(RoleAPIView):
    allowed = {"GET": moves.MOVING}

    @extend_schema(operation_id="moves_status", tags=["moves"],
                   summary="Halted tables, tables whose button is needed, the pending move slips, the house rules",
                   responses=answers(200, MoveStatusSerializer))
    def get(self, request, pk: int):
        return Response(moves.status(tournament_or_404(pk)))


class MoveBalanceView(RoleAPIView):
    allowed = {"POST": moves.MOVING}

    @extend_schema(operation_id="moves_balance", tags=["moves"], request=None,
                   summary="Balance now: decide the moves the rules call for (after a cancelled slip is fixed)",
                   responses=answers(200, inline_serializer("MovesCreated", {
                       "moves": MoveSlipSerializer.__class__(many=True, help_text="The slips created (may be empty).")}),
                                     refused=True, conflict=True))
    def post(self, request, pk: int):
        created = run(moves.balance_now, request.user, tournament_or_404(pk))
        return Response({"moves": [moves.slip(m) for m in created]})


class MoveConfirmView(RoleAPIView):
    allowed = {"POST": moves.MOVING}

    @extend_schema(operation_id="moves_confirm", tags=["moves"], request=None,
                   summary="The player sat down at the new seat (chips travel with the player)",
                   responses=answers(200, MoveSlipSerializer, conflict=True))
    def post(self, request, pk: int, number: int):
        move = run(moves.confirm_move, request.user, tournament_or_404(pk), number)
        return Response(moves.slip(move))


class MoveCancelView(RoleAPIView):
    allowed = {"POST": moves.MOVING}

    @extend_schema(operation_id="moves_cancel", tags=["moves"], request=CancelMoveSerializer,
                   summary="Cancel a slip: the reserved seat is free again (the room is not balanced by itself)",
                   responses=answers(200, MoveSlipSerializer, refused=True, conflict=True))
    def post(self, request, pk: int, number: int):
        tournament = tournament_or_404(pk)
        reason = valid(CancelMoveSerializer, request.data).validated_data["reason"]
        move = run(moves.cancel_move, request.user, tournament, number, reason)
        return Response(moves.slip(move))


class TablePositionsView(RoleAPIView):
    allowed = {"POST": services.SEATING}

    @extend_schema(operation_id="tables_positions", tags=["tables"], request=PositionsSerializer,
                   summary="The floor enters the button of the hand in play at a table whose positions are unknown",
                   description="A move that waited for it is decided at once (see moves/).",
                   responses=answers(200, inline_serializer("TablePositions", {
                       "table": serializers.IntegerField(),
                       "positions": inline_serializer("Positions", {
                           "button": serializers.IntegerField(allow_null=True),
                           "small_blind": serializers.IntegerField(allow_null=True),
                           "big_blind": serializers.IntegerField()})}), refused=True))
    def post(self, request, pk: int, number: int):
        table = get_object_or_404(Table, tournament_id=pk, number=number)
        button = valid(PositionsSerializer, request.data).validated_data["button"]
        return Response(run(services.enter_button, request.user, table, button))


# --- public: a player finds their seat ------------------------------------------------------------


class PublicSeatSerializer(serializers.Serializer):
    entry = serializers.IntegerField()
    name = serializers.CharField()
    status = serializers.CharField(help_text="The entry's status (active, busted).")
    table = serializers.IntegerField(allow_null=True)
    seat = serializers.IntegerField(allow_null=True)
    seated_at = serializers.DateTimeField(allow_null=True)
    place = serializers.IntegerField(allow_null=True, help_text="Finishing place once busted.")
    place_low = serializers.IntegerField(allow_null=True, help_text="For a tie: the last of the places shared.")
    move = inline_serializer("PublicMove", {
        "table": serializers.IntegerField(), "seat": serializers.IntegerField(),
        "position": serializers.CharField(help_text="big_blind, small_blind, button, wait_for_button, in_play or unknown"),
        "after_hand": serializers.BooleanField(help_text="Move once the hand in play is over."),
    }, allow_null=True, help_text="A pending move slip: the seat the player goes to.")


class PublicEntrySerializer(serializers.Serializer):
    entry = serializers.IntegerField()
    name = serializers.CharField()
    status = serializers.CharField(help_text="The entry's status (active, busted).")


class SeatQuerySerializer(serializers.Serializer):
    q = serializers.CharField(max_length=80, allow_blank=True, trim_whitespace=True,
                              help_text="An entry number (#12 or 12) or at least two letters of a name.")


class PublicSeatSearchView(PublicAPIView):
    @extend_schema(operation_id="public_seats_search", tags=["public"], auth=[],
                   summary="Find entries by number or name (names only)",
                   parameters=[OpenApiParameter("q", str, required=True,
                                                description="An entry number or at least two letters of a name.")],
                   responses=public_answers(PublicEntrySerializer(many=True)))
    def get(self, request, pk: int):
        tournament = tournament_or_404(pk)
        q = valid(SeatQuerySerializer, request.query_params).validated_data["q"]
        return Response(PublicEntrySerializer(services.find_entries(tournament, q), many=True).data)


class PublicSeatView(PublicAPIView):
    @extend_schema(operation_id="public_seat", tags=["public"], auth=[],
                   summary="An entry's table and seat (name, table, seat; nothing personal)",
                   responses=public_answers(PublicSeatSerializer))
    def get(self, request, pk: int, number: int):
        answer = services.public_seat(tournament_or_404(pk), number)
        if answer is None:
            raise NotFound(_("No such entry."))
        return Response(PublicSeatSerializer(answer).data)


# --- hand-for-hand, "hand done" and the house rules -------------------------------------------------

H4HStatusSerializer = inline_serializer("HandForHandStatus", {
    "on": serializers.BooleanField(), "players": serializers.IntegerField(),
    "places_paid": serializers.IntegerField(allow_null=True), "seconds_per_hand": serializers.IntegerField(),
    "ties": serializers.CharField(), "suggested": serializers.BooleanField(help_text="The next bust is the bubble."),
    "in_the_money": serializers.BooleanField(),
    "hand": serializers.IntegerField(required=False, help_text="The hand-for-hand hand called last."),
    "called": serializers.BooleanField(required=False, help_text="That hand is being played."),
    "tables": serializers.ListField(child=serializers.IntegerField(), required=False),
    "shuffled": serializers.ListField(child=serializers.IntegerField(), required=False),
    "reported": serializers.ListField(child=serializers.IntegerField(), required=False),
    "waiting_for": serializers.ListField(child=serializers.IntegerField(), required=False),
    "busy": serializers.ListField(child=serializers.IntegerField(), required=False,
                                  help_text="Tables still finishing a hand before the next one can be called."),
    "moves_pending": serializers.IntegerField(required=False), "seconds_taken": serializers.IntegerField(required=False),
})


class HandForHandSerializer(serializers.Serializer):
    on = serializers.BooleanField()


class HandForHandView(RoleAPIView):
    allowed = {"GET": ANY_STAFF, "POST": handforhand.DIRECTING}

    @extend_schema(operation_id="h4h_status", tags=["hand-for-hand"], responses=answers(200, H4HStatusSerializer),
                   summary="Hand-for-hand: on or off, the hand called, the tables it waits for, the bubble suggestion")
    def get(self, request, pk: int):
        return Response(handforhand.status(tournament_or_404(pk)))

    @extend_schema(operation_id="h4h_set", tags=["hand-for-hand"], request=HandForHandSerializer,
                   summary="The director turns hand-for-hand on (the clock stops) or off (it runs again)",
                   responses=answers(200, H4HStatusSerializer, refused=True, conflict=True))
    def post(self, request, pk: int):
        t = tournament_or_404(pk)
        on = valid(HandForHandSerializer, request.data).validated_data["on"]
        run(handforhand.start if on else handforhand.stop, request.user, t)
        return Response(handforhand.status(t))


class HandDoneView(RoleAPIView):
    allowed = {"POST": handforhand.REPORTING}

    @extend_schema(operation_id="tables_hand_done", tags=["hand-for-hand"], request=None,
                   summary="The hand at this table is over (dealer tablet, or the floor for the table)",
                   responses=answers(200, H4HStatusSerializer, conflict=True))
    def post(self, request, pk: int, number: int):
        table = get_object_or_404(Table, tournament_id=pk, number=number)
        return Response(run(handforhand.hand_done, request.user, table))


class HouseRulesSerializer(serializers.Serializer):
    balance_threshold = serializers.IntegerField(min_value=1, max_value=5, required=False)
    halt_short_by = serializers.IntegerField(min_value=1, max_value=9, required=False)
    donor = serializers.ChoiceField(choices=HouseRules.Donor.choices, required=False)
    redraw_at_three = serializers.BooleanField(required=False)
    redraw_at_two = serializers.BooleanField(required=False)
    hand_for_hand_seconds = serializers.IntegerField(min_value=0, max_value=900, required=False,
                                                     help_text="0: the clock stands still in hand-for-hand.")
    hand_for_hand_ties = serializers.ChoiceField(choices=HouseRules.Ties.choices, required=False)
    places_paid = serializers.IntegerField(min_value=1, required=False, allow_null=True)


class HouseRulesView(RoleAPIView):
    allowed = {"GET": ANY_STAFF, "PATCH": roles.SETUP}

    @extend_schema(operation_id="house_rules", tags=["hand-for-hand"], responses=answers(200, HouseRulesSerializer),
                   summary="The house rules of balancing, breaking, redraws and hand-for-hand")
    def get(self, request, pk: int):
        return Response(moves.house_rules_json(moves.house_rules(tournament_or_404(pk))))

    @extend_schema(operation_id="house_rules_set", tags=["hand-for-hand"], request=HouseRulesSerializer,
                   summary="Change some house rules (the others keep their value)",
                   responses=answers(200, HouseRulesSerializer, refused=True))
    def patch(self, request, pk: int):
        t = tournament_or_404(pk)
        unknown = sorted(set(request.data) - set(HouseRulesSerializer().fields))
        if unknown:
            raise serializers.ValidationError({name: [_("Unknown house rule.")] for name in unknown})
        data = valid(HouseRulesSerializer, request.data).validated_data
        return Response(moves.house_rules_json(run(moves.set_house_rules, request.user, t, dict(data))))
