"""JSON API of penalties (tables/services/penalties.py, TDA 51): the floor lists every penalty with the hands each
player still sits out, gives a warning or a missed-hand penalty (one hand, or one to four rounds of a
hand for every player at the table) or a disqualification (tables/services/busts.disqualify) to a seated player, and
cancels one given in error (a disqualification cancelled reinstates the player: tables/services/busts.reinstate)."""

from __future__ import annotations

from django.utils.functional import lazy
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from drf_spectacular.utils import extend_schema, inline_serializer
from rest_framework import serializers, status
from rest_framework.response import Response

from core.errors import REASON_TOO_LONG
from tables.models import Penalty
from tables.rules import missed_hands
from tables.selectors import screens, state
from tables.services import busts, penalties
from web.access import api as api_roles
from web.api import RoleAPIView, answers, call_service, tournament_or_404, valid

STATUSES = ["serving", "served", "ended", "warning", "disqualified", "cancelled"]  # ended: out of play before serving it all
# A reason's messages, the service's own words (tables/services/penalties.py, core/errors.clean_reason), at the field.
REASON_SAYS = {
    "blank": penalties.REASON_MISSING,
    "required": penalties.REASON_MISSING,
    "max_length": lazy(lambda: REASON_TOO_LONG % {"max": penalties.MAX_REASON}, str)(),
}

PenaltyJson = inline_serializer(
    "Penalty",
    {
        "number": serializers.IntegerField(help_text="The penalty's number in the tournament."),
        "entry": serializers.IntegerField(),
        "name": serializers.CharField(),
        "kind": serializers.ChoiceField(choices=Penalty.Kind.choices),
        "kind_display": serializers.CharField(),
        "rounds": serializers.IntegerField(allow_null=True, help_text="For a penalty of rounds: one to four."),
        "players_at_table": serializers.IntegerField(help_text="The players at the table when it was given."),
        "hands": serializers.IntegerField(help_text="The hands to sit out: 0 for a warning, 1, or players x rounds."),
        "hands_left": serializers.IntegerField(help_text="Still to sit out (0 once served, cancelled or busted)."),
        "served": serializers.IntegerField(allow_null=True, help_text="The hands sat out; null once cancelled."),
        "status": serializers.ChoiceField(choices=STATUSES),
        "table": serializers.IntegerField(help_text="The table where it was given."),
        "seat": serializers.IntegerField(help_text="The seat where it was given."),
        "chips": serializers.IntegerField(
            allow_null=True,
            help_text=("A disqualification's chips taken out of play (his count, or his last count); null for other penalties."),
        ),
        "reason": serializers.CharField(),
        "given_at": serializers.DateTimeField(),
        "given_by": serializers.CharField(allow_null=True),
        "cancelled_at": serializers.DateTimeField(allow_null=True),
        "cancel_reason": serializers.CharField(allow_blank=True),
        "now": inline_serializer(
            "PenaltySeatNow",
            {
                "table": serializers.IntegerField(),
                "seat": serializers.IntegerField(),
            },
            allow_null=True,
            help_text="Where the player sits now; null when he has no seat in play.",
        ),
    },
)

PenaltiesJson = inline_serializer(
    "Penalties",
    {
        "penalties": serializers.ListField(child=PenaltyJson, help_text="Every penalty, newest first."),
    },
)


class GivePenaltySerializer(serializers.Serializer):
    """Who: the entry number, or the table and the seat where the player sits now (one or the other: the
    service refuses both or neither, with its message)."""

    entry = serializers.IntegerField(
        min_value=1, max_value=100_000, required=False, help_text="The offender's entry number. Leave it out to name the table and seat."
    )
    table = serializers.IntegerField(
        min_value=1, max_value=100_000, required=False, help_text="The table where the offender sits now, with `seat`, instead of `entry`."
    )
    seat = serializers.IntegerField(
        min_value=1, max_value=100, required=False, help_text="The offender's seat at `table`, instead of `entry`."
    )
    kind = serializers.ChoiceField(
        choices=Penalty.Kind.choices,
        error_messages={"invalid_choice": gettext_lazy("Choose the penalty: a warning, one hand, rounds, or a disqualification.")},
    )
    rounds = serializers.IntegerField(
        min_value=1,
        max_value=missed_hands.MAX_ROUNDS,
        required=False,
        allow_null=True,
        help_text="Only for a penalty of rounds (one to four): each round is a hand "
        "for every player at the table now, the offender included.",
    )
    reason = serializers.CharField(min_length=1, max_length=penalties.MAX_REASON, error_messages=REASON_SAYS)
    chips = serializers.IntegerField(
        min_value=0,
        max_value=busts.MAX_STACK,
        required=False,
        allow_null=True,
        help_text="Only for a disqualification: the player's chips counted now, taken out of play. Left out: his last count is taken out.",
    )

    def validate(self, data: dict) -> dict:
        if data["kind"] != Penalty.Kind.DISQUALIFIED and data.get("chips") is not None:
            raise serializers.ValidationError({"chips": [_("Only a disqualification takes the player's chips.")]})
        rounds = data.get("rounds")
        if data["kind"] == missed_hands.ROUNDS and rounds is None:
            raise serializers.ValidationError({"rounds": [_("Say how many rounds: one to four.")]})
        if data["kind"] != missed_hands.ROUNDS and rounds is not None:
            raise serializers.ValidationError(
                {"rounds": [_("Only a penalty of rounds takes a number of rounds: leave it out for a warning or one hand.")]}
            )
        return data


class CancelPenaltySerializer(serializers.Serializer):
    reason = serializers.CharField(
        min_length=1, max_length=penalties.MAX_REASON, error_messages=REASON_SAYS, help_text="Why the penalty was given in error."
    )


def _json(penalty: Penalty) -> dict:
    seat = state.seat_of(penalty.entry)
    return screens.penalty_json(penalty, (seat.table.number, seat.seat) if seat else None)


class PenaltiesView(RoleAPIView):
    allowed = api_roles("api-penalties")

    @extend_schema(
        operation_id="penalties",
        tags=["penalties"],
        responses=answers(200, PenaltiesJson),
        summary="Every penalty, newest first, with the hands each player still sits out",
    )
    def get(self, request, pk: int):
        return Response({"penalties": screens.penalties(tournament_or_404(pk))})

    @extend_schema(
        operation_id="penalty_give",
        tags=["penalties"],
        request=GivePenaltySerializer,
        summary="The floor gives a seated player a warning, one missed hand, one to four rounds, or disqualifies him (TDA 51)",
        description="Name the player by `entry` (his entry number) or by `table` and `seat` (where he sits "
        "now), one or the other: both, or neither, is a 400. An empty seat is a 409 "
        "(`empty_seat`), an unknown entry a 404, an entry without a seat in play a 409 "
        "(`not_seated`). A disqualification (`dq`) takes his chips out of play (`chips`, or "
        "his last count: none on record is a 400 `count_required`), refunds nothing, and "
        "places him by the house rule `disqualified_place`.",
        responses=answers(201, PenaltyJson, refused=True, conflict=True),
    )
    def post(self, request, pk: int):
        t = tournament_or_404(pk)
        data = valid(GivePenaltySerializer, request.data).validated_data
        if data["kind"] == Penalty.Kind.DISQUALIFIED:
            penalty = call_service(
                busts.disqualify,
                t,
                actor=request.user,
                entry_number=data.get("entry"),
                reason=data["reason"],
                table=data.get("table"),
                seat=data.get("seat"),
                chips=data.get("chips"),
            )
            return Response(_json(penalty), status=status.HTTP_201_CREATED)
        penalty = call_service(
            penalties.give_penalty,
            t,
            actor=request.user,
            entry_number=data.get("entry"),
            kind=data["kind"],
            rounds=data.get("rounds"),
            reason=data["reason"],
            table=data.get("table"),
            seat=data.get("seat"),
        )
        return Response(_json(penalty), status=status.HTTP_201_CREATED)


class PenaltyCancelView(RoleAPIView):
    allowed = api_roles("api-penalty-cancel")

    @extend_schema(
        operation_id="penalty_cancel",
        tags=["penalties"],
        request=CancelPenaltySerializer,
        summary="Cancel a penalty given in error: it ends now and stays on the record, cancelled",
        description="A disqualification cancelled reinstates the player: his chips come back into play and "
        "he plays again as after an undone bust (409 `reentered` if he has entered again).",
        responses=answers(200, PenaltyJson, refused=True, conflict=True),
    )
    def post(self, request, pk: int, number: int):
        t = tournament_or_404(pk)
        data = valid(CancelPenaltySerializer, request.data).validated_data
        dq = Penalty.objects.filter(tournament=t, number=number, kind=Penalty.Kind.DISQUALIFIED).exists()
        cancel = busts.reinstate if dq else penalties.cancel_penalty
        return Response(_json(call_service(cancel, t, actor=request.user, number=number, reason=data["reason"])))
