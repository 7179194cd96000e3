"""JSON API of the structure templates: list, save, import, export and copy them (the director). A tournament's own
structure is changed through web/tournament/api.py (TournamentStructureView), with the same checks."""

from __future__ import annotations

from django.db.models import Prefetch
from django.shortcuts import get_object_or_404
from drf_spectacular.utils import extend_schema
from rest_framework import status
from rest_framework.exceptions import ValidationError
from rest_framework.response import Response

from core.errors import ServiceError
from tournament.models import Level, Structure
from tournament.rules import structure as rules
from tournament.selectors.messages import problem_message
from tournament.services import setup
from web.access import api as api_roles
from web.api import RoleAPIView, answers, call_service, valid
from web.tournament import structure_serializers as st


def template_or_404(pk: int) -> Structure:
    return get_object_or_404(Structure, pk=pk, is_template=True)


def structure_detail(structure: Structure) -> Structure:
    return Structure.objects.prefetch_related("denominations", Prefetch("levels", Level.objects.order_by("position"))).get(pk=structure.pk)


def save_spec(fn, actor, *, spec: rules.StructureSpec, starting_stack: int | None = None, **kwargs):
    """Save a structure by one service. Refused by the structure rules: a ValidationError raised from the
    service's refusal (web.api keeps its code, message and every problem), whose fields put each row's
    problems under `levels.<i>` (the row of the body), so the editor shows them by their row, the others
    (the chips, the starting stack) under `non_field_errors`."""
    try:
        return call_service(fn, actor=actor, spec=spec, **kwargs)
    except ServiceError as exc:
        if exc.code != "structure_invalid":
            raise
        fields: dict[str, list[str]] = {}
        for problem in rules.validate(spec, starting_stack):
            row = problem.position and problem.position <= len(spec.levels)
            fields.setdefault(f"levels.{problem.position - 1}" if row else "non_field_errors", []).append(str(problem_message(problem)))
        raise ValidationError(fields) from exc


def structure_json(structure: Structure) -> dict:
    return st.StructureDetailSerializer(structure_detail(structure)).data


class StructureListView(RoleAPIView):
    allowed = api_roles("api-structures")

    @extend_schema(
        operation_id="structures_list",
        tags=["structures"],
        summary="Structure templates",
        responses=answers(200, st.StructureSummarySerializer(many=True), lookup=False),
    )
    def get(self, request):
        templates = Structure.objects.filter(is_template=True).prefetch_related("levels", "denominations")
        return Response(st.StructureSummarySerializer(templates, many=True).data)

    @extend_schema(
        operation_id="structures_create",
        tags=["structures"],
        summary="Create a template from the export format",
        request=st.StructureExportSerializer,
        responses=answers(201, st.StructureDetailSerializer, refused=True, lookup=False),
    )
    def post(self, request):
        spec = valid(st.StructureExportSerializer, request.data).spec()
        structure = save_spec(setup.save_structure_template, request.user, spec=spec)
        return Response(structure_json(structure), status=status.HTTP_201_CREATED)


class StructureImportView(RoleAPIView):
    allowed = api_roles("api-structure-import")

    @extend_schema(
        operation_id="structures_import",
        tags=["structures"],
        summary="Import an exported structure as a new template",
        description="The export as the JSON body, or as a file upload (multipart/form-data): the file in "
        "`file`, or its JSON pasted in `text`. A file that is not an export says what is wrong "
        "(not UTF-8, not JSON with its line and column, too large, both or neither given).",
        request={"application/json": st.StructureExportSerializer, "multipart/form-data": st.StructureUploadSerializer},
        responses=answers(201, st.StructureDetailSerializer, refused=True, lookup=False),
    )
    def post(self, request):
        if request.content_type.startswith("multipart/"):
            data = valid(st.StructureUploadSerializer, request.data).validated_data["json"]
        else:
            data = valid(st.StructureExportSerializer, request.data).export_data()
        structure = call_service(setup.import_structure, data, actor=request.user)
        return Response(structure_json(structure), status=status.HTTP_201_CREATED)


class StructureDetailView(RoleAPIView):
    allowed = api_roles("api-structure")

    @extend_schema(
        operation_id="structures_retrieve",
        tags=["structures"],
        summary="A template with its chips and levels",
        responses=answers(200, st.StructureDetailSerializer),
    )
    def get(self, request, pk: int):
        return Response(structure_json(template_or_404(pk)))

    @extend_schema(
        operation_id="structures_replace",
        tags=["structures"],
        summary="Replace a template (export format)",
        request=st.StructureExportSerializer,
        responses=answers(200, st.StructureDetailSerializer, refused=True),
    )
    def put(self, request, pk: int):
        template = template_or_404(pk)
        spec = valid(st.StructureExportSerializer, request.data).spec()
        return Response(structure_json(save_spec(setup.save_structure_template, request.user, spec=spec, structure=template)))


class StructureCopyView(RoleAPIView):
    allowed = api_roles("api-structure-copy")

    @extend_schema(
        operation_id="structures_copy",
        tags=["structures"],
        summary="Copy a structure (a template, or a tournament's own) as a new template under a new name",
        request=st.CopySerializer,
        responses=answers(201, st.StructureDetailSerializer, refused=True),
    )
    def post(self, request, pk: int):
        source = get_object_or_404(Structure, pk=pk)
        name = valid(st.CopySerializer, request.data).validated_data["name"]
        copy = call_service(setup.copy_structure, source, actor=request.user, name=name)
        return Response(structure_json(copy), status=status.HTTP_201_CREATED)


class StructureExportView(RoleAPIView):
    allowed = api_roles("api-structure-export")

    @extend_schema(
        operation_id="structures_export",
        tags=["structures"],
        summary="Export a template (JSON file format)",
        responses=answers(200, st.StructureExportSerializer),
    )
    def get(self, request, pk: int):
        return Response(setup.export_structure(template_or_404(pk)))
