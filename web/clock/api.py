"""JSON API of the clock: read it, and the director's controls."""
from __future__ import annotations

from django.utils.translation import gettext_lazy as _
from drf_spectacular.utils import extend_schema, inline_serializer
from rest_framework import serializers
from rest_framework.response import Response

from clock import selectors, services
from web.access import api as api_roles
from web.api import RoleAPIView, answers, tournament_or_404, valid

ClockSerializer = inline_serializer("Clock", {
    "status": serializers.ChoiceField(["not_started", "running", "paused"]),
    "version": serializers.IntegerField(),
    "server_time": serializers.FloatField(help_text="Seconds since the epoch when this was computed."),
    "anchor": serializers.DictField(allow_null=True, help_text="index (0-based row), started_at, paused_at (epoch seconds)."),
    "rows": serializers.ListField(child=serializers.DictField(), required=False),
    "current": serializers.DictField(required=False, help_text="index, remaining, ends_at, finished, level_index, next_break_in."),
    "announcement": serializers.CharField(),
})


SECONDS_MISSING = _("Give a number of seconds to add or remove.")
LEVEL_MISSING = _("Enter a level number of 1 or more.")


class ActionSerializer(serializers.Serializer):
    """The director's one control. The messages are for the screen: translated, each on its own."""

    action = serializers.ChoiceField(["start", "pause", "resume", "adjust", "next", "previous", "jump", "announce"],
                                     error_messages={"invalid_choice": _("Unknown clock action."),
                                                     "required": _("Unknown clock action.")})
    seconds = serializers.IntegerField(required=False, help_text="With adjust: seconds to add (positive) or remove (negative).",
                                       error_messages={"invalid": SECONDS_MISSING, "null": SECONDS_MISSING})
    level = serializers.IntegerField(required=False, min_value=1, help_text="With jump: the level number.",
                                     error_messages={"invalid": LEVEL_MISSING, "null": LEVEL_MISSING,
                                                     "min_value": LEVEL_MISSING})
    text = serializers.CharField(required=False, allow_blank=True, max_length=200, help_text="With announce: the lobby line.")

    def validate(self, data):
        if data["action"] == "adjust" and "seconds" not in data:
            raise serializers.ValidationError({"seconds": SECONDS_MISSING})
        if data["action"] == "jump" and "level" not in data:
            raise serializers.ValidationError({"level": LEVEL_MISSING})
        if data["action"] == "announce" and "text" not in data:
            raise serializers.ValidationError({"text": _("Give the announcement text (empty clears it).")})
        return data


def perform(user, tournament, data: dict):
    action = data["action"]
    if action == "start":
        return services.start_clock(tournament, actor=user)
    if action == "pause":
        return services.pause_clock(tournament, actor=user)
    if action == "resume":
        return services.resume_clock(tournament, actor=user)
    if action == "adjust":
        return services.adjust_clock(tournament, actor=user, seconds=data["seconds"])
    if action in ("next", "previous"):
        return services.step_level(tournament, actor=user, step=1 if action == "next" else -1)
    if action == "jump":
        return services.jump_to_level(tournament, actor=user, level=data["level"])
    return services.set_announcement(tournament, actor=user, text=data["text"])


class ClockView(RoleAPIView):
    allowed = api_roles("api-clock")

    @extend_schema(operation_id="clock_retrieve", tags=["clock"], responses=answers(200, ClockSerializer))
    def get(self, request, pk: int):
        return Response(selectors.clock_snapshot(tournament_or_404(pk)))

    @extend_schema(operation_id="clock_action", tags=["clock"], request=ActionSerializer,
                   summary="Start, pause, resume, add or remove time, next/previous level, jump to a level, or set the announcement",
                   responses=answers(200, ClockSerializer, refused=True, conflict=True))
    def post(self, request, pk: int):
        tournament = tournament_or_404(pk)
        data = valid(ActionSerializer, request.data).validated_data
        perform(request.user, tournament, data)
        return Response(selectors.clock_snapshot(tournament))
