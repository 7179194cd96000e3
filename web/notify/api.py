"""The public endpoints of the notifications (docs/notifications.md): a phone opts in for an entry (its seat page) or
for an alternate's place (the waiting board), and opts out (the page's "Stop telling me", or "Stop" on a notification,
sent by the service worker). No login: the subscription's endpoint is the phone's own secret, so knowing it is what
lets a phone stop it; the answer to a stop is the same whether or not there was one. Throttled as every public
request (per device, per address) and, tighter, per device for these writes (WEBPUSH_SUBSCRIBE_RATE)."""

from __future__ import annotations

from django.conf import settings
from django.shortcuts import get_object_or_404
from django.utils import translation
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from drf_spectacular.utils import extend_schema, inline_serializer
from rest_framework import serializers
from rest_framework.exceptions import NotFound, ValidationError
from rest_framework.response import Response

from notify.rules.keys import ENDPOINT_MAX, BadSubscription, checked
from notify.selectors.notices import phones_of, phones_of_place
from notify.services import subscriptions
from tournament.models import Entry, WaitingPlace
from web.api import CONFLICT, PublicAPIView, PublicRateThrottle, call_service, public_answers, valid

LANGUAGES = [code for code, _name in settings.PLAYER_LANGUAGES]  # the seat page's and the board's languages


class SubscribeThrottle(PublicRateThrottle):
    """Opt-ins and opt-outs per device (WEBPUSH_SUBSCRIBE_RATE, 10 a minute by default: a phone presses the button a few
    times a night; a script that stores subscriptions in bulk is slowed). A request without the device cookie counts
    against its address's ceiling only (PublicAddressThrottle), so a room behind one NAT address opting in at the draw is
    never refused; an entry holds at most WEBPUSH_MAX_PER_ENTRY phones whatever the rate."""

    scope = "push"

    def get_rate(self) -> str:
        return settings.WEBPUSH_SUBSCRIBE_RATE


class KeysSerializer(serializers.Serializer):
    p256dh = serializers.CharField(help_text="The browser's P-256 public key, an uncompressed point, base64url.", trim_whitespace=False)
    auth = serializers.CharField(help_text="The browser's 16 auth bytes, base64url.", trim_whitespace=False)


class SubscribeSerializer(serializers.Serializer):
    endpoint = serializers.CharField(help_text="The push service's https address for this browser.", trim_whitespace=False)
    keys = KeysSerializer()
    language = serializers.CharField(required=False, help_text="The page's language: the messages' (en-gb, cs, sk, de, pl, hu).")


class StopSerializer(serializers.Serializer):
    endpoint = serializers.CharField(max_length=ENDPOINT_MAX, help_text="The endpoint of the subscription to stop.", trim_whitespace=False)
    via = serializers.ChoiceField(choices=["page", "notification"], required=False, default="page")


SUBSCRIBED = inline_serializer("PushSubscribed", {"subscribed": serializers.BooleanField(), "phones": serializers.IntegerField()})
STOPPED = inline_serializer("PushStopped", {"subscribed": serializers.BooleanField()})
MESSAGES = {
    "missing": gettext_lazy("The subscription has no %(field)s."),
    "too_long": gettext_lazy("The subscription's %(field)s is too long."),
    "not_https": gettext_lazy("The subscription's endpoint is not an https address."),
    "not_a_push_service": gettext_lazy("The subscription's endpoint is not a push service this server sends to."),
    "not_base64url": gettext_lazy("The subscription's %(field)s is not base64url."),
    "not_a_p256_point": gettext_lazy("The subscription's p256dh key is not a P-256 public key."),
    "not_16_bytes": gettext_lazy("The subscription's auth secret is not 16 bytes."),
}


def subscription_of(request):
    """The posted subscription checked (400 naming what is wrong, nothing stored) and the language of its messages."""
    data = request.data if isinstance(request.data, dict) else {}
    try:
        found = checked(data, allowed_hosts=settings.WEBPUSH_PUSH_HOSTS)
    except BadSubscription as exc:
        message = str(MESSAGES.get(exc.code) or _("The subscription is not one.")) % {"field": exc.field}
        raise ValidationError({exc.field: [message]})
    language = data.get("language") if data.get("language") in LANGUAGES else translation.get_language()
    if language not in LANGUAGES:
        language = settings.LANGUAGE_CODE
    return found, language


def _entry(pk: int, number: int) -> Entry:
    entry = Entry.objects.filter(tournament_id=pk, number=number).first()
    if entry is None:
        raise NotFound(_("There is no entry #%(number)s.") % {"number": number})
    return entry


def _place(pk: int, number: int) -> WaitingPlace:
    return get_object_or_404(WaitingPlace, tournament_id=pk, number=number)


def _off() -> None:
    if not settings.WEBPUSH_VAPID_PRIVATE_KEY:
        raise NotFound(_("This server sends no notifications."))


class PushView(PublicAPIView):
    throttle_classes = [*PublicAPIView.throttle_classes, SubscribeThrottle]


class SeatPushView(PushView):
    @extend_schema(
        operation_id="public_seat_push",
        tags=["public"],
        auth=[],
        summary="Tell this phone of the entry: his seat at the draws, his moves, in the money, his prize",
        request=SubscribeSerializer,
        responses={**public_answers(SUBSCRIBED), 409: CONFLICT},
    )
    def post(self, request, pk: int, number: int):
        _off()
        found, language = subscription_of(request)
        entry = _entry(pk, number)
        call_service(subscriptions.subscribe, entry, actor=None, subscription=found, language=language)
        phones = phones_of(entry)
        return Response({"subscribed": True, "phones": phones}, status=201)


class SeatPushStopView(PushView):
    @extend_schema(
        operation_id="public_seat_push_stop",
        tags=["public"],
        auth=[],
        summary="Tell this phone of the entry no more",
        request=StopSerializer,
        responses=public_answers(STOPPED),
    )
    def post(self, request, pk: int, number: int):
        body = valid(StopSerializer, request.data).validated_data
        call_service(subscriptions.unsubscribe, _entry(pk, number), actor=None, endpoint=body["endpoint"], via=body["via"])
        return Response({"subscribed": False})


class WaitingPushView(PushView):
    @extend_schema(
        operation_id="public_waiting_push",
        tags=["public"],
        auth=[],
        summary="Tell this phone when the alternate's seat is offered (then of his entry)",
        request=SubscribeSerializer,
        responses={**public_answers(SUBSCRIBED), 409: CONFLICT},
    )
    def post(self, request, pk: int, number: int):
        _off()
        found, language = subscription_of(request)
        place = _place(pk, number)
        call_service(subscriptions.subscribe_place, place, actor=None, subscription=found, language=language)
        return Response({"subscribed": True, "phones": phones_of_place(place)}, status=201)


class WaitingPushStopView(PushView):
    @extend_schema(
        operation_id="public_waiting_push_stop",
        tags=["public"],
        auth=[],
        summary="Tell this phone of the alternate's place no more",
        request=StopSerializer,
        responses=public_answers(STOPPED),
    )
    def post(self, request, pk: int, number: int):
        body = valid(StopSerializer, request.data).validated_data
        call_service(subscriptions.unsubscribe_place, _place(pk, number), actor=None, endpoint=body["endpoint"], via=body["via"])
        return Response({"subscribed": False})
