"""The JSON API. Thin: parse with a serializer, check the role, call one service, serialize.

Permissions are the role sets of core.roles (the director may do everything); the
services check them again. Every refusal has the one error shape of web.api.
Tablets and scripts authenticate with `Authorization: Token <key>` from /api/auth/token/ (web/auth_api.py).
"""

from __future__ import annotations

from django.shortcuts import get_object_or_404
from django.utils.decorators import method_decorator
from django.views.decorators.debug import sensitive_post_parameters
from drf_spectacular.utils import extend_schema
from rest_framework import status
from rest_framework.response import Response

from core import roles
from tournament.models import AuditEvent, DisplayToken, Player, Purchase, Tournament
from tournament.selectors.stats import registration_problem, tournament_stats
from tournament.services import purchases, registration, setup
from web.access import api as api_roles
from web.api import RoleAPIView, answers, call_service, entry_or_404, tournament_or_404, valid
from web.tournament import structure_serializers as st
from web.tournament.structure_api import save_spec

from . import serializers as s


def purchase_or_404(pk: int, number: int) -> Purchase:
    return get_object_or_404(Purchase.objects.select_related("entry__player"), tournament_id=pk, number=number)


# --- tournaments -------------------------------------------------------------------------


class TournamentListView(RoleAPIView):
    allowed = api_roles("api-tournaments")

    @extend_schema(
        operation_id="tournaments_list", tags=["tournaments"], responses=answers(200, s.TournamentSerializer(many=True), lookup=False)
    )
    def get(self, request):
        return Response(s.TournamentSerializer(roles.worked(request.user, Tournament.objects.all()), many=True).data)

    @extend_schema(
        operation_id="tournaments_create",
        tags=["tournaments"],
        summary="Create a tournament from a structure template",
        request=s.TournamentCreateSerializer,
        responses=answers(201, s.TournamentSerializer, refused=True, lookup=False),
    )
    def post(self, request):
        data = dict(valid(s.TournamentCreateSerializer, request.data).validated_data)
        template = data.pop("template")
        tournament = call_service(setup.create_tournament, data, actor=request.user, template=template)
        return Response(s.TournamentSerializer(tournament).data, status=status.HTTP_201_CREATED)


class TournamentDetailView(RoleAPIView):
    allowed = api_roles("api-tournament")

    @extend_schema(operation_id="tournaments_retrieve", tags=["tournaments"], responses=answers(200, s.TournamentSerializer))
    def get(self, request, pk: int):
        return Response(s.TournamentSerializer(tournament_or_404(pk)).data)

    @extend_schema(
        operation_id="tournaments_update",
        tags=["tournaments"],
        summary="Change tournament settings",
        request=s.TournamentUpdateSerializer,
        responses=answers(200, s.TournamentSerializer, refused=True, conflict=True),
    )
    def patch(self, request, pk: int):
        tournament = tournament_or_404(pk)
        data = valid(s.TournamentUpdateSerializer, request.data, instance=tournament, partial=True).validated_data
        tournament = call_service(setup.update_tournament, tournament, actor=request.user, data=dict(data))
        return Response(s.TournamentSerializer(tournament).data)


class TournamentStructureView(RoleAPIView):
    allowed = api_roles("api-tournament-structure")

    @extend_schema(
        operation_id="tournaments_structure_export",
        tags=["tournaments"],
        summary="The tournament's own structure (export format)",
        responses=answers(200, st.StructureExportSerializer),
    )
    def get(self, request, pk: int):
        return Response(setup.export_structure(tournament_or_404(pk).structure))

    @extend_schema(
        operation_id="tournaments_structure_replace",
        tags=["tournaments"],
        summary="Replace the tournament's structure",
        request=st.StructureExportSerializer,
        responses=answers(200, st.StructureExportSerializer, refused=True),
    )
    def put(self, request, pk: int):
        tournament = tournament_or_404(pk)
        spec = valid(st.StructureExportSerializer, request.data).spec()
        saved = save_spec(
            setup.set_tournament_structure, request.user, tournament=tournament, spec=spec, starting_stack=tournament.starting_stack
        )
        return Response(setup.export_structure(saved.structure))


class RegistrationView(RoleAPIView):
    allowed = api_roles("api-registration")

    @extend_schema(
        operation_id="tournaments_registration",
        tags=["tournaments"],
        summary="Close or reopen registration",
        request=s.RegistrationToggleSerializer,
        responses=answers(200, s.RegistrationStateSerializer, refused=True),
    )
    def post(self, request, pk: int):
        tournament = tournament_or_404(pk)
        closed = valid(s.RegistrationToggleSerializer, request.data).validated_data["closed"]
        tournament = call_service(registration.set_registration_closed, tournament, actor=request.user, closed=closed)
        return Response(
            {"registration_closed": tournament.registration_closed, "registration_open": registration_problem(tournament) is None}
        )


class StatsView(RoleAPIView):
    allowed = api_roles("api-stats")

    @extend_schema(
        operation_id="tournaments_stats",
        tags=["tournaments"],
        summary="Entries, players left, prize pool, chips",
        responses=answers(200, s.StatsSerializer),
    )
    def get(self, request, pk: int):
        return Response(s.StatsSerializer(tournament_stats(tournament_or_404(pk))).data)


# --- players -----------------------------------------------------------------------------


class PlayerListView(RoleAPIView):
    allowed = api_roles("api-players")
    LIMIT = 50

    @extend_schema(
        operation_id="players_list",
        tags=["players"],
        summary="Find players by name or nickname",
        parameters=[s.PlayerSearchSerializer],  # the query as validated, limits included
        responses=answers(200, s.PlayerSerializer(many=True), refused=True, lookup=False),
    )
    def get(self, request):
        q = valid(s.PlayerSearchSerializer, request.query_params).validated_data["q"]
        players = Player.objects.named(q)  # folded: "novak" finds Novák, "vak" too
        if not q.strip():
            players = players.order_by("-created_at", "-id")
        return Response(s.PlayerSerializer(players[: self.LIMIT], many=True).data)

    @extend_schema(
        operation_id="players_create",
        tags=["players"],
        request=s.PlayerCreateSerializer,
        responses=answers(201, s.PlayerSerializer, refused=True, lookup=False),
    )
    def post(self, request):
        data = valid(s.PlayerCreateSerializer, request.data).validated_data
        player = call_service(registration.create_player, actor=request.user, **data)
        return Response(s.PlayerSerializer(player).data, status=status.HTTP_201_CREATED)


# --- entries -----------------------------------------------------------------------------


@method_decorator(sensitive_post_parameters("document_number"), name="dispatch")
class EntryListView(RoleAPIView):
    allowed = api_roles("api-entries")

    @extend_schema(
        operation_id="entries_list",
        tags=["entries"],
        parameters=[s.EntryFilterSerializer],
        responses=answers(200, s.EntrySerializer(many=True), refused=True),
    )
    def get(self, request, pk: int):
        tournament = tournament_or_404(pk)
        query = valid(s.EntryFilterSerializer, request.query_params).validated_data
        entries = tournament.entries.select_related("player").order_by("number")
        if query.get("status"):
            entries = entries.filter(status=query["status"])
        return Response(s.EntrySerializer(entries, many=True).data)

    @extend_schema(
        operation_id="entries_register",
        tags=["entries"],
        summary="Register an entry (or re-entry) with the ID check",
        description="The document number is only checked and hashed: the answer carries its last four characters. "
        "`seen` must be true: the person registering confirms having checked the document in "
        "person (the registration screen asks the same); without it nothing is registered (400). "
        "The player is a known one (`player`) or a new one (`new_player`: name, date of birth...), "
        "created in the same transaction as the entry: a refused registration (under age, a "
        "document used by another player or a live entry) keeps no new player record.",
        request=s.RegisterSerializer,
        responses=answers(201, s.RegistrationSerializer, refused=True, conflict=True),
    )
    def post(self, request, pk: int):
        tournament = tournament_or_404(pk)
        entry = valid(s.RegisterSerializer, request.data).registered(
            tournament, actor=request.user, known=registration.register_entry, new=registration.register_new_player
        )
        return Response(s.RegistrationSerializer(entry).data, status=status.HTTP_201_CREATED)


class EntryDetailView(RoleAPIView):
    allowed = api_roles("api-entry")

    @extend_schema(operation_id="entries_retrieve", tags=["entries"], responses=answers(200, s.EntrySerializer))
    def get(self, request, pk: int, number: int):
        return Response(s.EntrySerializer(entry_or_404(pk, number)).data)


class EntryRebuyView(RoleAPIView):
    allowed = api_roles("api-entry-rebuy")

    @extend_schema(
        operation_id="entries_rebuy",
        tags=["entries"],
        summary="Re-buy for a live entry",
        request=s.RebuySerializer,
        responses=answers(201, s.PurchaseSerializer, refused=True, conflict=True),
    )
    def post(self, request, pk: int, number: int):
        entry = entry_or_404(pk, number)
        paid = valid(s.RebuySerializer, request.data).validated_data["paid"]
        purchase = call_service(purchases.add_chips, entry, actor=request.user, kind=Purchase.Kind.REBUY, paid=paid)
        return Response(s.PurchaseSerializer(purchase).data, status=status.HTTP_201_CREATED)


class EntryAddonView(RoleAPIView):
    allowed = api_roles("api-entry-addon")

    @extend_schema(
        operation_id="entries_addon",
        tags=["entries"],
        summary="Add-on for a live entry (always paid)",
        request=None,
        responses=answers(201, s.PurchaseSerializer, refused=True, conflict=True),
    )
    def post(self, request, pk: int, number: int):
        entry = entry_or_404(pk, number)
        purchase = call_service(purchases.add_chips, entry, actor=request.user, kind=Purchase.Kind.ADDON)
        return Response(s.PurchaseSerializer(purchase).data, status=status.HTTP_201_CREATED)


# --- receipts ----------------------------------------------------------------------------


class ReceiptListView(RoleAPIView):
    allowed = api_roles("api-receipts")

    @extend_schema(
        operation_id="receipts_list",
        tags=["receipts"],
        parameters=[s.ReceiptFilterSerializer],
        responses=answers(200, s.PurchaseSerializer(many=True), refused=True),
    )
    def get(self, request, pk: int):
        tournament = tournament_or_404(pk)
        query = valid(s.ReceiptFilterSerializer, request.query_params).validated_data
        purchases = tournament.purchases.select_related("entry", "tournament").order_by("number")
        if query.get("status"):
            purchases = purchases.filter(status=query["status"])
        if query.get("entry"):
            purchases = purchases.filter(entry__number=query["entry"])
        return Response(s.PurchaseSerializer(purchases, many=True).data)


class ReceiptDetailView(RoleAPIView):
    allowed = api_roles("api-receipt")

    @extend_schema(operation_id="receipts_retrieve", tags=["receipts"], responses=answers(200, s.PurchaseSerializer))
    def get(self, request, pk: int, number: int):
        return Response(s.PurchaseSerializer(purchase_or_404(pk, number)).data)


class ReceiptPayView(RoleAPIView):
    allowed = api_roles("api-receipt-pay")

    @extend_schema(
        operation_id="receipts_pay",
        tags=["receipts"],
        summary="Take the money for an announced re-buy",
        request=None,
        responses=answers(200, s.PurchaseSerializer, conflict=True),
    )
    def post(self, request, pk: int, number: int):
        purchase = call_service(purchases.pay_purchase, purchase_or_404(pk, number), actor=request.user)
        return Response(s.PurchaseSerializer(purchase).data)


class ReceiptVoidView(RoleAPIView):
    allowed = api_roles("api-receipt-void")

    @extend_schema(
        operation_id="receipts_void",
        tags=["receipts"],
        summary="Void a receipt with a reason; voiding a buy-in voids the entry",
        request=s.VoidSerializer,
        responses=answers(200, s.PurchaseSerializer, refused=True, conflict=True),
    )
    def post(self, request, pk: int, number: int):
        purchase = purchase_or_404(pk, number)
        data = valid(s.VoidSerializer, request.data).validated_data
        purchase = call_service(
            registration.void_purchase, purchase, actor=request.user, reason=data["reason"], refund_amount=data.get("refund_amount")
        )
        return Response(s.PurchaseSerializer(purchase).data)


# --- events ------------------------------------------------------------------------------


class EventListView(RoleAPIView):
    allowed = api_roles("api-events")

    @extend_schema(
        operation_id="events_list",
        tags=["events"],
        summary="Audit events in sequence order",
        description="At most 500 per page. A client that saw a gap in sequence numbers asks again with after=<last seq it has>.",
        parameters=[s.EventQuerySerializer],
        responses=answers(200, s.EventPageSerializer, refused=True),
    )
    def get(self, request, pk: int):
        tournament = tournament_or_404(pk)
        query = valid(s.EventQuerySerializer, request.query_params).validated_data
        rows = list(AuditEvent.objects.filter(tournament=tournament, seq__gt=query["after"]).order_by("seq")[: query["limit"] + 1])
        more = len(rows) > query["limit"]
        rows = rows[: query["limit"]]
        return Response(
            {"events": s.EventSerializer(rows, many=True).data, "last_seq": rows[-1].seq if rows else query["after"], "more": more}
        )


# --- display tokens ----------------------------------------------------------------------


class DisplayListView(RoleAPIView):
    """The links are kept hashed: the creation answer carries the new link once; a list shows prefixes only."""

    allowed = api_roles("api-displays")
    idempotency_redact = ("token", "url")  # a replayed creation answer has no link: the server does not keep it

    @extend_schema(operation_id="displays_list", tags=["displays"], responses=answers(200, s.DisplayTokenSerializer(many=True)))
    def get(self, request, pk: int):
        tokens = tournament_or_404(pk).display_tokens.order_by("-created_at", "-id")
        return Response(s.DisplayTokenSerializer(tokens, many=True, context={"request": request}).data)

    @extend_schema(
        operation_id="displays_create",
        tags=["displays"],
        summary="A link for a lobby screen",
        request=s.DisplayCreateSerializer,
        responses=answers(201, s.DisplayTokenSerializer, refused=True),
    )
    def post(self, request, pk: int):
        tournament = tournament_or_404(pk)
        label = valid(s.DisplayCreateSerializer, request.data).validated_data["label"]
        token = call_service(registration.create_display_token, tournament, actor=request.user, label=label)
        return Response(s.DisplayTokenSerializer(token, context={"request": request}).data, status=status.HTTP_201_CREATED)


class DisplayRevokeView(RoleAPIView):
    allowed = api_roles("api-display-revoke")
    idempotency_redact = ("token", "url")  # the link's answer: its secret is never in it, nor kept

    @extend_schema(
        operation_id="displays_revoke",
        tags=["displays"],
        summary="Revoke a screen's link; the screen goes blank",
        request=None,
        responses=answers(200, s.DisplayTokenSerializer, conflict=True),
    )
    def post(self, request, pk: int, display_id: int):
        token = get_object_or_404(DisplayToken, tournament_id=pk, pk=display_id)
        token = call_service(registration.revoke_display_token, token, actor=request.user)
        return Response(s.DisplayTokenSerializer(token, context={"request": request}).data)
