"""JSON API of the events with Day 1 flights into one Day 2 (flights/services/events.py, flights/selectors/events.py): the floor
reads the events, each event's state (its flights with the players left and the "ends at the end of this level" line,
Day 2, the pool summed over the flights, the bags carried and forfeited) and the forfeited list;
the director makes the event, adds its flights, names its Day 2, sets the stack policy and Day 2 late registration,
each flight's end, and carries the bags into Day 2. Every POST and PATCH honours the Idempotency-Key header."""

from __future__ import annotations

from django.shortcuts import get_object_or_404
from django.utils.decorators import method_decorator
from django.utils.translation import gettext as _
from django.views.decorators.cache import never_cache
from drf_spectacular.utils import extend_schema, inline_serializer
from rest_framework import serializers, status
from rest_framework.response import Response

from flights.models import Event, Flight
from flights.rules import flights as flights_flight_rules
from flights.selectors import events as flights_selectors
from flights.services import events as flights_services
from tournament.models import Tournament
from web.access import api as api_roles
from web.api import RoleAPIView, answers, call_service, valid
from web.flights.views import worked_by

MAX_ID = 2**63 - 1
# Text, not an enum: a second choice set under a common name would collide with the others' in the schema.
POLICY = serializers.CharField(help_text="best (best stack forward) or first (first stack forward).")

EventSummarySerializer = inline_serializer(
    "FlightEventSummary",
    many=True,
    fields={
        "id": serializers.IntegerField(),
        "name": serializers.CharField(),
        "policy": POLICY,
        "day2": serializers.IntegerField(allow_null=True, help_text="The Day 2 tournament's id; null until it is set."),
        "flights": serializers.ListField(child=serializers.CharField(), help_text="The flights' labels, earliest first."),
    },
)

BagRowSerializer = inline_serializer(
    "FlightBag",
    many=True,
    fields={
        "entry": serializers.IntegerField(help_text="The entry number in its flight."),
        "name": serializers.CharField(),
        "flight": serializers.CharField(),
        "bag": serializers.CharField(),
        "chips": serializers.IntegerField(),
        "day2_entry": serializers.IntegerField(allow_null=True, help_text="The Day 2 entry made of the bag; null: forfeited."),
    },
)

EventStateSerializer = inline_serializer(
    "FlightEvent",
    {
        "id": serializers.IntegerField(),
        "name": serializers.CharField(),
        "policy": POLICY,
        "day2_late_registration": serializers.BooleanField(),
        "day2_late_stack": serializers.IntegerField(allow_null=True, help_text="The chips of a Day 2 late registration."),
        "carried": serializers.BooleanField(help_text="The bags went on to Day 2."),
        "flights": serializers.ListField(
            child=serializers.JSONField(),
            help_text=(
                "Each flight, earliest first: tournament, name, label, status (setup, running, finished, ending, closed, "
                "carried), status_words, entries, players_left, end_after_level, end_share_percent, threshold (players left at "
                'which the share rule ends it), ending (null, or players, level, players_at_ending and message: "N players '
                'left: this flight ends at the end of this level."), day1_closed, bags, bags_total, carried_at.'
            ),
        ),
        "day2": serializers.JSONField(
            allow_null=True,
            help_text=("null until set; tournament, name, entries (its own: carried and late), players_left, registration_open."),
        ),
        "pool": serializers.JSONField(
            help_text=("One prize pool over every flight and Day 2: entries, unique_players, collected, fees, prize_pool, currency.")
        ),
        "places_warning": serializers.JSONField(
            allow_null=True,
            help_text=(
                "null, or places_paid, players_sent_on and message: Day 2's payout structure pays more places than the "
                "players the flights' share rules send on (the sum of their thresholds; counted only when every flight has a "
                "share rule, and until the bags went on). Places are paid from Day 2 only."
            ),
        ),
        "bags": serializers.IntegerField(help_text="Current Day 1 bags of players still in, in every flight."),
        "bags_total": serializers.IntegerField(),
        "carried_total": serializers.IntegerField(),
        "forfeited_total": serializers.IntegerField(help_text="The forfeited bags' chips: not in Day 2."),
        "carried_bags": BagRowSerializer,
        "forfeited_bags": BagRowSerializer,
    },
)

CarrySerializer = inline_serializer(
    "FlightCarry",
    {
        "event": serializers.IntegerField(),
        "carried": serializers.IntegerField(help_text="Day 2 entries made."),
        "forfeited": serializers.IntegerField(),
        "chips": serializers.IntegerField(help_text="The carried bags' chips."),
        "forfeited_chips": serializers.IntegerField(),
        "flights": serializers.IntegerField(),
    },
)


class CreateEventSerializer(serializers.Serializer):
    name = serializers.CharField(max_length=300, allow_blank=True)
    policy = serializers.ChoiceField(choices=list(flights_flight_rules.POLICIES), default=flights_flight_rules.BEST, required=False)


class SettingsSerializer(serializers.Serializer):
    policy = serializers.ChoiceField(choices=list(flights_flight_rules.POLICIES), required=False)
    day2_late_registration = serializers.BooleanField(required=False)
    day2_late_stack = serializers.IntegerField(required=False, allow_null=True, min_value=0, max_value=2**31 - 1)


class TournamentRefSerializer(serializers.Serializer):
    tournament = serializers.IntegerField(min_value=1, max_value=MAX_ID, help_text="A tournament's id.")

    def validate_tournament(self, value: int) -> Tournament:
        found = Tournament.objects.filter(pk=value).first()
        if found is None:
            raise serializers.ValidationError(_("No tournament %(id)s.") % {"id": value})
        return found


class AddFlightSerializer(TournamentRefSerializer):
    label = serializers.CharField(max_length=64, allow_blank=True, help_text="The flight's label, such as 1A.")


class FlightEndSerializer(serializers.Serializer):
    after_level = serializers.IntegerField(
        required=False,
        allow_null=True,
        min_value=1,
        max_value=1000,
        help_text=("The flight ends after this level (the clock stops by itself); null: no such rule."),
    )
    share_percent = serializers.IntegerField(
        required=False,
        allow_null=True,
        min_value=0,
        max_value=100,
        help_text=("The flight ends at the end of the level in which this share of its entries or fewer is left (1-99); null: none."),
    )


def _event(event_id: int) -> Event:
    return get_object_or_404(Event, pk=event_id)


class EventListView(RoleAPIView):
    allowed = api_roles("api-flight-events")

    @extend_schema(
        operation_id="flight_events",
        tags=["flights"],
        responses=answers(200, EventSummarySerializer),
        summary="Every event with Day 1 flights into one Day 2, the newest first",
    )
    def get(self, request):
        return Response(flights_selectors.event_list(worked_by(request.user)))

    @extend_schema(
        operation_id="flight_events_create",
        tags=["flights"],
        request=CreateEventSerializer,
        responses=answers(201, EventStateSerializer, refused=True, lookup=False),
        summary="A new event with flights (the director), with its stack policy",
    )
    def post(self, request):
        data = valid(CreateEventSerializer, request.data).validated_data
        event = call_service(
            flights_services.create_event, actor=request.user, name=data["name"], policy=data.get("policy", flights_flight_rules.BEST)
        )
        return Response(flights_selectors.event_state(event), status=status.HTTP_201_CREATED)


class EventDetailView(RoleAPIView):
    allowed = api_roles("api-flight-event")

    @extend_schema(
        operation_id="flight_event",
        tags=["flights"],
        responses=answers(200, EventStateSerializer),
        summary="The event: its flights (players left, the end of a flight), Day 2, the pool, the bags",
    )
    def get(self, request, event_id: int):
        return Response(flights_selectors.event_state(_event(event_id)))


class EventSettingsView(RoleAPIView):
    allowed = api_roles("api-flight-event-settings")

    @extend_schema(
        operation_id="flight_event_settings",
        tags=["flights"],
        request=SettingsSerializer,
        responses=answers(200, EventStateSerializer, refused=True, conflict=True),
        summary="The stack policy (until a flight has entries) and Day 2 late registration with its stack",
    )
    def patch(self, request, event_id: int):
        event = _event(event_id)
        data = valid(SettingsSerializer, request.data).validated_data
        if "policy" in data:
            event = call_service(flights_services.set_policy, event, actor=request.user, policy=data["policy"])
        if "day2_late_registration" in data or "day2_late_stack" in data:
            allowed = data.get("day2_late_registration", event.day2_late_registration)
            stack = data.get("day2_late_stack", event.day2_late_stack)
            event = call_service(flights_services.set_day2_late_registration, event, actor=request.user, allowed=allowed, stack=stack)
        return Response(flights_selectors.event_state(event))


class EventFlightsView(RoleAPIView):
    allowed = api_roles("api-flight-event-flights")

    @extend_schema(
        operation_id="flight_event_add_flight",
        tags=["flights"],
        request=AddFlightSerializer,
        responses=answers(201, EventStateSerializer, refused=True, conflict=True),
        summary="A tournament in setup becomes a Day 1 flight of the event",
    )
    def post(self, request, event_id: int):
        event = _event(event_id)
        data = valid(AddFlightSerializer, request.data).validated_data
        call_service(flights_services.add_flight, event, actor=request.user, tournament=data["tournament"], label=data["label"])
        return Response(flights_selectors.event_state(event), status=status.HTTP_201_CREATED)


class EventDay2View(RoleAPIView):
    allowed = api_roles("api-flight-event-day2")

    @extend_schema(
        operation_id="flight_event_day2",
        tags=["flights"],
        request=TournamentRefSerializer,
        responses=answers(200, EventStateSerializer, refused=True, conflict=True),
        summary="The event's Day 2 tournament, set once (the same buy-in and currency as the flights)",
    )
    def post(self, request, event_id: int):
        event = _event(event_id)
        data = valid(TournamentRefSerializer, request.data).validated_data
        event = call_service(flights_services.set_day2, event, actor=request.user, tournament=data["tournament"])
        return Response(flights_selectors.event_state(event))


class FlightEndView(RoleAPIView):
    allowed = api_roles("api-flight-end")

    @extend_schema(
        operation_id="flight_end",
        tags=["flights"],
        request=FlightEndSerializer,
        responses=answers(200, EventStateSerializer, refused=True, conflict=True),
        summary="How a flight ends: after level N, and/or when a share of its field is left",
    )
    def post(self, request, event_id: int, tournament_id: int):
        event = _event(event_id)
        flight = get_object_or_404(Flight, event=event, tournament_id=tournament_id)
        data = valid(FlightEndSerializer, request.data).validated_data
        call_service(
            flights_services.set_flight_end,
            flight,
            actor=request.user,
            after_level=data.get("after_level", flight.end_after_level),
            share_percent=data.get("share_percent", flight.end_share_percent),
        )
        return Response(flights_selectors.event_state(event))


class CarryView(RoleAPIView):
    allowed = api_roles("api-flight-carry")

    @extend_schema(
        operation_id="flight_event_carry",
        tags=["flights"],
        request=None,
        responses=answers(200, CarrySerializer, conflict=True),
        summary="Every flight's bags go on to Day 2 by the stack policy, once every Day 1 is closed",
    )
    def post(self, request, event_id: int):
        return Response(call_service(flights_services.carry_to_day2, _event(event_id), actor=request.user))


class ForfeitedView(RoleAPIView):
    allowed = api_roles("api-flight-forfeited")

    @extend_schema(
        operation_id="flight_event_forfeited",
        tags=["flights"],
        responses=answers(200, BagRowSerializer),
        summary="The bags forfeited by the stack policy at the carry: their chips are not in Day 2",
    )
    def get(self, request, event_id: int):
        return Response(flights_selectors.forfeited(_event(event_id)))


@method_decorator(never_cache, name="dispatch")
class FlightEndingView(RoleAPIView):
    allowed = api_roles("api-flight-ending")

    @extend_schema(
        operation_id="flight_ending",
        tags=["flights"],
        summary='A Day 1 flight\'s "this flight ends" line, as the table map shows it above its tables (or null)',
        responses=answers(
            200,
            inline_serializer(
                "FlightEnding",
                {
                    "ending": serializers.DictField(
                        allow_null=True,
                        help_text="The floor's line (`message`), with its players and level; null when the flight is not about to end.",
                    )
                },
            ),
        ),
    )
    def get(self, request, pk: int):
        return Response({"ending": flights_selectors.flight_ending(get_object_or_404(Tournament, pk=pk))})
