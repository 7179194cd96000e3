"""JSON API of dealer links (tables/services/dealer_links.py): the floor makes a link for one table's dealer
tablet (its URL shown only in the answer that makes it), lists a table's links and revokes one."""

from __future__ import annotations

from django.shortcuts import get_object_or_404
from django.urls import reverse
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import extend_schema, extend_schema_field
from rest_framework import serializers, status
from rest_framework.response import Response

from tables.models import DealerLink, Table
from tables.services import dealer_links
from web.access import api as api_roles
from web.api import RoleAPIView, answers, call_service, valid


class DealerLinkCreateSerializer(serializers.Serializer):
    label = serializers.CharField(
        max_length=80, required=False, allow_blank=True, default="", help_text='Which tablet it is for (e.g. "tablet 7").'
    )


class DealerLinkSerializer(serializers.ModelSerializer):
    """The secret is kept only as a hash: `token` and `url` are in the answer that makes the link, null on every other."""

    table = serializers.IntegerField(source="table.number", read_only=True)
    token = serializers.SerializerMethodField(help_text="The link's secret: in the creation answer only, null afterwards.")
    url = serializers.SerializerMethodField(help_text="The dealer tablet's address (a URL, not a login): in the creation answer only.")
    created_by = serializers.CharField(source="created_by.username", read_only=True)

    class Meta:
        model = DealerLink
        fields = ("id", "table", "label", "token", "url", "active", "created_at", "created_by", "revoked_at")

    def get_token(self, obj: DealerLink) -> str | None:
        return self.context.get("token")

    @extend_schema_field(OpenApiTypes.URI)
    def get_url(self, obj: DealerLink) -> str | None:
        token = self.context.get("token")
        if not token:
            return None
        path = reverse("dealer-link", kwargs={"token": token})
        request = self.context.get("request")
        return request.build_absolute_uri(path) if request is not None else path


class TableDealerLinksView(RoleAPIView):
    allowed = api_roles("api-table-dealer-links")
    idempotency_redact = ("token", "url")  # a replay of the creation never shows the secret again

    @extend_schema(
        operation_id="tables_dealer_links",
        tags=["tables"],
        summary="A table's dealer links (never their secret)",
        responses=answers(200, DealerLinkSerializer(many=True)),
    )
    def get(self, request, pk: int, number: int):
        table = get_object_or_404(Table, tournament_id=pk, number=number)
        links = DealerLink.objects.filter(table=table).select_related("table", "created_by").order_by("-id")
        return Response(DealerLinkSerializer(links, many=True).data)

    @extend_schema(
        operation_id="tables_dealer_link_create",
        tags=["tables"],
        request=DealerLinkCreateSerializer,
        summary="A link that opens this table's dealer tablet without a login (shown only in this answer)",
        responses=answers(201, DealerLinkSerializer, refused=True, conflict=True),
    )
    def post(self, request, pk: int, number: int):
        table = get_object_or_404(Table.objects.select_related("tournament"), tournament_id=pk, number=number)
        label = valid(DealerLinkCreateSerializer, request.data).validated_data["label"]
        link, token = call_service(dealer_links.create_dealer_link, table, actor=request.user, label=label)
        context = {"request": request, "token": token}
        return Response(DealerLinkSerializer(link, context=context).data, status=status.HTTP_201_CREATED)


class DealerLinkRevokeView(RoleAPIView):
    allowed = api_roles("api-dealer-link-revoke")
    idempotency_redact = ("token", "url")  # the link's answer: its secret is never in it, nor kept

    @extend_schema(
        operation_id="dealer_links_revoke",
        tags=["tables"],
        request=None,
        summary="Revoke a dealer link: it stops working at once and its tablet goes blank",
        responses=answers(200, DealerLinkSerializer, conflict=True),
    )
    def post(self, request, pk: int, link_id: int):
        link = get_object_or_404(DealerLink.objects.select_related("table__tournament", "created_by"), table__tournament_id=pk, pk=link_id)
        link = call_service(dealer_links.revoke_dealer_link, link, actor=request.user)
        return Response(DealerLinkSerializer(link).data)
