"""The import of a tournament file through the JSON API (docs/tournament-file.md): the director's import
page sends it here (multipart/form-data, the file in `file`); a script may too, with its API token. The service is
archive/services/transfer.py's, the same as `manage.py import_tournament`: a refused file answers its message (400, or 409
for a tournament here already or a file of another ID hash key), with nothing written.

Size: a file of 10,000 entries is about 11 MB; settings.TOURNAMENT_FILE_MAX_MB (32 by default) is the most an import
reads. A body larger than that (its Content-Length) is refused 413 before it is parsed, the multipart form included
(web/middleware.py, RefuseOversizedBodyMiddleware);
the import then refuses a file too full or too deep before it parses its JSON (archive/services/transfer.py, read_file).
Django keeps a multipart upload's file out of DATA_UPLOAD_MAX_MEMORY_SIZE (an upload above
FILE_UPLOAD_MAX_MEMORY_SIZE goes to a temporary file). A TLS proxy in front must allow as much (nginx:
`client_max_body_size 32m;`)."""

from __future__ import annotations

from django.conf import settings
from django.urls import reverse
from django.utils.translation import gettext as _
from drf_spectacular.utils import extend_schema
from rest_framework import serializers, status
from rest_framework.response import Response

from archive.services.transfer import import_tournament, max_bytes, read_file
from web.access import api as api_roles
from web.api import REFUSED, RoleAPIView, answers, call_service, valid

FORM_BYTES = 100_000  # the multipart form around the file: its boundaries, headers and the other field


def max_body_bytes() -> int:
    """The largest body of an import: a larger one is refused 413 by its length, unread (web/middleware.py)."""
    return max_bytes() + FORM_BYTES


class TournamentFileSerializer(serializers.Serializer):
    file = serializers.FileField(
        help_text="The tournament file written by an export (tournament-<id>.json).",
        error_messages={
            "required": _("Choose a tournament file to import."),
            "empty": _("The file is empty: it is not a tournament file."),
        },
    )
    other_id_key = serializers.BooleanField(
        default=False,
        help_text="Import a file made with another ID hash key knowingly (`--other-id-key`): its ID "
        "checks cannot be verified here and its players are never matched to the players here.",
    )

    def validate_file(self, upload):
        if upload.size > max_bytes():
            raise serializers.ValidationError(
                _("The file is too large for a tournament file (at most %(max)s MB).") % {"max": settings.TOURNAMENT_FILE_MAX_MB},
                code="too_large",
            )
        return upload


class ImportAnswerSerializer(serializers.Serializer):
    id = serializers.IntegerField(help_text="The new tournament's id.")
    name = serializers.CharField()
    page = serializers.CharField(help_text="The new tournament's page.")
    entries = serializers.IntegerField()
    events = serializers.IntegerField(help_text="Audit events of the file (the import's own event comes after them).")
    players_new = serializers.IntegerField()
    players_found = serializers.IntegerField(help_text="Players found here by their ID hash.")
    users_new = serializers.ListField(child=serializers.CharField(), help_text="Usernames made here, inactive and without a password.")
    links_revoked = serializers.IntegerField(
        help_text="Dealer links and lobby screens of the file that were live: they come revoked (a file never brings a working link)."
    )
    id_checks_verifiable = serializers.BooleanField(help_text="False for a file of another ID hash key.")
    tables_not_held = serializers.ListField(
        child=serializers.DictField(),
        help_text="Its tables in play that this venue cannot give it now (held by another tournament, closed, reserved, not in "
        "the venue), each with the reason: the floor frees them, or moves their players, and opens them again.",
    )


class TournamentImportView(RoleAPIView):
    allowed = api_roles("api-tournament-import")

    @extend_schema(
        operation_id="tournaments_import",
        tags=["tournaments"],
        summary="Import a tournament file as a new tournament (all or nothing)",
        description="The file of an export (the director's download, or `manage.py export_tournament`) as a "
        "file upload (multipart/form-data, at most TOURNAMENT_FILE_MAX_MB, 32 MB by default: a larger "
        "body 413, unread) in `file`. Refused with the import's message and nothing written: a "
        "cut, damaged or changed file, another format, a value of the wrong type, a "
        "tournament here already (409), a file of another ID hash key (409) unless "
        "`other_id_key` is true.",
        request={"multipart/form-data": TournamentFileSerializer},
        responses={**answers(201, ImportAnswerSerializer, refused=True, conflict=True, lookup=False), 413: REFUSED},
    )
    def post(self, request):
        data = valid(TournamentFileSerializer, request.data).validated_data
        upload = data["file"]
        raw = b"".join(upload.chunks())
        t = call_service(import_tournament, read_file(raw), actor=request.user, other_key=data["other_id_key"])
        report = t.import_report
        answer = {
            "id": t.pk,
            "name": t.name,
            "page": reverse("tournament-detail", args=[t.pk]),
            **{
                k: report[k]
                for k in (
                    "entries",
                    "events",
                    "players_new",
                    "players_found",
                    "users_new",
                    "id_checks_verifiable",
                    "links_revoked",
                    "tables_not_held",
                )
            },
        }
        return Response(answer, status=status.HTTP_201_CREATED)
