"""A sold-out tournament's waiting list as the players see it on their phones: the public page (/t/<id>/waiting/) where
an alternate types his number and sees where he stands, and its JSON read (/api/public/tournaments/<id>/waiting/): the
alternates called to a seat (number, table, seat, position, when to sit down by) and the numbers still waiting, in
order. Numbers, never names (tables/selectors/screens.py alternates_board).

Both are versioned by the tournament's event sequence (web/caching.py): the list changes with events that do not move
the seats' version (a player joining the list), and every change of it is an event, so an answer is right for its
version. The page follows the public seat socket (/ws/s/<id>/) and reads the JSON again on each push."""

from __future__ import annotations

from django.http import Http404
from django.shortcuts import render
from django.urls import reverse
from django.utils.translation import gettext as _
from drf_spectacular.utils import extend_schema, inline_serializer
from rest_framework import serializers
from rest_framework.exceptions import NotFound
from rest_framework.response import Response

from tables.selectors.screens import alternates_board
from tournament.models import Tournament
from tournament.selectors import waiting_list
from web.access import page
from web.api import PublicAPIView, public_answers
from web.caching import versioned
from web.push_offer import push_offer


def waiting_answer(t: Tournament) -> dict:
    """The public answer: the tournament, whether it is sold out, the alternate numbers waiting in order and the calls
    to a seat, latest first (all empty, not sold out, when the tournament has no waiting list)."""
    board = alternates_board(t) or {"sold_out": False, "waiting": [], "calls": []}
    return {
        "tournament": {"id": t.pk, "name": t.name},
        "sold_out": board["sold_out"],
        "waiting": list(board["waiting"]),
        "calls": [{key: call[key] for key in ("number", "table", "seat", "position", "called_at", "sit_by")} for call in board["calls"]],
    }


def has_list(t: Tournament) -> bool:
    """Whether the tournament has had a waiting list (the seat finder then links to its board): one indexed query."""
    return waiting_list.places(t, open_only=False).exists()


def _typed_number(request) -> int | None:
    """?n=: the alternate number typed on the page (kept in its address, so a reload shows the same)."""
    value = request.GET.get("n", "").strip().lstrip("#")
    return int(value) if value.isdigit() and len(value) < 7 else None


@page("waiting-board")
@versioned()
def waiting_board(request, pk: int):
    tournament = Tournament.objects.filter(pk=pk).first() if request.state_version is not None else None
    if tournament is None:
        raise Http404(_("No such tournament."))
    number = _typed_number(request)
    on_list = number is not None and waiting_list.places(tournament).filter(number=number).exists()
    return render(
        request,
        "tables/waiting_board.html",
        {
            "t": tournament,
            "board": waiting_answer(tournament),
            "number": number,
            "board_config": {
                "json": reverse("api-public-waiting", args=[pk]),
                "socket": f"/ws/s/{pk}/",
                "time_zone": tournament.time_zone,
                "version": request.answer_version,
                # "Tell me on this phone" for the number typed, while it is on the list (docs/notifications.md)
                "push": push_offer("api-public-waiting-push", "api-public-waiting-push-stop", args=[pk, number]) if on_list else None,
            },
        },
    )


class PublicCallSerializer(serializers.Serializer):
    number = serializers.IntegerField(help_text="The alternate's number on the waiting list.")
    table = serializers.IntegerField(allow_null=True)
    seat = serializers.IntegerField(allow_null=True)
    position = serializers.CharField(help_text="big_blind, small_blind, button, wait_for_button, in_play or unknown")
    called_at = serializers.DateTimeField(help_text="When he was called to the seat.")
    sit_by = serializers.DateTimeField(help_text="He loses his turn if he has not sat down by then.")


class PublicWaitingSerializer(serializers.Serializer):
    tournament = inline_serializer("PublicWaitingTournament", {"id": serializers.IntegerField(), "name": serializers.CharField()})
    sold_out = serializers.BooleanField(help_text="A new player joins the waiting list instead of entering.")
    waiting = serializers.ListField(child=serializers.IntegerField(), help_text="The alternate numbers waiting, in the list's order.")
    calls = PublicCallSerializer(many=True, help_text="The alternates called to a seat who have not sat down yet, latest first.")


class PublicWaitingView(PublicAPIView):
    @extend_schema(
        operation_id="public_waiting_list",
        tags=["public"],
        auth=[],
        summary="A sold-out tournament's waiting list: the alternates called to a seat and the numbers waiting (no names)",
        responses=public_answers(PublicWaitingSerializer),
    )
    @versioned()
    def get(self, request, pk: int):
        tournament = Tournament.objects.filter(pk=pk).first() if request.state_version is not None else None
        if tournament is None:
            raise NotFound(_("No such tournament."))
        return Response(waiting_answer(tournament))
