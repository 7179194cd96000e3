"""The import of a tournament file through the JSON API (README, "A tournament in one file"): the director's import
page sends it here (multipart/form-data, the file in `file`); a script may too, with its API token. The service is
archive/transfer.py's, the same as `manage.py import_tournament`: a refused file answers its message (400, or 409
for a tournament here already or a file of another ID hash key), with nothing written.

Size: a file of 10,000 entries is about 11 MB. Django keeps a multipart upload's file out of
DATA_UPLOAD_MAX_MEMORY_SIZE (an upload above FILE_UPLOAD_MAX_MEMORY_SIZE goes to a temporary file), so no setting
stands in its way; this endpoint refuses a file above MAX_FILE_BYTES. A TLS proxy in front must allow as much
(nginx: `client_max_body_size 64m;`)."""
from __future__ import annotations

from django.urls import reverse
from django.utils.translation import gettext as _
from drf_spectacular.utils import extend_schema
from rest_framework import serializers, status
from rest_framework.response import Response

from archive.transfer import import_tournament, read_file
from web.access import api as api_roles
from web.api import RoleAPIView, answers, call_service, valid

MAX_FILE_BYTES = 64_000_000  # a file of 10,000 entries is about 11 MB


class TournamentFileSerializer(serializers.Serializer):
    file = serializers.FileField(help_text="The tournament file written by an export (tournament-<id>.json).",
                                 error_messages={"required": _("Choose a tournament file to import."),
                                                 "empty": _("The file is empty: it is not a tournament file.")})
    other_id_key = serializers.BooleanField(
        default=False, help_text="Import a file made with another ID hash key knowingly (`--other-id-key`): its ID "
                                 "checks cannot be verified here and its players are never matched to the players here.")

    def validate_file(self, upload):
        if upload.size > MAX_FILE_BYTES:
            raise serializers.ValidationError(_("The file is too large for a tournament file (at most %(max)s MB).")
                                              % {"max": MAX_FILE_BYTES // 1_000_000}, code="too_large")
        return upload


class ImportAnswerSerializer(serializers.Serializer):
    id = serializers.IntegerField(help_text="The new tournament's id.")
    name = serializers.CharField()
    page = serializers.CharField(help_text="The new tournament's page.")
    entries = serializers.IntegerField()
    events = serializers.IntegerField(help_text="Audit events of the file (the import's own event comes after them).")
    players_new = serializers.IntegerField()
    players_found = serializers.IntegerField(help_text="Players found here by their ID hash.")
    users_new = serializers.ListField(child=serializers.CharField(),
                                      help_text="Usernames made here, inactive and without a password.")
    id_checks_verifiable = serializers.BooleanField(help_text="False for a file of another ID hash key.")


class TournamentImportView(RoleAPIView):
    allowed = api_roles("api-tournament-import")

    @extend_schema(operation_id="tournaments_import", tags=["tournaments"],
                   summary="Import a tournament file as a new tournament (all or nothing)",
                   description="The file of an export (the director's download, or `manage.py export_tournament`) as a "
                               "file upload (multipart/form-data, at most 64 MB) in `file`. Refused with the import's "
                               "message and nothing written: a cut, damaged or changed file, another format, a "
                               "tournament here already (409), a file of another ID hash key (409) unless "
                               "`other_id_key` is true.",
                   request={"multipart/form-data": TournamentFileSerializer},
                   responses=answers(201, ImportAnswerSerializer, refused=True, conflict=True, lookup=False))
    def post(self, request):
        data = valid(TournamentFileSerializer, request.data).validated_data
        upload = data["file"]
        raw = b"".join(upload.chunks())
        t = call_service(import_tournament, read_file(raw), actor=request.user, other_key=data["other_id_key"])
        report = t.import_report
        answer = {"id": t.pk, "name": t.name, "page": reverse("tournament-detail", args=[t.pk]),
                  **{k: report[k] for k in ("entries", "events", "players_new", "players_found", "users_new",
                                            "id_checks_verifiable")}}
        return Response(answer, status=status.HTTP_201_CREATED)
