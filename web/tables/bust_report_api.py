"""JSON API of busts reported on the dealer tablet (tables/services/bust_reports.py): the dealer reports the seat that
busted and the seats that won the pot; the floor lists the reports waiting for it, confirms one with one press or
rejects it with a reason."""

from __future__ import annotations

from django.shortcuts import get_object_or_404
from drf_spectacular.utils import extend_schema
from rest_framework import serializers, status
from rest_framework.response import Response

from tables.models import BustReport, Table
from tables.services import bust_reports, busts, eliminations
from web.access import AtTheTable
from web.access import api as api_roles
from web.api import RoleAPIView, answers, call_service, tournament_or_404, valid


class BustReportSerializer(serializers.Serializer):
    report = serializers.IntegerField()
    table = serializers.IntegerField()
    seat = serializers.IntegerField()
    entry = serializers.IntegerField()
    name = serializers.CharField()
    winner_seats = serializers.ListField(child=serializers.IntegerField())
    winners = serializers.ListField(child=serializers.IntegerField(), help_text="Their entry numbers when reported.")
    stack = serializers.IntegerField(allow_null=True)
    status = serializers.ChoiceField(choices=BustReport.Status.choices)
    reported_at = serializers.DateTimeField()
    reported_by = serializers.CharField()
    reason = serializers.CharField()


class ReportBustSerializer(serializers.Serializer):
    seat = serializers.IntegerField(min_value=1, max_value=10, help_text="The seat that busted.")
    winner_seats = serializers.ListField(
        child=serializers.IntegerField(min_value=1, max_value=10),
        required=False,
        max_length=eliminations.MAX_WINNERS,
        help_text="The seats that won the pot (several: a split pot); required in a bounty event.",
    )
    stack = serializers.IntegerField(min_value=0, max_value=busts.MAX_STACK, required=False, allow_null=True)


class RejectSerializer(serializers.Serializer):
    reason = serializers.CharField(max_length=300, allow_blank=True)


class TableBustView(AtTheTable, RoleAPIView):
    allowed = api_roles("api-table-bust")

    @extend_schema(
        operation_id="tables_bust_report",
        tags=["tables"],
        request=ReportBustSerializer,
        responses=answers(201, BustReportSerializer, refused=True, conflict=True),
        summary="The dealer reports a bust at his table: the seat out and the seats that won the pot",
        description="By the house rule `dealer_busts` it applies at once, or waits for the floor's confirmation.",
    )
    def post(self, request, pk: int, number: int):
        table = get_object_or_404(Table, tournament_id=pk, number=number)
        data = valid(ReportBustSerializer, request.data).validated_data
        report = call_service(
            bust_reports.report_bust,
            table,
            actor=request.user,
            seat=data["seat"],
            winner_seats=data.get("winner_seats"),
            stack=data.get("stack"),
        )
        report.refresh_from_db()
        return Response(bust_reports.report_json(report), status=status.HTTP_201_CREATED)


class BustReportsView(RoleAPIView):
    allowed = api_roles("api-bust-reports")

    @extend_schema(
        operation_id="bust_reports",
        tags=["tables"],
        responses=answers(200, BustReportSerializer(many=True)),
        summary="The busts reported by the dealers that wait for the floor",
    )
    def get(self, request, pk: int):
        t = tournament_or_404(pk)
        rows = BustReport.objects.filter(tournament=t, status=BustReport.Status.PENDING).select_related("table", "entry__player")
        return Response([bust_reports.report_json(r) for r in rows])


class BustReportConfirmView(RoleAPIView):
    allowed = api_roles("api-bust-report-confirm")

    @extend_schema(
        operation_id="bust_reports_confirm",
        tags=["tables"],
        request=None,
        responses=answers(200, BustReportSerializer, conflict=True),
        summary="Confirm a dealer's report: the bust is made as reported",
    )
    def post(self, request, pk: int, number: int):
        report = call_service(bust_reports.confirm_bust_report, tournament_or_404(pk), actor=request.user, number=number)
        return Response(bust_reports.report_json(report))


class BustReportRejectView(RoleAPIView):
    allowed = api_roles("api-bust-report-reject")

    @extend_schema(
        operation_id="bust_reports_reject",
        tags=["tables"],
        request=RejectSerializer,
        responses=answers(200, BustReportSerializer, refused=True, conflict=True),
        summary="Reject a dealer's report, with a reason: nothing happens to the player",
    )
    def post(self, request, pk: int, number: int):
        data = valid(RejectSerializer, request.data).validated_data
        report = call_service(
            bust_reports.reject_bust_report, tournament_or_404(pk), actor=request.user, number=number, reason=data["reason"]
        )
        return Response(bust_reports.report_json(report))
