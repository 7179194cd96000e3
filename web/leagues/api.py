"""JSON API of the leagues (leagues/services/leagues.py, leagues/selectors/leagues.py): the staff read the leagues and a
league's state (its formula in words and as a table for a field size, its tournaments, its standings); the director
makes a league, changes its settings and adds or takes out its tournaments. The players' phones read the standings
from the public answer (names and points only). Every POST, PATCH and DELETE honours the Idempotency-Key header."""

from __future__ import annotations

from django.shortcuts import get_object_or_404
from django.utils.translation import get_language
from drf_spectacular.utils import OpenApiParameter, extend_schema, inline_serializer
from rest_framework import serializers, status
from rest_framework.response import Response

from core import roles
from leagues.models import League
from leagues.rules import points
from leagues.selectors import leagues as leagues_selectors
from leagues.selectors.player_results import player_results
from leagues.services import leagues as leagues_services
from tournament.models import Player, Tournament
from web.access import api as api_roles
from web.api import PublicAPIView, RoleAPIView, answers, call_service, public_answers, valid
from web.flights.api import TournamentRefSerializer

FORMULA = serializers.CharField(
    help_text="table (a points table by place), linear (field - place + 1) or square_root (10 × √field ÷ √place)."
)

LeagueSummarySerializer = inline_serializer(
    "LeagueSummary",
    many=True,
    fields={
        "id": serializers.IntegerField(),
        "name": serializers.CharField(),
        "formula": FORMULA,
        "tournaments": serializers.IntegerField(),
        "best_results": serializers.IntegerField(allow_null=True, help_text="How many results count; null: all."),
    },
)

StandingSerializer = inline_serializer(
    "LeagueStanding",
    many=True,
    fields={
        "rank": serializers.IntegerField(help_text="Players still equal after the tie rule share a rank."),
        "player": serializers.IntegerField(),
        "name": serializers.CharField(),
        "points": serializers.IntegerField(help_text="The counted points, in hundredths."),
        "shown": serializers.CharField(help_text="The counted points as shown: 54.77, or 26."),
        "total": serializers.IntegerField(help_text="Every result's points, counted or not (hundredths)."),
        "played": serializers.IntegerField(),
        "counted": serializers.IntegerField(help_text="Results counted."),
        "counted_tournaments": serializers.ListField(child=serializers.IntegerField()),
        "best_place": serializers.IntegerField(allow_null=True),
        "wins": serializers.IntegerField(),
    },
)

LeagueStateSerializer = inline_serializer(
    "League",
    {
        "id": serializers.IntegerField(),
        "name": serializers.CharField(),
        "formula": FORMULA,
        "points_table": serializers.ListField(child=serializers.IntegerField(), help_text="Whole points by place."),
        "participation": serializers.IntegerField(),
        "knockout_points": serializers.IntegerField(help_text="Whole points for each knockout (bounty events; a split pot's share)."),
        "base_buy_in": serializers.IntegerField(allow_null=True),
        "currency": serializers.CharField(),
        "best_results": serializers.IntegerField(allow_null=True),
        "lobby_standings": serializers.BooleanField(),
        "formula_words": serializers.CharField(),
        "counted_words": serializers.CharField(),
        "tie_rule": serializers.CharField(),
        "example_field": serializers.IntegerField(),
        "example": serializers.ListField(child=serializers.JSONField(), help_text="place, points (hundredths), shown."),
        "tournaments": serializers.ListField(
            child=serializers.JSONField(),
            help_text=(
                "tournament, name, start_at, buy_in, currency, status, points_given (players with points from it), event (the "
                "event with flights it is the Day 2 of, whose flights' players count in it; null for any other)."
            ),
        ),
        "standings": StandingSerializer,
    },
)

PublicStandingsSerializer = inline_serializer(
    "PublicLeagueStandings",
    {
        "id": serializers.IntegerField(),
        "name": serializers.CharField(),
        "counted_words": serializers.CharField(),
        "tie_rule": serializers.CharField(),
        "tournaments": serializers.IntegerField(),
        "finished": serializers.IntegerField(help_text="Tournaments whose points are given."),
        "standings": inline_serializer(
            "PublicLeagueStanding",
            many=True,
            fields={
                "rank": serializers.IntegerField(),
                "name": serializers.CharField(),
                "shown": serializers.CharField(),
                "played": serializers.IntegerField(),
                "wins": serializers.IntegerField(),
            },
        ),
    },
)


class LeagueSettingsSerializer(serializers.Serializer):
    name = serializers.CharField(max_length=300, allow_blank=True, required=False)
    formula = serializers.ChoiceField(choices=list(points.KINDS), required=False)
    points_table = serializers.JSONField(
        required=False,
        help_text=('Whole points by place, place 1 first: a list [25, 18, 13] or the text "25, 18, 13"; never more for a worse place.'),
    )
    participation = serializers.IntegerField(required=False, min_value=0, max_value=points.MAX_POINTS)
    knockout_points = serializers.IntegerField(
        required=False, min_value=0, max_value=points.MAX_POINTS, help_text="Whole points for each knockout in a bounty event."
    )
    base_buy_in = serializers.IntegerField(
        required=False,
        allow_null=True,
        min_value=1,
        max_value=2**31 - 1,
        help_text=("Minor units; set: each tournament's points × its buy-in ÷ this. null: no buy-in factor."),
    )
    currency = serializers.CharField(required=False, max_length=3, help_text="The currency of the base buy-in.")
    best_results = serializers.IntegerField(
        required=False, allow_null=True, min_value=1, max_value=1000, help_text="How many results of each player count; null: all."
    )
    lobby_standings = serializers.BooleanField(required=False)


class LeagueCreateSerializer(LeagueSettingsSerializer):
    name = serializers.CharField(max_length=300, allow_blank=True)


def _league(league_id: int) -> League:
    return get_object_or_404(League, pk=league_id)


def _state(request, league: League) -> dict:
    try:
        field = min(max(int(request.query_params.get("field", 30)), 1), 10_000)
    except (TypeError, ValueError):
        field = 30
    return leagues_selectors.league_state(league, get_language(), field)


FIELD = OpenApiParameter("field", int, description="The field size of the example table (30 by default, 1-10,000).")


class LeagueListView(RoleAPIView):
    allowed = api_roles("api-leagues")

    @extend_schema(
        operation_id="leagues",
        tags=["leagues"],
        responses=answers(200, LeagueSummarySerializer),
        summary="Every league (season), the newest first",
    )
    def get(self, request):
        return Response(leagues_selectors.league_list(roles.worked_ids(request.user)))  # those touching a tournament worked

    @extend_schema(
        operation_id="leagues_create",
        tags=["leagues"],
        request=LeagueCreateSerializer,
        responses=answers(201, LeagueStateSerializer, refused=True, lookup=False),
        summary="A new league (the director): its points formula and standings settings",
    )
    def post(self, request):
        data = valid(LeagueCreateSerializer, request.data).validated_data
        league = call_service(leagues_services.create_league, actor=request.user, data=dict(data))
        return Response(_state(request, league), status=status.HTTP_201_CREATED)


class LeagueDetailView(RoleAPIView):
    allowed = api_roles("api-league")

    @extend_schema(
        operation_id="league",
        tags=["leagues"],
        parameters=[FIELD],
        responses=answers(200, LeagueStateSerializer),
        summary="A league: its formula in words and as a table, its tournaments and its standings",
    )
    def get(self, request, league_id: int):
        return Response(_state(request, _league(league_id)))

    @extend_schema(
        operation_id="league_settings",
        tags=["leagues"],
        request=LeagueSettingsSerializer,
        responses=answers(200, LeagueStateSerializer, refused=True),
        summary="Change a league's settings; a new formula gives its finished tournaments' points again",
    )
    def patch(self, request, league_id: int):
        league = _league(league_id)
        data = valid(LeagueSettingsSerializer, request.data).validated_data
        league = call_service(leagues_services.update_league, league, actor=request.user, data=dict(data))
        return Response(_state(request, league))


class LeagueTournamentsView(RoleAPIView):
    allowed = api_roles("api-league-tournaments")

    @extend_schema(
        operation_id="league_add_tournament",
        tags=["leagues"],
        request=TournamentRefSerializer,
        responses=answers(201, LeagueStateSerializer, refused=True, conflict=True),
        summary="A tournament joins the league (one league at most); a finished one gets its points at once",
    )
    def post(self, request, league_id: int):
        league = _league(league_id)
        data = valid(TournamentRefSerializer, request.data).validated_data
        call_service(leagues_services.add_tournament, league, actor=request.user, tournament=data["tournament"])
        return Response(_state(request, league), status=status.HTTP_201_CREATED)


class LeagueTournamentView(RoleAPIView):
    allowed = api_roles("api-league-tournament")

    @extend_schema(
        operation_id="league_remove_tournament",
        tags=["leagues"],
        request=None,
        responses=answers(200, LeagueStateSerializer, conflict=True),
        summary="A tournament leaves the league, and its points with it",
    )
    def delete(self, request, league_id: int, tournament_id: int):
        league = _league(league_id)
        tournament = get_object_or_404(Tournament, pk=tournament_id)
        call_service(leagues_services.remove_tournament, league, actor=request.user, tournament=tournament)
        return Response(_state(request, league))


PlayerResultsSerializer = inline_serializer(
    "PlayerResults",
    {
        "player": serializers.IntegerField(),
        "name": serializers.CharField(),
        "played": serializers.IntegerField(),
        "cashes": serializers.IntegerField(),
        "wins": serializers.IntegerField(),
        "totals": serializers.ListField(child=serializers.JSONField(), help_text="currency, prizes and paid, per currency."),
        "tournaments": serializers.ListField(
            child=serializers.JSONField(),
            help_text=(
                "Newest first: tournament, name, start_at, currency, entries (his entry numbers), place and place_low (his best; "
                "null while he plays or before his place is known), playing, prize (won: paid, or due where play is over), paid, "
                "receipts (payout receipt numbers), points and points_shown (league points, null outside a league), league, seats "
                "(a satellite's seats he won there, each its target and target_name; empty elsewhere)."
            ),
        ),
        "tickets": serializers.ListField(
            child=serializers.JSONField(),
            help_text=(
                "The satellite tickets he won or holds, newest first (void ones left out): satellite, satellite_name, number, "
                "target, target_name, status (issued, used), value, currency, held (false: passed to holder_name), used_entry."
            ),
        ),
    },
)


class PlayerResultsView(RoleAPIView):
    allowed = api_roles("api-player-results")

    @extend_schema(
        operation_id="player_results",
        tags=["leagues"],
        responses=answers(200, PlayerResultsSerializer),
        summary="A player's results: his tournaments, places, prizes, league points and tickets",
    )
    def get(self, request, player_id: int):
        player = get_object_or_404(Player, pk=player_id)  # the results in the tournaments worked only
        return Response(player_results(player, roles.worked_ids(request.user)))


class PublicStandingsView(PublicAPIView):
    """The standings as a player's phone reads them: names, points, results played and wins; nothing else."""

    @extend_schema(
        operation_id="public_league_standings",
        tags=["public"],
        auth=[],
        responses=public_answers(PublicStandingsSerializer),
        summary="A league's standings (public)",
    )
    def get(self, request, league_id: int):
        return Response(leagues_selectors.public_standings(_league(league_id)))
