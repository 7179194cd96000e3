"""JSON API of the clock: read it, the director's controls, the end of a day and the next day's start."""

from __future__ import annotations

from django.utils.dateparse import parse_datetime
from django.utils.translation import gettext_lazy as _
from drf_spectacular.utils import extend_schema, inline_serializer
from rest_framework import serializers
from rest_framework.response import Response

from clock.selectors import clock as clock_selectors
from clock.services import clock as clock_services
from web.access import api as api_roles
from web.api import RoleAPIView, answers, tournament_or_404, valid

ClockSerializer = inline_serializer(
    "Clock",
    {
        "status": serializers.ChoiceField(["not_started", "running", "paused"]),
        "version": serializers.IntegerField(),
        "server_time": serializers.FloatField(help_text="Seconds since the epoch when this was computed."),
        "anchor": serializers.DictField(allow_null=True, help_text="index (0-based row), started_at, paused_at (epoch seconds)."),
        "rows": serializers.ListField(child=serializers.DictField(), required=False),
        "current": serializers.DictField(required=False, help_text="index, remaining, ends_at, finished, level_index, next_break_in."),
        "announcement": serializers.CharField(),
        "day_end_after_level": serializers.IntegerField(allow_null=True, help_text="The level after which the clock stops for the day."),
        "day_ended_level": serializers.IntegerField(
            allow_null=True, help_text="The level the day ended after, until the clock runs again."
        ),
        "resume_at": serializers.DateTimeField(allow_null=True, help_text="When the clock resumes by itself (ISO, venue time zone)."),
    },
)


SECONDS_MISSING = _("Give a number of seconds to add or remove.")
LEVEL_MISSING = _("Enter a level number of 1 or more.")


class ActionSerializer(serializers.Serializer):
    """The director's one control. The messages are for the screen: translated, each on its own."""

    action = serializers.ChoiceField(
        ["start", "pause", "resume", "adjust", "end_level", "next", "previous", "jump", "announce"],
        error_messages={"invalid_choice": _("Unknown clock action."), "required": _("Unknown clock action.")},
    )
    seconds = serializers.IntegerField(
        required=False,
        help_text="With adjust: seconds to add (positive) or remove (negative).",
        error_messages={"invalid": SECONDS_MISSING, "null": SECONDS_MISSING},
    )
    level = serializers.IntegerField(
        required=False,
        min_value=1,
        help_text="With jump: the level number.",
        error_messages={"invalid": LEVEL_MISSING, "null": LEVEL_MISSING, "min_value": LEVEL_MISSING},
    )
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
        return clock_services.start_clock(tournament, actor=user)
    if action == "pause":
        return clock_services.pause_clock(tournament, actor=user)
    if action == "resume":
        return clock_services.resume_clock(tournament, actor=user)
    if action == "adjust":
        return clock_services.adjust_clock(tournament, actor=user, seconds=data["seconds"])
    if action == "end_level":  # the level (or break) in play ends now: the next starts with its full time
        return clock_services.end_level_now(tournament, actor=user)
    if action in ("next", "previous"):
        return clock_services.step_level(tournament, actor=user, step=1 if action == "next" else -1)
    if action == "jump":
        return clock_services.jump_to_level(tournament, actor=user, level=data["level"])
    return clock_services.set_announcement(tournament, actor=user, text=data["text"])


class ClockView(RoleAPIView):
    allowed = api_roles("api-clock")

    @extend_schema(operation_id="clock_retrieve", tags=["clock"], responses=answers(200, ClockSerializer))
    def get(self, request, pk: int):
        return Response(clock_selectors.clock_snapshot(tournament_or_404(pk)))

    @extend_schema(
        operation_id="clock_action",
        tags=["clock"],
        request=ActionSerializer,
        summary="Start, pause, resume, add or remove time, end the level now, next/previous level, jump to a level, "
        "or set the announcement",
        responses=answers(200, ClockSerializer, refused=True, conflict=True),
    )
    def post(self, request, pk: int):
        tournament = tournament_or_404(pk)
        data = valid(ActionSerializer, request.data).validated_data
        perform(request.user, tournament, data)
        return Response(clock_selectors.clock_snapshot(tournament))


class DayEndSerializer(serializers.Serializer):
    level = serializers.IntegerField(
        min_value=1,
        allow_null=True,
        help_text="The level after which the clock stops for the day; null clears it.",
        error_messages={"invalid": LEVEL_MISSING, "min_value": LEVEL_MISSING, "required": _("Give the level (null clears the day's end).")},
    )


START_AT = _("Give the start as a date and time with its time zone (ISO 8601, e.g. 2026-11-30T12:00:00+01:00).")
SECONDS_LEFT = _("Give the time left in the level in seconds, 1 or more.")


class RestartSerializer(serializers.Serializer):
    start_at = serializers.DateTimeField(
        help_text="When the next day starts: ISO 8601 with a time zone.",
        error_messages={"invalid": START_AT, "required": START_AT, "null": START_AT},
    )
    level = serializers.IntegerField(
        min_value=1,
        help_text="The level it starts at (a level number, not a row).",
        error_messages={"invalid": LEVEL_MISSING, "null": LEVEL_MISSING, "min_value": LEVEL_MISSING, "required": LEVEL_MISSING},
    )
    seconds_left = serializers.IntegerField(
        min_value=1,
        help_text="The time left in that level, in seconds.",
        error_messages={"invalid": SECONDS_LEFT, "null": SECONDS_LEFT, "min_value": SECONDS_LEFT, "required": SECONDS_LEFT},
    )

    def validate_start_at(self, value):
        # DRF reads a time without a zone in the server's zone: refused instead, a wrong day start is worse than a 400.
        raw = self.initial_data.get("start_at")
        parsed = parse_datetime(raw) if isinstance(raw, str) else None
        if parsed is None or parsed.tzinfo is None:
            raise serializers.ValidationError(START_AT)
        return value


class ClockDayEndView(RoleAPIView):
    allowed = api_roles("api-clock-day-end")

    @extend_schema(
        operation_id="clock_day_end",
        tags=["clock"],
        request=DayEndSerializer,
        summary="End the day after level N (the clock stops at that level's end), or clear it",
        responses=answers(200, ClockSerializer, refused=True, conflict=True),
    )
    def post(self, request, pk: int):
        tournament = tournament_or_404(pk)
        data = valid(DayEndSerializer, request.data).validated_data
        clock_services.set_day_end(tournament, actor=request.user, level=data["level"])
        return Response(clock_selectors.clock_snapshot(tournament))


class ClockRestartView(RoleAPIView):
    allowed = api_roles("api-clock-restart")

    @extend_schema(
        operation_id="clock_restart",
        tags=["clock"],
        request=RestartSerializer,
        summary="The next day starts at a set time, at a level with the time left in it (the clock resumes by itself)",
        responses=answers(200, ClockSerializer, refused=True, conflict=True),
    )
    def post(self, request, pk: int):
        tournament = tournament_or_404(pk)
        data = valid(RestartSerializer, request.data).validated_data
        clock_services.schedule_restart(
            tournament, actor=request.user, start_at=data["start_at"], level=data["level"], seconds_left=data["seconds_left"]
        )
        return Response(clock_selectors.clock_snapshot(tournament))
